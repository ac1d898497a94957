// Timebox's report page, bundled from src/entries/report/entry.ts by npm run build. Do not edit.
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// src/core/constants.ts
var NUDGE_WARNING_RATIO = 0.8;
var NUDGE_CRITICAL_RATIO = 0.95;
var MIN_TIME_LIMIT_MS = 1e3;
var MAX_TIME_LIMIT_MS = 30 * 24 * 60 * 60 * 1e3;
var MAX_TURN_LIMIT = 1e6;
var MAX_STEP_LIMIT = 1e4;
var MIN_LOOP_LIMIT = 2;
var MAX_LOOP_LIMIT = 1e3;
var MAX_TOKEN_LIMIT = 1e9;
var MIN_COST_LIMIT = 0.01;
var MAX_COST_LIMIT = 1e4;
var MIN_GRACE_MS = 1e3;
var MAX_GRACE_MS = 10 * 60 * 1e3;
var AWARE_WORD = "aware";
var ACTIVE_ENTRY_TYPE = "timebox-active";
var OFF_ENTRY_TYPE = "timebox-off";
var OFF_WORDS = ["off", "disable", "cancel"];
var STATUS_WORD = "status";
var PAUSE_WORD = "pause";
var RESUME_WORD = "resume";
var REPORT_WORD = "report";
var REPORT_PAGE_WORD = "page";
var SUGGEST_WORD = "suggest";
var SUGGEST_MIN_SESSIONS = 5;
var SUGGEST_SESSIONS = 30;
var SUGGEST_MEDIAN = 50;
var SUGGEST_PERCENTILE = 90;
var PAST_SESSIONS_FILE = "past-sessions.json";
var TODAY_WORD = "today";
var TEAM_WORD = "team";
var EXTEND_WORDS = ["extend", "add"];
var MAX_QUOTED_INPUT_CHARS = 40;
var RECORD_VERSION = 2;
var BUDGET_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
var LEGACY_ID_PREFIX = "legacy-";
var LEDGER_FOLDER = "timebox-ledger";
var DAILY_ENV = "TIMEBOX_DAILY";
var SUBAGENTS_WORD = "subagents";
var SUBAGENTS_ENTRY_TYPE = "timebox-subagents";
var SUBAGENT_ENTRY_TYPE = "timebox-subagent";
var DAILY_STORE_ENV = "TIMEBOX_DAILY_STORE";
var TEAM_ENV = "TIMEBOX_TEAM";
var TEAM_TZ_ENV = "TIMEBOX_TEAM_TZ";
var DAILY_STORE_FAILURE_ENV = "TIMEBOX_DAILY_STORE_FAILURE";
var TEAM_CONNECT_MS = 1e3;
var TEAM_CALL_MS = 2e3;
var TEAM_FIRST_CALL_MS = 3e4;
var TEAM_WAIT_MS = 1e4;
var TEAM_RETRY_MS = 5e3;
var SESSION_TOLD_KEPT_MS = 7 * 24 * 36e5;
var TEAM_RESERVATION_MS = 10 * 6e4;
var TEAM_KEYS_OUTLIVE_S = 24 * 3600;
var TEAM_DAYS_KEPT = 2;
var TEAM_SCOPE = "team";
var TEAM_ASKS_KEPT = 100;
var LOG_FOLD_KEEP_BYTES = 16384;

// src/core/parse.ts
var TIME_TOKEN = /^(\d+(?:\.\d+)?)\s*([smh])?$/i;
var COMPOUND_TIME_TOKEN = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/i;
var TURNS_TOKEN = /^turns:\s*(\d+)$/i;
var TOKENS_TOKEN = /^tokens:(\d+(?:\.\d+)?)([km])?$/i;
var COST_TOKEN = /^(?:cost:\$?|\$)(\d+(?:\.\d+)?)$/i;
var TOKEN_UNITS = { k: 1e3, m: 1e6 };
var UNIT_MS = { s: 1e3, m: 6e4, h: 36e5 };
var SECOND_MS = 1e3;
var MINUTE_MS = 6e4;
var HOUR_MS = 36e5;
function parseTimeToMs(token) {
  const trimmed2 = token.trim();
  const compound = COMPOUND_TIME_TOKEN.exec(trimmed2);
  if (compound && compound.slice(1).filter((part) => part !== void 0).length > 1) {
    const [, hours = "0", minutes = "0", seconds = "0"] = compound;
    return Number(hours) * HOUR_MS + Number(minutes) * MINUTE_MS + Number(seconds) * SECOND_MS;
  }
  const match = TIME_TOKEN.exec(trimmed2);
  if (!match) return null;
  const unit = (match[2] ?? "m").toLowerCase();
  const ms = Number(match[1]) * UNIT_MS[unit];
  return Number.isFinite(ms) ? ms : null;
}
function parseTurns(token) {
  const match = TURNS_TOKEN.exec(token.trim());
  if (!match) return null;
  const turns = Number(match[1]);
  return Number.isFinite(turns) ? turns : null;
}
function parseTokens(token) {
  const match = TOKENS_TOKEN.exec(token);
  if (!match) return null;
  const unit = (match[2] ?? "").toLowerCase();
  return Math.round(Number(match[1]) * (unit === "k" || unit === "m" ? TOKEN_UNITS[unit] : 1));
}
function parseCost(token) {
  const match = COST_TOKEN.exec(token);
  return match ? Number(match[1]) : null;
}
function formatTime(ms) {
  const safeMs = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  const totalSeconds = Math.floor(safeMs / SECOND_MS);
  if (safeMs < MINUTE_MS) return `${totalSeconds}s`;
  if (safeMs < HOUR_MS) return `${Math.floor(totalSeconds / 60)}m ${totalSeconds % 60}s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  return `${Math.floor(totalMinutes / 60)}h ${totalMinutes % 60}m`;
}

// src/core/grammar/budget-words.ts
var STEPS_TOKEN = /^steps:(\d+)$/i;
var GRACE_TOKEN = /^grace:(.+)$/i;
var LOOP_TOKEN = /^loop:/i;
function quoteInput(text2) {
  const chars = Array.from(text2);
  const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}\u2026` : text2;
  return `"${shown}"`;
}
function joinSplitTokens(budgetText) {
  return budgetText.replace(/\b(turns|grace|tokens|cost|steps|loop):\s+(?=[\d$])/gi, "$1:").replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}
function replacesNote(token, earlier, time = false) {
  const sum = time ? `; for the sum, write ${earlier}${token} as one word` : "";
  return `${token} replaces ${earlier}${sum}.`;
}
function readWords(tokens, known = SESSION_BUDGET_WORDS) {
  let timeMs = null;
  let turns = null;
  let tokenCount2 = null;
  let steps = null;
  let stepsWord = "";
  let loop = null;
  let loopWord = "";
  let cost = null;
  let aware = false;
  let graceMs = null;
  let timeWord2 = "";
  let turnsWord = "";
  let tokensWord2 = "";
  let costWord2 = "";
  let graceWord = "";
  const notes = [];
  for (const token of tokens) {
    const stepMatch = STEPS_TOKEN.exec(token);
    if (stepMatch) {
      const count5 = Number(stepMatch[1]);
      if (count5 < 1 || count5 > MAX_STEP_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a step cap is 1 to 10,000 model calls per prompt.` };
      }
      if (steps !== null) notes.push(replacesNote(token, stepsWord));
      steps = count5;
      stepsWord = token;
      continue;
    }
    if (LOOP_TOKEN.test(token)) {
      const digits = token.slice(token.indexOf(":") + 1);
      const count5 = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
      if (Number.isNaN(count5)) {
        return {
          invalid: `${quoteInput(token)} is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).`
        };
      }
      if (count5 < MIN_LOOP_LIMIT || count5 > MAX_LOOP_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a loop guard is 2 to 1,000 identical calls.` };
      }
      if (loop !== null) notes.push(replacesNote(token, loopWord));
      loop = count5;
      loopWord = token;
      continue;
    }
    const tokenBudget = parseTokens(token);
    if (tokenBudget !== null) {
      if (tokenBudget < 1 || tokenBudget > MAX_TOKEN_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a token budget is 1 to 1,000,000,000 tokens.` };
      }
      if (tokenCount2 !== null) notes.push(replacesNote(token, tokensWord2));
      tokenCount2 = tokenBudget;
      tokensWord2 = token;
      continue;
    }
    const dollars = parseCost(token);
    if (dollars !== null) {
      if (dollars < MIN_COST_LIMIT || dollars > MAX_COST_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a cost budget is $0.01 to $10,000.` };
      }
      if (cost !== null) notes.push(replacesNote(token, costWord2));
      cost = dollars;
      costWord2 = token;
      continue;
    }
    if (token.toLowerCase() === AWARE_WORD) {
      aware = true;
      continue;
    }
    if (GRACE_TOKEN.test(token)) {
      const ms2 = parseTimeToMs(token.slice(token.indexOf(":") + 1));
      if (ms2 === null) return { invalid: `${quoteInput(token)} is not a grace period: write grace:30s or grace:2m.` };
      const wholeSeconds = Math.round(ms2 / SECOND_MS) * SECOND_MS;
      if (wholeSeconds < MIN_GRACE_MS || wholeSeconds > MAX_GRACE_MS) {
        return { invalid: `${quoteInput(token)} is out of range: a grace period is 1s to 10m.` };
      }
      if (graceMs !== null) notes.push(replacesNote(token, graceWord));
      graceMs = wholeSeconds;
      graceWord = token;
      continue;
    }
    const count4 = parseTurns(token);
    if (count4 !== null) {
      if (count4 < 1 || count4 > MAX_TURN_LIMIT) {
        return {
          invalid: `${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.`
        };
      }
      if (turns !== null) notes.push(replacesNote(token, turnsWord));
      turns = count4;
      turnsWord = token;
      continue;
    }
    const ms = parseTimeToMs(token);
    if (ms !== null) {
      const wholeSeconds = Math.round(ms / SECOND_MS) * SECOND_MS;
      if (wholeSeconds < MIN_TIME_LIMIT_MS || wholeSeconds > MAX_TIME_LIMIT_MS) {
        return { invalid: `${quoteInput(token)} is out of range: a time budget is 1s to 30 days.` };
      }
      if (timeMs !== null) {
        notes.push(replacesNote(token, timeWord2, true));
      }
      timeMs = wholeSeconds;
      timeWord2 = token;
      continue;
    }
    return { invalid: unknownWord(token, known) };
  }
  return { timeMs, turns, tokens: tokenCount2, cost, steps, loop, aware, graceMs, notes };
}
var SESSION_BUDGET_WORDS = "a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s";
var DAILY_BUDGET_WORDS = "a time (30s, 15m, 2h), turns:5, tokens:200k or cost:2.50";
var TASK_BUDGET_WORDS = "a time (30s, 15m, 2h), steps:25, tokens:200k, cost:2.50 or loop:3";
function unknownWord(token, known) {
  const why = `${quoteInput(token)} is not a budget word: ${known}.`;
  if (/^[\u2014\u2013]+$/.test(token)) return `${why} Did you mean -- before the on-stop command?`;
  if (token.startsWith("+")) return `${why} To add to the budget, put + before every word: +10m +turns:2.`;
  return why;
}

// src/core/grammar/command.ts
var TODAY_COMMAND = new RegExp(`^${TODAY_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var TEAM_COMMAND = new RegExp(`^${TEAM_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var REPORT_PAGE_COMMAND = new RegExp(`^${REPORT_WORD}\\s+${REPORT_PAGE_WORD}$`, "i");
var STOP_COMMAND_DELIMITER = /(?:^|\s)--(?:\s|$)/;
var SUBAGENTS_COMMAND = new RegExp(`^${SUBAGENTS_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
function invalid(reason) {
  return { kind: "invalid", reason };
}
var SUB_COMMANDS = new Map([
  [STATUS_WORD, "status"],
  [REPORT_WORD, "report"],
  [SUGGEST_WORD, "suggest"],
  [PAUSE_WORD, "pause"],
  [RESUME_WORD, "resume"],
  ...OFF_WORDS.map((word) => [word, "off"])
]);
function withNotes(command2, notes) {
  return notes.length > 0 ? { ...command2, notes: [...notes] } : command2;
}
function extensionWords(tokens) {
  const [first, ...rest] = tokens;
  if (first !== void 0 && EXTEND_WORDS.includes(first.toLowerCase())) return rest;
  if (tokens.length > 0 && tokens.every((token) => token.startsWith("+"))) return tokens.map((token) => token.slice(1));
  return null;
}
function parseCommand(input) {
  const text2 = typeof input === "string" ? input : "";
  const trimmed2 = text2.trim();
  const bare = SUB_COMMANDS.get(trimmed2.toLowerCase());
  if (bare !== void 0) return { kind: bare };
  const today = TODAY_COMMAND.exec(trimmed2);
  if (today) return { kind: "today", words: today[1] ?? "" };
  const team = TEAM_COMMAND.exec(trimmed2);
  if (team) return { kind: "team", words: team[1] ?? "" };
  if (REPORT_PAGE_COMMAND.test(trimmed2)) return { kind: "reportPage" };
  const subagents = SUBAGENTS_COMMAND.exec(trimmed2);
  if (subagents) return subagentsCommand((subagents[1] ?? "").trim());
  const delimiter = STOP_COMMAND_DELIMITER.exec(text2);
  const budgetText = delimiter ? text2.slice(0, delimiter.index) : text2;
  const stopCommand = delimiter ? text2.slice(delimiter.index + delimiter[0].length).trim() : "";
  const tokens = joinSplitTokens(budgetText).split(/\s+/).filter((token) => token.length > 0);
  const first = SUB_COMMANDS.get(tokens[0]?.toLowerCase() ?? "");
  if ((first === "off" || first === "status") && (tokens.length > 1 || delimiter)) {
    return { kind: first, ignored: text2.trim().replace(/^\S+\s*/, "") };
  }
  const sub = tokens.find((token) => SUB_COMMANDS.has(token.toLowerCase()));
  if (sub !== void 0) return invalid(`${quoteInput(sub)} takes nothing else with it.`);
  const extension = extensionWords(tokens);
  if (extension !== null) {
    if (delimiter) return invalid("An extension keeps the budget's on-stop command: nothing goes after --.");
    const words2 = readWords(extension);
    if ("invalid" in words2) return invalid(words2.invalid);
    if (words2.aware || words2.graceMs !== null || words2.steps !== null || words2.loop !== null) {
      return invalid("An extension adds to the limits only; set aware, grace, steps or loop with a new budget.");
    }
    if (words2.timeMs === null && words2.turns === null && words2.tokens === null && words2.cost === null) {
      return invalid("Nothing to add: give a time, turns:<n>, tokens:<n> or cost:<dollars>.");
    }
    return withNotes(
      {
        kind: "extend",
        addTimeMs: words2.timeMs,
        addTurns: words2.turns,
        ...words2.tokens === null ? {} : { addTokens: words2.tokens },
        ...words2.cost === null ? {} : { addCost: words2.cost }
      },
      words2.notes
    );
  }
  const words = readWords(tokens);
  if ("invalid" in words) return invalid(words.invalid);
  const noLimit = words.tokens === null && words.cost === null && words.steps === null && words.loop === null;
  if (words.timeMs === null && words.turns === null && noLimit) {
    return invalid(stopCommand ? "A command after -- needs a budget before it." : "No budget given.");
  }
  if (delimiter && stopCommand.length === 0) {
    words.notes.push("Nothing follows --, so no on-stop command was set.");
  }
  return withNotes(
    {
      kind: "set",
      timeLimitMs: words.timeMs,
      turnLimit: words.turns,
      ...words.tokens === null ? {} : { tokenLimit: words.tokens },
      ...words.cost === null ? {} : { costLimit: words.cost },
      ...words.steps === null ? {} : { stepLimit: words.steps },
      ...words.loop === null ? {} : { loopLimit: words.loop },
      onStopCommand: stopCommand.length > 0 ? stopCommand : null,
      ...words.aware ? { awareness: "always" } : {},
      ...words.graceMs === null ? {} : { graceMs: words.graceMs }
    },
    words.notes
  );
}
function subagentsCommand(words) {
  if (words.length === 0) return { kind: "subagents", action: "show" };
  if (OFF_WORDS.includes(words.toLowerCase())) return { kind: "subagents", action: "off" };
  const budget = parseTaskBudget(words);
  return "invalid" in budget ? invalid(budget.invalid) : { kind: "subagents", action: "set", budget, words };
}
function parseTaskBudget(text2) {
  if (STOP_COMMAND_DELIMITER.test(text2)) {
    return { invalid: "A subagent budget runs no on-stop command: the session's runs when the session stops." };
  }
  const tokens = joinSplitTokens(text2).split(/\s+/).filter((token) => token.length > 0);
  const words = readWords(tokens, TASK_BUDGET_WORDS);
  if ("invalid" in words) return words;
  if (words.turns !== null) {
    return {
      invalid: "turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>."
    };
  }
  if (words.aware || words.graceMs !== null) {
    return {
      invalid: "aware and grace belong to the session's budget: a subagent budget takes a time, steps, tokens, cost or loop."
    };
  }
  if (words.timeMs === null && words.steps === null && words.tokens === null && words.cost === null && words.loop === null) {
    return { invalid: "No budget given: give a time, steps:<n>, tokens:<n>, cost:<dollars> or loop:<n>." };
  }
  return {
    timeLimitMs: words.timeMs,
    ...words.steps === null ? {} : { stepLimit: words.steps },
    ...words.tokens === null ? {} : { tokenLimit: words.tokens },
    ...words.cost === null ? {} : { costLimit: words.cost },
    ...words.loop === null ? {} : { loopLimit: words.loop }
  };
}

// src/core/model/budget.ts
function freshBudget(terms, startTurn = 0) {
  return { ...terms, startTurn, softNudgeSent: false, active: true };
}
var NO_SPEND = { tokens: 0, cost: 0 };

// src/core/model/measure.ts
function elapsedMs(budget, now) {
  const until = budget.pausedAt ?? now;
  const elapsed = until - budget.startTime - (budget.pausedMs ?? 0);
  return Number.isFinite(elapsed) ? Math.max(0, elapsed) : 0;
}
function safeAmount(amount4) {
  return Number.isFinite(amount4) ? Math.max(0, amount4) : 0;
}
function responseTokens(used) {
  return tokenCount(used.input) + tokenCount(used.output) + tokenCount(used.reasoning) + tokenCount(used.cacheRead) + tokenCount(used.cacheWrite);
}
function tokenCount(value) {
  return typeof value === "number" && value > 0 && value < Number.POSITIVE_INFINITY ? value : 0;
}

// src/core/daily/daily-budget.ts
var NO_ADJUSTMENT = { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false };
function parseDailyBudget(text2, scope, source) {
  const value = typeof text2 === "string" ? text2 : JSON.stringify(text2);
  const command2 = parseCommand(value);
  if (command2.kind !== "set") {
    const why = command2.kind === "invalid" ? command2.reason.replace(SESSION_BUDGET_WORDS, DAILY_BUDGET_WORDS) : `${quoteInput(value)} is not a budget.`;
    return { warning: `Timebox: ${source}: ${why} No daily budget is enforced from it.` };
  }
  if (command2.stepLimit !== void 0 || command2.loopLimit !== void 0 || command2.awareness !== void 0 || command2.graceMs !== void 0 || command2.onStopCommand) {
    return {
      warning: `Timebox: ${source}: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.`
    };
  }
  return {
    scope,
    source,
    limits: {
      timeMs: command2.timeLimitMs,
      turns: command2.turnLimit,
      tokens: command2.tokenLimit ?? null,
      cost: command2.costLimit ?? null
    }
  };
}
function limitsToday(standing) {
  const { limits } = standing.budget;
  const add = standing.adjustment;
  const plus = (limit2, more) => limit2 === null ? null : limit2 + more;
  return {
    timeMs: plus(limits.timeMs, add.addTimeMs),
    turns: plus(limits.turns, add.addPrompts),
    tokens: plus(limits.tokens, add.addTokens),
    cost: plus(limits.cost, add.addCost)
  };
}

// src/core/text/loop.ts
function ordinal(count4) {
  const tens = count4 % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : count4 % 10 === 1 ? "st" : count4 % 10 === 2 ? "nd" : count4 % 10 === 3 ? "rd" : "th";
  return `${count4}${suffix}`;
}
var FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";
var LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;
function loopGuardPhrase(limit2) {
  return `a loop guard (the ${ordinal(limit2)} identical tool call of a run is refused)`;
}

// src/core/format.ts
var SECOND_MS2 = 1e3;
var SPENT_STATUS = "Timebox: budget spent";
var WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;
function formatTokens(tokens) {
  const count4 = safeAmount(tokens);
  if (count4 < 1e3) return `${Math.floor(count4)}`;
  if (count4 < 1e6) return `${trimmed(count4 / 1e3)}k`;
  return `${trimmed(count4 / 1e6)}m`;
}
function trimmed(value) {
  const rounded = Math.floor(value * 10) / 10;
  return Number.isInteger(rounded) ? `${rounded}` : rounded.toFixed(1);
}
function formatCost(dollars) {
  const amount4 = safeAmount(dollars);
  if (amount4 >= 1) return `$${amount4.toFixed(2)}`;
  return `$${amount4.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
function pluralTurns(count4) {
  return `${count4} ${count4 === 1 ? "turn" : "turns"}`;
}
function formatBudgetLabel(ms) {
  if (ms === lastLabel.ms) return lastLabel.text;
  const text2 = budgetLabel(ms);
  lastLabel = { ms, text: text2 };
  return text2;
}
var lastLabel = { ms: Number.NaN, text: "" };
function budgetLabel(ms) {
  const totalSeconds = Math.floor(Math.max(0, ms) / SECOND_MS2);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor(totalSeconds % 3600 / 60);
  const seconds = totalSeconds % 60;
  const parts = [hours > 0 ? `${hours}h` : "", minutes > 0 ? `${minutes}m` : "", seconds > 0 ? `${seconds}s` : ""];
  return parts.filter((part) => part.length > 0).join(" ") || "0s";
}
function describeBudget(limits) {
  const parts = [];
  if (limits.timeLimitMs !== null) parts.push(formatBudgetLabel(limits.timeLimitMs));
  if (limits.turnLimit !== null) parts.push(pluralTurns(limits.turnLimit));
  if (limits.tokenLimit !== void 0) parts.push(`${formatTokens(limits.tokenLimit)} tokens`);
  if (limits.costLimit !== void 0) parts.push(formatCost(limits.costLimit));
  if (limits.stepLimit !== void 0) parts.push(stepsPerPrompt(limits.stepLimit));
  if (limits.loopLimit !== void 0) parts.push(loopGuardPhrase(limits.loopLimit));
  const treatment2 = [];
  if (limits.awareness === "always") treatment2.push("the model is told what is left at every call");
  if (limits.graceMs !== void 0) treatment2.push(`${formatBudgetLabel(limits.graceMs)} to wrap up at the limit`);
  return [parts.join(" and "), ...treatment2].join("; ");
}
function formatLeftMs(ms) {
  return formatTime(Math.ceil(Math.max(0, ms) / SECOND_MS2) * SECOND_MS2);
}
function stepsPerPrompt(limit2) {
  return `${limit2} ${limit2 === 1 ? "step" : "steps"} per prompt`;
}
function pluralPrompts(count4) {
  return `${count4} ${count4 === 1 ? "prompt" : "prompts"}`;
}

// src/core/text/host-terms.ts
var WRITTEN_COMMAND = "/timebox";
var DEFAULT_TERMS = {
  name: "pi",
  command: WRITTEN_COMMAND,
  tokens: true,
  cost: true,
  dailySetting: `Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of pi's settings.json.`
};
function noDailyBudgetMessage(terms) {
  return `No daily budget is set. ${terms.dailySetting}`;
}
function unmeasuredNote(terms) {
  const missing = [terms.tokens ? null : "tokens", terms.cost ? null : "cost"].filter((word) => word !== null);
  return missing.length === 0 ? null : `${capitalize(missing.join(" and "))} not tracked in ${terms.name}.`;
}
function capitalize(text2) {
  return `${text2.charAt(0).toUpperCase()}${text2.slice(1)}`;
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

// src/core/daily/daily-text.ts
function describeDaily(limits, team = false) {
  const parts = [];
  if (limits.timeMs !== null) parts.push(`${formatBudgetLabel(limits.timeMs)} of agent time`);
  if (limits.turns !== null) parts.push((team ? pluralTurns : pluralPrompts)(limits.turns));
  if (limits.tokens !== null) parts.push(`${formatTokens(limits.tokens)} tokens`);
  if (limits.cost !== null) parts.push(formatCost(limits.cost));
  return parts.join(" and ");
}
function usedOfLimits(standing, team) {
  const limits = limitsToday(standing);
  const { use } = standing;
  const parts = [];
  if (limits.timeMs !== null) {
    const left = formatLeftMs(limits.timeMs - use.agentMs);
    parts.push(`${formatTime(use.agentMs)} of ${formatBudgetLabel(limits.timeMs)} of agent time used, ${left} left`);
  }
  if (limits.turns !== null) {
    const left = Math.max(0, limits.turns - use.prompts);
    parts.push(`${use.prompts} of ${(team ? pluralTurns : pluralPrompts)(limits.turns)} used, ${left} left`);
  }
  if (limits.tokens !== null) {
    const left = formatTokens(Math.max(0, limits.tokens - use.tokens));
    parts.push(`${formatTokens(use.tokens)} of ${formatTokens(limits.tokens)} tokens used, ${left} left`);
  }
  if (limits.cost !== null) {
    const left = formatCost(Math.max(0, limits.cost - use.cost));
    parts.push(`${formatCost(use.cost)} of ${formatCost(limits.cost)} used, ${left} left`);
  }
  return parts.join("; ");
}
function usedBy(sessions) {
  if (sessions === 0) return "Used by no session yet.";
  return `Used by ${sessions} ${sessions === 1 ? "session" : "sessions"}.`;
}
function teamLine(standing, team) {
  const members = (standing.use.members ?? []).map(
    (member) => `${member.name} ${member.sessions === 1 ? "1 session" : `${member.sessions} sessions`}`
  );
  const by = members.length === 0 ? "" : ` By ${members.join(", ")}.`;
  const state = standing.adjustment.off ? " Off until midnight." : "";
  return `The team ${team.name} (${standing.budget.source}): ${usedOfLimits(standing, true)}. ${usedBy(standing.use.sessions)}${by}${state} It resets at midnight ${team.zone}.`;
}
function todayLine(standing) {
  if (standing.budget.team) return teamLine(standing, standing.budget.team);
  const state = standing.adjustment.off ? " Off until midnight." : "";
  return `${dailyWho(standing)}: ${usedOfLimits(standing, false)}. ${usedBy(standing.use.sessions)}${state}`;
}
function dailyWho(standing) {
  const team = standing.budget.team;
  if (team) return `The team ${team.name} (${standing.budget.source})`;
  return `${standing.budget.scope === "user" ? "Every session" : "This project"} (${standing.budget.source})`;
}
function todayReport(standings) {
  if (standings.length === 0) return NO_DAILY_BUDGET;
  const lines = standings.map(todayLine);
  return [
    `Timebox today: ${standings.length === 1 ? "1 daily budget" : `${standings.length} daily budgets`}.`,
    ...lines
  ].join("\n");
}

// src/core/daily/team-text.ts
var STORE_SOURCE = "set in its store";
function teamStoreDidNotTake(shown, why) {
  return `Timebox: the team's daily store ${shown} did not take it (${why}). Nothing changed.`;
}
function teamStoreNotReached(shown, why, showing) {
  const what = showing ? "so the team cannot be shown" : "so nothing changed";
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}), ${what}.`;
}
function teamViewRefused(shown, why) {
  return `Timebox: the team's daily store ${shown} refused this user (${why}), so the team cannot be shown (docs/team.md gives a member's ACL).`;
}
function teamViewUnreadable(shown, why) {
  return `Timebox: the team could not be read from its daily store ${shown} (${why}), so the team cannot be shown.`;
}
function teamTime(ms) {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
function describeAdded(adjustment) {
  const some = (value) => value > 0 ? value : null;
  return describeDaily(
    {
      timeMs: some(adjustment.addTimeMs),
      turns: some(adjustment.addPrompts),
      tokens: some(adjustment.addTokens),
      cost: some(adjustment.addCost)
    },
    true
  );
}
function limitsLine(team, stored) {
  if (stored === null) {
    return `Timebox team ${team.name}: its store keeps no limits, so each machine's own daily budget (TIMEBOX_DAILY) is the team's. An admin sets them with /timebox team set 4h turns:200 $50.`;
  }
  const limits = describeDaily(stored.limits, true);
  return `Timebox team ${team.name}: ${limits} a day, set by ${stored.setBy} on ${teamTime(stored.setAt)}.`;
}
function askLine(ask) {
  const reason = ask.why === "" ? "" : `: ${JSON.stringify(ask.why)}`;
  return `- ${ask.member} at ${teamTime(ask.at).slice(11)} asks for ${describeAdded(ask.adjustment)}${reason}`;
}
function teamReport(team, view, standings, unread = null) {
  const today = standings.filter((standing) => standing.budget.team !== void 0).map(todayLine);
  const lines = [limitsLine(team, view.stored)];
  if (unread !== null) lines.push(teamDayUnreadLine(unread));
  else lines.push(...today.length > 0 ? today : ["No daily budget of the team covers this session today."]);
  const asks = [...view.asks].sort((a, b) => a.at - b.at);
  if (asks.length === 0) lines.push("No open requests.");
  else lines.push(`Open requests (${asks.length}):`, ...asks.map(askLine));
  return lines.join("\n");
}
function teamDayUnread(why, shown) {
  return `today's use could not be read from the team's daily store${shown ? ` ${shown}` : ""} (${why})`;
}
function teamDayRefused(why, shown) {
  return `the team's daily store ${shown} would not let this user read today's use (${why})`;
}
function teamDayUnreadLine(unread) {
  return `${unread.charAt(0).toUpperCase()}${unread.slice(1)}, so the team's standing today is not known.`;
}
function teamZoneOfStore(team, zone, own) {
  return `Timebox: the team ${team}'s day starts at midnight ${zone}, the time zone its admin keeps with its limits; this machine's (${own}, from TIMEBOX_TEAM_TZ or UTC) is not used.`;
}
function teamAsksFull(count4) {
  return `Timebox: the team's day holds ${count4} open requests already, so this one was not recorded. Ask the admin directly.`;
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
      standings.push({ budget, use: reading.use, adjustment: reading.raise, dayStart: reading.dayStart });
      continue;
    }
    const standing = mine[personal.indexOf(budget)];
    if (standing) standings.push({ ...standing, budget });
  }
  return standings;
}
function requestsAnswered(asks, raise2) {
  if (raise2.off) return asks.map((ask) => ask.id);
  const covers = (asked, added) => asked <= 0 || added >= asked;
  return asks.filter(
    (ask) => covers(ask.adjustment.addTimeMs, raise2.addTimeMs) && covers(ask.adjustment.addPrompts, raise2.addPrompts) && covers(ask.adjustment.addTokens, raise2.addTokens) && covers(ask.adjustment.addCost, raise2.addCost)
  ).map((ask) => ask.id);
}
var SET_WORDS = "a time (4h), turns:200, tokens:2m and cost ($50)";
var SET_KNOWN = `team set takes ${SET_WORDS}`;

// src/core/daily/daily.ts
var NO_DAILY_SESSION = { given: [], runStartedAt: null, stopped: false };

// src/core/daily/today-data.ts
var leftOf = (limit2, used) => limit2 === null ? null : Math.max(0, limit2 - used);
function todayData(standings, sessions) {
  return {
    text: todayReport(standings),
    dayStart: standings[0]?.dayStart ?? null,
    budgets: standings.map((standing) => {
      const limits = limitsToday(standing);
      const { use } = standing;
      return {
        who: dailyWho(standing),
        limits,
        use,
        left: {
          timeMs: leftOf(limits.timeMs, use.agentMs),
          turns: leftOf(limits.turns, use.prompts),
          tokens: leftOf(limits.tokens, use.tokens),
          cost: leftOf(limits.cost, use.cost)
        },
        off: standing.adjustment.off,
        line: todayLine(standing)
      };
    }),
    sessions: [...sessions]
  };
}

// src/core/model/id-text.ts
var END = "\n";
function textId(id) {
  return typeof id === "string" && !id.includes(END);
}
function idIndex(text2, id) {
  if (!textId(id)) return -1;
  if (text2.startsWith(`${id}${END}`)) return 0;
  const at = text2.indexOf(`${END}${id}${END}`);
  return at < 0 ? -1 : at + 1;
}
function idCount(text2, end = text2.length) {
  let count4 = 0;
  for (let at = text2.indexOf(END); at >= 0 && at < end; at = text2.indexOf(END, at + 1)) count4++;
  return count4;
}

// src/core/model/prompt-run.ts
function runHas(run, promptId) {
  return idIndex(run.ids, promptId) >= 0;
}
function runAt(run, promptId) {
  const at = idIndex(run.ids, promptId);
  return at < 0 ? void 0 : run.at[idCount(run.ids, at)];
}
function* idsNewestFirst(ids) {
  for (let end = ids.length - 1; end >= 0; ) {
    const start = end === 0 ? 0 : ids.lastIndexOf("\n", end - 1) + 1;
    yield ids.slice(start, end);
    end = start - 1;
  }
}
function newestId(ids) {
  const end = ids.length - 1;
  return ids.slice(ids.lastIndexOf("\n", end - 1) + 1, end);
}
function withoutIdAt(ids, at, id) {
  return ids.slice(0, at) + ids.slice(at + id.length + 1);
}

