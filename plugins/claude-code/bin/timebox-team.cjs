// Timebox's team batch script for Claude Code's hooks module, bundled from src/entries/team-batch.ts by npm run build. Do not edit.
"use strict";

// src/entries/team-batch.ts
var import_node_fs4 = require("node:fs");
var import_node_url = require("node:url");

// src/adapters/node/node-time.ts
var systemClock = { now: () => Date.now() };

// src/core/constants.ts
var MAX_TIME_LIMIT_MS = 30 * 24 * 60 * 60 * 1e3;
var MAX_GRACE_MS = 10 * 60 * 1e3;
var OFF_WORDS = ["off", "disable", "cancel"];
var STATUS_WORD = "status";
var PAUSE_WORD = "pause";
var RESUME_WORD = "resume";
var REPORT_WORD = "report";
var REPORT_PAGE_WORD = "page";
var SUGGEST_WORD = "suggest";
var TODAY_WORD = "today";
var TEAM_WORD = "team";
var SUBAGENTS_WORD = "subagents";
var DAILY_STORE_ENV = "TIMEBOX_DAILY_STORE";
var TEAM_ENV = "TIMEBOX_TEAM";
var TEAM_TZ_ENV = "TIMEBOX_TEAM_TZ";
var DAILY_STORE_FAILURE_ENV = "TIMEBOX_DAILY_STORE_FAILURE";
var TEAM_CONNECT_MS = 1e3;
var TEAM_CALL_MS = 2e3;
var TEAM_FIRST_CALL_MS = 3e4;
var TEAM_WAIT_MS = 1e4;
var TEAM_HOP_WAIT_MS = 3e3;
var TEAM_RETRY_MS = 5e3;
var TEAM_RESERVATION_MS = 10 * 6e4;
var TEAM_KEYS_OUTLIVE_S = 24 * 3600;
var TEAM_DAYS_KEPT = 2;
var TEAM_SCOPE = "team";
var TEAM_ASKS_KEPT = 100;

// src/core/grammar/command.ts
var TODAY_COMMAND = new RegExp(`^${TODAY_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var TEAM_COMMAND = new RegExp(`^${TEAM_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var REPORT_PAGE_COMMAND = new RegExp(`^${REPORT_WORD}\\s+${REPORT_PAGE_WORD}$`, "i");
var SUBAGENTS_COMMAND = new RegExp(`^${SUBAGENTS_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var SUB_COMMANDS = new Map([
  [STATUS_WORD, "status"],
  [REPORT_WORD, "report"],
  [SUGGEST_WORD, "suggest"],
  [PAUSE_WORD, "pause"],
  [RESUME_WORD, "resume"],
  ...OFF_WORDS.map((word) => [word, "off"])
]);

// src/core/daily/daily-budget.ts
var NO_ADJUSTMENT = { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false };

// src/core/text/loop.ts
var FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";
var LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;

// src/core/format.ts
var SPENT_STATUS = "Timebox: budget spent";
var WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;
var lastLabel = { ms: Number.NaN, text: "" };

// src/core/text/host-terms.ts
var WRITTEN_COMMAND = "/timebox";
var DEFAULT_TERMS = {
  name: "pi",
  command: WRITTEN_COMMAND,
  tokens: true,
  cost: true,
  dailySetting: `Set one under the timebox key of pi's settings.json ("daily": "3h turns:60 cost:10").`
};
function noDailyBudgetMessage(terms) {
  return `No daily budget is set. ${terms.dailySetting}`;
}

// src/core/text/messages.ts
var USAGE = [
  "Usage: /timebox <budget> [-- <command>] | status | off",
  "       /timebox +<budget> (extend) | pause | resume | report | suggest",
  "       /timebox subagents [<budget> | off] (a budget for each subagent: a time, steps:30, tokens:200k, cost:0.50, loop:3)",
  "  budget: 30s 15m 2h 1h30m (a bare number is minutes), turns:5 (prompts you send), steps:25 (model calls per prompt), tokens:200k, cost:2.50, loop:3 (identical tool calls per prompt)",
  "  options: aware (the model sees what is left at every call), grace:30s (time to wrap up at the limit)",
  '  e.g. /timebox 15m turns:3    /timebox turns:5 -- notify-send "Timebox done"    /timebox +10m +turns:2'
].join("\n");
var WRAP_UP_REFUSAL = `Timebox: the budget is spent. ${FINISH_NOW}`;
var NO_DAILY_BUDGET = noDailyBudgetMessage(DEFAULT_TERMS);

// src/core/daily/team-text.ts
var STORE_SOURCE = "set in its store";
function teamWriteNotSent(why) {
  return `Timebox: the team's daily store did not get it (${why}). Nothing changed.`;
}
function teamStoreDidNotTake(shown, why) {
  return `Timebox: the team's daily store ${shown} did not take it (${why}). Nothing changed.`;
}
function teamStoreNotReached(shown, why, showing) {
  const what = showing ? "so the team cannot be shown" : "so nothing changed";
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}), ${what}.`;
}
function teamAsksFull(count) {
  return `Timebox: the team's day holds ${count} open requests already, so this one was not recorded. Ask the admin directly.`;
}

// src/core/daily/team.ts
function budgetsInForce(own, team, stored) {
  if (stored === null) return own.map((budget) => ({ ...budget, team }));
  const store = { scope: TEAM_SCOPE, source: STORE_SOURCE, limits: stored.limits, team, stored };
  return [store, ...own.map((budget) => ({ ...budget, personal: true }))];
}
function countsInStore(budget) {
  return budget.personal !== true;
}
function byWhereCounted(budgets, limits) {
  const sorted = {
    store: { budgets: [], limits: [] },
    machine: { budgets: [], limits: [] },
    own: { budgets: [], limits: [] }
  };
  budgets.forEach((budget, index) => {
    const limit2 = limits[index] ?? null;
    const places = countsInStore(budget) ? [sorted.store, ...budget.stored ? [] : [sorted.own]] : [sorted.machine];
    for (const place of places) {
      place.budgets.push(budget);
      place.limits.push(limit2);
    }
  });
  return sorted;
}
function closedTeamStanding(team, closed, dayStart) {
  const limits = { timeMs: null, turns: null, tokens: null, cost: null };
  return {
    budget: { scope: TEAM_SCOPE, source: STORE_SOURCE, limits, team },
    use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 },
    adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
    dayStart,
    closed
  };
}
function teamStandings(own, team, reading, machine) {
  const budgets = budgetsInForce(own, team, reading.stored);
  const personal = budgets.filter((budget) => !countsInStore(budget));
  const mine = personal.length === 0 ? [] : machine(personal);
  const standings = [];
  for (const budget of budgets) {
    if (countsInStore(budget)) {
      const adjustment = budget.stored ? reading.raise : reading.added;
      standings.push({ budget, use: reading.use, adjustment, dayStart: reading.dayStart });
      continue;
    }
    const standing = mine[personal.indexOf(budget)];
    if (standing) standings.push({ ...standing, budget });
  }
  return standings;
}
function requestsAnswered(asks, raise) {
  if (raise.off) return asks.map((ask) => ask.id);
  const covers = (asked, added) => asked <= 0 || added >= asked;
  return asks.filter(
    (ask) => covers(ask.adjustment.addTimeMs, raise.addTimeMs) && covers(ask.adjustment.addPrompts, raise.addPrompts) && covers(ask.adjustment.addTokens, raise.addTokens) && covers(ask.adjustment.addCost, raise.addCost)
  ).map((ask) => ask.id);
}

// src/core/subagents/messages.ts
var SUBAGENT_WRAP_UP_BLOCK = [
  "TIMEBOX: TASK BUDGET SPENT",
  "Your budget for this task is spent. Write your final answer now: what you found, and what is left undone.",
  "Call no more tools: they are refused, and you are stopped if you ask for one again."
].join("\n");

// src/core/suggest/statistics.ts
var MINUTE_MS = 6e4;
var HOUR_MS = 60 * MINUTE_MS;

// src/core/text/model-notes.ts
var BUDGET_IN_FORCE_PROMPT = [
  "",
  "",
  "TIMEBOX",
  "The user gave this session a budget (time, turns, tokens or cost). When it runs low, or at every model call if the user asked for that, the end of the messages says what is left: follow it. When the budget runs out, the run is stopped."
].join("\n");
var WRAP_UP_PROMPT = [
  "TIMEBOX: BUDGET SPENT",
  "The budget the user gave this session is spent. Write your final answer now: what was done, and what is left to do.",
  "Call no more tools: they are refused, and the run is stopped if you ask for one again."
].join("\n");

