// Timebox's report page, bundled from src/adapters/report/entry.ts by npm run build. Do not edit.

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
var TEAM_RESERVATION_MS = 10 * 6e4;
var TEAM_KEYS_OUTLIVE_S = 24 * 3600;
var TEAM_DAYS_KEPT = 2;

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
  const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}…` : text2;
  return `"${shown}"`;
}
function joinSplitTokens(budgetText) {
  return budgetText.replace(/\b(turns|grace|tokens|cost|steps|loop):\s+(?=[\d$])/gi, "$1:").replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}
function readWords(tokens, known = SESSION_BUDGET_WORDS) {
  let timeMs = null;
  let turns = null;
  let tokenCount = null;
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
      if (steps !== null) notes.push(`${token} replaces ${stepsWord}.`);
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
      if (loop !== null) notes.push(`${token} replaces ${loopWord}.`);
      loop = count5;
      loopWord = token;
      continue;
    }
    const tokenBudget = parseTokens(token);
    if (tokenBudget !== null) {
      if (tokenBudget < 1 || tokenBudget > MAX_TOKEN_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a token budget is 1 to 1,000,000,000 tokens.` };
      }
      if (tokenCount !== null) notes.push(`${token} replaces ${tokensWord2}.`);
      tokenCount = tokenBudget;
      tokensWord2 = token;
      continue;
    }
    const dollars = parseCost(token);
    if (dollars !== null) {
      if (dollars < MIN_COST_LIMIT || dollars > MAX_COST_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a cost budget is $0.01 to $10,000.` };
      }
      if (cost !== null) notes.push(`${token} replaces ${costWord2}.`);
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
      if (graceMs !== null) notes.push(`${token} replaces ${graceWord}.`);
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
      if (turns !== null) notes.push(`${token} replaces ${turnsWord}.`);
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
        notes.push(`${token} replaces ${timeWord2}; for the sum, write ${timeWord2}${token} as one word.`);
      }
      timeMs = wholeSeconds;
      timeWord2 = token;
      continue;
    }
    return { invalid: unknownWord(token, known) };
  }
  return { timeMs, turns, tokens: tokenCount, cost, steps, loop, aware, graceMs, notes };
}
var SESSION_BUDGET_WORDS = "a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s";
var TASK_BUDGET_WORDS = "a time (30s, 15m, 2h), steps:25, tokens:200k, cost:2.50 or loop:3";
function unknownWord(token, known) {
  const why = `${quoteInput(token)} is not a budget word: ${known}.`;
  if (/^[—–]+$/.test(token)) return `${why} Did you mean -- before the on-stop command?`;
  if (token.startsWith("+")) return `${why} To add to the budget, put + before every word: +10m +turns:2.`;
  return why;
}

// src/core/grammar/command.ts
var TODAY_COMMAND = new RegExp(`^${TODAY_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
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

// src/core/daily/daily-budget.ts
var NO_ADJUSTMENT = { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false };
function parseDailyBudget(text2, scope, source) {
  const value = typeof text2 === "string" ? text2 : JSON.stringify(text2);
  const command2 = parseCommand(value);
  if (command2.kind !== "set") {
    const why = command2.kind === "invalid" ? command2.reason : `${quoteInput(value)} is not a budget.`;
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
  const plus = (limit, more) => limit === null ? null : limit + more;
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
function loopGuardPhrase(limit) {
  return `a loop guard (the ${ordinal(limit)} identical tool call of a run is refused)`;
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
  const parts2 = [hours > 0 ? `${hours}h` : "", minutes > 0 ? `${minutes}m` : "", seconds > 0 ? `${seconds}s` : ""];
  return parts2.filter((part) => part.length > 0).join(" ") || "0s";
}
function describeBudget(limits) {
  const parts2 = [];
  if (limits.timeLimitMs !== null) parts2.push(formatBudgetLabel(limits.timeLimitMs));
  if (limits.turnLimit !== null) parts2.push(pluralTurns(limits.turnLimit));
  if (limits.tokenLimit !== void 0) parts2.push(`${formatTokens(limits.tokenLimit)} tokens`);
  if (limits.costLimit !== void 0) parts2.push(formatCost(limits.costLimit));
  if (limits.stepLimit !== void 0) parts2.push(stepsPerPrompt(limits.stepLimit));
  if (limits.loopLimit !== void 0) parts2.push(loopGuardPhrase(limits.loopLimit));
  const treatment2 = [];
  if (limits.awareness === "always") treatment2.push("the model is told what is left at every call");
  if (limits.graceMs !== void 0) treatment2.push(`${formatBudgetLabel(limits.graceMs)} to wrap up at the limit`);
  return [parts2.join(" and "), ...treatment2].join("; ");
}
function stepsPerPrompt(limit) {
  return `${limit} ${limit === 1 ? "step" : "steps"} per prompt`;
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
  dailySetting: `Set one under the timebox key of pi's settings.json ("daily": "3h turns:60 cost:10").`
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
function fileLink(path) {
  const absolute = path.startsWith("/") ? path : `/${path}`;
  return `file://${encodeURI(absolute).replace(/[?#]/g, (c) => encodeURIComponent(c))}`;
}
function reportPageWritten(path) {
  return `Timebox report page: ${fileLink(path)}`;
}
var WRAP_UP_REFUSAL = `Timebox: the budget is spent. ${FINISH_NOW}`;
var NO_DAILY_BUDGET = noDailyBudgetMessage(DEFAULT_TERMS);

// src/core/daily/daily-text.ts
function usedOfLimits(standing, team) {
  const limits = limitsToday(standing);
  const { use } = standing;
  const parts2 = [];
  if (limits.timeMs !== null) {
    const left = formatTime(Math.max(0, limits.timeMs - use.agentMs));
    parts2.push(`${formatTime(use.agentMs)} of ${formatBudgetLabel(limits.timeMs)} of agent time used, ${left} left`);
  }
  if (limits.turns !== null) {
    const left = Math.max(0, limits.turns - use.prompts);
    parts2.push(`${use.prompts} of ${(team ? pluralTurns : pluralPrompts)(limits.turns)} used, ${left} left`);
  }
  if (limits.tokens !== null) {
    const left = formatTokens(Math.max(0, limits.tokens - use.tokens));
    parts2.push(`${formatTokens(use.tokens)} of ${formatTokens(limits.tokens)} tokens used, ${left} left`);
  }
  if (limits.cost !== null) {
    const left = formatCost(Math.max(0, limits.cost - use.cost));
    parts2.push(`${formatCost(use.cost)} of ${formatCost(limits.cost)} used, ${left} left`);
  }
  return parts2.join("; ");
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

// src/core/daily/today-data.ts
var leftOf = (limit, used) => limit === null ? null : Math.max(0, limit - used);
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

// src/core/subagents/records.ts
var LIMITS = ["time", "steps", "tokens", "cost", "loop", "session", "parent"];
var ENDINGS = ["answered", "concluded", "stopped"];
function isLimit(value) {
  return LIMITS.some((limit) => limit === value);
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
  let lastPrompt = null;
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
    if (item.kind !== "prompt") continue;
    lastPrompt = item.key;
    if (index < budgetAt) promptsBefore++;
    if (index > countFrom && !paused) counted.add(item.key);
  }
  const usedTurns = Math.max(0, counted.size - (legacyStartTurn ?? 0)) + turnsBefore;
  const startTurn = legacyStartTurn ?? Math.max(0, promptsBefore - turnsBefore);
  return {
    budget: budget ? { ...budget, startTurn } : null,
    usedTurns: budget ? usedTurns : 0,
    spend: budget ? { tokens, cost } : { tokens: 0, cost: 0 },
    lastPrompt,
    lastPromptCounted: usedTurns > 0 && lastPrompt !== null && counted.has(lastPrompt),
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
function isBudgetRecord(value) {
  return typeof value === "object" && value !== null && "kind" in value && (value.kind === "active" || value.kind === "off");
}

// src/core/subagents/messages.ts
function subagentLimitPhrase(limit, budget) {
  switch (limit) {
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
function subagentStopCause(limit, budget) {
  switch (limit) {
    case "session":
      return "with the session's budget";
    case "parent":
      return "with the agent that started it";
    default:
      return `at ${subagentLimitPhrase(limit, budget)}`;
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

// src/core/subagents/describe.ts
function describeTaskBudget(budget) {
  const parts2 = [];
  if (budget.timeLimitMs !== null) parts2.push(formatBudgetLabel(budget.timeLimitMs));
  if (budget.stepLimit !== void 0) parts2.push(pluralCalls(budget.stepLimit));
  if (budget.tokenLimit !== void 0) parts2.push(`${formatTokens(budget.tokenLimit)} tokens`);
  if (budget.costLimit !== void 0) parts2.push(formatCost(budget.costLimit));
  if (budget.loopLimit !== void 0) parts2.push(loopGuardPhrase(budget.loopLimit));
  return parts2.join(" and ");
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
    for (const limit of ["tokens", "cost"]) {
      const cap = limits[limit];
      const reached = cap === null ? void 0 : steps.find((step) => step[limit] >= share * cap);
      if (reached !== void 0) warnings.push({ share, limit, at: reached.at });
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

// src/core/session/outcomes.ts
function outcomeId(budget) {
  const id = budgetIdOf(budget);
  return budget.extensions ? `${id}.e${budget.extensions}` : id;
}
function readLedger(ledger, budget) {
  const outcomes = ledger.read(outcomeId(budget));
  return budget.extensions ? { ...outcomes, off: ledger.read(budgetIdOf(budget)).off } : outcomes;
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

// src/core/loop/run-calls.ts
var BITS = 5;
var WIDTH = 1 << BITS;
var MASK = WIDTH - 1;
var EMPTY_LEVEL = Array.from({ length: WIDTH }, () => void 0);

// src/core/text/notices.ts
var SETTINGS_NOT_JSON = "Timebox: the settings file is not valid JSON, so nothing was changed.";
var SETTINGS_NOT_OBJECT = "Timebox: the settings file is not a JSON object, so nothing was changed.";
var STATUS_LINE_ALREADY_SET = "Timebox's status line is already set up; nothing was changed.";
function statusLineSet(afterYours) {
  return afterYours ? "Timebox's status line is set up after yours: your status line comes first, then Timebox's." : "Timebox's status line is set up: it shows the budget of each session.";
}
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
  reserve() {
    this.run(this.day.reserve());
  }
  adjust(budget, adjustment) {
    this.run(this.day.adjust(budget, adjustment));
  }
  keptDays(count4) {
    return this.run(this.day.keptDays(count4));
  }
  problem() {
    return this.day.problem();
  }
};

// src/adapters/team/open.ts
import { hostname, userInfo } from "node:os";

// src/adapters/node/daily-ledger.ts
import { createHash } from "node:crypto";
import { closeSync as closeSync2, mkdirSync, openSync as openSync2, readdirSync, readSync as readSync2, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

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
          const limit = limits[index] ?? null;
          for (; ; ) {
            const next = cache.prompts + 1;
            if (limit !== null && next > limit) return false;
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
    },
    problem() {
      if (trouble === null || told) return null;
      told = true;
      return trouble;
    }
  };
}

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

// src/adapters/team/bridge.ts
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

// src/adapters/team/scripts.ts
function dayKeys(team, day) {
  const prefix = `timebox:{${team}}:${day}:`;
  return [`${prefix}use`, `${prefix}sessions`, `${prefix}who`, `${prefix}res`, `${prefix}sent`];
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
`;
var SCRIPTS = {
  /** Today's use, additions, who used it, the session count, and the live reservations of the other sessions. */
  read: `${COMMON}
local tokens, cost, now = 0, 0, nowMs()
local res = redis.call('HGETALL', KEYS[4])
for i = 1, #res, 2 do
  local t, c, e = string.match(res[i + 1], '^([^:]*):([^:]*):([^:]*)$')
  if tonumber(e) == nil or tonumber(e) < now then redis.call('HDEL', KEYS[4], res[i])
  elseif res[i] ~= ARGV[2] then tokens = tokens + tonumber(t); cost = cost + tonumber(c) end
end
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[3]), redis.call('SCARD', KEYS[2]), tostring(tokens), tostring(cost)}`,
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
  /** Adds to today's limits (ARGV[4] addTimeMs, [5] addPrompts, [6] addTokens, [7] addCost) or, ARGV[8] = 1, ends them. */
  adjust: `${COMMON}
if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTimeMs', ARGV[4]) end
if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'addPrompts', ARGV[5]) end
if tonumber(ARGV[6]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTokens', ARGV[6]) end
if tonumber(ARGV[7]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'addCost', ARGV[7]) end
if ARGV[8] == '1' then redis.call('HSET', KEYS[1], 'off', '1') end
keep()
return 1`
};

// src/adapters/team/bridge.ts
var STORE_WORKER = "timebox-store.mjs";
var REPLY_BYTES = 256 * 1024;
function storeWorkerLocation(entry) {
  return new URL(STORE_WORKER, entry).href;
}
function openSyncStore(url, workerUrl, connectMs, callMs) {
  if (!existsSync(new URL(workerUrl))) throw new Error(`the store's client is missing (${fileURLToPath(workerUrl)})`);
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
      const deadline = performance.now() + timeoutMs;
      for (; ; ) {
        const seen = Atomics.load(flag, 0);
        if (seen === id) break;
        const left = deadline - performance.now();
        if (left <= 0) return { ok: false, error: `no answer within ${timeoutMs} ms` };
        Atomics.wait(flag, 0, seen, left);
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
  return { config: { url: store, shown, team, zone, failure, member }, warning: null };
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
  const parts2 = formatIn(zone).formatToParts(ms);
  const part = (type) => Number(parts2.find((entry) => entry.type === type)?.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return { year: part("year"), month: part("month"), day: part("day"), offset: wall - Math.floor(ms / 1e3) * 1e3 };
}
function midnight(year, month, day, zone) {
  const wall = Date.UTC(year, month - 1, day);
  const guess = wall - zoneDate(wall, zone).offset;
  return wall - zoneDate(guess, zone).offset;
}

// src/adapters/team/outbox.ts
import { randomUUID } from "node:crypto";
import { mkdirSync as mkdirSync2, readdirSync as readdirSync2, readFileSync, renameSync, rmSync as rmSync2, statSync as statSync2 } from "node:fs";
import { join as join2 } from "node:path";
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
function entriesOf(text2) {
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
function fileOutbox(folder, newId = randomUUID) {
  const missing = (error) => error.code === "ENOENT";
  return {
    keep(use) {
      mkdirSync2(folder, { recursive: true });
      appendLine(join2(folder, UNSENT), `${JSON.stringify({ id: newId(), ...use })}
`);
    },
    waiting() {
      try {
        return readdirSync2(folder).some((name) => name === UNSENT || SENDING.test(name));
      } catch {
        return false;
      }
    },
    take() {
      try {
        renameSync(join2(folder, UNSENT), join2(folder, `sending-${Date.now()}-${newId()}.jsonl`));
      } catch {
      }
      const names = readdirSync2(folder).filter((name) => SENDING.test(name)).sort();
      const batches = [];
      for (const name of names) {
        const path = join2(folder, name);
        let text2;
        try {
          text2 = readFileSync(path, "utf8");
        } catch (error) {
          if (missing(error)) continue;
          throw error;
        }
        const read = Buffer.byteLength(text2);
        const sent = () => {
          if (sizeOf(path) <= read) rmSync2(path, { force: true });
        };
        batches.push({ entries: entriesOf(text2), sent });
      }
      return batches;
    }
  };
}
function sizeOf(path) {
  try {
    return statSync2(path).size;
  } catch {
    return 0;
  }
}
function outboxFolder(stateDir, team) {
  return join2(stateDir, "team", `team-${team}`);
}

// src/adapters/team/outage.ts
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
  /** In the closed mode, while the store failed, why new turns are refused; else null. */
  refusal() {
    return this.closed && this.failure !== null ? this.texts.refusal(this.failure.why) : null;
  }
  /** What the session's next process takes over. */
  carry() {
    return this.failure;
  }
};

// src/adapters/team/day.ts
function keysExpiry(dayEnd) {
  return Math.ceil(dayEnd / 1e3) + TEAM_KEYS_OUTLIVE_S;
}
function fields(value) {
  const map = /* @__PURE__ */ new Map();
  const flat = Array.isArray(value) ? value : [];
  for (let index = 0; index + 1 < flat.length; index += 2) map.set(String(flat[index]), String(flat[index + 1]));
  return map;
}
function amount(text2) {
  const value = Number(text2);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
function parts(value) {
  const [useFields, whoFields, sessions, reservedTokens, reservedCost] = Array.isArray(value) ? value : [];
  return {
    use: fields(useFields),
    who: whoFields,
    sessions: amount(String(sessions)),
    reserved: { prompts: 0, agentMs: 0, tokens: amount(String(reservedTokens)), cost: amount(String(reservedCost)) }
  };
}
function standingsOf(reply, budgets, config, dayStart) {
  const { use, who, sessions, reserved } = parts(reply);
  const members = [...fields(who)].map(([name, count4]) => ({ name, sessions: amount(count4) }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  const adjustment = {
    addTimeMs: amount(use.get("addTimeMs")),
    addPrompts: amount(use.get("addPrompts")),
    addTokens: amount(use.get("addTokens")),
    addCost: amount(use.get("addCost")),
    off: use.get("off") === "1"
  };
  return teamBudgets(budgets, config).map((budget) => ({
    budget,
    use: {
      agentMs: amount(use.get("agentMs")),
      prompts: amount(use.get("prompts")),
      // The model calls other sessions are making count as what they reserved, until their answers settle them.
      tokens: amount(use.get("tokens")) + reserved.tokens,
      cost: amount(use.get("cost")) + reserved.cost,
      sessions,
      members
    },
    adjustment,
    dayStart
  }));
}
function teamBudgets(budgets, config) {
  const team = { name: config.team, zone: config.zone };
  return budgets.map((budget) => ({ ...budget, team }));
}
function dayRowOf(day, reply) {
  const { use, reserved } = parts(reply);
  return {
    day,
    agentMs: amount(use.get("agentMs")),
    prompts: amount(use.get("prompts")),
    tokens: amount(use.get("tokens")) + reserved.tokens,
    cost: amount(use.get("cost")) + reserved.cost
  };
}

// src/adapters/team/team-day.ts
var NOTHING = { prompts: 0, agentMs: 0, tokens: 0, cost: 0 };
var TeamDay = class {
  constructor(config, local, sessionId, clock, outbox, options = {}) {
    this.config = config;
    this.local = local;
    this.sessionId = sessionId;
    this.clock = clock;
    this.outbox = outbox;
    this.options = options;
    const carried = options.carried;
    if (carried) this.lastCall = { ...carried.lastCall };
    this.outage = new Outage(
      config.failure === "closed",
      clock,
      {
        unreachable: (why, closed) => teamStoreUnreachable(config.shown, why, closed),
        refusal: (why) => teamStoreRefusal(config.shown, why)
      },
      carried?.failed ?? null
    );
  }
  config;
  local;
  sessionId;
  clock;
  outbox;
  options;
  calledOnce = false;
  outage;
  saidLost = false;
  untold = [];
  /** Whether this session looked for use kept on this machine to send: at its first answer, and once the store is back. */
  outboxSeen = false;
  /** What this session's last model call used: what its next one reserves. */
  lastCall = { tokens: 0, cost: 0 };
  /**
   * Whether a call may first send what this machine kept while the store was down (the session's first answer, or the
   * store's first after a failure, with something kept): a read made with it must wait for it to see what it sent.
   */
  sendsFirst() {
    return this.outage.down || !this.outboxSeen && this.outbox.waiting();
  }
  /** What the next process of this session takes over (`TeamLedgerOptions.carried`). */
  carry() {
    return { lastCall: { ...this.lastCall }, failed: this.outage.carry() };
  }
  *standings(budgets) {
    const day = teamDay(this.clock.now(), this.config.zone);
    const reply = yield* this.call("read", []);
    if (reply.ok) return standingsOf(reply.value, budgets, this.config, day.start);
    const local = this.local.standings(teamBudgets(budgets, this.config));
    const closed = this.outage.refusal();
    return closed === null ? local : local.map((standing) => ({ ...standing, closed }));
  }
  *countPrompt(budgets, limits) {
    const set = limits.filter((limit2) => limit2 !== null);
    const limit = set.length === 0 ? -1 : Math.min(...set);
    const reply = yield* this.call("count", [limit]);
    if (reply.ok) return reply.value === 1;
    if (!this.outage.takesTurns()) return false;
    this.keep({ ...NOTHING, prompts: 1 });
    return this.local.countPrompt(budgets, limits);
  }
  *addUse(budgets, use) {
    const added = {
      prompts: 0,
      agentMs: Math.round(use.agentMs ?? 0),
      tokens: Math.round(use.tokens ?? 0),
      cost: use.cost ?? 0
    };
    if (use.tokens !== void 0 || use.cost !== void 0) this.lastCall = { tokens: added.tokens, cost: added.cost };
    if ((yield* this.call("use", [added.agentMs, added.tokens, added.cost, 0])).ok) return;
    this.keep(added);
    this.local.addUse(budgets, use);
  }
  /** Reserves without waiting: the model call starts at once; the reservation reaches Redis before the next call. */
  *reserve() {
    const now = this.clock.now();
    if (this.outage.waiting() !== null) return;
    const day = teamDay(now, this.config.zone);
    const args = [...this.common(day), this.lastCall.tokens, this.lastCall.cost, TEAM_RESERVATION_MS];
    yield { script: "reserve", keys: dayKeys(this.config.team, day.day), args, timeoutMs: 0, post: true };
  }
  *adjust(budget, adjustment) {
    const { addTimeMs, addPrompts, addTokens, addCost, off } = { ...NO_ADJUSTMENT, ...adjustment };
    const reply = yield* this.call("adjust", [addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0]);
    if (!reply.ok) this.local.adjust(budget, adjustment);
  }
  /**
   * The team's use of each of its last `count` days that its store still keeps, oldest first: today and yesterday
   * (a day's keys outlive it by one day, TEAM_KEYS_OUTLIVE_S); none while the store cannot be read. Today counts the
   * other sessions' reservations, as the standings do.
   */
  *keptDays(count4) {
    const days = [];
    let day = teamDay(this.clock.now(), this.config.zone);
    for (let kept2 = 0; kept2 < Math.min(count4, TEAM_DAYS_KEPT); kept2++) {
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
  /** One script on `keys`; a failure is the outage policy's (said once, the store left alone for a while). */
  *request(script, keys, args) {
    const waiting = this.outage.waiting();
    if (waiting !== null) return { ok: false, error: waiting };
    const timeoutMs = this.options.waitMs ?? (this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS);
    this.calledOnce = true;
    const reply = yield { script, keys, args, timeoutMs };
    if (reply.ok) {
      this.outage.answered();
      return reply;
    }
    const why = this.hidden(reply.error);
    this.outage.failed(why);
    const said = this.outage.told();
    if (said !== null) this.untold.push(said);
    return { ok: false, error: why };
  }
  /** An error's text without the store's password or full address. */
  hidden(error) {
    let text2 = error.split(this.config.url).join(this.config.shown);
    const password = new URL(this.config.url).password;
    if (password) text2 = text2.split(password).join("***").split(decodeURIComponent(password)).join("***");
    return text2.trim() || "no answer";
  }
};

// src/adapters/team/open.ts
function memberName(host) {
  return `${userInfo().username}@${hostname()} (${host})`;
}
function saying(warning, ledger) {
  let told = false;
  return {
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
function opening(options) {
  const { env, sessionId, clock } = options;
  const stateDir = dailyStateDir(env);
  const created = createDailyLedger(stateDir, sessionId, clock);
  const { config, warning } = readTeam(env, options.settings ?? {}, memberName(options.host));
  if (warning !== null) return { local: saying(warning, created), team: null };
  if (config === null) return { local: created, team: null };
  const outbox = fileOutbox(outboxFolder(stateDir, config.team));
  return {
    local: created,
    team: { config, day: new TeamDay(config, created, sessionId, clock, outbox, options.team) }
  };
}
function openDailyLedger(options) {
  const { local, team } = opening(options);
  if (team === null) return local;
  const open = () => openSyncStore(team.config.url, storeWorkerLocation(options.entry), TEAM_CONNECT_MS, TEAM_CALL_MS);
  return new TeamLedger(team.day, open);
}

// src/adapters/report/past-sessions-cache.ts
import { mkdirSync as mkdirSync3, readFileSync as readFileSync2, renameSync as renameSync2, writeFileSync as writeFileSync2 } from "node:fs";
import { dirname, join as join3 } from "node:path";
var NO_CACHE = { get: () => void 0, set: () => {
}, save: () => {
} };
function fileCache(env) {
  const path = join3(dailyStateDir(env), PAST_SESSIONS_FILE);
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
    const read = JSON.parse(readFileSync2(path, "utf8"));
    const sessions = typeof read === "object" && read !== null && "sessions" in read ? read.sessions : null;
    if (typeof sessions !== "object" || sessions === null) return /* @__PURE__ */ new Map();
    return new Map(Object.entries(sessions));
  } catch {
    return /* @__PURE__ */ new Map();
  }
}
function writeKept(path, kept2) {
  try {
    mkdirSync3(dirname(path), { recursive: true });
    const next = `${path}.${process.pid}`;
    writeFileSync2(next, JSON.stringify({ sessions: Object.fromEntries(kept2) }));
    renameSync2(next, path);
  } catch {
  }
}

// src/adapters/report/sources.ts
import { closeSync as closeSync6, openSync as openSync6, readdirSync as readdirSync4, readFileSync as readFileSync6, readSync as readSync5, statSync as statSync6 } from "node:fs";
import { homedir as homedir2 } from "node:os";
import { join as join11, resolve } from "node:path";

// src/adapters/claude/function-hooks/on-stop.ts
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
  const held = claims.find(
    (claim2) => claim2.budgetId === budgetId && (claim2.kind === "spent" || claim2.kind === "ended") && typeof claim2.onStopCommand === "string"
  );
  if (!held?.onStopCommand) return null;
  const claim = { budgetId, kind: held.kind };
  return {
    claim,
    command: held.onStopCommand,
    claimedAt: typeof held.claimedAt === "number" ? held.claimedAt : 0,
    started: marks.started.has(markKey(claim)),
    // One Claude Code process holds a session: a claim made under another id was made by a process that ended.
    claimantAlive: held.instance === marks.instance,
    recovered: claims.some((other) => other.kind === "onStopRecovered" && other.budgetId === budgetId)
  };
}

// src/adapters/claude/hook-host.ts
import { join as join5 } from "node:path";

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
import { existsSync as existsSync2, mkdirSync as mkdirSync4, readdirSync as readdirSync3, readFileSync as readFileSync3, writeFileSync as writeFileSync3 } from "node:fs";
import { dirname as dirname2, join as join4 } from "node:path";
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
  if (theirs?.includes(" statusline") && theirs.includes("timebox.mjs")) {
    return { text: null, message: STATUS_LINE_ALREADY_SET };
  }
  const statusLine = { ...current, type: "command", command: statusLineCommand(script, theirs), refreshInterval: 1 };
  const merged = { ...settings, statusLine };
  return { text: `${JSON.stringify(merged, null, 2)}
`, message: statusLineSet(theirs !== null) };
}
function setupStatusLine(settingsFile, script) {
  const text2 = existsSync2(settingsFile) ? readFileSync3(settingsFile, "utf8") : null;
  const merged = mergeStatusLine(text2, script);
  if (merged.text !== null) {
    mkdirSync4(dirname2(settingsFile), { recursive: true });
    writeFileSync3(settingsFile, merged.text);
  }
  return merged.message;
}
var DATA_FOLDER_PREFIX = "timebox-";
function findDataDir(home, sessionId) {
  const root = join4(home, ".claude", "plugins", "data");
  let folders;
  try {
    folders = readdirSync3(root).filter((name) => name.startsWith(DATA_FOLDER_PREFIX));
  } catch {
    return null;
  }
  const withSession = folders.find((name) => existsSync2(join4(root, name, "sessions", `${sessionId}.jsonl`)));
  const chosen = withSession ?? (folders.length === 1 ? folders[0] : void 0);
  return chosen === void 0 ? null : join4(root, chosen);
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

// src/adapters/claude/transcript-usage.ts
import { closeSync as closeSync3, openSync as openSync3, readSync as readSync3, statSync as statSync3 } from "node:fs";

// src/adapters/claude/tokens.ts
var USAGE_FIELDS = [
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens"
];
function tokensOf(usage) {
  return USAGE_FIELDS.reduce((sum, field) => {
    const count4 = usage[field];
    return sum + (typeof count4 === "number" && Number.isFinite(count4) && count4 > 0 ? count4 : 0);
  }, 0);
}

// src/adapters/claude/transcript-usage.ts
var MAX_READ_BYTES = 8 * 1024 * 1024;
function fieldsOf2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}
function usageOfLine(raw) {
  let line;
  try {
    line = fieldsOf2(JSON.parse(raw));
  } catch {
    return null;
  }
  if (line?.type !== "assistant") return null;
  const message = fieldsOf2(line.message);
  const usage = fieldsOf2(message?.usage);
  if (typeof message?.id !== "string" || !usage || typeof usage.input_tokens !== "number") return "unreadable";
  return { id: message.id, tokens: tokensOf(usage) };
}
function readTranscriptUsage(path, offset, seen) {
  const nothing = { responses: [], offset, unreadable: false };
  let fd;
  try {
    fd = openSync3(path, "r");
  } catch {
    return nothing;
  }
  try {
    const size = statSync3(path).size;
    if (size <= offset) return { ...nothing, offset: Math.min(offset, size) };
    const buffer = Buffer.alloc(Math.min(size - offset, MAX_READ_BYTES));
    const read = readSync3(fd, buffer, 0, buffer.length, offset);
    const text2 = buffer.subarray(0, read).toString("utf8");
    const end = text2.lastIndexOf("\n");
    if (end < 0) return read === MAX_READ_BYTES ? { ...nothing, offset: offset + read } : nothing;
    const found = new Set(seen);
    const responses = [];
    let unreadable = false;
    for (const raw of text2.slice(0, end).split("\n")) {
      const usage = usageOfLine(raw);
      if (usage === "unreadable") unreadable = true;
      else if (usage && !found.has(usage.id)) {
        found.add(usage.id);
        responses.push(usage);
      }
    }
    return { responses, offset: offset + Buffer.byteLength(text2.slice(0, end + 1), "utf8"), unreadable };
  } catch {
    return nothing;
  } finally {
    closeSync3(fd);
  }
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
    settings: (home) => join5(home, ".claude", "settings.json"),
    setup: setupStatusLine,
    script: (env) => env.CLAUDE_PLUGIN_ROOT ? join5(env.CLAUDE_PLUGIN_ROOT, "bin", "timebox.mjs") : null,
    findDataDir
  }
};

// src/adapters/codex/hook-host.ts
import { join as join6 } from "node:path";
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
  dataDir: (env, home) => join6(env.CODEX_HOME ?? join6(home, ".codex"), "timebox")
};

// src/adapters/gemini/hook-host.ts
import { join as join7 } from "node:path";

// src/adapters/gemini/transcript-usage.ts
import { closeSync as closeSync4, openSync as openSync4, readSync as readSync4, statSync as statSync4 } from "node:fs";
var MAX_READ_BYTES2 = 8 * 1024 * 1024;
function fieldsOf3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}
function count(value) {
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
  const parts2 = count(tokens.input) + count(tokens.output) + count(tokens.thoughts) + count(tokens.tool);
  return { id: line.id, tokens: count(tokens.total) || parts2, prompt: { input: count(tokens.input), from } };
}
function readGeminiUsage(path, offset, seen) {
  const nothing = { responses: [], offset, unreadable: false };
  let fd;
  try {
    fd = openSync4(path, "r");
  } catch {
    return nothing;
  }
  try {
    const size = statSync4(path).size;
    if (size <= offset) return { ...nothing, offset: Math.min(offset, size) };
    const buffer = Buffer.alloc(Math.min(size - offset, MAX_READ_BYTES2));
    const read = readSync4(fd, buffer, 0, buffer.length, offset);
    const end = buffer.subarray(0, read).lastIndexOf(10);
    if (end < 0) return read === MAX_READ_BYTES2 ? { ...nothing, offset: offset + read } : nothing;
    const found = new Set(seen);
    const responses = [];
    let unreadable = false;
    let from = offset;
    for (const raw of buffer.subarray(0, end).toString("utf8").split("\n")) {
      const usage = usageOfLine2(raw, from);
      from += Buffer.byteLength(raw, "utf8") + 1;
      if (usage === "unreadable") unreadable = true;
      else if (usage && !found.has(usage.id)) {
        found.add(usage.id);
        responses.push(usage);
      }
    }
    return { responses, offset: offset + end + 1, unreadable };
  } catch {
    return nothing;
  } finally {
    closeSync4(fd);
  }
}
function transcriptSize(path) {
  try {
    return statSync4(path).size;
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
  dataDir: (_env, home) => join7(home, ".gemini", "timebox"),
  unnamedPrompts: true,
  readUsage: readGeminiUsage,
  transcriptSize
};
function cappedRequest(reply, event, cap) {
  const config = event.requestConfig ?? {};
  const limit = config.maxOutputTokens;
  const maxOutputTokens = typeof limit === "number" && limit > 0 && limit < cap ? limit : cap;
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
  const legacy = files.store.lines().flatMap(
    (line) => (line.kind === "spent" || line.kind === "nudged") && line.budgetStart === budget.startTime ? [line] : []
  );
  const spent = legacy.find((line) => line.kind === "spent");
  return {
    ...view,
    nudged: view.nudged || legacy.some((line) => line.kind === "nudged"),
    spent: view.spent ?? (spent ? { usedTurns: spent.usedTurns, elapsedMs: spent.elapsedMs, timeRanOut: false, prompt: spent.promptId } : null)
  };
}
function loggedClaims(store) {
  return store.lines().flatMap((line) => line.kind === "claim" ? [line.claim] : []);
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
import { randomUUID as randomUUID2 } from "node:crypto";
import {
  closeSync as closeSync5,
  fsyncSync,
  linkSync,
  mkdirSync as mkdirSync5,
  openSync as openSync5,
  readFileSync as readFileSync4,
  rmSync as rmSync3,
  statSync as statSync5,
  writeSync as writeSync2
} from "node:fs";
import { join as join8 } from "node:path";

// src/adapters/node/node-time.ts
var systemClock = { now: () => Date.now() };

// src/adapters/node/file-ledger.ts
function fileOf(dir, budgetId, kind) {
  return join8(dir, `${checkedId(budgetId)}.${kind}.json`);
}
function checkedId(budgetId) {
  if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
  return budgetId;
}
function startMarkOf(dir, claim) {
  return join8(dir, `${checkedId(claim.budgetId)}.${claim.kind}.started`);
}
function isRecord3(value) {
  return typeof value === "object" && value !== null;
}
function isFile(path) {
  return statSync5(path, { throwIfNoEntry: false })?.isFile() === true;
}
function exists(path) {
  return statSync5(path, { throwIfNoEntry: false }) !== void 0;
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
    text2 = readFileSync4(file, "utf8");
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
      mkdirSync5(dir, { recursive: true });
      const draft = `${file}.${randomUUID2()}.draft`;
      const fd = openSync5(draft, "wx");
      const record = { version: RECORD_VERSION, ...claim, pid: pid(), claimedAt: clock.now() };
      try {
        try {
          writeSync2(fd, `${JSON.stringify(record)}
`);
          fsyncSync(fd);
        } finally {
          closeSync5(fd);
        }
        link(draft, file);
        return true;
      } catch (error) {
        if (error.code === "EEXIST" && isFile(file)) return false;
        throw error;
      } finally {
        rmSync3(draft, { force: true });
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
  if (typeof spent.onStopCommand !== "string") {
    if (!isRecord3(spent.summary) || typeof spent.summary.wrapUpUntil !== "number") return {};
    const ended = readJson(fileOf(dir, budgetId, "ended"));
    if (ended === null || typeof ended.onStopCommand !== "string") return {};
    kind = "ended";
    claim = ended;
  }
  return {
    onStop: {
      claim: { budgetId, kind },
      command: String(claim.onStopCommand),
      claimedAt: numberOr2(claim.claimedAt, 0),
      started: exists(startMarkOf(dir, { budgetId, kind })),
      claimantAlive: alive(claim.pid),
      recovered: readJson(fileOf(dir, budgetId, "onStopRecovered")) !== null
    }
  };
}

// src/adapters/node/session-log.ts
import { mkdirSync as mkdirSync6, readFileSync as readFileSync5 } from "node:fs";
import { join as join9 } from "node:path";

// src/adapters/node/log-lines.ts
var text = (value) => typeof value === "string";
var count2 = (value) => typeof value === "number" && Number.isFinite(value);
var PROMPT_KINDS = /* @__PURE__ */ new Set(["call", "ended", "daily-stopped", "daily-ended"]);
function readLogLine(fields2) {
  const kind = fields2.kind;
  if (kind === "active" || kind === "off" || kind === "subagents" || kind === "subagent") return { ...fields2, kind };
  if (kind === "prompt") {
    if (!text(fields2.promptId)) return null;
    const line = { kind: "prompt", promptId: fields2.promptId, at: atOf(fields2) };
    return text(fields2.cwd) ? { ...line, cwd: fields2.cwd } : line;
  }
  if (PROMPT_KINDS.has(String(kind))) {
    return text(fields2.promptId) ? { kind, promptId: fields2.promptId, at: atOf(fields2) } : null;
  }
  switch (kind) {
    case "usage":
      return text(fields2.responseId) ? usageLine(fields2, fields2.responseId) : null;
    case "transcript":
      return count2(fields2.offset) ? { kind, offset: fields2.offset } : null;
    case "transcript-unreadable":
    case "told":
      return { kind, at: atOf(fields2) };
    case "untold":
      return { kind, notices: Array.isArray(fields2.notices) ? fields2.notices.map(String) : [], at: atOf(fields2) };
    case "daily-warned":
      return text(fields2.level) ? { kind, level: fields2.level, at: atOf(fields2) } : null;
    case "claim":
      return claimLine(fields2);
    case "spent":
      return count2(fields2.budgetStart) ? {
        kind,
        budgetStart: fields2.budgetStart,
        usedTurns: count2(fields2.usedTurns) ? fields2.usedTurns : 0,
        elapsedMs: count2(fields2.elapsedMs) ? fields2.elapsedMs : 0,
        promptId: text(fields2.promptId) ? fields2.promptId : null
      } : null;
    case "nudged":
      return count2(fields2.budgetStart) ? { kind, budgetStart: fields2.budgetStart } : null;
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
      return count2(fields2.index) && text(fields2.agent) ? { kind, index: fields2.index, agent: fields2.agent, at: atOf(fields2) } : null;
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
  return count2(fields2.at) ? fields2.at : 0;
}
function usageLine(fields2, responseId) {
  return {
    kind: "usage",
    responseId,
    tokens: count2(fields2.tokens) ? fields2.tokens : 0,
    ...count2(fields2.cost) ? { cost: fields2.cost } : {},
    ...count2(fields2.at) ? { at: fields2.at } : {},
    ...count2(fields2.offset) ? { offset: fields2.offset } : {},
    ...promptOf(fields2.prompt)
  };
}
function promptOf(prompt) {
  if (typeof prompt !== "object" || prompt === null) return {};
  const { input, from } = prompt;
  return count2(input) && count2(from) ? { prompt: { input, from } } : {};
}
function claimLine(fields2) {
  const claim = fields2.claim;
  if (typeof claim !== "object" || claim === null) return null;
  const { kind, budgetId } = claim;
  if (!text(budgetId) || !["spent", "off", "nudged", "ended", "onStopRecovered"].includes(String(kind))) return null;
  return { kind: "claim", claim, at: atOf(fields2) };
}

// src/adapters/node/session-log.ts
function isFields3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
var SessionLog = class {
  /**
   * `readOnce`: the file is read at the first look and kept, with what this log writes added (a hook is one short
   * process: it folds its session once); else every look reads the file again.
   */
  constructor(dataDir, sessionId, clock = systemClock, readOnce = false, files = nodeAppendFiles) {
    this.clock = clock;
    this.readOnce = readOnce;
    this.files = files;
    this.folder = join9(dataDir, "sessions");
    this.file = join9(this.folder, `${sessionId}.jsonl`);
  }
  clock;
  readOnce;
  files;
  /** The spec's `BudgetStore` and `TranscriptBridge`, over what this store keeps. */
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
  folder;
  file;
  /** The lines as read once, with those written since, where the log is read once (one hook's life). */
  read = null;
  /** The working folder the session runs in, kept with each prompt where the host says it (`setCwd`). */
  cwd = null;
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
    for (const line of this.lines()) if (line.kind === "prompt" && line.cwd !== void 0) return line.cwd;
    return null;
  }
  /** Records a prompt that ran (the rules say which), at `at` or now. */
  appendPrompt(promptId, at = this.clock.now()) {
    this.appendLine(
      this.cwd === null ? { kind: "prompt", promptId, at } : { kind: "prompt", promptId, at, cwd: this.cwd }
    );
  }
  /** Which model call of its run the prompt is at: the first, plus one for each call recorded after it. */
  stepOf(promptId) {
    return 1 + this.lines().filter((line) => line.kind === "call" && line.promptId === promptId).length;
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
    const items = [];
    const counted = /* @__PURE__ */ new Set();
    for (const line of this.lines()) {
      if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId, at: line.at });
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
  /** Every readable line of the log, oldest first; a torn or hand-edited line is skipped. */
  lines() {
    if (!this.readOnce) return this.readFile();
    this.read ??= this.readFile();
    return this.read;
  }
  /** Reads the file again at the next look (a watcher looks every second at what other processes wrote). */
  reread() {
    this.read = null;
  }
  readFile() {
    let text2;
    try {
      text2 = readFileSync5(this.file, "utf8");
    } catch (error) {
      const code = error.code;
      if (code === "ENOENT" || code === "ENOTDIR") return [];
      throw named(this.file, error);
    }
    const lines = [];
    for (const raw of text2.split("\n")) {
      if (raw.trim().length === 0) continue;
      try {
        const value = JSON.parse(raw);
        const line = isFields3(value) ? readLogLine(value) : null;
        if (line !== null) lines.push(line);
      } catch {
      }
    }
    return lines;
  }
  /**
   * Appends one line; a single small append is written whole even when hooks run in parallel, and a line torn by a
   * process killed mid-write stays apart from it (`append-line.ts`).
   */
  appendLine(line) {
    mkdirSync6(this.folder, { recursive: true });
    appendLine(this.file, `${JSON.stringify(line)}
`, this.files);
    this.read?.push(JSON.parse(JSON.stringify(line)));
  }
};

// src/adapters/opencode/data-dir.ts
import { join as join10 } from "node:path";
var OPENCODE_FOLDER = "opencode";
function opencodeDataDir(env) {
  return join10(dailyStateDir(env), OPENCODE_FOLDER);
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
  const fields2 = fieldsOf4(usage);
  return amount2(fields2.input) + amount2(fields2.output) + amount2(fields2.cacheRead) + amount2(fields2.cacheWrite);
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
function historyOf(entries, leafId = null) {
  const items = [];
  let usage = null;
  let parentId = null;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
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
      item = { kind: "prompt", key: promptKey(message), at: message.timestamp };
    } else if (entry.type === "custom") {
      item = recordItem(entry);
      if (item === null) continue;
    } else continue;
    usage = null;
    items.push(item);
  }
  return leafId === null || parentId === leafId ? items : null;
}

// src/adapters/report/sources.ts
function homeOf(env) {
  return env.HOME ?? homedir2();
}
function sameFolder(a, b) {
  return a !== null && resolve(a) === resolve(b);
}
function latestAt(lines) {
  let latest;
  for (const line of lines) {
    const at = "at" in line ? line.at : void 0;
    if (typeof at === "number" && Number.isFinite(at) && (latest === void 0 || at > latest)) latest = at;
  }
  return latest;
}
function entriesOf2(folder) {
  try {
    return readdirSync4(folder);
  } catch {
    return [];
  }
}
function modifiedOf(path) {
  return statSync6(path).mtimeMs;
}
function logSessions(dataDir, host, terms) {
  const folder = join11(dataDir, "sessions");
  return entriesOf2(folder).filter((name) => name.endsWith(".jsonl")).map((name) => {
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
  return jsonLinesOf(readFileSync6(path, "utf8"));
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
  const fd = openSync6(path, "r");
  try {
    const chunk = Buffer.alloc(4096);
    for (let read = readSync5(fd, chunk); read > 0 && !text2.includes("\n"); read = readSync5(fd, chunk)) {
      text2 += chunk.toString("utf8", 0, read);
    }
  } finally {
    closeSync6(fd);
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
  return pastSession(historyOf(entries), {
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
  return entriesOf2(root).flatMap((folder) => {
    const files = entriesOf2(join11(root, folder)).filter((name) => name.endsWith(".jsonl"));
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
        history: () => historyOf(piBranch(jsonLines(path))),
        ledger: (budget) => readLedger(ledger, budget),
        terms,
        project: () => typeof header?.cwd === "string" ? header.cwd : null,
        past: () => piPast(path, id, terms.name)
      };
    });
  });
}
function moduleSessions(storeDir) {
  return entriesOf2(storeDir).flatMap((name) => {
    if (!name.startsWith("timebox")) return [];
    const path = join11(storeDir, name);
    let store;
    try {
      store = JSON.parse(readFileSync6(path, "utf8"));
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
  const claudeDirs = env.CLAUDE_PLUGIN_DATA ? [env.CLAUDE_PLUGIN_DATA] : entriesOf2(claudeData).map((name) => join11(claudeData, name));
  return [
    ...piSessions(piDir, "pi", DEFAULT_TERMS, project),
    ...resolve(ompDir) === resolve(piDir) ? [] : piSessions(ompDir, "omp", OMP_TERMS, project),
    ...claudeDirs.flatMap((dir) => logSessions(dir, "claude", claudeCodeHost.terms)),
    ...moduleSessions(join11(home, ".claude", "plugins", "store")),
    ...logSessions(join11(home, ".gemini", "timebox"), "gemini", geminiCliHost.terms),
    ...logSessions(join11(env.CODEX_HOME ?? join11(home, ".codex"), "timebox"), "codex", codexCliHost.terms),
    ...logSessions(opencodeDataDir(env), "opencode", OPENCODE_TERMS)
  ].sort((a, b) => b.modified - a.modified);
}

// src/adapters/report/project-history.ts
function readProjectHistory(env, home, project, current, cache = NO_CACHE) {
  const sessions = [];
  const found = allSessions(env, home, project);
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

// src/adapters/report/write-page.ts
import { mkdirSync as mkdirSync7, writeFileSync as writeFileSync4 } from "node:fs";
import { dirname as dirname3, join as join12 } from "node:path";

// src/adapters/report/assets.ts
var PAGE_SCRIPT = '(()=>{var rr="uplot",ur="u-hz",fr="u-vt",ar="u-title",cr="u-wrap",pr="u-under",hr="u-over",mr="u-axis",Qt="u-off",gr="u-select",dr="u-cursor-x",wr="u-cursor-y",Sr="u-cursor-pt",_r="u-legend",br="u-live",yr="u-inline",kr="u-series",xr="u-marker",to="u-label",vr="u-value",Wl="width",Gl="height";var lo="bottom",yl="left",Yn="right",is="#000",no=is+"0",Bn="mousemove",so="mousedown",Un="mouseup",oo="mouseenter",io="mouseleave",ro="dblclick",Tr="resize",Mr="scroll",uo="change",fn="dppxchange",rs="--",Pl=typeof window<"u",Jn=Pl?document:null,xl=Pl?window:null,Ar=Pl?navigator:null,oe,sn;function Zn(){let e=devicePixelRatio;oe!=e&&(oe=e,sn&&Xn(uo,sn,Zn),sn=matchMedia(`(min-resolution: ${oe-.001}dppx) and (max-resolution: ${oe+.001}dppx)`),Xt(uo,sn,Zn),xl.dispatchEvent(new CustomEvent(fn)))}function Xe(e,l){if(l!=null){let o=e.classList;!o.contains(l)&&o.add(l)}}function Qn(e,l){let o=e.classList;o.contains(l)&&o.remove(l)}function de(e,l,o){e.style[l]=o+"px"}function dt(e,l,o,n){let i=Jn.createElement(e);return l!=null&&Xe(i,l),o?.insertBefore(i,n),i}function ft(e,l){return dt("div",e,l)}var fo=new WeakMap;function Mt(e,l,o,n,i){let a="translate("+l+"px,"+o+"px)",f=fo.get(e);a!=f&&(e.style.transform=a,fo.set(e,a),l<0||o<0||l>n||o>i?Xe(e,Qt):Qn(e,Qt))}var ao=new WeakMap;function co(e,l,o){let n=l+o,i=ao.get(e);n!=i&&(ao.set(e,n),e.style.background=l,e.style.borderColor=o)}var po=new WeakMap;function ho(e,l,o,n){let i=l+""+o,a=po.get(e);i!=a&&(po.set(e,i),e.style.height=o+"px",e.style.width=l+"px",e.style.marginLeft=n?-l/2+"px":0,e.style.marginTop=n?-o/2+"px":0)}var us={passive:!0},Pr={...us,capture:!0};function Xt(e,l,o,n){l.addEventListener(e,o,n?Pr:us)}function Xn(e,l,o,n){l.removeEventListener(e,o,us)}Pl&&Zn();function wt(e,l,o,n){let i;o=o||0,n=n||l.length-1;let a=n<=2147483647;for(;n-o>1;)i=a?o+n>>1:et((o+n)/2),l[i]<e?o=i:n=i;return e-l[o]<=l[n]-e?o:n}function Go(e){return(o,n,i)=>{let a=-1,f=-1;for(let h=n;h<=i;h++)if(e(o[h])){a=h;break}for(let h=i;h>=n;h--)if(e(o[h])){f=h;break}return[a,f]}}var Yo=e=>e!=null,Bo=e=>e!=null&&e>0,pn=Go(Yo),Er=Go(Bo);function Dr(e,l,o,n=0,i=!1){let a=i?Er:pn,f=i?Bo:Yo;[l,o]=a(e,l,o);let h=e[l],p=e[l];if(l>-1)if(n==1)h=e[l],p=e[o];else if(n==-1)h=e[o],p=e[l];else for(let m=l;m<=o;m++){let b=e[m];f(b)&&(b<h?h=b:b>p&&(p=b))}return[h??ae,p??-ae]}function hn(e,l,o,n){let i=wo(e),a=wo(l);e==l&&(i==-1?(e*=o,l/=o):(e/=o,l*=o));let f=o==10?Dt:Uo,h=i==1?et:at,p=a==1?at:et,m=h(f(Pe(e))),b=p(f(Pe(l))),d=vl(o,m),w=vl(o,b);return o==10&&(m<0&&(d=ce(d,-m)),b<0&&(w=ce(w,-b))),n||o==2?(e=d*i,l=w*a):(e=qo(e,d),l=mn(l,w)),[e,l]}function fs(e,l,o,n){let i=hn(e,l,o,n);return e==0&&(i[0]=0),l==0&&(i[1]=0),i}var as=.1,mo={mode:3,pad:as},Bl={pad:0,soft:null,mode:0},Lr={min:Bl,max:Bl};function an(e,l,o,n){return gn(o)?go(e,l,o):(Bl.pad=o,Bl.soft=n?0:null,Bl.mode=n?3:0,go(e,l,Lr))}function ne(e,l){return e??l}function Cr(e,l,o){for(l=ne(l,0),o=ne(o,e.length-1);l<=o;){if(e[l]!=null)return!0;l++}return!1}function go(e,l,o){let n=o.min,i=o.max,a=ne(n.pad,0),f=ne(i.pad,0),h=ne(n.hard,-ae),p=ne(i.hard,ae),m=ne(n.soft,ae),b=ne(i.soft,-ae),d=ne(n.mode,0),w=ne(i.mode,0),D=l-e,P=Dt(D),z=Be(Pe(e),Pe(l)),N=Dt(z),A=Pe(N-P);(D<1e-24||A>10)&&(D=0,(e==0||l==0)&&(D=1e-24,d==2&&m!=ae&&(a=0),w==2&&b!=-ae&&(f=0)));let S=D||z||1e3,T=Dt(S),x=vl(10,et(T)),G=S*(D==0?e==0?.1:1:a),C=ce(qo(e-G,x/10),24),q=e>=m&&(d==1||d==3&&C<=m||d==2&&C>=m)?m:ae,K=Be(h,C<q&&e>=q?q:St(q,C)),Q=S*(D==0?l==0?.1:1:f),U=ce(mn(l+Q,x/10),24),v=l<=b&&(w==1||w==3&&U>=b||w==2&&U<=b)?b:-ae,$=St(p,U>v&&l<=v?v:Be(v,U));return K==$&&K==0&&($=100),[K,$]}var Rr=new Intl.NumberFormat(Pl?Ar.language:"en-US"),cs=e=>Rr.format(e),tt=Math,un=tt.PI,Pe=tt.abs,et=tt.floor,Ae=tt.round,at=tt.ceil,St=tt.min,Be=tt.max,vl=tt.pow,wo=tt.sign,Dt=tt.log10,Uo=tt.log2,zr=(e,l=1)=>tt.sinh(e)*l,Kn=(e,l=1)=>tt.asinh(e/l),ae=1/0;function So(e){return(Dt((e^e>>31)-(e>>31))|0)+1}function es(e,l,o){return St(Be(e,l),o)}function Ko(e){return typeof e=="function"}function X(e){return Ko(e)?e:()=>e}var Vr=()=>{},jo=e=>e,$o=(e,l)=>l,Or=e=>null,_o=e=>!0,bo=(e,l)=>e==l,Fr=/\\.\\d*?(?=9{6,}|0{6,})/gm,el=e=>{if(Zo(e)||Ht.has(e))return e;let l=`${e}`,o=l.match(Fr);if(o==null)return e;let n=o[0].length-1;if(l.indexOf("e-")!=-1){let[i,a]=l.split("e");return+`${el(i)}e${a}`}return ce(e,n)};function Jt(e,l){return el(ce(el(e/l))*l)}function mn(e,l){return el(at(el(e/l))*l)}function qo(e,l){return el(et(el(e/l))*l)}function ce(e,l=0){if(Zo(e))return e;let o=10**l,n=e*o*(1+Number.EPSILON);return Ae(n)/o}var Ht=new Map;function Jo(e){return((""+e).split(".")[1]||"").length}function Kl(e,l,o,n){let i=[],a=n.map(Jo);for(let f=l;f<o;f++){let h=Pe(f),p=ce(vl(e,f),h);for(let m=0;m<n.length;m++){let b=e==10?+`${n[m]}e${f}`:n[m]*p,d=(f>=0?0:h)+(f>=a[m]?0:a[m]),w=e==10?b:ce(b,d);i.push(w),Ht.set(w,d)}}return i}var Ul={},ps=[],Tl=[null,null],Nt=Array.isArray,Zo=Number.isInteger,Nr=e=>e===void 0;function yo(e){return typeof e=="string"}function gn(e){let l=!1;if(e!=null){let o=e.constructor;l=o==null||o==Object}return l}function Hr(e){return e!=null&&typeof e=="object"}var Ir=Object.getPrototypeOf(Uint8Array),Qo="__proto__";function Ml(e,l=gn){let o;if(Nt(e)){let n=e.find(i=>i!=null);if(Nt(n)||l(n)){o=Array(e.length);for(let i=0;i<e.length;i++)o[i]=Ml(e[i],l)}else o=e.slice()}else if(e instanceof Ir)o=e.slice();else if(l(e)){o={};for(let n in e)n!=Qo&&(o[n]=Ml(e[n],l))}else o=e;return o}function ve(e){let l=arguments;for(let o=1;o<l.length;o++){let n=l[o];for(let i in n)i!=Qo&&(gn(e[i])?ve(e[i],Ml(n[i])):e[i]=Ml(n[i]))}return e}var Wr=0,Gr=1,Yr=2;function Br(e,l,o){for(let n=0,i,a=-1;n<l.length;n++){let f=l[n];if(f>a){for(i=f-1;i>=0&&e[i]==null;)e[i--]=null;for(i=f+1;i<o&&e[i]==null;)e[a=i++]=null}}}function Ur(e,l){if($r(e)){let f=e[0].slice();for(let h=1;h<e.length;h++)f.push(...e[h].slice(1));return qr(f[0])||(f=jr(f)),f}let o=new Set;for(let f=0;f<e.length;f++){let p=e[f][0],m=p.length;for(let b=0;b<m;b++)o.add(p[b])}let n=[Array.from(o).sort((f,h)=>f-h)],i=n[0].length,a=new Map;for(let f=0;f<i;f++)a.set(n[0][f],f);for(let f=0;f<e.length;f++){let h=e[f],p=h[0];for(let m=1;m<h.length;m++){let b=h[m],d=Array(i).fill(void 0),w=l?l[f][m]:Gr,D=[];for(let P=0;P<b.length;P++){let z=b[P],N=a.get(p[P]);z===null?w!=Wr&&(d[N]=z,w==Yr&&D.push(N)):d[N]=z}Br(d,D,i),n.push(d)}}return n}var Kr=typeof queueMicrotask>"u"?e=>Promise.resolve().then(e):queueMicrotask;function jr(e){let l=e[0],o=l.length,n=Array(o);for(let a=0;a<n.length;a++)n[a]=a;n.sort((a,f)=>l[a]-l[f]);let i=[];for(let a=0;a<e.length;a++){let f=e[a],h=Array(o);for(let p=0;p<o;p++)h[p]=f[n[p]];i.push(h)}return i}function $r(e){let l=e[0][0],o=l.length;for(let n=1;n<e.length;n++){let i=e[n][0];if(i.length!=o)return!1;if(i!=l){for(let a=0;a<o;a++)if(i[a]!=l[a])return!1}}return!0}function qr(e,l=100){let o=e.length;if(o<=1)return!0;let n=0,i=o-1;for(;n<=i&&e[n]==null;)n++;for(;i>=n&&e[i]==null;)i--;if(i<=n)return!0;let a=Be(1,et((i-n+1)/l));for(let f=e[n],h=n+a;h<=i;h+=a){let p=e[h];if(p!=null){if(p<=f)return!1;f=p}}return!0}var Xo=["January","February","March","April","May","June","July","August","September","October","November","December"],ei=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function ti(e){return e.slice(0,3)}var Jr=ei.map(ti),Zr=Xo.map(ti),Qr={MMMM:Xo,MMM:Zr,WWWW:ei,WWW:Jr};function Il(e){return(e<10?"0":"")+e}function Xr(e){return(e<10?"00":e<100?"0":"")+e}var eu={YYYY:e=>e.getFullYear(),YY:e=>(e.getFullYear()+"").slice(2),MMMM:(e,l)=>l.MMMM[e.getMonth()],MMM:(e,l)=>l.MMM[e.getMonth()],MM:e=>Il(e.getMonth()+1),M:e=>e.getMonth()+1,DD:e=>Il(e.getDate()),D:e=>e.getDate(),WWWW:(e,l)=>l.WWWW[e.getDay()],WWW:(e,l)=>l.WWW[e.getDay()],HH:e=>Il(e.getHours()),H:e=>e.getHours(),h:e=>{let l=e.getHours();return l==0?12:l>12?l-12:l},AA:e=>e.getHours()>=12?"PM":"AM",aa:e=>e.getHours()>=12?"pm":"am",a:e=>e.getHours()>=12?"p":"a",mm:e=>Il(e.getMinutes()),m:e=>e.getMinutes(),ss:e=>Il(e.getSeconds()),s:e=>e.getSeconds(),fff:e=>Xr(e.getMilliseconds())};function hs(e,l){l=l||Qr;let o=[],n=/\\{([a-z]+)\\}|[^{]+/gi,i;for(;i=n.exec(e);)o.push(i[0][0]=="{"?eu[i[1]]:i[0]);return a=>{let f="";for(let h=0;h<o.length;h++)f+=typeof o[h]=="string"?o[h]:o[h](a,l);return f}}var tu=new Intl.DateTimeFormat().resolvedOptions().timeZone;function lu(e,l){let o;return l=="UTC"||l=="Etc/UTC"?o=new Date(+e+e.getTimezoneOffset()*6e4):l==tu?o=e:(o=new Date(e.toLocaleString("en-US",{timeZone:l})),o.setMilliseconds(e.getMilliseconds())),o}var li=e=>e%1==0,cn=[1,2,2.5,5],nu=Kl(10,-32,0,cn),ni=Kl(10,0,32,cn),su=ni.filter(li),Zt=nu.concat(ni),ms=`\n`,si="{YYYY}",ko=ms+si,oi="{M}/{D}",Yl=ms+oi,on=Yl+"/{YY}",ii="{aa}",ou="{h}:{mm}",kl=ou+ii,xo=ms+kl,vo=":{ss}",re=null;function ri(e){let l=e*1e3,o=l*60,n=o*60,i=n*24,a=i*30,f=i*365,p=(e==1?Kl(10,0,3,cn).filter(li):Kl(10,-3,0,cn)).concat([l,l*5,l*10,l*15,l*30,o,o*5,o*10,o*15,o*30,n,n*2,n*3,n*4,n*6,n*8,n*12,i,i*2,i*3,i*4,i*5,i*6,i*7,i*8,i*9,i*10,i*15,a,a*2,a*3,a*4,a*6,f,f*2,f*5,f*10,f*25,f*50,f*100]),m=[[f,si,re,re,re,re,re,re,1],[i*28,"{MMM}",ko,re,re,re,re,re,1],[i,oi,ko,re,re,re,re,re,1],[n,"{h}"+ii,on,re,Yl,re,re,re,1],[o,kl,on,re,Yl,re,re,re,1],[l,vo,on+" "+kl,re,Yl+" "+kl,re,xo,re,1],[e,vo+".{fff}",on+" "+kl,re,Yl+" "+kl,re,xo,re,1]];function b(d){return(w,D,P,z,N,A)=>{let S=[],T=N>=f,x=N>=a&&N<f,G=d(P),C=ce(G*e,3),q=jn(G.getFullYear(),T?0:G.getMonth(),x||T?1:G.getDate()),K=ce(q*e,3);if(x||T){let Q=x?N/a:0,U=T?N/f:0,v=C==K?C:ce(jn(q.getFullYear()+U,q.getMonth()+Q,1)*e,3),$=new Date(Ae(v/e)),V=$.getFullYear(),Y=$.getMonth();for(let I=0;v<=z;I++){let ee=jn(V+U*I,Y+Q*I,1),H=ee-d(ce(ee*e,3));v=ce((+ee+H)*e,3),v<=z&&S.push(v)}}else{let Q=N>=i?i:N,U=et(P)-et(C),v=K+U+mn(C-K,Q);S.push(v);let $=d(v),V=$.getHours()+$.getMinutes()/o+$.getSeconds()/n,Y=N/n,I=w.axes[D]._space,ee=A/I;for(;v=ce(v+N,e==1?0:3),!(v>z);)if(Y>1){let H=et(ce(V+Y,6))%24,te=d(v).getHours()-H;te>1&&(te=-1),v-=te*n,V=(V+Y)%24;let ue=S[S.length-1];ce((v-ue)/N,3)*ee>=.7&&S.push(v)}else S.push(v)}return S}}return[p,m,b]}var[iu,ru,uu]=ri(1),[fu,au,cu]=ri(.001);Kl(2,-53,53,[1]);function To(e,l){return e.map(o=>o.map((n,i)=>i==0||i==8||n==null?n:l(i==1||o[8]==0?n:o[1]+n)))}function Mo(e,l){return(o,n,i,a,f)=>{let h=l.find(P=>f>=P[0])||l[l.length-1],p,m,b,d,w,D;return n.map(P=>{let z=e(P),N=z.getFullYear(),A=z.getMonth(),S=z.getDate(),T=z.getHours(),x=z.getMinutes(),G=z.getSeconds(),C=N!=p&&h[2]||A!=m&&h[3]||S!=b&&h[4]||T!=d&&h[5]||x!=w&&h[6]||G!=D&&h[7]||h[1];return p=N,m=A,b=S,d=T,w=x,D=G,C(z)})}}function pu(e,l){let o=hs(l);return(n,i,a,f,h)=>i.map(p=>o(e(p)))}function jn(e,l,o){return new Date(e,l,o)}function Ao(e,l){return l(e)}var hu="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Po(e,l){return(o,n,i,a)=>a==null?rs:l(e(n))}function mu(e,l){let o=e.series[l];return o.width?o.stroke(e,l):o.points.width?o.points.stroke(e,l):null}function gu(e,l){return e.series[l].fill(e,l)}var du={show:!0,live:!0,isolate:!1,mount:Vr,markers:{show:!0,width:2,stroke:mu,fill:gu,dash:"solid"},idx:null,idxs:null,values:[]};function wu(e,l){let o=e.cursor.points,n=ft(),i=o.size(e,l);de(n,Wl,i),de(n,Gl,i);let a=i/-2;de(n,"marginLeft",a),de(n,"marginTop",a);let f=o.width(e,l,i);return f&&de(n,"borderWidth",f),n}function Su(e,l){let o=e.series[l].points;return o._fill||o._stroke}function _u(e,l){let o=e.series[l].points;return o._stroke||o._fill}function bu(e,l){return e.series[l].points.size}var $n=[0,0];function yu(e,l,o){return $n[0]=l,$n[1]=o,$n}function rn(e,l,o,n=!0){return i=>{i.button==0&&(!n||i.target==l)&&o(i)}}function qn(e,l,o,n=!0){return i=>{(!n||i.target==l)&&o(i)}}var ku={show:!0,x:!0,y:!0,lock:!1,move:yu,points:{one:!1,show:wu,size:bu,width:0,stroke:_u,fill:Su},bind:{mousedown:rn,mouseup:rn,click:rn,dblclick:rn,mousemove:qn,mouseleave:qn,mouseenter:qn},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(e,l)=>{l.stopPropagation(),l.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(e,l,o,n,i)=>n-i,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},ui={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},gs=ve({},ui,{filter:$o}),fi=ve({},gs,{size:10}),ai=ve({},ui,{show:!1}),ds=\'12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"\',ci="bold "+ds,pi=1.5,Eo={show:!0,scale:"x",stroke:is,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:ci,side:2,grid:gs,ticks:fi,border:ai,font:ds,lineGap:pi,rotate:0},xu="Value",vu="Time",Do={show:!0,scale:"x",auto:!1,sorted:1,min:ae,max:-ae,idxs:[]};function Tu(e,l,o,n,i){return l.map(a=>a==null?"":cs(a))}function Mu(e,l,o,n,i,a,f){let h=[],p=Ht.get(i)||0;o=f?o:ce(mn(o,i),p);for(let m=o;m<=n;m=ce(m+i,p))h.push(Object.is(m,-0)?0:m);return h}function ts(e,l,o,n,i,a,f){let h=[],p=e.scales[e.axes[l].scale].log,m=p==10?Dt:Uo,b=et(m(o));i=vl(p,b),p==10&&(i=Zt[wt(i,Zt)]);let d=o,w=i*p;p==10&&(w=Zt[wt(w,Zt)]);do h.push(d),d=d+i,p==10&&!Ht.has(d)&&(d=ce(d,Ht.get(i))),d>=w&&(i=d,w=i*p,p==10&&(w=Zt[wt(w,Zt)]));while(d<=n);return h}function Au(e,l,o,n,i,a,f){let p=e.scales[e.axes[l].scale].asinh,m=n>p?ts(e,l,Be(p,o),n,i):[p],b=n>=0&&o<=0?[0]:[];return(o<-p?ts(e,l,Be(p,-n),-o,i):[p]).reverse().map(w=>-w).concat(b,m)}var hi=/./,Pu=/[12357]/,Eu=/[125]/,Lo=/1/,ls=(e,l,o,n)=>e.map((i,a)=>l==4&&i==0||a%n==0&&o.test(i.toExponential()[i<0?1:0])?i:null);function Du(e,l,o,n,i){let a=e.axes[o],f=a.scale,h=e.scales[f],p=e.valToPos,m=a._space,b=p(10,f),d=p(9,f)-b>=m?hi:p(7,f)-b>=m?Pu:p(5,f)-b>=m?Eu:Lo;if(d==Lo){let w=Pe(p(1,f)-b);if(w<m)return ls(l.slice().reverse(),h.distr,d,at(m/w)).reverse()}return ls(l,h.distr,d,1)}function Lu(e,l,o,n,i){let a=e.axes[o],f=a.scale,h=a._space,p=e.valToPos,m=Pe(p(1,f)-p(2,f));return m<h?ls(l.slice().reverse(),3,hi,at(h/m)).reverse():l}function Cu(e,l,o,n){return n==null?rs:l==null?"":cs(l)}var Co={show:!0,scale:"y",stroke:is,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:ci,side:3,grid:gs,ticks:fi,border:ai,font:ds,lineGap:pi,rotate:0};function Ru(e,l){let o=3+(e||1)*2;return ce(o*l,3)}function zu(e,l){let{scale:o,idxs:n}=e.series[0],i=e._data[0],a=e.valToPos(i[n[0]],o,!0),f=e.valToPos(i[n[1]],o,!0),h=Pe(f-a),p=e.series[l],m=h/(p.points.space*oe);return n[1]-n[0]<=m}var Ro={scale:null,auto:!0,sorted:0,min:ae,max:-ae},mi=(e,l,o,n,i)=>i,zo={show:!0,auto:!0,sorted:0,gaps:mi,alpha:1,facets:[ve({},Ro,{scale:"x"}),ve({},Ro,{scale:"y"})]},Vo={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:mi,alpha:1,points:{show:zu,filter:null},values:null,min:ae,max:-ae,idxs:[],path:null,clip:null};function Vu(e,l,o,n,i){return o/10}var gi={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},Ou=ve({},gi,{time:!1,ori:1}),Oo={};function di(e,l){let o=Oo[e];return o||(o={key:e,plots:[],sub(n){o.plots.push(n)},unsub(n){o.plots=o.plots.filter(i=>i!=n)},pub(n,i,a,f,h,p,m){for(let b=0;b<o.plots.length;b++)o.plots[b]!=i&&o.plots[b].pub(n,i,a,f,h,p,m)}},e!=null&&(Oo[e]=o)),o}var Al=1,ns=2;function tl(e,l,o){let n=e.mode,i=e.series[l],a=n==2?e._data[l]:e._data,f=e.scales,h=e.bbox,p=a[0],m=n==2?a[1]:a[l],b=n==2?f[i.facets[0].scale]:f[e.series[0].scale],d=n==2?f[i.facets[1].scale]:f[i.scale],w=h.left,D=h.top,P=h.width,z=h.height,N=e.valToPosH,A=e.valToPosV;return b.ori==0?o(i,p,m,b,d,N,A,w,D,P,z,wn,El,_n,Si,bi):o(i,p,m,b,d,A,N,D,w,z,P,Sn,Dl,_s,_i,yi)}function ws(e,l){let o=0,n=0,i=ne(e.bands,ps);for(let a=0;a<i.length;a++){let f=i[a];f.series[0]==l?o=f.dir:f.series[1]==l&&(f.dir==1?n|=1:n|=2)}return[o,n==1?-1:n==2?1:n==3?2:0]}function Fu(e,l,o,n,i){let a=e.mode,f=e.series[l],h=a==2?f.facets[1].scale:f.scale,p=e.scales[h];return i==-1?p.min:i==1?p.max:p.distr==3?p.dir==1?p.min:p.max:0}function Lt(e,l,o,n,i,a){return tl(e,l,(f,h,p,m,b,d,w,D,P,z,N)=>{let A=f.pxRound,S=m.dir*(m.ori==0?1:-1),T=m.ori==0?El:Dl,x,G;S==1?(x=o,G=n):(x=n,G=o);let C=A(d(h[x],m,z,D)),q=A(w(p[x],b,N,P)),K=A(d(h[G],m,z,D)),Q=A(w(a==1?b.max:b.min,b,N,P)),U=new Path2D(i);return T(U,K,Q),T(U,C,Q),T(U,C,q),U})}function dn(e,l,o,n,i,a){let f=null;if(e.length>0){f=new Path2D;let h=l==0?_n:_s,p=o;for(let d=0;d<e.length;d++){let w=e[d];if(w[1]>w[0]){let D=w[0]-p;D>0&&h(f,p,n,D,n+a),p=w[1]}}let m=o+i-p,b=10;m>0&&h(f,p,n-b/2,m,n+a+b)}return f}function Nu(e,l,o){let n=e[e.length-1];n&&n[0]==l?n[1]=o:e.push([l,o])}function Ss(e,l,o,n,i,a,f){let h=[],p=e.length;for(let m=i==1?o:n;m>=o&&m<=n;m+=i)if(l[m]===null){let d=m,w=m;if(i==1)for(;++m<=n&&l[m]===null;)w=m;else for(;--m>=o&&l[m]===null;)w=m;let D=a(e[d]),P=w==d?D:a(e[w]),z=d-i;D=f<=0&&z>=0&&z<p?a(e[z]):D;let A=w+i;P=f>=0&&A>=0&&A<p?a(e[A]):P,P>=D&&h.push([D,P])}return h}function Fo(e){return e==0?jo:e==1?Ae:l=>Jt(l,e)}function wi(e){let l=e==0?wn:Sn,o=e==0?(i,a,f,h,p,m)=>{i.arcTo(a,f,h,p,m)}:(i,a,f,h,p,m)=>{i.arcTo(f,a,p,h,m)},n=e==0?(i,a,f,h,p)=>{i.rect(a,f,h,p)}:(i,a,f,h,p)=>{i.rect(f,a,p,h)};return(i,a,f,h,p,m=0,b=0)=>{m==0&&b==0?n(i,a,f,h,p):(m=St(m,h/2,p/2),b=St(b,h/2,p/2),l(i,a+m,f),o(i,a+h,f,a+h,f+p,m),o(i,a+h,f+p,a,f+p,b),o(i,a,f+p,a,f,b),o(i,a,f,a+h,f,m),i.closePath())}}var wn=(e,l,o)=>{e.moveTo(l,o)},Sn=(e,l,o)=>{e.moveTo(o,l)},El=(e,l,o)=>{e.lineTo(l,o)},Dl=(e,l,o)=>{e.lineTo(o,l)},_n=wi(0),_s=wi(1),Si=(e,l,o,n,i,a)=>{e.arc(l,o,n,i,a)},_i=(e,l,o,n,i,a)=>{e.arc(o,l,n,i,a)},bi=(e,l,o,n,i,a,f)=>{e.bezierCurveTo(l,o,n,i,a,f)},yi=(e,l,o,n,i,a,f)=>{e.bezierCurveTo(o,l,i,n,f,a)};function ki(e){return(l,o,n,i,a)=>tl(l,o,(f,h,p,m,b,d,w,D,P,z,N)=>{let{pxRound:A,points:S}=f,T,x;m.ori==0?(T=wn,x=Si):(T=Sn,x=_i);let G=ce(S.width*oe,3),C=(S.size-S.width)/2*oe,q=ce(C*2,3),K=new Path2D,Q=new Path2D,{left:U,top:v,width:$,height:V}=l.bbox;_n(Q,U-q,v-q,$+q*2,V+q*2);let Y=I=>{if(p[I]!=null){let ee=A(d(h[I],m,z,D)),H=A(w(p[I],b,N,P));T(K,ee+C,H),x(K,ee,H,C,0,un*2)}};if(a)a.forEach(Y);else for(let I=n;I<=i;I++)Y(I);return{stroke:G>0?K:null,fill:K,clip:Q,flags:Al|ns}})}function xi(e){return(l,o,n,i,a,f)=>{n!=i&&(a!=n&&f!=n&&e(l,o,n),a!=i&&f!=i&&e(l,o,i),e(l,o,f))}}var Hu=xi(El),Iu=xi(Dl);function vi(e){let l=ne(e?.alignGaps,0);return(o,n,i,a)=>tl(o,n,(f,h,p,m,b,d,w,D,P,z,N)=>{[i,a]=pn(p,i,a);let A=f.pxRound,S=V=>A(d(V,m,z,D)),T=V=>A(w(V,b,N,P)),x,G;m.ori==0?(x=El,G=Hu):(x=Dl,G=Iu);let C=m.dir*(m.ori==0?1:-1),q={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:Al},K=q.stroke,Q=!1;if(a-i>=z*4){let V=O=>o.posToVal(O,m.key,!0),Y=null,I=null,ee,H,Ue,we=S(h[C==1?i:a]),te=S(h[i]),ue=S(h[a]),J=V(C==1?te+1:ue-1);for(let O=C==1?i:a;O>=i&&O<=a;O+=C){let Te=h[O],Se=(C==1?Te<J:Te>J)?we:S(Te),ie=p[O];Se==we?ie!=null?(H=ie,Y==null?(x(K,Se,T(H)),ee=Y=I=H):H<Y?Y=H:H>I&&(I=H)):ie===null&&(Q=!0):(Y!=null&&G(K,we,T(Y),T(I),T(ee),T(H)),ie!=null?(H=ie,x(K,Se,T(H)),Y=I=ee=H):(Y=I=null,ie===null&&(Q=!0)),we=Se,J=V(we+C))}Y!=null&&Y!=I&&Ue!=we&&G(K,we,T(Y),T(I),T(ee),T(H))}else for(let V=C==1?i:a;V>=i&&V<=a;V+=C){let Y=p[V];Y===null?Q=!0:Y!=null&&x(K,S(h[V]),T(Y))}let[v,$]=ws(o,n);if(f.fill!=null||v!=0){let V=q.fill=new Path2D(K),Y=f.fillTo(o,n,f.min,f.max,v),I=T(Y),ee=S(h[i]),H=S(h[a]);C==-1&&([H,ee]=[ee,H]),x(V,H,I),x(V,ee,I)}if(!f.spanGaps){let V=[];Q&&V.push(...Ss(h,p,i,a,C,S,l)),q.gaps=V=f.gaps(o,n,i,a,V),q.clip=dn(V,m.ori,D,P,z,N)}return $!=0&&(q.band=$==2?[Lt(o,n,i,a,K,-1),Lt(o,n,i,a,K,1)]:Lt(o,n,i,a,K,$)),q})}function Wu(e){let l=ne(e.align,1),o=ne(e.ascDesc,!1),n=ne(e.alignGaps,0),i=ne(e.extend,!1);return(a,f,h,p)=>tl(a,f,(m,b,d,w,D,P,z,N,A,S,T)=>{[h,p]=pn(d,h,p);let x=m.pxRound,{left:G,width:C}=a.bbox,q=te=>x(P(te,w,S,N)),K=te=>x(z(te,D,T,A)),Q=w.ori==0?El:Dl,U={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:Al},v=U.stroke,$=w.dir*(w.ori==0?1:-1),V=K(d[$==1?h:p]),Y=q(b[$==1?h:p]),I=Y,ee=Y;i&&l==-1&&(ee=G,Q(v,ee,V)),Q(v,Y,V);for(let te=$==1?h:p;te>=h&&te<=p;te+=$){let ue=d[te];if(ue==null)continue;let J=q(b[te]),O=K(ue);l==1?Q(v,J,V):Q(v,I,O),Q(v,J,O),V=O,I=J}let H=I;i&&l==1&&(H=G+C,Q(v,H,V));let[Ue,we]=ws(a,f);if(m.fill!=null||Ue!=0){let te=U.fill=new Path2D(v),ue=m.fillTo(a,f,m.min,m.max,Ue),J=K(ue);Q(te,H,J),Q(te,ee,J)}if(!m.spanGaps){let te=[];te.push(...Ss(b,d,h,p,$,q,n));let ue=m.width*oe/2,J=o||l==1?ue:-ue,O=o||l==-1?-ue:ue;te.forEach(Te=>{Te[0]+=J,Te[1]+=O}),U.gaps=te=m.gaps(a,f,h,p,te),U.clip=dn(te,w.ori,N,A,S,T)}return we!=0&&(U.band=we==2?[Lt(a,f,h,p,v,-1),Lt(a,f,h,p,v,1)]:Lt(a,f,h,p,v,we)),U})}function No(e,l,o,n,i,a,f=ae){if(e.length>1){let h=null;for(let p=0,m=1/0;p<e.length;p++)if(l[p]!==void 0){if(h!=null){let b=Pe(e[p]-e[h]);b<m&&(m=b,f=Pe(o(e[p],n,i,a)-o(e[h],n,i,a)))}h=p}}return f}function Gu(e){e=e||Ul;let l=ne(e.size,[.6,ae,1]),o=e.align||0,n=e.gap||0,i=e.radius;i=i==null?[0,0]:typeof i=="number"?[i,0]:i;let a=X(i),f=1-l[0],h=ne(l[1],ae),p=ne(l[2],1),m=ne(e.disp,Ul),b=ne(e.each,D=>{}),{fill:d,stroke:w}=m;return(D,P,z,N)=>tl(D,P,(A,S,T,x,G,C,q,K,Q,U,v)=>{let $=A.pxRound,V=o,Y=n*oe,I=h*oe,ee=p*oe,H,Ue;x.ori==0?[H,Ue]=a(D,P):[Ue,H]=a(D,P);let we=x.dir*(x.ori==0?1:-1),te=x.ori==0?_n:_s,ue=x.ori==0?b:(L,pe,Me,ol,Gt,bt,Yt)=>{b(L,pe,Me,Gt,ol,Yt,bt)},J=ne(D.bands,ps).find(L=>L.series[0]==P),O=J!=null?J.dir:0,Te=A.fillTo(D,P,A.min,A.max,O),He=$(q(Te,G,v,Q)),Se,ie,ct,$e=U,be=$(A.width*oe),_t=!1,At=null,nt=null,Ct=null,ll=null;d!=null&&(be==0||w!=null)&&(_t=!0,At=d.values(D,P,z,N),nt=new Map,new Set(At).forEach(L=>{L!=null&&nt.set(L,new Path2D)}),be>0&&(Ct=w.values(D,P,z,N),ll=new Map,new Set(Ct).forEach(L=>{L!=null&&ll.set(L,new Path2D)})));let{x0:nl,size:Cl}=m;if(nl!=null&&Cl!=null){V=1,S=nl.values(D,P,z,N),nl.unit==2&&(S=S.map(Me=>D.posToVal(K+Me*U,x.key,!0)));let L=Cl.values(D,P,z,N);Cl.unit==2?ie=L[0]*U:ie=C(L[0],x,U,K)-C(0,x,U,K),$e=No(S,T,C,x,U,K,$e),ct=$e-ie+Y}else $e=No(S,T,C,x,U,K,$e),ct=$e*f+Y,ie=$e-ct;ct<1&&(ct=0),be>=ie/2&&(be=0),ct<5&&($=jo);let $l=ct>0,It=$e-ct-($l?be:0);ie=$(es(It,ee,I)),Se=(V==0?ie/2:V==we?0:ie)-V*we*((V==0?Y/2:0)+($l?be/2:0));let Ie={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},sl=_t?null:new Path2D,Pt=null;if(J!=null)Pt=D.data[J.series[1]];else{let{y0:L,y1:pe}=m;L!=null&&pe!=null&&(T=pe.values(D,P,z,N),Pt=L.values(D,P,z,N))}let Wt=H*ie,j=Ue*ie;for(let L=we==1?z:N;L>=z&&L<=N;L+=we){let pe=T[L];if(pe==null)continue;if(Pt!=null){let Ke=Pt[L]??0;if(pe-Ke==0)continue;He=q(Ke,G,v,Q)}let Me=x.distr!=2||m!=null?S[L]:L,ol=C(Me,x,U,K),Gt=q(ne(pe,Te),G,v,Q),bt=$(ol-Se),Yt=$(Be(Gt,He)),qe=$(St(Gt,He)),st=Yt-qe;if(pe!=null){let Ke=pe<0?j:Wt,pt=pe<0?Wt:j;_t?(be>0&&Ct[L]!=null&&te(ll.get(Ct[L]),bt,qe+et(be/2),ie,Be(0,st-be),Ke,pt),At[L]!=null&&te(nt.get(At[L]),bt,qe+et(be/2),ie,Be(0,st-be),Ke,pt)):te(sl,bt,qe+et(be/2),ie,Be(0,st-be),Ke,pt),ue(D,P,L,bt-be/2,qe,ie+be,st)}}return be>0?Ie.stroke=_t?ll:sl:_t||(Ie._fill=A.width==0?A._fill:A._stroke??A._fill,Ie.width=0),Ie.fill=_t?nt:sl,Ie})}function Yu(e,l){let o=ne(l?.alignGaps,0);return(n,i,a,f)=>tl(n,i,(h,p,m,b,d,w,D,P,z,N,A)=>{[a,f]=pn(m,a,f);let S=h.pxRound,T=H=>S(w(H,b,N,P)),x=H=>S(D(H,d,A,z)),G,C,q;b.ori==0?(G=wn,q=El,C=bi):(G=Sn,q=Dl,C=yi);let K=b.dir*(b.ori==0?1:-1),Q=T(p[K==1?a:f]),U=Q,v=[],$=[];for(let H=K==1?a:f;H>=a&&H<=f;H+=K)if(m[H]!=null){let we=p[H],te=T(we);v.push(U=te),$.push(x(m[H]))}let V={stroke:e(v,$,G,q,C,S),fill:null,clip:null,band:null,gaps:null,flags:Al},Y=V.stroke,[I,ee]=ws(n,i);if(h.fill!=null||I!=0){let H=V.fill=new Path2D(Y),Ue=h.fillTo(n,i,h.min,h.max,I),we=x(Ue);q(H,U,we),q(H,Q,we)}if(!h.spanGaps){let H=[];H.push(...Ss(p,m,a,f,K,T,o)),V.gaps=H=h.gaps(n,i,a,f,H),V.clip=dn(H,b.ori,P,z,N,A)}return ee!=0&&(V.band=ee==2?[Lt(n,i,a,f,Y,-1),Lt(n,i,a,f,Y,1)]:Lt(n,i,a,f,Y,ee)),V})}function Bu(e){return Yu(Uu,e)}function Uu(e,l,o,n,i,a){let f=e.length;if(f<2)return null;let h=new Path2D;if(o(h,e[0],l[0]),f==2)n(h,e[1],l[1]);else{let p=Array(f),m=Array(f-1),b=Array(f-1),d=Array(f-1);for(let w=0;w<f-1;w++)b[w]=l[w+1]-l[w],d[w]=e[w+1]-e[w],m[w]=b[w]/d[w];p[0]=m[0];for(let w=1;w<f-1;w++)m[w]===0||m[w-1]===0||m[w-1]>0!=m[w]>0?p[w]=0:(p[w]=3*(d[w-1]+d[w])/((2*d[w]+d[w-1])/m[w-1]+(d[w]+2*d[w-1])/m[w]),isFinite(p[w])||(p[w]=0));p[f-1]=m[f-2];for(let w=0;w<f-1;w++)i(h,e[w]+d[w]/3,l[w]+p[w]*d[w]/3,e[w+1]-d[w]/3,l[w+1]-p[w+1]*d[w]/3,e[w+1],l[w+1])}return h}var ss=new Set;function Ho(){for(let e of ss)e.syncRect(!0)}Pl&&(Xt(Tr,xl,Ho),Xt(Mr,xl,Ho,!0),Xt(fn,xl,()=>{Ee.pxRatio=oe}));var Ku=vi(),ju=ki();function Io(e,l,o,n){return(n?[e[0],e[1]].concat(e.slice(2)):[e[0]].concat(e.slice(1))).map((a,f)=>os(a,f,l,o))}function $u(e,l){return e.map((o,n)=>n==0?{}:ve({},l,o))}function os(e,l,o,n){return ve({},l==0?o:n,e)}function Ti(e,l,o){return l==null?Tl:[l,o]}var qu=Ti;function Ju(e,l,o){return l==null?Tl:an(l,o,as,!0)}function Mi(e,l,o,n){return l==null?Tl:hn(l,o,e.scales[n].log,!1)}var Zu=Mi;function Ai(e,l,o,n){return l==null?Tl:fs(l,o,e.scales[n].log,!1)}var Qu=Ai;function Xu(e,l,o,n,i){let a=Be(So(e),So(l)),f=l-e,h=wt(i/n*f,o);do{let p=o[h],m=n*p/f;if(m>=i&&a+(p<5?Ht.get(p):0)<=17)return[p,m]}while(++h<o.length);return[0,0]}function Wo(e){let l,o;return e=e.replace(/(\\d+)px/,(n,i)=>(l=Ae((o=+i)*oe))+"px"),[e,l,o]}function ef(e){e.show&&[e.font,e.labelFont].forEach(l=>{let o=ce(l[2]*oe,1);l[0]=l[0].replace(/[0-9.]+px/,o+"px"),l[1]=o})}function Ee(e,l,o){let n={mode:ne(e.mode,1)},i=n.mode;function a(t,s,r,u){let c=s.valToPct(t);return u+r*(s.dir==-1?1-c:c)}function f(t,s,r,u){let c=s.valToPct(t);return u+r*(s.dir==-1?c:1-c)}function h(t,s,r,u){return s.ori==0?a(t,s,r,u):f(t,s,r,u)}n.valToPosH=a,n.valToPosV=f;let p=!1;n.status=0;let m=n.root=ft(rr);if(e.id!=null&&(m.id=e.id),Xe(m,e.class),e.title){let t=ft(ar,m);t.textContent=e.title}let b=dt("canvas"),d=n.ctx=b.getContext("2d"),w=ft(cr,m);Xt("click",w,t=>{t.target===P&&(he!=dl||_e!=wl)&&Fe.click(n,t)},!0);let D=n.under=ft(pr,w);w.appendChild(b);let P=n.over=ft(hr,w);e=Ml(e);let z=+ne(e.pxAlign,1),N=Fo(z);(e.plugins||[]).forEach(t=>{t.opts&&(e=t.opts(n,e)||e)});let A=e.ms||.001,S=n.series=i==1?Io(e.series||[],Do,Vo,!1):$u(e.series||[null],zo),T=n.axes=Io(e.axes||[],Eo,Co,!0),x=n.scales={},G=n.bands=e.bands||[];G.forEach(t=>{t.fill=X(t.fill||null),t.dir=ne(t.dir,-1)});let C=i==2?S[1].facets[0].scale:S[0].scale,q={axes:Ki,series:Wi},K=(e.drawOrder||["axes","series"]).map(t=>q[t]);function Q(t){let s=t.distr==3?r=>Dt(r>0?r:t.clamp(n,r,t.min,t.max,t.key)):t.distr==4?r=>Kn(r,t.asinh):t.distr==100?r=>t.fwd(r):r=>r;return r=>{let u=s(r),{_min:c,_max:g}=t,_=g-c;return(u-c)/_}}function U(t){let s=x[t];if(s==null){let r=(e.scales||Ul)[t]||Ul;if(r.from!=null){U(r.from);let u=ve({},x[r.from],r,{key:t});u.valToPct=Q(u),x[t]=u}else{s=x[t]=ve({},t==C?gi:Ou,r),s.key=t;let u=s.time,c=s.range,g=Nt(c);if((t!=C||i==2&&!u)&&(g&&(c[0]==null||c[1]==null)&&(c={min:c[0]==null?mo:{mode:1,hard:c[0],soft:c[0]},max:c[1]==null?mo:{mode:1,hard:c[1],soft:c[1]}},g=!1),!g&&gn(c))){let _=c;c=(y,k,M)=>k==null?Tl:an(k,M,_)}s.range=X(c||(u?qu:t==C?s.distr==3?Zu:s.distr==4?Qu:Ti:s.distr==3?Mi:s.distr==4?Ai:Ju)),s.auto=X(g?!1:s.auto),s.clamp=X(s.clamp||Vu),s._min=s._max=null,s.valToPct=Q(s)}}}U("x"),U("y"),i==1&&S.forEach(t=>{U(t.scale)}),T.forEach(t=>{U(t.scale)});for(let t in e.scales)U(t);let v=x[C],$=v.distr,V,Y;v.ori==0?(Xe(m,ur),V=a,Y=f):(Xe(m,fr),V=f,Y=a);let I={};for(let t in x){let s=x[t];(s.min!=null||s.max!=null)&&(I[t]={min:s.min,max:s.max},s.min=s.max=null)}let ee=e.tzDate||(t=>new Date(Ae(t/A))),H=e.fmtDate||hs,Ue=A==1?uu(ee):cu(ee),we=Mo(ee,To(A==1?ru:au,H)),te=Po(ee,Ao(hu,H)),ue=[],J=n.legend=ve({},du,e.legend),O=n.cursor=ve({},ku,{drag:{y:i==2}},e.cursor),Te=J.show,He=O.show,Se=J.markers;J.idxs=ue,Se.width=X(Se.width),Se.dash=X(Se.dash),Se.stroke=X(Se.stroke),Se.fill=X(Se.fill);let ie,ct,$e,be=[],_t=[],At,nt=!1,Ct={};if(J.live){let t=S[1]?S[1].values:null;nt=t!=null,At=nt?t(n,1,0):{_:0};for(let s in At)Ct[s]=rs}if(Te)if(ie=dt("table",_r,m),$e=dt("tbody",null,ie),J.mount(n,ie),nt){ct=dt("thead",null,ie,$e);let t=dt("tr",null,ct);dt("th",null,t);for(var ll in At)dt("th",to,t).textContent=ll}else Xe(ie,yr),J.live&&Xe(ie,br);let nl={show:!0},Cl={show:!1};function $l(t,s){if(s==0&&(nt||!J.live||i==2))return Tl;let r=[],u=dt("tr",kr,$e,$e.childNodes[s]);Xe(u,t.class),t.show||Xe(u,Qt);let c=dt("th",null,u);if(Se.show){let y=ft(xr,c);if(s>0){let k=Se.width(n,s);k&&(y.style.border=k+"px "+Se.dash(n,s)+" "+Se.stroke(n,s)),y.style.background=Se.fill(n,s)}}let g=ft(to,c);t.label instanceof HTMLElement?g.appendChild(t.label):g.textContent=t.label,s>0&&(Se.show||(g.style.color=t.width>0?Se.stroke(n,s):Se.fill(n,s)),Ie("click",c,y=>{if(O._lock)return;Ut(y);let k=S.indexOf(t);if((y.ctrlKey||y.metaKey)!=J.isolate){let M=S.some((E,R)=>R>0&&R!=k&&E.show);S.forEach((E,R)=>{R>0&&kt(R,M?R==k?nl:Cl:nl,!0,xe.setSeries)})}else kt(k,{show:!t.show},!0,xe.setSeries)},!1),rl&&Ie(oo,c,y=>{O._lock||(Ut(y),kt(S.indexOf(t),_l,!0,xe.setSeries))},!1));for(var _ in At){let y=dt("td",vr,u);y.textContent="--",r.push(y)}return[u,r]}let It=new Map;function Ie(t,s,r,u=!0){let c=It.get(s)||{},g=O.bind[t](n,s,r,u);g&&(Xt(t,s,c[t]=g),It.set(s,c))}function sl(t,s,r){let u=It.get(s)||{};for(let c in u)(t==null||c==t)&&(Xn(c,s,u[c]),delete u[c]);t==null&&It.delete(s)}let Pt=0,Wt=0,j=0,L=0,pe=0,Me=0,ol=pe,Gt=Me,bt=j,Yt=L,qe=0,st=0,Ke=0,pt=0;n.bbox={};let bn=!1,ql=!1,il=!1,Bt=!1,Jl=!1,ot=!1;function yn(t,s,r){(r||t!=n.width||s!=n.height)&&Ts(t,s),pl(!1),il=!0,ql=!0,hl()}function Ts(t,s){n.width=Pt=j=t,n.height=Wt=L=s,pe=Me=0,zi(),Vi();let r=n.bbox;qe=r.left=Jt(pe*oe,.5),st=r.top=Jt(Me*oe,.5),Ke=r.width=Jt(j*oe,.5),pt=r.height=Jt(L*oe,.5)}let Li=3;function Ci(){let t=!1,s=0;for(;!t;){s++;let r=Bi(s),u=Ui(s);t=s==Li||r&&u,t||(Ts(n.width,n.height),ql=!0)}}function Ri({width:t,height:s}){yn(t,s)}n.setSize=Ri;function zi(){let t=!1,s=!1,r=!1,u=!1;T.forEach((c,g)=>{if(c.show&&c._show){let{side:_,_size:y}=c,k=_%2,M=c.label!=null?c.labelSize:0,E=y+M;E>0&&(k?(j-=E,_==3?(pe+=E,u=!0):r=!0):(L-=E,_==0?(Me+=E,t=!0):s=!0))}}),Kt[0]=t,Kt[1]=r,Kt[2]=s,Kt[3]=u,j-=Rt[1]+Rt[3],pe+=Rt[3],L-=Rt[2]+Rt[0],Me+=Rt[0]}function Vi(){let t=pe+j,s=Me+L,r=pe,u=Me;function c(g,_){switch(g){case 1:return t+=_,t-_;case 2:return s+=_,s-_;case 3:return r-=_,r+_;case 0:return u-=_,u+_}}T.forEach((g,_)=>{if(g.show&&g._show){let y=g.side;g._pos=c(y,g._size),g.label!=null&&(g._lpos=c(y,g.labelSize))}})}if(O.dataIdx==null){let t=O.hover,s=t.skip=new Set(t.skip??[]);s.add(void 0);let r=t.prox=X(t.prox),u=t.bias??(t.bias=0);O.dataIdx=(c,g,_,y)=>{if(g==0)return _;let k=_,M=r(c,g,_,y)??ae,E=M>=0&&M<ae,R=v.ori==0?j:L,B=O.left,se=l[0],le=l[g];if(s.has(le[_])){k=null;let Z=null,W=null,F;if(u==0||u==-1)for(F=_;Z==null&&F-- >0;)s.has(le[F])||(Z=F);if(u==0||u==1)for(F=_;W==null&&F++<le.length;)s.has(le[F])||(W=F);if(Z!=null||W!=null)if(E){let ge=Z==null?-1/0:V(se[Z],v,R,0),ye=W==null?1/0:V(se[W],v,R,0),Ve=B-ge,fe=ye-B;Ve<=fe?Ve<=M&&(k=Z):fe<=M&&(k=W)}else k=W==null?Z:Z==null?W:_-Z<=W-_?Z:W}else E&&Pe(B-V(se[_],v,R,0))>M&&(k=null);return k}}let Ut=t=>{O.event=t};O.idxs=ue,O._lock=!1;let Ne=O.points;Ne.show=X(Ne.show),Ne.size=X(Ne.size),Ne.stroke=X(Ne.stroke),Ne.width=X(Ne.width),Ne.fill=X(Ne.fill);let yt=n.focus=ve({},e.focus||{alpha:.3},O.focus),rl=yt.prox>=0,ul=rl&&Ne.one,it=[],fl=[],al=[];function Ms(t,s){let r=Ne.show(n,s);if(r instanceof HTMLElement)return Xe(r,Sr),Xe(r,t.class),Mt(r,-10,-10,j,L),P.insertBefore(r,it[s]),r}function As(t,s){if(i==1||s>0){let r=i==1&&x[t.scale].time,u=t.value;t.value=r?yo(u)?Po(ee,Ao(u,H)):u||te:u||Cu,t.label=t.label||(r?vu:xu)}if(ul||s>0){t.width=t.width==null?1:t.width,t.paths=t.paths||Ku||Or,t.fillTo=X(t.fillTo||Fu),t.pxAlign=+ne(t.pxAlign,z),t.pxRound=Fo(t.pxAlign),t.stroke=X(t.stroke||null),t.fill=X(t.fill||null),t._stroke=t._fill=t._paths=t._focus=null;let r=Ru(Be(1,t.width),1),u=t.points=ve({},{size:r,width:Be(1,r*.2),stroke:t.stroke,space:r*2,paths:ju,_stroke:null,_fill:null},t.points);u.show=X(u.show),u.filter=X(u.filter),u.fill=X(u.fill),u.stroke=X(u.stroke),u.paths=X(u.paths),u.pxAlign=t.pxAlign}if(Te){let r=$l(t,s);be.splice(s,0,r[0]),_t.splice(s,0,r[1]),J.values.push(null)}if(He){ue.splice(s,0,null);let r=null;ul?s==0&&(r=Ms(t,s)):s>0&&(r=Ms(t,s)),it.splice(s,0,r),fl.splice(s,0,0),al.splice(s,0,0)}ze("addSeries",s)}function Oi(t,s){s=s??S.length,t=i==1?os(t,s,Do,Vo):os(t,s,{},zo),S.splice(s,0,t),As(S[s],s)}n.addSeries=Oi;function Fi(t){if(S.splice(t,1),Te){J.values.splice(t,1),_t.splice(t,1);let s=be.splice(t,1)[0];sl(null,s.firstChild),s.remove()}He&&(ue.splice(t,1),it.splice(t,1)[0].remove(),fl.splice(t,1),al.splice(t,1)),ze("delSeries",t)}n.delSeries=Fi;let Kt=[!1,!1,!1,!1];function Ni(t,s){if(t._show=t.show,t.show){let r=t.side%2,u=x[t.scale];u==null&&(t.scale=r?S[1].scale:C,u=x[t.scale]);let c=u.time;t.size=X(t.size),t.space=X(t.space),t.rotate=X(t.rotate),Nt(t.incrs)&&t.incrs.forEach(_=>{!Ht.has(_)&&Ht.set(_,Jo(_))}),t.incrs=X(t.incrs||(u.distr==2?su:c?A==1?iu:fu:Zt)),t.splits=X(t.splits||(c&&u.distr==1?Ue:u.distr==3?ts:u.distr==4?Au:Mu)),t.stroke=X(t.stroke),t.grid.stroke=X(t.grid.stroke),t.ticks.stroke=X(t.ticks.stroke),t.border.stroke=X(t.border.stroke);let g=t.values;t.values=Nt(g)&&!Nt(g[0])?X(g):c?Nt(g)?Mo(ee,To(g,H)):yo(g)?pu(ee,g):g||we:g||Tu,t.filter=X(t.filter||(u.distr>=3&&u.log==10?Du:u.distr==3&&u.log==2?Lu:$o)),t.font=Wo(t.font),t.labelFont=Wo(t.labelFont),t._size=t.size(n,null,s,0),t._space=t._rotate=t._incrs=t._found=t._splits=t._values=null,t._size>0&&(Kt[s]=!0,t._el=ft(mr,w))}}function Rl(t,s,r,u){let[c,g,_,y]=r,k=s%2,M=0;return k==0&&(y||g)&&(M=s==0&&!c||s==2&&!_?Ae(Eo.size/3):0),k==1&&(c||_)&&(M=s==1&&!g||s==3&&!y?Ae(Co.size/2):0),M}let Ps=n.padding=(e.padding||[Rl,Rl,Rl,Rl]).map(t=>X(ne(t,Rl))),Rt=n._padding=Ps.map((t,s)=>t(n,s,Kt,0)),Oe,De=null,Le=null,Zl=i==1?S[0].idxs:null,ht=null,zl=!1;function Es(t,s){if(l=t??[],n.data=n._data=l,i==2){Oe=0;for(let r=1;r<S.length;r++)Oe+=l[r][0].length}else{l.length==0&&(n.data=n._data=l=[[]]),ht=l[0],Oe=ht.length;let r=l;if($==2){r=l.slice();let u=r[0]=Array(Oe);for(let c=0;c<Oe;c++)u[c]=c}n._data=l=r}if(pl(!0),ze("setData"),$==2&&(il=!0),s!==!1){let r=v;r.auto(n,zl)?kn():Vt(C,r.min,r.max),Bt=Bt||O.left>=0,ot=!0,hl()}}n.setData=Es;function kn(){zl=!0;let t,s;i==1&&(Oe>0?(De=Zl[0]=0,Le=Zl[1]=Oe-1,t=l[0][De],s=l[0][Le],$==2?(t=De,s=Le):t==s&&($==3?[t,s]=hn(t,t,v.log,!1):$==4?[t,s]=fs(t,t,v.log,!1):v.time?s=t+Ae(86400/A):[t,s]=an(t,s,as,!0))):(De=Zl[0]=t=null,Le=Zl[1]=s=null)),Vt(C,t,s)}let Ql,cl,xn,vn,Tn,Mn,An,Pn,En,je;function Ds(t,s,r,u,c,g){t??(t=no),r??(r=ps),u??(u="butt"),c??(c=no),g??(g="round"),t!=Ql&&(d.strokeStyle=Ql=t),c!=cl&&(d.fillStyle=cl=c),s!=xn&&(d.lineWidth=xn=s),g!=Tn&&(d.lineJoin=Tn=g),u!=Mn&&(d.lineCap=Mn=u),r!=vn&&d.setLineDash(vn=r)}function Ls(t,s,r,u){s!=cl&&(d.fillStyle=cl=s),t!=An&&(d.font=An=t),r!=Pn&&(d.textAlign=Pn=r),u!=En&&(d.textBaseline=En=u)}function Dn(t,s,r,u,c=0){if(u.length>0&&t.auto(n,zl)&&(s==null||s.min==null)){let g=ne(De,0),_=ne(Le,u.length-1),y=r.min==null?Dr(u,g,_,c,t.distr==3):[r.min,r.max];t.min=St(t.min,r.min=y[0]),t.max=Be(t.max,r.max=y[1])}}let Cs={min:null,max:null};function Hi(){for(let u in x){let c=x[u];I[u]==null&&(c.min==null||I[C]!=null&&c.auto(n,zl))&&(I[u]=Cs)}for(let u in x){let c=x[u];I[u]==null&&c.from!=null&&I[c.from]!=null&&(I[u]=Cs)}I[C]!=null&&pl(!0);let t={};for(let u in I){let c=I[u];if(c!=null){let g=t[u]=Ml(x[u],Hr);if(c.min!=null)ve(g,c);else if(u!=C||i==2)if(Oe==0&&g.from==null){let _=g.range(n,null,null,u);g.min=_[0],g.max=_[1]}else g.min=ae,g.max=-ae}}if(Oe>0){S.forEach((u,c)=>{if(i==1){let g=u.scale,_=I[g];if(_==null)return;let y=t[g];if(c==0){let k=y.range(n,y.min,y.max,g);y.min=k[0],y.max=k[1],De=wt(y.min,l[0]),Le=wt(y.max,l[0]),Le-De>1&&(l[0][De]<y.min&&De++,l[0][Le]>y.max&&Le--),u.min=ht[De],u.max=ht[Le]}else u.show&&u.auto&&Dn(y,_,u,l[c],u.sorted);u.idxs[0]=De,u.idxs[1]=Le}else if(c>0&&u.show&&u.auto){let[g,_]=u.facets,y=g.scale,k=_.scale,[M,E]=l[c],R=t[y],B=t[k];R!=null&&Dn(R,I[y],g,M,g.sorted),B!=null&&Dn(B,I[k],_,E,_.sorted),u.min=_.min,u.max=_.max}});for(let u in t){let c=t[u],g=I[u];if(c.from==null&&(g==null||g.min==null)){let _=c.range(n,c.min==ae?null:c.min,c.max==-ae?null:c.max,u);c.min=_[0],c.max=_[1]}}}for(let u in t){let c=t[u];if(c.from!=null){let g=t[c.from];if(g.min==null)c.min=c.max=null;else{let _=c.range(n,g.min,g.max,u);c.min=_[0],c.max=_[1]}}}let s={},r=!1;for(let u in t){let c=t[u],g=x[u];if(g.min!=c.min||g.max!=c.max){g.min=c.min,g.max=c.max;let _=g.distr;g._min=_==3?Dt(g.min):_==4?Kn(g.min,g.asinh):_==100?g.fwd(g.min):g.min,g._max=_==3?Dt(g.max):_==4?Kn(g.max,g.asinh):_==100?g.fwd(g.max):g.max,s[u]=r=!0}}if(r){S.forEach((u,c)=>{i==2?c>0&&s.y&&(u._paths=null):s[u.scale]&&(u._paths=null)});for(let u in s)il=!0,ze("setScale",u);He&&O.left>=0&&(Bt=ot=!0)}for(let u in I)I[u]=null}function Ii(t){let s=es(De-1,0,Oe-1),r=es(Le+1,0,Oe-1);for(;t[s]==null&&s>0;)s--;for(;t[r]==null&&r<Oe-1;)r++;return[s,r]}function Wi(){if(Oe>0){let t=S.some(s=>s._focus)&&je!=yt.alpha;t&&(d.globalAlpha=je=yt.alpha),S.forEach((s,r)=>{if(r>0&&s.show&&(Rs(r,!1),Rs(r,!0),s._paths==null)){let u=je;je!=s.alpha&&(d.globalAlpha=je=s.alpha);let c=i==2?[0,l[r][0].length-1]:Ii(l[r]);s._paths=s.paths(n,r,c[0],c[1]),je!=u&&(d.globalAlpha=je=u)}}),S.forEach((s,r)=>{if(r>0&&s.show){let u=je;je!=s.alpha&&(d.globalAlpha=je=s.alpha),s._paths!=null&&zs(r,!1);{let c=s._paths!=null?s._paths.gaps:null,g=s.points.show(n,r,De,Le,c),_=s.points.filter(n,r,g,c);(g||_)&&(s.points._paths=s.points.paths(n,r,De,Le,_),zs(r,!0))}je!=u&&(d.globalAlpha=je=u),ze("drawSeries",r)}}),t&&(d.globalAlpha=je=1)}}function Rs(t,s){let r=s?S[t].points:S[t];r._stroke=r.stroke(n,t),r._fill=r.fill(n,t)}function zs(t,s){let r=s?S[t].points:S[t],{stroke:u,fill:c,clip:g,flags:_,_stroke:y=r._stroke,_fill:k=r._fill,_width:M=r.width}=r._paths;M=ce(M*oe,3);let E=null,R=M%2/2;s&&k==null&&(k=M>0?"#fff":y);let B=r.pxAlign==1&&R>0;if(B&&d.translate(R,R),!s){let se=qe-M/2,le=st-M/2,Z=Ke+M,W=pt+M;E=new Path2D,E.rect(se,le,Z,W)}s?Ln(y,M,r.dash,r.cap,k,u,c,_,g):Gi(t,y,M,r.dash,r.cap,k,u,c,_,E,g),B&&d.translate(-R,-R)}function Gi(t,s,r,u,c,g,_,y,k,M,E){let R=!1;k!=0&&G.forEach((B,se)=>{if(B.series[0]==t){let le=S[B.series[1]],Z=l[B.series[1]],W=(le._paths||Ul).band;Nt(W)&&(W=B.dir==1?W[0]:W[1]);let F,ge=null;le.show&&W&&Cr(Z,De,Le)?(ge=B.fill(n,se)||g,F=le._paths.clip):W=null,Ln(s,r,u,c,ge,_,y,k,M,E,F,W),R=!0}}),R||Ln(s,r,u,c,g,_,y,k,M,E)}let Vs=Al|ns;function Ln(t,s,r,u,c,g,_,y,k,M,E,R){Ds(t,s,r,u,c),(k||M||R)&&(d.save(),k&&d.clip(k),M&&d.clip(M)),R?(y&Vs)==Vs?(d.clip(R),E&&d.clip(E),en(c,_),Xl(t,g,s)):y&ns?(en(c,_),d.clip(R),Xl(t,g,s)):y&Al&&(d.save(),d.clip(R),E&&d.clip(E),en(c,_),d.restore(),Xl(t,g,s)):(en(c,_),Xl(t,g,s)),(k||M||R)&&d.restore()}function Xl(t,s,r){r>0&&(s instanceof Map?s.forEach((u,c)=>{d.strokeStyle=Ql=c,d.stroke(u)}):s!=null&&t&&d.stroke(s))}function en(t,s){s instanceof Map?s.forEach((r,u)=>{d.fillStyle=cl=u,d.fill(r)}):s!=null&&t&&d.fill(s)}function Yi(t,s,r,u){let c=T[t],g;if(u<=0)g=[0,0];else{let _=c._space=c.space(n,t,s,r,u),y=c._incrs=c.incrs(n,t,s,r,u,_);g=Xu(s,r,y,u,_)}return c._found=g}function Cn(t,s,r,u,c,g,_,y,k,M){let E=_%2/2;z==1&&d.translate(E,E),Ds(y,_,k,M,y),d.beginPath();let R,B,se,le,Z=c+(u==0||u==3?-g:g);r==0?(B=c,le=Z):(R=c,se=Z);for(let W=0;W<t.length;W++)s[W]!=null&&(r==0?R=se=t[W]:B=le=t[W],d.moveTo(R,B),d.lineTo(se,le));d.stroke(),z==1&&d.translate(-E,-E)}function Bi(t){let s=!0;return T.forEach((r,u)=>{if(!r.show)return;let c=x[r.scale];if(c.min==null){r._show&&(s=!1,r._show=!1,pl(!1));return}else r._show||(s=!1,r._show=!0,pl(!1));let g=r.side,_=g%2,{min:y,max:k}=c,[M,E]=Yi(u,y,k,_==0?j:L);if(E==0)return;let R=c.distr==2,B=r._splits=r.splits(n,u,y,k,M,E,R),se=c.distr==2?B.map(F=>ht[F]):B,le=c.distr==2?ht[B[1]]-ht[B[0]]:M,Z=r._values=r.values(n,r.filter(n,se,u,E,le),u,E,le);r._rotate=g==2?r.rotate(n,Z,u,E):0;let W=r._size;r._size=at(r.size(n,Z,u,t)),W!=null&&r._size!=W&&(s=!1)}),s}function Ui(t){let s=!0;return Ps.forEach((r,u)=>{let c=r(n,u,Kt,t);c!=Rt[u]&&(s=!1),Rt[u]=c}),s}function Ki(){for(let t=0;t<T.length;t++){let s=T[t];if(!s.show||!s._show)continue;let r=s.side,u=r%2,c,g,_=s.stroke(n,t),y=r==0||r==3?-1:1,[k,M]=s._found;if(s.label!=null){let Ge=s.labelGap*y,Qe=Ae((s._lpos+Ge)*oe);Ls(s.labelFont[0],_,"center",r==2?"top":lo),d.save(),u==1?(c=g=0,d.translate(Qe,Ae(st+pt/2)),d.rotate((r==3?-un:un)/2)):(c=Ae(qe+Ke/2),g=Qe);let qt=Ko(s.label)?s.label(n,t,k,M):s.label;d.fillText(qt,c,g),d.restore()}if(M==0)continue;let E=x[s.scale],R=u==0?Ke:pt,B=u==0?qe:st,se=s._splits,le=E.distr==2?se.map(Ge=>ht[Ge]):se,Z=E.distr==2?ht[se[1]]-ht[se[0]]:k,W=s.ticks,F=s.border,ge=W.show?W.size:0,ye=Ae(ge*oe),Ve=Ae((s.alignTo==2?s._size-ge-s.gap:s.gap)*oe),fe=s._rotate*-un/180,ke=N(s._pos*oe),Je=(ye+Ve)*y,We=ke+Je;g=u==0?We:0,c=u==1?We:0;let rt=s.font[0],mt=s.align==1?yl:s.align==2?Yn:fe>0?yl:fe<0?Yn:u==0?"center":r==3?Yn:yl,vt=fe||u==1?"middle":r==2?"top":lo;Ls(rt,_,mt,vt);let Ze=s.font[1]*s.lineGap,ut=se.map(Ge=>N(h(Ge,E,R,B))),gt=s._values;for(let Ge=0;Ge<gt.length;Ge++){let Qe=gt[Ge];if(Qe!=null){u==0?c=ut[Ge]:g=ut[Ge],Qe=""+Qe;let qt=Qe.indexOf(`\n`)==-1?[Qe]:Qe.split(/\\n/gm);for(let Ye=0;Ye<qt.length;Ye++){let eo=qt[Ye];fe?(d.save(),d.translate(c,g+Ye*Ze),d.rotate(fe),d.fillText(eo,0,0),d.restore()):d.fillText(eo,c,g+Ye*Ze)}}}W.show&&Cn(ut,W.filter(n,le,t,M,Z),u,r,ke,ye,ce(W.width*oe,3),W.stroke(n,t),W.dash,W.cap);let Tt=s.grid;Tt.show&&Cn(ut,Tt.filter(n,le,t,M,Z),u,u==0?2:1,u==0?st:qe,u==0?pt:Ke,ce(Tt.width*oe,3),Tt.stroke(n,t),Tt.dash,Tt.cap),F.show&&Cn([ke],[1],u==0?1:0,u==0?1:2,u==1?st:qe,u==1?pt:Ke,ce(F.width*oe,3),F.stroke(n,t),F.dash,F.cap)}ze("drawAxes")}function pl(t){S.forEach((s,r)=>{r>0&&(s._paths=null,t&&(i==1?(s.min=null,s.max=null):s.facets.forEach(u=>{u.min=null,u.max=null})))})}let tn=!1,Rn=!1,Vl=[];function ji(){Rn=!1;for(let t=0;t<Vl.length;t++)ze(...Vl[t]);Vl.length=0}function hl(){tn||(Kr(Os),tn=!0)}function $i(t,s=!1){tn=!0,Rn=s,t(n),Os(),s&&Vl.length>0&&queueMicrotask(ji)}n.batch=$i;function Os(){if(bn&&(Hi(),bn=!1),il&&(Ci(),il=!1),ql){if(de(D,yl,pe),de(D,"top",Me),de(D,Wl,j),de(D,Gl,L),de(P,yl,pe),de(P,"top",Me),de(P,Wl,j),de(P,Gl,L),de(w,Wl,Pt),de(w,Gl,Wt),b.width=Ae(Pt*oe),b.height=Ae(Wt*oe),T.forEach(({_el:t,_show:s,_size:r,_pos:u,side:c})=>{if(t!=null)if(s){let g=c===3||c===0?r:0,_=c%2==1;de(t,_?"left":"top",u-g),de(t,_?"width":"height",r),de(t,_?"top":"left",_?Me:pe),de(t,_?"height":"width",_?L:j),Qn(t,Qt)}else Xe(t,Qt)}),Ql=cl=xn=Tn=Mn=An=Pn=En=vn=null,je=1,Nl(!0),pe!=ol||Me!=Gt||j!=bt||L!=Yt){pl(!1);let t=j/bt,s=L/Yt;if(He&&!Bt&&O.left>=0){O.left*=t,O.top*=s,ml&&Mt(ml,Ae(O.left),0,j,L),gl&&Mt(gl,0,Ae(O.top),j,L);for(let r=0;r<it.length;r++){let u=it[r];u!=null&&(fl[r]*=t,al[r]*=s,Mt(u,at(fl[r]),at(al[r]),j,L))}}if(me.show&&!Jl&&me.left>=0&&me.width>0){me.left*=t,me.width*=t,me.top*=s,me.height*=s;for(let r in Hn)de(Sl,r,me[r])}ol=pe,Gt=Me,bt=j,Yt=L}ze("setSize"),ql=!1}Pt>0&&Wt>0&&(d.clearRect(0,0,b.width,b.height),ze("drawClear"),K.forEach(t=>t()),ze("draw")),me.show&&Jl&&(ln(me),Jl=!1),He&&Bt&&($t(null,!0,!1),Bt=!1),J.show&&J.live&&ot&&(Fn(),ot=!1),p||(p=!0,n.status=1,ze("ready")),zl=!1,tn=!1}n.redraw=(t,s)=>{il=s||!1,t!==!1?Vt(C,v.min,v.max):hl()};function zn(t,s){let r=x[t];if(r.from==null){if(Oe==0){let u=r.range(n,s.min,s.max,t);s.min=u[0],s.max=u[1]}if(s.min>s.max){let u=s.min;s.min=s.max,s.max=u}if(Oe>1&&s.min!=null&&s.max!=null&&s.max-s.min<1e-16)return;t==C&&r.distr==2&&Oe>0&&(s.min=wt(s.min,l[0]),s.max=wt(s.max,l[0]),s.min==s.max&&s.max++),I[t]=s,bn=!0,hl()}}n.setScale=zn;let Vn,On,ml,gl,Fs,Ns,dl,wl,Hs,Is,he,_e,zt=!1,Fe=O.drag,Ce=Fe.x,Re=Fe.y;He&&(O.x&&(Vn=ft(dr,P)),O.y&&(On=ft(wr,P)),v.ori==0?(ml=Vn,gl=On):(ml=On,gl=Vn),he=O.left,_e=O.top);let me=n.select=ve({show:!0,over:!0,left:0,width:0,top:0,height:0},e.select),Sl=me.show?ft(gr,me.over?P:D):null;function ln(t,s){if(me.show){for(let r in t)me[r]=t[r],r in Hn&&de(Sl,r,t[r]);s!==!1&&ze("setSelect")}}n.setSelect=ln;function qi(t){if(S[t].show)Te&&Qn(be[t],Qt);else if(Te&&Xe(be[t],Qt),He){let r=ul?it[0]:it[t];r!=null&&Mt(r,-10,-10,j,L)}}function Vt(t,s,r){zn(t,{min:s,max:r})}function kt(t,s,r,u){s.focus!=null&&er(t),s.show!=null&&S.forEach((c,g)=>{g>0&&(t==g||t==null)&&(c.show=s.show,qi(g),i==2?(Vt(c.facets[0].scale,null,null),Vt(c.facets[1].scale,null,null)):Vt(c.scale,null,null),hl())}),r!==!1&&ze("setSeries",t,s),u&&Hl("setSeries",n,t,s)}n.setSeries=kt;function Ji(t,s){ve(G[t],s)}function Zi(t,s){t.fill=X(t.fill||null),t.dir=ne(t.dir,-1),s=s??G.length,G.splice(s,0,t)}function Qi(t){t==null?G.length=0:G.splice(t,1)}n.addBand=Zi,n.setBand=Ji,n.delBand=Qi;function Xi(t,s){S[t].alpha=s,He&&it[t]!=null&&(it[t].style.opacity=s),Te&&be[t]&&(be[t].style.opacity=s)}let Et,Ot,jt,_l={focus:!0};function er(t){if(t!=jt){let s=t==null,r=yt.alpha!=1;S.forEach((u,c)=>{if(i==1||c>0){let g=s||c==0||c==t;u._focus=s?null:g,r&&Xi(c,g?1:yt.alpha)}}),jt=t,r&&hl()}}Te&&rl&&Ie(io,ie,t=>{O._lock||(Ut(t),jt!=null&&kt(null,_l,!0,xe.setSeries))});function xt(t,s,r){let u=x[s];r&&(t=t/oe-(u.ori==1?Me:pe));let c=j;u.ori==1&&(c=L,t=c-t),u.dir==-1&&(t=c-t);let g=u._min,_=u._max,y=t/c,k=g+(_-g)*y,M=u.distr;return M==3?vl(10,k):M==4?zr(k,u.asinh):M==100?u.bwd(k):k}function tr(t,s){let r=xt(t,C,s);return wt(r,l[0],De,Le)}n.valToIdx=t=>wt(t,l[0]),n.posToIdx=tr,n.posToVal=xt,n.valToPos=(t,s,r)=>x[s].ori==0?a(t,x[s],r?Ke:j,r?qe:0):f(t,x[s],r?pt:L,r?st:0),n.setCursor=(t,s,r)=>{he=t.left,_e=t.top,$t(null,s,r)};function Ws(t,s){de(Sl,yl,me.left=t),de(Sl,Wl,me.width=s)}function Gs(t,s){de(Sl,"top",me.top=t),de(Sl,Gl,me.height=s)}let Ol=v.ori==0?Ws:Gs,Fl=v.ori==1?Ws:Gs;function lr(){if(Te&&J.live)for(let t=i==2?1:0;t<S.length;t++){if(t==0&&nt)continue;let s=J.values[t],r=0;for(let u in s)_t[t][r++].firstChild.nodeValue=s[u]}}function Fn(t,s){if(t!=null&&(t.idxs?t.idxs.forEach((r,u)=>{ue[u]=r}):Nr(t.idx)||ue.fill(t.idx),J.idx=ue[0]),Te&&J.live){for(let r=0;r<S.length;r++)(r>0||i==1&&!nt)&&nr(r,ue[r]);lr()}ot=!1,s!==!1&&ze("setLegend")}n.setLegend=Fn;function nr(t,s){let r=S[t],u=t==0&&$==2?ht:l[t],c;nt?c=r.values(n,t,s)??Ct:(c=r.value(n,s==null?null:u[s],t,s),c=c==null?Ct:{_:c}),J.values[t]=c}function $t(t,s,r){Hs=he,Is=_e,[he,_e]=O.move(n,he,_e),O.left=he,O.top=_e,He&&(ml&&Mt(ml,Ae(he),0,j,L),gl&&Mt(gl,0,Ae(_e),j,L));let u,c=De>Le;Et=ae,Ot=null;let g=v.ori==0?j:L,_=v.ori==1?j:L;if(he<0||Oe==0||c){u=O.idx=null;for(let y=0;y<S.length;y++){let k=it[y];k!=null&&Mt(k,-10,-10,j,L)}rl&&kt(null,_l,!0,t==null&&xe.setSeries),J.live&&(ue.fill(u),ot=!0)}else{let y,k,M;i==1&&(y=v.ori==0?he:_e,k=xt(y,C),u=O.idx=wt(k,l[0],De,Le),M=V(l[0][u],v,g,0));let E=-10,R=-10,B=0,se=0,le=!0,Z="",W="";for(let F=i==2?1:0;F<S.length;F++){let ge=S[F],ye=ue[F],Ve=ye==null?null:i==1?l[F][ye]:l[F][1][ye],fe=O.dataIdx(n,F,u,k),ke=fe==null?null:i==1?l[F][fe]:l[F][1][fe];if(ot=ot||ke!=Ve||fe!=ye,ue[F]=fe,F>0&&ge.show){let Je=fe==null?-10:fe==u?M:V(i==1?l[0][fe]:l[F][0][fe],v,g,0),We=ke==null?-10:Y(ke,i==1?x[ge.scale]:x[ge.facets[1].scale],_,0);if(rl&&ke!=null){let rt=v.ori==1?he:_e,mt=Pe(yt.dist(n,F,fe,We,rt));if(mt<Et){let vt=yt.bias;if(vt!=0){let Ze=xt(rt,ge.scale),ut=ke>=0?1:-1,gt=Ze>=0?1:-1;gt==ut&&(gt==1?vt==1?ke>=Ze:ke<=Ze:vt==1?ke<=Ze:ke>=Ze)&&(Et=mt,Ot=F)}else Et=mt,Ot=F}}if(ot||ul){let rt,mt;v.ori==0?(rt=Je,mt=We):(rt=We,mt=Je);let vt,Ze,ut,gt,Tt,Ge,Qe=!0,qt=Ne.bbox;if(qt!=null){Qe=!1;let Ye=qt(n,F);ut=Ye.left,gt=Ye.top,vt=Ye.width,Ze=Ye.height}else ut=rt,gt=mt,vt=Ze=Ne.size(n,F);if(Ge=Ne.fill(n,F),Tt=Ne.stroke(n,F),ul)F==Ot&&Et<=yt.prox&&(E=ut,R=gt,B=vt,se=Ze,le=Qe,Z=Ge,W=Tt);else{let Ye=it[F];Ye!=null&&(fl[F]=ut,al[F]=gt,ho(Ye,vt,Ze,Qe),co(Ye,Ge,Tt),Mt(Ye,at(ut),at(gt),j,L))}}}}if(ul){let F=yt.prox,ge=jt==null?Et<=F:Et>F||Ot!=jt;if(ot||ge){let ye=it[0];ye!=null&&(fl[0]=E,al[0]=R,ho(ye,B,se,le),co(ye,Z,W),Mt(ye,at(E),at(R),j,L))}}}if(me.show&&zt)if(t!=null){let[y,k]=xe.scales,[M,E]=xe.match,[R,B]=t.cursor.sync.scales,se=t.cursor.drag;if(Ce=se._x,Re=se._y,Ce||Re){let{left:le,top:Z,width:W,height:F}=t.select,ge=t.scales[R].ori,ye=t.posToVal,Ve,fe,ke,Je,We,rt=y!=null&&M(y,R),mt=k!=null&&E(k,B);rt&&Ce?(ge==0?(Ve=le,fe=W):(Ve=Z,fe=F),ke=x[y],Je=V(ye(Ve,R),ke,g,0),We=V(ye(Ve+fe,R),ke,g,0),Ol(St(Je,We),Pe(We-Je))):Ol(0,g),mt&&Re?(ge==1?(Ve=le,fe=W):(Ve=Z,fe=F),ke=x[k],Je=Y(ye(Ve,B),ke,_,0),We=Y(ye(Ve+fe,B),ke,_,0),Fl(St(Je,We),Pe(We-Je))):Fl(0,_)}else In()}else{let y=Pe(Hs-Fs),k=Pe(Is-Ns);if(v.ori==1){let B=y;y=k,k=B}Ce=Fe.x&&y>=Fe.dist,Re=Fe.y&&k>=Fe.dist;let M=Fe.uni;M!=null?Ce&&Re&&(Ce=y>=M,Re=k>=M,!Ce&&!Re&&(k>y?Re=!0:Ce=!0)):Fe.x&&Fe.y&&(Ce||Re)&&(Ce=Re=!0);let E,R;Ce&&(v.ori==0?(E=dl,R=he):(E=wl,R=_e),Ol(St(E,R),Pe(R-E)),Re||Fl(0,_)),Re&&(v.ori==1?(E=dl,R=he):(E=wl,R=_e),Fl(St(E,R),Pe(R-E)),Ce||Ol(0,g)),!Ce&&!Re&&(Ol(0,0),Fl(0,0))}if(Fe._x=Ce,Fe._y=Re,t==null){if(r){if(Xs!=null){let[y,k]=xe.scales;xe.values[0]=y!=null?xt(v.ori==0?he:_e,y):null,xe.values[1]=k!=null?xt(v.ori==1?he:_e,k):null}Hl(Bn,n,he,_e,j,L,u)}if(rl){let y=r&&xe.setSeries,k=yt.prox;jt==null?Et<=k&&kt(Ot,_l,!0,y):Et>k?kt(null,_l,!0,y):Ot!=jt&&kt(Ot,_l,!0,y)}}ot&&(J.idx=u,Fn()),s!==!1&&ze("setCursor")}let Ft=null;Object.defineProperty(n,"rect",{get(){return Ft==null&&Nl(!1),Ft}});function Nl(t=!1){t?Ft=null:(Ft=P.getBoundingClientRect(),ze("syncRect",Ft))}function Ys(t,s,r,u,c,g,_){O._lock||zt&&t!=null&&t.movementX==0&&t.movementY==0||(Nn(t,s,r,u,c,g,_,!1,t!=null),t!=null?$t(null,!0,!0):$t(s,!0,!1))}function Nn(t,s,r,u,c,g,_,y,k){if(Ft==null&&Nl(!1),Ut(t),t!=null)r=t.clientX-Ft.left,u=t.clientY-Ft.top;else{if(r<0||u<0){he=-10,_e=-10;return}let[M,E]=xe.scales,R=s.cursor.sync,[B,se]=R.values,[le,Z]=R.scales,[W,F]=xe.match,ge=s.axes[0].side%2==1,ye=v.ori==0?j:L,Ve=v.ori==1?j:L,fe=ge?g:c,ke=ge?c:g,Je=ge?u:r,We=ge?r:u;if(le!=null?r=W(M,le)?h(B,x[M],ye,0):-10:r=ye*(Je/fe),Z!=null?u=F(E,Z)?h(se,x[E],Ve,0):-10:u=Ve*(We/ke),v.ori==1){let rt=r;r=u,u=rt}}k&&(s==null||s.cursor.event.type==Bn)&&((r<=1||r>=j-1)&&(r=Jt(r,j)),(u<=1||u>=L-1)&&(u=Jt(u,L))),y?(Fs=r,Ns=u,[dl,wl]=O.move(n,r,u)):(he=r,_e=u)}let Hn={width:0,height:0,left:0,top:0};function In(){ln(Hn,!1)}let Bs,Us,Ks,js;function $s(t,s,r,u,c,g,_){zt=!0,Ce=Re=Fe._x=Fe._y=!1,Nn(t,s,r,u,c,g,_,!0,!1),t!=null&&(Ie(Un,Jn,qs,!1),Hl(so,n,dl,wl,j,L,null));let{left:y,top:k,width:M,height:E}=me;Bs=y,Us=k,Ks=M,js=E}function qs(t,s,r,u,c,g,_){zt=Fe._x=Fe._y=!1,Nn(t,s,r,u,c,g,_,!1,!0);let{left:y,top:k,width:M,height:E}=me,R=M>0||E>0,B=Bs!=y||Us!=k||Ks!=M||js!=E;if(R&&B&&ln(me),Fe.setScale&&R&&B){let se=y,le=M,Z=k,W=E;if(v.ori==1&&(se=k,le=E,Z=y,W=M),Ce&&Vt(C,xt(se,C),xt(se+le,C)),Re)for(let F in x){let ge=x[F];F!=C&&ge.from==null&&ge.min!=ae&&Vt(F,xt(Z+W,F),xt(Z,F))}In()}else O.lock&&(O._lock=!O._lock,$t(s,!0,t!=null));t!=null&&(sl(Un,Jn),Hl(Un,n,he,_e,j,L,null))}function sr(t,s,r,u,c,g,_){if(O._lock)return;Ut(t);let y=zt;if(zt){let k=!0,M=!0,E=10,R,B;v.ori==0?(R=Ce,B=Re):(R=Re,B=Ce),R&&B&&(k=he<=E||he>=j-E,M=_e<=E||_e>=L-E),R&&k&&(he=he<dl?0:j),B&&M&&(_e=_e<wl?0:L),$t(null,!0,!0),zt=!1}he=-10,_e=-10,ue.fill(null),$t(null,!0,!0),y&&(zt=y)}function Js(t,s,r,u,c,g,_){O._lock||(Ut(t),kn(),In(),t!=null&&Hl(ro,n,he,_e,j,L,null))}function Zs(){T.forEach(ef),yn(n.width,n.height,!0)}Xt(fn,xl,Zs);let bl={};bl.mousedown=$s,bl.mousemove=Ys,bl.mouseup=qs,bl.dblclick=Js,bl.setSeries=(t,s,r,u)=>{let c=xe.match[2];r=c(n,s,r),r!=-1&&kt(r,u,!0,!1)},He&&(Ie(so,P,$s),Ie(Bn,P,Ys),Ie(oo,P,t=>{Ut(t),Nl(!1)}),Ie(io,P,sr),Ie(ro,P,Js),ss.add(n),n.syncRect=Nl);let nn=n.hooks=e.hooks||{};function ze(t,s,r){Rn?Vl.push([t,s,r]):t in nn&&nn[t].forEach(u=>{u.call(null,n,s,r)})}(e.plugins||[]).forEach(t=>{for(let s in t.hooks)nn[s]=(nn[s]||[]).concat(t.hooks[s])});let Qs=(t,s,r)=>r,xe=ve({key:null,setSeries:!1,filters:{pub:_o,sub:_o},scales:[C,S[1]?S[1].scale:null],match:[bo,bo,Qs],values:[null,null]},O.sync);xe.match.length==2&&xe.match.push(Qs),O.sync=xe;let Xs=xe.key,Wn=di(Xs);function Hl(t,s,r,u,c,g,_){xe.filters.pub(t,s,r,u,c,g,_)&&Wn.pub(t,s,r,u,c,g,_)}Wn.sub(n);function or(t,s,r,u,c,g,_){xe.filters.sub(t,s,r,u,c,g,_)&&bl[t](null,s,r,u,c,g,_)}n.pub=or;function ir(){Wn.unsub(n),ss.delete(n),It.clear(),Xn(fn,xl,Zs),m.remove(),ie?.remove(),ze("destroy")}n.destroy=ir;function Gn(){ze("init",e,l),Es(l||e.data,!1),I[C]?zn(C,I[C]):kn(),Jl=me.show&&(me.width>0||me.height>0),Bt=ot=!0,yn(e.width,e.height)}return S.forEach(As),T.forEach(Ni),o?o instanceof HTMLElement?(o.appendChild(m),Gn()):o(n,Gn):Gn(),n}Ee.assign=ve;Ee.fmtNum=cs;Ee.rangeNum=an;Ee.rangeLog=hn;Ee.rangeAsinh=fs;Ee.orient=tl;Ee.pxRatio=oe;Ee.join=Ur;Ee.fmtDate=hs,Ee.tzDate=lu;Ee.sync=di;{Ee.addGap=Nu,Ee.clipGaps=dn;let e=Ee.paths={points:ki};e.linear=vi,e.stepped=Wu,e.bars=Gu,e.spline=Bu}var lt=["#3b6fd8","#e07b39","#2f9e6e","#9b59b6","#d64f6a","#1aa3b8","#b8902b","#6b7a99"],tf="#e0a030",bs="#d9534f",ys="#1d2433",ks=260,lf=[1,2,5,10,15,30,60,120,300,600,900,1800,3600,7200,10800,21600,43200,86400],Pi={incrs:lf},xs=e=>e/1e3;function nf(e){return Math.max(320,Math.floor(e.getBoundingClientRect().width||640))}function Ll(e,l,o="%",n={}){return{label:e,stroke:l,scale:o,width:2,points:{show:!1},...n}}function jl(e,l){return{label:e,stroke:l,scale:"%",width:1,dash:[6,4],points:{show:!1}}}var vs={scale:"%",values:(e,l)=>l.map(o=>`${o}%`),size:52};function sf(e,l){let o=e.report?.budgets[l];if(!o)return null;let{limits:n,startTime:i,until:a}=o,f=new Set([i,a]);for(let S of o.turns)f.add(S);for(let S of o.steps)f.add(S.at);for(let S of o.warnings)f.add(S.at);let h=[...f].filter(S=>S>=i&&S<=a).sort((S,T)=>S-T),p=[{}],m=[],b=h.map(()=>({tokens:0,cost:0})),d=h.map(()=>0),w=-1,D=0;h.forEach((S,T)=>{for(;w+1<o.steps.length&&(o.steps[w+1]?.at??Number.POSITIVE_INFINITY)<=S;)w++;for(;D<o.turns.length&&(o.turns[D]??Number.POSITIVE_INFINITY)<=S;)D++;b[T]=o.steps[w]??{tokens:0,cost:0},d[T]=D});let P=S=>b[S]??{tokens:0,cost:0};if(n.timeMs!==null){let S=n.timeMs;p.push(Ll("Time",lt[0])),m.push(h.map(T=>100*(T-i)/S))}if(n.turns!==null){let S=n.turns;p.push(Ll("Turns",lt[1],"%",{paths:Ee.paths.stepped?.({align:1})})),m.push(d.map(T=>100*T/S))}let z=e.report?.measured;if(z?.tokens){let S=n.tokens,T={size:5};S!==null?(p.push(Ll("Tokens",lt[2],"%",{points:T})),m.push(h.map((x,G)=>100*P(G).tokens/S))):(p.push(Ll("Tokens (right axis)",lt[2],"tokens",{points:T})),m.push(h.map((x,G)=>P(G).tokens)))}if(z?.cost&&n.cost!==null){let S=n.cost;p.push(Ll("Cost",lt[3])),m.push(h.map((T,x)=>100*P(x).cost/S))}p.push(jl("80% warning",tf),jl("95% warning",bs),jl("Limit",ys)),m.push(h.map(()=>80),h.map(()=>95),h.map(()=>100));let N=[Pi,vs];p.some(S=>S.scale==="tokens")&&N.push({scale:"tokens",side:1,grid:{show:!1},size:60});let A=[...o.turns.map(S=>({at:S,colour:"rgba(224,123,57,.35)"}))];return o.ending.kind!=="active"&&A.push({at:a,colour:bs}),[{width:0,height:ks,series:p,axes:N,scales:{x:{time:!0},"%":{range:(S,T,x)=>[0,Math.max(110,Math.ceil(x/10)*10)]}},hooks:{draw:[S=>of(S,A)]},legend:{live:!1}},[h.map(xs),...m]]}function of(e,l){let{ctx:o}=e,{top:n,height:i}=e.bbox;o.save(),o.lineWidth=Math.max(1,devicePixelRatio);for(let a of new Set(l.map(f=>f.colour))){o.strokeStyle=a,o.beginPath();for(let f of l){if(f.colour!==a)continue;let h=e.valToPos(xs(f.at),"x",!0);o.moveTo(h,n),o.lineTo(h,n+i)}o.stroke()}o.restore()}function rf(e){let l=e.report;if(!l||l.subagents.length===0)return null;let o=l.budgets[l.budgets.length-1],n=[...o?[{label:"Session",from:o.startTime,to:o.until,colour:lt[0]}]:[],...l.subagents.map(p=>({label:p.parent===null?p.agentType:`↳ ${p.agentType}`,from:p.startedAt,to:p.endedAt??l.now,colour:p.ended==="answered"?"#2f9e6e":p.ended===null?"#3b6fd8":bs}))],i=[...new Set(n.flatMap(p=>[p.from,p.to]))].sort((p,m)=>p-m),a=[{}],f=n.map((p,m)=>(a.push({label:p.label,stroke:p.colour,width:10,spanGaps:!0,scale:"lane",points:{show:!0,size:12,fill:p.colour}}),i.map(b=>b===p.from||b===p.to?m:null))),h=n.map(p=>p.label);return[{width:0,height:Math.max(140,50+n.length*34),series:a,scales:{x:{time:!0},lane:{range:[-.6,n.length-.4]}},axes:[Pi,{scale:"lane",splits:()=>h.map((p,m)=>m),values:(p,m)=>m.map(b=>h[b]??""),size:110,grid:{show:!1}}],legend:{show:!1}},[i.map(xs),...f]]}var Ei=()=>Ee.paths.bars?.({size:[.55,90]});function Di(e){return{splits:()=>e.map((l,o)=>o),values:(l,o)=>o.map(n=>e[n]??""),grid:{show:!1}}}function uf(e){let l=e.today?.budgets[0],o=e.today;if(!l||!o)return null;let n=[["Agent time",l.limits.timeMs,"agentMs"],["Prompts",l.limits.turns,"prompts"],["Tokens",l.limits.tokens,"tokens"],["Cost",l.limits.cost,"cost"]].filter(A=>A[1]!==null),{agentMs:i,prompts:a,tokens:f,cost:h}=l.use,p=o.sessions.length>0?o.sessions:[{session:l.who,host:null,member:l.who,agentMs:i,prompts:a,tokens:f,cost:h}],m=p.some(A=>A.member!==null),b=new Map;for(let A of p){let S=m?A.member??"another member":`${A.host??"another session"} · ${A.session.slice(0,8)}`;b.set(S,[...b.get(S)??[],A])}let d=[...b.keys()],w=n.map(()=>0),D=d.map(A=>n.map((S,T)=>{let x=(b.get(A)??[]).reduce((G,C)=>G+C[S[2]],0);return w[T]=(w[T]??0)+100*x/S[1],w[T]})),P=d.map((A,S)=>S).reverse(),z=[{},...P.map(A=>({label:d[A],fill:lt[A%lt.length],stroke:lt[A%lt.length],scale:"%",paths:Ei(),points:{show:!1}})),jl("Limit",ys)],N=n.map((A,S)=>S);return[{width:0,height:ks,series:z,scales:{x:{time:!1,range:[-.5,n.length-.5]},"%":{range:(A,S,T)=>[0,Math.max(110,T)]}},axes:[Di(n.map(A=>A[0])),vs],legend:{live:!1}},[N,...P.map(A=>D[A]),N.map(()=>100)]]}function ff(e){let{rows:l,limits:o}=e.days;if(l.length===0)return null;let n=l.map((p,m)=>m),i=l.map(p=>p.day.slice(5)),a=[["Agent time",o?.timeMs??null,"agentMs"],["Prompts",o?.turns??null,"prompts"],["Tokens",o?.tokens??null,"tokens"],["Cost",o?.cost??null,"cost"]].filter(p=>p[1]!==null),f=[{}],h=[];return a.length===0?(f.push({label:"Agent time (min)",fill:lt[0],stroke:lt[0],paths:Ei(),points:{show:!1}}),h.push(l.map(p=>p.agentMs/6e4))):(a.forEach((p,m)=>{let b=p[1],d=lt[m];f.push(Ll(p[0],d,"%",{points:{show:!0,size:7,fill:d}})),h.push(l.map(w=>100*w[p[2]]/b))}),f.push(jl("Daily limit",ys)),h.push(n.map(()=>100))),[{width:0,height:ks,series:f,scales:{x:{time:!1,range:[-.5,l.length-.5]},"%":{range:(p,m,b)=>[0,Math.max(110,b)]}},axes:[Di(i),a.length===0?{}:vs],legend:{live:!1}},[n,...h]]}function af(){let e=document.getElementById("timebox-data");if(!e?.textContent)return;let l=JSON.parse(e.textContent);for(let o of document.querySelectorAll("figure[data-chart]")){let n=Number(o.dataset.index??0),i=o.dataset.chart==="budget"?sf(l,n):o.dataset.chart==="subagents"?rf(l):o.dataset.chart==="today"?uf(l):ff(l);if(i===null)continue;let[a,f]=i;new Ee({...a,width:nf(o)},f,o)}}af();})();';
var UPLOT_CSS = '.uplot, .uplot *, .uplot *::before, .uplot *::after {box-sizing: border-box;}.uplot {font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji";line-height: 1.5;width: min-content;}.u-title {text-align: center;font-size: 18px;font-weight: bold;}.u-wrap {position: relative;user-select: none;}.u-over, .u-under {position: absolute;}.u-under {overflow: hidden;}.uplot canvas {display: block;position: relative;width: 100%;height: 100%;}.u-axis {position: absolute;}.u-legend {font-size: 14px;margin: auto;text-align: center;}.u-inline {display: block;}.u-inline * {display: inline-block;}.u-inline tr {margin-right: 16px;}.u-legend th {font-weight: 600;}.u-legend th > * {vertical-align: middle;display: inline-block;}.u-legend .u-marker {width: 1em;height: 1em;margin-right: 4px;background-clip: padding-box !important;}.u-inline.u-live th::after {content: ":";vertical-align: middle;}.u-inline:not(.u-live) .u-value {display: none;}.u-series > * {padding: 4px;}.u-series th {cursor: pointer;}.u-legend .u-off > * {opacity: 0.3;}.u-select {background: rgba(0,0,0,0.07);position: absolute;pointer-events: none;}.u-cursor-x, .u-cursor-y {position: absolute;left: 0;top: 0;pointer-events: none;will-change: transform;}.u-hz .u-cursor-x, .u-vt .u-cursor-y {height: 100%;border-right: 1px dashed #607D8B;}.u-hz .u-cursor-y, .u-vt .u-cursor-x {width: 100%;border-bottom: 1px dashed #607D8B;}.u-cursor-pt {position: absolute;top: 0;left: 0;border-radius: 50%;border: 0 solid;pointer-events: none;will-change: transform;/*this has to be !important since we set inline "background" shorthand */background-clip: padding-box !important;}.u-axis.u-off, .u-select.u-off, .u-cursor-x.u-off, .u-cursor-y.u-off, .u-cursor-pt.u-off {display: none;}';

// src/adapters/report/day-use.ts
function fieldsOf6(line) {
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}
var amount3 = (value) => typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
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
    const fields2 = fieldsOf6(line);
    const use = of(fields2);
    if (use === null) continue;
    use.agentMs += amount3(fields2.agentMs);
    use.tokens += amount3(fields2.tokens);
    use.cost += amount3(fields2.cost);
  }
  for (const name of files.list(folder)) {
    if (!name.startsWith("prompt-")) continue;
    const use = of(fieldsOf6(linesOf(files, files.join(folder, name))[0] ?? ""));
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
function lastDays2(now, count4, localDay2) {
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
var NONE = "–";
function orNone(value, format) {
  return value === null ? NONE : format(value);
}
var count3 = (value) => String(value);
function budgetFiguresTable(budget, index, report) {
  const { limits, used } = budget;
  const left = (limit, value) => limit === null ? null : Math.max(0, limit - value);
  const rows = [
    [
      "Time",
      orNone(limits.timeMs, formatTime),
      formatTime(used.timeMs),
      orNone(left(limits.timeMs, used.timeMs), formatTime)
    ],
    ["Turns", orNone(limits.turns, count3), count3(used.turns), orNone(left(limits.turns, used.turns), count3)]
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
  if (limits.steps !== null) rows.push(["Model calls per turn", count3(limits.steps), NONE, NONE]);
  if (limits.loop !== null) rows.push(["Identical tool calls per run (loop guard)", count3(limits.loop), NONE, NONE]);
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
    count3(agent.steps),
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
      rows.push(["Agent time", formatTime(limits.timeMs), formatTime(use.agentMs), orNone(left.timeMs, formatTime)]);
    if (limits.turns !== null)
      rows.push(["Prompts", count3(limits.turns), count3(use.prompts), orNone(left.turns, count3)]);
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
    count3(session.prompts),
    formatTokens(session.tokens),
    formatCost(session.cost)
  ]);
  const head = ["Session", ...team ? ["Member"] : [], "Host", "Agent time", "Prompts", "Tokens", "Cost"];
  return table("Today's sessions", head, rows);
}
function todayMembersTable(members) {
  const rows = members.map((member) => [member.name, count3(member.sessions)]);
  return table("Today's members", ["Member", "Sessions"], rows);
}
function daysTable(rows, limits) {
  const body = rows.map((row) => [
    row.day,
    formatTime(row.agentMs),
    count3(row.prompts),
    formatTokens(row.tokens),
    formatCost(row.cost)
  ]);
  if (limits !== null) {
    body.push([
      "Daily limit",
      orNone(limits.timeMs, formatTime),
      orNone(limits.turns, count3),
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
    row("Turns", figures.turns, count3),
    row("Model calls", figures.steps, count3),
    row("Tokens", figures.tokens, formatTokens),
    row("Cost", figures.cost, formatCost)
  ];
  return table("A session's use here", ["", "Median", "90th percentile", "Sessions"], rows);
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
  const written = new Date(data.writtenAt);
  const day = written.toISOString().slice(0, 10);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Timebox report${data.session === null ? "" : ` · ${escapeHtml(data.session.id)}`}</title>
<style>${style}</style></head>
<body><header><h1>Timebox report</h1><p>${who}written ${day} at ${clockTime(data.writtenAt)}.</p></header>
<main>${sessionSection(data)}${subagentSection(data)}${todaySection(data)}${daysSection(data)}${suggestionSection(data)}</main>
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
  return join12(dailyStateDir(env), REPORTS_FOLDER, `${name}.html`);
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
  const rows = team ? context.teamDays?.(count4) ?? [] : useOfDays(nodeDailyFiles, scopeDir, lastDays2(context.now, count4, localDay));
  const project = context.project ?? null;
  const history = project === null ? null : readProjectHistory(
    context.env,
    homeOf(context.env),
    project,
    context.session?.id ?? null,
    fileCache(context.env)
  );
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
    }
  };
}
function teamDaysNote(team, count4, read) {
  if (!read) return `The team ${team}'s last days are shown by npm run report, which reads them from the team's store.`;
  return count4 <= TEAM_DAYS_KEPT ? `The team ${team}'s days, as its store keeps them.` : `The team ${team}'s store keeps each day until the end of the next: the ${count4 - TEAM_DAYS_KEPT} days before yesterday are not kept, so not shown.`;
}
function writePageFile(data, path) {
  mkdirSync7(dirname3(path), { recursive: true });
  writeFileSync4(path, renderPage(data, { script: PAGE_SCRIPT, css: UPLOT_CSS }));
  return path;
}
function writeReportPage2(input, context) {
  const path = context.out ?? defaultPagePath(context.env, context.session?.id ?? null);
  return writePageFile(pageData(input, context), path);
}

// src/adapters/report/cli.ts
var REPORT_USAGE = 'usage: npm run report -- [--session <id>] [--days <1-90>] [--out <file.html>] [--daily "<daily budget>"] | --suggest [--project <folder>] [--json]';
var MAX_PAGE_DAYS = 90;
var FLAGS = /* @__PURE__ */ new Set(["--suggest", "--json"]);
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
    else if (name === "--out") options.out = value;
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
  return options;
}
function suggest(options, env, home) {
  const project = options.project ?? env.INIT_CWD ?? process.cwd();
  const history = readProjectHistory(env, home, project, null, fileCache(env));
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
  const options = readOptions(args);
  if ("problem" in options) return fail(options.problem);
  if (options.suggest !== void 0) return suggest(options.suggest, env, home);
  const budget = dailyBudget(options, env);
  if (budget !== null && "problem" in budget) return fail(budget.problem);
  const sessions = allSessions(env, home);
  let chosen = sessions[0] ?? null;
  if (options.session !== null) {
    chosen = sessions.find((session2) => session2.id === options.session) ?? null;
    if (chosen === null) return fail(`no session "${options.session}" was found in any host's sessions here.`);
  }
  const now = clock.now();
  const hosts = new Map(sessions.map((session2) => [session2.id, session2.host]));
  const ledger = openLedger(env, clock);
  const standings = budget === null ? [] : ledger.standings([budget]);
  const problem = ledger.problem();
  const team = ledger instanceof TeamLedger && standings[0]?.budget.team !== void 0 ? ledger : null;
  const report = chosen === null ? null : reportData(chosen.history(), chosen.ledger, now, chosen.terms);
  const session = chosen === null ? null : { id: chosen.id, host: chosen.host };
  const project = chosen === null ? null : chosen.project();
  const path = writeReportPage2(
    // With no session found, the page shows the days alone.
    { report, standings },
    {
      env,
      now,
      session,
      hostOf: (id) => hosts.get(id) ?? null,
      days: options.days,
      project,
      out: options.out ?? defaultPagePath(env, session?.id ?? null),
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
export {
  fileCache,
  homeOf,
  readProjectHistory,
  runReport,
  writeReportPage2 as writeReportPage
};