// src/core/subagents/records.ts
var LIMITS = ["time", "steps", "tokens", "cost", "loop", "session", "parent"];
var ENDINGS = ["answered", "concluded", "stopped"];
function isLimit(value) {
  return LIMITS.some((limit2) => limit2 === value);
}
function isEnding(value) {
  return ENDINGS.some((ending2) => ending2 === value);
}
function isFields(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isCount(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
function parseBudgetWords(value) {
  if (value === null) return null;
  if (!isFields(value)) return void 0;
  const words = {};
  for (const [agentType, text2] of Object.entries(value)) {
    if (typeof text2 !== "string") return void 0;
    words[agentType] = text2;
  }
  return words;
}
function parseSubagentRun(value) {
  if (!isFields(value)) return null;
  const { id, parent, agentType, task, startedAt, steps, spend, spent, wrapUp, ended, endedAt } = value;
  if (typeof id !== "string" || typeof agentType !== "string" || typeof task !== "string") return null;
  if (!(parent === null || typeof parent === "string") || !isCount(startedAt) || !isCount(steps)) return null;
  if (!isFields(spend) || !isCount(spend.tokens) || !isCount(spend.cost)) return null;
  const budget = taskBudget(value.budget);
  if (budget === void 0) return null;
  const spentAt = spent === null ? null : isFields(spent) && isLimit(spent.limit) && isCount(spent.at) ? { limit: spent.limit, at: spent.at } : void 0;
  if (spentAt === void 0) return null;
  return {
    id,
    parent,
    agentType,
    task,
    budget,
    startedAt,
    steps,
    spend: { tokens: spend.tokens, cost: spend.cost },
    warned: value.warned === true,
    told: value.told === true,
    spent: spentAt,
    wrapUp: wrapUpOf(wrapUp),
    ended: isEnding(ended) ? ended : null,
    closed: value.closed === true,
    endedAt: isCount(endedAt) ? endedAt : null
  };
}
function taskBudget(value) {
  if (value === null) return null;
  if (!isFields(value)) return void 0;
  const { timeLimitMs, stepLimit, tokenLimit, costLimit, loopLimit } = value;
  const words = [
    ...isCount(timeLimitMs) ? [`${Math.round(timeLimitMs / 1e3)}s`] : [],
    ...isCount(stepLimit) ? [`steps:${stepLimit}`] : [],
    ...isCount(tokenLimit) ? [`tokens:${tokenLimit}`] : [],
    ...isCount(costLimit) ? [`cost:${costLimit}`] : [],
    ...isCount(loopLimit) ? [`loop:${loopLimit}`] : []
  ];
  const budget = parseTaskBudget(words.join(" "));
  return "invalid" in budget ? void 0 : budget;
}
function wrapUpOf(value) {
  if (!isFields(value) || !isCount(value.until) || !isCount(value.calls)) return null;
  const refusedAt = isCount(value.refusedAt) ? value.refusedAt : null;
  return { until: value.until, calls: value.calls, refusedAt };
}

// src/core/model/records.ts
function isFields2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isFiniteNumber(value) {
  return typeof value === "number" && Number.isFinite(value);
}
function isTimeLimit(value) {
  return value === null || isFiniteNumber(value) && value >= MIN_TIME_LIMIT_MS && value <= MAX_TIME_LIMIT_MS;
}
function isTurnLimit(value) {
  return value === null || Number.isInteger(value) && value >= 1 && value <= MAX_TURN_LIMIT;
}
function isWholeCount(value) {
  return Number.isInteger(value) && value >= 0;
}
function isBudgetId(value) {
  return typeof value === "string" && BUDGET_ID_PATTERN.test(value);
}
function budgetIdOf(budget) {
  return budget.id ?? `${LEGACY_ID_PREFIX}${budget.startTime}`;
}
function offRecord(budgetId, disabledAt) {
  return { kind: "off", version: RECORD_VERSION, budgetId, disabledAt };
}
function budgetRecord(budget, turnsBefore = 0, spendBefore = NO_SPEND) {
  return {
    version: RECORD_VERSION,
    id: budgetIdOf(budget),
    timeLimitMs: budget.timeLimitMs,
    turnLimit: budget.turnLimit,
    startTime: budget.startTime,
    onStopCommand: budget.onStopCommand,
    ...optionalFields(budget),
    ...turnsBefore > 0 ? { turnsBefore } : {},
    ...spendBefore.tokens > 0 ? { tokensBefore: spendBefore.tokens } : {},
    ...spendBefore.cost > 0 ? { costBefore: spendBefore.cost } : {}
  };
}
function isWholeIn(value, min, max) {
  return Number.isInteger(value) && value >= min && value <= max;
}
function optionalFields(fields2) {
  const { tokenLimit, costLimit, stepLimit, loopLimit, pausedMs, pausedAt, extensions, awareness, graceMs } = fields2;
  return {
    ...isWholeIn(tokenLimit, 1, MAX_TOKEN_LIMIT) ? { tokenLimit } : {},
    ...isWholeIn(stepLimit, 1, MAX_STEP_LIMIT) ? { stepLimit } : {},
    ...isWholeIn(loopLimit, MIN_LOOP_LIMIT, MAX_LOOP_LIMIT) ? { loopLimit } : {},
    ...isFiniteNumber(costLimit) && costLimit >= MIN_COST_LIMIT && costLimit <= MAX_COST_LIMIT ? { costLimit } : {},
    ...isWholeCount(pausedMs) && pausedMs > 0 ? { pausedMs } : {},
    ...isFiniteNumber(pausedAt) ? { pausedAt } : {},
    ...isWholeCount(extensions) && extensions > 0 ? { extensions } : {},
    ...awareness === "always" || awareness === "nudge" ? { awareness } : {},
    ...isFiniteNumber(graceMs) && graceMs >= MIN_GRACE_MS && graceMs <= MAX_GRACE_MS ? { graceMs } : {}
  };
}
function parseBudget(value) {
  if (!isFields2(value)) return null;
  const { timeLimitMs, turnLimit, startTime, onStopCommand } = value;
  if (!isTimeLimit(timeLimitMs) || !isTurnLimit(turnLimit)) return null;
  const limits = optionalFields(value);
  const noLimit = limits.tokenLimit === void 0 && limits.costLimit === void 0 && limits.stepLimit === void 0 && limits.loopLimit === void 0;
  if (timeLimitMs === null && turnLimit === null && noLimit) return null;
  if (!isFiniteNumber(startTime)) return null;
  if (onStopCommand !== void 0 && onStopCommand !== null && typeof onStopCommand !== "string") return null;
  const id = value.version === void 0 ? `${LEGACY_ID_PREFIX}${startTime}` : value.id;
  if (!isBudgetId(id)) return null;
  const { startTurn } = value;
  const terms = {
    id,
    timeLimitMs,
    turnLimit,
    startTime,
    onStopCommand: onStopCommand ? onStopCommand : null,
    ...limits
  };
  return freshBudget(terms, value.version === void 0 && isWholeCount(startTurn) ? startTurn : 0);
}
function parseRecord(value) {
  if (!isFields2(value)) return null;
  if (value.kind === "off") {
    return {
      kind: "off",
      budgetId: isBudgetId(value.budgetId) ? value.budgetId : null,
      disabledAt: isFiniteNumber(value.disabledAt) ? value.disabledAt : 0
    };
  }
  if (value.kind === "subagents") {
    const budgets = parseBudgetWords(value.budgets);
    return budgets === void 0 ? null : { kind: "subagents", budgets };
  }
  if (value.kind === "subagent") {
    const agent = parseSubagentRun(value.agent);
    return agent === null ? null : { kind: "subagent", agent };
  }
  const data = value.budget;
  if (value.kind !== "active" || !isFields2(data)) return null;
  const budget = parseBudget(data);
  if (!budget) return null;
  const { startTurn, version, turnsBefore, tokensBefore, costBefore } = data;
  const legacyStartTurn = version === void 0 && isWholeCount(startTurn) ? startTurn : null;
  return {
    kind: "active",
    budget,
    legacyStartTurn,
    turnsBefore: isWholeCount(turnsBefore) ? turnsBefore : 0,
    spendBefore: {
      tokens: isWholeCount(tokensBefore) ? tokensBefore : 0,
      cost: isFiniteNumber(costBefore) && costBefore > 0 ? costBefore : 0
    }
  };
}

// src/core/model/history.ts
function foldHistory(items) {
  let budget = null;
  let budgetAt = items.length;
  let legacyStartTurn = null;
  let turnsBefore = 0;
  let spendBefore = { tokens: 0, cost: 0 };
  let unusable = 0;
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item?.kind !== "record") continue;
    if (isSubagentRecord(item.record)) continue;
    const record = parseRecord(item.record);
    if (!record) {
      unusable++;
      continue;
    }
    if (record.kind === "active") {
      budget = record.budget;
      budgetAt = index;
      legacyStartTurn = record.legacyStartTurn;
      turnsBefore = record.turnsBefore;
      spendBefore = record.spendBefore;
    }
    break;
  }
  const countFrom = legacyStartTurn === null ? budgetAt : -1;
  const counted = /* @__PURE__ */ new Set();
  let promptsBefore = 0;
  let latest = null;
  let latestRun = null;
  const countedRuns = [];
  let runsCounted = 0;
  const inCountedRun = (key) => countedRuns.some((keys) => idIndex(keys, key) >= 0);
  const paused = budget?.pausedAt !== void 0;
  let tokens = spendBefore.tokens;
  let cost = spendBefore.cost;
  let subagentBudgets;
  const subagents = /* @__PURE__ */ new Map();
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item.kind === "record" && isSubagentRecord(item.record)) {
      const record = parseRecord(item.record);
      if (record?.kind === "subagents") subagentBudgets = record.budgets;
      else if (record?.kind === "subagent") subagents.set(record.agent.id, record.agent);
      continue;
    }
    if (item.kind === "usage") {
      if (index > budgetAt && !paused) {
        tokens += safeAmount(item.tokens);
        cost += safeAmount(item.cost);
      }
      continue;
    }
    if (item.kind === "spend") {
      const { amounts } = item;
      for (let at = 0; index > budgetAt && !paused && at < amounts.length; at += 2) {
        tokens += safeAmount(amounts[at]);
        cost += safeAmount(amounts[at + 1]);
      }
      continue;
    }
    if (item.kind === "prompts") {
      latestRun = item.keys;
      latest = null;
      if (index < budgetAt) promptsBefore += item.count;
      if (index > countFrom && !paused) {
        countedRuns.push(item.keys);
        runsCounted += item.count;
      }
      continue;
    }
    if (item.kind !== "prompt") continue;
    latest = item;
    latestRun = null;
    if (index < budgetAt) promptsBefore++;
    if (index > countFrom && !paused && (countedRuns.length === 0 || !inCountedRun(item.key))) counted.add(item.key);
  }
  const lastPrompt = latestRun !== null ? newestId(latestRun) : latest === null ? null : latest.key;
  const usedTurns = Math.max(0, counted.size + runsCounted - (legacyStartTurn ?? 0)) + turnsBefore;
  const startTurn = legacyStartTurn ?? Math.max(0, promptsBefore - turnsBefore);
  return {
    budget: budget ? { ...budget, startTurn } : null,
    usedTurns: budget ? usedTurns : 0,
    spend: budget ? { tokens, cost } : { tokens: 0, cost: 0 },
    lastPrompt,
    lastPromptCounted: usedTurns > 0 && lastPrompt !== null && (counted.has(lastPrompt) || inCountedRun(lastPrompt)),
    newestUnusable: unusable > 0,
    hasRecords: items.some((item) => item.kind === "record" && !isSubagentRecord(item.record)),
    ...subagentBudgets === void 0 ? {} : { subagentBudgets },
    ...subagents.size === 0 ? {} : { subagents: [...subagents.values()] }
  };
}
function isSubagentRecord(record) {
  if (typeof record !== "object" || record === null || !("kind" in record)) return false;
  return record.kind === "subagents" || record.kind === "subagent";
}

// src/core/model/log-fold.ts
function dropPromptItem(items, promptId) {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item?.kind === "prompt" && item.key === promptId) {
      items.splice(index, 1);
      return;
    }
    const at = item?.kind === "prompts" ? idIndex(item.keys, promptId) : -1;
    if (item?.kind === "prompts" && at >= 0) {
      if (item.count === 1) items.splice(index, 1);
      else items[index] = { kind: "prompts", keys: withoutIdAt(item.keys, at, promptId), count: item.count - 1 };
      return;
    }
  }
}

// src/core/persist.ts
function budgetStoreOver(store) {
  const history = () => store.history();
  return {
    appendActive: (budget) => store.append({ kind: "active", budget: budgetRecord(budget) }),
    // An off record whose budget is not named turns off whichever budget is in force when read back.
    appendOff: (disabledAt, budgetId) => store.append(offRecord(budgetId ?? "", disabledAt)),
    loadRecords: () => history().flatMap((item) => item.kind === "record" && isBudgetRecord(item.record) ? [item.record] : []),
    countUserMessages: () => history().filter((item) => item.kind === "prompt").length
  };
}
var SpecSessionStore = class {
  spec = budgetStoreOver(this);
  appendActive(budget) {
    this.spec.appendActive(budget);
  }
  appendOff(disabledAt, budgetId) {
    this.spec.appendOff(disabledAt, budgetId);
  }
  loadRecords() {
    return this.spec.loadRecords();
  }
  countUserMessages() {
    return this.spec.countUserMessages();
  }
};
function isBudgetRecord(value) {
  return typeof value === "object" && value !== null && "kind" in value && (value.kind === "active" || value.kind === "off");
}

// src/core/subagents/messages.ts
function subagentLimitPhrase(limit2, budget) {
  switch (limit2) {
    case "time":
      return `its ${formatBudgetLabel(budget?.timeLimitMs ?? 0)} budget`;
    case "steps":
      return `its ${budget?.stepLimit ?? 0}-step budget`;
    case "tokens":
      return `its ${formatTokens(budget?.tokenLimit ?? 0)}-token budget`;
    case "cost":
      return `its ${formatCost(budget?.costLimit ?? 0)} budget`;
    case "loop":
      return `its loop guard (loop:${budget?.loopLimit ?? 0})`;
  }
}
function subagentStopCause(limit2, budget) {
  switch (limit2) {
    case "session":
      return "with the session's budget";
    case "parent":
      return "with the agent that started it";
    default:
      return `at ${subagentLimitPhrase(limit2, budget)}`;
  }
}
function pluralCalls(count4) {
  return `${count4} model ${count4 === 1 ? "call" : "calls"}`;
}
var SUBAGENT_WRAP_UP_BLOCK = [
  "TIMEBOX: TASK BUDGET SPENT",
  "Your budget for this task is spent. Write your final answer now: what you found, and what is left undone.",
  "Call no more tools: they are refused, and you are stopped if you ask for one again."
].join("\n");

// src/core/text/report-page.ts
function fileLink(path) {
  const absolute = path.startsWith("/") ? path : `/${path}`;
  return `file://${encodeURI(absolute).replace(/[?#]/g, (c) => encodeURIComponent(c))}`;
}
function reportPageWritten(path) {
  return `Timebox report page: ${fileLink(path)}`;
}

// src/core/suggest/statistics.ts
function percentile(values, percent) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(percent / 100 * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}
function percentiles(values) {
  const measured = values.filter((value) => value !== null);
  return {
    median: percentile(measured, SUGGEST_MEDIAN),
    p90: percentile(measured, SUGGEST_PERCENTILE),
    sessions: measured.length
  };
}
function suggestionOf(sessions, exclude = null) {
  const counted = sessions.filter((session) => session.id !== exclude).sort((a, b) => b.endedAt - a.endedAt).slice(0, SUGGEST_SESSIONS);
  const byHost = /* @__PURE__ */ new Map();
  for (const session of counted) byHost.set(session.host, (byHost.get(session.host) ?? 0) + 1);
  const hosts = [...byHost].map(([host, count4]) => ({ host, sessions: count4 })).sort((a, b) => b.sessions - a.sessions);
  if (counted.length < SUGGEST_MIN_SESSIONS) return { sessions: counted.length, hosts, figures: null, words: null };
  const figures = {
    timeMs: percentiles(counted.map((session) => session.endedAt - session.startedAt)),
    turns: percentiles(counted.map((session) => session.turns)),
    steps: percentiles(counted.map((session) => session.steps)),
    tokens: percentiles(counted.map((session) => session.tokens)),
    cost: percentiles(counted.map((session) => session.cost))
  };
  return { sessions: counted.length, hosts, figures, words: budgetWords(figures) };
}
function measuredEnough(figure) {
  return figure.sessions >= SUGGEST_MIN_SESSIONS;
}
function budgetWords(figures) {
  const words = [
    timeWord(figures.timeMs.p90),
    `turns:${Math.min(MAX_TURN_LIMIT, Math.max(1, Math.ceil(figures.turns.p90)))}`
  ];
  if (measuredEnough(figures.cost) && figures.cost.p90 > 0) words.push(costWord(figures.cost.p90));
  else if (measuredEnough(figures.tokens) && figures.tokens.p90 > 0) words.push(tokensWord(figures.tokens.p90));
  return words.join(" ");
}
var MINUTE_MS2 = 6e4;
var HOUR_MS2 = 60 * MINUTE_MS2;
function timeWord(ms) {
  const step = ms < 10 * MINUTE_MS2 ? MINUTE_MS2 : ms < HOUR_MS2 ? 5 * MINUTE_MS2 : ms < 4 * HOUR_MS2 ? 15 * MINUTE_MS2 : HOUR_MS2;
  const rounded = Math.min(MAX_TIME_LIMIT_MS, Math.max(MINUTE_MS2, Math.ceil(ms / step) * step));
  const hours = Math.floor(rounded / HOUR_MS2);
  const minutes = Math.round(rounded % HOUR_MS2 / MINUTE_MS2);
  if (hours === 0) return `${minutes}m`;
  return minutes === 0 ? `${hours}h` : `${hours}h${minutes}m`;
}
function tokensWord(tokens) {
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, tokens))) - 1);
  const rounded = Math.min(MAX_TOKEN_LIMIT, Math.ceil(tokens / magnitude) * magnitude);
  if (rounded >= 1e6) return `tokens:${trim(rounded / 1e6)}m`;
  if (rounded >= 1e3) return `tokens:${trim(rounded / 1e3)}k`;
  return `tokens:${rounded}`;
}
function costWord(dollars) {
  const cents = Math.ceil(dollars * 100 - 1e-6);
  const step = cents < 100 ? 5 : cents < 1e3 ? 50 : 100;
  const rounded = Math.min(MAX_COST_LIMIT * 100, Math.max(step, Math.ceil(cents / step) * step));
  return rounded >= 1e3 ? `$${rounded / 100}` : `$${(rounded / 100).toFixed(2)}`;
}
function trim(value) {
  return Number.isInteger(value) ? `${value}` : `${Math.round(value * 10) / 10}`;
}

// src/core/text/suggestion.ts
function lastSessions(count4) {
  return count4 === 1 ? "your last session here" : `your last ${count4} sessions here`;
}
function sessionsCount(count4) {
  if (count4 === 0) return "no session";
  return count4 === 1 ? "1 session" : `${count4} sessions`;
}
function tooLittleHistory(sessions, project = null) {
  const of = project === null ? "of this project" : `in ${project}`;
  return `too little history to suggest a budget: ${sessionsCount(sessions)} ${of} so far, and a suggestion needs ${SUGGEST_MIN_SESSIONS}.`;
}
function suggestionLine(words, sessions) {
  return `Try /timebox ${words} (the ${SUGGEST_PERCENTILE}th percentile of ${lastSessions(sessions)}).`;
}
function figureLine(name, figure, all, show) {
  if (!measuredEnough(figure)) {
    const few = figure.sessions === 0 ? "none" : `only ${figure.sessions}`;
    return `- ${name}: not measured (${few} of these sessions' hosts measure it)`;
  }
  const over = figure.sessions < all ? ` (${figure.sessions} sessions; the other hosts do not measure it)` : "";
  return `- ${name}: ${show(figure.median)} / ${show(figure.p90)}${over}`;
}
function suggestionText(suggestion, project = null) {
  const { figures, words } = suggestion;
  if (figures === null || words === null) return `Timebox: ${tooLittleHistory(suggestion.sessions, project)}`;
  const hosts = suggestion.hosts.map((one) => `${one.sessions} ${one.host}`).join(", ");
  const all = suggestion.sessions;
  const sessions = project === null ? lastSessions(all) : `your last ${all} sessions in ${project}`;
  return [
    `Timebox: ${sessions} (${hosts}), median / ${SUGGEST_PERCENTILE}th percentile:`,
    figureLine("time", figures.timeMs, all, formatTime),
    figureLine("turns", figures.turns, all, (value) => `${value}`),
    figureLine("model calls", figures.steps, all, (value) => `${value}`),
    figureLine("tokens", figures.tokens, all, formatTokens),
    figureLine("cost", figures.cost, all, formatCost),
    suggestionLine(words, all)
  ].join("\n");
}

// src/core/subagents/describe.ts
function describeTaskBudget(budget) {
  const parts = [];
  if (budget.timeLimitMs !== null) parts.push(formatBudgetLabel(budget.timeLimitMs));
  if (budget.stepLimit !== void 0) parts.push(pluralCalls(budget.stepLimit));
  if (budget.tokenLimit !== void 0) parts.push(`${formatTokens(budget.tokenLimit)} tokens`);
  if (budget.costLimit !== void 0) parts.push(formatCost(budget.costLimit));
  if (budget.loopLimit !== void 0) parts.push(loopGuardPhrase(budget.loopLimit));
  return parts.join(" and ");
}

// src/core/subagents/state.ts
function usedText(run, now) {
  const until = run.endedAt ?? now;
  const spend = run.spend;
  const used = [formatTime(until - run.startedAt), pluralCalls(run.steps)];
  if (spend.tokens > 0) used.push(`${formatTokens(spend.tokens)} tokens`);
  if (spend.cost > 0) used.push(formatCost(spend.cost));
  return used.join(", ");
}

// src/core/subagents/status.ts
function subagentReportLines(runs, now) {
  if (runs.length === 0) return [];
  const count4 = runs.length === 1 ? "1 subagent" : `${runs.length} subagents`;
  return [`${count4} in this session:`, ...runs.map((run) => `- ${subagentReportLine(run, now)}`)];
}
function subagentReportLine(run, now) {
  const budget = run.budget === null ? "no budget of its own" : `budget ${describeTaskBudget(run.budget)}`;
  return `${nameOf(run)}: ${budget}; used ${usedText(run, now)}. ${ending(run)}`;
}
function nameOf(run) {
  return `${quoteInput(run.task)} (${run.agentType})`;
}
function ending(run) {
  if (run.ended === "answered") return "Answered.";
  if (run.spent === null) return "Still running.";
  const cause = subagentStopCause(run.spent.limit, run.budget);
  switch (run.ended) {
    case "concluded":
      return `Concluded ${cause}.`;
    case "stopped":
      return `Stopped ${cause}.`;
    case null:
      return `Concluding ${cause}.`;
  }
}

// src/core/session/outcomes.ts
function outcomeId(budget) {
  const id = budgetIdOf(budget);
  return budget.extensions ? `${id}.e${budget.extensions}` : id;
}
function readLedger(ledger, budget) {
  const outcomes = ledger.read(outcomeId(budget));
  return budget.extensions ? { ...outcomes, off: ledger.read(budgetIdOf(budget)).off } : outcomes;
}

// src/core/session/state.ts
function counting(state) {
  const standing = state.standing;
  if (!standing || standing.spent || standing.budget.pausedAt !== void 0) return null;
  return standing;
}

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

// src/core/loop/calls.ts
function sortedKeys(fields2) {
  const keys = Object.keys(fields2);
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index];
    let at = index - 1;
    while (at >= 0 && keys[at] > key) {
      keys[at + 1] = keys[at];
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}
function callHash(call) {
  const lanes = { a: 2166136261, b: 2654435761 };
  feedText(lanes, call.tool);
  feedValue(lanes, call.input, []);
  return finish(lanes);
}
function callKey(call) {
  return keyOf(callHash(call));
}
function keyOf(hash) {
  return hex(hash.a) + hex(hash.b);
}
function feed(lanes, code) {
  lanes.a = Math.imul(lanes.a ^ code, 16777619);
  lanes.b = Math.imul(lanes.b ^ code, 1540483477);
}
function feedText(lanes, text2) {
  feed(lanes, TEXT);
  feed(lanes, text2.length);
  let { a, b } = lanes;
  const pairs = text2.length - 1;
  let index = 0;
  for (; index < pairs; index += 2) {
    const pair = text2.charCodeAt(index) | text2.charCodeAt(index + 1) << 16;
    a = Math.imul(a ^ pair, 16777619);
    b = Math.imul(b ^ pair, 1540483477);
  }
  if (index < text2.length) {
    const last = text2.charCodeAt(index);
    a = Math.imul(a ^ last, 16777619);
    b = Math.imul(b ^ last, 1540483477);
  }
  lanes.a = a;
  lanes.b = b;
}
var TEXT = 65537;
var NUMBER = 65538;
var TRUE = 65539;
var FALSE = 65540;
var NULL = 65541;
var ARRAY = 65542;
var OBJECT = 65543;
var END2 = 65544;
var WHOLE = 65545;
function written(value) {
  const kind = typeof value;
  return kind !== "undefined" && kind !== "function" && kind !== "symbol";
}
function feedValue(lanes, value, open) {
  switch (typeof value) {
    case "string":
      feedText(lanes, value);
      return;
    case "number":
      if (!Number.isFinite(value)) break;
      if ((value | 0) === value) {
        feed(lanes, WHOLE);
        feed(lanes, value);
      } else {
        feed(lanes, NUMBER);
        feedText(lanes, String(value));
      }
      return;
    case "boolean":
      feed(lanes, value ? TRUE : FALSE);
      return;
    case "bigint":
      feedText(lanes, value.toString());
      return;
    case "object":
      if (value === null || open.includes(value)) break;
      feedObject(lanes, value, open);
      return;
  }
  feed(lanes, NULL);
}
function feedObject(lanes, value, open) {
  open.push(value);
  if (Array.isArray(value)) {
    feed(lanes, ARRAY);
    feed(lanes, value.length);
    for (const item of value) feedValue(lanes, item, open);
  } else {
    const fields2 = value;
    feed(lanes, OBJECT);
    for (const key of sortedKeys(fields2)) {
      const field = fields2[key];
      if (!written(field)) continue;
      feedText(lanes, key);
      feedValue(lanes, field, open);
    }
  }
  feed(lanes, END2);
  open.pop();
}
function finish(lanes) {
  let { a, b } = lanes;
  a ^= b >>> 15;
  a = Math.imul(a, 2246822507);
  b ^= a >>> 13;
  b = Math.imul(b, 3266489909);
  a ^= b >>> 16;
  b ^= a >>> 16;
  return { a: a >>> 0, b: b >>> 0 };
}
function hex(lane) {
  return (lane >>> 0).toString(16).padStart(8, "0");
}

// src/core/loop/run-calls.ts
var BITS = 5;
var WIDTH = 1 << BITS;
var MASK = WIDTH - 1;
var EMPTY_LEVEL = Array.from({ length: WIDTH }, () => void 0);

// src/core/text/report.ts
function sessionReport(items, ledger, now, terms = DEFAULT_TERMS) {
  const budgets = foldBudgets(items);
  const subagents = subagentReportLines(foldHistory(items).subagents ?? [], now);
  if (budgets.length === 0) return ["Timebox report: no budget was set in this session.", ...subagents].join("\n");
  const lines = budgets.map(
    (entry, index) => `${index + 1}. ${describeEntry(entry, ledger(entry.budget), now, terms)}`
  );
  const count4 = budgets.length === 1 ? "1 budget" : `${budgets.length} budgets`;
  const note = unmeasuredNote(terms);
  return [`Timebox report: ${count4} in this session.`, ...lines, ...subagents, ...note === null ? [] : [note]].join(
    "\n"
  );
}
function foldBudgets(items) {
  const budgets = [];
  let current = null;
  for (const item of items) {
    if (item.kind === "record") {
      const record = parseRecord(item.record);
      if (record?.kind === "active") {
        if (current && current.budget.id === record.budget.id) {
          current.budget = record.budget;
          takeUpAgain(current, record.turnsBefore);
          continue;
        }
        if (current) current.ending = { kind: "replaced", at: record.budget.startTime };
        current = { budget: record.budget, prompts: /* @__PURE__ */ new Set(), turns: [], usage: [], ending: { kind: "active" } };
        budgets.push(current);
      } else if (record?.kind === "off" && current) {
        current.ending = { kind: "off", at: record.disabledAt };
        current = null;
      }
      continue;
    }
    if (!current || current.budget.pausedAt !== void 0) continue;
    if (item.kind === "prompt") {
      if (!current.prompts.has(item.key)) current.turns.push({ key: item.key, at: item.at });
      current.prompts.add(item.key);
    } else current.usage.push({ tokens: item.tokens, cost: item.cost, at: item.at });
  }
  return budgets;
}
function takeUpAgain(entry, counted) {
  if (counted >= entry.turns.length) return;
  const stop2 = entry.turns[counted]?.at;
  entry.turns = entry.turns.slice(0, counted);
  entry.prompts = new Set(entry.turns.map((turn) => turn.key));
  if (stop2 !== void 0) entry.usage = entry.usage.filter((usage) => usage.at === void 0 || usage.at < stop2);
}
function budgetFigures(entry, ledger, now) {
  const { budget } = entry;
  const spent = ledger.spent;
  const ending2 = spent ? { kind: "spent", why: spentWhy(spent) } : entry.ending;
  const until = ending2.kind === "off" || ending2.kind === "replaced" ? ending2.at : now;
  const stoppedAt = spent ? budget.startTime + (budget.pausedMs ?? 0) + spent.elapsedMs : Number.POSITIVE_INFINITY;
  return {
    ending: ending2,
    until: spent ? stoppedAt : until,
    timeMs: spent ? spent.elapsedMs : elapsedMs(budget, until),
    turns: spent ? spent.usedTurns : entry.prompts.size,
    spend: sumUsage(entry.usage.filter((usage) => usage.at === void 0 || usage.at <= stoppedAt)),
    stoppedAt
  };
}
function describeEntry(entry, ledger, now, terms) {
  const { budget } = entry;
  const figures = budgetFigures(entry, ledger, now);
  const extended = budget.extensions ? `, extended ${budget.extensions === 1 ? "once" : `${budget.extensions} times`}` : "";
  const used = [
    formatTime(figures.timeMs),
    pluralTurns(figures.turns),
    ...terms.tokens ? [`${formatTokens(figures.spend.tokens)} tokens`] : [],
    ...terms.cost ? [formatCost(figures.spend.cost)] : []
  ];
  const set = `${describeBudget(budget)}, set ${formatTime(Math.max(0, now - budget.startTime))} ago${extended}`;
  return `${set}: used ${used.join(", ")}. ${endingText(figures.ending)}`;
}
function sumUsage(usage) {
  return usage.reduce(
    (sum, one) => ({ tokens: sum.tokens + safeAmount(one.tokens), cost: sum.cost + safeAmount(one.cost) }),
    { tokens: 0, cost: 0 }
  );
}
function spentWhy(spent) {
  if (spent.timeRanOut) return "the time ran out";
  if (spent.noRoom)
    return `too little of the ${spent.limit === "cost" ? "cost" : "tokens"} was left for the next model call`;
  if (spent.limit === "tokens") return "the tokens were used up";
  if (spent.limit === "cost") return "the cost limit was reached";
  return "the prompts were used up";
}
function endingText(ending2) {
  switch (ending2.kind) {
    case "active":
      return "Still active.";
    case "spent":
      return `Spent: ${ending2.why}.`;
    case "off":
      return "Turned off.";
    case "replaced":
      return "Replaced by a new budget.";
  }
}

// src/core/text/report-data.ts
var SHARES = [NUDGE_WARNING_RATIO, NUDGE_CRITICAL_RATIO];
function reportData(items, ledger, now, terms = DEFAULT_TERMS) {
  const runs = foldHistory(items).subagents ?? [];
  return {
    text: sessionReport(items, ledger, now, terms),
    now,
    measured: { tokens: terms.tokens, cost: terms.cost },
    budgets: foldBudgets(items).map((entry) => budgetData(entry, ledger, now, terms)),
    subagents: runs.map((run) => subagentData(run, subagentReportLine(run, now)))
  };
}
function limitsOf(budget) {
  return {
    timeMs: budget.timeLimitMs,
    turns: budget.turnLimit,
    tokens: budget.tokenLimit ?? null,
    cost: budget.costLimit ?? null,
    steps: budget.stepLimit ?? null,
    loop: budget.loopLimit ?? null
  };
}
function budgetData(entry, ledger, now, terms) {
  const { budget } = entry;
  const view = ledger(budget);
  const figures = budgetFigures(entry, view, now);
  const line = describeEntry(entry, view, now, terms);
  const steps = [];
  let tokens = 0;
  let cost = 0;
  for (const usage of entry.usage) {
    if (usage.at === void 0 || usage.at > figures.stoppedAt) continue;
    tokens += safeAmount(usage.tokens);
    cost += safeAmount(usage.cost);
    steps.push({ at: usage.at, tokens, cost });
  }
  const turns = entry.turns.slice(0, figures.turns).flatMap((turn) => turn.at === void 0 ? [] : [turn.at]);
  const limits = limitsOf(budget);
  return {
    words: describeBudget(budget),
    line,
    startTime: budget.startTime,
    until: figures.until,
    limits,
    used: { timeMs: figures.timeMs, turns: figures.turns, tokens: figures.spend.tokens, cost: figures.spend.cost },
    ending: { kind: figures.ending.kind, text: endingText(figures.ending) },
    extensions: budget.extensions ?? 0,
    pausedMs: budget.pausedMs ?? 0,
    pausedAt: budget.pausedAt ?? null,
    graceMs: budget.graceMs ?? null,
    onStopCommand: budget.onStopCommand,
    turns,
    steps,
    warnings: warningsOf(budget, limits, figures.until, turns, steps)
  };
}
function warningsOf(budget, limits, until, turns, steps) {
  const warnings = [];
  for (const share of SHARES) {
    if (limits.timeMs !== null) {
      const at = budget.startTime + (budget.pausedMs ?? 0) + share * limits.timeMs;
      if (at <= until) warnings.push({ share, limit: "time", at });
    }
    if (limits.turns !== null) {
      const at = turns[Math.ceil(share * limits.turns) - 1];
      if (at !== void 0) warnings.push({ share, limit: "turns", at });
    }
    for (const limit2 of ["tokens", "cost"]) {
      const cap = limits[limit2];
      const reached = cap === null ? void 0 : steps.find((step) => step[limit2] >= share * cap);
      if (reached !== void 0) warnings.push({ share, limit: limit2, at: reached.at });
    }
  }
  return warnings.sort((a, b) => a.at - b.at);
}
function subagentData(run, line) {
  const budget = run.budget;
  return {
    id: run.id,
    parent: run.parent,
    agentType: run.agentType,
    task: run.task,
    budget: budget === null ? null : describeTaskBudget(budget),
    limits: budget === null ? null : {
      timeMs: budget.timeLimitMs,
      turns: null,
      tokens: budget.tokenLimit ?? null,
      cost: budget.costLimit ?? null,
      steps: budget.stepLimit ?? null,
      loop: budget.loopLimit ?? null
    },
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    spent: run.spent === null ? null : { at: run.spent.at, limit: run.spent.limit },
    ended: run.ended,
    steps: run.steps,
    tokens: run.spend.tokens,
    cost: run.spend.cost,
    line
  };
}

// src/core/run/runtime.ts
var NO_DAILY_PART = { session: NO_DAILY_SESSION, refused: null };

// src/core/run/session-log.ts
var session_log_exports = {};
__export(session_log_exports, {
  claimKept: () => claimKept,
  dailyPartLines: () => dailyPartLines,
  dailyPartOf: () => dailyPartOf,
  keepFold: () => keepFold,
  keepSpawn: () => keepSpawn,
  keepUntold: () => keepUntold,
  latestPrompt: () => latestPrompt,
  linesOfKind: () => linesOfKind,
  loopCalls: () => loopCalls,
  nextCallLines: () => nextCallLines,
  owe: () => owe,
  owedTo: () => owedTo,
  refuseSpawn: () => refuseSpawn,
  refusedSpawn: () => refusedSpawn,
  ruleIdOf: () => ruleIdOf,
  runEndedLines: () => runEndedLines,
  takeSpawn: () => takeSpawn,
  transcriptUsage: () => transcriptUsage,
  untoldNotices: () => untoldNotices
});

// src/core/text/notices.ts
var SETTINGS_NOT_JSON = "Timebox: the settings file is not valid JSON, so nothing was changed.";
var SETTINGS_NOT_OBJECT = "Timebox: the settings file is not a JSON object, so nothing was changed.";
var STATUS_LINE_ALREADY_SET = "Timebox's status line is already set up; nothing was changed.";
function statusLineSet(afterYours) {
  return afterYours ? "Timebox's status line is set up after yours: your status line comes first, then Timebox's." : "Timebox's status line is set up: it shows the budget of each session.";
}
var TRANSCRIPT_UNREADABLE = "Timebox: Claude Code's transcript shows token usage in a form Timebox cannot read, so a token limit is not enforced until it can.";
function dailyLedgerUnusable(dir, reason) {
  return `Timebox: the daily ledger in ${dir} cannot be used (${reason}), so today's budget is not enforced here.`;
}
function teamSettingsUnusable(why) {
  return `Timebox: ${why} The daily budget is this machine's alone.`;
}
function teamSettingsRefusal(why, variable, mode) {
  const taken = mode.toLowerCase() === "closed" ? `"${mode}"` : `"${mode.slice(0, 64)}", taken as closed`;
  return `Timebox: ${why} The team's budget cannot be counted, so new turns are refused until it is set right (${variable} is ${taken}).`;
}
function teamFailureModeUnread(variable, value) {
  return `Timebox: ${variable} "${value.slice(0, 64)}" is neither "open" nor "closed", so new turns are refused while the team's store cannot be reached (closed).`;
}
function teamStoreUnreachable(shown, why, closed, answered = false) {
  if (closed) return teamStoreRefusal(shown, why, answered);
  if (answered) {
    const goesOn2 = "this machine counts today's use on its own until the store reads it, then sends it there";
    return `Timebox: the team's daily store ${shown} cannot read the team's day (${why}): ${goesOn2}.`;
  }
  const goesOn = "this machine counts today's use on its own until it answers, then sends it to the team";
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}): ${goesOn}.`;
}
function teamUnsentLostMessage(why) {
  return `Timebox: what this machine used while the team's store was down could not be kept to send later (${why}): the team's day will not count it.`;
}
function teamStoreRefusal(shown, why, answered = false) {
  if (answered)
    return `Timebox: the team's daily store ${shown} cannot read the team's day (${why}), so new turns are refused until it does.`;
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}), so new turns are refused until it answers.`;
}
function teamStoreDenied(shown, why) {
  return `Timebox: the team's daily store ${shown} refused this user the team's day (${why}), so new turns are refused until its admin lets this user count there (docs/team.md gives a member's ACL).`;
}