// src/core/loop/run-calls.ts
var BITS = 5;
var WIDTH = 1 << BITS;
var MASK = WIDTH - 1;
var EMPTY_LEVEL = Array.from({ length: WIDTH }, () => void 0);

// src/core/text/notices.ts
function dailyLedgerUnusable(dir, reason) {
  return `Timebox: the daily ledger in ${dir} cannot be used (${reason}), so today's budget is not enforced here.`;
}
function teamSettingsUnusable(why) {
  return `Timebox: ${why} The daily budget is this machine's alone.`;
}
function teamStoreUnreachable(shown, why, closed) {
  const goesOn = closed ? "new turns are refused until it answers" : "this machine counts today's use on its own until it answers, then sends it to the team";
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}): ${goesOn}.`;
}
function teamUnsentLostMessage(why) {
  return `Timebox: what this machine used while the team's store was down could not be kept to send later (${why}): the team's day will not count it.`;
}
function teamStoreRefusal(shown, why) {
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}), so new turns are refused until it answers.`;
}
function teamStoreDenied(shown, why) {
  return `Timebox: the team's daily store ${shown} refused this user the team's day (${why}), so new turns are refused until its admin lets this user count there (docs/team.md gives a member's ACL).`;
}

// src/adapters/team/batch.ts
var WRITES = /* @__PURE__ */ new Set(["adjust", "limits", "ask"]);
var OPS = /* @__PURE__ */ new Set(["count", "use", "reserve", "adjust", "view", "limits", "ask"]);
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function parseTeamRequest(text) {
  let value;
  try {
    value = JSON.parse(text ?? "");
  } catch {
    return { error: "the team request is not JSON" };
  }
  if (!isObject(value) || typeof value.session !== "string" || value.session === "")
    return { error: "the team request names no session" };
  if (!Array.isArray(value.budgets) || !value.budgets.every(isObject))
    return { error: "the team request's budgets are not a list of budgets" };
  if (!Array.isArray(value.ops) || !value.ops.every((op) => isObject(op) && OPS.has(String(op.op))))
    return { error: "the team request's calls are not a list of count, use, reserve, adjust, view, limits and ask" };
  if (value.carry !== void 0 && !isObject(value.carry))
    return { error: "the team request's carry is not an object" };
  if (value.read !== void 0 && typeof value.read !== "boolean")
    return { error: "the team request's read is not true or false" };
  return value;
}
async function runTeamBatch(request, ledger) {
  const counted = [];
  const calls = [];
  const read = () => request.read === false ? [] : ledger.standings(request.budgets);
  let view;
  for (const op of request.ops) {
    switch (op.op) {
      case "count": {
        const taken = Promise.resolve(ledger.countPrompt(op.budgets ?? request.budgets, op.limits));
        counted.push(taken);
        calls.push(taken);
        break;
      }
      case "use":
        calls.push(Promise.resolve(ledger.addUse(op.budgets ?? request.budgets, op.use)));
        break;
      case "reserve":
        calls.push(Promise.resolve(ledger.reserve?.(op.budgets ?? request.budgets)));
        break;
      case "view":
        view = Promise.resolve(ledger.teamView?.() ?? { unreadable: teamWriteNotSent("no team is set") });
        calls.push(view);
        break;
    }
  }
  const writing = request.ops.some(isWrite);
  const together = ledger.sendsFirst?.() || writing ? null : read();
  await Promise.all(calls);
  const writes = await runWrites(request.ops, ledger);
  const standings = await (together ?? read());
  return {
    counted: await Promise.all(counted),
    standings,
    problem: ledger.problem(),
    carry: ledger.carry?.() ?? null,
    ...writes.length === 0 ? {} : { writes },
    ...view === void 0 ? {} : { view: await view }
  };
}
function isWrite(op) {
  return WRITES.has(op.op);
}
async function runWrites(ops, ledger) {
  const writes = [];
  for (const op of ops.filter(isWrite)) {
    const before = writes.find((write3) => write3 !== "done");
    if (before !== void 0) {
      writes.push({ failed: teamWriteNotSent("a write before it was not done") });
      continue;
    }
    writes.push(await write2(op, ledger) ?? "done");
  }
  return writes;
}
function write2(op, ledger) {
  const none = { failed: teamWriteNotSent("no team is set") };
  switch (op.op) {
    case "adjust":
      return ledger.adjust(op.budget, op.adjustment);
    case "limits":
      return ledger.setTeamLimits?.(op.limits) ?? none;
    case "ask":
      return ledger.askTeam?.(op.adjustment, op.why) ?? none;
  }
}

// src/adapters/team/open.ts
var import_node_os2 = require("node:os");

// lazy-builtins:node:crypto
var loaded;
var load2 = () => loaded ??= require("crypto");
function createHash(...args) {
  return load2().createHash(...args);
}
function randomUUID(...args) {
  return load2().randomUUID(...args);
}

// src/adapters/node/daily-ledger.ts
var import_node_fs2 = require("node:fs");
var import_node_os = require("node:os");
var import_node_path = require("node:path");

// src/adapters/daily/ledger.ts
function stateDirIn(stateHome, home) {
  return stateHome?.trim() ? `${stateHome}/timebox` : `${home}/.local/state/timebox`;
}
function localDay(ms) {
  const date = new Date(ms);
  const pad = (value) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
function dayStartOf(ms) {
  const date = new Date(ms);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}
function numberOr(value) {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
var NOTHING_NEW = [];
function readOn(files, file, offset) {
  const size = files.size(file);
  if (size <= offset) return { lines: NOTHING_NEW, offset };
  const text = files.read(file, offset, size - offset);
  const end = text.lastIndexOf("\n");
  if (end < 0) return { lines: [], offset };
  const lines = [];
  for (const raw of text.slice(0, end).split("\n")) {
    try {
      lines.push(JSON.parse(raw));
    } catch {
    }
  }
  return { lines, offset: offset + files.byteLength(text.slice(0, end + 1)) };
}
function fieldsOf(value) {
  return typeof value === "object" && value !== null ? value : {};
}
function takeUse(cache, line) {
  const fields2 = fieldsOf(line);
  if (typeof fields2.session === "string") cache.sessions.add(fields2.session);
  cache.agentMs += numberOr(fields2.agentMs);
  cache.tokens += numberOr(fields2.tokens);
  cache.cost += numberOr(fields2.cost);
}
function dailyLedgerOver(files, dir, sessionId, clock, scopeName) {
  const caches = /* @__PURE__ */ new Map();
  const pruned = /* @__PURE__ */ new Set();
  let trouble = null;
  let told = false;
  const guard = (fallback, action) => {
    try {
      return action();
    } catch (error) {
      trouble ??= dailyLedgerUnusable(dir, String(error));
      return fallback;
    }
  };
  const cacheOf = (scope) => {
    const day = localDay(clock.now());
    const scopeDir = files.join(dir, "daily", scopeName(scope));
    const key = `${scope}\0${day}`;
    let cache = caches.get(key);
    if (!cache) {
      const folder = files.join(scopeDir, day);
      cache = {
        folder,
        useFile: files.join(folder, "use.jsonl"),
        adjustFile: files.join(folder, "adjust.jsonl"),
        useOffset: 0,
        adjustOffset: 0,
        agentMs: 0,
        tokens: 0,
        cost: 0,
        sessions: /* @__PURE__ */ new Set(),
        adjustment: { ...NO_ADJUSTMENT },
        prompts: 0
      };
      files.makeDir(cache.folder);
      caches.set(key, cache);
      if (!pruned.has(key)) {
        pruned.add(key);
        const yesterday = localDay(dayStartOf(clock.now()) - 1);
        for (const name of files.list(scopeDir)) if (name < yesterday) files.remove(files.join(scopeDir, name));
      }
    }
    return cache;
  };
  const refresh = (cache) => {
    const use = readOn(files, cache.useFile, cache.useOffset);
    cache.useOffset = use.offset;
    for (const line of use.lines) takeUse(cache, line);
    const adjust = readOn(files, cache.adjustFile, cache.adjustOffset);
    cache.adjustOffset = adjust.offset;
    for (const line of adjust.lines) {
      const fields2 = fieldsOf(line);
      const now = cache.adjustment;
      cache.adjustment = {
        addTimeMs: now.addTimeMs + numberOr(fields2.addTimeMs),
        // The ledger's lines name added prompts `addTurns`, as every version writes and reads them.
        addPrompts: now.addPrompts + numberOr(fields2.addTurns),
        addTokens: now.addTokens + numberOr(fields2.addTokens),
        addCost: now.addCost + numberOr(fields2.addCost),
        off: now.off || fields2.off === true
      };
    }
    while (files.exists(files.join(cache.folder, `prompt-${cache.prompts + 1}`))) cache.prompts++;
  };
  const appendUse = (cache, line) => {
    const text = `${JSON.stringify(line)}
`;
    const { before, after } = files.append(cache.useFile, text);
    if (before === cache.useOffset && after === before + files.byteLength(text)) {
      cache.useOffset = after;
      takeUse(cache, line);
    }
  };
  return {
    standings(budgets) {
      return guard(
        [],
        () => budgets.map((budget) => {
          const cache = cacheOf(budget.scope);
          refresh(cache);
          return {
            budget,
            use: {
              agentMs: cache.agentMs,
              prompts: cache.prompts,
              tokens: cache.tokens,
              cost: cache.cost,
              sessions: cache.sessions.size
            },
            adjustment: cache.adjustment,
            dayStart: dayStartOf(clock.now())
          };
        })
      );
    },
    countPrompt(budgets, limits) {
      return guard(true, () => {
        for (const [index, budget] of budgets.entries()) {
          const cache = cacheOf(budget.scope);
          const limit2 = limits[index] ?? null;
          for (; ; ) {
            const next = cache.prompts + 1;
            if (limit2 !== null && next > limit2) return false;
            const file = files.join(cache.folder, `prompt-${next}`);
            const created = files.createExclusive(file, `${JSON.stringify({ session: sessionId, at: clock.now() })}
`);
            cache.prompts = next;
            if (created) {
              appendUse(cache, { session: sessionId });
              break;
            }
          }
        }
        return true;
      });
    },
    addUse(budgets, use) {
      guard(void 0, () => {
        for (const budget of budgets) appendUse(cacheOf(budget.scope), { session: sessionId, ...use });
      });
    },
    adjust(budget, adjustment) {
      guard(void 0, () => {
        const { addPrompts, ...rest } = adjustment;
        const line = { session: sessionId, ...rest, addTurns: addPrompts };
        files.append(cacheOf(budget.scope).adjustFile, `${JSON.stringify(line)}
`);
      });
      return void 0;
    },
    problem() {
      if (trouble === null || told) return null;
      told = true;
      return trouble;
    }
  };
}

// src/adapters/node/append-line.ts
var import_node_fs = require("node:fs");
var nodeAppendFiles = {
  openAppend: (path) => (0, import_node_fs.openSync)(path, "a+"),
  size: (fd) => (0, import_node_fs.fstatSync)(fd).size,
  byteAt(fd, position) {
    const byte = Buffer.alloc(1);
    (0, import_node_fs.readSync)(fd, byte, 0, 1, position);
    return byte.toString("latin1");
  },
  write: (fd, text) => {
    (0, import_node_fs.writeSync)(fd, text);
  },
  close: (fd) => (0, import_node_fs.closeSync)(fd)
};
function appendLine(path, line, files = nodeAppendFiles) {
  let fd;
  try {
    fd = files.openAppend(path);
  } catch (error) {
    throw named(path, error);
  }
  try {
    const before = files.size(fd);
    const torn = before > 0 && files.byteAt(fd, before - 1) !== "\n";
    files.write(fd, torn ? `
${line}` : line);
    return { before, after: files.size(fd) };
  } catch (error) {
    throw named(path, error);
  } finally {
    files.close(fd);
  }
}
function named(path, error) {
  const failed = error;
  if (failed.message.includes(path)) return failed;
  return Object.assign(new Error(`${failed.message} (${path})`), { code: failed.code });
}

// src/adapters/node/daily-ledger.ts
function dailyStateDir(env) {
  return (0, import_node_path.join)(stateDirIn(env.XDG_STATE_HOME, env.HOME ?? (0, import_node_os.homedir)()));
}
function scopeFolder(scope) {
  return scope === "user" ? "user" : `project-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
}
var nodeDailyFiles = {
  join: import_node_path.join,
  makeDir: (path) => {
    (0, import_node_fs2.mkdirSync)(path, { recursive: true });
  },
  list: (path) => (0, import_node_fs2.readdirSync)(path),
  remove: (path) => (0, import_node_fs2.rmSync)(path, { recursive: true, force: true }),
  exists: (path) => (0, import_node_fs2.statSync)(path, { throwIfNoEntry: false }) !== void 0,
  size: (path) => (0, import_node_fs2.statSync)(path, { throwIfNoEntry: false })?.size ?? 0,
  read(path, offset, length) {
    const fd = (0, import_node_fs2.openSync)(path, "r");
    try {
      const buffer = Buffer.alloc(length);
      const read = (0, import_node_fs2.readSync)(fd, buffer, 0, length, offset);
      return buffer.subarray(0, read).toString("utf8");
    } finally {
      (0, import_node_fs2.closeSync)(fd);
    }
  },
  byteLength: (text) => Buffer.byteLength(text, "utf8"),
  // A line torn by a process killed mid-write stays apart from the next (`append-line.ts`).
  append: (path, text) => appendLine(path, text),
  createExclusive(path, text) {
    try {
      (0, import_node_fs2.writeFileSync)(path, text, { flag: "wx" });
      return true;
    } catch (error) {
      if (error.code === "EEXIST") return false;
      throw error;
    }
  }
};
function createDailyLedger(dir, sessionId, clock) {
  return dailyLedgerOver(nodeDailyFiles, dir, sessionId, clock, scopeFolder);
}

// src/adapters/team/async-ledger.ts
async function runAsync(step, store) {
  let next = step.next();
  while (!next.done) {
    const call = next.value;
    let reply = { ok: true, value: null };
    if (call.post) store().post(call.script, call.keys, call.args);
    else reply = await store().call(call.script, call.keys, call.args, call.timeoutMs);
    next = step.next(reply);
  }
  return next.value;
}
var AsyncTeamLedger = class {
  constructor(day, open) {
    this.day = day;
    this.open = open;
  }
  day;
  open;
  store = null;
  run(step) {
    return runAsync(step, () => {
      this.store ??= this.open();
      return this.store;
    });
  }
  standings(budgets) {
    return this.run(this.day.standings(budgets));
  }
  countPrompt(budgets, limits) {
    return this.run(this.day.countPrompt(budgets, limits));
  }
  addUse(budgets, use) {
    return this.run(this.day.addUse(budgets, use));
  }
  reserve(budgets) {
    return this.run(this.day.reserve(budgets));
  }
  adjust(budget, adjustment) {
    return this.run(this.day.adjust(budget, adjustment));
  }
  teamView() {
    return this.run(this.day.view());
  }
  setTeamLimits(limits) {
    return this.run(this.day.setLimits(limits));
  }
  askTeam(adjustment, why) {
    return this.run(this.day.ask(adjustment, why));
  }
  problem() {
    return this.day.problem();
  }
  sendsFirst() {
    return this.day.sendsFirst();
  }
  carry() {
    return this.day.carry();
  }
};

// src/adapters/team/scripts.ts
function dayKeys(team, day) {
  const prefix = `timebox:{${team}}:${day}:`;
  return [`${prefix}use`, `${prefix}sessions`, `${prefix}who`, `${prefix}res`, `${prefix}sent`, `${prefix}asks`];
}
function adminKeys(team, day) {
  return { limits: `timebox:{${team}}:limits`, raise: `timebox:{${team}}:raise:${day}` };
}
var COMMON = `
local function keep()
  for _, key in ipairs(KEYS) do redis.call('EXPIREAT', key, ARGV[1]) end
end
local function join()
  if redis.call('SADD', KEYS[2], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[3], ARGV[3], 1) end
end
-- Adds use (ARGV[4] agentMs, [5] tokens, [6] cost, [7] prompts): whether there was any.
local function add()
  local used = false
  if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'agentMs', ARGV[4]); used = true end
  if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[5]); used = true end
  if tonumber(ARGV[6]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'cost', ARGV[6]); used = true end
  if tonumber(ARGV[7]) > 0 then redis.call('HINCRBY', KEYS[1], 'prompts', ARGV[7]); used = true end
  return used
end
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- The admin's keys of the day, by name from the day's \`use\`: the team's limits, and the day's raises.
local function admin()
  local base, day = string.match(KEYS[1], '^(.*):([^:]*):use$')
  return base .. ':limits', base .. ':raise:' .. day
end
`;
var SCRIPTS = {
  /**
   * Today's use and additions, who used it, the session count, the live reservations of the other sessions, and the
   * admin's limits and today's raises.
   */
  read: `${COMMON}
local tokens, cost, now = 0, 0, nowMs()
local res = redis.call('HGETALL', KEYS[4])
for i = 1, #res, 2 do
  local t, c, e = string.match(res[i + 1], '^([^:]*):([^:]*):([^:]*)$')
  if tonumber(e) == nil or tonumber(e) < now then redis.call('HDEL', KEYS[4], res[i])
  elseif res[i] ~= ARGV[2] then tokens = tokens + tonumber(t); cost = cost + tonumber(c) end
end
local limits, raise = admin()
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[3]), redis.call('SCARD', KEYS[2]), tostring(tokens),
  tostring(cost), redis.call('HGETALL', limits), redis.call('HGETALL', raise)}`,
  /** Counts a prompt unless ARGV[4] (the prompt limit with today's additions, -1 for none) is reached: 1, else 0. */
  count: `${COMMON}
local limit = tonumber(ARGV[4])
local prompts = tonumber(redis.call('HGET', KEYS[1], 'prompts') or '0')
if limit >= 0 and prompts >= limit then return 0 end
redis.call('HINCRBY', KEYS[1], 'prompts', 1)
join()
keep()
return 1`,
  /**
   * Adds use (ARGV[4] agentMs, [5] tokens, [6] cost, [7] prompts counted elsewhere) and settles the reservation; a
   * session that adds nothing (a refused turn's) does not count as one that used the day.
   */
  use: `${COMMON}
local used = add()
redis.call('HDEL', KEYS[4], ARGV[2])
if used then join() end
keep()
return 1`,
  /**
   * Adds use a machine kept while the store was down (ARGV[4] agentMs, [5] tokens, [6] cost, [7] prompts, of the
   * session ARGV[2]) once, by its id (ARGV[8]): 1, else 0 when it was sent before.
   */
  send: `${COMMON}
if redis.call('SADD', KEYS[5], ARGV[8]) == 0 then return 0 end
if add() then join() end
keep()
return 1`,
  /** Reserves ARGV[4] tokens and ARGV[5] cost for the session's model call, for ARGV[6] ms at most. */
  reserve: `${COMMON}
redis.call('HSET', KEYS[4], ARGV[2], ARGV[4] .. ':' .. ARGV[5] .. ':' .. (nowMs() + tonumber(ARGV[6])))
keep()
return 1`,
  /**
   * For a team without limits in its store: adds to today's additions (ARGV[4] addTimeMs, [5] addPrompts, [6]
   * addTokens, [7] addCost) or, ARGV[8] = 1, ends the day's limits.
   */
  adjust: `${COMMON}
if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTimeMs', ARGV[4]) end
if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'addPrompts', ARGV[5]) end
if tonumber(ARGV[6]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTokens', ARGV[6]) end
if tonumber(ARGV[7]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'addCost', ARGV[7]) end
if ARGV[8] == '1' then redis.call('HSET', KEYS[1], 'off', '1') end
keep()
return 1`,
  /** The admin's limits and the day's open requests. */
  view: `${COMMON}
local limits = admin()
return {redis.call('HGETALL', limits), redis.call('HGETALL', KEYS[6])}`,
  /**
   * Records a member's request (ARGV[4] its id, [5] its JSON) unless the day holds ARGV[6] open requests already:
   * 1, else 0.
   */
  ask: `${COMMON}
if redis.call('HLEN', KEYS[6]) >= tonumber(ARGV[6]) then return 0 end
redis.call('HSET', KEYS[6], ARGV[4], ARGV[5])
keep()
return 1`,
  /**
   * The admin's: sets the team's limits (KEYS[1]) to ARGV[4] timeMs, [5] turns, [6] tokens, [7] cost ('' for none),
   * set by ARGV[3] at ARGV[8] (epoch ms); ARGV[4] = off removes them. They never expire.
   */
  limits: `
redis.call('DEL', KEYS[1])
if ARGV[4] == 'off' then return 1 end
local fields = {'by', ARGV[3], 'at', ARGV[8]}
for i, name in ipairs({'timeMs', 'turns', 'tokens', 'cost'}) do
  if ARGV[3 + i] ~= '' then table.insert(fields, name); table.insert(fields, ARGV[3 + i]) end
end
redis.call('HSET', KEYS[1], unpack(fields))
return 1`,
  /**
   * The admin's: raises the day's limits (KEYS[1], the day's raises: ARGV[4] addTimeMs, [5] addPrompts, [6] addTokens,
   * [7] addCost) or, ARGV[8] = 1, ends them for the day; the requests it answers (ARGV[9] on) leave the day's open
   * requests (KEYS[2]). The raises expire with the day's keys (ARGV[1]).
   */
  raise: `
if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTimeMs', ARGV[4]) end
if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'addPrompts', ARGV[5]) end
if tonumber(ARGV[6]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTokens', ARGV[6]) end
if tonumber(ARGV[7]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'addCost', ARGV[7]) end
if ARGV[8] == '1' then redis.call('HSET', KEYS[1], 'off', '1') end
redis.call('EXPIREAT', KEYS[1], ARGV[1])
for i = 9, #ARGV do redis.call('HDEL', KEYS[2], ARGV[i]) end
return 1`
};
var SCRIPT_SHAS = {
  read: "d1ffb7fabdc496cc3620713082f63baac2e58276",
  count: "2e7ac0e9012a3d545a7e55f4199e2236dedfa5ab",
  use: "feaebd0e6405668e6023c06aaad0da20dea4ad6c",
  send: "e747894edcb47b1e89b2c6809c4c965f629c69b4",
  reserve: "5f0bfa2038fd83a0b04ef9ebfa5432883aece79d",
  adjust: "b7152f91aace99ce5b2c5523d40438afe08d6a82",
  view: "7a7eabf59f01e19e2cde0f533912e4641050a5af",
  ask: "674483dee56bf1830f428634ac14facf0a5a1c2c",
  limits: "0ddbe014817591b825915825f5f3c1551460cc17",
  raise: "be4c61acf6f112e87b491d982651074e4b404d08"
};

// src/adapters/team/bridge.ts
var REPLY_BYTES = 256 * 1024;

// lazy-builtins:node:net
var loaded2;
var load3 = () => loaded2 ??= require("net");
function connect(...args) {
  return load3().connect(...args);
}

// lazy-builtins:node:tls
var loaded3;
var load4 = () => loaded3 ??= require("tls");
function connect2(...args) {
  return load4().connect(...args);
}

// src/adapters/team/resp.ts
var ReplyError = class {
  constructor(message) {
    this.message = message;
  }
  message;
};
function encodeCommand(args) {
  let text = `*${args.length}\r
`;
  for (const arg of args) {
    const value = String(arg);
    text += `$${Buffer.byteLength(value)}\r
${value}\r
`;
  }
  return Buffer.from(text);
}
var CR = 13;
var SIMPLE = 43;
var ERROR = 45;
var INTEGER = 58;
var BULK = 36;
var ARRAY = 42;
var MINUS = 45;
function numberAt(buffer, start, end) {
  const negative = buffer[start] === MINUS;
  let value = 0;
  for (let index = negative ? start + 1 : start; index < end; index++)
    value = value * 10 + (buffer[index] - 48);
  return negative ? -value : value;
}
function readAt(buffer, offset) {
  const end = buffer.indexOf(CR, offset);
  if (end < 0 || end + 1 >= buffer.length) return null;
  const next = end + 2;
  switch (buffer[offset]) {
    case SIMPLE:
      return { value: buffer.toString("utf8", offset + 1, end), next };
    case ERROR:
      return { value: new ReplyError(buffer.toString("utf8", offset + 1, end)), next };
    case INTEGER:
      return { value: numberAt(buffer, offset + 1, end), next };
    case BULK: {
      const length = numberAt(buffer, offset + 1, end);
      if (length < 0) return { value: null, next };
      if (buffer.length < next + length + 2) return null;
      return { value: buffer.toString("utf8", next, next + length), next: next + length + 2 };
    }
    case ARRAY: {
      const count = numberAt(buffer, offset + 1, end);
      if (count < 0) return { value: null, next };
      const items = [];
      let at = next;
      for (let index = 0; index < count; index++) {
        const item = readAt(buffer, at);
        if (item === null) return null;
        items.push(item.value);
        at = item.next;
      }
      return { value: items, next: at };
    }
    default:
      throw new Error(
        `the store's reply is not Redis's protocol (it starts with ${JSON.stringify(buffer.toString("utf8", offset, Math.min(end, offset + 20)))})`
      );
  }
}
var ReplyReader = class {
  pending = Buffer.alloc(0);
  /** Takes what arrived; returns the replies it completed, in order. Throws on bytes that are not RESP 2. */
  push(chunk) {
    const buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const replies = [];
    let offset = 0;
    while (offset < buffer.length) {
      const read = readAt(buffer, offset);
      if (read === null) break;
      replies.push(read.value);
      offset = read.next;
    }
    this.pending = buffer.subarray(offset);
    return replies;
  }
};

// src/adapters/team/client.ts
var nodeConnector = (host, port, tls) => {
  if (!tls) return { connection: connect({ host, port }), ready: "connect" };
  return { connection: connect2({ host, port, servername: isIp(host) ? void 0 : host }), ready: "secureConnect" };
};
function isIp(host) {
  return /^[\d.]+$/.test(host) || host.includes(":");
}
function addressOf(url) {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1) || "0");
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    // The address names its port (config.ts refuses one without).
    port: Number(parsed.port),
    tls: parsed.protocol === "rediss:",
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    db: Number.isInteger(db) && db > 0 ? db : 0
  };
}
var Link = class {
  constructor(connection, ready, connectMs, gone) {
    this.connection = connection;
    this.gone = gone;
    connection.setNoDelay?.(true);
    this.timer = setTimeout(() => this.end(`connect: no answer within ${connectMs} ms`), connectMs);
    this.timer.unref?.();
    connection.once(ready, () => clearTimeout(this.timer));
    connection.on("data", (chunk) => this.read(chunk));
    connection.on("error", (error) => this.end(error.message));
    connection.on("close", () => this.end("the store closed the connection"));
  }
  connection;
  gone;
  waiting = [];
  reader = new ReplyReader();
  ended = null;
  timer;
  /** Sends a command on this open connection (the store's current one); `answer` gets its reply. */
  send(args, answer) {
    this.waiting.push({ answer });
    this.connection.ref();
    this.connection.write(encodeCommand(args));
  }
  /** Ends the connection: every command still waiting fails with `why`. */
  end(why) {
    if (this.ended !== null) return;
    this.ended = why;
    clearTimeout(this.timer);
    this.connection.destroy();
    this.gone(why);
    for (const waiting of this.waiting.splice(0)) waiting.answer(new ReplyError(why));
  }
  read(chunk) {
    let replies;
    try {
      replies = this.reader.push(chunk);
    } catch (error) {
      this.end(error.message);
      return;
    }
    for (const reply of replies) {
      if (this.ended !== null) return;
      this.waiting.shift()?.answer(reply);
    }
    if (this.waiting.length === 0 && this.ended === null) this.connection.unref();
  }
};
function openStore(url, scripts, options) {
  const address = addressOf(url);
  const connector = options.connector;
  const shas = /* @__PURE__ */ new Map();
  let link = null;
  const sha = (name, lua) => {
    let known = options.shas?.[name] ?? shas.get(name);
    if (known === void 0) {
      known = createHash("sha1").update(lua).digest("hex");
      shas.set(name, known);
    }
    return known;
  };
  const current = () => {
    if (link !== null) return link;
    const { connection, ready } = connector(address.host, address.port, address.tls);
    const made = new Link(connection, ready, options.connectMs, () => {
      link = null;
    });
    link = made;
    const setUp = (reply) => {
      if (reply instanceof ReplyError) made.end(reply.message);
    };
    if (address.password !== "") {
      made.send(address.user === "" ? ["AUTH", address.password] : ["AUTH", address.user, address.password], setUp);
    }
    if (address.db !== 0) made.send(["SELECT", address.db], setUp);
    return made;
  };
  const command2 = (args, ms) => new Promise((resolve) => {
    const on = current();
    const timer = setTimeout(() => on.end(`no answer within ${ms} ms`), ms);
    timer.unref?.();
    on.send(args, (reply) => {
      clearTimeout(timer);
      resolve(reply);
    });
  });
  const evalArgs = (name, keys, args) => {
    const lua = scripts[name];
    if (lua === void 0) throw new Error(`no script named ${name}`);
    return { lua, rest: [keys.length, ...keys, ...args] };
  };
  return {
    async call(name, keys, args, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const left = () => Math.max(1, Math.min(options.callMs, deadline - Date.now()));
      const { lua, rest } = evalArgs(name, keys, args);
      let reply = await command2(["EVALSHA", sha(name, lua), ...rest], left());
      if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT")) {
        reply = await command2(["EVAL", lua, ...rest], left());
      }
      return reply instanceof ReplyError ? { ok: false, error: reply.message } : { ok: true, value: reply };
    },
    post(name, keys, args) {
      const { lua, rest } = evalArgs(name, keys, args);
      void command2(["EVALSHA", sha(name, lua), ...rest], options.callMs).then((reply) => {
        if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT"))
          void command2(["EVAL", lua, ...rest], options.callMs);
      });
    },
    close() {
      link?.end("closed");
    }
  };
}