// src/core/run/kept-lines.ts
var write = (line) => ({ kind: "logLine", line });
function linesOfKind(lines, kind) {
  const found = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.kind === kind) found.push(line);
  }
  return found;
}

// src/core/run/log-queues.ts
function owe(to, lines, now) {
  return [write({ kind: "owed", to, lines, at: now })];
}
function owedTo(lines, to, now) {
  let paid = 0;
  const owedLines = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.kind === "paid" && line.to === to) paid++;
    else if (line.kind === "owed" && line.to === to) owedLines.push(line.lines);
  }
  const owed = owedLines.slice(paid);
  return { value: owed.flat(), effects: owed.map(() => write({ kind: "paid", to, at: now })) };
}
function keepUntold(notices, now) {
  return [write({ kind: "untold", notices, at: now })];
}
function untoldNotices(lines, now) {
  let told = 0;
  const kept2 = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.kind === "told") told++;
    else if (line.kind === "untold") kept2.push(line.notices);
  }
  const untold = kept2.slice(told);
  return { value: untold.flat(), effects: untold.map(() => write({ kind: "told", at: now })) };
}
function keepSpawn(id, agent, spawn, now) {
  return [write({ kind: "spawn", id, agent, ...spawn, at: now })];
}
function takeSpawn(lines, agent, agentType, now) {
  const taken = new Set(linesOfKind(lines, "spawn-taken").map((line) => line.index));
  const open = linesOfKind(lines, "spawn").map((line, index) => ({ line, index })).filter(({ index }) => !taken.has(index));
  const found = open.find(({ line }) => line.agentType === agentType) ?? open[0];
  if (!found) return { value: null, effects: [] };
  return { value: found.line, effects: [write({ kind: "spawn-taken", index: found.index, agent, at: now })] };
}
function ruleIdOf(lines, hostAgent) {
  const taken = lines.find((line) => line.kind === "spawn-taken" && line.agent === hostAgent);
  if (taken?.kind !== "spawn-taken") return hostAgent;
  const spawn = linesOfKind(lines, "spawn")[taken.index];
  return spawn?.id ?? hostAgent;
}
function refuseSpawn(agent, reason, now) {
  return [write({ kind: "spawn-refused", agent, reason, at: now })];
}
function refusedSpawn(lines, agent) {
  const refused = lines.find((line) => line.kind === "spawn-refused" && line.agent === agent);
  return refused?.kind === "spawn-refused" ? refused.reason : null;
}

// src/core/run/session-log.ts
function nextCallLines(state, promptKey2, now) {
  return promptKey2 !== null && state.standing ? [write({ kind: "call", promptId: promptKey2, at: now })] : [];
}
function keepFold(read) {
  return read !== null && read.bytes >= LOG_FOLD_KEEP_BYTES ? [{ kind: "keepLogFold", fold: read.fold }] : [];
}
function latestPrompt(lines) {
  const dropped = [];
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index];
    if (line?.kind === "prompt-dropped") dropped.push(line.promptId);
    else if (line?.kind === "prompt") {
      const at = dropped.indexOf(line.promptId);
      if (at < 0) return line.promptId;
      dropped.splice(at, 1);
    } else if (line?.kind === "prompts") {
      for (const id of idsNewestFirst(line.ids)) {
        const at = dropped.indexOf(id);
        if (at < 0) return id;
        dropped.splice(at, 1);
      }
    }
  }
  return null;
}
function loopCalls(lines, state, promptId, agent, call, now) {
  const guarded = agent === null ? counting(state)?.budget.loopLimit !== void 0 : state.subagents.runs[agent]?.budget?.loopLimit !== void 0;
  if (!guarded || promptId === null) return { value: void 0, effects: [] };
  const earlier = [];
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index];
    if (line.kind === "tool" && line.agent === agent && (agent !== null || line.promptId === promptId)) {
      earlier.push(line.key);
    } else if (line.kind === "prompt" && line.promptId === promptId) break;
    else if (line.kind === "prompts" && runHas(line, promptId)) break;
    else if (line.kind === "spawn" && agent !== null && line.id === agent) break;
  }
  earlier.reverse();
  return { value: earlier, effects: [write({ kind: "tool", promptId, agent, key: callKey(call), at: now })] };
}
function runEndedLines(promptId, now) {
  return promptId === null ? [] : [write({ kind: "ended", promptId, at: now })];
}
function claimKept(claim, lines, now) {
  const kept2 = lines.some(
    (line) => line.kind === "claim" && line.claim.kind === claim.kind && line.claim.budgetId === claim.budgetId
  );
  return kept2 ? null : [write({ kind: "claim", claim, at: now })];
}
function dailyPartOf(lines, promptId) {
  const stop2 = lines.findLast(
    (line) => line.kind === "daily-stopped" && line.promptId === promptId
  );
  const startedAt = stop2?.at ?? sentAt(lines, promptId);
  const ended = lines.some(
    (line) => (line.kind === "daily-ended" || line.kind === "prompt-dropped") && line.promptId === promptId
  );
  return {
    ...NO_DAILY_PART,
    session: {
      given: linesOfKind(lines, "daily-warned").map((line) => line.level),
      runStartedAt: !ended && startedAt !== void 0 ? startedAt : null,
      stopped: stop2 !== void 0
    }
  };
}
function sentAt(lines, promptId) {
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.kind === "prompt" && line.promptId === promptId) return line.at;
    const at = line.kind === "prompts" ? runAt(line, promptId) : void 0;
    if (at !== void 0) return at;
  }
  return void 0;
}
function dailyPartLines(promptId, before, after, now) {
  const lines = [];
  for (const level of after.session.given) {
    if (!before.session.given.includes(level)) lines.push({ kind: "daily-warned", level, at: now });
  }
  if (after.session.stopped && !before.session.stopped) {
    lines.push({ kind: "daily-stopped", promptId, at: after.session.runStartedAt ?? now });
  }
  if (before.session.runStartedAt !== null && after.session.runStartedAt === null) {
    lines.push({ kind: "daily-ended", promptId, at: now });
  }
  return lines.map(write);
}
function transcriptUsage(found, readFrom, lines, now) {
  const effects = found.responses.map((response) => ({
    kind: "recordUsage",
    usage: {
      responseId: response.id,
      used: { tokens: response.tokens },
      at: now,
      offset: found.offset,
      ...response.prompt === void 0 ? {} : { prompt: response.prompt }
    }
  }));
  const tokens = found.responses.reduce((sum, response) => sum + response.tokens, 0);
  if (tokens > 0) effects.push({ kind: "addDailyUse", use: { tokens } });
  if (found.responses.length === 0 && found.offset > readFrom) {
    effects.push(write({ kind: "transcript", offset: found.offset }));
  }
  if (!found.unreadable || lines.some((line) => line.kind === "transcript-unreadable"))
    return { effects, notice: null };
  effects.push(write({ kind: "transcript-unreadable", at: now }));
  return { effects, notice: TRANSCRIPT_UNREADABLE };
}

// src/core/suggest/past-session.ts
function pastSession(items, facts) {
  const prompts = /* @__PURE__ */ new Set();
  let startedAt = Number.POSITIVE_INFINITY;
  let endedAt = facts.endedAt ?? Number.NEGATIVE_INFINITY;
  let tokens = 0;
  let cost = 0;
  for (const item of items) {
    if (item.kind === "record") continue;
    const at = item.at;
    if (at !== void 0 && Number.isFinite(at)) endedAt = Math.max(endedAt, at);
    if (item.kind === "usage") {
      tokens += safeAmount(item.tokens);
      cost += safeAmount(item.cost);
      continue;
    }
    prompts.add(item.key);
    if (at !== void 0 && Number.isFinite(at)) startedAt = Math.min(startedAt, at);
  }
  if (prompts.size === 0 || startedAt === Number.POSITIVE_INFINITY) return null;
  return {
    id: facts.id,
    host: facts.host,
    startedAt,
    endedAt: Math.max(startedAt, endedAt),
    turns: prompts.size,
    steps: facts.steps,
    tokens: facts.tokens ? tokens : null,
    cost: facts.cost ? cost : null
  };
}