// src/adapters/team/config.ts
var TEAM_NAME = /^[A-Za-z0-9._-]{1,64}$/;
function withoutPassword(url) {
  const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
  return `${url.protocol}//${user}${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}
var UTC = "UTC";
function knownZone(zone) {
  if (zone === UTC) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
function pick(env, setting) {
  if (env?.trim()) return env.trim();
  return typeof setting === "string" && setting.trim() ? setting.trim() : void 0;
}
function readTeam(env, settings, member) {
  const store = pick(env[DAILY_STORE_ENV], settings.dailyStore);
  const team = pick(env[TEAM_ENV], settings.team);
  if (store === void 0 && team === void 0) return { config: null, warning: null };
  const fail = (why) => ({
    config: null,
    warning: teamSettingsUnusable(why)
  });
  if (store === void 0) return fail(`${TEAM_ENV} is set without ${DAILY_STORE_ENV} (redis://host:6379).`);
  let url;
  try {
    url = new URL(store);
  } catch {
    return fail(`${DAILY_STORE_ENV} is not an address (redis://[user:password@]host:port[/db]).`);
  }
  const shown = withoutPassword(url);
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    return fail(`${DAILY_STORE_ENV} ${shown} is not a redis:// or rediss:// address.`);
  if (url.port === "") return fail(`${DAILY_STORE_ENV} ${shown} names no port (redis://${url.hostname}:6379).`);
  if (team === void 0) return fail(`${DAILY_STORE_ENV} is set without ${TEAM_ENV} (the team's name).`);
  if (!TEAM_NAME.test(team))
    return fail(`${TEAM_ENV} "${team.slice(0, 64)}" is not a team name (letters, digits, ".", "_", "-").`);
  const zone = env[TEAM_TZ_ENV]?.trim() || UTC;
  if (!knownZone(zone)) return fail(`${TEAM_TZ_ENV} "${zone.slice(0, 64)}" is not a time zone (Europe/Berlin, UTC).`);
  const failure = env[DAILY_STORE_FAILURE_ENV]?.trim().toLowerCase() === "closed" ? "closed" : "open";
  return { config: { url: store, shown, team, zone, failure, member: member() }, warning: null };
}
var lastDays = /* @__PURE__ */ new Map();
function teamDay(ms, zone) {
  const last = lastDays.get(zone);
  if (last !== void 0 && ms >= last.start && ms < last.end) return last;
  const date = zone === UTC ? utcDate(ms) : zoneDate(ms, zone);
  const found = {
    day: `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`,
    start: zone === UTC ? Date.UTC(date.year, date.month - 1, date.day) : midnight(date.year, date.month, date.day, zone),
    end: zone === UTC ? Date.UTC(date.year, date.month - 1, date.day + 1) : midnight(date.year, date.month, date.day + 1, zone)
  };
  lastDays.set(zone, found);
  return found;
}
var formats = /* @__PURE__ */ new Map();
function formatIn(zone) {
  let format = formats.get(zone);
  if (format === void 0) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    });
    formats.set(zone, format);
  }
  return format;
}
function utcDate(ms) {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
function zoneDate(ms, zone) {
  const parts = formatIn(zone).formatToParts(ms);
  const part = (type) => Number(parts.find((entry) => entry.type === type)?.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return { year: part("year"), month: part("month"), day: part("day"), offset: wall - Math.floor(ms / 1e3) * 1e3 };
}
function midnight(year, month, day, zone) {
  const wall = Date.UTC(year, month - 1, day);
  const guess = wall - zoneDate(wall, zone).offset;
  return wall - zoneDate(guess, zone).offset;
}

// src/adapters/team/outbox.ts
var import_node_fs3 = require("node:fs");
var import_node_path2 = require("node:path");
var UNSENT = "unsent.jsonl";
var SENDING = /^sending-.+\.jsonl$/;
function isUnsent(value) {
  if (typeof value !== "object" || value === null) return false;
  const entry = value;
  const numbers = ["dayEnd", "prompts", "agentMs", "tokens", "cost"].every(
    (name) => typeof entry[name] === "number" && Number.isFinite(entry[name]) && entry[name] >= 0
  );
  const texts = ["id", "day", "session", "member"].every((name) => typeof entry[name] === "string");
  return numbers && texts;
}
function entriesOf(text) {
  const entries = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line);
      if (isUnsent(entry)) entries.push(entry);
    } catch {
    }
  }
  return entries;
}
function fileOutbox(folder, newId = randomUUID) {
  const missing = (error) => error.code === "ENOENT";
  return {
    keep(use) {
      (0, import_node_fs3.mkdirSync)(folder, { recursive: true });
      appendLine((0, import_node_path2.join)(folder, UNSENT), `${JSON.stringify({ id: newId(), ...use })}
`);
    },
    waiting() {
      try {
        return (0, import_node_fs3.readdirSync)(folder).some((name) => name === UNSENT || SENDING.test(name));
      } catch {
        return false;
      }
    },
    take() {
      try {
        (0, import_node_fs3.renameSync)((0, import_node_path2.join)(folder, UNSENT), (0, import_node_path2.join)(folder, `sending-${Date.now()}-${newId()}.jsonl`));
      } catch {
      }
      const names = (0, import_node_fs3.readdirSync)(folder).filter((name) => SENDING.test(name)).sort();
      const batches = [];
      for (const name of names) {
        const path = (0, import_node_path2.join)(folder, name);
        let text;
        try {
          text = (0, import_node_fs3.readFileSync)(path, "utf8");
        } catch (error) {
          if (missing(error)) continue;
          throw error;
        }
        const read = Buffer.byteLength(text);
        const sent = () => {
          if (sizeOf(path) <= read) (0, import_node_fs3.rmSync)(path, { force: true });
        };
        batches.push({ entries: entriesOf(text), sent });
      }
      return batches;
    }
  };
}
function sizeOf(path) {
  try {
    return (0, import_node_fs3.statSync)(path).size;
  } catch {
    return 0;
  }
}
function outboxFolder(stateDir, team) {
  return (0, import_node_path2.join)(stateDir, "team", `team-${team}`);
}