// src/adapters/report/tables.ts
function escapeHtml(text2) {
  return text2.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
function clockTime(ms) {
  const date = new Date(ms);
  const pad = (value) => String(value).padStart(2, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
function cell(value, tag) {
  return tag === "th" ? `<th scope="row">${escapeHtml(value)}</th>` : `<td>${escapeHtml(value)}</td>`;
}
function table(caption, head, rows) {
  const header = head.map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join("");
  const body = rows.map((row) => `<tr>${row.map((value, index) => cell(value, index === 0 ? "th" : "td")).join("")}</tr>`).join("");
  return `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${header}</tr></thead><tbody>${body}</tbody></table>`;
}
var NONE = "\u2013";
function orNone(value, format) {
  return value === null ? NONE : format(value);
}
var count = (value) => String(value);
function budgetFiguresTable(budget, index, report) {
  const { limits, used } = budget;
  const left = (limit2, value) => limit2 === null ? null : Math.max(0, limit2 - value);
  const rows = [
    [
      "Time",
      orNone(limits.timeMs, formatTime),
      formatTime(used.timeMs),
      orNone(left(limits.timeMs, used.timeMs), formatTime)
    ],
    ["Turns", orNone(limits.turns, count), count(used.turns), orNone(left(limits.turns, used.turns), count)]
  ];
  if (report.measured.tokens) {
    rows.push([
      "Tokens",
      orNone(limits.tokens, formatTokens),
      formatTokens(used.tokens),
      orNone(left(limits.tokens, used.tokens), formatTokens)
    ]);
  }
  if (report.measured.cost) {
    rows.push([
      "Cost",
      orNone(limits.cost, formatCost),
      formatCost(used.cost),
      orNone(left(limits.cost, used.cost), formatCost)
    ]);
  }
  if (limits.steps !== null) rows.push(["Model calls per turn", count(limits.steps), NONE, NONE]);
  if (limits.loop !== null) rows.push(["Identical tool calls per run (loop guard)", count(limits.loop), NONE, NONE]);
  return table(`Budget ${index + 1}: ${budget.words}`, ["", "Limit", "Used", "Left"], rows);
}
var LIMIT_NAMES = { time: "time", turns: "turns", tokens: "tokens", cost: "cost" };
function budgetEvents(budget) {
  const events = [{ at: budget.startTime, what: `Budget set: ${budget.words}` }];
  budget.turns.forEach((at, index) => {
    events.push({ at, what: `Turn ${index + 1}` });
  });
  for (const warning of budget.warnings) {
    events.push({
      at: warning.at,
      what: `${Math.round(warning.share * 100)}% of the ${LIMIT_NAMES[warning.limit]} used`
    });
  }
  if (budget.pausedAt !== null) events.push({ at: budget.pausedAt, what: "Paused" });
  if (budget.ending.kind !== "active") events.push({ at: budget.until, what: budget.ending.text });
  return events.sort((a, b) => a.at - b.at);
}
function budgetEventsTable(budget) {
  const rows = budgetEvents(budget).map((event) => [
    clockTime(event.at),
    `+${formatTime(event.at - budget.startTime)}`,
    event.what
  ]);
  const notes = [];
  if (budget.extensions > 0) notes.push(`Extended ${budget.extensions === 1 ? "once" : `${budget.extensions} times`}.`);
  if (budget.pausedMs > 0) notes.push(`Paused for ${formatTime(budget.pausedMs)} in all.`);
  if (budget.graceMs !== null) notes.push(`Grace period: ${formatTime(budget.graceMs)}.`);
  notes.push(budget.onStopCommand === null ? "No on-stop command." : `On-stop command: ${budget.onStopCommand}`);
  const list = `<ul class="notes">${notes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>`;
  return `${table("What happened", ["Time", "Since the start", "Event"], rows)}${list}`;
}
function subagentsTable(subagents, report) {
  const rows = subagents.map((agent) => [
    `${agent.task} (${agent.agentType})`,
    agent.budget ?? "none of its own",
    clockTime(agent.startedAt),
    formatTime((agent.endedAt ?? report.now) - agent.startedAt),
    count(agent.steps),
    formatTokens(agent.tokens),
    formatCost(agent.cost),
    agent.line.slice(agent.line.lastIndexOf(". ") + 2)
  ]);
  return table("Subagents", ["Subagent", "Budget", "Started", "Ran", "Model calls", "Tokens", "Cost", "Ending"], rows);
}
function todayBudgetTable(today) {
  return today.budgets.map((budget) => {
    const rows = [];
    const { limits, use, left } = budget;
    if (limits.timeMs !== null)
      rows.push([
        "Agent time",
        formatTime(limits.timeMs),
        formatTime(use.agentMs),
        orNone(left.timeMs, formatLeftMs)
      ]);
    if (limits.turns !== null)
      rows.push(["Prompts", count(limits.turns), count(use.prompts), orNone(left.turns, count)]);
    if (limits.tokens !== null)
      rows.push(["Tokens", formatTokens(limits.tokens), formatTokens(use.tokens), orNone(left.tokens, formatTokens)]);
    if (limits.cost !== null)
      rows.push(["Cost", formatCost(limits.cost), formatCost(use.cost), orNone(left.cost, formatCost)]);
    const caption = `${budget.who}${budget.off ? ", off until midnight" : ""}`;
    return table(caption, ["", "Limit today", "Used", "Left"], rows);
  }).join("");
}
function todaySessionsTable(today) {
  const team = today.sessions.some((session) => session.member !== null);
  const rows = today.sessions.map((session) => [
    session.session,
    ...team ? [session.member ?? NONE] : [],
    session.host ?? NONE,
    formatTime(session.agentMs),
    count(session.prompts),
    formatTokens(session.tokens),
    formatCost(session.cost)
  ]);
  const head = ["Session", ...team ? ["Member"] : [], "Host", "Agent time", "Prompts", "Tokens", "Cost"];
  return table("Today's sessions", head, rows);
}
function todayMembersTable(members) {
  const rows = members.map((member) => [member.name, count(member.sessions)]);
  return table("Today's members", ["Member", "Sessions"], rows);
}
function daysTable(rows, limits) {
  const body = rows.map((row) => [
    row.day,
    formatTime(row.agentMs),
    count(row.prompts),
    formatTokens(row.tokens),
    formatCost(row.cost)
  ]);
  if (limits !== null) {
    body.push([
      "Daily limit",
      orNone(limits.timeMs, formatTime),
      orNone(limits.turns, count),
      orNone(limits.tokens, formatTokens),
      orNone(limits.cost, formatCost)
    ]);
  }
  return table("Use per day", ["Day", "Agent time", "Prompts", "Tokens", "Cost"], body);
}
function suggestionTable(figures, sessions) {
  const row = (name, figure, format) => measuredEnough(figure) ? [name, format(figure.median), format(figure.p90), `${figure.sessions} of ${sessions}`] : [name, NONE, NONE, `${figure.sessions} of ${sessions}: too few measured it`];
  const rows = [
    row("Time", figures.timeMs, formatTime),
    row("Turns", figures.turns, count),
    row("Model calls", figures.steps, count),
    row("Tokens", figures.tokens, formatTokens),
    row("Cost", figures.cost, formatCost)
  ];
  return table("A session's use here", ["", "Median", "90th percentile", "Sessions"], rows);
}

// src/adapters/report/team-section.ts
function teamPageData(team, view, standings, unread = null) {
  if ("unreadable" in view) return void 0;
  const text2 = teamReport(team, view, standings, unread);
  return { name: team.name, stored: view.stored, asks: [...view.asks], text: text2 };
}
function limitsTable(stored) {
  const { limits } = stored;
  const rows = [];
  if (limits.timeMs !== null) rows.push(["Agent time", formatTime(limits.timeMs)]);
  if (limits.turns !== null) rows.push(["Turns", String(limits.turns)]);
  if (limits.tokens !== null) rows.push(["Tokens", formatTokens(limits.tokens)]);
  if (limits.cost !== null) rows.push(["Cost", formatCost(limits.cost)]);
  rows.push(["Set by", stored.setBy], ["Set on", teamTime(stored.setAt)]);
  return table("The team's limits, a day", ["Limit", "Value"], rows);
}
function asksTable(asks) {
  const rows = asks.map((ask) => [teamTime(ask.at), ask.member, describeAdded(ask.adjustment), ask.why]);
  return table("Open requests", ["Asked", "Member", "For", "Why"], rows);
}
function teamSection(team) {
  if (team === void 0) return "";
  const limits = team.stored === null ? `<p class="empty">${escapeHtml("Its store keeps no limits: each machine's TIMEBOX_DAILY is the team's.")}</p>` : limitsTable(team.stored);
  const asks = team.asks.length === 0 ? `<p class="empty">${escapeHtml("No open requests.")}</p>` : asksTable(team.asks);
  const text2 = `<h3>What ${escapeHtml("/timebox team")} says</h3><pre class="report">${escapeHtml(team.text)}</pre>`;
  return `<section id="team"><h2>The team ${escapeHtml(team.name)}</h2>${limits}${asks}${text2}</section>`;
}

// src/adapters/report/write-page.ts
import { mkdirSync as mkdirSync2, writeFileSync as writeFileSync2 } from "node:fs";
import { dirname, join as join2 } from "node:path";

// plugins/report/page-assets.mjs
var PAGE_SCRIPT = '(()=>{var mr="uplot",gr="u-hz",dr="u-vt",wr="u-title",Sr="u-wrap",_r="u-under",yr="u-over",xr="u-axis",Xt="u-off",br="u-select",kr="u-cursor-x",Tr="u-cursor-y",vr="u-cursor-pt",Mr="u-legend",Ar="u-live",Pr="u-inline",Er="u-series",Dr="u-marker",so="u-label",Lr="u-value",Gl="width",Yl="height";var oo="bottom",kl="left",$n="right",cs="#000",io=cs+"0",qn="mousemove",ro="mousedown",Jn="mouseup",uo="mouseenter",fo="mouseleave",ao="dblclick",Cr="resize",Rr="scroll",co="change",pn="dppxchange",ps="--",Dl=typeof window<"u",ts=Dl?document:null,vl=Dl?window:null,Or=Dl?navigator:null,oe,un;function ls(){let e=devicePixelRatio;oe!=e&&(oe=e,un&&ss(co,un,ls),un=matchMedia(`(min-resolution: ${oe-.001}dppx) and (max-resolution: ${oe+.001}dppx)`),el(co,un,ls),vl.dispatchEvent(new CustomEvent(pn)))}function et(e,l){if(l!=null){let o=e.classList;!o.contains(l)&&o.add(l)}}function ns(e,l){let o=e.classList;o.contains(l)&&o.remove(l)}function de(e,l,o){e.style[l]=o+"px"}function dt(e,l,o,n){let i=ts.createElement(e);return l!=null&&et(i,l),o?.insertBefore(i,n),i}function ft(e,l){return dt("div",e,l)}var po=new WeakMap;function Mt(e,l,o,n,i){let a="translate("+l+"px,"+o+"px)",f=po.get(e);a!=f&&(e.style.transform=a,po.set(e,a),l<0||o<0||l>n||o>i?et(e,Xt):ns(e,Xt))}var ho=new WeakMap;function mo(e,l,o){let n=l+o,i=ho.get(e);n!=i&&(ho.set(e,n),e.style.background=l,e.style.borderColor=o)}var go=new WeakMap;function wo(e,l,o,n){let i=l+""+o,a=go.get(e);i!=a&&(go.set(e,i),e.style.height=o+"px",e.style.width=l+"px",e.style.marginLeft=n?-l/2+"px":0,e.style.marginTop=n?-o/2+"px":0)}var hs={passive:!0},zr={...hs,capture:!0};function el(e,l,o,n){l.addEventListener(e,o,n?zr:hs)}function ss(e,l,o,n){l.removeEventListener(e,o,hs)}Dl&&ls();function wt(e,l,o,n){let i;o=o||0,n=n||l.length-1;let a=n<=2147483647;for(;n-o>1;)i=a?o+n>>1:tt((o+n)/2),l[i]<e?o=i:n=i;return e-l[o]<=l[n]-e?o:n}function Uo(e){return(o,n,i)=>{let a=-1,f=-1;for(let h=n;h<=i;h++)if(e(o[h])){a=h;break}for(let h=i;h>=n;h--)if(e(o[h])){f=h;break}return[a,f]}}var Ko=e=>e!=null,jo=e=>e!=null&&e>0,gn=Uo(Ko),Vr=Uo(jo);function Fr(e,l,o,n=0,i=!1){let a=i?Vr:gn,f=i?jo:Ko;[l,o]=a(e,l,o);let h=e[l],p=e[l];if(l>-1)if(n==1)h=e[l],p=e[o];else if(n==-1)h=e[o],p=e[l];else for(let m=l;m<=o;m++){let y=e[m];f(y)&&(y<h?h=y:y>p&&(p=y))}return[h??ae,p??-ae]}function dn(e,l,o,n){let i=yo(e),a=yo(l);e==l&&(i==-1?(e*=o,l/=o):(e/=o,l*=o));let f=o==10?Dt:$o,h=i==1?tt:at,p=a==1?at:tt,m=h(f(Ee(e))),y=p(f(Ee(l))),d=Ml(o,m),w=Ml(o,y);return o==10&&(m<0&&(d=ce(d,-m)),y<0&&(w=ce(w,-y))),n||o==2?(e=d*i,l=w*a):(e=Qo(e,d),l=wn(l,w)),[e,l]}function ms(e,l,o,n){let i=dn(e,l,o,n);return e==0&&(i[0]=0),l==0&&(i[1]=0),i}var gs=.1,So={mode:3,pad:gs},Ul={pad:0,soft:null,mode:0},Nr={min:Ul,max:Ul};function hn(e,l,o,n){return Sn(o)?_o(e,l,o):(Ul.pad=o,Ul.soft=n?0:null,Ul.mode=n?3:0,_o(e,l,Nr))}function ne(e,l){return e??l}function Hr(e,l,o){for(l=ne(l,0),o=ne(o,e.length-1);l<=o;){if(e[l]!=null)return!0;l++}return!1}function _o(e,l,o){let n=o.min,i=o.max,a=ne(n.pad,0),f=ne(i.pad,0),h=ne(n.hard,-ae),p=ne(i.hard,ae),m=ne(n.soft,ae),y=ne(i.soft,-ae),d=ne(n.mode,0),w=ne(i.mode,0),D=l-e,P=Dt(D),O=Be(Ee(e),Ee(l)),N=Dt(O),A=Ee(N-P);(D<1e-24||A>10)&&(D=0,(e==0||l==0)&&(D=1e-24,d==2&&m!=ae&&(a=0),w==2&&y!=-ae&&(f=0)));let S=D||O||1e3,v=Dt(S),k=Ml(10,tt(v)),G=S*(D==0?e==0?.1:1:a),C=ce(Qo(e-G,k/10),24),q=e>=m&&(d==1||d==3&&C<=m||d==2&&C>=m)?m:ae,K=Be(h,C<q&&e>=q?q:St(q,C)),Q=S*(D==0?l==0?.1:1:f),U=ce(wn(l+Q,k/10),24),T=l<=y&&(w==1||w==3&&U>=y||w==2&&U<=y)?y:-ae,$=St(p,U>T&&l<=T?T:Be(T,U));return K==$&&K==0&&($=100),[K,$]}var Ir=new Intl.NumberFormat(Dl?Or.language:"en-US"),ds=e=>Ir.format(e),lt=Math,cn=lt.PI,Ee=lt.abs,tt=lt.floor,Pe=lt.round,at=lt.ceil,St=lt.min,Be=lt.max,Ml=lt.pow,yo=lt.sign,Dt=lt.log10,$o=lt.log2,Wr=(e,l=1)=>lt.sinh(e)*l,Zn=(e,l=1)=>lt.asinh(e/l),ae=1/0;function xo(e){return(Dt((e^e>>31)-(e>>31))|0)+1}function os(e,l,o){return St(Be(e,l),o)}function qo(e){return typeof e=="function"}function X(e){return qo(e)?e:()=>e}var Gr=()=>{},Jo=e=>e,Zo=(e,l)=>l,Yr=e=>null,bo=e=>!0,ko=(e,l)=>e==l,Br=/\\.\\d*?(?=9{6,}|0{6,})/gm,tl=e=>{if(ei(e)||Ht.has(e))return e;let l=`${e}`,o=l.match(Br);if(o==null)return e;let n=o[0].length-1;if(l.indexOf("e-")!=-1){let[i,a]=l.split("e");return+`${tl(i)}e${a}`}return ce(e,n)};function Zt(e,l){return tl(ce(tl(e/l))*l)}function wn(e,l){return tl(at(tl(e/l))*l)}function Qo(e,l){return tl(tt(tl(e/l))*l)}function ce(e,l=0){if(ei(e))return e;let o=10**l,n=e*o*(1+Number.EPSILON);return Pe(n)/o}var Ht=new Map;function Xo(e){return((""+e).split(".")[1]||"").length}function jl(e,l,o,n){let i=[],a=n.map(Xo);for(let f=l;f<o;f++){let h=Ee(f),p=ce(Ml(e,f),h);for(let m=0;m<n.length;m++){let y=e==10?+`${n[m]}e${f}`:n[m]*p,d=(f>=0?0:h)+(f>=a[m]?0:a[m]),w=e==10?y:ce(y,d);i.push(w),Ht.set(w,d)}}return i}var Kl={},ws=[],Al=[null,null],Nt=Array.isArray,ei=Number.isInteger,Ur=e=>e===void 0;function To(e){return typeof e=="string"}function Sn(e){let l=!1;if(e!=null){let o=e.constructor;l=o==null||o==Object}return l}function Kr(e){return e!=null&&typeof e=="object"}var jr=Object.getPrototypeOf(Uint8Array),ti="__proto__";function Pl(e,l=Sn){let o;if(Nt(e)){let n=e.find(i=>i!=null);if(Nt(n)||l(n)){o=Array(e.length);for(let i=0;i<e.length;i++)o[i]=Pl(e[i],l)}else o=e.slice()}else if(e instanceof jr)o=e.slice();else if(l(e)){o={};for(let n in e)n!=ti&&(o[n]=Pl(e[n],l))}else o=e;return o}function ve(e){let l=arguments;for(let o=1;o<l.length;o++){let n=l[o];for(let i in n)i!=ti&&(Sn(e[i])?ve(e[i],Pl(n[i])):e[i]=Pl(n[i]))}return e}var $r=0,qr=1,Jr=2;function Zr(e,l,o){for(let n=0,i,a=-1;n<l.length;n++){let f=l[n];if(f>a){for(i=f-1;i>=0&&e[i]==null;)e[i--]=null;for(i=f+1;i<o&&e[i]==null;)e[a=i++]=null}}}function Qr(e,l){if(tu(e)){let f=e[0].slice();for(let h=1;h<e.length;h++)f.push(...e[h].slice(1));return lu(f[0])||(f=eu(f)),f}let o=new Set;for(let f=0;f<e.length;f++){let p=e[f][0],m=p.length;for(let y=0;y<m;y++)o.add(p[y])}let n=[Array.from(o).sort((f,h)=>f-h)],i=n[0].length,a=new Map;for(let f=0;f<i;f++)a.set(n[0][f],f);for(let f=0;f<e.length;f++){let h=e[f],p=h[0];for(let m=1;m<h.length;m++){let y=h[m],d=Array(i).fill(void 0),w=l?l[f][m]:qr,D=[];for(let P=0;P<y.length;P++){let O=y[P],N=a.get(p[P]);O===null?w!=$r&&(d[N]=O,w==Jr&&D.push(N)):d[N]=O}Zr(d,D,i),n.push(d)}}return n}var Xr=typeof queueMicrotask>"u"?e=>Promise.resolve().then(e):queueMicrotask;function eu(e){let l=e[0],o=l.length,n=Array(o);for(let a=0;a<n.length;a++)n[a]=a;n.sort((a,f)=>l[a]-l[f]);let i=[];for(let a=0;a<e.length;a++){let f=e[a],h=Array(o);for(let p=0;p<o;p++)h[p]=f[n[p]];i.push(h)}return i}function tu(e){let l=e[0][0],o=l.length;for(let n=1;n<e.length;n++){let i=e[n][0];if(i.length!=o)return!1;if(i!=l){for(let a=0;a<o;a++)if(i[a]!=l[a])return!1}}return!0}function lu(e,l=100){let o=e.length;if(o<=1)return!0;let n=0,i=o-1;for(;n<=i&&e[n]==null;)n++;for(;i>=n&&e[i]==null;)i--;if(i<=n)return!0;let a=Be(1,tt((i-n+1)/l));for(let f=e[n],h=n+a;h<=i;h+=a){let p=e[h];if(p!=null){if(p<=f)return!1;f=p}}return!0}var li=["January","February","March","April","May","June","July","August","September","October","November","December"],ni=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function si(e){return e.slice(0,3)}var nu=ni.map(si),su=li.map(si),ou={MMMM:li,MMM:su,WWWW:ni,WWW:nu};function Wl(e){return(e<10?"0":"")+e}function iu(e){return(e<10?"00":e<100?"0":"")+e}var ru={YYYY:e=>e.getFullYear(),YY:e=>(e.getFullYear()+"").slice(2),MMMM:(e,l)=>l.MMMM[e.getMonth()],MMM:(e,l)=>l.MMM[e.getMonth()],MM:e=>Wl(e.getMonth()+1),M:e=>e.getMonth()+1,DD:e=>Wl(e.getDate()),D:e=>e.getDate(),WWWW:(e,l)=>l.WWWW[e.getDay()],WWW:(e,l)=>l.WWW[e.getDay()],HH:e=>Wl(e.getHours()),H:e=>e.getHours(),h:e=>{let l=e.getHours();return l==0?12:l>12?l-12:l},AA:e=>e.getHours()>=12?"PM":"AM",aa:e=>e.getHours()>=12?"pm":"am",a:e=>e.getHours()>=12?"p":"a",mm:e=>Wl(e.getMinutes()),m:e=>e.getMinutes(),ss:e=>Wl(e.getSeconds()),s:e=>e.getSeconds(),fff:e=>iu(e.getMilliseconds())};function Ss(e,l){l=l||ou;let o=[],n=/\\{([a-z]+)\\}|[^{]+/gi,i;for(;i=n.exec(e);)o.push(i[0][0]=="{"?ru[i[1]]:i[0]);return a=>{let f="";for(let h=0;h<o.length;h++)f+=typeof o[h]=="string"?o[h]:o[h](a,l);return f}}var uu=new Intl.DateTimeFormat().resolvedOptions().timeZone;function fu(e,l){let o;return l=="UTC"||l=="Etc/UTC"?o=new Date(+e+e.getTimezoneOffset()*6e4):l==uu?o=e:(o=new Date(e.toLocaleString("en-US",{timeZone:l})),o.setMilliseconds(e.getMilliseconds())),o}var oi=e=>e%1==0,mn=[1,2,2.5,5],au=jl(10,-32,0,mn),ii=jl(10,0,32,mn),cu=ii.filter(oi),Qt=au.concat(ii),_s=`\n`,ri="{YYYY}",vo=_s+ri,ui="{M}/{D}",Bl=_s+ui,fn=Bl+"/{YY}",fi="{aa}",pu="{h}:{mm}",Tl=pu+fi,Mo=_s+Tl,Ao=":{ss}",re=null;function ai(e){let l=e*1e3,o=l*60,n=o*60,i=n*24,a=i*30,f=i*365,p=(e==1?jl(10,0,3,mn).filter(oi):jl(10,-3,0,mn)).concat([l,l*5,l*10,l*15,l*30,o,o*5,o*10,o*15,o*30,n,n*2,n*3,n*4,n*6,n*8,n*12,i,i*2,i*3,i*4,i*5,i*6,i*7,i*8,i*9,i*10,i*15,a,a*2,a*3,a*4,a*6,f,f*2,f*5,f*10,f*25,f*50,f*100]),m=[[f,ri,re,re,re,re,re,re,1],[i*28,"{MMM}",vo,re,re,re,re,re,1],[i,ui,vo,re,re,re,re,re,1],[n,"{h}"+fi,fn,re,Bl,re,re,re,1],[o,Tl,fn,re,Bl,re,re,re,1],[l,Ao,fn+" "+Tl,re,Bl+" "+Tl,re,Mo,re,1],[e,Ao+".{fff}",fn+" "+Tl,re,Bl+" "+Tl,re,Mo,re,1]];function y(d){return(w,D,P,O,N,A)=>{let S=[],v=N>=f,k=N>=a&&N<f,G=d(P),C=ce(G*e,3),q=Qn(G.getFullYear(),v?0:G.getMonth(),k||v?1:G.getDate()),K=ce(q*e,3);if(k||v){let Q=k?N/a:0,U=v?N/f:0,T=C==K?C:ce(Qn(q.getFullYear()+U,q.getMonth()+Q,1)*e,3),$=new Date(Pe(T/e)),z=$.getFullYear(),Y=$.getMonth();for(let I=0;T<=O;I++){let ee=Qn(z+U*I,Y+Q*I,1),H=ee-d(ce(ee*e,3));T=ce((+ee+H)*e,3),T<=O&&S.push(T)}}else{let Q=N>=i?i:N,U=tt(P)-tt(C),T=K+U+wn(C-K,Q);S.push(T);let $=d(T),z=$.getHours()+$.getMinutes()/o+$.getSeconds()/n,Y=N/n,I=w.axes[D]._space,ee=A/I;for(;T=ce(T+N,e==1?0:3),!(T>O);)if(Y>1){let H=tt(ce(z+Y,6))%24,te=d(T).getHours()-H;te>1&&(te=-1),T-=te*n,z=(z+Y)%24;let ue=S[S.length-1];ce((T-ue)/N,3)*ee>=.7&&S.push(T)}else S.push(T)}return S}}return[p,m,y]}var[hu,mu,gu]=ai(1),[du,wu,Su]=ai(.001);jl(2,-53,53,[1]);function Po(e,l){return e.map(o=>o.map((n,i)=>i==0||i==8||n==null?n:l(i==1||o[8]==0?n:o[1]+n)))}function Eo(e,l){return(o,n,i,a,f)=>{let h=l.find(P=>f>=P[0])||l[l.length-1],p,m,y,d,w,D;return n.map(P=>{let O=e(P),N=O.getFullYear(),A=O.getMonth(),S=O.getDate(),v=O.getHours(),k=O.getMinutes(),G=O.getSeconds(),C=N!=p&&h[2]||A!=m&&h[3]||S!=y&&h[4]||v!=d&&h[5]||k!=w&&h[6]||G!=D&&h[7]||h[1];return p=N,m=A,y=S,d=v,w=k,D=G,C(O)})}}function _u(e,l){let o=Ss(l);return(n,i,a,f,h)=>i.map(p=>o(e(p)))}function Qn(e,l,o){return new Date(e,l,o)}function Do(e,l){return l(e)}var yu="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Lo(e,l){return(o,n,i,a)=>a==null?ps:l(e(n))}function xu(e,l){let o=e.series[l];return o.width?o.stroke(e,l):o.points.width?o.points.stroke(e,l):null}function bu(e,l){return e.series[l].fill(e,l)}var ku={show:!0,live:!0,isolate:!1,mount:Gr,markers:{show:!0,width:2,stroke:xu,fill:bu,dash:"solid"},idx:null,idxs:null,values:[]};function Tu(e,l){let o=e.cursor.points,n=ft(),i=o.size(e,l);de(n,Gl,i),de(n,Yl,i);let a=i/-2;de(n,"marginLeft",a),de(n,"marginTop",a);let f=o.width(e,l,i);return f&&de(n,"borderWidth",f),n}function vu(e,l){let o=e.series[l].points;return o._fill||o._stroke}function Mu(e,l){let o=e.series[l].points;return o._stroke||o._fill}function Au(e,l){return e.series[l].points.size}var Xn=[0,0];function Pu(e,l,o){return Xn[0]=l,Xn[1]=o,Xn}function an(e,l,o,n=!0){return i=>{i.button==0&&(!n||i.target==l)&&o(i)}}function es(e,l,o,n=!0){return i=>{(!n||i.target==l)&&o(i)}}var Eu={show:!0,x:!0,y:!0,lock:!1,move:Pu,points:{one:!1,show:Tu,size:Au,width:0,stroke:Mu,fill:vu},bind:{mousedown:an,mouseup:an,click:an,dblclick:an,mousemove:es,mouseleave:es,mouseenter:es},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(e,l)=>{l.stopPropagation(),l.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(e,l,o,n,i)=>n-i,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},ci={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},ys=ve({},ci,{filter:Zo}),pi=ve({},ys,{size:10}),hi=ve({},ci,{show:!1}),xs=\'12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"\',mi="bold "+xs,gi=1.5,Co={show:!0,scale:"x",stroke:cs,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:mi,side:2,grid:ys,ticks:pi,border:hi,font:xs,lineGap:gi,rotate:0},Du="Value",Lu="Time",Ro={show:!0,scale:"x",auto:!1,sorted:1,min:ae,max:-ae,idxs:[]};function Cu(e,l,o,n,i){return l.map(a=>a==null?"":ds(a))}function Ru(e,l,o,n,i,a,f){let h=[],p=Ht.get(i)||0;o=f?o:ce(wn(o,i),p);for(let m=o;m<=n;m=ce(m+i,p))h.push(Object.is(m,-0)?0:m);return h}function is(e,l,o,n,i,a,f){let h=[],p=e.scales[e.axes[l].scale].log,m=p==10?Dt:$o,y=tt(m(o));i=Ml(p,y),p==10&&(i=Qt[wt(i,Qt)]);let d=o,w=i*p;p==10&&(w=Qt[wt(w,Qt)]);do h.push(d),d=d+i,p==10&&!Ht.has(d)&&(d=ce(d,Ht.get(i))),d>=w&&(i=d,w=i*p,p==10&&(w=Qt[wt(w,Qt)]));while(d<=n);return h}function Ou(e,l,o,n,i,a,f){let p=e.scales[e.axes[l].scale].asinh,m=n>p?is(e,l,Be(p,o),n,i):[p],y=n>=0&&o<=0?[0]:[];return(o<-p?is(e,l,Be(p,-n),-o,i):[p]).reverse().map(w=>-w).concat(y,m)}var di=/./,zu=/[12357]/,Vu=/[125]/,Oo=/1/,rs=(e,l,o,n)=>e.map((i,a)=>l==4&&i==0||a%n==0&&o.test(i.toExponential()[i<0?1:0])?i:null);function Fu(e,l,o,n,i){let a=e.axes[o],f=a.scale,h=e.scales[f],p=e.valToPos,m=a._space,y=p(10,f),d=p(9,f)-y>=m?di:p(7,f)-y>=m?zu:p(5,f)-y>=m?Vu:Oo;if(d==Oo){let w=Ee(p(1,f)-y);if(w<m)return rs(l.slice().reverse(),h.distr,d,at(m/w)).reverse()}return rs(l,h.distr,d,1)}function Nu(e,l,o,n,i){let a=e.axes[o],f=a.scale,h=a._space,p=e.valToPos,m=Ee(p(1,f)-p(2,f));return m<h?rs(l.slice().reverse(),3,di,at(h/m)).reverse():l}function Hu(e,l,o,n){return n==null?ps:l==null?"":ds(l)}var zo={show:!0,scale:"y",stroke:cs,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:mi,side:3,grid:ys,ticks:pi,border:hi,font:xs,lineGap:gi,rotate:0};function Iu(e,l){let o=3+(e||1)*2;return ce(o*l,3)}function Wu(e,l){let{scale:o,idxs:n}=e.series[0],i=e._data[0],a=e.valToPos(i[n[0]],o,!0),f=e.valToPos(i[n[1]],o,!0),h=Ee(f-a),p=e.series[l],m=h/(p.points.space*oe);return n[1]-n[0]<=m}var Vo={scale:null,auto:!0,sorted:0,min:ae,max:-ae},wi=(e,l,o,n,i)=>i,Fo={show:!0,auto:!0,sorted:0,gaps:wi,alpha:1,facets:[ve({},Vo,{scale:"x"}),ve({},Vo,{scale:"y"})]},No={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:wi,alpha:1,points:{show:Wu,filter:null},values:null,min:ae,max:-ae,idxs:[],path:null,clip:null};function Gu(e,l,o,n,i){return o/10}var Si={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},Yu=ve({},Si,{time:!1,ori:1}),Ho={};function _i(e,l){let o=Ho[e];return o||(o={key:e,plots:[],sub(n){o.plots.push(n)},unsub(n){o.plots=o.plots.filter(i=>i!=n)},pub(n,i,a,f,h,p,m){for(let y=0;y<o.plots.length;y++)o.plots[y]!=i&&o.plots[y].pub(n,i,a,f,h,p,m)}},e!=null&&(Ho[e]=o)),o}var El=1,us=2;function ll(e,l,o){let n=e.mode,i=e.series[l],a=n==2?e._data[l]:e._data,f=e.scales,h=e.bbox,p=a[0],m=n==2?a[1]:a[l],y=n==2?f[i.facets[0].scale]:f[e.series[0].scale],d=n==2?f[i.facets[1].scale]:f[i.scale],w=h.left,D=h.top,P=h.width,O=h.height,N=e.valToPosH,A=e.valToPosV;return y.ori==0?o(i,p,m,y,d,N,A,w,D,P,O,yn,Ll,bn,xi,ki):o(i,p,m,y,d,A,N,D,w,O,P,xn,Cl,Ts,bi,Ti)}function bs(e,l){let o=0,n=0,i=ne(e.bands,ws);for(let a=0;a<i.length;a++){let f=i[a];f.series[0]==l?o=f.dir:f.series[1]==l&&(f.dir==1?n|=1:n|=2)}return[o,n==1?-1:n==2?1:n==3?2:0]}function Bu(e,l,o,n,i){let a=e.mode,f=e.series[l],h=a==2?f.facets[1].scale:f.scale,p=e.scales[h];return i==-1?p.min:i==1?p.max:p.distr==3?p.dir==1?p.min:p.max:0}function Lt(e,l,o,n,i,a){return ll(e,l,(f,h,p,m,y,d,w,D,P,O,N)=>{let A=f.pxRound,S=m.dir*(m.ori==0?1:-1),v=m.ori==0?Ll:Cl,k,G;S==1?(k=o,G=n):(k=n,G=o);let C=A(d(h[k],m,O,D)),q=A(w(p[k],y,N,P)),K=A(d(h[G],m,O,D)),Q=A(w(a==1?y.max:y.min,y,N,P)),U=new Path2D(i);return v(U,K,Q),v(U,C,Q),v(U,C,q),U})}function _n(e,l,o,n,i,a){let f=null;if(e.length>0){f=new Path2D;let h=l==0?bn:Ts,p=o;for(let d=0;d<e.length;d++){let w=e[d];if(w[1]>w[0]){let D=w[0]-p;D>0&&h(f,p,n,D,n+a),p=w[1]}}let m=o+i-p,y=10;m>0&&h(f,p,n-y/2,m,n+a+y)}return f}function Uu(e,l,o){let n=e[e.length-1];n&&n[0]==l?n[1]=o:e.push([l,o])}function ks(e,l,o,n,i,a,f){let h=[],p=e.length;for(let m=i==1?o:n;m>=o&&m<=n;m+=i)if(l[m]===null){let d=m,w=m;if(i==1)for(;++m<=n&&l[m]===null;)w=m;else for(;--m>=o&&l[m]===null;)w=m;let D=a(e[d]),P=w==d?D:a(e[w]),O=d-i;D=f<=0&&O>=0&&O<p?a(e[O]):D;let A=w+i;P=f>=0&&A>=0&&A<p?a(e[A]):P,P>=D&&h.push([D,P])}return h}function Io(e){return e==0?Jo:e==1?Pe:l=>Zt(l,e)}function yi(e){let l=e==0?yn:xn,o=e==0?(i,a,f,h,p,m)=>{i.arcTo(a,f,h,p,m)}:(i,a,f,h,p,m)=>{i.arcTo(f,a,p,h,m)},n=e==0?(i,a,f,h,p)=>{i.rect(a,f,h,p)}:(i,a,f,h,p)=>{i.rect(f,a,p,h)};return(i,a,f,h,p,m=0,y=0)=>{m==0&&y==0?n(i,a,f,h,p):(m=St(m,h/2,p/2),y=St(y,h/2,p/2),l(i,a+m,f),o(i,a+h,f,a+h,f+p,m),o(i,a+h,f+p,a,f+p,y),o(i,a,f+p,a,f,y),o(i,a,f,a+h,f,m),i.closePath())}}var yn=(e,l,o)=>{e.moveTo(l,o)},xn=(e,l,o)=>{e.moveTo(o,l)},Ll=(e,l,o)=>{e.lineTo(l,o)},Cl=(e,l,o)=>{e.lineTo(o,l)},bn=yi(0),Ts=yi(1),xi=(e,l,o,n,i,a)=>{e.arc(l,o,n,i,a)},bi=(e,l,o,n,i,a)=>{e.arc(o,l,n,i,a)},ki=(e,l,o,n,i,a,f)=>{e.bezierCurveTo(l,o,n,i,a,f)},Ti=(e,l,o,n,i,a,f)=>{e.bezierCurveTo(o,l,i,n,f,a)};function vi(e){return(l,o,n,i,a)=>ll(l,o,(f,h,p,m,y,d,w,D,P,O,N)=>{let{pxRound:A,points:S}=f,v,k;m.ori==0?(v=yn,k=xi):(v=xn,k=bi);let G=ce(S.width*oe,3),C=(S.size-S.width)/2*oe,q=ce(C*2,3),K=new Path2D,Q=new Path2D,{left:U,top:T,width:$,height:z}=l.bbox;bn(Q,U-q,T-q,$+q*2,z+q*2);let Y=I=>{if(p[I]!=null){let ee=A(d(h[I],m,O,D)),H=A(w(p[I],y,N,P));v(K,ee+C,H),k(K,ee,H,C,0,cn*2)}};if(a)a.forEach(Y);else for(let I=n;I<=i;I++)Y(I);return{stroke:G>0?K:null,fill:K,clip:Q,flags:El|us}})}function Mi(e){return(l,o,n,i,a,f)=>{n!=i&&(a!=n&&f!=n&&e(l,o,n),a!=i&&f!=i&&e(l,o,i),e(l,o,f))}}var Ku=Mi(Ll),ju=Mi(Cl);function Ai(e){let l=ne(e?.alignGaps,0);return(o,n,i,a)=>ll(o,n,(f,h,p,m,y,d,w,D,P,O,N)=>{[i,a]=gn(p,i,a);let A=f.pxRound,S=z=>A(d(z,m,O,D)),v=z=>A(w(z,y,N,P)),k,G;m.ori==0?(k=Ll,G=Ku):(k=Cl,G=ju);let C=m.dir*(m.ori==0?1:-1),q={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:El},K=q.stroke,Q=!1;if(a-i>=O*4){let z=V=>o.posToVal(V,m.key,!0),Y=null,I=null,ee,H,Ke,we=S(h[C==1?i:a]),te=S(h[i]),ue=S(h[a]),J=z(C==1?te+1:ue-1);for(let V=C==1?i:a;V>=i&&V<=a;V+=C){let Me=h[V],Se=(C==1?Me<J:Me>J)?we:S(Me),ie=p[V];Se==we?ie!=null?(H=ie,Y==null?(k(K,Se,v(H)),ee=Y=I=H):H<Y?Y=H:H>I&&(I=H)):ie===null&&(Q=!0):(Y!=null&&G(K,we,v(Y),v(I),v(ee),v(H)),ie!=null?(H=ie,k(K,Se,v(H)),Y=I=ee=H):(Y=I=null,ie===null&&(Q=!0)),we=Se,J=z(we+C))}Y!=null&&Y!=I&&Ke!=we&&G(K,we,v(Y),v(I),v(ee),v(H))}else for(let z=C==1?i:a;z>=i&&z<=a;z+=C){let Y=p[z];Y===null?Q=!0:Y!=null&&k(K,S(h[z]),v(Y))}let[T,$]=bs(o,n);if(f.fill!=null||T!=0){let z=q.fill=new Path2D(K),Y=f.fillTo(o,n,f.min,f.max,T),I=v(Y),ee=S(h[i]),H=S(h[a]);C==-1&&([H,ee]=[ee,H]),k(z,H,I),k(z,ee,I)}if(!f.spanGaps){let z=[];Q&&z.push(...ks(h,p,i,a,C,S,l)),q.gaps=z=f.gaps(o,n,i,a,z),q.clip=_n(z,m.ori,D,P,O,N)}return $!=0&&(q.band=$==2?[Lt(o,n,i,a,K,-1),Lt(o,n,i,a,K,1)]:Lt(o,n,i,a,K,$)),q})}function $u(e){let l=ne(e.align,1),o=ne(e.ascDesc,!1),n=ne(e.alignGaps,0),i=ne(e.extend,!1);return(a,f,h,p)=>ll(a,f,(m,y,d,w,D,P,O,N,A,S,v)=>{[h,p]=gn(d,h,p);let k=m.pxRound,{left:G,width:C}=a.bbox,q=te=>k(P(te,w,S,N)),K=te=>k(O(te,D,v,A)),Q=w.ori==0?Ll:Cl,U={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:El},T=U.stroke,$=w.dir*(w.ori==0?1:-1),z=K(d[$==1?h:p]),Y=q(y[$==1?h:p]),I=Y,ee=Y;i&&l==-1&&(ee=G,Q(T,ee,z)),Q(T,Y,z);for(let te=$==1?h:p;te>=h&&te<=p;te+=$){let ue=d[te];if(ue==null)continue;let J=q(y[te]),V=K(ue);l==1?Q(T,J,z):Q(T,I,V),Q(T,J,V),z=V,I=J}let H=I;i&&l==1&&(H=G+C,Q(T,H,z));let[Ke,we]=bs(a,f);if(m.fill!=null||Ke!=0){let te=U.fill=new Path2D(T),ue=m.fillTo(a,f,m.min,m.max,Ke),J=K(ue);Q(te,H,J),Q(te,ee,J)}if(!m.spanGaps){let te=[];te.push(...ks(y,d,h,p,$,q,n));let ue=m.width*oe/2,J=o||l==1?ue:-ue,V=o||l==-1?-ue:ue;te.forEach(Me=>{Me[0]+=J,Me[1]+=V}),U.gaps=te=m.gaps(a,f,h,p,te),U.clip=_n(te,w.ori,N,A,S,v)}return we!=0&&(U.band=we==2?[Lt(a,f,h,p,T,-1),Lt(a,f,h,p,T,1)]:Lt(a,f,h,p,T,we)),U})}function Wo(e,l,o,n,i,a,f=ae){if(e.length>1){let h=null;for(let p=0,m=1/0;p<e.length;p++)if(l[p]!==void 0){if(h!=null){let y=Ee(e[p]-e[h]);y<m&&(m=y,f=Ee(o(e[p],n,i,a)-o(e[h],n,i,a)))}h=p}}return f}function qu(e){e=e||Kl;let l=ne(e.size,[.6,ae,1]),o=e.align||0,n=e.gap||0,i=e.radius;i=i==null?[0,0]:typeof i=="number"?[i,0]:i;let a=X(i),f=1-l[0],h=ne(l[1],ae),p=ne(l[2],1),m=ne(e.disp,Kl),y=ne(e.each,D=>{}),{fill:d,stroke:w}=m;return(D,P,O,N)=>ll(D,P,(A,S,v,k,G,C,q,K,Q,U,T)=>{let $=A.pxRound,z=o,Y=n*oe,I=h*oe,ee=p*oe,H,Ke;k.ori==0?[H,Ke]=a(D,P):[Ke,H]=a(D,P);let we=k.dir*(k.ori==0?1:-1),te=k.ori==0?bn:Ts,ue=k.ori==0?y:(L,pe,Ae,rl,Yt,yt,Bt)=>{y(L,pe,Ae,Yt,rl,Bt,yt)},J=ne(D.bands,ws).find(L=>L.series[0]==P),V=J!=null?J.dir:0,Me=A.fillTo(D,P,A.min,A.max,V),He=$(q(Me,G,T,Q)),Se,ie,ct,qe=U,ye=$(A.width*oe),_t=!1,At=null,nt=null,Ct=null,sl=null;d!=null&&(ye==0||w!=null)&&(_t=!0,At=d.values(D,P,O,N),nt=new Map,new Set(At).forEach(L=>{L!=null&&nt.set(L,new Path2D)}),ye>0&&(Ct=w.values(D,P,O,N),sl=new Map,new Set(Ct).forEach(L=>{L!=null&&sl.set(L,new Path2D)})));let{x0:ol,size:Rl}=m;if(ol!=null&&Rl!=null){z=1,S=ol.values(D,P,O,N),ol.unit==2&&(S=S.map(Ae=>D.posToVal(K+Ae*U,k.key,!0)));let L=Rl.values(D,P,O,N);Rl.unit==2?ie=L[0]*U:ie=C(L[0],k,U,K)-C(0,k,U,K),qe=Wo(S,v,C,k,U,K,qe),ct=qe-ie+Y}else qe=Wo(S,v,C,k,U,K,qe),ct=qe*f+Y,ie=qe-ct;ct<1&&(ct=0),ye>=ie/2&&(ye=0),ct<5&&($=Jo);let Zl=ct>0,Wt=qe-ct-(Zl?ye:0);ie=$(os(Wt,ee,I)),Se=(z==0?ie/2:z==we?0:ie)-z*we*((z==0?Y/2:0)+(Zl?ye/2:0));let Ie={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},il=_t?null:new Path2D,Pt=null;if(J!=null)Pt=D.data[J.series[1]];else{let{y0:L,y1:pe}=m;L!=null&&pe!=null&&(v=pe.values(D,P,O,N),Pt=L.values(D,P,O,N))}let Gt=H*ie,j=Ke*ie;for(let L=we==1?O:N;L>=O&&L<=N;L+=we){let pe=v[L];if(pe==null)continue;if(Pt!=null){let je=Pt[L]??0;if(pe-je==0)continue;He=q(je,G,T,Q)}let Ae=k.distr!=2||m!=null?S[L]:L,rl=C(Ae,k,U,K),Yt=q(ne(pe,Me),G,T,Q),yt=$(rl-Se),Bt=$(Be(Yt,He)),Je=$(St(Yt,He)),st=Bt-Je;if(pe!=null){let je=pe<0?j:Gt,pt=pe<0?Gt:j;_t?(ye>0&&Ct[L]!=null&&te(sl.get(Ct[L]),yt,Je+tt(ye/2),ie,Be(0,st-ye),je,pt),At[L]!=null&&te(nt.get(At[L]),yt,Je+tt(ye/2),ie,Be(0,st-ye),je,pt)):te(il,yt,Je+tt(ye/2),ie,Be(0,st-ye),je,pt),ue(D,P,L,yt-ye/2,Je,ie+ye,st)}}return ye>0?Ie.stroke=_t?sl:il:_t||(Ie._fill=A.width==0?A._fill:A._stroke??A._fill,Ie.width=0),Ie.fill=_t?nt:il,Ie})}function Ju(e,l){let o=ne(l?.alignGaps,0);return(n,i,a,f)=>ll(n,i,(h,p,m,y,d,w,D,P,O,N,A)=>{[a,f]=gn(m,a,f);let S=h.pxRound,v=H=>S(w(H,y,N,P)),k=H=>S(D(H,d,A,O)),G,C,q;y.ori==0?(G=yn,q=Ll,C=ki):(G=xn,q=Cl,C=Ti);let K=y.dir*(y.ori==0?1:-1),Q=v(p[K==1?a:f]),U=Q,T=[],$=[];for(let H=K==1?a:f;H>=a&&H<=f;H+=K)if(m[H]!=null){let we=p[H],te=v(we);T.push(U=te),$.push(k(m[H]))}let z={stroke:e(T,$,G,q,C,S),fill:null,clip:null,band:null,gaps:null,flags:El},Y=z.stroke,[I,ee]=bs(n,i);if(h.fill!=null||I!=0){let H=z.fill=new Path2D(Y),Ke=h.fillTo(n,i,h.min,h.max,I),we=k(Ke);q(H,U,we),q(H,Q,we)}if(!h.spanGaps){let H=[];H.push(...ks(p,m,a,f,K,v,o)),z.gaps=H=h.gaps(n,i,a,f,H),z.clip=_n(H,y.ori,P,O,N,A)}return ee!=0&&(z.band=ee==2?[Lt(n,i,a,f,Y,-1),Lt(n,i,a,f,Y,1)]:Lt(n,i,a,f,Y,ee)),z})}function Zu(e){return Ju(Qu,e)}function Qu(e,l,o,n,i,a){let f=e.length;if(f<2)return null;let h=new Path2D;if(o(h,e[0],l[0]),f==2)n(h,e[1],l[1]);else{let p=Array(f),m=Array(f-1),y=Array(f-1),d=Array(f-1);for(let w=0;w<f-1;w++)y[w]=l[w+1]-l[w],d[w]=e[w+1]-e[w],m[w]=y[w]/d[w];p[0]=m[0];for(let w=1;w<f-1;w++)m[w]===0||m[w-1]===0||m[w-1]>0!=m[w]>0?p[w]=0:(p[w]=3*(d[w-1]+d[w])/((2*d[w]+d[w-1])/m[w-1]+(d[w]+2*d[w-1])/m[w]),isFinite(p[w])||(p[w]=0));p[f-1]=m[f-2];for(let w=0;w<f-1;w++)i(h,e[w]+d[w]/3,l[w]+p[w]*d[w]/3,e[w+1]-d[w]/3,l[w+1]-p[w+1]*d[w]/3,e[w+1],l[w+1])}return h}var fs=new Set;function Go(){for(let e of fs)e.syncRect(!0)}Dl&&(el(Cr,vl,Go),el(Rr,vl,Go,!0),el(pn,vl,()=>{ke.pxRatio=oe}));var Xu=Ai(),ef=vi();function Yo(e,l,o,n){return(n?[e[0],e[1]].concat(e.slice(2)):[e[0]].concat(e.slice(1))).map((a,f)=>as(a,f,l,o))}function tf(e,l){return e.map((o,n)=>n==0?{}:ve({},l,o))}function as(e,l,o,n){return ve({},l==0?o:n,e)}function Pi(e,l,o){return l==null?Al:[l,o]}var lf=Pi;function nf(e,l,o){return l==null?Al:hn(l,o,gs,!0)}function Ei(e,l,o,n){return l==null?Al:dn(l,o,e.scales[n].log,!1)}var sf=Ei;function Di(e,l,o,n){return l==null?Al:ms(l,o,e.scales[n].log,!1)}var of=Di;function rf(e,l,o,n,i){let a=Be(xo(e),xo(l)),f=l-e,h=wt(i/n*f,o);do{let p=o[h],m=n*p/f;if(m>=i&&a+(p<5?Ht.get(p):0)<=17)return[p,m]}while(++h<o.length);return[0,0]}function Bo(e){let l,o;return e=e.replace(/(\\d+)px/,(n,i)=>(l=Pe((o=+i)*oe))+"px"),[e,l,o]}function uf(e){e.show&&[e.font,e.labelFont].forEach(l=>{let o=ce(l[2]*oe,1);l[0]=l[0].replace(/[0-9.]+px/,o+"px"),l[1]=o})}function ke(e,l,o){let n={mode:ne(e.mode,1)},i=n.mode;function a(t,s,r,u){let c=s.valToPct(t);return u+r*(s.dir==-1?1-c:c)}function f(t,s,r,u){let c=s.valToPct(t);return u+r*(s.dir==-1?c:1-c)}function h(t,s,r,u){return s.ori==0?a(t,s,r,u):f(t,s,r,u)}n.valToPosH=a,n.valToPosV=f;let p=!1;n.status=0;let m=n.root=ft(mr);if(e.id!=null&&(m.id=e.id),et(m,e.class),e.title){let t=ft(wr,m);t.textContent=e.title}let y=dt("canvas"),d=n.ctx=y.getContext("2d"),w=ft(Sr,m);el("click",w,t=>{t.target===P&&(he!=Sl||_e!=_l)&&Fe.click(n,t)},!0);let D=n.under=ft(_r,w);w.appendChild(y);let P=n.over=ft(yr,w);e=Pl(e);let O=+ne(e.pxAlign,1),N=Io(O);(e.plugins||[]).forEach(t=>{t.opts&&(e=t.opts(n,e)||e)});let A=e.ms||.001,S=n.series=i==1?Yo(e.series||[],Ro,No,!1):tf(e.series||[null],Fo),v=n.axes=Yo(e.axes||[],Co,zo,!0),k=n.scales={},G=n.bands=e.bands||[];G.forEach(t=>{t.fill=X(t.fill||null),t.dir=ne(t.dir,-1)});let C=i==2?S[1].facets[0].scale:S[0].scale,q={axes:Xi,series:$i},K=(e.drawOrder||["axes","series"]).map(t=>q[t]);function Q(t){let s=t.distr==3?r=>Dt(r>0?r:t.clamp(n,r,t.min,t.max,t.key)):t.distr==4?r=>Zn(r,t.asinh):t.distr==100?r=>t.fwd(r):r=>r;return r=>{let u=s(r),{_min:c,_max:g}=t,_=g-c;return(u-c)/_}}function U(t){let s=k[t];if(s==null){let r=(e.scales||Kl)[t]||Kl;if(r.from!=null){U(r.from);let u=ve({},k[r.from],r,{key:t});u.valToPct=Q(u),k[t]=u}else{s=k[t]=ve({},t==C?Si:Yu,r),s.key=t;let u=s.time,c=s.range,g=Nt(c);if((t!=C||i==2&&!u)&&(g&&(c[0]==null||c[1]==null)&&(c={min:c[0]==null?So:{mode:1,hard:c[0],soft:c[0]},max:c[1]==null?So:{mode:1,hard:c[1],soft:c[1]}},g=!1),!g&&Sn(c))){let _=c;c=(x,b,M)=>b==null?Al:hn(b,M,_)}s.range=X(c||(u?lf:t==C?s.distr==3?sf:s.distr==4?of:Pi:s.distr==3?Ei:s.distr==4?Di:nf)),s.auto=X(g?!1:s.auto),s.clamp=X(s.clamp||Gu),s._min=s._max=null,s.valToPct=Q(s)}}}U("x"),U("y"),i==1&&S.forEach(t=>{U(t.scale)}),v.forEach(t=>{U(t.scale)});for(let t in e.scales)U(t);let T=k[C],$=T.distr,z,Y;T.ori==0?(et(m,gr),z=a,Y=f):(et(m,dr),z=f,Y=a);let I={};for(let t in k){let s=k[t];(s.min!=null||s.max!=null)&&(I[t]={min:s.min,max:s.max},s.min=s.max=null)}let ee=e.tzDate||(t=>new Date(Pe(t/A))),H=e.fmtDate||Ss,Ke=A==1?gu(ee):Su(ee),we=Eo(ee,Po(A==1?mu:wu,H)),te=Lo(ee,Do(yu,H)),ue=[],J=n.legend=ve({},ku,e.legend),V=n.cursor=ve({},Eu,{drag:{y:i==2}},e.cursor),Me=J.show,He=V.show,Se=J.markers;J.idxs=ue,Se.width=X(Se.width),Se.dash=X(Se.dash),Se.stroke=X(Se.stroke),Se.fill=X(Se.fill);let ie,ct,qe,ye=[],_t=[],At,nt=!1,Ct={};if(J.live){let t=S[1]?S[1].values:null;nt=t!=null,At=nt?t(n,1,0):{_:0};for(let s in At)Ct[s]=ps}if(Me)if(ie=dt("table",Mr,m),qe=dt("tbody",null,ie),J.mount(n,ie),nt){ct=dt("thead",null,ie,qe);let t=dt("tr",null,ct);dt("th",null,t);for(var sl in At)dt("th",so,t).textContent=sl}else et(ie,Pr),J.live&&et(ie,Ar);let ol={show:!0},Rl={show:!1};function Zl(t,s){if(s==0&&(nt||!J.live||i==2))return Al;let r=[],u=dt("tr",Er,qe,qe.childNodes[s]);et(u,t.class),t.show||et(u,Xt);let c=dt("th",null,u);if(Se.show){let x=ft(Dr,c);if(s>0){let b=Se.width(n,s);b&&(x.style.border=b+"px "+Se.dash(n,s)+" "+Se.stroke(n,s)),x.style.background=Se.fill(n,s)}}let g=ft(so,c);t.label instanceof HTMLElement?g.appendChild(t.label):g.textContent=t.label,s>0&&(Se.show||(g.style.color=t.width>0?Se.stroke(n,s):Se.fill(n,s)),Ie("click",c,x=>{if(V._lock)return;Kt(x);let b=S.indexOf(t);if((x.ctrlKey||x.metaKey)!=J.isolate){let M=S.some((E,R)=>R>0&&R!=b&&E.show);S.forEach((E,R)=>{R>0&&bt(R,M?R==b?ol:Rl:ol,!0,Te.setSeries)})}else bt(b,{show:!t.show},!0,Te.setSeries)},!1),fl&&Ie(uo,c,x=>{V._lock||(Kt(x),bt(S.indexOf(t),xl,!0,Te.setSeries))},!1));for(var _ in At){let x=dt("td",Lr,u);x.textContent="--",r.push(x)}return[u,r]}let Wt=new Map;function Ie(t,s,r,u=!0){let c=Wt.get(s)||{},g=V.bind[t](n,s,r,u);g&&(el(t,s,c[t]=g),Wt.set(s,c))}function il(t,s,r){let u=Wt.get(s)||{};for(let c in u)(t==null||c==t)&&(ss(c,s,u[c]),delete u[c]);t==null&&Wt.delete(s)}let Pt=0,Gt=0,j=0,L=0,pe=0,Ae=0,rl=pe,Yt=Ae,yt=j,Bt=L,Je=0,st=0,je=0,pt=0;n.bbox={};let vn=!1,Ql=!1,ul=!1,Ut=!1,Xl=!1,ot=!1;function Mn(t,s,r){(r||t!=n.width||s!=n.height)&&Ps(t,s),ml(!1),ul=!0,Ql=!0,gl()}function Ps(t,s){n.width=Pt=j=t,n.height=Gt=L=s,pe=Ae=0,Wi(),Gi();let r=n.bbox;Je=r.left=Zt(pe*oe,.5),st=r.top=Zt(Ae*oe,.5),je=r.width=Zt(j*oe,.5),pt=r.height=Zt(L*oe,.5)}let Ni=3;function Hi(){let t=!1,s=0;for(;!t;){s++;let r=Zi(s),u=Qi(s);t=s==Ni||r&&u,t||(Ps(n.width,n.height),Ql=!0)}}function Ii({width:t,height:s}){Mn(t,s)}n.setSize=Ii;function Wi(){let t=!1,s=!1,r=!1,u=!1;v.forEach((c,g)=>{if(c.show&&c._show){let{side:_,_size:x}=c,b=_%2,M=c.label!=null?c.labelSize:0,E=x+M;E>0&&(b?(j-=E,_==3?(pe+=E,u=!0):r=!0):(L-=E,_==0?(Ae+=E,t=!0):s=!0))}}),jt[0]=t,jt[1]=r,jt[2]=s,jt[3]=u,j-=Rt[1]+Rt[3],pe+=Rt[3],L-=Rt[2]+Rt[0],Ae+=Rt[0]}function Gi(){let t=pe+j,s=Ae+L,r=pe,u=Ae;function c(g,_){switch(g){case 1:return t+=_,t-_;case 2:return s+=_,s-_;case 3:return r-=_,r+_;case 0:return u-=_,u+_}}v.forEach((g,_)=>{if(g.show&&g._show){let x=g.side;g._pos=c(x,g._size),g.label!=null&&(g._lpos=c(x,g.labelSize))}})}if(V.dataIdx==null){let t=V.hover,s=t.skip=new Set(t.skip??[]);s.add(void 0);let r=t.prox=X(t.prox),u=t.bias??(t.bias=0);V.dataIdx=(c,g,_,x)=>{if(g==0)return _;let b=_,M=r(c,g,_,x)??ae,E=M>=0&&M<ae,R=T.ori==0?j:L,B=V.left,se=l[0],le=l[g];if(s.has(le[_])){b=null;let Z=null,W=null,F;if(u==0||u==-1)for(F=_;Z==null&&F-- >0;)s.has(le[F])||(Z=F);if(u==0||u==1)for(F=_;W==null&&F++<le.length;)s.has(le[F])||(W=F);if(Z!=null||W!=null)if(E){let ge=Z==null?-1/0:z(se[Z],T,R,0),xe=W==null?1/0:z(se[W],T,R,0),ze=B-ge,fe=xe-B;ze<=fe?ze<=M&&(b=Z):fe<=M&&(b=W)}else b=W==null?Z:Z==null?W:_-Z<=W-_?Z:W}else E&&Ee(B-z(se[_],T,R,0))>M&&(b=null);return b}}let Kt=t=>{V.event=t};V.idxs=ue,V._lock=!1;let Ne=V.points;Ne.show=X(Ne.show),Ne.size=X(Ne.size),Ne.stroke=X(Ne.stroke),Ne.width=X(Ne.width),Ne.fill=X(Ne.fill);let xt=n.focus=ve({},e.focus||{alpha:.3},V.focus),fl=xt.prox>=0,al=fl&&Ne.one,it=[],cl=[],pl=[];function Es(t,s){let r=Ne.show(n,s);if(r instanceof HTMLElement)return et(r,vr),et(r,t.class),Mt(r,-10,-10,j,L),P.insertBefore(r,it[s]),r}function Ds(t,s){if(i==1||s>0){let r=i==1&&k[t.scale].time,u=t.value;t.value=r?To(u)?Lo(ee,Do(u,H)):u||te:u||Hu,t.label=t.label||(r?Lu:Du)}if(al||s>0){t.width=t.width==null?1:t.width,t.paths=t.paths||Xu||Yr,t.fillTo=X(t.fillTo||Bu),t.pxAlign=+ne(t.pxAlign,O),t.pxRound=Io(t.pxAlign),t.stroke=X(t.stroke||null),t.fill=X(t.fill||null),t._stroke=t._fill=t._paths=t._focus=null;let r=Iu(Be(1,t.width),1),u=t.points=ve({},{size:r,width:Be(1,r*.2),stroke:t.stroke,space:r*2,paths:ef,_stroke:null,_fill:null},t.points);u.show=X(u.show),u.filter=X(u.filter),u.fill=X(u.fill),u.stroke=X(u.stroke),u.paths=X(u.paths),u.pxAlign=t.pxAlign}if(Me){let r=Zl(t,s);ye.splice(s,0,r[0]),_t.splice(s,0,r[1]),J.values.push(null)}if(He){ue.splice(s,0,null);let r=null;al?s==0&&(r=Es(t,s)):s>0&&(r=Es(t,s)),it.splice(s,0,r),cl.splice(s,0,0),pl.splice(s,0,0)}Oe("addSeries",s)}function Yi(t,s){s=s??S.length,t=i==1?as(t,s,Ro,No):as(t,s,{},Fo),S.splice(s,0,t),Ds(S[s],s)}n.addSeries=Yi;function Bi(t){if(S.splice(t,1),Me){J.values.splice(t,1),_t.splice(t,1);let s=ye.splice(t,1)[0];il(null,s.firstChild),s.remove()}He&&(ue.splice(t,1),it.splice(t,1)[0].remove(),cl.splice(t,1),pl.splice(t,1)),Oe("delSeries",t)}n.delSeries=Bi;let jt=[!1,!1,!1,!1];function Ui(t,s){if(t._show=t.show,t.show){let r=t.side%2,u=k[t.scale];u==null&&(t.scale=r?S[1].scale:C,u=k[t.scale]);let c=u.time;t.size=X(t.size),t.space=X(t.space),t.rotate=X(t.rotate),Nt(t.incrs)&&t.incrs.forEach(_=>{!Ht.has(_)&&Ht.set(_,Xo(_))}),t.incrs=X(t.incrs||(u.distr==2?cu:c?A==1?hu:du:Qt)),t.splits=X(t.splits||(c&&u.distr==1?Ke:u.distr==3?is:u.distr==4?Ou:Ru)),t.stroke=X(t.stroke),t.grid.stroke=X(t.grid.stroke),t.ticks.stroke=X(t.ticks.stroke),t.border.stroke=X(t.border.stroke);let g=t.values;t.values=Nt(g)&&!Nt(g[0])?X(g):c?Nt(g)?Eo(ee,Po(g,H)):To(g)?_u(ee,g):g||we:g||Cu,t.filter=X(t.filter||(u.distr>=3&&u.log==10?Fu:u.distr==3&&u.log==2?Nu:Zo)),t.font=Bo(t.font),t.labelFont=Bo(t.labelFont),t._size=t.size(n,null,s,0),t._space=t._rotate=t._incrs=t._found=t._splits=t._values=null,t._size>0&&(jt[s]=!0,t._el=ft(xr,w))}}function Ol(t,s,r,u){let[c,g,_,x]=r,b=s%2,M=0;return b==0&&(x||g)&&(M=s==0&&!c||s==2&&!_?Pe(Co.size/3):0),b==1&&(c||_)&&(M=s==1&&!g||s==3&&!x?Pe(zo.size/2):0),M}let Ls=n.padding=(e.padding||[Ol,Ol,Ol,Ol]).map(t=>X(ne(t,Ol))),Rt=n._padding=Ls.map((t,s)=>t(n,s,jt,0)),Ve,De=null,Le=null,en=i==1?S[0].idxs:null,ht=null,zl=!1;function Cs(t,s){if(l=t??[],n.data=n._data=l,i==2){Ve=0;for(let r=1;r<S.length;r++)Ve+=l[r][0].length}else{l.length==0&&(n.data=n._data=l=[[]]),ht=l[0],Ve=ht.length;let r=l;if($==2){r=l.slice();let u=r[0]=Array(Ve);for(let c=0;c<Ve;c++)u[c]=c}n._data=l=r}if(ml(!0),Oe("setData"),$==2&&(ul=!0),s!==!1){let r=T;r.auto(n,zl)?An():zt(C,r.min,r.max),Ut=Ut||V.left>=0,ot=!0,gl()}}n.setData=Cs;function An(){zl=!0;let t,s;i==1&&(Ve>0?(De=en[0]=0,Le=en[1]=Ve-1,t=l[0][De],s=l[0][Le],$==2?(t=De,s=Le):t==s&&($==3?[t,s]=dn(t,t,T.log,!1):$==4?[t,s]=ms(t,t,T.log,!1):T.time?s=t+Pe(86400/A):[t,s]=hn(t,s,gs,!0))):(De=en[0]=t=null,Le=en[1]=s=null)),zt(C,t,s)}let tn,hl,Pn,En,Dn,Ln,Cn,Rn,On,$e;function Rs(t,s,r,u,c,g){t??(t=io),r??(r=ws),u??(u="butt"),c??(c=io),g??(g="round"),t!=tn&&(d.strokeStyle=tn=t),c!=hl&&(d.fillStyle=hl=c),s!=Pn&&(d.lineWidth=Pn=s),g!=Dn&&(d.lineJoin=Dn=g),u!=Ln&&(d.lineCap=Ln=u),r!=En&&d.setLineDash(En=r)}function Os(t,s,r,u){s!=hl&&(d.fillStyle=hl=s),t!=Cn&&(d.font=Cn=t),r!=Rn&&(d.textAlign=Rn=r),u!=On&&(d.textBaseline=On=u)}function zn(t,s,r,u,c=0){if(u.length>0&&t.auto(n,zl)&&(s==null||s.min==null)){let g=ne(De,0),_=ne(Le,u.length-1),x=r.min==null?Fr(u,g,_,c,t.distr==3):[r.min,r.max];t.min=St(t.min,r.min=x[0]),t.max=Be(t.max,r.max=x[1])}}let zs={min:null,max:null};function Ki(){for(let u in k){let c=k[u];I[u]==null&&(c.min==null||I[C]!=null&&c.auto(n,zl))&&(I[u]=zs)}for(let u in k){let c=k[u];I[u]==null&&c.from!=null&&I[c.from]!=null&&(I[u]=zs)}I[C]!=null&&ml(!0);let t={};for(let u in I){let c=I[u];if(c!=null){let g=t[u]=Pl(k[u],Kr);if(c.min!=null)ve(g,c);else if(u!=C||i==2)if(Ve==0&&g.from==null){let _=g.range(n,null,null,u);g.min=_[0],g.max=_[1]}else g.min=ae,g.max=-ae}}if(Ve>0){S.forEach((u,c)=>{if(i==1){let g=u.scale,_=I[g];if(_==null)return;let x=t[g];if(c==0){let b=x.range(n,x.min,x.max,g);x.min=b[0],x.max=b[1],De=wt(x.min,l[0]),Le=wt(x.max,l[0]),Le-De>1&&(l[0][De]<x.min&&De++,l[0][Le]>x.max&&Le--),u.min=ht[De],u.max=ht[Le]}else u.show&&u.auto&&zn(x,_,u,l[c],u.sorted);u.idxs[0]=De,u.idxs[1]=Le}else if(c>0&&u.show&&u.auto){let[g,_]=u.facets,x=g.scale,b=_.scale,[M,E]=l[c],R=t[x],B=t[b];R!=null&&zn(R,I[x],g,M,g.sorted),B!=null&&zn(B,I[b],_,E,_.sorted),u.min=_.min,u.max=_.max}});for(let u in t){let c=t[u],g=I[u];if(c.from==null&&(g==null||g.min==null)){let _=c.range(n,c.min==ae?null:c.min,c.max==-ae?null:c.max,u);c.min=_[0],c.max=_[1]}}}for(let u in t){let c=t[u];if(c.from!=null){let g=t[c.from];if(g.min==null)c.min=c.max=null;else{let _=c.range(n,g.min,g.max,u);c.min=_[0],c.max=_[1]}}}let s={},r=!1;for(let u in t){let c=t[u],g=k[u];if(g.min!=c.min||g.max!=c.max){g.min=c.min,g.max=c.max;let _=g.distr;g._min=_==3?Dt(g.min):_==4?Zn(g.min,g.asinh):_==100?g.fwd(g.min):g.min,g._max=_==3?Dt(g.max):_==4?Zn(g.max,g.asinh):_==100?g.fwd(g.max):g.max,s[u]=r=!0}}if(r){S.forEach((u,c)=>{i==2?c>0&&s.y&&(u._paths=null):s[u.scale]&&(u._paths=null)});for(let u in s)ul=!0,Oe("setScale",u);He&&V.left>=0&&(Ut=ot=!0)}for(let u in I)I[u]=null}function ji(t){let s=os(De-1,0,Ve-1),r=os(Le+1,0,Ve-1);for(;t[s]==null&&s>0;)s--;for(;t[r]==null&&r<Ve-1;)r++;return[s,r]}function $i(){if(Ve>0){let t=S.some(s=>s._focus)&&$e!=xt.alpha;t&&(d.globalAlpha=$e=xt.alpha),S.forEach((s,r)=>{if(r>0&&s.show&&(Vs(r,!1),Vs(r,!0),s._paths==null)){let u=$e;$e!=s.alpha&&(d.globalAlpha=$e=s.alpha);let c=i==2?[0,l[r][0].length-1]:ji(l[r]);s._paths=s.paths(n,r,c[0],c[1]),$e!=u&&(d.globalAlpha=$e=u)}}),S.forEach((s,r)=>{if(r>0&&s.show){let u=$e;$e!=s.alpha&&(d.globalAlpha=$e=s.alpha),s._paths!=null&&Fs(r,!1);{let c=s._paths!=null?s._paths.gaps:null,g=s.points.show(n,r,De,Le,c),_=s.points.filter(n,r,g,c);(g||_)&&(s.points._paths=s.points.paths(n,r,De,Le,_),Fs(r,!0))}$e!=u&&(d.globalAlpha=$e=u),Oe("drawSeries",r)}}),t&&(d.globalAlpha=$e=1)}}function Vs(t,s){let r=s?S[t].points:S[t];r._stroke=r.stroke(n,t),r._fill=r.fill(n,t)}function Fs(t,s){let r=s?S[t].points:S[t],{stroke:u,fill:c,clip:g,flags:_,_stroke:x=r._stroke,_fill:b=r._fill,_width:M=r.width}=r._paths;M=ce(M*oe,3);let E=null,R=M%2/2;s&&b==null&&(b=M>0?"#fff":x);let B=r.pxAlign==1&&R>0;if(B&&d.translate(R,R),!s){let se=Je-M/2,le=st-M/2,Z=je+M,W=pt+M;E=new Path2D,E.rect(se,le,Z,W)}s?Vn(x,M,r.dash,r.cap,b,u,c,_,g):qi(t,x,M,r.dash,r.cap,b,u,c,_,E,g),B&&d.translate(-R,-R)}function qi(t,s,r,u,c,g,_,x,b,M,E){let R=!1;b!=0&&G.forEach((B,se)=>{if(B.series[0]==t){let le=S[B.series[1]],Z=l[B.series[1]],W=(le._paths||Kl).band;Nt(W)&&(W=B.dir==1?W[0]:W[1]);let F,ge=null;le.show&&W&&Hr(Z,De,Le)?(ge=B.fill(n,se)||g,F=le._paths.clip):W=null,Vn(s,r,u,c,ge,_,x,b,M,E,F,W),R=!0}}),R||Vn(s,r,u,c,g,_,x,b,M,E)}let Ns=El|us;function Vn(t,s,r,u,c,g,_,x,b,M,E,R){Rs(t,s,r,u,c),(b||M||R)&&(d.save(),b&&d.clip(b),M&&d.clip(M)),R?(x&Ns)==Ns?(d.clip(R),E&&d.clip(E),nn(c,_),ln(t,g,s)):x&us?(nn(c,_),d.clip(R),ln(t,g,s)):x&El&&(d.save(),d.clip(R),E&&d.clip(E),nn(c,_),d.restore(),ln(t,g,s)):(nn(c,_),ln(t,g,s)),(b||M||R)&&d.restore()}function ln(t,s,r){r>0&&(s instanceof Map?s.forEach((u,c)=>{d.strokeStyle=tn=c,d.stroke(u)}):s!=null&&t&&d.stroke(s))}function nn(t,s){s instanceof Map?s.forEach((r,u)=>{d.fillStyle=hl=u,d.fill(r)}):s!=null&&t&&d.fill(s)}function Ji(t,s,r,u){let c=v[t],g;if(u<=0)g=[0,0];else{let _=c._space=c.space(n,t,s,r,u),x=c._incrs=c.incrs(n,t,s,r,u,_);g=rf(s,r,x,u,_)}return c._found=g}function Fn(t,s,r,u,c,g,_,x,b,M){let E=_%2/2;O==1&&d.translate(E,E),Rs(x,_,b,M,x),d.beginPath();let R,B,se,le,Z=c+(u==0||u==3?-g:g);r==0?(B=c,le=Z):(R=c,se=Z);for(let W=0;W<t.length;W++)s[W]!=null&&(r==0?R=se=t[W]:B=le=t[W],d.moveTo(R,B),d.lineTo(se,le));d.stroke(),O==1&&d.translate(-E,-E)}function Zi(t){let s=!0;return v.forEach((r,u)=>{if(!r.show)return;let c=k[r.scale];if(c.min==null){r._show&&(s=!1,r._show=!1,ml(!1));return}else r._show||(s=!1,r._show=!0,ml(!1));let g=r.side,_=g%2,{min:x,max:b}=c,[M,E]=Ji(u,x,b,_==0?j:L);if(E==0)return;let R=c.distr==2,B=r._splits=r.splits(n,u,x,b,M,E,R),se=c.distr==2?B.map(F=>ht[F]):B,le=c.distr==2?ht[B[1]]-ht[B[0]]:M,Z=r._values=r.values(n,r.filter(n,se,u,E,le),u,E,le);r._rotate=g==2?r.rotate(n,Z,u,E):0;let W=r._size;r._size=at(r.size(n,Z,u,t)),W!=null&&r._size!=W&&(s=!1)}),s}function Qi(t){let s=!0;return Ls.forEach((r,u)=>{let c=r(n,u,jt,t);c!=Rt[u]&&(s=!1),Rt[u]=c}),s}function Xi(){for(let t=0;t<v.length;t++){let s=v[t];if(!s.show||!s._show)continue;let r=s.side,u=r%2,c,g,_=s.stroke(n,t),x=r==0||r==3?-1:1,[b,M]=s._found;if(s.label!=null){let Ge=s.labelGap*x,Xe=Pe((s._lpos+Ge)*oe);Os(s.labelFont[0],_,"center",r==2?"top":oo),d.save(),u==1?(c=g=0,d.translate(Xe,Pe(st+pt/2)),d.rotate((r==3?-cn:cn)/2)):(c=Pe(Je+je/2),g=Xe);let Jt=qo(s.label)?s.label(n,t,b,M):s.label;d.fillText(Jt,c,g),d.restore()}if(M==0)continue;let E=k[s.scale],R=u==0?je:pt,B=u==0?Je:st,se=s._splits,le=E.distr==2?se.map(Ge=>ht[Ge]):se,Z=E.distr==2?ht[se[1]]-ht[se[0]]:b,W=s.ticks,F=s.border,ge=W.show?W.size:0,xe=Pe(ge*oe),ze=Pe((s.alignTo==2?s._size-ge-s.gap:s.gap)*oe),fe=s._rotate*-cn/180,be=N(s._pos*oe),Ze=(xe+ze)*x,We=be+Ze;g=u==0?We:0,c=u==1?We:0;let rt=s.font[0],mt=s.align==1?kl:s.align==2?$n:fe>0?kl:fe<0?$n:u==0?"center":r==3?$n:kl,Tt=fe||u==1?"middle":r==2?"top":oo;Os(rt,_,mt,Tt);let Qe=s.font[1]*s.lineGap,ut=se.map(Ge=>N(h(Ge,E,R,B))),gt=s._values;for(let Ge=0;Ge<gt.length;Ge++){let Xe=gt[Ge];if(Xe!=null){u==0?c=ut[Ge]:g=ut[Ge],Xe=""+Xe;let Jt=Xe.indexOf(`\n`)==-1?[Xe]:Xe.split(/\\n/gm);for(let Ye=0;Ye<Jt.length;Ye++){let no=Jt[Ye];fe?(d.save(),d.translate(c,g+Ye*Qe),d.rotate(fe),d.fillText(no,0,0),d.restore()):d.fillText(no,c,g+Ye*Qe)}}}W.show&&Fn(ut,W.filter(n,le,t,M,Z),u,r,be,xe,ce(W.width*oe,3),W.stroke(n,t),W.dash,W.cap);let vt=s.grid;vt.show&&Fn(ut,vt.filter(n,le,t,M,Z),u,u==0?2:1,u==0?st:Je,u==0?pt:je,ce(vt.width*oe,3),vt.stroke(n,t),vt.dash,vt.cap),F.show&&Fn([be],[1],u==0?1:0,u==0?1:2,u==1?st:Je,u==1?pt:je,ce(F.width*oe,3),F.stroke(n,t),F.dash,F.cap)}Oe("drawAxes")}function ml(t){S.forEach((s,r)=>{r>0&&(s._paths=null,t&&(i==1?(s.min=null,s.max=null):s.facets.forEach(u=>{u.min=null,u.max=null})))})}let sn=!1,Nn=!1,Vl=[];function er(){Nn=!1;for(let t=0;t<Vl.length;t++)Oe(...Vl[t]);Vl.length=0}function gl(){sn||(Xr(Hs),sn=!0)}function tr(t,s=!1){sn=!0,Nn=s,t(n),Hs(),s&&Vl.length>0&&queueMicrotask(er)}n.batch=tr;function Hs(){if(vn&&(Ki(),vn=!1),ul&&(Hi(),ul=!1),Ql){if(de(D,kl,pe),de(D,"top",Ae),de(D,Gl,j),de(D,Yl,L),de(P,kl,pe),de(P,"top",Ae),de(P,Gl,j),de(P,Yl,L),de(w,Gl,Pt),de(w,Yl,Gt),y.width=Pe(Pt*oe),y.height=Pe(Gt*oe),v.forEach(({_el:t,_show:s,_size:r,_pos:u,side:c})=>{if(t!=null)if(s){let g=c===3||c===0?r:0,_=c%2==1;de(t,_?"left":"top",u-g),de(t,_?"width":"height",r),de(t,_?"top":"left",_?Ae:pe),de(t,_?"height":"width",_?L:j),ns(t,Xt)}else et(t,Xt)}),tn=hl=Pn=Dn=Ln=Cn=Rn=On=En=null,$e=1,Hl(!0),pe!=rl||Ae!=Yt||j!=yt||L!=Bt){ml(!1);let t=j/yt,s=L/Bt;if(He&&!Ut&&V.left>=0){V.left*=t,V.top*=s,dl&&Mt(dl,Pe(V.left),0,j,L),wl&&Mt(wl,0,Pe(V.top),j,L);for(let r=0;r<it.length;r++){let u=it[r];u!=null&&(cl[r]*=t,pl[r]*=s,Mt(u,at(cl[r]),at(pl[r]),j,L))}}if(me.show&&!Xl&&me.left>=0&&me.width>0){me.left*=t,me.width*=t,me.top*=s,me.height*=s;for(let r in Bn)de(yl,r,me[r])}rl=pe,Yt=Ae,yt=j,Bt=L}Oe("setSize"),Ql=!1}Pt>0&&Gt>0&&(d.clearRect(0,0,y.width,y.height),Oe("drawClear"),K.forEach(t=>t()),Oe("draw")),me.show&&Xl&&(on(me),Xl=!1),He&&Ut&&(qt(null,!0,!1),Ut=!1),J.show&&J.live&&ot&&(Gn(),ot=!1),p||(p=!0,n.status=1,Oe("ready")),zl=!1,sn=!1}n.redraw=(t,s)=>{ul=s||!1,t!==!1?zt(C,T.min,T.max):gl()};function Hn(t,s){let r=k[t];if(r.from==null){if(Ve==0){let u=r.range(n,s.min,s.max,t);s.min=u[0],s.max=u[1]}if(s.min>s.max){let u=s.min;s.min=s.max,s.max=u}if(Ve>1&&s.min!=null&&s.max!=null&&s.max-s.min<1e-16)return;t==C&&r.distr==2&&Ve>0&&(s.min=wt(s.min,l[0]),s.max=wt(s.max,l[0]),s.min==s.max&&s.max++),I[t]=s,vn=!0,gl()}}n.setScale=Hn;let In,Wn,dl,wl,Is,Ws,Sl,_l,Gs,Ys,he,_e,Ot=!1,Fe=V.drag,Ce=Fe.x,Re=Fe.y;He&&(V.x&&(In=ft(kr,P)),V.y&&(Wn=ft(Tr,P)),T.ori==0?(dl=In,wl=Wn):(dl=Wn,wl=In),he=V.left,_e=V.top);let me=n.select=ve({show:!0,over:!0,left:0,width:0,top:0,height:0},e.select),yl=me.show?ft(br,me.over?P:D):null;function on(t,s){if(me.show){for(let r in t)me[r]=t[r],r in Bn&&de(yl,r,t[r]);s!==!1&&Oe("setSelect")}}n.setSelect=on;function lr(t){if(S[t].show)Me&&ns(ye[t],Xt);else if(Me&&et(ye[t],Xt),He){let r=al?it[0]:it[t];r!=null&&Mt(r,-10,-10,j,L)}}function zt(t,s,r){Hn(t,{min:s,max:r})}function bt(t,s,r,u){s.focus!=null&&rr(t),s.show!=null&&S.forEach((c,g)=>{g>0&&(t==g||t==null)&&(c.show=s.show,lr(g),i==2?(zt(c.facets[0].scale,null,null),zt(c.facets[1].scale,null,null)):zt(c.scale,null,null),gl())}),r!==!1&&Oe("setSeries",t,s),u&&Il("setSeries",n,t,s)}n.setSeries=bt;function nr(t,s){ve(G[t],s)}function sr(t,s){t.fill=X(t.fill||null),t.dir=ne(t.dir,-1),s=s??G.length,G.splice(s,0,t)}function or(t){t==null?G.length=0:G.splice(t,1)}n.addBand=sr,n.setBand=nr,n.delBand=or;function ir(t,s){S[t].alpha=s,He&&it[t]!=null&&(it[t].style.opacity=s),Me&&ye[t]&&(ye[t].style.opacity=s)}let Et,Vt,$t,xl={focus:!0};function rr(t){if(t!=$t){let s=t==null,r=xt.alpha!=1;S.forEach((u,c)=>{if(i==1||c>0){let g=s||c==0||c==t;u._focus=s?null:g,r&&ir(c,g?1:xt.alpha)}}),$t=t,r&&gl()}}Me&&fl&&Ie(fo,ie,t=>{V._lock||(Kt(t),$t!=null&&bt(null,xl,!0,Te.setSeries))});function kt(t,s,r){let u=k[s];r&&(t=t/oe-(u.ori==1?Ae:pe));let c=j;u.ori==1&&(c=L,t=c-t),u.dir==-1&&(t=c-t);let g=u._min,_=u._max,x=t/c,b=g+(_-g)*x,M=u.distr;return M==3?Ml(10,b):M==4?Wr(b,u.asinh):M==100?u.bwd(b):b}function ur(t,s){let r=kt(t,C,s);return wt(r,l[0],De,Le)}n.valToIdx=t=>wt(t,l[0]),n.posToIdx=ur,n.posToVal=kt,n.valToPos=(t,s,r)=>k[s].ori==0?a(t,k[s],r?je:j,r?Je:0):f(t,k[s],r?pt:L,r?st:0),n.setCursor=(t,s,r)=>{he=t.left,_e=t.top,qt(null,s,r)};function Bs(t,s){de(yl,kl,me.left=t),de(yl,Gl,me.width=s)}function Us(t,s){de(yl,"top",me.top=t),de(yl,Yl,me.height=s)}let Fl=T.ori==0?Bs:Us,Nl=T.ori==1?Bs:Us;function fr(){if(Me&&J.live)for(let t=i==2?1:0;t<S.length;t++){if(t==0&&nt)continue;let s=J.values[t],r=0;for(let u in s)_t[t][r++].firstChild.nodeValue=s[u]}}function Gn(t,s){if(t!=null&&(t.idxs?t.idxs.forEach((r,u)=>{ue[u]=r}):Ur(t.idx)||ue.fill(t.idx),J.idx=ue[0]),Me&&J.live){for(let r=0;r<S.length;r++)(r>0||i==1&&!nt)&&ar(r,ue[r]);fr()}ot=!1,s!==!1&&Oe("setLegend")}n.setLegend=Gn;function ar(t,s){let r=S[t],u=t==0&&$==2?ht:l[t],c;nt?c=r.values(n,t,s)??Ct:(c=r.value(n,s==null?null:u[s],t,s),c=c==null?Ct:{_:c}),J.values[t]=c}function qt(t,s,r){Gs=he,Ys=_e,[he,_e]=V.move(n,he,_e),V.left=he,V.top=_e,He&&(dl&&Mt(dl,Pe(he),0,j,L),wl&&Mt(wl,0,Pe(_e),j,L));let u,c=De>Le;Et=ae,Vt=null;let g=T.ori==0?j:L,_=T.ori==1?j:L;if(he<0||Ve==0||c){u=V.idx=null;for(let x=0;x<S.length;x++){let b=it[x];b!=null&&Mt(b,-10,-10,j,L)}fl&&bt(null,xl,!0,t==null&&Te.setSeries),J.live&&(ue.fill(u),ot=!0)}else{let x,b,M;i==1&&(x=T.ori==0?he:_e,b=kt(x,C),u=V.idx=wt(b,l[0],De,Le),M=z(l[0][u],T,g,0));let E=-10,R=-10,B=0,se=0,le=!0,Z="",W="";for(let F=i==2?1:0;F<S.length;F++){let ge=S[F],xe=ue[F],ze=xe==null?null:i==1?l[F][xe]:l[F][1][xe],fe=V.dataIdx(n,F,u,b),be=fe==null?null:i==1?l[F][fe]:l[F][1][fe];if(ot=ot||be!=ze||fe!=xe,ue[F]=fe,F>0&&ge.show){let Ze=fe==null?-10:fe==u?M:z(i==1?l[0][fe]:l[F][0][fe],T,g,0),We=be==null?-10:Y(be,i==1?k[ge.scale]:k[ge.facets[1].scale],_,0);if(fl&&be!=null){let rt=T.ori==1?he:_e,mt=Ee(xt.dist(n,F,fe,We,rt));if(mt<Et){let Tt=xt.bias;if(Tt!=0){let Qe=kt(rt,ge.scale),ut=be>=0?1:-1,gt=Qe>=0?1:-1;gt==ut&&(gt==1?Tt==1?be>=Qe:be<=Qe:Tt==1?be<=Qe:be>=Qe)&&(Et=mt,Vt=F)}else Et=mt,Vt=F}}if(ot||al){let rt,mt;T.ori==0?(rt=Ze,mt=We):(rt=We,mt=Ze);let Tt,Qe,ut,gt,vt,Ge,Xe=!0,Jt=Ne.bbox;if(Jt!=null){Xe=!1;let Ye=Jt(n,F);ut=Ye.left,gt=Ye.top,Tt=Ye.width,Qe=Ye.height}else ut=rt,gt=mt,Tt=Qe=Ne.size(n,F);if(Ge=Ne.fill(n,F),vt=Ne.stroke(n,F),al)F==Vt&&Et<=xt.prox&&(E=ut,R=gt,B=Tt,se=Qe,le=Xe,Z=Ge,W=vt);else{let Ye=it[F];Ye!=null&&(cl[F]=ut,pl[F]=gt,wo(Ye,Tt,Qe,Xe),mo(Ye,Ge,vt),Mt(Ye,at(ut),at(gt),j,L))}}}}if(al){let F=xt.prox,ge=$t==null?Et<=F:Et>F||Vt!=$t;if(ot||ge){let xe=it[0];xe!=null&&(cl[0]=E,pl[0]=R,wo(xe,B,se,le),mo(xe,Z,W),Mt(xe,at(E),at(R),j,L))}}}if(me.show&&Ot)if(t!=null){let[x,b]=Te.scales,[M,E]=Te.match,[R,B]=t.cursor.sync.scales,se=t.cursor.drag;if(Ce=se._x,Re=se._y,Ce||Re){let{left:le,top:Z,width:W,height:F}=t.select,ge=t.scales[R].ori,xe=t.posToVal,ze,fe,be,Ze,We,rt=x!=null&&M(x,R),mt=b!=null&&E(b,B);rt&&Ce?(ge==0?(ze=le,fe=W):(ze=Z,fe=F),be=k[x],Ze=z(xe(ze,R),be,g,0),We=z(xe(ze+fe,R),be,g,0),Fl(St(Ze,We),Ee(We-Ze))):Fl(0,g),mt&&Re?(ge==1?(ze=le,fe=W):(ze=Z,fe=F),be=k[b],Ze=Y(xe(ze,B),be,_,0),We=Y(xe(ze+fe,B),be,_,0),Nl(St(Ze,We),Ee(We-Ze))):Nl(0,_)}else Un()}else{let x=Ee(Gs-Is),b=Ee(Ys-Ws);if(T.ori==1){let B=x;x=b,b=B}Ce=Fe.x&&x>=Fe.dist,Re=Fe.y&&b>=Fe.dist;let M=Fe.uni;M!=null?Ce&&Re&&(Ce=x>=M,Re=b>=M,!Ce&&!Re&&(b>x?Re=!0:Ce=!0)):Fe.x&&Fe.y&&(Ce||Re)&&(Ce=Re=!0);let E,R;Ce&&(T.ori==0?(E=Sl,R=he):(E=_l,R=_e),Fl(St(E,R),Ee(R-E)),Re||Nl(0,_)),Re&&(T.ori==1?(E=Sl,R=he):(E=_l,R=_e),Nl(St(E,R),Ee(R-E)),Ce||Fl(0,g)),!Ce&&!Re&&(Fl(0,0),Nl(0,0))}if(Fe._x=Ce,Fe._y=Re,t==null){if(r){if(lo!=null){let[x,b]=Te.scales;Te.values[0]=x!=null?kt(T.ori==0?he:_e,x):null,Te.values[1]=b!=null?kt(T.ori==1?he:_e,b):null}Il(qn,n,he,_e,j,L,u)}if(fl){let x=r&&Te.setSeries,b=xt.prox;$t==null?Et<=b&&bt(Vt,xl,!0,x):Et>b?bt(null,xl,!0,x):Vt!=$t&&bt(Vt,xl,!0,x)}}ot&&(J.idx=u,Gn()),s!==!1&&Oe("setCursor")}let Ft=null;Object.defineProperty(n,"rect",{get(){return Ft==null&&Hl(!1),Ft}});function Hl(t=!1){t?Ft=null:(Ft=P.getBoundingClientRect(),Oe("syncRect",Ft))}function Ks(t,s,r,u,c,g,_){V._lock||Ot&&t!=null&&t.movementX==0&&t.movementY==0||(Yn(t,s,r,u,c,g,_,!1,t!=null),t!=null?qt(null,!0,!0):qt(s,!0,!1))}function Yn(t,s,r,u,c,g,_,x,b){if(Ft==null&&Hl(!1),Kt(t),t!=null)r=t.clientX-Ft.left,u=t.clientY-Ft.top;else{if(r<0||u<0){he=-10,_e=-10;return}let[M,E]=Te.scales,R=s.cursor.sync,[B,se]=R.values,[le,Z]=R.scales,[W,F]=Te.match,ge=s.axes[0].side%2==1,xe=T.ori==0?j:L,ze=T.ori==1?j:L,fe=ge?g:c,be=ge?c:g,Ze=ge?u:r,We=ge?r:u;if(le!=null?r=W(M,le)?h(B,k[M],xe,0):-10:r=xe*(Ze/fe),Z!=null?u=F(E,Z)?h(se,k[E],ze,0):-10:u=ze*(We/be),T.ori==1){let rt=r;r=u,u=rt}}b&&(s==null||s.cursor.event.type==qn)&&((r<=1||r>=j-1)&&(r=Zt(r,j)),(u<=1||u>=L-1)&&(u=Zt(u,L))),x?(Is=r,Ws=u,[Sl,_l]=V.move(n,r,u)):(he=r,_e=u)}let Bn={width:0,height:0,left:0,top:0};function Un(){on(Bn,!1)}let js,$s,qs,Js;function Zs(t,s,r,u,c,g,_){Ot=!0,Ce=Re=Fe._x=Fe._y=!1,Yn(t,s,r,u,c,g,_,!0,!1),t!=null&&(Ie(Jn,ts,Qs,!1),Il(ro,n,Sl,_l,j,L,null));let{left:x,top:b,width:M,height:E}=me;js=x,$s=b,qs=M,Js=E}function Qs(t,s,r,u,c,g,_){Ot=Fe._x=Fe._y=!1,Yn(t,s,r,u,c,g,_,!1,!0);let{left:x,top:b,width:M,height:E}=me,R=M>0||E>0,B=js!=x||$s!=b||qs!=M||Js!=E;if(R&&B&&on(me),Fe.setScale&&R&&B){let se=x,le=M,Z=b,W=E;if(T.ori==1&&(se=b,le=E,Z=x,W=M),Ce&&zt(C,kt(se,C),kt(se+le,C)),Re)for(let F in k){let ge=k[F];F!=C&&ge.from==null&&ge.min!=ae&&zt(F,kt(Z+W,F),kt(Z,F))}Un()}else V.lock&&(V._lock=!V._lock,qt(s,!0,t!=null));t!=null&&(il(Jn,ts),Il(Jn,n,he,_e,j,L,null))}function cr(t,s,r,u,c,g,_){if(V._lock)return;Kt(t);let x=Ot;if(Ot){let b=!0,M=!0,E=10,R,B;T.ori==0?(R=Ce,B=Re):(R=Re,B=Ce),R&&B&&(b=he<=E||he>=j-E,M=_e<=E||_e>=L-E),R&&b&&(he=he<Sl?0:j),B&&M&&(_e=_e<_l?0:L),qt(null,!0,!0),Ot=!1}he=-10,_e=-10,ue.fill(null),qt(null,!0,!0),x&&(Ot=x)}function Xs(t,s,r,u,c,g,_){V._lock||(Kt(t),An(),Un(),t!=null&&Il(ao,n,he,_e,j,L,null))}function eo(){v.forEach(uf),Mn(n.width,n.height,!0)}el(pn,vl,eo);let bl={};bl.mousedown=Zs,bl.mousemove=Ks,bl.mouseup=Qs,bl.dblclick=Xs,bl.setSeries=(t,s,r,u)=>{let c=Te.match[2];r=c(n,s,r),r!=-1&&bt(r,u,!0,!1)},He&&(Ie(ro,P,Zs),Ie(qn,P,Ks),Ie(uo,P,t=>{Kt(t),Hl(!1)}),Ie(fo,P,cr),Ie(ao,P,Xs),fs.add(n),n.syncRect=Hl);let rn=n.hooks=e.hooks||{};function Oe(t,s,r){Nn?Vl.push([t,s,r]):t in rn&&rn[t].forEach(u=>{u.call(null,n,s,r)})}(e.plugins||[]).forEach(t=>{for(let s in t.hooks)rn[s]=(rn[s]||[]).concat(t.hooks[s])});let to=(t,s,r)=>r,Te=ve({key:null,setSeries:!1,filters:{pub:bo,sub:bo},scales:[C,S[1]?S[1].scale:null],match:[ko,ko,to],values:[null,null]},V.sync);Te.match.length==2&&Te.match.push(to),V.sync=Te;let lo=Te.key,Kn=_i(lo);function Il(t,s,r,u,c,g,_){Te.filters.pub(t,s,r,u,c,g,_)&&Kn.pub(t,s,r,u,c,g,_)}Kn.sub(n);function pr(t,s,r,u,c,g,_){Te.filters.sub(t,s,r,u,c,g,_)&&bl[t](null,s,r,u,c,g,_)}n.pub=pr;function hr(){Kn.unsub(n),fs.delete(n),Wt.clear(),ss(pn,vl,eo),m.remove(),ie?.remove(),Oe("destroy")}n.destroy=hr;function jn(){Oe("init",e,l),Cs(l||e.data,!1),I[C]?Hn(C,I[C]):An(),Xl=me.show&&(me.width>0||me.height>0),Ut=ot=!0,Mn(e.width,e.height)}return S.forEach(Ds),v.forEach(Ui),o?o instanceof HTMLElement?(o.appendChild(m),jn()):o(n,jn):jn(),n}ke.assign=ve;ke.fmtNum=ds;ke.rangeNum=hn;ke.rangeLog=dn;ke.rangeAsinh=ms;ke.orient=ll;ke.pxRatio=oe;ke.join=Qr;ke.fmtDate=Ss,ke.tzDate=fu;ke.sync=_i;{ke.addGap=Uu,ke.clipGaps=_n;let e=ke.paths={points:vi};e.linear=Ai,e.stepped=$u,e.bars=qu,e.spline=Zu}var Ue=["#3b6fd8","#e07b39","#2f9e6e","#9b59b6","#d64f6a","#1aa3b8","#b8902b","#6b7a99"],Li="#e0a030",kn="#d9534f",$l="#1d2433",ql=260,ff=[1,2,5,10,15,30,60,120,300,600,900,1800,3600,7200,10800,21600,43200,86400],vs={incrs:ff},Tn=e=>e/1e3;function Ci(e){return Math.max(320,Math.floor(e.getBoundingClientRect().width||640))}function It(e,l,o="%",n={}){return{label:e,stroke:l,scale:o,width:2,points:{show:!1},...n}}function nl(e,l){return{label:e,stroke:l,scale:"%",width:1,dash:[6,4],points:{show:!1}}}var Jl={scale:"%",values:(e,l)=>l.map(o=>`${o}%`),size:52};function Ri(e,l){let{ctx:o}=e,{top:n,height:i}=e.bbox;o.save(),o.lineWidth=Math.max(1,devicePixelRatio);for(let a of new Set(l.map(f=>f.colour))){o.strokeStyle=a,o.beginPath();for(let f of l){if(f.colour!==a)continue;let h=e.valToPos(Tn(f.at),"x",!0);o.moveTo(h,n),o.lineTo(h,n+i)}o.stroke()}o.restore()}var Ms=()=>ke.paths.bars?.({size:[.55,90]});function As(e){return{splits:()=>e.map((l,o)=>o),values:(l,o)=>o.map(n=>e[n]??""),grid:{show:!1}}}function Oi(e){let l=e.today?.budgets[0],o=e.today;if(!l||!o)return null;let n=[["Agent time",l.limits.timeMs,"agentMs"],["Prompts",l.limits.turns,"prompts"],["Tokens",l.limits.tokens,"tokens"],["Cost",l.limits.cost,"cost"]].filter(A=>A[1]!==null),{agentMs:i,prompts:a,tokens:f,cost:h}=l.use,p=o.sessions.length>0?o.sessions:[{session:l.who,host:null,member:l.who,agentMs:i,prompts:a,tokens:f,cost:h}],m=p.some(A=>A.member!==null),y=new Map;for(let A of p){let S=m?A.member??"another member":`${A.host??"another session"} \xB7 ${A.session.slice(0,8)}`;y.set(S,[...y.get(S)??[],A])}let d=[...y.keys()],w=n.map(()=>0),D=d.map(A=>n.map((S,v)=>{let k=(y.get(A)??[]).reduce((G,C)=>G+C[S[2]],0);return w[v]=(w[v]??0)+100*k/S[1],w[v]})),P=d.map((A,S)=>S).reverse(),O=[{},...P.map(A=>({label:d[A],fill:Ue[A%Ue.length],stroke:Ue[A%Ue.length],scale:"%",paths:Ms(),points:{show:!1}})),nl("Limit",$l)],N=n.map((A,S)=>S);return[{width:0,height:ql,series:O,scales:{x:{time:!1,range:[-.5,n.length-.5]},"%":{range:(A,S,v)=>[0,Math.max(110,v)]}},axes:[As(n.map(A=>A[0])),Jl],legend:{live:!1}},[N,...P.map(A=>D[A]),N.map(()=>100)]]}function zi(e){let{rows:l,limits:o}=e.days;if(l.length===0)return null;let n=l.map((p,m)=>m),i=l.map(p=>p.day.slice(5)),a=[["Agent time",o?.timeMs??null,"agentMs"],["Prompts",o?.turns??null,"prompts"],["Tokens",o?.tokens??null,"tokens"],["Cost",o?.cost??null,"cost"]].filter(p=>p[1]!==null),f=[{}],h=[];return a.length===0?(f.push({label:"Agent time (min)",fill:Ue[0],stroke:Ue[0],paths:Ms(),points:{show:!1}}),h.push(l.map(p=>p.agentMs/6e4))):(a.forEach((p,m)=>{let y=p[1],d=Ue[m];f.push(It(p[0],d,"%",{points:{show:!0,size:7,fill:d}})),h.push(l.map(w=>100*w[p[2]]/y))}),f.push(nl("Daily limit",$l)),h.push(n.map(()=>100))),[{width:0,height:ql,series:f,scales:{x:{time:!1,range:[-.5,l.length-.5]},"%":{range:(p,m,y)=>[0,Math.max(110,y)]}},axes:[As(i),a.length===0?{}:Jl],legend:{live:!1}},[n,...h]]}function Vi(e,l){let o=e.report?.budgets[l];if(!o)return null;let{limits:n,startTime:i,until:a}=o,f=new Set([i,a]);for(let S of o.turns)f.add(S);for(let S of o.steps)f.add(S.at);for(let S of o.warnings)f.add(S.at);let h=[...f].filter(S=>S>=i&&S<=a).sort((S,v)=>S-v),p=[{}],m=[],y=h.map(()=>({tokens:0,cost:0})),d=h.map(()=>0),w=-1,D=0;h.forEach((S,v)=>{for(;w+1<o.steps.length&&(o.steps[w+1]?.at??Number.POSITIVE_INFINITY)<=S;)w++;for(;D<o.turns.length&&(o.turns[D]??Number.POSITIVE_INFINITY)<=S;)D++;y[v]=o.steps[w]??{tokens:0,cost:0},d[v]=D});let P=S=>y[S]??{tokens:0,cost:0};if(n.timeMs!==null){let S=n.timeMs;p.push(It("Time",Ue[0])),m.push(h.map(v=>100*(v-i)/S))}if(n.turns!==null){let S=n.turns;p.push(It("Turns",Ue[1],"%",{paths:ke.paths.stepped?.({align:1})})),m.push(d.map(v=>100*v/S))}let O=e.report?.measured;if(O?.tokens){let S=n.tokens,v={size:5};S!==null?(p.push(It("Tokens",Ue[2],"%",{points:v})),m.push(h.map((k,G)=>100*P(G).tokens/S))):(p.push(It("Tokens (right axis)",Ue[2],"tokens",{points:v})),m.push(h.map((k,G)=>P(G).tokens)))}if(O?.cost&&n.cost!==null){let S=n.cost;p.push(It("Cost",Ue[3])),m.push(h.map((v,k)=>100*P(k).cost/S))}p.push(nl("80% warning",Li),nl("95% warning",kn),nl("Limit",$l)),m.push(h.map(()=>80),h.map(()=>95),h.map(()=>100));let N=[vs,Jl];p.some(S=>S.scale==="tokens")&&N.push({scale:"tokens",side:1,grid:{show:!1},size:60});let A=[...o.turns.map(S=>({at:S,colour:"rgba(224,123,57,.35)"}))];return o.ending.kind!=="active"&&A.push({at:a,colour:kn}),[{width:0,height:ql,series:p,axes:N,scales:{x:{time:!0},"%":{range:(S,v,k)=>[0,Math.max(110,Math.ceil(k/10)*10)]}},hooks:{draw:[S=>Ri(S,A)]},legend:{live:!1}},[h.map(Tn),...m]]}function Fi(e){let l=e.report;if(!l||l.subagents.length===0)return null;let o=l.budgets[l.budgets.length-1],n=[...o?[{label:"Session",from:o.startTime,to:o.until,colour:Ue[0]}]:[],...l.subagents.map(p=>({label:p.parent===null?p.agentType:`\u21B3 ${p.agentType}`,from:p.startedAt,to:p.endedAt??l.now,colour:p.ended==="answered"?"#2f9e6e":p.ended===null?"#3b6fd8":kn}))],i=[...new Set(n.flatMap(p=>[p.from,p.to]))].sort((p,m)=>p-m),a=[{}],f=n.map((p,m)=>(a.push({label:p.label,stroke:p.colour,width:10,spanGaps:!0,scale:"lane",points:{show:!0,size:12,fill:p.colour}}),i.map(y=>y===p.from||y===p.to?m:null))),h=n.map(p=>p.label);return[{width:0,height:Math.max(140,50+n.length*34),series:a,scales:{x:{time:!0},lane:{range:[-.6,n.length-.4]}},axes:[vs,{scale:"lane",splits:()=>h.map((p,m)=>m),values:(p,m)=>m.map(y=>h[y]??""),size:110,grid:{show:!1}}],legend:{show:!1}},[i.map(Tn),...f]]}function af(){let e=document.getElementById("timebox-data");if(!e?.textContent)return;let l=JSON.parse(e.textContent);for(let o of document.querySelectorAll("figure[data-chart]")){let n=Number(o.dataset.index??0),i=o.dataset.chart==="budget"?Vi(l,n):o.dataset.chart==="subagents"?Fi(l):o.dataset.chart==="today"?Oi(l):zi(l);if(i===null)continue;let[a,f]=i;new ke({...a,width:Ci(o)},f,o)}}af();})();';
var UPLOT_CSS = '.uplot, .uplot *, .uplot *::before, .uplot *::after {box-sizing: border-box;}.uplot {font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji";line-height: 1.5;width: min-content;}.u-title {text-align: center;font-size: 18px;font-weight: bold;}.u-wrap {position: relative;user-select: none;}.u-over, .u-under {position: absolute;}.u-under {overflow: hidden;}.uplot canvas {display: block;position: relative;width: 100%;height: 100%;}.u-axis {position: absolute;}.u-legend {font-size: 14px;margin: auto;text-align: center;}.u-inline {display: block;}.u-inline * {display: inline-block;}.u-inline tr {margin-right: 16px;}.u-legend th {font-weight: 600;}.u-legend th > * {vertical-align: middle;display: inline-block;}.u-legend .u-marker {width: 1em;height: 1em;margin-right: 4px;background-clip: padding-box !important;}.u-inline.u-live th::after {content: ":";vertical-align: middle;}.u-inline:not(.u-live) .u-value {display: none;}.u-series > * {padding: 4px;}.u-series th {cursor: pointer;}.u-legend .u-off > * {opacity: 0.3;}.u-select {background: rgba(0,0,0,0.07);position: absolute;pointer-events: none;}.u-cursor-x, .u-cursor-y {position: absolute;left: 0;top: 0;pointer-events: none;will-change: transform;}.u-hz .u-cursor-x, .u-vt .u-cursor-y {height: 100%;border-right: 1px dashed #607D8B;}.u-hz .u-cursor-y, .u-vt .u-cursor-x {width: 100%;border-bottom: 1px dashed #607D8B;}.u-cursor-pt {position: absolute;top: 0;left: 0;border-radius: 50%;border: 0 solid;pointer-events: none;will-change: transform;/*this has to be !important since we set inline "background" shorthand */background-clip: padding-box !important;}.u-axis.u-off, .u-select.u-off, .u-cursor-x.u-off, .u-cursor-y.u-off, .u-cursor-pt.u-off {display: none;}';

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
  const text2 = files.read(file, offset, size - offset);
  const end = text2.lastIndexOf("\n");
  if (end < 0) return { lines: [], offset };
  const lines = [];
  for (const raw of text2.slice(0, end).split("\n")) {
    try {
      lines.push(JSON.parse(raw));
    } catch {
    }
  }
  return { lines, offset: offset + files.byteLength(text2.slice(0, end + 1)) };
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
    const text2 = `${JSON.stringify(line)}
`;
    const { before, after } = files.append(cache.useFile, text2);
    if (before === cache.useOffset && after === before + files.byteLength(text2)) {
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

// src/adapters/node/daily-ledger.ts
import { createHash } from "node:crypto";
import { closeSync as closeSync2, mkdirSync, openSync as openSync2, readdirSync, readSync as readSync2, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// src/adapters/node/append-line.ts
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
var nodeAppendFiles = {
  openAppend: (path) => openSync(path, "a+"),
  size: (fd) => fstatSync(fd).size,
  byteAt(fd, position) {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, position);
    return byte.toString("latin1");
  },
  write: (fd, text2) => {
    writeSync(fd, text2);
  },
  close: (fd) => closeSync(fd)
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
  return join(stateDirIn(env.XDG_STATE_HOME, env.HOME ?? homedir()));
}
function scopeFolder(scope) {
  return scope === "user" ? "user" : `project-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
}
var nodeDailyFiles = {
  join,
  makeDir: (path) => {
    mkdirSync(path, { recursive: true });
  },
  list: (path) => readdirSync(path),
  remove: (path) => rmSync(path, { recursive: true, force: true }),
  exists: (path) => statSync(path, { throwIfNoEntry: false }) !== void 0,
  size: (path) => statSync(path, { throwIfNoEntry: false })?.size ?? 0,
  read(path, offset, length) {
    const fd = openSync2(path, "r");
    try {
      const buffer = Buffer.alloc(length);
      const read = readSync2(fd, buffer, 0, length, offset);
      return buffer.subarray(0, read).toString("utf8");
    } finally {
      closeSync2(fd);
    }
  },
  byteLength: (text2) => Buffer.byteLength(text2, "utf8"),
  // A line torn by a process killed mid-write stays apart from the next (`append-line.ts`).
  append: (path, text2) => appendLine(path, text2),
  createExclusive(path, text2) {
    try {
      writeFileSync(path, text2, { flag: "wx" });
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

// src/adapters/report/day-use.ts
function fieldsOf2(line) {
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}
var amount = (value) => typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
function linesOf(files, path) {
  if (!files.exists(path)) return [];
  return files.read(path, 0, files.size(path)).split("\n").filter((line) => line.trim().length > 0);
}
function sessionsOfDay(files, folder, hostOf) {
  if (!files.exists(folder)) return [];
  const sessions = /* @__PURE__ */ new Map();
  const of = (fields2) => {
    if (typeof fields2.session !== "string") return null;
    let use = sessions.get(fields2.session);
    if (!use) {
      use = {
        session: fields2.session,
        host: hostOf(fields2.session),
        member: null,
        agentMs: 0,
        prompts: 0,
        tokens: 0,
        cost: 0
      };
      sessions.set(fields2.session, use);
    }
    if (typeof fields2.member === "string") use.member = fields2.member;
    return use;
  };
  for (const line of linesOf(files, files.join(folder, "use.jsonl"))) {
    const fields2 = fieldsOf2(line);
    const use = of(fields2);
    if (use === null) continue;
    use.agentMs += amount(fields2.agentMs);
    use.tokens += amount(fields2.tokens);
    use.cost += amount(fields2.cost);
  }
  for (const name of files.list(folder)) {
    if (!name.startsWith("prompt-")) continue;
    const use = of(fieldsOf2(linesOf(files, files.join(folder, name))[0] ?? ""));
    if (use !== null) use.prompts += 1;
  }
  return [...sessions.values()];
}
function useOfDays(files, scopeDir, days) {
  return days.map((day) => {
    const sessions = sessionsOfDay(files, files.join(scopeDir, day), () => null);
    return {
      day,
      agentMs: sessions.reduce((sum, one) => sum + one.agentMs, 0),
      prompts: sessions.reduce((sum, one) => sum + one.prompts, 0),
      tokens: sessions.reduce((sum, one) => sum + one.tokens, 0),
      cost: sessions.reduce((sum, one) => sum + one.cost, 0)
    };
  });
}
function lastDays(now, count4, localDay2) {
  const days = [];
  const date = new Date(now);
  for (let back = count4 - 1; back >= 0; back--) {
    const day = new Date(date.getFullYear(), date.getMonth(), date.getDate() - back, 12);
    days.push(localDay2(day.getTime()));
  }
  return days;
}

// src/adapters/report/page-html.ts
import { createHash as createHash2 } from "node:crypto";

// src/adapters/report/page-data.ts
function dataScriptText(data) {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

// src/adapters/report/page-html.ts
var PAGE_CSS = `:root{color-scheme:light;--ink:#1d2433;--muted:#5b6475;--line:#e3e6ec;--bg:#f7f8fa;--card:#fff;--accent:#3b6fd8}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
header{padding:28px 32px 8px;max-width:1200px;margin:0 auto}h1{font-size:26px;margin:0 0 4px;letter-spacing:-.01em}
header p{margin:0;color:var(--muted)}main{max-width:1200px;margin:0 auto;padding:8px 32px 40px}
section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px 24px;margin:18px 0}
h2{font-size:18px;margin:0 0 12px}h3{font-size:15px;margin:18px 0 8px;color:var(--muted);font-weight:600}
.pair{display:grid;grid-template-columns:minmax(0,3fr) minmax(280px,2fr);gap:24px;align-items:start}
@media (max-width:900px){.pair{grid-template-columns:1fr}}
figure.chart{margin:0;min-height:40px}figure.chart:empty{display:none}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:13.5px;margin:0 0 12px}
caption{text-align:left;font-weight:600;padding:0 0 6px;color:var(--ink)}
th,td{text-align:left;padding:5px 10px 5px 0;border-bottom:1px solid var(--line);vertical-align:top}
thead th{color:var(--muted);font-weight:600;font-size:12.5px;text-transform:uppercase;letter-spacing:.04em}
tbody th{font-weight:500}pre.report{background:#f1f3f7;border-radius:8px;padding:14px 16px;white-space:pre-wrap;font:13px/1.55 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}
ul.notes{margin:0;padding-left:18px;color:var(--muted);font-size:13.5px}.empty{color:var(--muted);margin:0}
.u-legend{font-size:12.5px}.u-title{font-size:14px;font-weight:600}`;
function cspHash(text2) {
  return `'sha256-${createHash2("sha256").update(text2, "utf8").digest("base64")}'`;
}
function chart(name, label, index = 0) {
  return `<figure class="chart" data-chart="${name}" data-index="${index}" role="img" aria-label="${escapeHtml(label)}"></figure>`;
}
function empty(text2) {
  return `<p class="empty">${escapeHtml(text2)}</p>`;
}
function sessionSection(data) {
  const report = data.report;
  if (report === null) return `<section id="session"><h2>This session</h2>${empty("No session was found.")}</section>`;
  const text2 = `<h3>What ${escapeHtml("/timebox report")} says</h3><pre class="report">${escapeHtml(report.text)}</pre>`;
  const budgets = report.budgets.map((budget, index) => {
    const label = `Budget ${index + 1} along the clock: the share of each limit used, the turns and the model calls`;
    const tables = `${budgetFiguresTable(budget, index, report)}${budgetEventsTable(budget)}`;
    return `<h3>Budget ${index + 1}: ${escapeHtml(budget.words)}</h3><div class="pair">${chart("budget", label, index)}<div>${tables}</div></div>`;
  }).join("");
  return `<section id="session"><h2>This session's budget</h2>${budgets}${text2}</section>`;
}
function subagentSection(data) {
  const report = data.report;
  if (report === null || report.subagents.length === 0) return "";
  const label = "Subagents as lanes under the session, from their start to their end";
  return `<section id="subagents"><h2>Subagents</h2>${chart("subagents", label)}${subagentsTable(report.subagents, report)}</section>`;
}
function todaySection(data) {
  const today = data.today;
  if (today === null) return `<section id="today"><h2>Today</h2>${empty("Nothing was used today.")}</section>`;
  const members = today.budgets[0]?.use.members ?? [];
  const sessions = `${today.sessions.length === 0 ? "" : todaySessionsTable(today)}${members.length === 0 ? "" : todayMembersTable(members)}`;
  if (today.budgets.length === 0) {
    return `<section id="today"><h2>Today</h2>${empty("No daily budget is set.")}${sessions}</section>`;
  }
  const team = members.length > 0 || today.sessions.some((session) => session.member !== null);
  const label = `Today's use of each daily limit, stacked by ${team ? "member" : "session"}, and what is left`;
  const text2 = `<h3>What ${escapeHtml("/timebox today")} says</h3><pre class="report">${escapeHtml(today.text)}</pre>`;
  return `<section id="today"><h2>Today</h2><div class="pair">${chart("today", label)}<div>${todayBudgetTable(today)}</div></div>${sessions}${text2}</section>`;
}
function daysSection(data) {
  const { rows, limits, note } = data.days;
  const said = note === void 0 ? "" : `<ul class="notes"><li>${escapeHtml(note)}</li></ul>`;
  if (rows.length === 0) return said === "" ? "" : `<section id="days"><h2>The last days</h2>${said}</section>`;
  const label = "Use per day against the daily limit";
  return `<section id="days"><h2>The last ${rows.length === 1 ? "day" : `${rows.length} days`}</h2><div class="pair">${chart("days", label)}<div>${daysTable(rows, limits)}${said}</div></div></section>`;
}
function suggestionSection(data) {
  const given = data.suggestion;
  if (given === void 0) return "";
  const { figures } = given.suggestion;
  const heading = `<h2>A suggested budget for ${escapeHtml(given.project)}</h2>`;
  const text2 = `<pre class="report">${escapeHtml(given.text)}</pre>`;
  if (figures === null) return `<section id="suggestion">${heading}${text2}</section>`;
  const said = `<h3>What ${escapeHtml("/timebox suggest")} says</h3>${text2}`;
  return `<section id="suggestion">${heading}${suggestionTable(figures, given.suggestion.sessions)}${said}</section>`;
}
function renderPage(data, assets) {
  const style = `${assets.css}
${PAGE_CSS}`;
  const csp = `default-src 'none'; img-src data:; style-src ${cspHash(style)}; script-src ${cspHash(assets.script)}`;
  const who = data.session === null ? "" : `Session ${escapeHtml(data.session.id)} on ${escapeHtml(data.session.host)}, `;
  const written3 = new Date(data.writtenAt);
  const day = written3.toISOString().slice(0, 10);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Timebox report${data.session === null ? "" : ` \xB7 ${escapeHtml(data.session.id)}`}</title>
<style>${style}</style></head>
<body><header><h1>Timebox report</h1><p>${who}written ${day} at ${clockTime(data.writtenAt)}.</p></header>
<main>${sessionSection(data)}${subagentSection(data)}${todaySection(data)}${teamSection(data.team)}${daysSection(data)}${suggestionSection(data)}</main>
<script type="application/json" id="timebox-data">${dataScriptText(data)}</script>
<script>${assets.script}</script>
</body></html>
`;
}

// src/adapters/report/write-page.ts
var PAGE_DAYS = 7;
var REPORTS_FOLDER = "reports";
function defaultPagePath(env, session) {
  const name = (session ?? "timebox").replace(/[^A-Za-z0-9._-]/g, "_");
  return join2(dailyStateDir(env), REPORTS_FOLDER, `${name}.html`);
}
function pageData(input, context) {
  const state = dailyStateDir(context.env);
  const day = localDay(context.now);
  const standing = input.standings[0];
  const hostOf = context.hostOf ?? ((id) => id === context.session?.id ? context.session.host : null);
  const scopeDir = nodeDailyFiles.join(state, "daily", scopeFolder(standing?.budget.scope ?? "user"));
  const count4 = context.days ?? PAGE_DAYS;
  const team = standing?.budget.team;
  const sessions = team ? [] : sessionsOfDay(nodeDailyFiles, nodeDailyFiles.join(scopeDir, day), hostOf);
  const rows = team ? context.teamDays?.(count4) ?? [] : useOfDays(nodeDailyFiles, scopeDir, lastDays(context.now, count4, localDay));
  const project = context.project ?? null;
  const history = project === null || context.pastSessions === void 0 ? null : context.pastSessions(project, context.session?.id ?? null);
  const suggestion = history === null ? null : suggestionOf(history.sessions, history.current);
  return {
    writtenAt: context.now,
    session: context.session,
    ...project === null || suggestion === null ? {} : { suggestion: { project, suggestion, text: suggestionText(suggestion) } },
    report: input.report,
    today: input.standings.length === 0 && sessions.length === 0 ? null : todayData(input.standings, sessions),
    days: {
      limits: standing?.budget.limits ?? null,
      rows,
      ...team ? { note: teamDaysNote(team.name, count4, context.teamDays !== void 0) } : {}
    },
    ...input.team ? { team: input.team } : {}
  };
}
function teamDaysNote(team, count4, read) {
  if (!read) return `The team ${team}'s last days are shown by npm run report, which reads them from the team's store.`;
  return count4 <= TEAM_DAYS_KEPT ? `The team ${team}'s days, as its store keeps them.` : `The team ${team}'s store keeps each day until the end of the next: the ${count4 - TEAM_DAYS_KEPT} days before yesterday are not kept, so not shown.`;
}
function writePageFile(data, path) {
  mkdirSync2(dirname(path), { recursive: true });
  writeFileSync2(path, renderPage(data, { script: PAGE_SCRIPT, css: UPLOT_CSS }));
  return path;
}
function writeReportPage2(input, context) {
  const path = context.out ?? defaultPagePath(context.env, context.session?.id ?? null);
  return writePageFile(pageData(input, context), path);
}

// src/entries/report/sources.ts
import { closeSync as closeSync5, openSync as openSync5, readdirSync as readdirSync3, readFileSync as readFileSync5, readSync as readSync4, statSync as statSync5 } from "node:fs";
import { join as join11, resolve as resolve2, sep } from "node:path";

// src/adapters/claude/function-hooks/on-stop.ts
function detached(argv) {
  const inOwnSession = `/bin/sh -c 'printf x; exec "$@" >/dev/null 2>&1 </dev/null' sh ${argv}`;
  return `if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; started=$($S ${inOwnSession} 2>/dev/null </dev/null &)`;
}
var DETACHED_WRAPPER_LINE = `[ -d "$2" ] || mkdir -p -- "$2" 2>/dev/null; ${detached('/bin/sh -c "$1" sh "$3" "$4"')}`;
function markKey(claim) {
  return `${claim.budgetId}.${claim.kind}`;
}

// src/adapters/claude/function-hooks/store.ts
var SESSION_KEY_PREFIX = "session:";
var RETENTION_MS = 30 * 24 * 60 * 60 * 1e3;
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function savedSession(value) {
  if (!isRecord(value)) return { history: [], claims: [] };
  const history = Array.isArray(value.history) ? value.history.filter(isRecord) : [];
  const claims = Array.isArray(value.claims) ? value.claims.filter(isRecord) : [];
  const saved = { history, claims };
  return typeof value.cwd === "string" ? { ...saved, cwd: value.cwd } : saved;
}
function claimedView(claims, budgetId, marks) {
  let view = { spent: null, off: false, nudged: false };
  for (const claim of claims) {
    if (claim.budgetId !== budgetId) continue;
    if (claim.kind === "spent") view = { ...view, spent: { ...claim.summary, prompt: claim.prompt } };
    else if (claim.kind === "off") view = { ...view, off: true };
    else if (claim.kind === "nudged") view = { ...view, nudged: true };
  }
  const intent = marks && isBudgetId(budgetId) ? onStopIntent(claims, budgetId, marks) : null;
  return intent ? { ...view, onStop: intent } : view;
}
function onStopIntent(claims, budgetId, marks) {
  const own = claims.filter((claim2) => claim2.budgetId === budgetId);
  const held = own.find(
    (claim2) => (claim2.kind === "spent" || claim2.kind === "ended") && typeof claim2.onStopCommand === "string"
  );
  const stop2 = own.find((claim2) => claim2.kind === "spent");
  const endsBy = stop2?.summary.wrapUpUntil;
  const waiting = held === void 0 && !own.some((claim2) => claim2.kind === "ended") && endsBy !== void 0 ? stop2 : void 0;
  const command2 = held?.onStopCommand ?? waiting?.onStopAtEnd;
  const from = held ?? waiting;
  if (command2 === void 0 || from === void 0) return null;
  const claim = { budgetId, kind: held?.kind ?? "ended" };
  return {
    claim,
    command: command2,
    claimedAt: typeof from.claimedAt === "number" ? from.claimedAt : 0,
    started: marks.started.has(markKey(claim)),
    // One Claude Code process holds a session: a claim made under another id was made by a process that ended.
    claimantAlive: from.instance === marks.instance,
    recovered: own.some((other) => other.kind === "onStopRecovered"),
    ...waiting === void 0 || endsBy === void 0 ? {} : { endsBy }
  };
}

// src/adapters/claude/hook-host.ts
import { join as join4 } from "node:path";

// src/adapters/hooks/roles.ts
function readHookEvent({ event, sessionId, fields: fields2 }, dialect) {
  const prompt = typeof fields2.prompt === "string" ? fields2.prompt : null;
  const subagents = dialect.subagents;
  const tool = textField(fields2, "tool_name");
  const input = fields2.tool_input;
  return {
    role: dialect.roles[event] ?? null,
    hostEvent: event,
    sessionId,
    promptId: dialect.promptId(fields2),
    prompt,
    command: commandWords(prompt, dialect.command),
    source: textField(fields2, "source"),
    transcriptPath: dialect.transcript ? textField(fields2, "transcript_path") : null,
    agent: subagents ? textField(fields2, "agent_id") : null,
    agentType: subagents ? textField(fields2, "agent_type") : null,
    spawn: subagents && tool !== null && typeof input === "object" && input !== null ? subagents.spawn(tool, input) : null,
    toolUseId: textField(fields2, "tool_use_id"),
    call: tool !== null && dialect.roles[event] === "beforeTool" ? { tool, input: input ?? null } : null,
    ended: subagents && dialect.roles[event] === "agentEnd" ? endedOf(subagents, fields2) : null,
    requestConfig: dialect.roles[event] === "modelRequest" ? configOf(fields2.llm_request) : null
  };
}
function configOf(request) {
  const config = typeof request === "object" && request !== null ? request.config : null;
  return typeof config === "object" && config !== null && !Array.isArray(config) ? config : null;
}
function endedOf(subagents, fields2) {
  const ended = subagents.ended(fields2);
  return ended === null ? null : { ...ended, reachesParent: subagents.endReachesParent };
}
function textField(fields2, key) {
  const value = fields2[key];
  return typeof value === "string" && value.length > 0 ? value : null;
}
function shownText(reply) {
  return reply.notices.length > 0 ? reply.notices.join("\n") : reply.refusal ?? "";
}
function commandWords(prompt, forms) {
  if (prompt === null) return null;
  const match = forms.exec(prompt.trim());
  return match ? match[1] ?? "" : null;
}

// src/adapters/hooks/reply-json.ts
function hookJson(reply, event) {
  if (event.role === "prompt" && (reply.answered || reply.refusal !== null)) {
    return { decision: "block", reason: shownText(reply) };
  }
  const json = {};
  if (reply.refusal !== null && reply.stop) {
    json.continue = false;
    json.stopReason = shownText(reply);
  } else if (reply.notices.length > 0) json.systemMessage = reply.notices.join("\n");
  if (reply.refusal !== null && event.role === "beforeTool") {
    json.hookSpecificOutput = {
      hookEventName: event.hostEvent,
      permissionDecision: "deny",
      permissionDecisionReason: reply.refusal
    };
  } else if (reply.refusal === null && reply.context.length > 0) {
    json.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: reply.context.join("\n\n") };
  }
  return Object.keys(json).length > 0 ? json : null;
}

// src/adapters/claude/setup.ts
import { existsSync, mkdirSync as mkdirSync3, readdirSync as readdirSync2, readFileSync, writeFileSync as writeFileSync3 } from "node:fs";
import { dirname as dirname2, join as join3 } from "node:path";
function statusLineCommand(script, theirs) {
  const own = `node ${shellQuote(script)} statusline`;
  return theirs === null ? own : `${own} --wrap ${shellQuote(theirs)}`;
}
function shellQuote(word) {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
function isRecord2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function mergeStatusLine(text2, script) {
  let settings = {};
  if (text2 !== null && text2.trim().length > 0) {
    try {
      settings = JSON.parse(text2);
    } catch {
      return { text: null, message: SETTINGS_NOT_JSON };
    }
  }
  if (!isRecord2(settings)) return { text: null, message: SETTINGS_NOT_OBJECT };
  const current = isRecord2(settings.statusLine) ? settings.statusLine : null;
  const theirs = current && typeof current.command === "string" ? current.command : null;
  if (theirs?.includes(" statusline") && /timebox\.[cm]js/.test(theirs)) {
    return { text: null, message: STATUS_LINE_ALREADY_SET };
  }
  const statusLine = { ...current, type: "command", command: statusLineCommand(script, theirs), refreshInterval: 1 };
  const merged = { ...settings, statusLine };
  return { text: `${JSON.stringify(merged, null, 2)}
`, message: statusLineSet(theirs !== null) };
}
function setupStatusLine(settingsFile, script) {
  const text2 = existsSync(settingsFile) ? readFileSync(settingsFile, "utf8") : null;
  const merged = mergeStatusLine(text2, script);
  if (merged.text !== null) {
    mkdirSync3(dirname2(settingsFile), { recursive: true });
    writeFileSync3(settingsFile, merged.text);
  }
  return merged.message;
}
var DATA_FOLDER_PREFIX = "timebox-";
function findDataDir(home, sessionId) {
  const root = join3(home, ".claude", "plugins", "data");
  let folders;
  try {
    folders = readdirSync2(root).filter((name) => name.startsWith(DATA_FOLDER_PREFIX));
  } catch {
    return null;
  }
  const withSession = folders.find((name) => existsSync(join3(root, name, "sessions", `${sessionId}.jsonl`)));
  const chosen = withSession ?? (folders.length === 1 ? folders[0] : void 0);
  return chosen === void 0 ? null : join3(root, chosen);
}

// src/adapters/claude/terms.ts
function claudeCodeTerms(mode) {
  return {
    name: "Claude Code",
    command: "/timebox",
    tokens: true,
    // The function hooks read the session's cost after each model call; the classic hooks are told nothing of it.
    cost: mode === "function hooks",
    dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" under "env" in ~/.claude/settings.json.',
    mode
  };
}

// src/adapters/hooks/transcript-read.ts
import { closeSync as closeSync3, openSync as openSync3, readSync as readSync3, statSync as statSync2 } from "node:fs";
var MAX_READ_BYTES = 8 * 1024 * 1024;
function fieldsOf3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}
function readTranscriptLines(usageOfLine3, path, offset, seen) {
  const nothing = { responses: [], offset, unreadable: false };
  let fd;
  try {
    fd = openSync3(path, "r");
  } catch {
    return nothing;
  }
  try {
    const size = statSync2(path).size;
    if (size <= offset) return { ...nothing, offset: Math.min(offset, size) };
    const buffer = Buffer.alloc(Math.min(size - offset, MAX_READ_BYTES));
    const read = readSync3(fd, buffer, 0, buffer.length, offset);
    const end = buffer.subarray(0, read).lastIndexOf(10);
    if (end < 0) return read === MAX_READ_BYTES ? { ...nothing, offset: offset + read } : nothing;
    const found = /* @__PURE__ */ new Set();
    const responses = [];
    let unreadable = false;
    let from = offset;
    for (const raw of buffer.subarray(0, end).toString("utf8").split("\n")) {
      const usage = usageOfLine3(raw, from);
      from += Buffer.byteLength(raw, "utf8") + 1;
      if (usage === "unreadable") unreadable = true;
      else if (usage && !seen.has(usage.id) && !found.has(usage.id)) {
        found.add(usage.id);
        responses.push(usage);
      }
    }
    return { responses, offset: offset + end + 1, unreadable };
  } catch {
    return nothing;
  } finally {
    closeSync3(fd);
  }
}

// src/adapters/claude/tokens.ts
function tokensOf(usage) {
  return responseTokens({
    input: usage.input_tokens,
    output: usage.output_tokens,
    cacheRead: usage.cache_read_input_tokens,
    cacheWrite: usage.cache_creation_input_tokens
  });
}

// src/adapters/claude/transcript-usage.ts
function usageOfLine(raw) {
  let line;
  try {
    line = fieldsOf3(JSON.parse(raw));
  } catch {
    return null;
  }
  if (line?.type !== "assistant") return null;
  const message = fieldsOf3(line.message);
  const usage = fieldsOf3(message?.usage);
  if (typeof message?.id !== "string" || !usage || typeof usage.input_tokens !== "number") return "unreadable";
  return { id: message.id, tokens: tokensOf(usage) };
}
function readTranscriptUsage(path, offset, seen) {
  return readTranscriptLines(usageOfLine, path, offset, seen);
}

// src/adapters/claude/hook-host.ts
var ROLES = {
  SessionStart: "sessionStart",
  UserPromptSubmit: "prompt",
  PreToolUse: "beforeTool",
  PostToolBatch: "beforeModelCall",
  Stop: "runEnd",
  SubagentStart: "agentStart",
  PostToolUse: "agentEnd"
};
var AGENT_TOOLS = /* @__PURE__ */ new Set(["Agent", "Task"]);
var CLAUDE_SUBAGENTS = {
  spawn: (tool, input) => {
    if (!AGENT_TOOLS.has(tool)) return null;
    const task = textField(input, "description") ?? textField(input, "prompt") ?? "";
    return { agentType: textField(input, "subagent_type") ?? "general-purpose", task };
  },
  // The Agent tool's PostToolUse: its result names the subagent (`agentId`) and holds its answer.
  ended: (fields2) => {
    const response = fields2.tool_response;
    if (!AGENT_TOOLS.has(textField(fields2, "tool_name") ?? "") || typeof response !== "object" || response === null) {
      return null;
    }
    const result = response;
    const agent = textField(result, "agentId");
    if (agent === null) return null;
    const tokens = result.totalTokens;
    return typeof tokens === "number" && tokens > 0 ? { agent, result: resultText(result.content), tokens } : { agent, result: resultText(result.content) };
  },
  endReachesParent: true
};
function resultText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map(
    (block) => typeof block === "object" && block !== null && "text" in block && typeof block.text === "string" ? block.text : ""
  ).join("\n");
}
var COMMAND = /^\/timebox(?::timebox)?(?:\s+([\s\S]*))?$/;
var claudeCodeHost = {
  name: "claude",
  terms: claudeCodeTerms("classic hooks"),
  read: (input) => readHookEvent(input, {
    roles: ROLES,
    command: COMMAND,
    promptId: (fields2) => textField(fields2, "prompt_id"),
    transcript: true,
    subagents: CLAUDE_SUBAGENTS
  }),
  write: hookJson,
  dataDir: () => null,
  readUsage: readTranscriptUsage,
  statusLine: {
    settings: (home) => join4(home, ".claude", "settings.json"),
    setup: setupStatusLine,
    script: (env) => env.CLAUDE_PLUGIN_ROOT ? join4(env.CLAUDE_PLUGIN_ROOT, "bin", "timebox.mjs") : null,
    findDataDir
  }
};

// src/adapters/codex/hook-host.ts
import { join as join5 } from "node:path";
var ROLES2 = {
  SessionStart: "sessionStart",
  UserPromptSubmit: "prompt",
  PreToolUse: "beforeTool",
  PostToolUse: "beforeModelCall",
  Stop: "runEnd",
  SubagentStart: "agentStart",
  SubagentStop: "agentEnd"
};
var CODEX_SUBAGENTS = {
  spawn: (tool, input) => tool === "spawn_agent" ? {
    agentType: textField(input, "agent_type") ?? "default",
    task: textField(input, "message") ?? textField(input, "task_name") ?? ""
  } : null,
  ended: (fields2) => {
    const agent = textField(fields2, "agent_id");
    return agent === null ? null : { agent, result: textField(fields2, "last_assistant_message") ?? "" };
  },
  endReachesParent: false
};
var COMMAND2 = /^\/?timebox(?:\s+([\s\S]*))?$/;
var codexCliHost = {
  name: "codex",
  terms: {
    name: "Codex",
    command: "timebox",
    tokens: false,
    cost: false,
    dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment codex starts in.'
  },
  read: (input) => readHookEvent(input, {
    roles: ROLES2,
    command: COMMAND2,
    // Codex names the prompt a hook belongs to `turn_id`.
    promptId: (fields2) => textField(fields2, "turn_id") ?? textField(fields2, "prompt_id"),
    transcript: false,
    subagents: CODEX_SUBAGENTS
  }),
  /**
   * No Codex hook can end a running turn: before a tool, `continue: false` fails the hook and the tool runs, so a stop
   * becomes a refusal of that tool, and so does every later tool of the turn, with the reason and what the model is to
   * do now (unless the reason says it already). A refusal that stops nothing reads as it is. Codex ends the reason with
   * a full stop of its own. The stop's text is the user's: it is shown.
   */
  write: (reply, event) => {
    const json = hookJson(reply, event);
    if (json === null || event.role !== "beforeTool" || reply.refusal === null) return json;
    const told = !reply.stop || reply.refusal.endsWith(FINISH_NOW);
    const reason = (told ? reply.refusal : `${reply.refusal} ${WRAP_UP_REFUSAL}`).replace(/\.$/, "");
    if (typeof json.stopReason === "string") {
      json.systemMessage = [json.systemMessage, json.stopReason].filter((text2) => typeof text2 === "string").join("\n");
    }
    delete json.continue;
    delete json.stopReason;
    json.hookSpecificOutput = {
      hookEventName: event.hostEvent,
      permissionDecision: "deny",
      permissionDecisionReason: reason
    };
    return json;
  },
  dataDir: (env, home) => join5(env.CODEX_HOME ?? join5(home, ".codex"), "timebox")
};

// src/adapters/gemini/hook-host.ts
import { join as join6 } from "node:path";

// src/adapters/gemini/transcript-usage.ts
import { statSync as statSync3 } from "node:fs";
function count2(value) {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
function usageOfLine2(raw, from) {
  let line;
  try {
    line = fieldsOf3(JSON.parse(raw));
  } catch {
    return null;
  }
  if (line?.type !== "gemini" || line.tokens === void 0) return null;
  const tokens = fieldsOf3(line.tokens);
  if (typeof line.id !== "string" || tokens === null || typeof tokens.input !== "number") return "unreadable";
  const parts = count2(tokens.input) + count2(tokens.output) + count2(tokens.thoughts) + count2(tokens.tool);
  return { id: line.id, tokens: count2(tokens.total) || parts, prompt: { input: count2(tokens.input), from } };
}
function readGeminiUsage(path, offset, seen) {
  return readTranscriptLines(usageOfLine2, path, offset, seen);
}
function transcriptSize(path) {
  try {
    return statSync3(path).size;
  } catch {
    return null;
  }
}

// src/adapters/gemini/hook-host.ts
var ROLES3 = {
  SessionStart: "sessionStart",
  BeforeAgent: "prompt",
  BeforeTool: "beforeTool",
  AfterTool: "beforeModelCall",
  BeforeModel: "modelRequest",
  AfterAgent: "runEnd"
};
var COMMAND3 = /^(?:TIMEBOX-CMD|\/timebox)(?:\s+([\s\S]*))?$/;
var geminiCliHost = {
  name: "gemini",
  terms: {
    name: "Gemini CLI",
    command: "/timebox",
    tokens: true,
    cost: false,
    dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment gemini starts in.'
  },
  read: (input) => readHookEvent(input, { roles: ROLES3, command: COMMAND3, promptId: () => null, transcript: true }),
  /**
   * A tool is refused with `decision: "deny"` (Gemini CLI has no `permissionDecision`); a stop reads as it is; a capped
   * request's settings go back whole, with the cap.
   */
  write: (reply, event) => {
    if (event.role === "modelRequest" && reply.maxOutputTokens !== void 0 && reply.refusal === null) {
      return cappedRequest(reply, event, reply.maxOutputTokens);
    }
    const json = hookJson(reply, event);
    const specific = json?.hookSpecificOutput;
    if (json === null || specific?.permissionDecision !== "deny") return json;
    delete json.hookSpecificOutput;
    if (json.continue !== false) {
      json.decision = "deny";
      json.reason = specific.permissionDecisionReason;
    }
    return json;
  },
  dataDir: (_env, home) => join6(home, ".gemini", "timebox"),
  unnamedPrompts: true,
  readUsage: readGeminiUsage,
  transcriptSize
};
function cappedRequest(reply, event, cap) {
  const config = event.requestConfig ?? {};
  const limit2 = config.maxOutputTokens;
  const maxOutputTokens = typeof limit2 === "number" && limit2 > 0 && limit2 < cap ? limit2 : cap;
  const json = {
    hookSpecificOutput: { hookEventName: event.hostEvent, llm_request: { config: { ...config, maxOutputTokens } } }
  };
  if (reply.notices.length > 0) json.systemMessage = reply.notices.join("\n");
  return json;
}

// src/adapters/hooks/load.ts
function ledgerView(budget, files) {
  const view = withLoggedClaims(readLedger(files.ledger, budget), budget, files.store);
  if (budget.id !== void 0 && !budget.id.startsWith(LEGACY_ID_PREFIX)) return view;
  const legacy = files.store.lines().filter(
    (line) => (line.kind === "spent" || line.kind === "nudged") && line.budgetStart === budget.startTime
  );
  const spent = legacy.find((line) => line.kind === "spent");
  return {
    ...view,
    nudged: view.nudged || legacy.some((line) => line.kind === "nudged"),
    spent: view.spent ?? (spent ? { usedTurns: spent.usedTurns, elapsedMs: spent.elapsedMs, timeRanOut: false, prompt: spent.promptId } : null)
  };
}
function loggedClaims(store) {
  return session_log_exports.linesOfKind(store.lines(), "claim").map((line) => line.claim);
}
function withLoggedClaims(view, budget, store) {
  const logged = loggedClaims(store);
  if (logged.length === 0) return view;
  const outcome = outcomeId(budget);
  const spent = logged.find(
    (claim) => claim.kind === "spent" && claim.budgetId === outcome
  );
  const recovered = logged.some((claim) => claim.kind === "onStopRecovered" && claim.budgetId === outcome);
  return {
    ...view,
    spent: view.spent ?? (spent ? { ...spent.summary, prompt: spent.prompt } : null),
    off: view.off || logged.some((claim) => claim.kind === "off" && claim.budgetId === budget.id),
    nudged: view.nudged || logged.some((claim) => claim.kind === "nudged" && claim.budgetId === outcome),
    ...view.onStop && recovered ? { onStop: { ...view.onStop, recovered } } : {}
  };
}

// src/adapters/node/file-ledger.ts
import { randomUUID } from "node:crypto";
import {
  closeSync as closeSync4,
  fsyncSync,
  linkSync,
  mkdirSync as mkdirSync4,
  openSync as openSync4,
  readFileSync as readFileSync2,
  rmSync as rmSync2,
  statSync as statSync4,
  writeSync as writeSync2
} from "node:fs";
import { join as join7 } from "node:path";

// src/adapters/node/node-time.ts
var systemClock = { now: () => Date.now() };

// src/adapters/node/file-ledger.ts
function fileOf(dir, budgetId, kind) {
  return join7(dir, `${checkedId(budgetId)}.${kind}.json`);
}
function checkedId(budgetId) {
  if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
  return budgetId;
}
function startMarkOf(dir, claim) {
  return join7(dir, `${checkedId(claim.budgetId)}.${claim.kind}.started`);
}
function isRecord3(value) {
  return typeof value === "object" && value !== null;
}
function isFile(path) {
  return statSync4(path, { throwIfNoEntry: false })?.isFile() === true;
}
function exists(path) {
  return statSync4(path, { throwIfNoEntry: false }) !== void 0;
}
function processAlive(pid) {
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
function readJson(file) {
  let text2;
  try {
    text2 = readFileSync2(file, "utf8");
  } catch (error) {
    return error.code === "EISDIR" ? {} : null;
  }
  try {
    const value = JSON.parse(text2);
    return isRecord3(value) ? value : {};
  } catch {
    return {};
  }
}
function numberOr2(value, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
function createFileLedger(dir, options = {}) {
  const { link = linkSync, clock = systemClock, pid = () => process.pid, alive = processAlive } = options;
  return {
    claim(claim) {
      const file = fileOf(dir, claim.budgetId, claim.kind);
      mkdirSync4(dir, { recursive: true });
      const draft = `${file}.${randomUUID()}.draft`;
      const fd = openSync4(draft, "wx");
      const record = { version: RECORD_VERSION, ...claim, pid: pid(), claimedAt: clock.now() };
      try {
        try {
          writeSync2(fd, `${JSON.stringify(record)}
`);
          fsyncSync(fd);
        } finally {
          closeSync4(fd);
        }
        link(draft, file);
        return true;
      } catch (error) {
        if (error.code === "EEXIST" && isFile(file)) return false;
        throw error;
      } finally {
        rmSync2(draft, { force: true });
      }
    },
    read(budgetId) {
      if (!isBudgetId(budgetId)) return { spent: null, off: false, nudged: false };
      const spent = readJson(fileOf(dir, budgetId, "spent"));
      const fields2 = spent && isRecord3(spent.summary) ? spent.summary : {};
      return {
        spent: spent ? {
          usedTurns: numberOr2(fields2.usedTurns, 0),
          elapsedMs: numberOr2(fields2.elapsedMs, 0),
          timeRanOut: fields2.timeRanOut === true,
          ...typeof fields2.wrapUpUntil === "number" && Number.isFinite(fields2.wrapUpUntil) ? { wrapUpUntil: fields2.wrapUpUntil } : {},
          ...fields2.limit === "tokens" || fields2.limit === "cost" ? { limit: fields2.limit } : {},
          ...fields2.noRoom === true ? { noRoom: true } : {},
          ...fields2.promptCounted === true ? { promptCounted: true } : {},
          ...typeof fields2.tokens === "number" && Number.isFinite(fields2.tokens) ? { tokens: fields2.tokens } : {},
          ...typeof fields2.cost === "number" && Number.isFinite(fields2.cost) ? { cost: fields2.cost } : {},
          prompt: typeof spent.prompt === "string" ? spent.prompt : null
        } : null,
        off: readJson(fileOf(dir, budgetId, "off")) !== null,
        nudged: readJson(fileOf(dir, budgetId, "nudged")) !== null,
        ...onStopOf(dir, budgetId, spent, alive)
      };
    },
    startMark: (claim) => startMarkOf(dir, claim)
  };
}
function onStopOf(dir, budgetId, spent, alive) {
  if (spent === null) return {};
  let kind = "spent";
  let claim = spent;
  let command2 = spent.onStopCommand;
  let endsBy;
  if (typeof command2 !== "string") {
    if (!isRecord3(spent.summary) || typeof spent.summary.wrapUpUntil !== "number") return {};
    kind = "ended";
    const ended = readJson(fileOf(dir, budgetId, "ended"));
    if (ended !== null) {
      claim = ended;
      command2 = ended.onStopCommand;
    } else {
      command2 = spent.onStopAtEnd;
      endsBy = spent.summary.wrapUpUntil;
    }
    if (typeof command2 !== "string") return {};
  }
  return {
    onStop: {
      claim: { budgetId, kind },
      command: command2,
      claimedAt: numberOr2(claim.claimedAt, 0),
      started: exists(startMarkOf(dir, { budgetId, kind })),
      claimantAlive: alive(claim.pid),
      recovered: readJson(fileOf(dir, budgetId, "onStopRecovered")) !== null,
      ...endsBy === void 0 ? {} : { endsBy }
    }
  };
}

// src/adapters/node/session-log.ts
import { mkdirSync as mkdirSync5, readFileSync as readFileSync3 } from "node:fs";
import { join as join8 } from "node:path";

// src/adapters/node/log-lines.ts
var text = (value) => typeof value === "string";
var count3 = (value) => typeof value === "number" && Number.isFinite(value);
var PROMPT_KINDS = /* @__PURE__ */ new Set(["call", "ended", "daily-stopped", "daily-ended", "prompt-dropped"]);
function readLogLine(fields2) {
  const kind = fields2.kind;
  if (kind === "active" || kind === "off" || kind === "subagents" || kind === "subagent") return { ...fields2, kind };
  if (kind === "prompt") {
    if (!text(fields2.promptId)) return null;
    const line = { kind: "prompt", promptId: fields2.promptId, at: atOf(fields2) };
    return text(fields2.cwd) ? { ...line, cwd: fields2.cwd } : line;
  }
  if (PROMPT_KINDS.has(String(kind))) {
    if (!text(fields2.promptId)) return null;
    if (count3(fields2.at)) return fields2;
    return { kind, promptId: fields2.promptId, at: 0 };
  }
  switch (kind) {
    case "usage":
      if (!text(fields2.responseId)) return null;
      return usageAsWritten(fields2) ? fields2 : usageLine(fields2, fields2.responseId);
    case "transcript":
      return count3(fields2.offset) ? { kind, offset: fields2.offset } : null;
    case "transcript-unreadable":
    case "default-said":
    case "told":
      return { kind, at: atOf(fields2) };
    case "untold":
      return { kind, notices: Array.isArray(fields2.notices) ? fields2.notices.map(String) : [], at: atOf(fields2) };
    case "daily-warned":
      return text(fields2.level) ? { kind, level: fields2.level, at: atOf(fields2) } : null;
    case "claim":
      return claimLine(fields2);
    case "spent":
      return count3(fields2.budgetStart) ? {
        kind,
        budgetStart: fields2.budgetStart,
        usedTurns: count3(fields2.usedTurns) ? fields2.usedTurns : 0,
        elapsedMs: count3(fields2.elapsedMs) ? fields2.elapsedMs : 0,
        promptId: text(fields2.promptId) ? fields2.promptId : null
      } : null;
    case "nudged":
      return count3(fields2.budgetStart) ? { kind, budgetStart: fields2.budgetStart } : null;
    case "spawn":
      return text(fields2.agentType) && text(fields2.task) ? {
        kind,
        id: text(fields2.id) ? fields2.id : null,
        agent: text(fields2.agent) ? fields2.agent : null,
        agentType: fields2.agentType,
        task: fields2.task,
        at: atOf(fields2)
      } : null;
    case "spawn-taken":
      return count3(fields2.index) && text(fields2.agent) ? { kind, index: fields2.index, agent: fields2.agent, at: atOf(fields2) } : null;
    case "spawn-refused":
      return text(fields2.agent) && text(fields2.reason) ? { kind, agent: fields2.agent, reason: fields2.reason, at: atOf(fields2) } : null;
    case "owed":
      return Array.isArray(fields2.lines) ? { kind, to: text(fields2.to) ? fields2.to : null, lines: fields2.lines.map(String), at: atOf(fields2) } : null;
    case "paid":
      return { kind, to: text(fields2.to) ? fields2.to : null, at: atOf(fields2) };
    case "tool":
      return text(fields2.promptId) && text(fields2.key) && (fields2.agent === null || text(fields2.agent)) ? { kind, promptId: fields2.promptId, agent: fields2.agent, key: fields2.key, at: atOf(fields2) } : null;
    default:
      return null;
  }
}
function atOf(fields2) {
  return count3(fields2.at) ? fields2.at : 0;
}
function usageAsWritten(fields2) {
  const { tokens, cost, at, offset, prompt } = fields2;
  return count3(tokens) && (cost === void 0 || count3(cost)) && (at === void 0 || count3(at)) && (offset === void 0 || count3(offset)) && (prompt === void 0 || promptOf(prompt).prompt !== void 0);
}
function usageLine(fields2, responseId) {
  return {
    kind: "usage",
    responseId,
    tokens: count3(fields2.tokens) ? fields2.tokens : 0,
    ...count3(fields2.cost) ? { cost: fields2.cost } : {},
    ...count3(fields2.at) ? { at: fields2.at } : {},
    ...count3(fields2.offset) ? { offset: fields2.offset } : {},
    ...promptOf(fields2.prompt)
  };
}
function promptOf(prompt) {
  if (typeof prompt !== "object" || prompt === null) return {};
  const { input, from } = prompt;
  return count3(input) && count3(from) ? { prompt: { input, from } } : {};
}
function claimLine(fields2) {
  const claim = fields2.claim;
  if (typeof claim !== "object" || claim === null) return null;
  const { kind, budgetId } = claim;
  if (!text(budgetId) || !["spent", "off", "nudged", "ended", "onStopRecovered"].includes(String(kind))) return null;
  return { kind: "claim", claim, at: atOf(fields2) };
}
function isFields3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function historyOf(lines) {
  const items = [];
  const counted = /* @__PURE__ */ new Set();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId, at: line.at });
    else if (line.kind === "prompt-dropped") dropPromptItem(items, line.promptId);
    else if (line.kind === "active" || line.kind === "off" || line.kind === "subagents" || line.kind === "subagent")
      items.push({ kind: "record", record: line });
    else if (line.kind === "usage" && !counted.has(line.responseId)) {
      counted.add(line.responseId);
      const { tokens, cost = 0 } = line;
      items.push({ kind: "usage", tokens, cost, ...line.at === void 0 ? {} : { at: line.at } });
    }
  }
  return items;
}
function eachLogLine(text2, add) {
  const raws = text2.split("\n");
  for (let index = 0; index < raws.length; index++) {
    const raw = raws[index];
    if (raw.length === 0) continue;
    try {
      const value = JSON.parse(raw);
      const line = isFields3(value) ? readLogLine(value) : null;
      if (line !== null) add(line);
    } catch {
    }
  }
}

// src/adapters/node/session-log.ts
var SessionLog = class extends SpecSessionStore {
  /**
   * `readOnce`: the file is read at the first look and kept, with what this log writes added (a hook is one short
   * process: it folds its session once); else every look reads the file again.
   */
  constructor(dataDir, sessionId, clock = systemClock, readOnce = false, files = nodeAppendFiles) {
    super();
    this.clock = clock;
    this.readOnce = readOnce;
    this.files = files;
    this.folder = join8(dataDir, "sessions");
    this.file = join8(this.folder, `${sessionId}.jsonl`);
  }
  clock;
  readOnce;
  files;
  folder;
  file;
  /** The lines as read once, with those written since, where the log is read once (one hook's life). */
  read = null;
  /** The working folder the session runs in, kept with each prompt where the host says it (`setCwd`). */
  cwd = null;
  /** Whether the file was not there (nor, maybe, its folder) when it was last read. */
  absent = false;
  append(record) {
    this.appendLine({ ...record });
  }
  /**
   * The working folder the session runs in, as the host says: each prompt's line keeps it, so that the sessions of a
   * project can be found (a suggested budget is made of them). Nothing for an empty folder.
   */
  setCwd(cwd) {
    this.cwd = cwd === null || cwd.length === 0 ? null : cwd;
    return this;
  }
  /** The working folder the session ran in: the first one a prompt's line kept, or null. */
  project() {
    const lines = this.lines();
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      if (line.kind === "prompt" && line.cwd !== void 0) return line.cwd;
    }
    return null;
  }
  /** Records a prompt that ran (the rules say which), at `at` or now. */
  appendPrompt(promptId, at = this.clock.now()) {
    this.appendLine(
      this.cwd === null ? { kind: "prompt", promptId, at } : { kind: "prompt", promptId, at, cwd: this.cwd }
    );
  }
  /** Records that a prompt it kept never ran after all (the rules say which): it counts for nothing from then on. */
  dropPrompt(promptId, at = this.clock.now()) {
    this.appendLine({ kind: "prompt-dropped", promptId, at });
  }
  /** Which model call of its run the prompt is at: the first, plus one for each call recorded after it. */
  stepOf(promptId) {
    let step = 1;
    for (const line of this.lines()) if (line.kind === "call" && line.promptId === promptId) step++;
    return step;
  }
  /**
   * Records what a response used, and how far the transcript it was read from was read (none for a host that reports
   * usage itself).
   */
  appendUsage(responseId, used, at, offset, prompt) {
    this.appendLine({
      kind: "usage",
      responseId,
      ...used,
      at,
      ...offset === void 0 ? {} : { offset },
      ...prompt === void 0 ? {} : { prompt }
    });
  }
  /** Keeps what a response used, as the rules say (`recordUsage`). */
  recordUsage(usage) {
    this.appendUsage(usage.responseId, usage.used, usage.at, usage.offset, usage.prompt);
  }
  /** The prompt of the latest response whose transcript record says where it begins, or null. */
  latestPrompt() {
    const lines = this.lines();
    for (let at = lines.length - 1; at >= 0; at--) {
      const line = lines[at];
      if (line?.kind === "usage" && line.prompt !== void 0) return line.prompt;
    }
    return null;
  }
  /** How far the transcript was read, and the responses already counted. */
  transcriptProgress() {
    let offset = 0;
    const seen = /* @__PURE__ */ new Set();
    for (const line of this.lines()) {
      if (line.kind === "usage") seen.add(line.responseId);
      const read = line.kind === "usage" || line.kind === "transcript" ? line.offset : void 0;
      if (read !== void 0) offset = Math.max(offset, read);
    }
    return { offset, seen };
  }
  /**
   * The log as history: budget records, prompts and what responses used, oldest first. A response two hooks counted at
   * once counts once.
   */
  history() {
    return historyOf(this.wholeLines());
  }
  /** The history as the rules fold it. */
  foldedHistory() {
    return foldHistory(this.history());
  }
  /** Whether the run of `promptId` ended. */
  runEnded(promptId) {
    return this.lines().some((line) => line.kind === "ended" && line.promptId === promptId);
  }
  /** Whether the log holds no readable line. */
  empty() {
    return this.lines().length === 0;
  }
  /** What a read of the log read past a kept summary of it: nothing, as this log keeps none (`FoldedSessionLog` does). */
  foldRead() {
    return null;
  }
  /** Keeps a fold of the log as its summary: nothing here, as this log keeps none. */
  keepFold(_fold) {
  }
  /**
   * Every readable line of the log, oldest first; a torn or hand-edited line is skipped. A log read from a kept summary
   * (`FoldedSessionLog`) may hold runs of prompts as one (the core's `KeptLine`).
   */
  lines() {
    return this.wholeLines();
  }
  /** Every readable line of the log, oldest first, as read whole. */
  wholeLines() {
    if (!this.readOnce) return this.readFile();
    this.read ??= this.readFile();
    return this.read;
  }
  /** Reads the file again at the next look (a watcher looks every second at what other processes wrote). */
  reread() {
    this.read = null;
  }
  /** Whether the log was not there (nor, maybe, its folder) when it was last read: read as empty. */
  missing() {
    return this.absent;
  }
  readFile() {
    let text2;
    this.absent = false;
    try {
      text2 = readFileSync3(this.file, "utf8");
    } catch (error) {
      const code = error.code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        this.absent = true;
        return [];
      }
      throw named(this.file, error);
    }
    const lines = [];
    eachLogLine(text2, (line) => lines.push(line));
    return lines;
  }
  /**
   * Appends one line; a single small append is written whole even when hooks run in parallel, and a line torn by a
   * process killed mid-write stays apart from it (`append-line.ts`).
   */
  appendLine(line) {
    mkdirSync5(this.folder, { recursive: true });
    appendLine(this.file, `${JSON.stringify(line)}
`, this.files);
    this.read?.push(JSON.parse(JSON.stringify(line)));
  }
};

// src/adapters/opencode/data-dir.ts
import { join as join9 } from "node:path";
var OPENCODE_FOLDER = "opencode";
function opencodeDataDir(env) {
  return join9(dailyStateDir(env), OPENCODE_FOLDER);
}

// src/adapters/opencode/terms.ts
var OPENCODE_TERMS = {
  name: "opencode",
  command: "/timebox",
  tokens: true,
  cost: true,
  dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment opencode starts in, or the plugin option "daily".'
};

// src/adapters/pi/prompt-key.ts
var KEY_TEXT_CHARS = 32;
var FNV_OFFSET = 2166136261;
var FNV_PRIME = 16777619;
function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map(
    (part) => typeof part === "object" && part !== null && typeof part.text === "string" ? part.text : ""
  ).join("");
}
function textHash(text2) {
  let hash = FNV_OFFSET;
  for (let index = 0; index < text2.length; index++) {
    hash ^= text2.charCodeAt(index);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
function promptKey(message) {
  const text2 = textOf(message.content);
  return `${String(message.timestamp)}:${text2.length}:${textHash(text2)}:${text2.slice(0, KEY_TEXT_CHARS)}`;
}

// src/adapters/pi/usage.ts
function amount2(value) {
  return typeof value === "number" && value > 0 && value < Number.POSITIVE_INFINITY ? value : 0;
}
var NO_USAGE = {};
function fieldsOf4(usage) {
  return typeof usage === "object" && usage !== null ? usage : NO_USAGE;
}
function tokensOf2(usage) {
  return responseTokens(fieldsOf4(usage));
}
function costOf(usage) {
  const cost = fieldsOf4(usage).cost;
  return typeof cost === "object" && cost !== null ? amount2(cost.total) : 0;
}

// src/adapters/pi/store.ts
function fieldsOf5(data) {
  return typeof data === "object" && data !== null ? data : {};
}
function recordItem(entry) {
  if (entry.customType === ACTIVE_ENTRY_TYPE) return { kind: "record", record: { kind: "active", budget: entry.data } };
  if (entry.customType === OFF_ENTRY_TYPE) return { kind: "record", record: { ...fieldsOf5(entry.data), kind: "off" } };
  if (entry.customType === SUBAGENTS_ENTRY_TYPE) {
    return { kind: "record", record: { ...fieldsOf5(entry.data), kind: "subagents" } };
  }
  if (entry.customType === SUBAGENT_ENTRY_TYPE) {
    return { kind: "record", record: { ...fieldsOf5(entry.data), kind: "subagent" } };
  }
  return null;
}
function historyOf2(entries, leafId = null) {
  const items = [];
  let usage = null;
  let parentId = null;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    if (entry.type === "session") continue;
    if (leafId !== null && entry.parentId !== parentId) return null;
    parentId = entry.id;
    let item = null;
    if (entry.type === "message") {
      const message = entry.message;
      if (message.role === "assistant") {
        const tokens = tokensOf2(message.usage);
        const cost = costOf(message.usage);
        if (usage !== null) {
          usage.tokens += tokens;
          usage.cost += cost;
          continue;
        }
        usage = typeof message.timestamp === "number" ? { kind: "usage", tokens, cost, at: message.timestamp } : { kind: "usage", tokens, cost };
        items.push(usage);
        continue;
      }
      if (message.role !== "user") continue;
      item = promptItem(message);
    } else if (entry.type === "custom") {
      item = recordItem(entry);
      if (item === null) continue;
    } else continue;
    usage = null;
    items.push(item);
  }
  return leafId === null || parentId === leafId ? items : null;
}
function promptItem(message) {
  let key = null;
  return {
    kind: "prompt",
    at: message.timestamp,
    get key() {
      key ??= promptKey(message);
      return key;
    }
  };
}

// src/adapters/report/found-session.ts
import { homedir as homedir2 } from "node:os";
import { resolve } from "node:path";
function homeOf(env) {
  return env.HOME ?? homedir2();
}
function sameFolder(a, b) {
  return a !== null && resolve(a) === resolve(b);
}

// src/adapters/report/past-sessions-cache.ts
import { mkdirSync as mkdirSync6, readFileSync as readFileSync4, renameSync, writeFileSync as writeFileSync4 } from "node:fs";
import { dirname as dirname3, join as join10 } from "node:path";
var NO_CACHE = { get: () => void 0, set: () => {
}, save: () => {
} };
function fileCache(env) {
  const path = join10(dailyStateDir(env), PAST_SESSIONS_FILE);
  const kept2 = readKept(path);
  let changed = false;
  return {
    get: (key, modified) => {
      const one = kept2.get(key);
      return one !== void 0 && one.modified === modified ? one : void 0;
    },
    set: (key, one) => {
      kept2.set(key, one);
      changed = true;
    },
    save: (listed) => {
      for (const key of kept2.keys()) {
        if (listed.has(key)) continue;
        kept2.delete(key);
        changed = true;
      }
      if (changed) writeKept(path, kept2);
    }
  };
}
function readKept(path) {
  try {
    const read = JSON.parse(readFileSync4(path, "utf8"));
    const sessions = typeof read === "object" && read !== null && "sessions" in read ? read.sessions : null;
    if (typeof sessions !== "object" || sessions === null) return /* @__PURE__ */ new Map();
    return new Map(Object.entries(sessions));
  } catch {
    return /* @__PURE__ */ new Map();
  }
}
function writeKept(path, kept2) {
  try {
    mkdirSync6(dirname3(path), { recursive: true });
    const next = `${path}.${process.pid}`;
    writeFileSync4(next, JSON.stringify({ sessions: Object.fromEntries(kept2) }));
    renameSync(next, path);
  } catch {
  }
}

// src/adapters/report/project-history.ts
function readProjectHistory(sessionsOf, project, current, cache = NO_CACHE) {
  const sessions = [];
  const found = sessionsOf(project);
  for (const session of found) {
    if (session.id === current) continue;
    const read = keptOf(session, cache);
    if (read === null || !sameFolder(read.project, project) || read.past === null) continue;
    sessions.push(read.past);
    if (sessions.length === SUGGEST_SESSIONS) break;
  }
  cache.save(new Set(found.map((session) => session.key)));
  return { sessions, current };
}
function keptOf(session, cache) {
  const kept2 = cache.get(session.key, session.modified);
  if (kept2 !== void 0) return kept2;
  try {
    const project = session.project();
    const read = { modified: session.modified, project, past: project === null ? null : session.past() };
    cache.set(session.key, read);
    return read;
  } catch {
    return null;
  }
}

// src/entries/report/sources.ts
function latestAt(lines) {
  let latest;
  for (const line of lines) {
    const at = "at" in line ? line.at : void 0;
    if (typeof at === "number" && Number.isFinite(at) && (latest === void 0 || at > latest)) latest = at;
  }
  return latest;
}
function entriesOf(folder) {
  try {
    return readdirSync3(folder);
  } catch {
    return [];
  }
}
function modifiedOf(path) {
  return statSync5(path).mtimeMs;
}
function logSessions(dataDir, host, terms) {
  const folder = join11(dataDir, "sessions");
  return entriesOf(folder).filter((name) => name.endsWith(".jsonl")).map((name) => {
    const id = name.slice(0, -".jsonl".length);
    const files = { store: new SessionLog(dataDir, id), ledger: createFileLedger(join11(dataDir, LEDGER_FOLDER)) };
    const once2 = new SessionLog(dataDir, id, void 0, true);
    return {
      id,
      host,
      key: join11(folder, name),
      modified: modifiedOf(join11(folder, name)),
      history: () => files.store.history(),
      ledger: (budget) => ledgerView(budget, files),
      terms,
      project: () => once2.project(),
      past: () => {
        const items = once2.history();
        const steps = terms.tokens ? items.filter((item) => item.kind === "usage").length : null;
        const endedAt = latestAt(once2.lines());
        return pastSession(items, {
          id,
          host: terms.name,
          ...endedAt === void 0 ? {} : { endedAt },
          steps,
          tokens: terms.tokens,
          cost: terms.cost
        });
      }
    };
  });
}
function jsonLines(path) {
  return jsonLinesOf(readFileSync5(path, "utf8"));
}
function jsonLinesOf(text2) {
  return text2.split("\n").flatMap((line) => {
    try {
      const value = JSON.parse(line);
      return typeof value === "object" && value !== null ? [value] : [];
    } catch {
      return [];
    }
  });
}
function piBranch(lines) {
  const entries = lines.filter((line) => line.type !== "session" && typeof line.id === "string");
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const path = [];
  for (let entry = entries[entries.length - 1]; entry !== void 0; entry = byId.get(entry.parentId)) {
    path.push(entry);
    if (path.length > entries.length) break;
  }
  return path.reverse();
}
function headerOf(path) {
  let text2 = "";
  const fd = openSync5(path, "r");
  try {
    const chunk = Buffer.alloc(4096);
    for (let read = readSync4(fd, chunk); read > 0 && !text2.includes("\n"); read = readSync4(fd, chunk)) {
      text2 += chunk.toString("utf8", 0, read);
    }
  } finally {
    closeSync5(fd);
  }
  const end = text2.indexOf("\n");
  return jsonLinesOf(end < 0 ? text2 : text2.slice(0, end))[0];
}
function piPast(path, id, host) {
  const entries = piBranch(jsonLines(path));
  let steps = 0;
  let endedAt;
  for (const entry of entries) {
    if (entry.type === "message" && entry.message.role === "assistant") steps++;
    const at = Date.parse(entry.timestamp);
    if (Number.isFinite(at) && (endedAt === void 0 || at > endedAt)) endedAt = at;
  }
  return pastSession(historyOf2(entries), {
    id,
    host,
    ...endedAt === void 0 ? {} : { endedAt },
    steps,
    tokens: true,
    cost: true
  });
}
function piSessions(agentDir, host = "pi", terms = DEFAULT_TERMS, project) {
  const root = join11(agentDir, "sessions");
  const ledger = createFileLedger(join11(agentDir, LEDGER_FOLDER));
  return entriesOf(root).flatMap((folder) => {
    const files = entriesOf(join11(root, folder)).filter((name) => name.endsWith(".jsonl"));
    if (project !== void 0) {
      const first = files[0];
      const cwd = first === void 0 ? void 0 : headerOf(join11(root, folder, first))?.cwd;
      if (typeof cwd !== "string" || !sameFolder(cwd, project)) return [];
    }
    return files.map((name) => {
      const path = join11(root, folder, name);
      const header = headerOf(path);
      const id = header?.type === "session" && typeof header.id === "string" ? header.id : name.replace(/^.*_/, "").slice(0, -".jsonl".length);
      return {
        id,
        host,
        key: path,
        modified: modifiedOf(path),
        history: () => historyOf2(piBranch(jsonLines(path))),
        ledger: (budget) => readLedger(ledger, budget),
        terms,
        project: () => typeof header?.cwd === "string" ? header.cwd : null,
        past: () => piPast(path, id, terms.name)
      };
    });
  });
}
function moduleSessions(storeDir) {
  return entriesOf(storeDir).flatMap((name) => {
    if (!name.startsWith("timebox")) return [];
    const path = join11(storeDir, name);
    let store;
    try {
      store = JSON.parse(readFileSync5(path, "utf8"));
    } catch {
      return [];
    }
    if (typeof store !== "object" || store === null) return [];
    return Object.entries(store).flatMap(([key, value]) => {
      if (!key.startsWith(SESSION_KEY_PREFIX)) return [];
      const saved = savedSession(value);
      const id = key.slice(SESSION_KEY_PREFIX.length);
      const terms = claudeCodeTerms("function hooks");
      return [
        {
          id,
          host: "claude",
          key: `${path}#${id}`,
          modified: modifiedOf(path),
          history: () => saved.history,
          ledger: (budget) => claimedView(saved.claims, budgetIdOf(budget)),
          terms,
          project: () => saved.cwd ?? null,
          // The module keeps a run's model calls as one usage: they are not counted.
          past: () => pastSession(saved.history, { id, host: terms.name, steps: null, tokens: terms.tokens, cost: terms.cost })
        }
      ];
    });
  });
}
var OMP_TERMS = { ...DEFAULT_TERMS, name: "oh-my-pi" };
function allSessions(env, home, project) {
  const piDir = env.PI_CODING_AGENT_DIR?.trim() ? env.PI_CODING_AGENT_DIR : join11(home, ".pi", "agent");
  const ompDir = join11(home, ".omp", "agent");
  const claudeData = join11(home, ".claude", "plugins", "data");
  const codexHome = env.CODEX_HOME ?? join11(home, ".codex");
  const codexData = join11(codexHome, "plugins", "data");
  const codexDirs = [join11(codexHome, "timebox"), ...entriesOf(codexData).map((name) => join11(codexData, name))];
  const codexs = (dir) => resolve2(dir).startsWith(`${resolve2(codexData)}${sep}`);
  const claudeDirs = (env.CLAUDE_PLUGIN_DATA ? [env.CLAUDE_PLUGIN_DATA] : entriesOf(claudeData).map((name) => join11(claudeData, name))).filter((dir) => !codexs(dir));
  return [
    ...piSessions(piDir, "pi", DEFAULT_TERMS, project),
    ...resolve2(ompDir) === resolve2(piDir) ? [] : piSessions(ompDir, "omp", OMP_TERMS, project),
    ...claudeDirs.flatMap((dir) => logSessions(dir, "claude", claudeCodeHost.terms)),
    ...moduleSessions(join11(home, ".claude", "plugins", "store")),
    ...logSessions(join11(home, ".gemini", "timebox"), "gemini", geminiCliHost.terms),
    ...codexDirs.flatMap((dir) => logSessions(dir, "codex", codexCliHost.terms)),
    ...logSessions(opencodeDataDir(env), "opencode", OPENCODE_TERMS)
  ].sort((a, b) => b.modified - a.modified);
}
function pastSessionsOf(env, home = homeOf(env)) {
  return (project, current) => readProjectHistory((folder) => allSessions(env, home, folder), project, current, fileCache(env));
}