// src/adapters/team/outage.ts
function storeAnswer(error) {
  if (/^NOPERM\b/.test(error) || error.includes("can't access at least one of the keys")) return "refused";
  if (/^(ERR|WRONGTYPE|NOSCRIPT)\b/.test(error)) return "error";
  return null;
}
var Outage = class {
  constructor(closed, clock, texts, carried = null) {
    this.closed = closed;
    this.clock = clock;
    this.texts = texts;
    this.failure = carried;
  }
  closed;
  clock;
  texts;
  failure;
  said = false;
  untold = null;
  /** Why the store refuses this user the team's day (its answer), while it does; null while it takes the calls. */
  deniedWhy = null;
  saidDenied = false;
  /** Why the store is being left alone now, or null when it may be tried. */
  waiting() {
    const failure = this.failure;
    return failure !== null && this.clock.now() < failure.until ? failure.why : null;
  }
  /** Whether the store failed and has not answered since (left alone or not). */
  get down() {
    return this.failure !== null;
  }
  /** The store failed: it is left alone for a while, and the session is told once. */
  failed(why) {
    this.failure = { why, until: this.clock.now() + TEAM_RETRY_MS };
    if (this.said) return;
    this.said = true;
    this.untold = this.texts.unreachable(why, this.closed);
  }
  /** The store answered. */
  answered() {
    this.failure = null;
    this.deniedWhy = null;
  }
  /**
   * The store answered, refusing this user a call of the team's day (its ACL): not an outage, so it is not left alone
   * and nothing falls back on this machine; new turns are refused while it does, in either mode. Said once.
   */
  denied(why) {
    this.deniedWhy = why;
    if (this.saidDenied) return;
    this.saidDenied = true;
    this.untold = this.deniedText(why);
  }
  /** Whether the store refused this user the last call of the team's day. */
  get refusing() {
    return this.deniedWhy !== null;
  }
  deniedText(why) {
    return this.texts.denied?.(why) ?? this.texts.refusal(why);
  }
  /** What the session is to be told, once. */
  told() {
    const text = this.untold;
    this.untold = null;
    return text;
  }
  /** Whether a new turn is taken while the store cannot be reached: refused in the closed mode. */
  takesTurns() {
    return !this.closed;
  }
  /** Why new turns are refused: the store refuses this user, or, in the closed mode, it failed; else null. */
  refusal() {
    if (this.deniedWhy !== null) return this.deniedText(this.deniedWhy);
    return this.closed && this.failure !== null ? this.texts.refusal(this.failure.why) : null;
  }
  /** What the session's next process takes over. */
  carry() {
    return this.failure;
  }
};

// src/adapters/team/reading.ts
function fields(value) {
  const map = /* @__PURE__ */ new Map();
  const flat = Array.isArray(value) ? value : [];
  for (let index = 0; index + 1 < flat.length; index += 2) map.set(String(flat[index]), String(flat[index + 1]));
  return map;
}
function listReply(value) {
  return Array.isArray(value) ? value : [];
}
function amount(text) {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
function limit(text) {
  const value = amount(text);
  return value > 0 ? value : null;
}
function storedLimitsOf(hash) {
  const limits = {
    timeMs: limit(hash.get("timeMs")),
    turns: limit(hash.get("turns")),
    tokens: limit(hash.get("tokens")),
    cost: limit(hash.get("cost"))
  };
  if (limits.timeMs === null && limits.turns === null && limits.tokens === null && limits.cost === null) return null;
  return { limits, setBy: hash.get("by") ?? "someone", setAt: amount(hash.get("at")) };
}
function adjustmentOf(hash) {
  return {
    addTimeMs: amount(hash.get("addTimeMs")),
    addPrompts: amount(hash.get("addPrompts")),
    addTokens: amount(hash.get("addTokens")),
    addCost: amount(hash.get("addCost")),
    off: hash.get("off") === "1"
  };
}
function askOf(id, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const ask = value;
  return {
    id,
    member: typeof ask.member === "string" ? ask.member : "someone",
    adjustment: { ...adjustmentOf(new Map(Object.entries(ask).map(([k, v]) => [k, String(v)]))), off: false },
    why: typeof ask.why === "string" ? ask.why : "",
    at: amount(ask.at)
  };
}
function asksOf(hash) {
  const asks = [];
  for (const [id, text] of hash) {
    const ask = askOf(id, text);
    if (ask !== null) asks.push(ask);
  }
  return asks.sort((a, b) => a.at - b.at);
}
function askText(member, adjustment, why, at) {
  const { addTimeMs, addPrompts, addTokens, addCost } = adjustment;
  return JSON.stringify({ member, addTimeMs, addPrompts, addTokens, addCost, why, at });
}
function dayReading(value, dayStart) {
  const [useFields, whoFields, sessions, reservedTokens, reservedCost, limits, raise] = listReply(value);
  const use = fields(useFields);
  const members = [...fields(whoFields)].map(([name, count]) => ({ name, sessions: amount(count) }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  return {
    use: {
      agentMs: amount(use.get("agentMs")),
      prompts: amount(use.get("prompts")),
      // The model calls other sessions are making count as what they reserved, until their answers settle them.
      tokens: amount(use.get("tokens")) + amount(reservedTokens),
      cost: amount(use.get("cost")) + amount(reservedCost),
      sessions: amount(sessions),
      members
    },
    stored: storedLimitsOf(fields(limits)),
    raise: adjustmentOf(fields(raise)),
    added: adjustmentOf(use),
    dayStart
  };
}

// src/adapters/team/admin.ts
function notDone(calls, error) {
  const answer = storeAnswer(error);
  if (answer === "refused") return "refused";
  const { shown } = calls.config;
  return { failed: answer === "error" ? teamStoreDidNotTake(shown, error) : teamStoreNotReached(shown, error, false) };
}
function written(calls, reply) {
  return reply.ok ? "done" : notDone(calls, reply.error);
}
function common(calls, expiry) {
  return [expiry, calls.sessionId, calls.config.member];
}
function* viewTeam(calls) {
  const { day, expiry } = calls.day;
  const reply = yield* calls.send("view", dayKeys(calls.config.team, day), common(calls, expiry));
  if (!reply.ok) return { unreadable: teamStoreNotReached(calls.config.shown, reply.error, true) };
  const [limits, asks] = listReply(reply.value);
  return { stored: storedLimitsOf(fields(limits)), asks: asksOf(fields(asks)) };
}
function* setLimits(calls, limits) {
  const values = limits === null ? ["off", "", "", ""] : [limits.timeMs, limits.turns, limits.tokens, limits.cost].map((v) => v ?? "");
  const args = [...common(calls, 0), ...values, calls.now];
  return written(calls, yield* calls.send("limits", [adminKeys(calls.config.team, calls.day.day).limits], args));
}
function* raiseDay(calls, adjustment) {
  const view = yield* viewTeam(calls);
  const answered = "unreadable" in view ? [] : requestsAnswered(view.asks, adjustment);
  const { day, expiry } = calls.day;
  const { addTimeMs, addPrompts, addTokens, addCost, off } = adjustment;
  const keys = [adminKeys(calls.config.team, day).raise, dayKeys(calls.config.team, day)[5]];
  const args = [...common(calls, expiry), addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0, ...answered];
  return written(calls, yield* calls.send("raise", keys, args));
}
function* addToDay(calls, adjustment) {
  const { day, expiry } = calls.day;
  const { addTimeMs, addPrompts, addTokens, addCost, off } = adjustment;
  const args = [...common(calls, expiry), addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0];
  const reply = yield* calls.send("adjust", dayKeys(calls.config.team, day), args);
  if (!reply.ok && storeAnswer(reply.error) === null) return void 0;
  return written(calls, reply);
}
function* askMore(calls, adjustment, why) {
  const { day, expiry } = calls.day;
  const id = `${calls.now}-${calls.sessionId}`;
  const text = askText(calls.config.member, adjustment, why, calls.now);
  const args = [...common(calls, expiry), id, text, TEAM_ASKS_KEPT];
  const reply = yield* calls.send("ask", dayKeys(calls.config.team, day), args);
  if (reply.ok && reply.value === 0) return { failed: teamAsksFull(TEAM_ASKS_KEPT) };
  return written(calls, reply);
}

// src/adapters/team/day.ts
function keysExpiry(dayEnd) {
  return Math.ceil(dayEnd / 1e3) + TEAM_KEYS_OUTLIVE_S;
}
function teamOf(config) {
  return { name: config.team, zone: config.zone };
}
function standingsOf(reply, budgets, config, dayStart, machine) {
  return teamStandings(budgets, teamOf(config), dayReading(reply, dayStart), machine);
}
function teamBudgets(budgets, config) {
  const team = teamOf(config);
  return budgets.map((budget) => ({ ...budget, team }));
}
function dayRowOf(day, reply) {
  const [useFields, , , reservedTokens, reservedCost] = listReply(reply);
  const use = fields(useFields);
  return {
    day,
    agentMs: amount(use.get("agentMs")),
    prompts: amount(use.get("prompts")),
    tokens: amount(use.get("tokens")) + amount(reservedTokens),
    cost: amount(use.get("cost")) + amount(reservedCost)
  };
}

// src/adapters/team/store-calls.ts
var TeamStoreCalls = class {
  constructor(config, sessionId, clock, outbox, texts, callOptions, carried) {
    this.config = config;
    this.sessionId = sessionId;
    this.clock = clock;
    this.outbox = outbox;
    this.callOptions = callOptions;
    this.outage = new Outage(config.failure === "closed", clock, texts, carried);
  }
  config;
  sessionId;
  clock;
  outbox;
  callOptions;
  calledOnce = false;
  outage;
  saidLost = false;
  untold = [];
  /** Whether this session looked for use kept on this machine to send: at its first answer, and once the store is back. */
  outboxSeen = false;
  /**
   * Whether a call may first send what this machine kept while the store was down (the session's first answer, or the
   * store's first after a failure, with something kept): a read made with it must wait for it to see what it sent.
   */
  sendsFirst() {
    return this.outage.down || !this.outboxSeen && this.outbox.waiting();
  }
  /** Every script's first arguments: when the day's keys expire, the session, the member. */
  common(day) {
    return [keysExpiry(day.end), this.sessionId, this.config.member];
  }
  /** The outbox failed: the use is this machine's alone. Said once per session. */
  lost(error) {
    if (this.saidLost) return;
    this.saidLost = true;
    this.untold.push(teamUnsentLostMessage(error instanceof Error ? error.message : String(error)));
  }
  /** Keeps use the store could not take in this machine's outbox, for the team's day of now. */
  keep(use) {
    if (use.prompts === 0 && use.agentMs === 0 && use.tokens === 0 && use.cost === 0) return;
    const day = teamDay(this.clock.now(), this.config.zone);
    try {
      this.outbox.keep({ day: day.day, dayEnd: day.end, session: this.sessionId, member: this.config.member, ...use });
    } catch (error) {
      this.lost(error);
    }
  }
  /**
   * Sends the use kept in this machine's outbox (by any session of any host) to the team's days it belongs to, each
   * entry once; a day the store no longer keeps is let go. Stops at the first failure, the rest kept. Whether anything
   * was added.
   */
  *sendKept() {
    if (!this.outbox.waiting()) return false;
    let added = false;
    try {
      for (const batch of this.outbox.take()) {
        for (const entry of batch.entries) {
          const expiry = keysExpiry(entry.dayEnd);
          if (expiry * 1e3 <= this.clock.now()) continue;
          const use = [entry.agentMs, entry.tokens, entry.cost, entry.prompts, entry.id];
          const keys = dayKeys(this.config.team, entry.day);
          const reply = yield* this.request("send", keys, [expiry, entry.session, entry.member, ...use]);
          if (!reply.ok) return added;
          added ||= reply.value === 1;
        }
        batch.sent();
      }
    } catch (error) {
      this.lost(error);
    }
    return added;
  }
  /**
   * Calls a script on today's keys (or those of `dayName`, a past day's, to read). At the session's first answer, and
   * once the store answers again, the use kept on this machine goes to the team's day, and a read reads it back.
   */
  *call(script, args, dayName) {
    const day = teamDay(this.clock.now(), this.config.zone);
    const keys = dayKeys(this.config.team, dayName ?? day.day);
    const wasDown = this.outage.down;
    const reply = yield* this.request(script, keys, [...this.common(day), ...args]);
    if (!reply.ok || this.outboxSeen && !wasDown) return reply;
    this.outboxSeen = true;
    if ((yield* this.sendKept()) && script === "read")
      return yield* this.request(script, keys, [...this.common(day), ...args]);
    return reply;
  }
  /**
   * One script on `keys`; a failure is the outage policy's (said once, the store left alone for a while). A store that
   * answered is not down: its refusal of this user is the policy's own outcome (for a call of the team's day, new turns
   * are refused), and an error it answered a write with (`write`: the admin's, a request) is that write's alone.
   */
  *request(script, keys, args, write3 = false) {
    const waiting = this.outage.waiting();
    if (waiting !== null) return { ok: false, error: waiting };
    const timeoutMs = this.callOptions.waitMs ?? (this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS);
    this.calledOnce = true;
    const reply = yield { script, keys, args, timeoutMs };
    if (reply.ok) {
      this.outage.answered();
      return reply;
    }
    const why = this.hidden(reply.error);
    const answer = storeAnswer(why);
    if (answer !== null && write3) return { ok: false, error: why };
    if (answer === "refused") this.outage.denied(why);
    else this.outage.failed(why);
    const said = this.outage.told();
    if (said !== null) this.untold.push(said);
    return { ok: false, error: why };
  }
  /** An error's text without the store's password or full address. */
  hidden(error) {
    let text = error.split(this.config.url).join(this.config.shown);
    const password = new URL(this.config.url).password;
    if (password) text = text.split(password).join("***").split(decodeURIComponent(password)).join("***");
    return text.trim() || "no answer";
  }
};

// src/adapters/team/team-day.ts
var NOTHING = { prompts: 0, agentMs: 0, tokens: 0, cost: 0 };
var TeamDay = class extends TeamStoreCalls {
  constructor(config, local, sessionId, clock, outbox, options = {}) {
    const texts = {
      unreachable: (why, closed) => teamStoreUnreachable(config.shown, why, closed),
      refusal: (why) => teamStoreRefusal(config.shown, why),
      denied: (why) => teamStoreDenied(config.shown, why)
    };
    super(config, sessionId, clock, outbox, texts, options, options.carried?.failed ?? null);
    this.local = local;
    const carried = options.carried;
    if (carried) this.lastCall = { ...carried.lastCall };
  }
  local;
  /** What this session's last model call used: what its next one reserves. */
  lastCall = { tokens: 0, cost: 0 };
  /** What the next process of this session takes over (`TeamLedgerOptions.carried`). */
  carry() {
    return { lastCall: { ...this.lastCall }, failed: this.outage.carry() };
  }
  /** The team whose store this day is counted in. */
  get team() {
    return teamOf(this.config);
  }
  *standings(budgets) {
    const day = teamDay(this.clock.now(), this.config.zone);
    const reply = yield* this.call("read", []);
    if (reply.ok) return standingsOf(reply.value, budgets, this.config, day.start, (own) => this.local.standings(own));
    const local = this.local.standings(teamBudgets(budgets, this.config));
    const closed = this.outage.refusal();
    if (closed === null) return local;
    if (local.length > 0) return local.map((standing) => ({ ...standing, closed }));
    return [closedTeamStanding(this.team, closed, day.start)];
  }
  /**
   * Counts a prompt: in the personal caps on this machine first (each a member's own budget beside the store's limits),
   * then in the team's store under the lowest of its budgets' limits. A prompt the store then refuses stays counted
   * on this machine: the team's day is spent, so that cap matters only if the admin raises the day.
   */
  *countPrompt(budgets, limits) {
    const { store, machine, own } = byWhereCounted(budgets, limits);
    if (machine.budgets.length > 0 && !this.local.countPrompt(machine.budgets, machine.limits)) return false;
    if (store.budgets.length === 0) return true;
    const set = store.limits.filter((limit3) => limit3 !== null);
    const limit2 = set.length === 0 ? -1 : Math.min(...set);
    const reply = yield* this.call("count", [limit2]);
    if (reply.ok) return reply.value === 1;
    if (!this.outage.takesTurns() || this.outage.refusing) return false;
    this.keep({ ...NOTHING, prompts: 1 });
    return own.budgets.length === 0 || this.local.countPrompt(own.budgets, own.limits);
  }
  *addUse(budgets, use) {
    const { store, machine, own } = byWhereCounted(budgets, []);
    if (machine.budgets.length > 0) this.local.addUse(machine.budgets, use);
    if (store.budgets.length === 0) return;
    const added = {
      prompts: 0,
      agentMs: Math.round(use.agentMs ?? 0),
      tokens: Math.round(use.tokens ?? 0),
      cost: use.cost ?? 0
    };
    if (use.tokens !== void 0 || use.cost !== void 0) this.lastCall = { tokens: added.tokens, cost: added.cost };
    if ((yield* this.call("use", [added.agentMs, added.tokens, added.cost, 0])).ok || this.outage.refusing) return;
    this.keep(added);
    if (own.budgets.length > 0) this.local.addUse(own.budgets, use);
  }
  /** Reserves without waiting: the model call starts at once; the reservation reaches Redis before the next call. */
  *reserve(budgets) {
    const now = this.clock.now();
    if (!budgets.some(countsInStore) || this.outage.waiting() !== null) return;
    const day = teamDay(now, this.config.zone);
    const args = [...this.common(day), this.lastCall.tokens, this.lastCall.cost, TEAM_RESERVATION_MS];
    yield { script: "reserve", keys: dayKeys(this.config.team, day.day), args, timeoutMs: 0, post: true };
  }
  /**
   * Raises a budget for the rest of the day, or ends it: the store's limits by the admin's raise (a member's user is
   * refused by the store, and nothing changes); a machine's own limits as the team's by the day's additions, which any
   * member may write (on this machine meanwhile, while the store cannot be reached); a personal cap on this machine.
   */
  *adjust(budget, adjustment) {
    const full = { ...NO_ADJUSTMENT, ...adjustment };
    if (!countsInStore(budget)) return this.local.adjust(budget, full);
    if (budget.stored !== void 0) return yield* raiseDay(this.admin(), full);
    return (yield* addToDay(this.admin(), full)) ?? this.local.adjust(budget, full);
  }
  /** The admin's limits and the day's open requests (`/timebox team`). */
  view() {
    return viewTeam(this.admin());
  }
  /** Sets the team's limits in its store (null: removes them), as the store's user may. */
  setLimits(limits) {
    return setLimits(this.admin(), limits);
  }
  /** Records this member's request for more of today's budget. */
  ask(adjustment, why) {
    return askMore(this.admin(), adjustment, why);
  }
  /** How the admin's writes and the team's view reach the store: a store that answers is not down. */
  admin() {
    const now = this.clock.now();
    const day = teamDay(now, this.config.zone);
    return {
      config: this.config,
      sessionId: this.sessionId,
      now,
      day: { day: day.day, expiry: keysExpiry(day.end) },
      send: (script, keys, args) => this.request(script, [...keys], [...args], true)
    };
  }
  /**
   * The team's use of each of its last `count` days that its store still keeps, oldest first: today and yesterday
   * (a day's keys outlive it by one day, TEAM_KEYS_OUTLIVE_S); none while the store cannot be read. Today counts the
   * other sessions' reservations, as the standings do.
   */
  *keptDays(count) {
    const days = [];
    let day = teamDay(this.clock.now(), this.config.zone);
    for (let kept2 = 0; kept2 < Math.min(count, TEAM_DAYS_KEPT); kept2++) {
      days.unshift(day.day);
      day = teamDay(day.start - 1, this.config.zone);
    }
    const rows = [];
    for (const name of days) {
      const reply = yield* this.call("read", [], name);
      if (!reply.ok) return [];
      rows.push(dayRowOf(name, reply.value));
    }
    return rows;
  }
  problem() {
    return this.untold.shift() ?? this.local.problem();
  }
};

// src/adapters/team/open.ts
function memberName(host) {
  return `${(0, import_node_os2.userInfo)().username}@${(0, import_node_os2.hostname)()} (${host})`;
}
function saying(warning, ledger) {
  let told = false;
  return {
    team: { unusable: warning },
    standings: (budgets) => ledger.standings(budgets),
    countPrompt: (budgets, limits) => ledger.countPrompt(budgets, limits),
    addUse: (budgets, use) => ledger.addUse(budgets, use),
    adjust: (budget, adjustment) => ledger.adjust(budget, adjustment),
    problem() {
      if (told) return ledger.problem();
      told = true;
      return warning;
    }
  };
}
function machineLedger(create) {
  let ledger = null;
  const get = () => {
    ledger ??= create();
    return ledger;
  };
  return {
    standings: (budgets) => get().standings(budgets),
    countPrompt: (budgets, limits) => get().countPrompt(budgets, limits),
    addUse: (budgets, use) => get().addUse(budgets, use),
    adjust: (budget, adjustment) => get().adjust(budget, adjustment),
    problem: () => get().problem()
  };
}
function opening(options) {
  const { env, sessionId, clock } = options;
  const stateDir = dailyStateDir(env);
  const created = machineLedger(() => createDailyLedger(stateDir, sessionId, clock));
  const { config, warning } = readTeam(env, options.settings ?? {}, () => memberName(options.host));
  if (warning !== null) return { local: saying(warning, created), team: null };
  if (config === null) return { local: created, team: null };
  const outbox = fileOutbox(outboxFolder(stateDir, config.team));
  return {
    local: created,
    team: { config, day: new TeamDay(config, created, sessionId, clock, outbox, options.team) }
  };
}
function asyncStore(config) {
  return openStore(config.url, SCRIPTS, {
    connectMs: TEAM_CONNECT_MS,
    callMs: TEAM_CALL_MS,
    connector: nodeConnector,
    shas: SCRIPT_SHAS
  });
}
function openBatchLedger(options) {
  const { local, team } = opening(options);
  if (team === null) return local;
  return new AsyncTeamLedger(team.day, () => asyncStore(team.config));
}

// src/adapters/team/batch-cli.ts
async function runBatchCli(arg, env, clock, entry) {
  const request = parseTeamRequest(arg);
  if ("error" in request) return `${JSON.stringify({ error: `timebox: ${request.error}` })}
`;
  const ledger = openBatchLedger({
    env,
    sessionId: request.session,
    clock,
    host: "claude",
    entry,
    team: { carried: request.carry, waitMs: TEAM_HOP_WAIT_MS }
  });
  return `${JSON.stringify(await runTeamBatch(request, ledger))}
`;
}

// src/entries/team-batch.ts
void runBatchCli(process.argv[2], process.env, systemClock, (0, import_node_url.pathToFileURL)(process.argv[1] ?? "").href).then((reply) => {
  let rest = Buffer.from(reply);
  while (rest.length > 0) rest = rest.subarray((0, import_node_fs4.writeSync)(1, rest));
});