// src/entries/report/cli.ts
import { resolve as resolve3 } from "node:path";

// src/adapters/team/ledger.ts
function runSync(step, store) {
  let next = step.next();
  while (!next.done) {
    const call = next.value;
    let reply;
    try {
      if (call.post) {
        store().post(call.script, call.keys, call.args);
        reply = { ok: true, value: null };
      } else reply = store().call(call.script, call.keys, call.args, call.timeoutMs);
    } catch (error) {
      reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    next = step.next(reply);
  }
  return next.value;
}
var TeamLedger = class {
  constructor(day, open) {
    this.day = day;
    this.open = open;
  }
  day;
  open;
  store = null;
  run(step) {
    return runSync(step, () => {
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
    this.run(this.day.addUse(budgets, use));
  }
  get team() {
    return this.day.team;
  }
  reserve(budgets) {
    this.run(this.day.reserve(budgets));
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
  keptDays(count4) {
    return this.run(this.day.keptDays(count4));
  }
  problem() {
    return this.day.problem();
  }
  dayUnread() {
    return this.day.dayUnread();
  }
};

// src/entries/daily-ledgers.ts
import { hostname } from "node:os";

// src/adapters/node/user-name.ts
import { readFileSync as readFileSync6 } from "node:fs";
import { userInfo } from "node:os";
var processSources = () => ({
  bun: process.versions.bun !== void 0,
  info: () => userInfo().username,
  passwd: () => readFileSync6("/etc/passwd", "utf8"),
  uid: process.geteuid?.(),
  env: process.env
});
function passwdName(text2, uid) {
  for (const line of text2.split("\n")) {
    const [name = "", , id] = line.split(":");
    if (name !== "" && id === String(uid)) return name;
  }
  return null;
}
function userName(sources = processSources()) {
  const { bun, info, passwd, uid, env } = sources;
  if (bun && uid !== void 0) {
    try {
      const name = passwdName(passwd(), uid);
      if (name !== null) return name;
    } catch {
    }
  }
  try {
    const name = info();
    const guessed = bun && name === "unknown" && env.USER === void 0;
    if (name !== "" && !guessed) return name;
  } catch {
  }
  const fromEnv = env.USER?.trim() || env.LOGNAME?.trim();
  return fromEnv || `uid-${uid ?? "unknown"}`;
}

// src/adapters/team/bridge.ts
import { existsSync as existsSync2 } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

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
   * session ARGV[2]) once, by its id (ARGV[8]): 1, else 0 when it was sent before. With ARGV[9] = 1 (use of a session
   * that had no daily budget of its own) only where the team's limits are kept: else it is let go, and 0.
   */
  send: `${COMMON}
if redis.call('SADD', KEYS[5], ARGV[8]) == 0 then return 0 end
if ARGV[9] == '1' and redis.call('EXISTS', (admin())) == 0 then keep(); return 0 end
if add() then join() end
keep()
return 1`,
  /** Reserves ARGV[4] tokens and ARGV[5] cost for the session's model call, for ARGV[6] ms at most. */
  reserve: `${COMMON}
redis.call('HSET', KEYS[4], ARGV[2], ARGV[4] .. ':' .. ARGV[5] .. ':' .. (nowMs() + tonumber(ARGV[6])))
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
   * set by ARGV[3] at ARGV[8] (epoch ms), the team's day starting at midnight in ARGV[9] (its zone); ARGV[4] = off
   * removes them. They never expire.
   */
  limits: `
redis.call('DEL', KEYS[1])
if ARGV[4] == 'off' then return 1 end
local fields = {'by', ARGV[3], 'at', ARGV[8]}
if ARGV[9] and ARGV[9] ~= '' then table.insert(fields, 'zone'); table.insert(fields, ARGV[9]) end
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

// src/adapters/team/bridge.ts
var BLOCKING_WAIT = {
  now: () => performance.now(),
  wait: (flag, seen, ms) => {
    Atomics.wait(flag, 0, seen, ms);
  }
};
var STORE_WORKER = "timebox-store.mjs";
var REPLY_BYTES = 256 * 1024;
function storeWorkerLocation(entry) {
  return new URL(STORE_WORKER, entry).href;
}
function openSyncStore(url, workerUrl, connectMs, callMs, replyWait = BLOCKING_WAIT) {
  if (!existsSync2(new URL(workerUrl))) throw new Error(`the store's client is missing (${fileURLToPath(workerUrl)})`);
  const buffer = new SharedArrayBuffer(8 + REPLY_BYTES);
  const flag = new Int32Array(buffer, 0, 2);
  const bytes = new Uint8Array(buffer, 8);
  const data = { url, connectMs, callMs, scripts: SCRIPTS, buffer };
  const worker = new Worker(new URL(workerUrl), { workerData: data });
  worker.unref();
  let died = null;
  worker.on("error", (error) => {
    died = `the client stopped: ${error.message}`;
  });
  let last = 0;
  const decoder = new TextDecoder();
  return {
    call(script, keys, args, timeoutMs) {
      if (died !== null) return { ok: false, error: died };
      const id = ++last;
      const message = { id, script, keys: [...keys], args: [...args], timeoutMs };
      worker.postMessage(message);
      const deadline = replyWait.now() + timeoutMs;
      for (; ; ) {
        const seen = Atomics.load(flag, 0);
        if (seen === id) break;
        const left = deadline - replyWait.now();
        if (left <= 0) return { ok: false, error: `no answer within ${timeoutMs} ms` };
        replyWait.wait(flag, seen, left);
      }
      return JSON.parse(decoder.decode(bytes.slice(0, Atomics.load(flag, 1))));
    },
    post(script, keys, args) {
      const message = { id: 0, script, keys: [...keys], args: [...args], timeoutMs: 0 };
      if (died === null) worker.postMessage(message);
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
  const mode = env[DAILY_STORE_FAILURE_ENV]?.trim() ?? "";
  const failure = mode === "" || mode.toLowerCase() === "open" ? "open" : "closed";
  const fail = (why) => failure === "open" ? { config: null, warning: teamSettingsUnusable(why) } : {
    config: null,
    warning: teamSettingsRefusal(why, DAILY_STORE_FAILURE_ENV, mode),
    closed: { name: team?.slice(0, 64) ?? "", zone: UTC }
  };
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
  if (!/^(\/\d{0,5})?$/.test(url.pathname))
    return fail(`${DAILY_STORE_ENV} ${shown} names no database by number (redis://${url.host}/0).`);
  if (team === void 0) return fail(`${DAILY_STORE_ENV} is set without ${TEAM_ENV} (the team's name).`);
  if (!TEAM_NAME.test(team))
    return fail(
      team.length > 64 ? `${TEAM_ENV} "${team.slice(0, 64)}\u2026" is not a team name: a team name is at most 64 characters.` : `${TEAM_ENV} "${team}" is not a team name (letters, digits, ".", "_", "-").`
    );
  const zone = env[TEAM_TZ_ENV]?.trim() || UTC;
  if (!knownZone(zone)) return fail(`${TEAM_TZ_ENV} "${zone.slice(0, 64)}" is not a time zone (Europe/Berlin, UTC).`);
  const note = failure === "closed" && mode.toLowerCase() !== "closed" ? { note: teamFailureModeUnread(DAILY_STORE_FAILURE_ENV, mode) } : {};
  return { config: { url: store, shown, team, zone, failure, member: member(), ...note }, warning: null };
}
var lastDays2 = /* @__PURE__ */ new Map();
function teamDay(ms, zone) {
  const last = lastDays2.get(zone);
  if (last !== void 0 && ms >= last.start && ms < last.end) return last;
  const date = zone === UTC ? utcDate(ms) : zoneDate(ms, zone);
  const found = {
    day: `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`,
    start: zone === UTC ? Date.UTC(date.year, date.month - 1, date.day) : midnight(date.year, date.month, date.day, zone),
    end: zone === UTC ? Date.UTC(date.year, date.month - 1, date.day + 1) : midnight(date.year, date.month, date.day + 1, zone)
  };
  lastDays2.set(zone, found);
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

// src/adapters/team/outage.ts
function storeAnswer(error) {
  if (/^NOPERM\b/.test(error) || error.includes("The user executing the script can't")) return "refused";
  if (/^(ERR|WRONGTYPE|NOSCRIPT)\b/.test(error)) return "error";
  return null;
}
function storeTexts(shown) {
  const answered = (why) => storeAnswer(why) === "error";
  return {
    unreachable: (why, closed) => teamStoreUnreachable(shown, why, closed, answered(why)),
    refusal: (why) => teamStoreRefusal(shown, why, answered(why)),
    denied: (why) => teamStoreDenied(shown, why)
  };
}
var Outage = class {
  constructor(closed, clock, texts, carried = null) {
    this.closed = closed;
    this.clock = clock;
    this.texts = texts;
    if (carried === null) {
      this.failure = null;
      return;
    }
    const now = clock.now();
    this.failure = { why: carried.why, until: carried.until > now + TEAM_RETRY_MS ? now : carried.until };
    this.said = true;
    this.untold = texts.unreachable(carried.why, closed);
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
  /**
   * The store failed: it is left alone for a while, and the session is told once. While it stays down, why is why it
   * first failed: one outage is said in one set of words, however its later tries fail.
   */
  failed(why) {
    this.failure = { why: this.failure?.why ?? why, until: this.clock.now() + TEAM_RETRY_MS };
    if (this.said) return;
    this.said = true;
    this.untold = this.texts.unreachable(why, this.closed);
  }
  /** The store answered: a failure carried from the session's last process is not said any more. */
  answered() {
    this.failure = null;
    this.deniedWhy = null;
    this.untold = null;
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
    const text2 = this.untold;
    this.untold = null;
    return text2;
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

// src/adapters/team/outbox.ts
import { randomUUID as randomUUID2 } from "node:crypto";
import { mkdirSync as mkdirSync7, readdirSync as readdirSync4, readFileSync as readFileSync7, renameSync as renameSync2, rmSync as rmSync3, statSync as statSync6 } from "node:fs";
import { join as join12 } from "node:path";
var UNSENT = "unsent.jsonl";
var SENDING = /^sending-.+\.jsonl$/;
function isUnsent(value) {
  if (typeof value !== "object" || value === null) return false;
  const entry = value;
  const numbers = ["dayEnd", "prompts", "agentMs", "tokens", "cost"].every(
    (name) => typeof entry[name] === "number" && Number.isFinite(entry[name]) && entry[name] >= 0
  );
  const texts = ["id", "day", "session", "member"].every((name) => typeof entry[name] === "string");
  return numbers && texts && (entry.unheld === void 0 || entry.unheld === true);
}
function entriesOf2(text2) {
  const entries = [];
  for (const line of text2.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line);
      if (isUnsent(entry)) entries.push(entry);
    } catch {
    }
  }
  return entries;
}
function fileOutbox(folder, newId = randomUUID2) {
  const missing = (error) => error.code === "ENOENT";
  return {
    keep(use) {
      mkdirSync7(folder, { recursive: true });
      appendLine(join12(folder, UNSENT), `${JSON.stringify({ id: newId(), ...use })}
`);
    },
    waiting() {
      try {
        return readdirSync4(folder).some((name) => name === UNSENT || SENDING.test(name));
      } catch {
        return false;
      }
    },
    take() {
      try {
        renameSync2(join12(folder, UNSENT), join12(folder, `sending-${Date.now()}-${newId()}.jsonl`));
      } catch {
      }
      const names = readdirSync4(folder).filter((name) => SENDING.test(name)).sort();
      const batches = [];
      for (const name of names) {
        const path = join12(folder, name);
        let text2;
        try {
          text2 = readFileSync7(path, "utf8");
        } catch (error) {
          if (missing(error)) continue;
          throw error;
        }
        const read = Buffer.byteLength(text2);
        const sent = () => {
          if (sizeOf(path) <= read) rmSync3(path, { force: true });
        };
        batches.push({ entries: entriesOf2(text2), sent });
      }
      return batches;
    }
  };
}
function sizeOf(path) {
  try {
    return statSync6(path).size;
  } catch {
    return 0;
  }
}
function outboxFolder(stateDir, team) {
  return join12(stateDir, "team", `team-${team}`);
}

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
function amount3(text2) {
  const value = Number(text2);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
function limit(text2) {
  const value = amount3(text2);
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
  return { limits, setBy: hash.get("by") ?? "someone", setAt: amount3(hash.get("at")) };
}
function adjustmentOf(hash) {
  return {
    addTimeMs: amount3(hash.get("addTimeMs")),
    addPrompts: amount3(hash.get("addPrompts")),
    addTokens: amount3(hash.get("addTokens")),
    addCost: amount3(hash.get("addCost")),
    off: hash.get("off") === "1"
  };
}
function askOf(id, text2) {
  let value;
  try {
    value = JSON.parse(text2);
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
    at: amount3(ask.at)
  };
}
function asksOf(hash) {
  const asks = [];
  for (const [id, text2] of hash) {
    const ask = askOf(id, text2);
    if (ask !== null) asks.push(ask);
  }
  return asks.sort((a, b) => a.at - b.at);
}
function askText(member, adjustment, why, at) {
  const { addTimeMs, addPrompts, addTokens, addCost } = adjustment;
  return JSON.stringify({ member, addTimeMs, addPrompts, addTokens, addCost, why, at });
}
function dayReading(value, dayStart) {
  const [useFields, whoFields, sessions, reservedTokens, reservedCost, limits, raise2] = listReply(value);
  const use = fields(useFields);
  const members = [...fields(whoFields)].map(([name, count4]) => ({ name, sessions: amount3(count4) }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  return {
    use: {
      agentMs: amount3(use.get("agentMs")),
      prompts: amount3(use.get("prompts")),
      // The model calls other sessions are making count as what they reserved, until their answers settle them.
      tokens: amount3(use.get("tokens")) + amount3(reservedTokens),
      cost: amount3(use.get("cost")) + amount3(reservedCost),
      sessions: amount3(sessions),
      members
    },
    stored: storedLimitsOf(fields(limits)),
    raise: adjustmentOf(fields(raise2)),
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
function written2(calls, reply) {
  return reply.ok ? "done" : notDone(calls, reply.error);
}
function common(calls, expiry) {
  return [expiry, calls.sessionId, calls.config.member];
}
function* viewTeam(calls) {
  const { day, expiry } = calls.day;
  const reply = yield* calls.send("view", dayKeys(calls.config.team, day), common(calls, expiry));
  if (!reply.ok) {
    const { shown } = calls.config;
    const answer = storeAnswer(reply.error);
    if (answer === "refused") return { unreadable: teamViewRefused(shown, reply.error) };
    if (answer === "error") return { unreadable: teamViewUnreadable(shown, reply.error) };
    return { unreadable: teamStoreNotReached(shown, reply.error, true) };
  }
  const [limits, asks] = listReply(reply.value);
  return { stored: storedLimitsOf(fields(limits)), asks: asksOf(fields(asks)) };
}
function* setLimits(calls, limits) {
  const values = limits === null ? ["off", "", "", ""] : [limits.timeMs, limits.turns, limits.tokens, limits.cost].map((v) => v ?? "");
  const args = [...common(calls, 0), ...values, calls.now, calls.zone];
  return written2(calls, yield* calls.send("limits", [adminKeys(calls.config.team, calls.day.day).limits], args));
}
function* raise(calls, adjustment) {
  const view = yield* viewTeam(calls);
  const answered = "unreadable" in view ? [] : requestsAnswered(view.asks, adjustment);
  const { day, expiry } = calls.day;
  const { addTimeMs, addPrompts, addTokens, addCost, off } = adjustment;
  const keys = [adminKeys(calls.config.team, day).raise, dayKeys(calls.config.team, day)[5]];
  const args = [...common(calls, expiry), addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0, ...answered];
  return yield* calls.send("raise", keys, args);
}
function* raiseDay(calls, adjustment) {
  return written2(calls, yield* raise(calls, adjustment));
}
function* askMore(calls, adjustment, why) {
  const { day, expiry } = calls.day;
  const id = `${calls.now}-${calls.sessionId}-${Math.random().toString(36).slice(2, 10)}`;
  const text2 = askText(calls.config.member, adjustment, why, calls.now);
  const args = [...common(calls, expiry), id, text2, TEAM_ASKS_KEPT];
  const reply = yield* calls.send("ask", dayKeys(calls.config.team, day), args);
  if (reply.ok && reply.value === 0) return { failed: teamAsksFull(TEAM_ASKS_KEPT) };
  return written2(calls, reply);
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
    agentMs: amount3(use.get("agentMs")),
    prompts: amount3(use.get("prompts")),
    tokens: amount3(use.get("tokens")) + amount3(reservedTokens),
    cost: amount3(use.get("cost")) + amount3(reservedCost)
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
    this.ownZone = config.zone;
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
  /** The store answered a call that does not send (the admin's, the team's view) after it was down: still to send. */
  backUnsent = false;
  /** This machine's own zone (TIMEBOX_TEAM_TZ, else UTC); `config.zone` is the team's once a reading said it. */
  ownZone;
  /** Counts the team's day in `zone` from now on, where it is one Intl knows: whether it changed. */
  takeZone(zone) {
    if (typeof zone !== "string" || zone === this.config.zone || !knownZone(zone)) return false;
    this.config = { ...this.config, zone };
    return true;
  }
  /**
   * The zone the admin keeps with the limits, from a reading of today (the read script's reply): where it is not the
   * one the day was read in, it is taken, said once, and the day is to be read again. Whether it was.
   */
  learnZone(reading) {
    const own = this.config.zone;
    if (!this.takeZone(fields(listReply(reading)[5]).get("zone"))) return false;
    this.untold.push(teamZoneOfStore(this.config.team, this.config.zone, own));
    return true;
  }
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
  /**
   * Keeps use the store could not take in this machine's outbox, for the team's day of now; `unheld`: only for a team
   * whose store keeps limits when it is sent (the session had no daily budget of its own).
   */
  keep(use, unheld = false) {
    if (use.prompts === 0 && use.agentMs === 0 && use.tokens === 0 && use.cost === 0) return;
    const day = teamDay(this.clock.now(), this.config.zone);
    const member = this.config.member;
    try {
      this.outbox.keep({
        day: day.day,
        dayEnd: day.end,
        session: this.sessionId,
        member,
        ...use,
        ...unheld ? { unheld } : {}
      });
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
          const use = [entry.agentMs, entry.tokens, entry.cost, entry.prompts, entry.id, entry.unheld ? 1 : 0];
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
    const wasDown = this.outage.down || this.backUnsent;
    const reply = yield* this.request(script, keys, [...this.common(day), ...args]);
    if (reply.ok && script === "read" && dayName === void 0 && this.learnZone(reply.value))
      return yield* this.call(script, args);
    if (!reply.ok || this.outboxSeen && !wasDown) return reply;
    this.outboxSeen = true;
    this.backUnsent = false;
    if ((yield* this.sendKept()) && script === "read")
      return yield* this.request(script, keys, [...this.common(day), ...args]);
    return reply;
  }
  /**
   * One script on `keys`; a failure is the outage policy's (said once, the store left alone for a while). A store that
   * answered is not down: its refusal of this user is the policy's own outcome (for a call of the team's day, new turns
   * are refused), and an error it answered a write with (`write`: the admin's, a request) is that write's alone.
   */
  *request(script, keys, args, write2 = false) {
    const waiting = this.outage.waiting();
    if (waiting !== null) {
      this.tell();
      return { ok: false, error: waiting };
    }
    const timeoutMs = this.callOptions.waitMs ?? (this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS);
    this.calledOnce = true;
    const reply = yield { script, keys, args, timeoutMs };
    if (reply.ok) {
      if (this.outage.down) this.backUnsent = true;
      this.outage.answered();
      return reply;
    }
    const why = this.hidden(reply.error);
    const answer = storeAnswer(why);
    if (answer !== null && write2) return { ok: false, error: why };
    if (answer === "refused") this.outage.denied(why);
    else this.outage.failed(why);
    this.tell();
    return { ok: false, error: why };
  }
  /** What the outage policy has to say, to say with the session's next answer. */
  tell() {
    const said = this.outage.told();
    if (said !== null) this.untold.push(said);
  }
  /** An error's text without the store's password or full address. */
  hidden(error) {
    return hidePassword(error, this.config.url, this.config.shown);
  }
};
function fixedRefusal(text2) {
  return storeAnswer(text2) === "refused" || /^(WRONGPASS|NOAUTH)\b/.test(text2);
}
function hidePassword(error, url, shown) {
  let text2 = error.split(url).join(shown);
  const password = new URL(url).password;
  if (password !== "" && !fixedRefusal(text2)) {
    for (const written3 of /* @__PURE__ */ new Set([password, decodeURIComponent(password)])) {
      const escaped = written3.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      text2 = text2.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "gu"), "***");
    }
  }
  return text2.trim() || "no answer";
}

// src/adapters/team/team-day.ts
var NOTHING = { prompts: 0, agentMs: 0, tokens: 0, cost: 0 };
var TeamDay = class extends TeamStoreCalls {
  constructor(config, local, sessionId, clock, outbox, options = {}) {
    super(config, sessionId, clock, outbox, storeTexts(config.shown), options, options.carried?.failed ?? null);
    this.local = local;
    const carried = options.carried;
    if (carried) this.lastCall = { ...carried.lastCall };
    this.takeZone(carried?.zone);
    if (config.note !== void 0) this.untold.push(config.note);
  }
  local;
  /** What this session's last model call used: what its next one reserves. */
  lastCall = { tokens: 0, cost: 0 };
  /** Why the day could not be read at the last reading, or null. */
  unread = null;
  /** What the next process of this session takes over (`TeamLedgerOptions.carried`). */
  carry() {
    const zone = this.config.zone === this.ownZone ? {} : { zone: this.config.zone };
    return { lastCall: { ...this.lastCall }, failed: this.outage.carry(), ...zone };
  }
  /** The team whose store this day is counted in. */
  get team() {
    return teamOf(this.config);
  }
  *standings(budgets) {
    const reply = yield* this.call("read", []);
    const day = teamDay(this.clock.now(), this.config.zone);
    this.unread = reply.ok ? null : unreadDay(reply.error, this.config.shown);
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
    if (store.budgets.length === 0) {
      if (this.keepsUnheld()) this.keep({ ...NOTHING, prompts: 1 }, true);
      return true;
    }
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
    const added = {
      prompts: 0,
      agentMs: Math.round(use.agentMs ?? 0),
      tokens: Math.round(use.tokens ?? 0),
      cost: use.cost ?? 0
    };
    if (store.budgets.length === 0) {
      if (this.keepsUnheld()) this.keep(added, true);
      return;
    }
    if (use.tokens !== void 0 || use.cost !== void 0) this.lastCall = { tokens: added.tokens, cost: added.cost };
    if ((yield* this.call("use", [added.agentMs, added.tokens, added.cost, 0])).ok || this.outage.refusing) return;
    this.keep(added);
    if (own.budgets.length > 0) this.local.addUse(own.budgets, use);
  }
  /**
   * Whether a session with no daily budget in force is to keep what it uses, to send once the store answers: while the
   * store is down (here, or in the session's last process), whether it keeps limits is not known, and the limits it
   * may keep cover the session (a member set up with the store and the team alone). A store that refuses this user is
   * no outage: nothing is kept.
   */
  keepsUnheld() {
    return this.outage.down && !this.outage.refusing;
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
   * Raises a budget for the rest of the day, or ends it: the team's day (its store's limits, or a machine's own limits
   * as the team's) by the admin's raise, which a member's user is refused, and a store that cannot be reached does not
   * take: nothing changes then, nor on this machine instead (it cannot tell an admin from a member); a personal cap on
   * this machine.
   */
  *adjust(budget, adjustment) {
    const full = { ...NO_ADJUSTMENT, ...adjustment };
    if (!countsInStore(budget)) return this.local.adjust(budget, full);
    return yield* raiseDay(this.admin(), full);
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
      zone: this.ownZone,
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
  *keptDays(count4) {
    const today = yield* this.call("read", []);
    const days = [];
    const todayName = teamDay(this.clock.now(), this.config.zone).day;
    let day = teamDay(this.clock.now(), this.config.zone);
    for (let kept2 = 0; kept2 < Math.min(count4, TEAM_DAYS_KEPT); kept2++) {
      days.unshift(day.day);
      day = teamDay(day.start - 1, this.config.zone);
    }
    const rows = [];
    for (const name of days) {
      const reply = name === todayName ? today : yield* this.call("read", [], name);
      if (!reply.ok) return [];
      rows.push(dayRowOf(name, reply.value));
    }
    return rows;
  }
  problem() {
    return this.untold.shift() ?? this.local.problem();
  }
  /** Why the day could not be read at the last reading (the store's answer or failure), or null. */
  dayUnread() {
    return this.unread;
  }
};
function unreadDay(why, shown) {
  return storeAnswer(why) === "refused" ? teamDayRefused(why, shown) : teamDayUnread(why, shown);
}

// src/adapters/team/told.ts
function firstTold(problem, told) {
  let text2 = problem();
  while (text2 !== null && told !== void 0 && !told.first(text2)) text2 = problem();
  return text2;
}

// src/adapters/team/unusable.ts
function saying(warning, ledger, session, closed) {
  let told = false;
  return {
    team: { unusable: warning },
    standings(budgets) {
      const own = ledger.standings(budgets);
      if (closed === void 0) return own;
      if (own.length === 0)
        return [closedTeamStanding(closed.team, warning, teamDay(closed.clock.now(), closed.team.zone).start)];
      return own.map((standing) => ({ ...standing, closed: warning }));
    },
    countPrompt: (budgets, limits) => closed === void 0 && ledger.countPrompt(budgets, limits),
    addUse: (budgets, use) => ledger.addUse(budgets, use),
    adjust: (budget, adjustment) => ledger.adjust(budget, adjustment),
    problem() {
      if (!told) {
        told = true;
        if (session === void 0 || session.first(warning)) return warning;
      }
      return firstTold(() => ledger.problem(), session);
    }
  };
}

// src/entries/daily-ledgers.ts
function memberName(host) {
  return `${userName()}@${hostname()} (${host})`;
}
function machineLedger(create, told) {
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
    problem: () => firstTold(() => get().problem(), told)
  };
}
function opening(options) {
  const { env, sessionId, clock, told } = options;
  const stateDir = dailyStateDir(env);
  const { config, warning, closed } = readTeam(env, options.settings ?? {}, () => memberName(options.host));
  const create = () => createDailyLedger(stateDir, sessionId, clock);
  if (warning !== null) {
    const refusing = closed && { team: closed, clock };
    return { local: saying(warning, machineLedger(create), told, refusing), team: null };
  }
  if (config === null) return { local: machineLedger(create, told), team: null };
  const created = machineLedger(create);
  const outbox = fileOutbox(outboxFolder(stateDir, config.team));
  const team = options.team ?? carriedBy(told);
  return { local: created, team: { config, day: new TeamDay(config, created, sessionId, clock, outbox, team) } };
}
function carriedBy(told) {
  return told === void 0 ? {} : { carried: { lastCall: { tokens: 0, cost: 0 }, failed: told.failed() } };
}
function openDailyLedger(options) {
  const { local, team } = opening(options);
  if (team === null) return local;
  const open = () => openSyncStore(team.config.url, storeWorkerLocation(options.entry), TEAM_CONNECT_MS, TEAM_CALL_MS);
  return new TeamLedger(team.day, open);
}

// src/entries/report/cli.ts
var REPORT_USAGE = 'usage: npm run report -- [--session <id> [--or-day]] [--days <1-90>] [--out <file.html>] [--daily "<daily budget>"] | --suggest [--project <folder>] [--json]';
var MAX_PAGE_DAYS = 90;
var FLAGS = /* @__PURE__ */ new Set(["--suggest", "--json", "--or-day"]);
function readOptions(args) {
  const options = { session: null, days: PAGE_DAYS, out: null, daily: null };
  const flags = new Set(args.filter((arg) => FLAGS.has(arg)));
  let project = null;
  const valued = args.filter((arg) => !FLAGS.has(arg));
  for (let index = 0; index < valued.length; index += 2) {
    const name = valued[index];
    const value = valued[index + 1];
    if (value === void 0 || value.startsWith("--")) return { problem: `${name} needs a value.` };
    if (name === "--session") options.session = value;
    else if (name === "--project") project = value;
    else if (name === "--out") options.out = resolve3(value);
    else if (name === "--daily") options.daily = value;
    else if (name === "--days") {
      const days = Number(value);
      if (!Number.isInteger(days) || days < 1 || days > MAX_PAGE_DAYS) {
        return { problem: `--days takes a whole number from 1 to ${MAX_PAGE_DAYS}, not "${value}".` };
      }
      options.days = days;
    } else return { problem: `"${name}" is not an option.` };
  }
  if (flags.has("--suggest")) {
    const other = valued.find((arg, index) => index % 2 === 0 && arg !== "--project");
    if (other !== void 0) return { problem: `--suggest takes --project and --json, not ${other}.` };
    return { ...options, suggest: { project, json: flags.has("--json") } };
  }
  if (project !== null || flags.has("--json"))
    return { problem: `${project !== null ? "--project" : "--json"} goes with --suggest.` };
  if (flags.has("--or-day")) {
    if (options.session === null) return { problem: "--or-day goes with --session." };
    options.orDay = true;
  }
  return options;
}
function suggest(options, env, home) {
  const project = options.project ?? env.INIT_CWD ?? process.cwd();
  const history = pastSessionsOf(env, home)(project, null);
  const stdout = options.json ? JSON.stringify(history) : suggestionText(suggestionOf(history.sessions, history.current), project);
  return { stdout: `${stdout}
`, stderr: "", failed: false };
}
function dailyBudget(options, env) {
  const text2 = options.daily ?? env[DAILY_ENV]?.trim();
  if (!text2) return null;
  const budget = parseDailyBudget(text2, "user", options.daily === null ? DAILY_ENV : "--daily");
  return "warning" in budget ? { problem: budget.warning } : budget;
}
var openReportLedger = (env, clock) => openDailyLedger({ env, sessionId: "report", clock, host: "report", entry: import.meta.url });
function runReport(args, env, home, clock, openLedger = openReportLedger) {
  const fail = (problem2) => ({
    stdout: "",
    stderr: `timebox report: ${problem2}
${REPORT_USAGE}
`,
    failed: true
  });
  if (args.some((arg) => arg === "--help" || arg === "-h"))
    return { stdout: `${REPORT_USAGE}
`, stderr: "", failed: false };
  const options = readOptions(args);
  if ("problem" in options) return fail(options.problem);
  if (options.suggest !== void 0) return suggest(options.suggest, env, home);
  const budget = dailyBudget(options, env);
  if (budget !== null && "problem" in budget) return fail(budget.problem);
  const sessions = allSessions(env, home);
  let chosen = sessions[0] ?? null;
  if (options.session !== null) {
    chosen = sessions.find((session2) => session2.id === options.session) ?? null;
    if (chosen === null && options.orDay !== true)
      return fail(`no session "${options.session}" was found in any host's sessions here.`);
  }
  const now = clock.now();
  const hosts = new Map(sessions.map((session2) => [session2.id, session2.host]));
  const ledger = openLedger(env, clock);
  const budgets = budget === null ? [] : [budget];
  const standings = budget === null && !(ledger instanceof TeamLedger) ? [] : ledger.standings(budgets);
  const problem = ledger.problem();
  const team = ledger instanceof TeamLedger && standings[0]?.budget.team !== void 0 ? ledger : null;
  const store = ledger instanceof TeamLedger ? teamPageData(ledger.team, ledger.teamView(), standings, ledger.dayUnread()) : void 0;
  const report = chosen === null ? null : reportData(chosen.history(), chosen.ledger, now, chosen.terms);
  const session = chosen === null ? null : { id: chosen.id, host: chosen.host };
  const project = chosen === null ? null : chosen.project();
  const path = writeReportPage2(
    // With no session found, the page shows the days alone.
    { report, standings, team: store },
    {
      env,
      now,
      session,
      hostOf: (id) => hosts.get(id) ?? null,
      days: options.days,
      project,
      pastSessions: pastSessionsOf(env, home),
      out: options.out ?? defaultPagePath(env, session?.id ?? options.session),
      ...team === null ? {} : { teamDays: (count4) => team.keptDays(count4) }
    }
  );
  return {
    stdout: `${reportPageWritten(path)}
`,
    stderr: problem === null ? "" : `${problem}
`,
    failed: false
  };
}

// src/entries/report/entry.ts
function writeHostPage(input, context) {
  const team = input.team && teamPageData(input.team.team, input.team.view, input.standings, input.team.unread);
  const page = { report: input.report, standings: input.standings, ...team === void 0 ? {} : { team } };
  return writeReportPage2(page, { ...context, pastSessions: pastSessionsOf(context.env) });
}
export {
  pastSessionsOf,
  runReport,
  writeHostPage
};
