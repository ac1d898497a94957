// Timebox's extension code for pi and oh-my-pi, bundled from src/entries/pi/timebox/extension.ts by npm run build. Do not edit.
"use strict";
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// src/entries/pi/timebox/extension.ts
var extension_exports = {};
__export(extension_exports, {
  timeboxExtension: () => timeboxExtension
});
module.exports = __toCommonJS(extension_exports);
var import_node_crypto4 = require("node:crypto");
var import_node_path6 = require("node:path");

// src/adapters/node/file-ledger.ts
var import_node_crypto = require("node:crypto");
var import_node_fs = require("node:fs");
var import_node_path = require("node:path");

// src/core/constants.ts
var NUDGE_WARNING_RATIO = 0.8;
var NUDGE_CRITICAL_RATIO = 0.95;
var STATUS_REFRESH_INTERVAL_MS = 1e3;
var MIN_TIME_LIMIT_MS = 1e3;
var MAX_TIME_LIMIT_MS = 30 * 24 * 60 * 60 * 1e3;
var MAX_TURN_LIMIT = 1e6;
var MAX_STEP_LIMIT = 1e4;
var MIN_LOOP_LIMIT = 2;
var MAX_LOOP_LIMIT = 1e3;
var LOOP_VIEW_CHARS = 60;
var MAX_TOKEN_LIMIT = 1e9;
var MIN_COST_LIMIT = 0.01;
var MAX_COST_LIMIT = 1e4;
var MIN_GRACE_MS = 1e3;
var MAX_GRACE_MS = 10 * 60 * 1e3;
var MIN_ANSWER_TOKENS = 2048;
var NOTE_ALLOWANCE_BYTES = 4096;
var AWARE_WORD = "aware";
var AWARENESS_CHOICES = ["nudge", "always"];
var MAX_TIMER_DELAY_MS = 2147483647;
var ACTIVE_ENTRY_TYPE = "timebox-active";
var OFF_ENTRY_TYPE = "timebox-off";
var COMMAND_NAME = "timebox";
var STATUS_KEY = "timebox";
var STATIC_COMPLETIONS = [
  "off",
  "status",
  "subagents",
  "today",
  "team",
  "suggest",
  "15m",
  "30m",
  "1h",
  "turns:3",
  "turns:5",
  "turns:10",
  "loop:3"
];
var SUBAGENT_COMPLETIONS = [
  "off",
  "2m",
  "5m",
  "15m",
  "steps:15",
  "steps:30",
  "tokens:200k",
  "loop:3"
];
var TEAM_SET_COMPLETIONS = ["off", "4h", "turns:200", "$50"];
var TEAM_ASK_COMPLETIONS = ["+30m", "+1h", "+turns:20", "+$5"];
var OFF_WORDS = ["off", "disable", "cancel"];
var STATUS_WORD = "status";
var PAUSE_WORD = "pause";
var RESUME_WORD = "resume";
var REPORT_WORD = "report";
var REPORT_PAGE_WORD = "page";
var SUGGEST_WORD = "suggest";
var SUGGESTED_DEFAULT = "suggested";
var SUGGEST_MIN_SESSIONS = 5;
var SUGGEST_SESSIONS = 30;
var SUGGEST_MEDIAN = 50;
var SUGGEST_PERCENTILE = 90;
var TODAY_WORD = "today";
var TEAM_WORD = "team";
var TEAM_SET_WORD = "set";
var TEAM_ASK_WORD = "ask";
var EXTEND_WORDS = ["extend", "add"];
var MAX_QUOTED_INPUT_CHARS = 40;
var RECORD_VERSION = 2;
var BUDGET_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
var LEGACY_ID_PREFIX = "legacy-";
var LEDGER_FOLDER = "timebox-ledger";
var ON_STOP_RECOVERY_MS = 3e4;
var UNNAMED_RUN = "\0run-without-a-prompt";
var LIMIT_MORE_TIME = "5m";
var LIMIT_MORE_TURNS = 1;
var LIMIT_QUESTION_TIMEOUT_MS = 3e4;
var REPLACE_QUESTION_TIMEOUT_MS = 3e4;
var ON_LIMIT_CHOICES = ["stop", "ask"];
var RELOAD_NOTICE_DELAY_MS = 500;
var DEFAULT_ENV = "TIMEBOX_DEFAULT";
var DAILY_ENV = "TIMEBOX_DAILY";
var SUBAGENTS_ENV = "TIMEBOX_SUBAGENTS";
var SUBAGENTS_WORD = "subagents";
var ANY_AGENT_TYPE = "*";
var SUBAGENT_GRACE_MS = 3e4;
var SUBAGENT_TASK_WORDS = 6;
var SUBAGENT_CALLS_AFTER_SPENT = 2;
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
var TEAM_SCOPE = "team";
var TEAM_ASKS_KEPT = 100;
var TEAM_ASK_WHY_CHARS = 200;

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
function quoteInput(text) {
  const chars = Array.from(text);
  const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}\u2026` : text;
  return `"${shown}"`;
}
function joinSplitTokens(budgetText) {
  return budgetText.replace(/\b(turns|grace|tokens|cost|steps|loop):\s+(?=[\d$])/gi, "$1:").replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
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
      const count3 = Number(stepMatch[1]);
      if (count3 < 1 || count3 > MAX_STEP_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a step cap is 1 to 10,000 model calls per prompt.` };
      }
      if (steps !== null) notes.push(`${token} replaces ${stepsWord}.`);
      steps = count3;
      stepsWord = token;
      continue;
    }
    if (LOOP_TOKEN.test(token)) {
      const digits = token.slice(token.indexOf(":") + 1);
      const count3 = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
      if (Number.isNaN(count3)) {
        return {
          invalid: `${quoteInput(token)} is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).`
        };
      }
      if (count3 < MIN_LOOP_LIMIT || count3 > MAX_LOOP_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a loop guard is 2 to 1,000 identical calls.` };
      }
      if (loop !== null) notes.push(`${token} replaces ${loopWord}.`);
      loop = count3;
      loopWord = token;
      continue;
    }
    const tokenBudget = parseTokens(token);
    if (tokenBudget !== null) {
      if (tokenBudget < 1 || tokenBudget > MAX_TOKEN_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a token budget is 1 to 1,000,000,000 tokens.` };
      }
      if (tokenCount2 !== null) notes.push(`${token} replaces ${tokensWord2}.`);
      tokenCount2 = tokenBudget;
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
    const count2 = parseTurns(token);
    if (count2 !== null) {
      if (count2 < 1 || count2 > MAX_TURN_LIMIT) {
        return {
          invalid: `${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.`
        };
      }
      if (turns !== null) notes.push(`${token} replaces ${turnsWord}.`);
      turns = count2;
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
  return { timeMs, turns, tokens: tokenCount2, cost, steps, loop, aware, graceMs, notes };
}
var SESSION_BUDGET_WORDS = "a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s";
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
  const text = typeof input === "string" ? input : "";
  const trimmed2 = text.trim();
  const bare = SUB_COMMANDS.get(trimmed2.toLowerCase());
  if (bare !== void 0) return { kind: bare };
  const today2 = TODAY_COMMAND.exec(trimmed2);
  if (today2) return { kind: "today", words: today2[1] ?? "" };
  const team2 = TEAM_COMMAND.exec(trimmed2);
  if (team2) return { kind: "team", words: team2[1] ?? "" };
  if (REPORT_PAGE_COMMAND.test(trimmed2)) return { kind: "reportPage" };
  const subagents = SUBAGENTS_COMMAND.exec(trimmed2);
  if (subagents) return subagentsCommand((subagents[1] ?? "").trim());
  const delimiter = STOP_COMMAND_DELIMITER.exec(text);
  const budgetText = delimiter ? text.slice(0, delimiter.index) : text;
  const stopCommand = delimiter ? text.slice(delimiter.index + delimiter[0].length).trim() : "";
  const tokens = joinSplitTokens(budgetText).split(/\s+/).filter((token) => token.length > 0);
  const first = SUB_COMMANDS.get(tokens[0]?.toLowerCase() ?? "");
  if ((first === "off" || first === "status") && (tokens.length > 1 || delimiter)) {
    return { kind: first, ignored: text.trim().replace(/^\S+\s*/, "") };
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
function parseTaskBudget(text) {
  if (STOP_COMMAND_DELIMITER.test(text)) {
    return { invalid: "A subagent budget runs no on-stop command: the session's runs when the session stops." };
  }
  const tokens = joinSplitTokens(text).split(/\s+/).filter((token) => token.length > 0);
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
function safeTurns(usedTurns) {
  return Number.isFinite(usedTurns) ? Math.max(0, Math.floor(usedTurns)) : 0;
}
function safeAmount(amount3) {
  return Number.isFinite(amount3) ? Math.max(0, amount3) : 0;
}
function worstRatio(budget, now, usedTurns, spend = NO_SPEND, prompts = true) {
  const timeRatio = budget.timeLimitMs === null ? 0 : elapsedMs(budget, now) / budget.timeLimitMs;
  const turnRatio = !prompts || budget.turnLimit === null ? 0 : safeTurns(usedTurns) / budget.turnLimit;
  const tokenRatio = budget.tokenLimit === void 0 ? 0 : safeAmount(spend.tokens) / budget.tokenLimit;
  const costRatio = budget.costLimit === void 0 ? 0 : safeAmount(spend.cost) / budget.costLimit;
  return Math.max(timeRatio, turnRatio, tokenRatio, costRatio);
}
function responseTokens(used) {
  return tokenCount(used.input) + tokenCount(used.output) + tokenCount(used.reasoning) + tokenCount(used.cacheRead) + tokenCount(used.cacheWrite);
}
function tokenCount(value) {
  return typeof value === "number" && value > 0 && value < Number.POSITIVE_INFINITY ? value : 0;
}

// src/core/daily/daily-budget.ts
var NO_ADJUSTMENT = { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false };
function runTimeToday(startedAt, standings, now) {
  const dayStart = standings.reduce((latest, standing2) => Math.max(latest, standing2.dayStart), startedAt);
  return Math.max(0, now - dayStart);
}
function parseDailyBudget(text, scope, source) {
  const value = typeof text === "string" ? text : JSON.stringify(text);
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
function limitsToday(standing2) {
  const { limits } = standing2.budget;
  const add2 = standing2.adjustment;
  const plus = (limit2, more) => limit2 === null ? null : limit2 + more;
  return {
    timeMs: plus(limits.timeMs, add2.addTimeMs),
    turns: plus(limits.turns, add2.addPrompts),
    tokens: plus(limits.tokens, add2.addTokens),
    cost: plus(limits.cost, add2.addCost)
  };
}
function dailyRatio(standing2) {
  if (standing2.adjustment.off) return 0;
  const limits = limitsToday(standing2);
  const { use } = standing2;
  const ratio = (used, limit2) => limit2 === null ? 0 : safeAmount(used) / limit2;
  return Math.max(
    ratio(use.agentMs, limits.timeMs),
    ratio(use.prompts, limits.turns),
    ratio(use.tokens, limits.tokens),
    ratio(use.cost, limits.cost)
  );
}
function spentDaily(standings, prompts) {
  return standings.find((standing2) => {
    if (prompts && standing2.closed !== void 0) return true;
    if (standing2.adjustment.off) return false;
    const limits = limitsToday(standing2);
    const { use } = standing2;
    return limits.timeMs !== null && use.agentMs >= limits.timeMs || prompts && limits.turns !== null && use.prompts >= limits.turns || limits.tokens !== null && use.tokens >= limits.tokens || limits.cost !== null && use.cost >= limits.cost;
  }) ?? null;
}

// src/core/text/loop.ts
function ordinal(count2) {
  const tens = count2 % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : count2 % 10 === 1 ? "st" : count2 % 10 === 2 ? "nd" : count2 % 10 === 3 ? "rd" : "th";
  return `${count2}${suffix}`;
}
function named(tool, view) {
  return view.length > 0 ? `${tool} (${view})` : tool;
}
function loopRefusal(tool, view, count2, scope = "run") {
  const shown = view.length > 0 ? ` (${view})` : "";
  return `Timebox: this is the ${ordinal(count2)} identical ${tool} call in this ${scope}${shown}; its result will not change. Change your approach or finish with what you have.`;
}
function loopRefusedMessage(tool, view, count2) {
  return `Timebox refused a repeated call: ${named(tool, view)}, the ${ordinal(count2)} identical one in this run.`;
}
function subagentLoopRefusedMessage(agent, tool, view, count2) {
  return `Timebox refused a repeated call of ${agent}: ${named(tool, view)}, the ${ordinal(count2)} identical one in its task.`;
}
function loopStoppedMessage(tool, view, count2) {
  return `Timebox stopped a loop: ${named(tool, view)} asked for ${count2} times in this run.`;
}
var FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";
function loopStopRefusal(tool, view, count2) {
  return `${loopStoppedMessage(tool, view, count2)} ${FINISH_NOW}`;
}
var LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;
function subagentLoopRefusal(tool, view, count2) {
  return `Timebox stopped a loop: ${named(tool, view)} asked for ${count2} times in this task. Write your final answer now, with what you found and what is left undone. Call no more tools.`;
}
var SUBAGENT_LOOP_STOPPED_REFUSAL = "Timebox stopped a loop in this task: a call refused as a loop was asked for again. Write your final answer now, with what you found and what is left undone. Call no more tools.";
function loopGuardPhrase(limit2) {
  return `a loop guard (the ${ordinal(limit2)} identical tool call of a run is refused)`;
}
function loopGuardStatus(limit2) {
  return `loop guard at ${limit2}`;
}

// src/core/format.ts
var SECOND_MS2 = 1e3;
var SPENT_STATUS = "Timebox: budget spent";
var WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;
function formatTokens(tokens) {
  const count2 = safeAmount(tokens);
  if (count2 < 1e3) return `${Math.floor(count2)}`;
  if (count2 < 1e6) return `${trimmed(count2 / 1e3)}k`;
  return `${trimmed(count2 / 1e6)}m`;
}
function trimmed(value) {
  const rounded = Math.floor(value * 10) / 10;
  return Number.isInteger(rounded) ? `${rounded}` : rounded.toFixed(1);
}
function formatCost(dollars) {
  const amount3 = safeAmount(dollars);
  if (amount3 >= 1) return `$${amount3.toFixed(2)}`;
  return `$${amount3.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
function pluralTurns(count2) {
  return `${count2} ${count2 === 1 ? "turn" : "turns"}`;
}
function formatBudgetLabel(ms) {
  if (ms === lastLabel.ms) return lastLabel.text;
  const text = budgetLabel(ms);
  lastLabel = { ms, text };
  return text;
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
function formatTimeLeft(budget, limitMs, now) {
  return formatTime(Math.ceil(Math.max(0, limitMs - elapsedMs(budget, now)) / SECOND_MS2) * SECOND_MS2);
}
function formatRemaining(budget, now, usedTurns, spend = NO_SPEND, steps = null) {
  const timePart = budget.timeLimitMs === null ? "no time limit" : `${formatTimeLeft(budget, budget.timeLimitMs, now)} left (${formatBudgetLabel(budget.timeLimitMs)} budget)`;
  const used = safeTurns(usedTurns);
  const turnPart = budget.turnLimit === null ? "no turn limit" : `${pluralTurns(Math.max(0, budget.turnLimit - used))} left (${used}/${budget.turnLimit})`;
  const timeAndTurnsOnly = budget.costLimit === void 0 && budget.tokenLimit === void 0 && budget.stepLimit === void 0 && budget.loopLimit === void 0;
  const text = `${timePart} | ${turnPart}`;
  return timeAndTurnsOnly ? text : [text, ...spendParts(budget, spend, steps)].join(" | ");
}
function stepsPerPrompt(limit2) {
  return `${limit2} ${limit2 === 1 ? "step" : "steps"} per prompt`;
}
function spendParts(budget, spend, steps) {
  const parts = [];
  if (budget.costLimit !== void 0) parts.push(`${formatCost(spend.cost)} of ${formatCost(budget.costLimit)}`);
  if (budget.tokenLimit !== void 0) {
    parts.push(`${formatTokens(spend.tokens)} of ${formatTokens(budget.tokenLimit)} tokens`);
  }
  if (budget.stepLimit !== void 0) {
    parts.push(steps ? `step ${steps.used}/${steps.allowed}` : stepsPerPrompt(budget.stepLimit));
  }
  if (budget.loopLimit !== void 0) parts.push(loopGuardStatus(budget.loopLimit));
  return parts;
}
function formatStatus(budget, now, usedTurns, spend = NO_SPEND, steps = null) {
  const secondsLeft = budget.timeLimitMs === null ? -1 : Math.ceil(Math.max(0, budget.timeLimitMs - elapsedMs(budget, now)) / SECOND_MS2);
  const last = lastStatus;
  if (last !== null && last.budget === budget && last.secondsLeft === secondsLeft && last.usedTurns === usedTurns && Object.is(last.tokens, spend.tokens) && Object.is(last.cost, spend.cost) && last.stepsUsed === steps?.used && last.stepsAllowed === steps?.allowed) {
    return last.text;
  }
  const paused = budget.pausedAt === void 0 ? "" : "paused | ";
  const text = `Timebox: ${paused}${formatRemaining(budget, now, usedTurns, spend, steps)}`;
  lastStatus = {
    budget,
    secondsLeft,
    usedTurns,
    tokens: spend.tokens,
    cost: spend.cost,
    stepsUsed: steps?.used,
    stepsAllowed: steps?.allowed,
    text
  };
  return text;
}
var lastStatus = null;
function formatLeft(budget, now, usedTurns, spend = NO_SPEND) {
  const parts = [];
  if (budget.timeLimitMs !== null) parts.push(`${formatTimeLeft(budget, budget.timeLimitMs, now)} left`);
  if (budget.turnLimit !== null)
    parts.push(`${pluralTurns(Math.max(0, budget.turnLimit - safeTurns(usedTurns)))} left`);
  if (budget.tokenLimit !== void 0) {
    parts.push(`${formatTokens(Math.max(0, budget.tokenLimit - safeAmount(spend.tokens)))} tokens left`);
  }
  if (budget.costLimit !== void 0) {
    parts.push(`${formatCost(Math.max(0, budget.costLimit - safeAmount(spend.cost)))} left`);
  }
  return parts.join(" | ");
}
function pluralPrompts(count2) {
  return `${count2} ${count2 === 1 ? "prompt" : "prompts"}`;
}
function formatLeftOf(budget, now, usedTurns, spend = NO_SPEND) {
  const parts = [];
  if (budget.timeLimitMs !== null) {
    parts.push(`${formatTimeLeft(budget, budget.timeLimitMs, now)} left of ${formatBudgetLabel(budget.timeLimitMs)}`);
  }
  if (budget.turnLimit !== null) {
    const left = Math.max(0, budget.turnLimit - safeTurns(usedTurns));
    parts.push(`${pluralPrompts(left)} left of ${budget.turnLimit}`);
  }
  if (budget.tokenLimit !== void 0) {
    const left = Math.max(0, budget.tokenLimit - safeAmount(spend.tokens));
    parts.push(`${formatTokens(left)} tokens left of ${formatTokens(budget.tokenLimit)}`);
  }
  if (budget.costLimit !== void 0) {
    const left = Math.max(0, budget.costLimit - safeAmount(spend.cost));
    parts.push(`${formatCost(left)} left of ${formatCost(budget.costLimit)}`);
  }
  return parts.join(" and ");
}

// src/core/text/host-terms.ts
var WRITTEN_COMMAND = "/timebox";
var NAMED_COMMAND = /(^|[\s"'`(])\/timebox\b/g;
var DEFAULT_TERMS = {
  name: "pi",
  command: WRITTEN_COMMAND,
  tokens: true,
  cost: true,
  dailySetting: `Set one under the timebox key of pi's settings.json ("daily": "3h turns:60 cost:10").`
};
var COST_USED = /\$[\d.]+ of (\$[\d.]+)/g;
var TOKENS_USED = /\b[\d.]+[km]? of ([\d.]+[km]?) tokens\b/g;
function inHostTerms(text, terms) {
  let shown = terms.command === WRITTEN_COMMAND ? text : text.replace(NAMED_COMMAND, `$1${terms.command}`);
  if (!terms.cost) shown = shown.replace(COST_USED, `$1 limit (cost not tracked in ${terms.name})`);
  if (!terms.tokens) shown = shown.replace(TOKENS_USED, `$1 token limit (tokens not tracked in ${terms.name})`);
  return shown;
}
function noDailyBudgetMessage(terms) {
  return `No daily budget is set. ${terms.dailySetting}`;
}
function modeLine(terms) {
  return terms.mode === void 0 ? null : `Timebox runs on ${terms.name}'s ${terms.mode}.`;
}
function unmeasuredNote(terms) {
  const missing = [terms.tokens ? null : "tokens", terms.cost ? null : "cost"].filter((word) => word !== null);
  return missing.length === 0 ? null : `${capitalize(missing.join(" and "))} not tracked in ${terms.name}.`;
}
function capitalize(text) {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
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
var NO_ACTIVE_TIMEBOX = "No active timebox.";
var TIMEBOX_OFF = "Timebox off.";
function ignoredWordsNote(command2, ignored) {
  return `Ignored what followed ${command2}: ${quoteInput(ignored)}.`;
}
var UNUSABLE_RECORD = "Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.";
function onStopNote(command2) {
  return command2 === null ? "" : ` On stop it runs: ${command2}`;
}
function invalidMessage(reason) {
  return `Timebox: ${reason} Nothing changed.
${USAGE}`;
}
function noBudgetStatusMessage() {
  return `${NO_ACTIVE_TIMEBOX}
${SET_ONE_HINT}`;
}
var SET_ONE_HINT = "Set one with /timebox 15m turns:3.";
function budgetSetMessage(limits, replacedActive, notes = []) {
  const replaced = replacedActive ? " It replaces the previous budget." : "";
  return `Timebox set: ${describeBudget(limits)}.${replaced}${onStopNote(limits.onStopCommand)}${noteLines(notes)}`;
}
function noteLines(notes) {
  return notes.map((note) => `
${note}`).join("");
}
function extendedMessage(added, statusText2, notes = []) {
  return `Timebox extended by ${added}. ${statusText2}${noteLines(notes)}`;
}
var NOTHING_TO_EXTEND = "No active timebox: nothing to extend. Set one with /timebox <budget>.";
var EXTENSION_TOO_LARGE = "Timebox: that extension would pass the largest budget (30 days, 1,000,000 turns, 1,000,000,000 tokens, $10,000). Nothing changed.";
function pausedMessage(statusText2) {
  return `Timebox paused: the clock stands still and prompts do not count until /timebox resume.
${statusText2}`;
}
function resumedMessage(statusText2) {
  return `Timebox resumed. ${statusText2}`;
}
var ALREADY_PAUSED = "Timebox is already paused. /timebox resume goes on.";
var NOT_PAUSED = "Timebox is not paused.";
var COST_NOT_REPORTED = "Timebox: this model reports no cost: the cost limit cannot be enforced.";
var COST_NOT_SEEN = "Timebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.";
var TOKENS_NOT_SEEN = "Timebox: this host does not tell Timebox what a model call used: the token limit cannot be enforced here.";
var NO_REPORT = "No budget was set in this session.";
var SPENT_CANNOT_PAUSE = "Timebox budget is spent: there is nothing to pause. Extend it with /timebox +<budget>.";
function activeStatusMessage(statusText2, onStopCommand) {
  return `${statusText2}${onStopCommand === null ? "" : `
On stop it runs: ${onStopCommand}`}`;
}
function spentUsage(summary, budget) {
  const parts = [];
  if (budget.tokenLimit !== void 0) {
    parts.push(
      `${(summary.tokens ?? 0).toLocaleString("en-US")} of ${budget.tokenLimit.toLocaleString("en-US")} tokens`
    );
  }
  if (budget.costLimit !== void 0) parts.push(`${formatCost(summary.cost ?? 0)} of ${formatCost(budget.costLimit)}`);
  const said = parts.map((part) => `, ${part}`).join("");
  return summary.noRoom && said !== "" ? `${said} (${NO_ROOM_REASON})` : said;
}
var NO_ROOM_REASON = "too little left for the next model call";
function spentMessage(usedTurns, elapsedMs2, usage = "") {
  return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs2)}${usage}. The agent stops for this turn. The chat continues.`;
}
function idleSpentMessage(usedTurns, elapsedMs2, usage = "") {
  return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs2)}${usage}, while the agent was idle. The chat continues.`;
}
function wrapUpMessage(usedTurns, elapsedMs2, graceMs, usage = "") {
  return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs2)}${usage}. The agent is wrapping up: its tools are refused, and it has ${formatTime(graceMs)} to write its final answer. The chat continues.`;
}
var WRAP_UP_REFUSAL = `Timebox: the budget is spent. ${FINISH_NOW}`;
function wrapUpCutMessage(why) {
  const reason = why === "time" ? "the time to wrap up ran out" : "the model asked for tools again";
  return `Timebox stopped the agent: ${reason}.`;
}
function badSettingMessage(source, value, why) {
  return `Timebox: ${source}: ${JSON.stringify(value)} ${why}, so it is ignored.`;
}
function spentStatusMessage(usedTurns, elapsedMs2, usage = "") {
  return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs2)}${usage}. Set a new budget with /timebox <budget>, or clear this one with /timebox off.`;
}
function nudgeMessage(urgency, detail, running = true) {
  const now = urgency === "critical" ? " now" : "";
  const asked = running ? "the model is asked" : "the model will be told at its next call";
  return `Timebox: ${detail} \u2014 ${asked} to wrap up${now}.`;
}
function onStopStartedMessage(command2) {
  return `Timebox ran the on-stop command: ${command2}`;
}
var ON_STOP_RAN_LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";
function onStopProblemMessage(problem) {
  return `Timebox on-stop command failed: ${problem}`;
}
function restoredMessage(statusText2, onStopCommand) {
  return `${statusText2.replace(/^Timebox:/, "Timebox restored:")}.${onStopNote(onStopCommand)}`;
}
function expiredMessage(budget, summary, startsLate = false) {
  const why = summary.timeRanOut ? "time ran out" : summary.limit === "tokens" ? "the token limit was reached" : summary.limit === "cost" ? "the cost limit was reached" : `all ${pluralTurns(Number(budget.turnLimit))} used`;
  const command2 = budget.onStopCommand === null || startsLate ? "" : ` Its on-stop command is not run on restore: ${budget.onStopCommand}`;
  return `Timebox budget of this session was already spent (${why}), so it was not restored.${command2}`;
}
function internalErrorMessage(where, error) {
  const message = error instanceof Error ? error.message : String(error);
  return `Timebox hit an internal error (${where}): ${message}. Your session goes on; check the budget with /timebox status.`;
}
var COMMAND_AFTER_RELOAD = "Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.";
function defaultSetMessage(source, limits) {
  return `Timebox set from ${source}: ${describeBudget(limits)}.${onStopNote(limits.onStopCommand)}`;
}
function badDefaultMessage(source, reason) {
  return `Timebox: ${source}: ${reason} The session starts without a budget.`;
}
function stepsUsedMessage(limit2) {
  return `Timebox: this prompt used its ${limit2} steps; the model was asked to finish.`;
}
function stepsRefusal(limit2) {
  return `Timebox: this prompt used its ${limit2} steps. Write the final answer now, with what was done and what is left, without tools.`;
}
function stepsStoppedMessage(limit2) {
  return `Timebox: this prompt used its ${limit2} steps and was stopped.`;
}
function badOnLimitMessage(source, value) {
  return `Timebox: ${source}: ${JSON.stringify(value)} is neither "stop" nor "ask", so Timebox stops at the limit.`;
}
var NO_DAILY_BUDGET = noDailyBudgetMessage(DEFAULT_TERMS);
var NO_TEAM = "Timebox: no team is set here. A team shares one daily budget through a store: set TIMEBOX_DAILY_STORE and TIMEBOX_TEAM.";

// src/core/daily/daily-text.ts
function describeDaily(limits, team2 = false) {
  const parts = [];
  if (limits.timeMs !== null) parts.push(`${formatBudgetLabel(limits.timeMs)} of agent time`);
  if (limits.turns !== null) parts.push((team2 ? pluralTurns : pluralPrompts)(limits.turns));
  if (limits.tokens !== null) parts.push(`${formatTokens(limits.tokens)} tokens`);
  if (limits.cost !== null) parts.push(formatCost(limits.cost));
  return parts.join(" and ");
}
function dailySpentMessage(standing2) {
  if (standing2.closed !== void 0) return standing2.closed;
  const team2 = standing2.budget.team;
  if (team2) {
    const limits = describeDaily(limitsToday(standing2), true);
    return `Timebox: the team's budget for today is spent (${limits}). It resets at midnight ${team2.zone}.`;
  }
  return `Timebox: today's budget is spent (${describeDaily(limitsToday(standing2))}). It resets at midnight.`;
}
function dailyLeft(standing2) {
  const limits = limitsToday(standing2);
  const { use } = standing2;
  const parts = [];
  if (limits.timeMs !== null) {
    parts.push(
      `${formatTime(Math.max(0, limits.timeMs - use.agentMs))} of agent time left of ${formatBudgetLabel(limits.timeMs)}`
    );
  }
  if (limits.turns !== null)
    parts.push(`${pluralPrompts(Math.max(0, limits.turns - use.prompts))} left of ${limits.turns}`);
  if (limits.tokens !== null) {
    parts.push(
      `${formatTokens(Math.max(0, limits.tokens - use.tokens))} tokens left of ${formatTokens(limits.tokens)}`
    );
  }
  if (limits.cost !== null)
    parts.push(`${formatCost(Math.max(0, limits.cost - use.cost))} left of ${formatCost(limits.cost)}`);
  return parts.join(" and ");
}
function usedOfLimits(standing2, team2) {
  const limits = limitsToday(standing2);
  const { use } = standing2;
  const parts = [];
  if (limits.timeMs !== null) {
    const left = formatTime(Math.max(0, limits.timeMs - use.agentMs));
    parts.push(`${formatTime(use.agentMs)} of ${formatBudgetLabel(limits.timeMs)} of agent time used, ${left} left`);
  }
  if (limits.turns !== null) {
    const left = Math.max(0, limits.turns - use.prompts);
    parts.push(`${use.prompts} of ${(team2 ? pluralTurns : pluralPrompts)(limits.turns)} used, ${left} left`);
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
function teamLine(standing2, team2) {
  const members = (standing2.use.members ?? []).map(
    (member) => `${member.name} ${member.sessions === 1 ? "1 session" : `${member.sessions} sessions`}`
  );
  const by = members.length === 0 ? "" : ` By ${members.join(", ")}.`;
  const state = standing2.adjustment.off ? " Off until midnight." : "";
  return `The team ${team2.name} (${standing2.budget.source}): ${usedOfLimits(standing2, true)}. ${usedBy(standing2.use.sessions)}${by}${state} It resets at midnight ${team2.zone}.`;
}
function todayLine(standing2) {
  if (standing2.budget.team) return teamLine(standing2, standing2.budget.team);
  const state = standing2.adjustment.off ? " Off until midnight." : "";
  return `${dailyWho(standing2)}: ${usedOfLimits(standing2, false)}. ${usedBy(standing2.use.sessions)}${state}`;
}
function dailyWho(standing2) {
  const team2 = standing2.budget.team;
  if (team2) return `The team ${team2.name} (${standing2.budget.source})`;
  return `${standing2.budget.scope === "user" ? "Every session" : "This project"} (${standing2.budget.source})`;
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
var ADMIN_ONLY = "Timebox: only the team's admin can change its budget (the store refused this user). Ask with /timebox team ask +30m <why>.";
var ASK_REFUSED = "Timebox: the team's store refused to record the request for this user (it may not write the team's day). Nothing was asked.";
function teamWriteRefusal(write3, asking) {
  if (write3 === "done") return null;
  if (write3 === "refused") return asking ? ASK_REFUSED : ADMIN_ONLY;
  return write3.failed;
}
function teamStoreDidNotTake(shown, why) {
  return `Timebox: the team's daily store ${shown} did not take it (${why}). Nothing changed.`;
}
function teamStoreNotReached(shown, why, showing) {
  const what = showing ? "so the team cannot be shown" : "so nothing changed";
  return `Timebox: the team's daily store ${shown} cannot be reached (${why}), ${what}.`;
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
function teamLimitsSet(team2, stored) {
  return `Timebox: the team ${team2.name}'s limits are now ${describeDaily(stored.limits, true)} a day, in its store, for every member from their next check.`;
}
function teamLimitsRemoved(team2) {
  return `Timebox: the team ${team2.name}'s limits are removed from its store: each machine's own daily budget (TIMEBOX_DAILY) is the team's again.`;
}
function teamAsked(team2, adjustment, why, grant) {
  const reason = why === "" ? "" : ` (${JSON.stringify(why)})`;
  return `Timebox: asked the team ${team2.name}'s admin for ${describeAdded(adjustment)}${reason}. The admin sees it in /timebox team, and grants it with /timebox today ${grant}.`;
}
function limitsLine(team2, stored) {
  if (stored === null) {
    return `Timebox team ${team2.name}: its store keeps no limits, so each machine's own daily budget (TIMEBOX_DAILY) is the team's. An admin sets them with /timebox team set 4h turns:200 $50.`;
  }
  const limits = describeDaily(stored.limits, true);
  return `Timebox team ${team2.name}: ${limits} a day, set by ${stored.setBy} on ${teamTime(stored.setAt)}.`;
}
function askLine(ask) {
  const reason = ask.why === "" ? "" : `: ${JSON.stringify(ask.why)}`;
  return `- ${ask.member} at ${teamTime(ask.at).slice(11)} asks for ${describeAdded(ask.adjustment)}${reason}`;
}
function teamReport(team2, view, standings) {
  const today2 = standings.filter((standing2) => standing2.budget.team !== void 0).map(todayLine);
  const lines = [limitsLine(team2, view.stored)];
  lines.push(...today2.length > 0 ? today2 : ["No daily budget of the team covers this session today."]);
  const asks = [...view.asks].sort((a, b) => a.at - b.at);
  if (asks.length === 0) lines.push("No open requests.");
  else lines.push(`Open requests (${asks.length}):`, ...asks.map(askLine));
  return lines.join("\n");
}
function noTeamLimitsHere(team2) {
  return `The team ${team2.name}'s store keeps no limits either: /timebox team shows it.`;
}
function teamAsksFull(count2) {
  return `Timebox: the team's day holds ${count2} open requests already, so this one was not recorded. Ask the admin directly.`;
}

// src/core/daily/today-command.ts
function parseToday(words) {
  const text = words.trim();
  if (text.length === 0) return { kind: "show" };
  if (text.toLowerCase() === "off") return { kind: "off" };
  const command2 = parseCommand(text);
  if (command2.kind !== "extend") {
    return { kind: "invalid", reason: "After /timebox today: nothing, off, or what to add (+30m, +turns:5, +$2)." };
  }
  const adjustment = {
    addTimeMs: command2.addTimeMs ?? 0,
    addPrompts: command2.addTurns ?? 0,
    addTokens: command2.addTokens ?? 0,
    addCost: command2.addCost ?? 0,
    off: false
  };
  const added = describeDaily({
    timeMs: command2.addTimeMs,
    turns: command2.addTurns,
    tokens: command2.addTokens ?? null,
    cost: command2.addCost ?? null
  });
  return { kind: "add", adjustment, added };
}
function adjusted(standings, adjustment) {
  return standings.map((standing2) => {
    const now = standing2.adjustment;
    return {
      ...standing2,
      adjustment: {
        addTimeMs: now.addTimeMs + adjustment.addTimeMs,
        addPrompts: now.addPrompts + adjustment.addPrompts,
        addTokens: now.addTokens + adjustment.addTokens,
        addCost: now.addCost + adjustment.addCost,
        off: now.off || adjustment.off
      }
    };
  });
}
function todayCommand(standings, words) {
  const command2 = parseToday(words);
  if (command2.kind === "invalid")
    return { message: `Timebox: ${command2.reason} Nothing changed.`, level: "warning", effects: [] };
  if (standings.length === 0 || command2.kind === "show")
    return { message: todayReport(standings), level: "info", effects: [] };
  const budgets = standings.map((standing2) => standing2.budget);
  const change = (adjustment, message) => ({
    message: null,
    level: "info",
    effects: [{ kind: "adjustDaily", adjustment, budgets, done: [{ kind: "notify", message, level: "info" }] }]
  });
  if (command2.kind === "off") {
    return change(
      { ...NO_ADJUSTMENT, off: true },
      "Timebox: today's budget is off until midnight, in every session it covers."
    );
  }
  return change(
    command2.adjustment,
    `Timebox: today's budget raised by ${command2.added} for the rest of the day.
${todayReport(adjusted(standings, command2.adjustment))}`
  );
}

// src/core/daily/team.ts
function budgetsInForce(own, team2, stored) {
  if (stored === null) return own.map((budget) => ({ ...budget, team: team2 }));
  const store = { scope: TEAM_SCOPE, source: STORE_SOURCE, limits: stored.limits, team: team2, stored };
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
function closedTeamStanding(team2, closed, dayStart) {
  const limits = { timeMs: null, turns: null, tokens: null, cost: null };
  return {
    budget: { scope: TEAM_SCOPE, source: STORE_SOURCE, limits, team: team2 },
    use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 },
    adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
    dayStart,
    closed
  };
}
function teamStandings(own, team2, reading, machine) {
  const budgets = budgetsInForce(own, team2, reading.stored);
  const personal = budgets.filter((budget) => !countsInStore(budget));
  const mine = personal.length === 0 ? [] : machine(personal);
  const standings = [];
  for (const budget of budgets) {
    if (countsInStore(budget)) {
      const adjustment = budget.stored ? reading.raise : reading.added;
      standings.push({ budget, use: reading.use, adjustment, dayStart: reading.dayStart });
      continue;
    }
    const standing2 = mine[personal.indexOf(budget)];
    if (standing2) standings.push({ ...standing2, budget });
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
var TEAM_USAGE = "After /timebox team: nothing, set <limits> (set 4h turns:200 $50), set off, or ask +30m <why>.";
var SET_WORDS = "a time (4h), turns:200, tokens:2m and cost ($50)";
function parseLimits(text) {
  const tokens = joinSplitTokens(text).split(/\s+/).filter((token) => token.length > 0);
  if (tokens.length === 0)
    return { kind: "invalid", reason: `team set takes the team's limits, ${SET_WORDS}, or off.` };
  if (tokens.length === 1 && tokens[0]?.toLowerCase() === "off") return { kind: "unset" };
  const limits = { timeMs: null, turns: null, tokens: null, cost: null };
  for (const token of tokens) {
    const word = readWords([token]);
    if ("invalid" in word) return { kind: "invalid", reason: word.invalid };
    if (word.steps !== null || word.aware || word.graceMs !== null) {
      return { kind: "invalid", reason: `${quoteInput(token)} is no daily budget word: team set takes ${SET_WORDS}.` };
    }
    limits.timeMs = word.timeMs ?? limits.timeMs;
    limits.turns = word.turns ?? limits.turns;
    limits.tokens = word.tokens ?? limits.tokens;
    limits.cost = word.cost ?? limits.cost;
  }
  return { kind: "set", limits };
}
function parseAsk(text) {
  const tokens = text.split(/\s+/).filter((token) => token.length > 0);
  const count2 = tokens.findIndex((token) => !token.startsWith("+"));
  const amount3 = (count2 < 0 ? tokens : tokens.slice(0, count2)).join(" ");
  const asked = amount3 === "" ? null : parseToday(amount3);
  if (asked === null || asked.kind !== "add") {
    const why2 = asked?.kind === "invalid" ? `${quoteInput(amount3)} is not an amount to add: ` : "";
    return { kind: "invalid", reason: `${why2}team ask takes what to add first (+30m, +turns:20, +$5), then why.` };
  }
  const why = Array.from(count2 < 0 ? "" : tokens.slice(count2).join(" ")).slice(0, TEAM_ASK_WHY_CHARS).join("");
  return { kind: "ask", adjustment: asked.adjustment, grant: amount3, why };
}
function parseTeam(words) {
  const text = words.trim();
  if (text === "") return { kind: "show" };
  const [first = "", ...rest] = text.split(/\s+/);
  const after = rest.join(" ");
  if (first.toLowerCase() === "set") return parseLimits(after);
  if (first.toLowerCase() === "ask") return parseAsk(after);
  return { kind: "invalid", reason: TEAM_USAGE };
}
function teamCommand(team2, words, reads) {
  if (team2 === void 0) return { message: NO_TEAM, level: "info", effects: [] };
  if ("unusable" in team2) return { message: team2.unusable, level: "warning", effects: [] };
  const command2 = parseTeam(words);
  const notify2 = (message) => [{ kind: "notify", message, level: "info" }];
  switch (command2.kind) {
    case "invalid":
      return { message: `Timebox: ${command2.reason} Nothing changed.`, level: "warning", effects: [] };
    case "show": {
      const view = reads.view();
      if ("unreadable" in view) return { message: view.unreadable, level: "warning", effects: [] };
      return { message: teamReport(team2, view, reads.standings()), level: "info", effects: [] };
    }
    case "set":
      return {
        message: null,
        level: "info",
        effects: [{ kind: "setTeamLimits", limits: command2.limits, done: notify2(teamLimitsSet(team2, command2)) }]
      };
    case "unset":
      return {
        message: null,
        level: "info",
        effects: [{ kind: "setTeamLimits", limits: null, done: notify2(teamLimitsRemoved(team2)) }]
      };
    case "ask": {
      const { adjustment, why, grant } = command2;
      const done = notify2(teamAsked(team2, adjustment, why, grant));
      return { message: null, level: "info", effects: [{ kind: "askTeam", adjustment, why, done }] };
    }
  }
}

// src/core/daily/daily.ts
function dailyWarnings(standings, given) {
  const effects = [];
  const now = [...given];
  const modelLines = [];
  for (const standing2 of standings) {
    const ratio = dailyRatio(standing2);
    if (ratio < NUDGE_WARNING_RATIO || ratio >= 1) continue;
    const level = `${standing2.budget.scope}:${ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning"}`;
    modelLines.push(`Today's budget (shared by every session): ${dailyLeft(standing2)}.`);
    if (now.includes(level)) continue;
    now.push(level);
    effects.push({
      kind: "notify",
      message: `Timebox: today's budget: ${dailyLeft(standing2)} \u2014 the model is asked to wrap up.`,
      level: "warning"
    });
  }
  return { effects, given: now, modelLines };
}
var NO_DAILY_SESSION = { given: [], runStartedAt: null, stopped: false };
function refusal(standing2) {
  const message = dailySpentMessage(standing2);
  return [{ kind: "notify", message, level: "error" }, { kind: "abort" }, { kind: "refuse", reason: message }];
}
function inForce(standings) {
  return standings.map((standing2) => standing2.budget);
}
function reserve(standings) {
  return { kind: "reserveDaily", budgets: inForce(standings) };
}
function addAgentTime(agentMs, standings) {
  return agentMs > 0 ? [{ kind: "addDailyUse", use: { agentMs }, budgets: inForce(standings) }] : [];
}
function countPrompt(standings) {
  const spent = promptLimitMet(standings);
  return {
    kind: "countPrompt",
    limits: promptLimits(standings),
    refused: spent ? refusal(spent) : [],
    budgets: inForce(standings)
  };
}
function promptLimits(standings) {
  return standings.map((standing2) => standing2.adjustment.off ? null : limitsToday(standing2).turns);
}
function promptLimitMet(standings) {
  const limits = promptLimits(standings);
  const full = standings.map((standing2, index) => ({
    ...standing2,
    use: { ...standing2.use, prompts: Math.max(standing2.use.prompts, limits[index] ?? standing2.use.prompts) }
  }));
  return spentDaily(full, true) ?? standings[0];
}
function dailyRefused(session) {
  return { ...session, runStartedAt: null };
}
function dailyTransition(session, event, standings, now) {
  const none = { effects: [], context: [] };
  switch (event.type) {
    case "newPrompt": {
      const spent = spentDaily(standings, true);
      if (spent) return { ...none, session: dailyRefused(session), effects: refusal(spent) };
      const warned = dailyWarnings(standings, session.given);
      const before = session.runStartedAt === null ? 0 : runTimeToday(session.runStartedAt, standings, now);
      return {
        session: { given: warned.given, runStartedAt: now, stopped: false },
        effects: [...warned.effects, countPrompt(standings), ...addAgentTime(before, standings), reserve(standings)],
        context: warned.modelLines
      };
    }
    case "duringRun": {
      const used = event.used ?? { tokens: 0, cost: 0 };
      if (session.runStartedAt === null && !event.modelCall) {
        const answer = event.used;
        return {
          ...none,
          session,
          effects: answer ? [{ kind: "addDailyUse", use: answer, budgets: inForce(standings) }] : []
        };
      }
      const startedAt = session.runStartedAt ?? now;
      const running = runTimeToday(startedAt, standings, now);
      const write3 = event.used ? [
        {
          kind: "addDailyUse",
          use: running > 0 ? { ...event.used, agentMs: running } : event.used,
          budgets: inForce(standings)
        }
      ] : [];
      const withRun2 = standings.map((standing2) => ({
        ...standing2,
        use: {
          ...standing2.use,
          agentMs: standing2.use.agentMs + running,
          prompts: Math.max(0, standing2.use.prompts - 1),
          tokens: standing2.use.tokens + used.tokens,
          cost: standing2.use.cost + used.cost
        }
      }));
      const spent = spentDaily(withRun2, false);
      const resumed = { ...session, runStartedAt: event.used ? now : startedAt };
      if (spent && session.stopped) {
        const quiet = refusal(spent).filter((effect) => effect.kind !== "notify");
        return { ...none, session: resumed, effects: [...write3, ...quiet] };
      }
      if (spent) return { ...none, session: { ...resumed, stopped: true }, effects: [...write3, ...refusal(spent)] };
      const warned = dailyWarnings(withRun2, session.given);
      return {
        session: { ...resumed, given: warned.given },
        effects: [...write3, ...warned.effects, ...event.modelCall ? [reserve(standings)] : []],
        context: event.modelCall ? warned.modelLines : []
      };
    }
    case "runEnd": {
      if (session.runStartedAt === null) return { ...none, session };
      return {
        ...none,
        session: { ...session, runStartedAt: null, stopped: false },
        effects: addAgentTime(runTimeToday(session.runStartedAt, standings, now), standings)
      };
    }
  }
}

// src/core/decide.ts
function urgencyFor(ratio) {
  return ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning";
}
function decide(budget, now, turns, spend = NO_SPEND) {
  return decideOn(budget, now, turns, spend, true);
}
function decideOn(budget, now, turns, spend, onTurns) {
  const elapsed = elapsedMs(budget, now);
  const used = safeTurns(turns);
  const tokens = safeAmount(spend.tokens);
  const cost = safeAmount(spend.cost);
  const timeRanOut = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
  const turnsSpent = onTurns && budget.turnLimit !== null && used >= budget.turnLimit;
  const tokensSpent = budget.tokenLimit !== void 0 && tokens >= budget.tokenLimit;
  const costSpent = budget.costLimit !== void 0 && cost >= budget.costLimit;
  if (timeRanOut || turnsSpent || tokensSpent || costSpent) {
    const limit2 = timeRanOut || turnsSpent ? void 0 : tokensSpent ? "tokens" : "cost";
    const summary = summaryOf(budget, elapsed, used, tokens, cost, timeRanOut, limit2);
    return { kind: "stop", usedTurns: used, elapsedMs: elapsed, onStopCommand: budget.onStopCommand, summary };
  }
  const ratio = worstRatio(budget, now, used, spend, onTurns);
  if (!budget.softNudgeSent && ratio >= NUDGE_WARNING_RATIO) {
    const shown = onTurns ? budget : { ...budget, turnLimit: null };
    return { kind: "nudge", urgency: urgencyFor(ratio), detail: formatLeftOf(shown, now, used, spend) };
  }
  return { kind: "ok" };
}
function spentSummary(budget, now, turns, spend) {
  const tokens = safeAmount(spend.tokens);
  return summaryOf(budget, elapsedMs(budget, now), safeTurns(turns), tokens, safeAmount(spend.cost), true);
}
function stopWithoutRoom(budget, now, turns, spend, limit2) {
  const used = safeTurns(turns);
  const elapsed = elapsedMs(budget, now);
  const summary = summaryOf(budget, elapsed, used, safeAmount(spend.tokens), safeAmount(spend.cost), false, limit2);
  summary.noRoom = true;
  return { kind: "stop", usedTurns: used, elapsedMs: elapsed, onStopCommand: budget.onStopCommand, summary };
}
function summaryOf(budget, elapsed, used, tokens, cost, timeRanOut, limit2) {
  const summary = { usedTurns: used, elapsedMs: elapsed, timeRanOut };
  if (limit2) summary.limit = limit2;
  if (budget.tokenLimit !== void 0) summary.tokens = tokens;
  if (budget.costLimit !== void 0) summary.cost = cost;
  return summary;
}
function decideMidRun(budget, now, turns, spend = NO_SPEND) {
  return decideOn(budget, now, turns, spend, false);
}

// src/core/grammar/completions.ts
var SUB_COMMANDS2 = /* @__PURE__ */ new Set(["off", STATUS_WORD, SUBAGENTS_WORD, SUGGEST_WORD, TODAY_WORD, TEAM_WORD]);
function argumentCompletions(prefix) {
  if (/(?:^|\s)--(?:\s|$)/.test(prefix)) return null;
  const wordStart = prefix.search(/\S*$/);
  const head = prefix.slice(0, wordStart);
  const word = prefix.slice(wordStart).toLowerCase();
  const earlier = head.trim().toLowerCase().split(/\s+/);
  if (earlier[0] === TEAM_WORD) return teamCompletions(head, word, earlier.slice(1));
  const forSubagents = earlier[0] === SUBAGENTS_WORD;
  const [list, firstWord] = forSubagents ? [SUBAGENT_COMPLETIONS, earlier.length === 1] : [STATIC_COMPLETIONS, head.trim().length === 0];
  if (word.length > 0 && isWholeWord(word, forSubagents, firstWord)) return null;
  const offered = list.filter((value) => value.startsWith(word) && (firstWord || !SUB_COMMANDS2.has(value)));
  return offered.length > 0 ? offered.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}
function teamCompletions(head, typed, earlier) {
  const word = typed.toLowerCase();
  const [sub, ...rest] = earlier;
  let list = [];
  if (sub === void 0 || sub === "") list = [TEAM_SET_WORD, TEAM_ASK_WORD];
  else if (sub === TEAM_SET_WORD) list = TEAM_SET_COMPLETIONS.filter((value) => value !== "off" || rest.length === 0);
  else if (sub === TEAM_ASK_WORD && rest.every((value) => value.startsWith("+"))) list = TEAM_ASK_COMPLETIONS;
  const offered = list.filter((value) => value.startsWith(word));
  return offered.length > 0 ? offered.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}
function isWholeWord(word, forSubagents, firstWord) {
  if (forSubagents) return firstWord ? parseCommand(`${SUBAGENTS_WORD} ${word}`).kind !== "invalid" : valid(word, true);
  if (valid(word, false)) return true;
  return firstWord && parseCommand(word).kind !== "invalid";
}
function valid(word, task) {
  return task ? !("invalid" in parseTaskBudget(word)) : !("invalid" in readWords([word]));
}

// src/core/model/id-text.ts
var END = "\n";
function textId(id) {
  return typeof id === "string" && !id.includes(END);
}
function idIndex(text, id) {
  if (!textId(id)) return -1;
  if (text.startsWith(`${id}${END}`)) return 0;
  const at = text.indexOf(`${END}${id}${END}`);
  return at < 0 ? -1 : at + 1;
}

// src/core/model/prompt-run.ts
function newestId(ids) {
  const end = ids.length - 1;
  return ids.slice(ids.lastIndexOf("\n", end - 1) + 1, end);
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
  for (const [agentType, text] of Object.entries(value)) {
    if (typeof text !== "string") return void 0;
    words[agentType] = text;
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
function keepChildRecord(record) {
  return record === null ? [] : [{ kind: "append", record }];
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

// src/core/persist.ts
function restoreBudget(budget, now, usedTurns, spend, nudged) {
  if (budget.timeLimitMs !== null && elapsedMs(budget, now) >= budget.timeLimitMs) return { status: "expired" };
  const softNudgeSent = nudged || worstRatio(budget, now, usedTurns, spend) >= NUDGE_WARNING_RATIO;
  return { status: "restored", budget: { ...budget, softNudgeSent, active: true } };
}

// src/core/run/executor.ts
function noAnswer() {
  return { notices: [], context: [], refusal: null, aborted: false, questions: [], stoppedAgents: [] };
}
function mergeAnswer(answer, more) {
  answer.notices.push(...more.notices);
  answer.context.push(...more.context);
  answer.questions.push(...more.questions);
  for (const agent of more.stoppedAgents) stopAgent(answer, agent);
  answer.refusal = more.refusal ?? answer.refusal;
  answer.aborted ||= more.aborted;
  if (more.maxOutputTokens !== void 0) capAnswer(answer, more.maxOutputTokens);
  return answer;
}
function capAnswer(answer, maxTokens) {
  answer.maxOutputTokens = Math.min(answer.maxOutputTokens ?? maxTokens, maxTokens);
}
function stopAgent(answer, agent) {
  if (!answer.stoppedAgents.includes(agent)) answer.stoppedAgents.push(agent);
}
function carryOut(effects, ports, answer, onStopReport2) {
  for (const effect of effects) {
    try {
      carryOutOne(effect, ports, answer, onStopReport2);
    } catch (error) {
      ports.problem(DAILY_WRITES.has(effect.kind) ? "daily budget" : effect.kind, error);
    }
  }
  return answer;
}
var DAILY_WRITES = /* @__PURE__ */ new Set([
  "countPrompt",
  "reserveDaily",
  "addDailyUse",
  "adjustDaily",
  "setTeamLimits",
  "askTeam"
]);
function carryOutOne(effect, ports, answer, onStopReport2) {
  switch (effect.kind) {
    case "notify":
      answer.notices.push({ message: effect.message, level: effect.level });
      return;
    case "status":
      ports.setStatus(effect.text);
      return;
    case "append":
      ports.store.append(effect.record);
      return;
    case "recordPrompt":
      ports.store.appendPrompt?.(effect.prompt);
      return;
    case "dropPrompt":
      ports.store.dropPrompt?.(effect.prompt);
      return;
    case "recordUsage":
      ports.store.recordUsage?.(effect.usage);
      return;
    case "logLine":
      ports.store.appendLine?.(effect.line);
      return;
    case "keepLogFold":
      ports.store.keepFold?.(effect.fold);
      return;
    case "context":
      answer.context.push(effect.text);
      return;
    case "capOutput":
      capAnswer(answer, effect.maxTokens);
      return;
    case "abort":
      answer.aborted = true;
      ports.abortRun();
      return;
    case "refuse":
      answer.refusal = effect.reason;
      return;
    case "ask":
      answer.questions.push(effect);
      return;
    case "stopAgent":
      stopAgent(answer, effect.agent);
      return;
    case "stopSubagents":
      ports.stopSubagents?.();
      return;
    case "watchBudget":
      ports.watchBudget?.(effect.budgetId);
      return;
    case "once":
      if (claim(effect, ports)) carryOut(effect.then, ports, answer, onStopReport2);
      return;
    case "countPrompt":
      if (ports.daily && !ports.daily.ledger.countPrompt(effect.budgets ?? ports.daily.budgets, effect.limits))
        carryOut(effect.refused, ports, answer, onStopReport2);
      return;
    case "reserveDaily":
      ports.daily?.ledger.reserve?.(effect.budgets ?? ports.daily.budgets);
      return;
    case "addDailyUse":
      ports.daily?.ledger.addUse(effect.budgets ?? ports.daily.budgets, effect.use);
      return;
    case "adjustDaily": {
      const daily = ports.daily;
      if (!daily) return;
      for (const budget of effect.budgets ?? daily.budgets) {
        if (refusedWrite(daily.ledger.adjust(budget, effect.adjustment), false, answer)) return;
      }
      carryOut(effect.done ?? [], ports, answer, onStopReport2);
      return;
    }
    case "setTeamLimits": {
      const write3 = ports.daily?.ledger.setTeamLimits?.(effect.limits) ?? NO_TEAM_STORE;
      if (!refusedWrite(write3, false, answer)) carryOut(effect.done, ports, answer, onStopReport2);
      return;
    }
    case "askTeam": {
      const write3 = ports.daily?.ledger.askTeam?.(effect.adjustment, effect.why) ?? NO_TEAM_STORE;
      if (!refusedWrite(write3, true, answer)) carryOut(effect.done, ports, answer, onStopReport2);
      return;
    }
    case "startOnStop": {
      const command2 = effect.command;
      const report = (outcome) => onStopReport2(command2, outcome);
      try {
        const mark = startMark(effect, ports);
        if (mark === void 0) ports.onStop.start(command2, report);
        else ports.onStop.start(command2, report, { mark });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        onStopReport2(command2, { kind: "failed", problem: `could not start ${quoteInput(command2)}: ${reason}` });
      }
      return;
    }
  }
}
var NO_TEAM_STORE = { failed: NO_TEAM };
function refusedWrite(write3, asking, answer) {
  const refusal2 = write3 === void 0 ? null : teamWriteRefusal(write3, asking);
  if (refusal2 === null) return false;
  answer.notices.push({ message: refusal2, level: "warning" });
  return true;
}
function startMark(effect, ports) {
  if (!effect.claim || !ports.ledger.startMark) return void 0;
  try {
    return ports.ledger.startMark(effect.claim);
  } catch (error) {
    ports.problem("ledger", error);
    return void 0;
  }
}
function claim(effect, ports) {
  try {
    return ports.ledger.claim(effect.claim);
  } catch (error) {
    ports.problem("ledger", error);
    return true;
  }
}

// src/core/run/daily-command.ts
var nothing = () => {
};
function hasDailyBudgets(daily) {
  return daily !== void 0 && (daily.budgets.length > 0 || daily.ledger.team !== void 0);
}
function today(daily, words, terms) {
  const none = noDailyBudgetMessage(terms);
  if (!hasDailyBudgets(daily)) return { message: none, level: "info", effects: [] };
  const standings = daily.ledger.standings(daily.budgets);
  if (standings.length === 0) {
    const team2 = daily.ledger.team;
    const message = team2 !== void 0 && !("unusable" in team2) ? `${none} ${noTeamLimitsHere(team2)}` : none;
    return { message, level: "info", effects: [] };
  }
  return todayCommand(standings, words);
}
function team(daily, words) {
  if (daily === void 0) return { message: NO_TEAM, level: "info", effects: [] };
  const { ledger, budgets } = daily;
  return teamCommand(ledger.team, words, {
    view: () => ledger.teamView?.() ?? { unreadable: NO_TEAM },
    standings: () => ledger.standings(budgets)
  });
}
function dailyCommandAnswer(command2, ports, terms = DEFAULT_TERMS) {
  const answer = noAnswer();
  try {
    const reply = command2.kind === "today" ? today(ports.daily, command2.words, terms) : team(ports.daily, command2.words);
    carryOut(reply.effects, ports, answer, nothing);
    if (reply.message !== null) answer.notices.push({ message: reply.message, level: reply.level });
  } catch (error) {
    ports.problem(`/timebox ${command2.kind}`, error);
  }
  for (const notice of answer.notices) notice.message = inHostTerms(notice.message, terms);
  return answer;
}

// src/core/session/caps.ts
var PER_MILLION = 1e6;
function capsInForce(session) {
  const spends = (limits) => limits?.tokenLimit !== void 0 || limits?.costLimit !== void 0;
  if (spends(session.standing?.budget)) return true;
  const set = Object.values(session.subagents.budgets?.byType ?? {});
  return set.some((entry) => spends(entry.budget)) || Object.values(session.subagents.runs).some((run) => spends(run.budget));
}
function inputBound(request) {
  return safeAmount(request.answeredInput ?? 0) + safeAmount(request.addedBytes) + NOTE_ALLOWANCE_BYTES;
}
function roomLeft(limits, spend, request) {
  const bound = inputBound(request);
  let room = null;
  if (limits.tokenLimit !== void 0) {
    room = { tokens: Math.floor(limits.tokenLimit - safeAmount(spend.tokens) - bound), limit: "tokens" };
  }
  const prices = request.prices;
  if (limits.costLimit === void 0 || prices === void 0) return room;
  const inputPrice = Math.max(safeAmount(prices.input), safeAmount(prices.cacheRead), safeAmount(prices.cacheWrite));
  const outputPrice = safeAmount(prices.output);
  if (inputPrice === 0 && outputPrice === 0) return room;
  const left = limits.costLimit - safeAmount(spend.cost) - bound * inputPrice / PER_MILLION;
  const tokens = left < 0 ? -1 : outputPrice === 0 ? Number.MAX_SAFE_INTEGER : Math.floor(left * PER_MILLION / outputPrice - 1e-6);
  return room === null || tokens < room.tokens ? { tokens, limit: "cost" } : room;
}
var MAIN_AGENT = "";
function spendBeside(holding, agent) {
  let { tokens, cost } = holding.spend;
  for (const [key, most] of Object.entries(holding.inFlight ?? {})) {
    if (key === agent) continue;
    tokens += most.tokens;
    cost += most.cost;
  }
  return { tokens, cost };
}
function mostUsed(request, cap) {
  const bound = inputBound(request);
  const prices = request.prices;
  const cost = prices ? (bound * Math.max(prices.input, prices.cacheRead, prices.cacheWrite) + cap * prices.output) / PER_MILLION : 0;
  return { tokens: bound + cap, cost };
}
function withInFlight(holding, agent, most) {
  const { [agent]: _answered, ...others } = holding.inFlight ?? {};
  return { ...holding, inFlight: most === null ? others : { ...others, [agent]: most } };
}
function tooLittleRoom(room) {
  return room !== null && room.tokens < MIN_ANSWER_TOKENS;
}
function withRoom(decision, budget, holding, request, stopHere, agent = MAIN_AGENT) {
  if (decision.kind === "stop" || request === void 0) return decision;
  const room = roomLeft(budget, spendBeside(holding, agent), request);
  return tooLittleRoom(room) ? stopHere(room.limit) : decision;
}
function capEffect(room) {
  return room === null ? [] : [{ kind: "capOutput", maxTokens: Math.max(room, MIN_ANSWER_TOKENS) }];
}
function callGoes(effects) {
  return !effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort" || effect.kind === "ask");
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
function pluralCalls(count2) {
  return `${count2} model ${count2 === 1 ? "call" : "calls"}`;
}
function subagentName(task, agentType) {
  return `subagent ${quoteInput(task)} (${agentType})`;
}
function subagentStoppedMessage(name, limit2, budget, steps, parent) {
  const to = parent === null ? "the main agent" : "the agent that started it";
  return `Timebox: ${name} stopped ${subagentStopCause(limit2, budget)} after ${pluralCalls(steps)}; its answer went back to ${to}.`;
}
function subagentWarningMessage(name, left) {
  return `Timebox: ${name} used 80% of its budget (${left} left); it is asked to wrap up.`;
}
function subagentParentLine(limit2, budget, used) {
  const at = limit2 === "session" ? "when the session's budget ran out" : limit2 === "parent" ? "when the agent that started it was stopped" : `at ${subagentLimitPhrase(limit2, budget)}`;
  return `Timebox: this subagent stopped ${at} (used ${used}); its answer may be partial.`;
}
function subagentBudgetBlock(budget) {
  return [
    "TIMEBOX: YOUR BUDGET FOR THIS TASK",
    `You are a subagent with ${budget} for this task.`,
    "When it runs low, wrap up: answer with your findings and what is left undone. At the limit your tools are refused."
  ].join("\n");
}
function subagentWarningBlock(critical, left) {
  return [
    `${critical ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`,
    `Your budget for this task is nearly spent: ${left} left.`,
    "Wrap up now: answer with your findings and what is left undone. Do not start new work."
  ].join("\n");
}
var SUBAGENT_WRAP_UP_BLOCK = [
  "TIMEBOX: TASK BUDGET SPENT",
  "Your budget for this task is spent. Write your final answer now: what you found, and what is left undone.",
  "Call no more tools: they are refused, and you are stopped if you ask for one again."
].join("\n");
var SUBAGENT_WRAP_UP_REFUSAL = "Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.";
var SUBAGENT_STOPPED_REFUSAL = "Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.";
var SUBAGENT_REFUSED = "Timebox: the session's budget is spent, so no subagent can start. Write the final answer now, with what was done and what is left.";
var NO_SUBAGENT_BUDGET = "Timebox: no subagent budget. Set one with /timebox subagents 5m steps:30.";
function subagentBudgetMessage(described, source) {
  return `Timebox: subagent budget (${source}): ${described.join("; ")}.`;
}
function subagentBudgetSetMessage(described) {
  return `Timebox: every subagent started from now on gets ${described}, as well as the session's budget.`;
}
var SUBAGENT_BUDGET_OFF = "Timebox: subagent budget off. Subagents still count against the session's budget.";

// src/core/text/report-page.ts
var NO_REPORT_PAGE = "Timebox: the report page cannot be written from here. From a checkout of Timebox: npm run report -- --session <id>.";
function fileLink(path) {
  const absolute = path.startsWith("/") ? path : `/${path}`;
  return `file://${encodeURI(absolute).replace(/[?#]/g, (c) => encodeURIComponent(c))}`;
}
function reportPageWritten(path) {
  return `Timebox report page: ${fileLink(path)}`;
}
function reportPageReply(outcome) {
  if (outcome === void 0) return { message: NO_REPORT_PAGE, level: "info" };
  if ("problem" in outcome) {
    return { message: `Timebox: the report page could not be written (${outcome.problem}).`, level: "warning" };
  }
  return { message: reportPageWritten(outcome.path), level: "info" };
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
  const hosts = [...byHost].map(([host, count2]) => ({ host, sessions: count2 })).sort((a, b) => b.sessions - a.sessions);
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
function lastSessions(count2) {
  return count2 === 1 ? "your last session here" : `your last ${count2} sessions here`;
}
function sessionsCount(count2) {
  if (count2 === 0) return "no session";
  return count2 === 1 ? "1 session" : `${count2} sessions`;
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
var NO_SUGGESTION = "Timebox: past sessions cannot be read from here. From a checkout of Timebox: npm run report -- --suggest.";
function suggestionUnreadable(problem) {
  return `Timebox: your past sessions could not be read (${problem}).`;
}
function suggestReply(outcome) {
  if (outcome === void 0) return { message: NO_SUGGESTION, level: "info" };
  if ("problem" in outcome) return { message: suggestionUnreadable(outcome.problem), level: "warning" };
  return { message: suggestionText(outcome.suggestion), level: "info" };
}
function isSuggestedDefault(text) {
  return text.trim().toLowerCase() === SUGGESTED_DEFAULT;
}
function suggestedDefault(source, suggestion) {
  if (suggestion.words === null) {
    return {
      text: SUGGESTED_DEFAULT,
      source: `${source} (${SUGGESTED_DEFAULT})`,
      unavailable: tooLittleHistory(suggestion.sessions)
    };
  }
  return {
    text: suggestion.words,
    source: `${source} (${SUGGESTED_DEFAULT}: the ${SUGGEST_PERCENTILE}th percentile of ${lastSessions(suggestion.sessions)})`
  };
}
function unreadableDefault(source, problem) {
  return {
    text: SUGGESTED_DEFAULT,
    source: `${source} (${SUGGESTED_DEFAULT})`,
    unavailable: `your past sessions could not be read (${problem}).`
  };
}

// src/core/grammar/command-plan.ts
function planCommand(command2, view) {
  switch (command2.kind) {
    case "invalid":
      return { change: "none", reply: { message: invalidMessage(command2.reason), level: "warning" } };
    case "status":
      return { change: "none", reply: { message: statusMessage(view), level: "info" } };
    case "off":
      if (!view.budget) return { change: "none", reply: { message: NO_ACTIVE_TIMEBOX, level: "info" } };
      return {
        change: "off",
        budgetId: budgetIdOf(view.budget),
        disabledAt: view.now,
        write: view.spent === null,
        reply: { message: TIMEBOX_OFF, level: "info" }
      };
    case "set": {
      const terms = {
        id: view.newBudgetId,
        timeLimitMs: command2.timeLimitMs,
        turnLimit: command2.turnLimit,
        startTime: view.now,
        onStopCommand: command2.onStopCommand,
        ...spendLimits(command2),
        ...treatment(command2)
      };
      const budget = freshBudget(terms, view.turns ?? 0);
      const replacedActive = view.budget !== null && view.spent === null;
      const costNote = command2.costLimit === void 0 ? [] : costNotes(view.cost ?? "reported");
      const tokensNote = command2.tokenLimit !== void 0 && view.tokensSeen === false ? [TOKENS_NOT_SEEN] : [];
      const notes = [...command2.notes ?? [], ...costNote, ...tokensNote];
      const message = budgetSetMessage(command2, replacedActive, notes);
      return { change: "set", budget, reply: { message, level: "info" } };
    }
    case "extend":
      return planExtension(command2, view);
    case "pause":
      return planPause(view);
    case "resume":
      return planResume(view);
    case "report":
      return { change: "none", reply: { message: view.report ?? NO_REPORT, level: "info" } };
    case "reportPage":
      return { change: "none", reply: { message: NO_REPORT_PAGE, level: "info" } };
    case "suggest":
      return { change: "none", reply: { message: NO_SUGGESTION, level: "info" } };
    case "today":
      return { change: "none", reply: { message: NO_DAILY_BUDGET, level: "info" } };
    case "team":
      return { change: "none", reply: { message: NO_TEAM, level: "info" } };
    case "subagents":
      return { change: "none", reply: { message: NO_SUBAGENT_BUDGET, level: "info" } };
  }
}
function costNotes(cost) {
  switch (cost) {
    case "reported":
      return [];
    case "model reports none":
      return [COST_NOT_REPORTED];
    case "host cannot see":
      return [COST_NOT_SEEN];
  }
}
function spendLimits(limits) {
  return {
    ...limits.tokenLimit === void 0 ? {} : { tokenLimit: limits.tokenLimit },
    ...limits.costLimit === void 0 ? {} : { costLimit: limits.costLimit },
    ...limits.stepLimit === void 0 ? {} : { stepLimit: limits.stepLimit },
    ...limits.loopLimit === void 0 ? {} : { loopLimit: limits.loopLimit }
  };
}
var info = (message) => ({ message, level: "info" });
function treatment(limits) {
  return {
    ...limits.awareness === void 0 ? {} : { awareness: limits.awareness },
    ...limits.graceMs === void 0 ? {} : { graceMs: limits.graceMs }
  };
}
function planExtension(command2, view) {
  const budget = view.budget;
  if (!budget) return { change: "none", reply: info(NOTHING_TO_EXTEND) };
  const timeLimitMs = command2.addTimeMs === null ? budget.timeLimitMs : (budget.timeLimitMs ?? elapsedMs(budget, view.now)) + command2.addTimeMs;
  const turnLimit = command2.addTurns === null ? budget.turnLimit : (budget.turnLimit ?? view.usedTurns) + command2.addTurns;
  const spend = view.spend;
  const tokenLimit = command2.addTokens === void 0 ? budget.tokenLimit : (budget.tokenLimit ?? spend.tokens) + command2.addTokens;
  const costLimit = command2.addCost === void 0 ? budget.costLimit : (budget.costLimit ?? spend.cost) + command2.addCost;
  if ((timeLimitMs ?? 0) > MAX_TIME_LIMIT_MS || (turnLimit ?? 0) > MAX_TURN_LIMIT || (tokenLimit ?? 0) > MAX_TOKEN_LIMIT || (costLimit ?? 0) > MAX_COST_LIMIT) {
    return { change: "none", reply: { message: EXTENSION_TOO_LARGE, level: "warning" } };
  }
  const added = describeBudget({
    timeLimitMs: command2.addTimeMs,
    turnLimit: command2.addTurns,
    ...command2.addTokens === void 0 ? {} : { tokenLimit: command2.addTokens },
    ...command2.addCost === void 0 ? {} : { costLimit: command2.addCost },
    onStopCommand: null
  });
  const extended = {
    ...budget,
    timeLimitMs,
    turnLimit,
    ...tokenLimit === void 0 ? {} : { tokenLimit },
    ...costLimit === void 0 ? {} : { costLimit },
    extensions: (budget.extensions ?? 0) + 1
  };
  const status2 = formatStatus(extended, view.now, view.usedTurns, spend);
  return {
    change: "update",
    budget: extended,
    reactivate: view.spent !== null,
    reply: info(extendedMessage(added, status2, command2.notes))
  };
}
function planPause(view) {
  const budget = view.budget;
  if (!budget) return { change: "none", reply: info(NO_ACTIVE_TIMEBOX) };
  if (view.spent) return { change: "none", reply: info(SPENT_CANNOT_PAUSE) };
  if (budget.pausedAt !== void 0) return { change: "none", reply: info(ALREADY_PAUSED) };
  const paused = { ...budget, pausedAt: view.now };
  const status2 = formatStatus(paused, view.now, view.usedTurns, view.spend);
  return { change: "update", budget: paused, reactivate: false, reply: info(pausedMessage(status2)) };
}
function planResume(view) {
  const budget = view.budget;
  if (!budget) return { change: "none", reply: info(NO_ACTIVE_TIMEBOX) };
  if (budget.pausedAt === void 0) return { change: "none", reply: info(NOT_PAUSED) };
  const { pausedAt, ...running } = budget;
  const pausedMs = (budget.pausedMs ?? 0) + Math.max(0, view.now - pausedAt);
  const resumed = pausedMs > 0 ? { ...running, pausedMs } : running;
  const status2 = formatStatus(resumed, view.now, view.usedTurns, view.spend);
  return { change: "update", budget: resumed, reactivate: false, reply: info(resumedMessage(status2)) };
}
function statusMessage(view) {
  const subagents = view.subagents ?? [];
  const session = sessionStatusMessage(view);
  return subagents.length === 0 ? session : [session, ...subagents].join("\n");
}
function sessionStatusMessage(view) {
  if (!view.budget) return noBudgetStatusMessage();
  if (view.spent)
    return spentStatusMessage(view.spent.usedTurns, view.spent.elapsedMs, spentUsage(view.spent, view.budget));
  return activeStatusMessage(
    formatStatus(view.budget, view.now, view.usedTurns, view.spend),
    view.budget.onStopCommand
  );
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

// src/core/subagents/commands.ts
var COMMAND_SOURCE = "/timebox subagents";
function subagentsCommand2(agents, command2, now) {
  switch (command2.action) {
    case "show":
      return { agents, effects: [notify(showBudget(agents), "info")] };
    case "off":
      return {
        agents: { ...agents, budgets: null },
        effects: [budgetsRecord(null, now), notify(SUBAGENT_BUDGET_OFF, "info")]
      };
    case "set": {
      const byType = { [ANY_AGENT_TYPE]: { words: command2.words, budget: command2.budget } };
      return {
        agents: { ...agents, budgets: { byType, source: COMMAND_SOURCE } },
        effects: [
          budgetsRecord({ [ANY_AGENT_TYPE]: command2.words }, now),
          notify(subagentBudgetSetMessage(describeTaskBudget(command2.budget)), "info")
        ]
      };
    }
  }
}
function readTaskBudgets(value) {
  const entries = typeof value === "string" ? [[ANY_AGENT_TYPE, value]] : typeof value === "object" && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
  if (entries.length === 0) {
    return { invalid: 'is not a subagent budget (such as "5m steps:30", or { "*": "5m", "Explore": "2m" })' };
  }
  const budgets = {};
  for (const [agentType, words] of entries) {
    const budget = typeof words === "string" ? parseTaskBudget(words) : { invalid: "it is not text" };
    if ("invalid" in budget) {
      return { invalid: `has a bad budget for ${quoteInput(agentType)} (${budget.invalid.replace(/\.$/, "")})` };
    }
    budgets[agentType] = { words: String(words), budget };
  }
  return { budgets };
}
function subagentsSetting(agents, setting, effects) {
  const read = readTaskBudgets(setting.value);
  if ("invalid" in read) {
    effects.push(notify(badSettingMessage(setting.source, setting.value, read.invalid), "warning"));
    return agents;
  }
  return { ...agents, budgets: { byType: read.budgets, source: setting.source } };
}
function showBudget(agents) {
  const budgets = agents.budgets;
  if (budgets === null) return NO_SUBAGENT_BUDGET;
  const described = Object.entries(budgets.byType).map(([agentType, { budget }]) => {
    const who = agentType === ANY_AGENT_TYPE ? "every subagent" : `${agentType} subagents`;
    return `${who}: ${describeTaskBudget(budget)}`;
  });
  return subagentBudgetMessage(described, budgets.source);
}
function budgetsRecord(budgets, at) {
  return { kind: "append", record: { kind: "subagents", version: RECORD_VERSION, budgets, at } };
}
function notify(message, level) {
  return { kind: "notify", message, level };
}

// src/core/subagents/state.ts
var NO_SUBAGENTS = { budgets: null, runs: {} };
function budgetFor(agents, agentType) {
  return setBudgetFor(agents, agentType)?.budget ?? null;
}
function setBudgetFor(agents, agentType) {
  const byType = agents.budgets?.byType;
  if (byType === void 0) return null;
  return (Object.hasOwn(byType, agentType) ? byType[agentType] : byType[ANY_AGENT_TYPE]) ?? null;
}
function firstWords(task) {
  const words = task.trim().split(/\s+/);
  const shown = words.slice(0, SUBAGENT_TASK_WORDS).join(" ");
  return words.length > SUBAGENT_TASK_WORDS ? `${shown}\u2026` : shown;
}
function withRun(agents, run) {
  return { ...agents, runs: { ...agents.runs, [run.id]: run } };
}
function runRecord(run) {
  return { kind: "append", record: { kind: "subagent", version: RECORD_VERSION, agent: run } };
}
function isRunning(run) {
  return run.ended === null;
}
function reachedLimit(run, now, steps = true) {
  const budget = run.budget;
  if (budget === null) return null;
  if (budget.timeLimitMs !== null && now - run.startedAt >= budget.timeLimitMs) return "time";
  if (steps && budget.stepLimit !== void 0 && run.steps >= budget.stepLimit) return "steps";
  if (budget.tokenLimit !== void 0 && run.spend.tokens >= budget.tokenLimit) return "tokens";
  if (budget.costLimit !== void 0 && run.spend.cost >= budget.costLimit) return "cost";
  return null;
}
function usedRatio(run, now) {
  const budget = run.budget;
  if (budget === null) return 0;
  let ratio = 0;
  if (budget.timeLimitMs !== null) ratio = Math.max(ratio, (now - run.startedAt) / budget.timeLimitMs);
  if (budget.stepLimit !== void 0) ratio = Math.max(ratio, run.steps / budget.stepLimit);
  if (budget.tokenLimit !== void 0) ratio = Math.max(ratio, run.spend.tokens / budget.tokenLimit);
  if (budget.costLimit !== void 0) ratio = Math.max(ratio, run.spend.cost / budget.costLimit);
  return ratio;
}
function leftText(run, now) {
  const budget = run.budget;
  if (budget === null) return "no budget";
  const left = [];
  if (budget.timeLimitMs !== null) left.push(formatTime(budget.timeLimitMs - (now - run.startedAt)));
  if (budget.stepLimit !== void 0) left.push(pluralCalls(Math.max(0, budget.stepLimit - run.steps)));
  if (budget.tokenLimit !== void 0) left.push(`${formatTokens(budget.tokenLimit - run.spend.tokens)} tokens`);
  if (budget.costLimit !== void 0) left.push(formatCost(Math.max(0, budget.costLimit - run.spend.cost)));
  return left.join(" and ");
}
function usedText(run, now) {
  const until = run.endedAt ?? now;
  const spend = run.spend;
  const used = [formatTime(until - run.startedAt), pluralCalls(run.steps)];
  if (spend.tokens > 0) used.push(`${formatTokens(spend.tokens)} tokens`);
  if (spend.cost > 0) used.push(formatCost(spend.cost));
  return used.join(", ");
}
function nextSubagentCheckIn(agents, now) {
  let due = Number.POSITIVE_INFINITY;
  for (const run of Object.values(agents.runs)) {
    if (!isRunning(run)) continue;
    const limitMs = run.budget?.timeLimitMs ?? null;
    if (run.wrapUp !== null) due = Math.min(due, run.wrapUp.until);
    else if (limitMs !== null && run.spent === null) {
      due = Math.min(due, run.startedAt + (run.warned ? limitMs : NUDGE_WARNING_RATIO * limitMs));
    }
  }
  return due === Number.POSITIVE_INFINITY ? null : Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(due - now)));
}
function hasSubagentTimers(agents) {
  for (const run of Object.values(agents.runs)) {
    if (isRunning(run) && (run.wrapUp !== null || run.spent === null && run.budget?.timeLimitMs != null)) return true;
  }
  return false;
}

// src/core/subagents/status.ts
function subagentStatusLines(agents, now) {
  const running = Object.values(agents.runs).filter(isRunning);
  if (running.length === 0) return [];
  return [`Subagents running: ${running.length}.`, ...running.map((run) => `- ${nameOf(run)}: ${standing(run, now)}`)];
}
function subagentReportLines(runs, now) {
  if (runs.length === 0) return [];
  const count2 = runs.length === 1 ? "1 subagent" : `${runs.length} subagents`;
  return [`${count2} in this session:`, ...runs.map((run) => `- ${subagentReportLine(run, now)}`)];
}
function subagentReportLine(run, now) {
  const budget = run.budget === null ? "no budget of its own" : `budget ${describeTaskBudget(run.budget)}`;
  return `${nameOf(run)}: ${budget}; used ${usedText(run, now)}. ${ending(run)}`;
}
function nameOf(run) {
  return `${quoteInput(run.task)} (${run.agentType})`;
}
function standing(run, now) {
  if (run.spent !== null) return `concluding ${subagentStopCause(run.spent.limit, run.budget)}`;
  if (run.budget === null) return `no budget of its own; used ${usedText(run, now)}`;
  return `${leftText(run, now)} left`;
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

// src/core/text/questions.ts
function replaceQuestion(left) {
  return `Replace the active budget (${left})?`;
}
var REPLACE_CHOICE = "Replace it";
var KEEP_CHOICE = "Keep it";
var KEPT_MESSAGE = "Nothing changed: the active budget stays.";
function limitQuestion(usedTurns, elapsedMs2) {
  return `Timebox budget spent (used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs2)}). Stop now, or go on with more?`;
}
var STOP_CHOICE = "Stop now";
var MORE_TIME_CHOICE = "+5 minutes";
var MORE_TURNS_CHOICE = "+1 prompt";
function stepsQuestion(limit2) {
  return `This prompt used its ${limit2} steps. Stop now, or continue with ${limit2} more?`;
}
function moreStepsChoice(limit2) {
  return `Continue with ${limit2} more steps`;
}
var QUESTION_CLOSED = "Timebox: the budget ran out while the question was open, so it was closed and nothing changed. Type the command again to set a new budget.";

// src/core/session/outcomes.ts
function outcomeId(budget) {
  const id = budgetIdOf(budget);
  return budget.extensions ? `${id}.e${budget.extensions}` : id;
}
function readLedger(ledger, budget) {
  const outcomes = ledger.read(outcomeId(budget));
  return budget.extensions ? { ...outcomes, off: ledger.read(budgetIdOf(budget)).off } : outcomes;
}
function once(claim2, then) {
  return { kind: "once", claim: claim2, then };
}
function claimWithOnStop(claim2, command2, then) {
  if (command2 === null) return once(claim2, then);
  const start = { kind: "startOnStop", command: command2, claim: { budgetId: claim2.budgetId, kind: claim2.kind } };
  return once({ ...claim2, onStopCommand: command2 }, [...then, start]);
}

// src/core/session/budget-record.ts
function recordBudget(budget, turnsBefore, spendBefore) {
  const append = {
    kind: "append",
    record: { kind: "active", budget: budgetRecord(budget, turnsBefore, spendBefore) }
  };
  if (budget.timeLimitMs === null || budget.pausedAt !== void 0) return [append];
  return [append, { kind: "watchBudget", budgetId: outcomeId(budget) }];
}

// src/core/session/state.ts
var EMPTY_SESSION = {
  standing: null,
  lastPrompt: null,
  running: false,
  askAtLimit: false,
  asking: false,
  settings: {},
  subagents: NO_SUBAGENTS
};
function freshStanding(budget) {
  return {
    budget,
    usedTurns: 0,
    runningCounted: false,
    spend: NO_SPEND,
    steps: null,
    stepAllowance: 0,
    spent: null,
    stoppedPrompt: null,
    onStopOutcome: null,
    wrapUp: null
  };
}
var TIME_CHECKPOINTS = [NUDGE_WARNING_RATIO, NUDGE_CRITICAL_RATIO, 1];
function promptKeyOf(state, prompt) {
  return prompt ?? state.lastPrompt ?? UNNAMED_RUN;
}
function isNewPrompt(state, prompt) {
  return promptKeyOf(state, prompt) !== state.lastPrompt;
}
function counting(state) {
  const standing2 = state.standing;
  if (!standing2 || standing2.spent || standing2.budget.pausedAt !== void 0) return null;
  return standing2;
}
function budgetOf(state) {
  return state.standing?.budget ?? null;
}
function shownTurns(state) {
  const standing2 = state.standing;
  if (!standing2) return 0;
  return standing2.usedTurns - (state.running && standing2.runningCounted ? 1 : 0);
}
function statusText(state, now) {
  const standing2 = state.standing;
  if (!standing2) return void 0;
  if (standing2.wrapUp) return WRAPPING_UP_STATUS;
  if (standing2.spent) {
    const outcome = standing2.onStopOutcome;
    return outcome ? `${SPENT_STATUS} | on-stop command ${outcome}` : SPENT_STATUS;
  }
  return formatStatus(standing2.budget, now, shownTurns(state), standing2.spend, stepsOf(state));
}
function stepsOf(state) {
  const standing2 = state.standing;
  const limit2 = standing2?.budget.stepLimit;
  if (!standing2 || limit2 === void 0 || !state.running || standing2.steps === null) return null;
  return { used: standing2.steps, allowed: limit2 + standing2.stepAllowance };
}
function isActive(state) {
  const standing2 = state.standing;
  return standing2 !== null && (standing2.spent === null || standing2.wrapUp !== null);
}
function nextTimeCheckIn(state, now) {
  const wrapUp = state.standing?.wrapUp;
  if (wrapUp) return timerDelay(wrapUp.until - now);
  const budget = counting(state)?.budget;
  if (!budget || budget.timeLimitMs === null) return null;
  const limitMs = budget.timeLimitMs;
  const elapsed = elapsedMs(budget, now);
  let next = limitMs;
  for (const ratio of TIME_CHECKPOINTS) {
    const point = ratio * limitMs;
    if (point > elapsed) {
      next = Math.min(point, limitMs);
      break;
    }
  }
  return timerDelay(next - elapsed);
}
function timerDelay(ms) {
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(ms)));
}
function status(state, now) {
  return { kind: "status", text: statusText(state, now) };
}
function withNewBudget(state, budget) {
  return { ...state, standing: budget ? freshStanding(budget) : null };
}
function spentStanding(standing2, summary, prompt) {
  return { ...standing2, budget: { ...standing2.budget, active: false }, spent: summary, stoppedPrompt: prompt };
}
function nudgedBudget(standing2) {
  return { ...standing2.budget, softNudgeSent: true };
}
function withStanding(state, standing2, change) {
  return { ...state, standing: { ...standing2, ...change } };
}
function spendOf(state) {
  return state.standing?.spend ?? NO_SPEND;
}
function awarenessOf(state, budget) {
  return budget.awareness ?? state.settings.awareness ?? "nudge";
}
function graceOf(state, budget) {
  return budget.graceMs ?? state.settings.graceMs ?? 0;
}

// src/core/session/commands.ts
function command(state, event, now) {
  const parsed = parseCommand(event.args);
  if (parsed.kind === "subagents") {
    const result = subagentsCommand2(state.subagents, parsed, now);
    return { state: { ...state, subagents: result.agents }, effects: result.effects };
  }
  const plan = planCommand(parsed, {
    ...event.turns === void 0 ? {} : { turns: event.turns },
    budget: budgetOf(state),
    spent: state.standing?.spent ?? null,
    usedTurns: shownTurns(state),
    now,
    newBudgetId: event.newBudgetId,
    spend: spendOf(state),
    ...event.cost === void 0 ? {} : { cost: event.cost },
    ...event.tokensSeen === void 0 ? {} : { tokensSeen: event.tokensSeen },
    ...event.report === void 0 ? {} : { report: event.report },
    ...parsed.kind === "status" ? { subagents: subagentStatusLines(state.subagents, now) } : {}
  });
  const ignored = (parsed.kind === "off" || parsed.kind === "status") && parsed.ignored !== void 0 ? ignoredWordsNote(parsed.kind, parsed.ignored) : null;
  const message = ignored === null ? plan.reply.message : `${plan.reply.message}
${ignored}`;
  const reply = { kind: "notify", message, level: plan.reply.level };
  switch (plan.change) {
    case "none":
      return { state, effects: [status(state, now), reply] };
    case "set": {
      const active = state.standing;
      if (active && !active.spent && event.canAsk && !event.confirmed) {
        return askToReplace(state, active.budget, event, now);
      }
      const next = withNewBudget(state, plan.budget);
      return {
        state: next,
        effects: [...recordBudget(plan.budget), status(next, now), reply]
      };
    }
    case "update": {
      const standing2 = { ...freshStanding(plan.budget), ...state.standing };
      const next = withStanding(
        state,
        standing2,
        plan.reactivate ? {
          budget: { ...plan.budget, softNudgeSent: false, active: true },
          spent: null,
          stoppedPrompt: null,
          wrapUp: null
        } : {
          budget: {
            ...plan.budget,
            softNudgeSent: plan.budget.extensions === standing2.budget.extensions && standing2.budget.softNudgeSent
          }
        }
      );
      return {
        state: next,
        effects: [...recordBudget(plan.budget, standing2.usedTurns, standing2.spend), status(next, now), reply]
      };
    }
    case "off": {
      const next = withNewBudget(state, null);
      if (!plan.write) return { state: next, effects: [status(next, now), reply] };
      return {
        state: next,
        effects: [
          { kind: "append", record: offRecord(plan.budgetId, plan.disabledAt) },
          // Off everywhere: a fork or clone of a branch without this record must not bring the budget back.
          once({ kind: "off", budgetId: plan.budgetId }, []),
          status(next, now),
          reply
        ]
      };
    }
  }
}
function askToReplace(state, budget, event, now) {
  const keep = { type: "declined", message: KEPT_MESSAGE };
  return {
    state,
    effects: [
      {
        kind: "ask",
        question: replaceQuestion(formatLeft(budget, now, shownTurns(state), spendOf(state))),
        choices: [
          { label: REPLACE_CHOICE, answer: { ...event, confirmed: true } },
          { label: KEEP_CHOICE, answer: keep }
        ],
        timeoutMs: REPLACE_QUESTION_TIMEOUT_MS,
        onTimeout: keep
      }
    ]
  };
}

// src/core/text/model-notes.ts
function formatNudgePrompt(budget, now, usedTurns, urgency, graceMs = 0, spend = NO_SPEND, steps = null) {
  const lines = [`${urgency === "critical" ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`];
  lines.push("The user gave this session a budget and it is nearly spent.");
  if (budget.timeLimitMs !== null) {
    lines.push(
      `Time left: ${formatTimeLeft(budget, budget.timeLimitMs, now)} of ${formatBudgetLabel(budget.timeLimitMs)}.`
    );
  }
  if (budget.turnLimit !== null) {
    const used = safeTurns(usedTurns);
    const left = Math.max(0, budget.turnLimit - used);
    lines.push(
      left <= 1 ? `Turns: this is the last prompt the budget allows (${used} of ${budget.turnLimit} used).` : `Turns left: ${left} prompts, this one included (${used} of ${budget.turnLimit} used).`
    );
  }
  if (budget.tokenLimit !== void 0) {
    const left = Math.max(0, budget.tokenLimit - safeAmount(spend.tokens));
    lines.push(`Tokens left: ${formatTokens(left)} of ${formatTokens(budget.tokenLimit)}.`);
  }
  if (budget.costLimit !== void 0) {
    const left = Math.max(0, budget.costLimit - safeAmount(spend.cost));
    lines.push(`Cost left: ${formatCost(left)} of ${formatCost(budget.costLimit)}.`);
  }
  if (steps) {
    lines.push(`Steps: this is model call ${steps.used} of the ${steps.allowed} this prompt may make.`);
  }
  lines.push(
    "Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.",
    graceMs > 0 ? `When the budget runs out, your tool calls are refused and you have ${formatBudgetLabel(graceMs)} to write the final answer.` : "When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished."
  );
  return lines.join("\n");
}
function formatAwareLine(budget, now, usedTurns, spend = NO_SPEND) {
  const left = [];
  const of = [];
  if (budget.timeLimitMs !== null) {
    left.push(formatTimeLeft(budget, budget.timeLimitMs, now));
    of.push(formatBudgetLabel(budget.timeLimitMs));
  }
  if (budget.turnLimit !== null) {
    left.push(pluralPrompts(Math.max(0, budget.turnLimit - safeTurns(usedTurns))));
    of.push(pluralPrompts(budget.turnLimit));
  }
  if (budget.tokenLimit !== void 0) {
    left.push(`${formatTokens(Math.max(0, budget.tokenLimit - safeAmount(spend.tokens)))} tokens`);
    of.push(`${formatTokens(budget.tokenLimit)} tokens`);
  }
  if (budget.costLimit !== void 0) {
    left.push(formatCost(Math.max(0, budget.costLimit - safeAmount(spend.cost))));
    of.push(formatCost(budget.costLimit));
  }
  return `Timebox: ${left.join(" and ")} left of ${of.join(" / ")}.`;
}
function formatStepsWrapUp(limit2) {
  return [
    "TIMEBOX: STEPS SPENT",
    `This prompt has made the ${limit2} model calls the user allows per prompt. Write your final answer now: what was done, and what is left to do.`,
    "Call no tools: they are refused, and the run ends if you ask for one."
  ].join("\n");
}
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

// src/core/session/context.ts
function withCallContext(result, now) {
  const { state, effects } = result;
  if (effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort" || effect.kind === "ask")) {
    return result;
  }
  const text = callContext(state, now);
  return text === null ? result : { state, effects: [...effects, { kind: "context", text }] };
}
function callContext(state, now) {
  if (state.standing?.wrapUp) return WRAP_UP_PROMPT;
  const standing2 = counting(state);
  if (!standing2) return null;
  const budget = standing2.budget;
  const steps = stepsOf(state);
  if (steps && budget.stepLimit !== void 0 && steps.used > steps.allowed) return formatStepsWrapUp(budget.stepLimit);
  const used = shownTurns(state);
  const spend = standing2.spend;
  const ratio = Math.max(worstRatio(budget, now, used, spend), steps ? steps.used / steps.allowed : 0);
  if (ratio >= NUDGE_WARNING_RATIO) {
    return formatNudgePrompt(budget, now, used, urgencyFor(ratio), graceOf(state, budget), spend, steps);
  }
  return awarenessOf(state, budget) === "always" ? formatAwareLine(budget, now, used, spend) : null;
}

// src/core/session/wrap-up.ts
function startWrapUp(state, standing2, summary, prompt, now, refuseTool2) {
  const budget = standing2.budget;
  const graceMs = graceOf(state, budget);
  const until = now + graceMs;
  const wrapUp = {
    prompt,
    until,
    refused: refuseTool2,
    callsSinceRefusal: 0,
    outcomeId: outcomeId(budget),
    onStopCommand: budget.onStopCommand
  };
  const next = { ...state, standing: { ...spentStanding(standing2, summary, prompt), wrapUp } };
  const message = wrapUpMessage(summary.usedTurns, summary.elapsedMs, graceMs, spentUsage(summary, budget));
  const effects = [
    status(next, now),
    once({ kind: "spent", budgetId: outcomeId(budget), summary: { ...summary, wrapUpUntil: until }, prompt }, [
      { kind: "notify", message, level: "error" }
    ])
  ];
  if (refuseTool2) effects.push({ kind: "refuse", reason: WRAP_UP_REFUSAL });
  return { state: next, effects };
}
function wrapUpModelCall(state, standing2, wrapUp, now) {
  if (now >= wrapUp.until) return endWrapUp(state, standing2, wrapUp, now, "time");
  const calls = wrapUp.refused ? wrapUp.callsSinceRefusal + 1 : 0;
  const next = withStanding(state, standing2, { wrapUp: { ...wrapUp, callsSinceRefusal: calls } });
  return { state: next, effects: [status(next, now)] };
}
function wrapUpToolCall(state, standing2, wrapUp, now) {
  if (now >= wrapUp.until) return endWrapUp(state, standing2, wrapUp, now, "time");
  if (wrapUp.refused && wrapUp.callsSinceRefusal > 0) return endWrapUp(state, standing2, wrapUp, now, "tools");
  const next = withStanding(state, standing2, { wrapUp: { ...wrapUp, refused: true } });
  return { state: next, effects: [status(next, now), { kind: "refuse", reason: WRAP_UP_REFUSAL }] };
}
function wrapUpTimeCheck(state, standing2, wrapUp, now) {
  if (now >= wrapUp.until) return endWrapUp(state, standing2, wrapUp, now, "time");
  return { state, effects: [status(state, now)] };
}
function endWrapUp(state, standing2, wrapUp, now, cut) {
  const next = withStanding(state, standing2, { wrapUp: null });
  const announce = [];
  if (cut !== null) announce.push({ kind: "notify", message: wrapUpCutMessage(cut), level: "warning" });
  const ended = claimWithOnStop({ kind: "ended", budgetId: wrapUp.outcomeId }, wrapUp.onStopCommand, announce);
  const effects = [status(next, now), ended];
  if (cut !== null) effects.push({ kind: "abort" }, { kind: "refuse", reason: WRAP_UP_REFUSAL });
  return { state: next, effects };
}

// src/core/session/limits.ts
function askAtTheLimit(state, reached, summary) {
  const answer = (choice) => ({
    type: "limitAnswer",
    answer: choice,
    reached
  });
  return {
    state: { ...state, asking: true },
    effects: [
      {
        kind: "ask",
        question: limitQuestion(summary.usedTurns, summary.elapsedMs),
        choices: [
          { label: STOP_CHOICE, answer: answer("stop") },
          { label: MORE_TIME_CHOICE, answer: answer("time") },
          { label: MORE_TURNS_CHOICE, answer: answer("prompts") }
        ],
        timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
        onTimeout: answer("stop")
      }
    ]
  };
}
function modelCall(state, prompt, now, isPrompt = true, request) {
  const key = promptKeyOf(state, prompt);
  const standing2 = state.standing;
  if (key === state.lastPrompt) {
    const next2 = { ...state, running: true };
    const wrapUp = standing2?.wrapUp;
    if (standing2 && wrapUp && key === wrapUp.prompt) return wrapUpModelCall(next2, standing2, wrapUp, now);
    if (key === standing2?.stoppedPrompt && standing2.spent)
      return { state: next2, effects: refuseStopped(standing2.spent) };
    return checkTime(next2, now, "modelCall", state.lastPrompt, request);
  }
  if (standing2?.wrapUp) {
    const ended = endWrapUp(state, standing2, standing2.wrapUp, now, null);
    const goOn = modelCall(ended.state, key, now, isPrompt, request);
    return { state: goOn.state, effects: [...ended.effects, ...goOn.effects] };
  }
  const fresh = {
    ...state,
    lastPrompt: key,
    running: true,
    standing: standing2 ? { ...standing2, runningCounted: false } : null
  };
  const active = counting(fresh);
  if (!active) return { state: fresh, effects: [status(fresh, now)] };
  if (!isPrompt) return checkTime(fresh, now, "modelCall", fresh.lastPrompt, request);
  const budget = active.budget;
  const decision = withRoom(
    decide(budget, now, active.usedTurns, active.spend),
    budget,
    active,
    request,
    (limit2) => stopWithoutRoom(budget, now, active.usedTurns, active.spend, limit2)
  );
  if (decision.kind === "stop") return hardStop(fresh, active, decision.summary, key, now, true);
  const counted = { usedTurns: active.usedTurns + 1, runningCounted: true };
  if (decision.kind === "nudge") {
    const nudged = withStanding(fresh, active, { ...counted, budget: nudgedBudget(active) });
    return { state: nudged, effects: [nudge(budget, decision.urgency, decision.detail), status(nudged, now)] };
  }
  const next = withStanding(fresh, active, counted);
  return { state: next, effects: [status(next, now)] };
}
function promptRefused(state, now) {
  const prompt = state.lastPrompt;
  if (prompt === null || !state.running) return { state, effects: [] };
  const drop = { kind: "dropPrompt", prompt };
  const standing2 = state.standing;
  const uncounted = standing2?.runningCounted === true ? { ...standing2, usedTurns: standing2.usedTurns - 1, runningCounted: false } : standing2;
  const next = { ...state, running: false, standing: uncounted };
  return { state: next, effects: [drop, status(next, now)] };
}
function keptUsage(response, now) {
  const used = response.costSeen === false ? { tokens: response.tokens } : { tokens: response.tokens, cost: response.cost };
  return { kind: "recordUsage", usage: { responseId: response.responseId, used, at: now } };
}
function modelResponse(state, used, now) {
  const active = counting(state);
  if (!active) return { state, effects: [] };
  const before = active.spend;
  const spend = { tokens: before.tokens + safeAmount(used.tokens), cost: before.cost + safeAmount(used.cost) };
  return checkTime(withStanding(state, active, { spend }), now, "modelResponse");
}
function toolCall(state, prompt, now) {
  const key = prompt ?? state.lastPrompt;
  const standing2 = state.standing;
  const steps = stepsOf(state);
  const limit2 = standing2?.budget.stepLimit;
  if (steps && limit2 !== void 0 && key === state.lastPrompt && steps.used > steps.allowed && !standing2?.spent) {
    return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit2) }] };
  }
  const wrapUp = standing2?.wrapUp;
  if (standing2 && wrapUp && key === wrapUp.prompt) return wrapUpToolCall(state, standing2, wrapUp, now);
  if (key !== null && key === standing2?.stoppedPrompt && standing2.spent) {
    return { state, effects: refuseStopped(standing2.spent) };
  }
  return checkTime(state, now, "toolCall", key);
}
function checkTime(state, now, reached, prompt = state.lastPrompt, request, agent) {
  const active = counting(state);
  if (!active) return { state, effects: [status(state, now)] };
  const budget = active.budget;
  const turns = shownTurns(state);
  const decision = withRoom(
    decideMidRun(budget, now, turns, active.spend),
    budget,
    active,
    request,
    (limit2) => stopWithoutRoom(budget, now, turns, active.spend, limit2),
    agent
  );
  switch (decision.kind) {
    case "stop":
      if (state.running && graceOf(state, budget) > 0) {
        return startWrapUp(state, active, decision.summary, prompt, now, reached === "toolCall");
      }
      return hardStop(state, active, decision.summary, prompt, now, reached === "toolCall" || reached === "modelCall");
    case "nudge": {
      const next = withStanding(state, active, { budget: nudgedBudget(active) });
      const warning = nudge(budget, decision.urgency, decision.detail, state.running);
      return { state: next, effects: [warning, status(next, now)] };
    }
    case "ok":
      return { state, effects: [status(state, now)] };
  }
}
function hardStop(state, standing2, summary, prompt, now, refuse) {
  const budget = standing2.budget;
  const next = { ...state, standing: spentStanding(standing2, summary, prompt) };
  const usage = spentUsage(summary, budget);
  const message = spentMessage(summary.usedTurns, summary.elapsedMs, usage);
  const said = state.running ? message : idleSpentMessage(summary.usedTurns, summary.elapsedMs, usage);
  const announce = [{ kind: "notify", message: said, level: "error" }];
  const claim2 = { kind: "spent", budgetId: outcomeId(budget), summary, prompt };
  const effects = [
    status(next, now),
    claimWithOnStop(claim2, budget.onStopCommand, announce),
    { kind: "abort" }
  ];
  if (refuse) effects.push({ kind: "refuse", reason: message });
  return { state: next, effects };
}
function onStopReported(state, event, now) {
  const standing2 = state.standing;
  const outcome = event.outcome.kind === "started" && standing2?.onStopOutcome !== "failed" ? "ran" : "failed";
  const next = standing2?.spent ? withStanding(state, standing2, { onStopOutcome: outcome }) : state;
  return { state: next, effects: [...onStopReport(event.command, event.outcome), status(next, now)] };
}
function refuseStopped(summary) {
  return [{ kind: "abort" }, { kind: "refuse", reason: spentMessage(summary.usedTurns, summary.elapsedMs) }];
}
function nudge(budget, urgency, detail, running = true) {
  return once({ kind: "nudged", budgetId: outcomeId(budget) }, [
    { kind: "notify", message: nudgeMessage(urgency, detail, running), level: "warning" }
  ]);
}
function onStopReport(command2, outcome) {
  switch (outcome.kind) {
    case "started":
      return [{ kind: "notify", message: onStopStartedMessage(command2), level: "info" }];
    case "failed":
    case "exited":
      return [{ kind: "notify", message: onStopProblemMessage(outcome.problem), level: "warning" }];
  }
}

// src/core/subagents/load.ts
function loadSubagents(history, setting, effects) {
  const runs = Object.fromEntries((history.subagents ?? []).filter((run) => !run.closed).map((run) => [run.id, run]));
  const recorded = history.subagentBudgets;
  if (recorded === void 0) {
    const loaded = { ...NO_SUBAGENTS, runs };
    return setting ? subagentsSetting(loaded, setting, effects) : loaded;
  }
  const read = readTaskBudgets(recorded);
  const budgets = "budgets" in read ? { byType: read.budgets, source: COMMAND_SOURCE } : null;
  return { budgets, runs };
}

// src/core/session/recovery.ts
function recoverOnStop(ledger, now) {
  const intent = ledger.onStop;
  if (!intent || intent.started || intent.recovered) return [];
  if (intent.claimantAlive && now - intent.claimedAt < ON_STOP_RECOVERY_MS) return [];
  return [
    { kind: "startOnStop", command: intent.command, claim: intent.claim },
    once({ kind: "onStopRecovered", budgetId: intent.claim.budgetId }, [
      { kind: "notify", message: ON_STOP_RAN_LATE, level: "warning" }
    ])
  ];
}

// src/core/session/load.ts
function load(event, now) {
  const recovered = recoverOnStop(event.ledger, now);
  const loaded = loadBudget(event, now, recovered.length > 0);
  return recovered.length === 0 ? loaded : { state: loaded.state, effects: [...loaded.effects, ...recovered] };
}
function loadBudget(event, now, startsLate) {
  const { history, ledger, mode, announce } = event;
  const effects = [];
  if (announce && history.newestUnusable) effects.push({ kind: "notify", message: UNUSABLE_RECORD, level: "warning" });
  const runningKey = event.runningPrompt === void 0 ? null : event.runningPrompt ?? history.lastPrompt;
  const running = runningKey !== null && runningKey === history.lastPrompt;
  const onLimit = event.onLimit;
  if (onLimit && !ON_LIMIT_CHOICES.includes(String(onLimit.value))) {
    effects.push({ kind: "notify", message: badOnLimitMessage(onLimit.source, onLimit.value), level: "warning" });
  }
  const settings = readSettings(event, effects);
  const base = {
    ...EMPTY_SESSION,
    lastPrompt: history.lastPrompt,
    running,
    askAtLimit: onLimit?.value === "ask" && event.canAsk === true,
    settings,
    subagents: loadSubagents(history, event.subagents, effects)
  };
  const budget = history.budget;
  if (!history.hasRecords && event.defaultBudget) {
    const given = withDefault(base, event.defaultBudget, now);
    return { state: given.state, effects: [...effects, ...given.effects] };
  }
  if (!budget || ledger.off) return { state: base, effects: [...effects, status(base, now)] };
  const standing2 = {
    ...freshStanding({ ...budget, softNudgeSent: ledger.nudged, active: ledger.spent === null }),
    usedTurns: history.usedTurns,
    spend: history.spend,
    steps: running && event.runningSteps !== void 0 && budget.stepLimit !== void 0 ? event.runningSteps : null,
    runningCounted: running && history.lastPromptCounted,
    spent: ledger.spent,
    stoppedPrompt: ledger.spent?.prompt ?? null
  };
  if (mode === "continue") {
    const wrapUntil = ledger.spent?.wrapUpUntil;
    const wrapUp = wrapUntil !== void 0 && running && ledger.spent?.prompt === runningKey ? {
      prompt: runningKey,
      until: wrapUntil,
      refused: false,
      callsSinceRefusal: 0,
      outcomeId: outcomeId(budget),
      onStopCommand: budget.onStopCommand
    } : null;
    const wrapping = { ...base, standing: { ...standing2, wrapUp } };
    effects.push(status(wrapping, now));
    if (announce && !ledger.spent) effects.push(restoredNotice(budget, now, history.usedTurns, history.spend));
    return { state: wrapping, effects };
  }
  const outcome = ledger.spent ? null : restoreBudget(budget, now, history.usedTurns, history.spend, ledger.nudged);
  if (outcome?.status !== "restored") {
    const summary = ledger.spent ?? spentSummary(budget, now, history.usedTurns, history.spend);
    if (announce) {
      effects.push({ kind: "notify", message: expiredMessage(budget, summary, startsLate), level: "warning" });
    }
    if (!ledger.spent) effects.push(once({ kind: "spent", budgetId: outcomeId(budget), summary, prompt: null }, []));
    return { state: base, effects: [...effects, status(base, now)] };
  }
  const next = { ...base, standing: { ...standing2, budget: outcome.budget } };
  effects.push(status(next, now));
  if (announce) effects.push(restoredNotice(budget, now, history.usedTurns, history.spend));
  return { state: next, effects };
}
function withDefault(state, {
  text,
  source,
  newBudgetId,
  unavailable
}, now) {
  if (unavailable !== void 0) {
    return {
      state,
      effects: [
        status(state, now),
        { kind: "notify", message: badDefaultMessage(source, unavailable), level: "warning" }
      ]
    };
  }
  const command2 = parseCommand(text);
  if (command2.kind !== "set") {
    const reason = command2.kind === "invalid" ? command2.reason : `${quoteInput(text)} is not a budget.`;
    return {
      state,
      effects: [status(state, now), { kind: "notify", message: badDefaultMessage(source, reason), level: "warning" }]
    };
  }
  const budget = freshBudget({
    id: newBudgetId,
    timeLimitMs: command2.timeLimitMs,
    turnLimit: command2.turnLimit,
    startTime: now,
    onStopCommand: command2.onStopCommand,
    ...spendLimits(command2),
    ...treatment(command2)
  });
  const next = withNewBudget(state, budget);
  return {
    state: next,
    effects: [
      ...recordBudget(budget),
      status(next, now),
      { kind: "notify", message: defaultSetMessage(source, command2), level: "info" }
    ]
  };
}
function restoredNotice(budget, now, usedTurns, spend) {
  const text = formatStatus(budget, now, usedTurns, spend);
  return { kind: "notify", message: restoredMessage(text, budget.onStopCommand), level: "info" };
}
function readSettings(event, effects) {
  const settings = {};
  const { awareness, grace } = event;
  if (awareness) {
    if (AWARENESS_CHOICES.includes(String(awareness.value))) settings.awareness = awareness.value;
    else effects.push(badSetting(awareness.source, awareness.value, 'is neither "nudge" nor "always"'));
  }
  if (grace) {
    const ms = typeof grace.value === "string" ? parseTimeToMs(grace.value) : null;
    if (ms !== null && ms >= MIN_GRACE_MS && ms <= MAX_GRACE_MS) settings.graceMs = Math.round(ms / 1e3) * 1e3;
    else effects.push(badSetting(grace.source, grace.value, 'is not a grace period from 1s to 10m (such as "30s")'));
  }
  return settings;
}
function badSetting(source, value, why) {
  return { kind: "notify", message: badSettingMessage(source, value, why), level: "warning" };
}

// src/core/loop/calls.ts
function canonicalJson(value) {
  return write(value, /* @__PURE__ */ new Set()) ?? "null";
}
function write(value, open) {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return JSON.stringify(value.toString());
    case "object":
      break;
    default:
      return void 0;
  }
  if (open.has(value)) return "null";
  open.add(value);
  let text;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => write(item, open) ?? "null").join(",")}]`;
  } else {
    const fields2 = value;
    const parts = [];
    for (const key of sortedKeys(fields2)) {
      const written3 = write(fields2[key], open);
      if (written3 !== void 0) parts.push(`${JSON.stringify(key)}:${written3}`);
    }
    text = `{${parts.join(",")}}`;
  }
  open.delete(value);
  return text;
}
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
var KEY = /^[0-9a-f]{16}$/;
function hashOfKey(key) {
  if (KEY.test(key)) return { a: Number.parseInt(key.slice(0, 8), 16), b: Number.parseInt(key.slice(8), 16) };
  return hashText(key);
}
function hashText(text) {
  const lanes = { a: 2166136261, b: 2654435761 };
  feedText(lanes, text);
  return finish(lanes);
}
function feed(lanes, code) {
  lanes.a = Math.imul(lanes.a ^ code, 16777619);
  lanes.b = Math.imul(lanes.b ^ code, 1540483477);
}
function feedText(lanes, text) {
  feed(lanes, TEXT);
  feed(lanes, text.length);
  let { a, b } = lanes;
  const pairs = text.length - 1;
  let index = 0;
  for (; index < pairs; index += 2) {
    const pair = text.charCodeAt(index) | text.charCodeAt(index + 1) << 16;
    a = Math.imul(a ^ pair, 16777619);
    b = Math.imul(b ^ pair, 1540483477);
  }
  if (index < text.length) {
    const last = text.charCodeAt(index);
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

// src/core/loop/call-view.ts
var TELLING_FIELDS = ["cmd", "file_path", "filePath", "path", "pattern", "query", "url", "description", "prompt"];
var SHELLS = /* @__PURE__ */ new Set(["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"]);
function callView(call) {
  const text = oneLine(tellingText(call.input));
  const chars = Array.from(text);
  return chars.length > LOOP_VIEW_CHARS ? `${chars.slice(0, LOOP_VIEW_CHARS - 1).join("")}\u2026` : text;
}
function tellingText(input) {
  if (typeof input === "string") return input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return input === void 0 ? "" : canonicalJson(input);
  }
  const fields2 = input;
  const command2 = commandOf(fields2.command);
  if (command2 !== null) return command2;
  for (const field of TELLING_FIELDS) {
    const value = fields2[field];
    if (typeof value === "string" && value.trim().length > 0) return value;
  }
  const first = firstString(fields2, 0);
  if (first !== null) return first;
  const json = canonicalJson(input);
  return json === "{}" ? "" : json;
}
function commandOf(value) {
  if (typeof value === "string") return value.trim().length > 0 ? value : null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((word) => typeof word === "string")) return null;
  const [program, flag, script, ...more] = value;
  if (script !== void 0 && more.length === 0 && SHELLS.has(program) && /^-\w*c$/.test(flag)) {
    return script;
  }
  return value.join(" ");
}
function firstString(value, depth) {
  if (typeof value === "string") return value.trim().length > 0 ? value : null;
  if (typeof value !== "object" || value === null || depth > 3) return null;
  const fields2 = value;
  const items = Array.isArray(value) ? value : Object.keys(fields2).sort().map((key) => fields2[key]);
  for (const item of items) {
    const found = firstString(item, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
function oneLine(text) {
  return text.replace(/\s+/g, " ").trim();
}

// src/core/loop/run-calls.ts
var BITS = 5;
var WIDTH = 1 << BITS;
var MASK = WIDTH - 1;
var LEVELS_PER_LANE = 7;
var EMPTY_LEVEL = Array.from({ length: WIDTH }, () => void 0);
function slotOf(hash, depth) {
  return depth < LEVELS_PER_LANE ? hash.a >>> depth * BITS & MASK : hash.b >>> (depth - LEVELS_PER_LANE) * BITS & MASK;
}
function same(counted, hash) {
  return counted.a === hash.a && counted.b === hash.b;
}
function noCalls(run) {
  return { run, root: EMPTY_LEVEL, peak: 0, size: 0 };
}
function countCall(calls, hash) {
  const added = add(calls.root, hash, 0);
  return {
    calls: {
      run: calls.run,
      root: added.level,
      peak: Math.max(calls.peak, added.count),
      size: calls.size + (added.count === 1 ? 1 : 0)
    },
    count: added.count
  };
}
function add(level, hash, depth) {
  const index = slotOf(hash, depth);
  const slot = level[index];
  let next;
  let count2 = 1;
  if (slot === void 0) next = { a: hash.a, b: hash.b, count: count2 };
  else if (isLevel(slot)) {
    const below = add(slot, hash, depth + 1);
    next = below.level;
    count2 = below.count;
  } else if (same(slot, hash)) {
    count2 = slot.count + 1;
    next = { a: hash.a, b: hash.b, count: count2 };
  } else {
    const moved = EMPTY_LEVEL.slice();
    moved[slotOf(slot, depth + 1)] = slot;
    next = add(moved, hash, depth + 1).level;
  }
  const copy = level.slice();
  copy[index] = next;
  return { level: copy, count: count2 };
}
function isLevel(slot) {
  return Array.isArray(slot);
}

// src/core/loop/guard.ts
function checkCall(calls, run, call, limit2, earlier) {
  const before = earlier === void 0 ? calls !== null && calls.run === run ? calls : noCalls(run) : replay(run, earlier);
  if (before.peak > limit2) return { calls: before, count: 0, verdict: "stopped" };
  const counted = countCall(before, callHash(call));
  const verdict = counted.count < limit2 ? "runs" : counted.count === limit2 ? "refused" : "stops";
  return { calls: counted.calls, count: counted.count, verdict };
}
function replay(run, keys) {
  let calls = noCalls(run);
  for (const key of keys) calls = countCall(calls, hashOfKey(key)).calls;
  return calls;
}

// src/core/session/loop.ts
function guardLoop(event, result) {
  const call = event.call;
  if (call === void 0 || result.effects.some((effect) => effect.kind === "refuse")) return result;
  const state = result.state;
  const active = counting(state);
  const limit2 = active?.budget.loopLimit;
  if (!active || limit2 === void 0) return result;
  const check = checkCall(active.calls ?? null, promptKeyOf(state, event.prompt), call, limit2, event.earlier);
  const next = withStanding(state, active, { calls: check.calls });
  const view = check.verdict === "runs" || check.verdict === "stopped" ? "" : callView(call);
  const effects = [...result.effects];
  switch (check.verdict) {
    case "runs":
      break;
    case "refused":
      effects.push(
        { kind: "notify", message: loopRefusedMessage(call.tool, view, check.count), level: "warning" },
        { kind: "refuse", reason: loopRefusal(call.tool, view, check.count) }
      );
      break;
    case "stops":
      effects.push(
        { kind: "notify", message: loopStoppedMessage(call.tool, view, check.count), level: "warning" },
        { kind: "abort" },
        { kind: "refuse", reason: loopStopRefusal(call.tool, view, check.count) }
      );
      break;
    case "stopped":
      effects.push({ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL });
      break;
  }
  return { state: next, effects };
}
function loopStoppedCall(state, prompt) {
  const active = counting(state);
  const calls = active?.calls;
  const limit2 = active?.budget.loopLimit;
  if (calls === void 0 || limit2 === void 0 || calls.peak <= limit2) return null;
  const key = promptKeyOf(state, prompt);
  if (key !== calls.run || key !== state.lastPrompt) return null;
  return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }] };
}

// src/core/session/steps.ts
function countStep(before, result, event, now) {
  const { state, effects } = result;
  const active = counting(state);
  const limit2 = active?.budget.stepLimit;
  if (!active || limit2 === void 0) return result;
  const newPrompt = state.lastPrompt !== before.lastPrompt;
  const previous = newPrompt ? 0 : active.steps ?? 0;
  const step = event.step ?? previous + 1;
  const used = step < previous ? previous + 1 : Math.max(previous, step);
  const allowance = newPrompt ? 0 : active.stepAllowance;
  const allowed = limit2 + allowance;
  const counted = withStanding(state, active, { steps: used, stepAllowance: allowance });
  const withStatus = [...effects.filter((effect) => effect.kind !== "status"), status(counted, now)];
  if (used <= allowed || used === previous) return { state: counted, effects: withStatus };
  if (used > allowed + 1) {
    return {
      state: counted,
      effects: [...withStatus, { kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit2) }]
    };
  }
  if (state.askAtLimit) {
    return { state: { ...state, asking: true }, effects: [askAboutSteps(limit2, allowance, event)] };
  }
  return {
    state: counted,
    effects: [...withStatus, { kind: "notify", message: stepsUsedMessage(limit2), level: "warning" }]
  };
}
function askAboutSteps(limit2, allowance, reached) {
  const answer = (choice) => ({
    type: "stepsAnswer",
    answer: choice,
    limit: limit2,
    allowance,
    reached
  });
  return {
    kind: "ask",
    question: stepsQuestion(limit2),
    choices: [
      { label: STOP_CHOICE, answer: answer("stop") },
      { label: moreStepsChoice(limit2), answer: answer("more") }
    ],
    timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
    onTimeout: answer("stop")
  };
}

// src/core/model/ledger.ts
var NOTHING_RECORDED = { spent: null, off: false, nudged: false };

// src/core/session/index.ts
function transition(state, event, now) {
  const held = event.type === "timeCheck" || event.type === "toolCall" || event.type === "modelCall";
  if (state.asking && (held || event.type === "modelRequest")) {
    return { state, effects: [status(state, now)] };
  }
  const result = applyEvent(state, event, now);
  const spent = result.state.standing?.spent ?? null;
  const reachesLimit = event.type === "modelCall" || event.type === "modelRequest" || event.type === "toolCall" || event.type === "timeCheck" || event.type === "modelResponse";
  if (state.askAtLimit && !state.standing?.spent && spent !== null && spent.limit === void 0 && reachesLimit) {
    return askAtTheLimit(state, event, spent);
  }
  return result;
}
function applyEvent(state, event, now) {
  switch (event.type) {
    case "load":
      return load(event, now);
    case "command":
      return command(state, event, now);
    case "declined":
      return { state, effects: [{ kind: "notify", message: event.message, level: "info" }] };
    case "limitAnswer":
      return limitAnswer({ ...state, asking: false }, event, now);
    case "modelCall":
      return loopStoppedCall(state, event.prompt) ?? withOutputCap(
        recordPrompt(
          state,
          event,
          withCallContext(
            countStep(
              state,
              modelCall(state, event.prompt, now, event.startedBy !== "extension", event.request),
              event,
              now
            ),
            now
          )
        ),
        event
      );
    case "stepsAnswer":
      return stepsAnswer({ ...state, asking: false }, event, now);
    case "modelRequest":
      return loopStoppedCall(state, state.lastPrompt) ?? modelRequest(state, event.request, now);
    case "toolCall":
      return guardLoop(event, toolCall(state, event.prompt, now));
    case "modelResponse":
      return modelResponse(answered(state, event.agent ?? MAIN_AGENT), event, now);
    case "promptRefused":
      return promptRefused(state, now);
    case "runEnd": {
      const next = { ...settled(state), running: false };
      const standing2 = state.standing;
      if (standing2?.wrapUp) return endWrapUp(next, standing2, standing2.wrapUp, now, null);
      return { state: next, effects: [status(next, now)] };
    }
    case "timeCheck": {
      const standing2 = state.standing;
      if (standing2?.wrapUp) return wrapUpTimeCheck(state, standing2, standing2.wrapUp, now);
      return checkTime(state, now, "timer");
    }
    case "onStopReport":
      return onStopReported(state, event, now);
    case "agentStart":
    case "agentEnd":
    case "sessionStop":
      return { state, effects: [] };
  }
}
function settled(state) {
  const standing2 = state.standing;
  if (standing2?.inFlight === void 0) return state;
  const { inFlight: _ended, ...rest } = standing2;
  return { ...state, standing: rest };
}
function answered(state, agent) {
  const standing2 = state.standing;
  return standing2?.inFlight?.[agent] === void 0 ? state : { ...state, standing: withInFlight(standing2, agent, null) };
}
function recordPrompt(before, event, result) {
  const prompt = event.prompt;
  if (prompt === null || event.startedBy === "extension" || !isNewPrompt(before, prompt)) return result;
  if (result.effects.some((effect) => effect.kind === "refuse")) return result;
  return { state: result.state, effects: [...result.effects, { kind: "recordPrompt", prompt }] };
}
function subagentModelCall(state, request, now, agent) {
  const timed = transition(state, { type: "timeCheck" }, now);
  const active = counting(timed.state);
  if (request === void 0 || timed.state.asking || !active) return timed;
  if (!tooLittleRoom(roomLeft(active.budget, spendBeside(active, agent), request))) return timed;
  const stopped = checkTime(timed.state, now, "modelCall", timed.state.lastPrompt, request, agent);
  return { state: stopped.state, effects: [...timed.effects, ...stopped.effects] };
}
function capInFlight(result, request, agent) {
  const active = counting(result.state);
  const room = active ? roomLeft(active.budget, spendBeside(active, agent), request) : null;
  if (!active || room === null) return result;
  const cap = capEffect(room.tokens);
  const answer = Math.min(Math.max(room.tokens, MIN_ANSWER_TOKENS), request.answerLimit ?? Number.POSITIVE_INFINITY);
  const held = withInFlight(active, agent, mostUsed(request, answer));
  return { state: { ...result.state, standing: held }, effects: [...result.effects, ...cap] };
}
function modelRequest(state, request, now) {
  const standing2 = state.standing;
  if (standing2?.wrapUp && standing2.spent?.limit !== void 0) return { state, effects: capEffect(MIN_ANSWER_TOKENS) };
  if (standing2?.spent && !standing2.wrapUp && standing2.stoppedPrompt === state.lastPrompt) {
    return { state, effects: refuseStopped(standing2.spent) };
  }
  const checked = checkTime(state, now, "modelCall", state.lastPrompt, request);
  return callGoes(checked.effects) ? capInFlight(checked, request, MAIN_AGENT) : checked;
}
function withOutputCap(result, event) {
  const request = event.request;
  if (request === void 0 || !callGoes(result.effects)) return result;
  const standing2 = result.state.standing;
  if (standing2?.wrapUp && standing2.spent?.limit !== void 0) {
    return { state: result.state, effects: [...result.effects, ...capEffect(MIN_ANSWER_TOKENS)] };
  }
  return capInFlight(result, request, MAIN_AGENT);
}
function stepsAnswer(state, event, now) {
  const { limit: limit2 } = event;
  if (event.answer === "stop") {
    return {
      state,
      effects: [
        { kind: "notify", message: stepsStoppedMessage(limit2), level: "warning" },
        { kind: "abort" },
        { kind: "refuse", reason: stepsRefusal(limit2) }
      ]
    };
  }
  const standing2 = state.standing;
  const more = standing2 ? withStanding(state, standing2, { stepAllowance: event.allowance + limit2 }) : state;
  return applyEvent(more, event.reached, now);
}
function limitAnswer(state, event, now) {
  if (event.answer === "stop") return applyEvent(state, event.reached, now);
  const args = event.answer === "time" ? `+${LIMIT_MORE_TIME}` : `+turns:${LIMIT_MORE_TURNS}`;
  const extended = command(state, { type: "command", args, newBudgetId: "" }, now);
  const goOn = transition(extended.state, event.reached, now);
  return { state: goOn.state, effects: [...extended.effects, ...goOn.effects] };
}

// src/core/text/report.ts
function sessionReport(items, ledger, now, terms = DEFAULT_TERMS) {
  const budgets = foldBudgets(items);
  const subagents = subagentReportLines(foldHistory(items).subagents ?? [], now);
  if (budgets.length === 0) return ["Timebox report: no budget was set in this session.", ...subagents].join("\n");
  const lines = budgets.map(
    (entry, index) => `${index + 1}. ${describeEntry(entry, ledger(entry.budget), now, terms)}`
  );
  const count2 = budgets.length === 1 ? "1 budget" : `${budgets.length} budgets`;
  const note = unmeasuredNote(terms);
  return [`Timebox report: ${count2} in this session.`, ...lines, ...subagents, ...note === null ? [] : [note]].join(
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

// src/core/run/live-report-page.ts
function livePageSource(ports, budgets) {
  const daily = ports.daily;
  return {
    history: () => ports.store.history(),
    ledger: (budget) => readLedger(ports.ledger, budget),
    now: ports.clock.now(),
    terms: ports.terms,
    standings: () => daily && (budgets.length > 0 || daily.team !== void 0) ? daily.standings(budgets) : []
  };
}
async function writeReportPage(write3, source) {
  if (write3 === void 0) return void 0;
  try {
    const report = reportData(source.history(), source.ledger, source.now, source.terms);
    return { path: await write3({ report, standings: source.standings() }) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

// src/core/run/questions.ts
var Questions = class {
  constructor(ports, report) {
    this.ports = ports;
    this.report = report;
  }
  ports;
  report;
  open = null;
  answered = Promise.resolve();
  /** Whether a question is open now. */
  get isOpen() {
    return this.open !== null;
  }
  /** Whether the user can be asked now. */
  canAsk() {
    return this.ports.ask !== void 0 && this.ports.canAsk?.() === true;
  }
  /** Closes the open question, if any: its answer is the closed question's (nothing changes). */
  close() {
    this.open?.abort();
  }
  /** Waits until no question is open; one that opens meanwhile is waited for too. */
  async whenNone() {
    while (this.open !== null) await this.answered;
  }
  /**
   * Asks each question of `first` in turn, feeding each choice to the rules through `dispatch`, and asks the questions
   * their answers raise too. The answer of them all, merged.
   */
  async askAll(first, dispatch) {
    const merged = {
      ...first,
      notices: [...first.notices],
      questions: [],
      stoppedAgents: [...first.stoppedAgents]
    };
    const pending = [...first.questions];
    const asked = (async () => {
      for (let question = pending.shift(); question; question = pending.shift()) {
        const controller = new AbortController();
        this.open = controller;
        const choice = await this.choose(question, controller.signal);
        if (this.open === controller) this.open = null;
        const next = dispatch(choice);
        mergeAnswer(merged, { ...next, questions: [] });
        pending.push(...next.questions);
      }
    })();
    this.answered = asked;
    await asked;
    return merged;
  }
  /** The event the user's choice names; nobody choosing in time, or a failing dialog, is the question's timeout. */
  async choose(question, signal) {
    let index;
    try {
      const labels = question.choices.map((choice) => choice.label);
      index = await this.ports.ask?.(question.question, labels, question.timeoutMs, signal);
    } catch (error) {
      this.report("question", error);
    }
    if (signal.aborted) return { type: "declined", message: QUESTION_CLOSED };
    return (index === void 0 ? void 0 : question.choices[index]?.answer) ?? question.onTimeout;
  }
};

// src/core/subagents/loop.ts
function guardAgentLoop(event, agent, now, session, result) {
  const call = event.call;
  const run = result.agents.runs[agent];
  const limit2 = run?.budget?.loopLimit;
  if (call === void 0 || run === void 0 || limit2 === void 0) return result;
  if (!isRunning(run) || run.spent !== null) return result;
  const check = checkCall(result.agents.calls?.[agent] ?? null, agent, call, limit2, event.earlier);
  const agents = withCalls(result.agents, agent, check.calls);
  if (check.verdict === "runs") return { agents, effects: result.effects };
  const view = callView(call);
  if (check.verdict === "refused") {
    const name = subagentName(run.task, run.agentType);
    const effects = [
      ...result.effects,
      { kind: "notify", message: subagentLoopRefusedMessage(name, call.tool, view, check.count), level: "warning" },
      { kind: "refuse", reason: loopRefusal(call.tool, view, check.count, "task") }
    ];
    return { agents, effects };
  }
  const concluding2 = {
    ...run,
    spent: { limit: "loop", at: now },
    wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: 0 }
  };
  return {
    agents: withRun(agents, concluding2),
    effects: [
      ...result.effects,
      runRecord(concluding2),
      {
        kind: "refuse",
        reason: check.verdict === "stops" ? subagentLoopRefusal(call.tool, view, check.count) : SUBAGENT_LOOP_STOPPED_REFUSAL
      }
    ]
  };
}
function withCalls(agents, agent, calls) {
  return { ...agents, calls: { ...agents.calls, [agent]: calls } };
}

// src/core/subagents/limits.ts
function kept(agents, run) {
  return { agents: withRun(agents, run), effects: [runRecord(run)] };
}
function parentOf(agents, run) {
  return run.parent === null ? void 0 : agents.runs[run.parent];
}
function concludingCall(agents, run, cap = []) {
  return {
    agents: withRun(agents, run),
    effects: [runRecord(run), { kind: "context", text: SUBAGENT_WRAP_UP_BLOCK }, ...cap]
  };
}
function spendBudget(agents, run, limit2, now, session) {
  const spent = {
    ...run,
    spent: { limit: limit2, at: now },
    wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: null }
  };
  return { agents: withRun(agents, spent), effects: [runRecord(spent)] };
}
function refuseTool(agents, run, changed) {
  const refuse = { kind: "refuse", reason: SUBAGENT_WRAP_UP_REFUSAL };
  return { agents: withRun(agents, run), effects: changed ? [runRecord(run), refuse] : [refuse] };
}
function warnOnce(agents, run, now, effects, changed) {
  const warn = !run.warned && usedRatio(run, now) >= NUDGE_WARNING_RATIO;
  if (!warn && !changed) return { agents, effects };
  const next = warn ? { ...run, warned: true } : run;
  const said = warn ? [
    {
      kind: "notify",
      message: subagentWarningMessage(subagentName(run.task, run.agentType), leftText(run, now)),
      level: "warning"
    }
  ] : [];
  return { agents: withRun(agents, next), effects: [runRecord(next), ...said, ...effects] };
}
function stop(agents, run, now, limit2, refuse, cascade) {
  const spent = run.spent ?? { limit: limit2, at: now };
  const stopped = { ...run, spent, ended: "stopped", wrapUp: null, endedAt: now };
  const effects = [
    runRecord(stopped),
    stoppedNotice(stopped, spent.limit),
    { kind: "stopAgent", agent: run.id }
  ];
  if (refuse) effects.push({ kind: "refuse", reason: SUBAGENT_STOPPED_REFUSAL });
  let next = withRun(agents, stopped);
  if (!cascade) return { agents: next, effects };
  for (const child of Object.values(next.runs)) {
    if (child.parent !== run.id || !isRunning(child)) continue;
    const step = stop(next, child, now, "parent", false, true);
    next = step.agents;
    effects.push(...step.effects);
  }
  return { agents: next, effects };
}
function refuseStopped2(agents, run) {
  return {
    agents,
    effects: [
      { kind: "stopAgent", agent: run.id },
      { kind: "refuse", reason: SUBAGENT_STOPPED_REFUSAL }
    ]
  };
}
function stoppedNotice(run, limit2) {
  const name = subagentName(run.task, run.agentType);
  return {
    kind: "notify",
    message: subagentStoppedMessage(name, limit2, run.budget, run.steps, run.parent),
    level: "info"
  };
}

// src/core/subagents/rules.ts
function agentStart(agents, event, now, session) {
  if (session.spent) return { agents, effects: [{ kind: "refuse", reason: SUBAGENT_REFUSED }] };
  const known = agents.runs[event.agent];
  if (known) return { agents, effects: [] };
  const budget = budgetFor(agents, event.agentType);
  const atStart = budget !== null && event.contextAtStart !== false;
  const run = {
    id: event.agent,
    parent: event.parent,
    agentType: event.agentType,
    task: firstWords(event.task),
    budget,
    startedAt: now,
    steps: 0,
    spend: NO_SPEND,
    warned: false,
    told: atStart,
    spent: null,
    wrapUp: null,
    ended: null,
    closed: false,
    endedAt: null
  };
  const effects = [runRecord(run)];
  if (atStart) effects.push({ kind: "context", text: subagentBudgetBlock(describeTaskBudget(budget)) });
  return { agents: withRun(agents, run), effects };
}
function agentModelCall(agents, run, now, session, request) {
  if (!isRunning(run)) return refuseStopped2(agents, run);
  if (session.spent) return stop(agents, run, now, "session", true, true);
  const wrapUp = run.wrapUp;
  if (wrapUp !== null) {
    if (now >= wrapUp.until || wrapUp.calls >= SUBAGENT_CALLS_AFTER_SPENT)
      return stop(agents, run, now, "session", true, true);
    const calls = wrapUp.calls + 1;
    return concludingCall(
      agents,
      { ...run, steps: run.steps + 1, wrapUp: { ...wrapUp, calls } },
      concluding(run, request)
    );
  }
  const limit2 = reachedLimit(run, now) ?? noRoomIn(run, request);
  if (limit2 !== null) {
    const wrapping = { ...run, steps: run.steps + 1, spent: { limit: limit2, at: now } };
    const wrapUp2 = { until: now + session.graceMs, calls: 1, refusedAt: null };
    return concludingCall(agents, { ...wrapping, wrapUp: wrapUp2 }, concluding(wrapping, request));
  }
  const counted = { ...run, steps: run.steps + 1, told: run.told || run.budget !== null };
  const effects = [];
  if (!run.told && run.budget !== null) {
    effects.push({ kind: "context", text: subagentBudgetBlock(describeTaskBudget(run.budget)) });
  }
  if (run.budget !== null && request !== void 0) {
    effects.push(...capEffect(roomLeft(run.budget, run.spend, request)?.tokens ?? null));
  }
  const ratio = usedRatio(counted, now);
  if (ratio >= NUDGE_WARNING_RATIO) {
    effects.push({
      kind: "context",
      text: subagentWarningBlock(ratio >= NUDGE_CRITICAL_RATIO, leftText(counted, now))
    });
  }
  return warnOnce(agents, counted, now, effects, true);
}
function concluding(run, request) {
  return request !== void 0 && CAPPED.has(run.spent?.limit) ? capEffect(MIN_ANSWER_TOKENS) : [];
}
var CAPPED = /* @__PURE__ */ new Set(["tokens", "cost"]);
function noRoomIn(run, request) {
  if (run.budget === null || request === void 0) return null;
  const room = roomLeft(run.budget, run.spend, request);
  return tooLittleRoom(room) ? room.limit : null;
}
function agentToolCall(agents, run, now, session) {
  if (!isRunning(run)) return refuseStopped2(agents, run);
  if (session.spent) return stop(agents, run, now, "session", true, true);
  const wrapUp = run.wrapUp;
  if (wrapUp !== null) {
    const askedAgain = wrapUp.refusedAt !== null && wrapUp.calls > wrapUp.refusedAt;
    if (now >= wrapUp.until || askedAgain) return stop(agents, run, now, "session", true, true);
    const refused = { ...run, wrapUp: { ...wrapUp, refusedAt: wrapUp.refusedAt ?? wrapUp.calls } };
    return refuseTool(agents, refused, wrapUp.refusedAt === null);
  }
  const limit2 = reachedLimit(run, now, false);
  if (limit2 === null) return { agents, effects: [] };
  const spent = { ...run, spent: { limit: limit2, at: now }, wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: 0 } };
  return refuseTool(agents, spent, true);
}
function agentResponse(agents, run, used, now, session) {
  let next = agents;
  const effects = [];
  const tokens = safeAmount(used.tokens);
  const cost = safeAmount(used.cost);
  const counted = /* @__PURE__ */ new Set();
  for (let one = run; one !== void 0 && !counted.has(one.id); one = parentOf(next, one)) {
    counted.add(one.id);
    const spend = { tokens: one.spend.tokens + tokens, cost: one.spend.cost + cost };
    const withSpend = { ...one, spend };
    const running = isRunning(withSpend) && withSpend.spent === null;
    const limit2 = running ? reachedLimit(withSpend, now, false) : null;
    const step = limit2 === null ? running ? warnOnce(next, withSpend, now, [], true) : kept(next, withSpend) : spendBudget(next, withSpend, limit2, now, session);
    next = step.agents;
    effects.push(...step.effects);
  }
  return { agents: next, effects };
}
function agentsTimeCheck(agents, now, session) {
  let next = agents;
  const effects = [];
  for (const run of Object.values(agents.runs)) {
    if (!isRunning(run) || next.runs[run.id] !== run) continue;
    let step;
    if (run.wrapUp !== null) {
      if (now < run.wrapUp.until) continue;
      step = stop(next, run, now, "session", false, true);
    } else {
      const limit2 = reachedLimit(run, now, false);
      step = limit2 === null ? warnOnce(next, run, now, [], false) : spendBudget(next, run, limit2, now, session);
    }
    next = step.agents;
    effects.push(...step.effects);
  }
  return { agents: next, effects };
}
function stopAll(agents, now) {
  let next = agents;
  const effects = [];
  for (const run of Object.values(agents.runs)) {
    if (!isRunning(run)) continue;
    const step = stop(next, run, now, "session", false, false);
    next = step.agents;
    effects.push(...step.effects);
  }
  return { agents: next, effects };
}
function agentEnd(agents, run, now) {
  const ended = run.ended ?? (run.spent === null ? "answered" : "concluded");
  const closed = { ...run, ended, closed: true, wrapUp: null, endedAt: run.endedAt ?? now };
  const { [run.id]: _gone, ...runs } = agents.runs;
  const { [run.id]: _counted, ...calls } = agents.calls ?? {};
  const effects = [runRecord(closed)];
  const spent = run.spent;
  if (spent !== null) {
    if (ended === "concluded") effects.push(stoppedNotice(closed, spent.limit));
    effects.push({ kind: "context", text: subagentParentLine(spent.limit, run.budget, usedText(closed, now)) });
  }
  return { agents: { ...agents, runs, ...agents.calls === void 0 ? {} : { calls } }, effects };
}

// src/core/subagents/compose.ts
function transitionWithSubagents(state, event, now) {
  const result = composed(state, event, now);
  if (event.type !== "modelResponse" || event.responseId === void 0) return result;
  const responseId = event.responseId;
  return { state: result.state, effects: [keptUsage({ ...event, responseId }, now), ...result.effects] };
}
function composed(state, event, now) {
  switch (event.type) {
    case "agentStart": {
      const session = sessionStep(state, { type: "timeCheck" }, now);
      return joined(
        session.state,
        session.effects,
        agentStart(session.state.subagents, event, now, viewOf(session.state))
      );
    }
    case "agentEnd": {
      const run = state.subagents.runs[event.agent];
      return run === void 0 ? { state, effects: [] } : joined(state, [], agentEnd(state.subagents, run, now));
    }
    case "sessionStop":
      return joined(state, [], stopAll(state.subagents, now));
    case "modelCall":
    case "toolCall": {
      const agent = event.agent;
      if (agent === void 0) break;
      const request = event.type === "modelCall" ? event.request : void 0;
      const session = withSessionStop(state, subagentModelCall(state, request, now, agent), now);
      const run = session.state.subagents.runs[agent];
      if (run === void 0) {
        if (!viewOf(session.state).spent) return session;
        const refuse = [
          { kind: "stopAgent", agent },
          { kind: "refuse", reason: SUBAGENT_REFUSED }
        ];
        return { state: session.state, effects: [...session.effects, ...refuse] };
      }
      const view = viewOf(session.state);
      const agents = session.state.subagents;
      if (event.type === "toolCall") {
        const own = guardAgentLoop(event, agent, now, view, agentToolCall(agents, run, now, view));
        return joined(session.state, session.effects, own);
      }
      const result = joined(session.state, session.effects, agentModelCall(agents, run, now, view, request));
      return request === void 0 || !callGoes(result.effects) ? result : capInFlight(result, request, agent);
    }
    case "modelResponse": {
      const agent = event.agent;
      if (agent === void 0) break;
      const run = state.subagents.runs[agent];
      const used = { tokens: event.tokens, cost: event.cost };
      const own = agentResponse(state.subagents, run, used, now, viewOf(state));
      const counted = { ...state, subagents: own.agents };
      const session = sessionStep(counted, { type: "modelResponse", ...used, agent }, now);
      return { state: session.state, effects: [...own.effects, ...session.effects] };
    }
    case "timeCheck": {
      const session = sessionStep(state, event, now);
      return joined(
        session.state,
        session.effects,
        agentsTimeCheck(session.state.subagents, now, viewOf(session.state))
      );
    }
  }
  return sessionStep(state, event, now);
}
function sessionStep(state, event, now) {
  return withSessionStop(state, transition(state, event, now), now);
}
function withSessionStop(state, result, now) {
  if (isSpent(state) || !isSpent(result.state)) return result;
  const stopped = joined(result.state, result.effects, stopAll(result.state.subagents, now));
  return { state: stopped.state, effects: [...stopped.effects, STOP_SUBAGENTS] };
}
var STOP_SUBAGENTS = { kind: "stopSubagents" };
function joined(state, before, agents) {
  if (agents.effects.length === 0 && agents.agents === state.subagents) return { state, effects: before };
  return { state: { ...state, subagents: agents.agents }, effects: [...before, ...agents.effects] };
}
function isSpent(state) {
  return state.standing?.spent != null;
}
function viewOf(state) {
  const standing2 = state.standing;
  return {
    spent: standing2?.spent != null && standing2.stoppedPrompt === state.lastPrompt,
    graceMs: standing2?.budget.graceMs ?? state.settings.graceMs ?? SUBAGENT_GRACE_MS
  };
}

// src/core/run/kept-history.ts
function keptForStore(effects, state, whileBudgeted) {
  if (!whileBudgeted || state.standing !== null || !effects.some(isHistory)) return effects;
  return effects.filter((effect) => !isHistory(effect));
}
function isHistory(effect) {
  return effect.kind === "recordPrompt" || effect.kind === "recordUsage";
}

// src/core/run/runtime.ts
var NO_DAILY_PART = { session: NO_DAILY_SESSION, refused: null };
var SessionRuntime = class {
  constructor(ports, state = EMPTY_SESSION, daily = NO_DAILY_PART) {
    this.ports = ports;
    this.state = state;
    this.daily = daily;
  }
  ports;
  state;
  daily;
  /**
   * Feeds one event to the daily budgets and then to the session's rules. A refusal of the daily budgets ends the
   * event there; else their notices and lines for the model come after the session's own.
   */
  handle(event) {
    if (event.type === "promptRefused") this.daily = { ...this.daily, session: dailyRefused(this.daily.session) };
    const daily = this.dailyAnswer(event);
    if (daily !== null && daily.refusal !== null) return daily;
    const answer = this.dispatch(event);
    return daily === null ? answer : mergeAnswer(answer, daily);
  }
  /** Feeds one event to the session's rules (and its subagents') alone and carries out what they say. */
  dispatch(event) {
    try {
      const result = transitionWithSubagents(this.state, event, this.ports.clock.now());
      this.state = result.state;
      return this.carryOut(keptForStore(result.effects, result.state, this.ports.historyWhileBudgeted === true));
    } catch (error) {
      this.ports.problem(event.type === "command" ? "/timebox" : event.type, error);
      return noAnswer();
    }
  }
  /**
   * Carries out effects that a rule of the host's own bookkeeping returned (run/session-log.ts: the lines one process
   * leaves the next) through the one executor and the same ports, and returns what they say.
   */
  write(effects) {
    return this.carryOut(effects);
  }
  /** `/timebox <args>`: `today` and `team` go to the daily budgets, everything else to the session's rules. */
  command(args, details) {
    const parsed = parseCommand(args);
    if (parsed.kind === "today" || parsed.kind === "team") return dailyCommandAnswer(parsed, this.ports, this.terms);
    if (parsed.kind === "reportPage") {
      const answer2 = noAnswer();
      answer2.notices.push(reportPageReply(details.reportPage));
      return answer2;
    }
    if (parsed.kind === "suggest") {
      const answer2 = noAnswer();
      const reply = suggestReply(details.suggestion);
      answer2.notices.push({ message: inHostTerms(reply.message, this.terms), level: reply.level });
      return answer2;
    }
    const event = { type: "command", args, newBudgetId: details.newBudgetId };
    if (details.canAsk !== void 0) event.canAsk = details.canAsk;
    if (details.cost !== void 0) event.cost = details.cost;
    if (details.tokensSeen !== void 0) event.tokensSeen = details.tokensSeen;
    if (details.turns !== void 0 && parsed.kind === "set") event.turns = details.turns();
    if (parsed.kind === "report") {
      try {
        event.report = details.report();
      } catch (error) {
        this.ports.problem("/timebox report", error);
      }
    }
    const answer = this.dispatch(event);
    const mode = parsed.kind === "status" ? modeLine(this.terms) : null;
    const said = answer.notices[0];
    if (mode !== null && said !== void 0) said.message = `${said.message}
${mode}`;
    return answer;
  }
  /** Whether a daily budget in force, as last read, limits agent time: a run is then checked as its time goes by. */
  timedDaily = false;
  get dailyTimed() {
    return this.timedDaily;
  }
  /** The answer being carried out, which a starter's report that comes at once joins. */
  carrying = null;
  /** What became of an on-stop command: it joins the answer being carried out, or comes as an answer of its own. */
  onStopReport = (command2, outcome) => {
    const report = this.dispatch({ type: "onStopReport", command: command2, outcome });
    if (this.carrying) mergeAnswer(this.carrying, report);
    else this.ports.late(report);
  };
  /** Carries out effects into a new answer; what the user is told is in the host's terms. */
  carryOut(effects) {
    const answer = noAnswer();
    const outer = this.carrying;
    this.carrying = answer;
    try {
      carryOut(effects, this.ports, answer, this.onStopReport);
    } finally {
      this.carrying = outer;
    }
    if (answer.notices.length > 0) {
      const terms = this.terms;
      for (const notice of answer.notices) notice.message = inHostTerms(notice.message, terms);
    }
    return answer;
  }
  get terms() {
    return this.ports.terms ?? DEFAULT_TERMS;
  }
  /**
   * Reports a model call, tool call, answer, time check or the end of a run to the daily budgets, and carries out what
   * they say; null for an event they do not hear, or where no daily budget covers the session.
   */
  dailyAnswer(event) {
    const port = this.ports.daily;
    try {
      if (!hasDailyBudgets(port)) return null;
      const prompt = event.type === "modelCall" ? event.prompt ?? this.state.lastPrompt : null;
      const refused = this.daily.refused;
      if (prompt !== null && prompt === refused?.prompt) {
        return this.carryOut([{ kind: "abort" }, { kind: "refuse", reason: refused.reason }]);
      }
      const dailyEvent = this.dailyEventOf(event);
      if (dailyEvent === null) return null;
      const standings = port.ledger.standings(port.budgets);
      this.timedDaily = standings.some((standing2) => standing2.budget.limits.timeMs !== null);
      const result = dailyTransition(this.daily.session, dailyEvent, standings, this.ports.clock.now());
      const answer = this.carryOut(result.effects);
      answer.context.push(...result.context);
      const problem = port.ledger.problem();
      if (problem !== null) answer.notices.unshift({ message: inHostTerms(problem, this.terms), level: "warning" });
      if (answer.refusal !== null && prompt !== null && dailyEvent.type === "newPrompt") {
        this.daily = { session: dailyRefused(result.session), refused: { prompt, reason: answer.refusal } };
      } else this.daily = { session: result.session, refused };
      return answer;
    } catch (error) {
      this.ports.problem("daily budget", error);
      return null;
    }
  }
  /** What an event of the session is to the daily budgets; an answer carries what its model call used. */
  dailyEventOf(event) {
    switch (event.type) {
      case "modelCall":
        return event.agent === void 0 && isNewPrompt(this.state, event.prompt) && event.startedBy !== "extension" ? { type: "newPrompt" } : { type: "duringRun", modelCall: true };
      case "modelResponse":
        return { type: "duringRun", modelCall: false, used: { tokens: event.tokens, cost: event.cost } };
      case "toolCall":
      case "timeCheck":
        return { type: "duringRun", modelCall: false };
      case "runEnd":
        return { type: "runEnd" };
      default:
        return null;
    }
  }
};

// src/core/run/suggestion.ts
async function readSuggestion(read) {
  return read === void 0 ? void 0 : suggest(read);
}
async function suggest(read) {
  try {
    const history = await read();
    return { suggestion: suggestionOf(history.sessions, history.current) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}
async function resolveDefault(given, read) {
  if (given === null || read === void 0 || !isSuggestedDefault(given.text)) return given;
  const outcome = await suggest(read);
  return "problem" in outcome ? unreadableDefault(given.source, outcome.problem) : suggestedDefault(given.source, outcome.suggestion);
}

// src/core/run/time-checks.ts
var TimeChecks = class {
  constructor(scheduler, clock, check) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.check = check;
  }
  scheduler;
  clock;
  check;
  refreshTimer = null;
  checkTimer = null;
  checkDue = null;
  /**
   * Arms what `state` needs now: nothing without an active budget, a run under a daily time limit, or a subagent
   * whose time runs.
   */
  arm(state, dailyRun) {
    if (!isActive(state) && !dailyRun && !hasSubagentTimers(state.subagents)) {
      this.cancel();
      return;
    }
    this.refreshTimer ??= this.scheduler.setInterval(this.check, STATUS_REFRESH_INTERVAL_MS);
    const now = this.clock.now();
    const delay = nextCheckIn(state, now);
    if (delay === null) {
      this.cancelCheck();
      return;
    }
    if (now + delay === this.checkDue) return;
    this.cancelCheck();
    this.checkDue = now + delay;
    this.checkTimer = this.scheduler.setTimeout(() => {
      this.checkDue = null;
      this.checkTimer = null;
      this.check();
    }, delay);
  }
  /** Stops every timer. */
  cancel() {
    this.refreshTimer?.();
    this.refreshTimer = null;
    this.cancelCheck();
  }
  cancelCheck() {
    this.checkTimer?.();
    this.checkTimer = null;
    this.checkDue = null;
  }
};
function nextCheckIn(state, now) {
  const session = nextTimeCheckIn(state, now);
  const subagents = nextSubagentCheckIn(state.subagents, now);
  if (subagents === null) return session;
  return session === null ? subagents : Math.min(session, subagents);
}

// src/core/run/warm-up.ts
var WARM_UP_PROMPT = "timebox-warm-up";
function warmUp(state, clock) {
  capsInForce(state);
  const nothing2 = () => {
  };
  const ports = {
    store: { append: nothing2, appendPrompt: nothing2, recordUsage: nothing2, appendLine: nothing2 },
    ledger: { claim: () => false },
    clock,
    onStop: { start: nothing2 },
    setStatus: nothing2,
    abortRun: nothing2,
    problem: nothing2,
    late: nothing2
  };
  const copy = new SessionRuntime(ports, state);
  copy.handle({ type: "timeCheck" });
  copy.handle({ type: "modelCall", prompt: WARM_UP_PROMPT, step: 1 });
  copy.handle({ type: "modelResponse", tokens: 1, cost: 0 });
  copy.handle({ type: "toolCall", prompt: WARM_UP_PROMPT });
  copy.handle({ type: "modelCall", prompt: WARM_UP_PROMPT, step: 2 });
  copy.handle({ type: "runEnd" });
}

// src/core/run/live-session.ts
var LiveSession = class {
  constructor(ports) {
    this.ports = ports;
    this.runtimePorts = {
      store: ports.store,
      ledger: ports.ledger,
      clock: ports.clock,
      onStop: ports.onStop,
      setStatus: (text) => ports.ui.setStatus(text),
      abortRun: () => ports.agent.abortCurrentTurn(),
      problem: (where, error) => this.report(where, error),
      late: (answer) => this.show(answer),
      ...ports.terms ? { terms: ports.terms } : {},
      ...ports.stopSubagents ? { stopSubagents: () => ports.stopSubagents?.() } : {},
      historyWhileBudgeted: ports.historyWhileBudgeted === true
    };
    this.runtime = new SessionRuntime(this.runtimePorts);
    this.timeChecks = new TimeChecks(ports.scheduler, ports.clock, () => void this.handle({ type: "timeCheck" }));
    this.questions = new Questions(ports, (where, error) => this.report(where, error));
  }
  ports;
  runtime;
  runtimePorts;
  /** The settings of the first load, kept for a load that names none (another branch of the same session). */
  settings = {};
  /** The daily budgets that cover the session, read from the settings at the first load. */
  dailyBudgets = [];
  disposed = false;
  timeChecks;
  reported = /* @__PURE__ */ new Set();
  /** The questions the rules ask: events that come while one is open wait for its answer, time checks excepted. */
  questions;
  get state() {
    return this.runtime.state;
  }
  /**
   * The session loaded (a cold start or a reload): the budget comes back from the session's history and the ledger; a
   * session where no budget was ever set gets `defaultBudget`, if there is one.
   */
  onSessionStart(mode, announce, defaultBudget = null, settings) {
    this.settings = settings ?? this.settings;
    this.guard("session start", () => {
      const history = foldHistory(this.ports.store.history());
      const ledger = history.budget ? readLedger(this.ports.ledger, history.budget) : NOTHING_RECORDED;
      const event = { type: "load", history, ledger, mode, announce };
      if (defaultBudget) event.defaultBudget = { ...defaultBudget, newBudgetId: this.ports.newBudgetId() };
      const { onLimit, awareness, grace, subagents } = this.settings;
      if (onLimit) {
        event.onLimit = onLimit;
        event.canAsk = this.questions.canAsk();
      }
      Object.assign(event, awareness && { awareness }, grace && { grace }, subagents && { subagents });
      this.dispatch(event);
      this.loadDaily(settings !== void 0);
    });
    warmUp(this.runtime.state, this.ports.clock);
  }
  /** Reads the daily budgets of the settings, naming any that cannot be read (once, at the first load). */
  loadDaily(announce) {
    const budgets = [];
    for (const setting of this.settings.daily ?? []) {
      const budget = parseDailyBudget(setting.value, setting.scope, setting.source);
      if ("warning" in budget) {
        if (announce) this.ports.ui.notify(budget.warning, "warning");
      } else budgets.push(budget);
    }
    const ledger = this.ports.daily;
    this.dailyBudgets = ledger ? budgets : [];
    if (ledger) this.runtimePorts.daily = { ledger, budgets };
  }
  /** `/timebox <args>`. One that reaches a replaced instance changes nothing, and the user is told to type it again. */
  async command(args) {
    if (this.disposed) {
      this.guard("/timebox", () => this.ports.ui.notify(COMMAND_AFTER_RELOAD, "warning"));
      return;
    }
    if (this.questions.isOpen) await this.questions.whenNone();
    if (this.disposed) return;
    const kind = parseCommand(args).kind;
    const page = kind === "reportPage" ? await this.writeReportPage() : void 0;
    const suggestion = kind === "suggest" ? await readSuggestion(this.ports.projectHistory?.bind(this.ports)) : void 0;
    if (this.disposed) return;
    let details = null;
    const transcript = this.ports.transcript;
    this.guard("/timebox", () => {
      details = {
        newBudgetId: this.ports.newBudgetId(),
        ...transcript ? { turns: () => transcript.countUserMessages() } : {},
        canAsk: this.questions.canAsk(),
        ...this.ports.costReporting ? { cost: this.ports.costReporting() } : {},
        report: () => sessionReport(
          this.ports.store.history(),
          (budget) => readLedger(this.ports.ledger, budget),
          this.ports.clock.now(),
          this.ports.terms
        ),
        ...page === void 0 ? {} : { reportPage: page },
        ...suggestion === void 0 ? {} : { suggestion }
      };
    });
    if (details !== null) await this.settle(this.runtime.command(args, details));
  }
  /** `/timebox report page`: the page written through the host, where it writes one. */
  writeReportPage() {
    return writeReportPage(this.ports.reportPage?.bind(this.ports), livePageSource(this.ports, this.dailyBudgets));
  }
  /**
   * Feeds one event to the rules once no question is open, asks what the rules ask, and carries out the answers. Model
   * calls and tools go through here, so that none starts while the user is being asked; time checks do not wait, so a
   * time limit fires on time whatever question is open.
   */
  handle(event) {
    if (this.disposed) return Promise.resolve(noAnswer());
    if (this.questions.isOpen && event.type !== "timeCheck") {
      return this.questions.whenNone().then(() => this.disposed ? noAnswer() : this.handleNow(event));
    }
    return this.handleNow(event);
  }
  handleNow(event) {
    const before = this.runtime.state;
    const answer = this.runtime.handle(event);
    this.closeMootQuestion(before);
    return this.settle(answer);
  }
  /**
   * Carries out effects that a rule returned outside any event (a subagent's record its own process wrote) through the
   * one executor, and shows what they say.
   */
  write(effects) {
    this.show(this.runtime.write(effects));
  }
  /** Feeds one event to the session's rules and carries out what they say, without waiting for an open question. */
  dispatch(event) {
    if (this.disposed) return noAnswer();
    const before = this.runtime.state;
    const answer = this.runtime.dispatch(event);
    this.show(answer);
    this.armTimers();
    this.closeMootQuestion(before);
    return answer;
  }
  /**
   * A stop, or the question at the limit, makes an open question moot (more steps, another budget): it is closed, so
   * that one question at most is ever open.
   */
  closeMootQuestion(before) {
    const after = this.runtime.state;
    const stopped = before.standing?.spent == null && after.standing?.spent != null;
    if (stopped || !before.asking && after.asking) this.questions.close();
  }
  /** Shows the answer's notices, then asks each question in turn and reports the answer to the rules. */
  settle(first) {
    this.show(first);
    this.armTimers();
    return first.questions.length === 0 ? Promise.resolve(first) : this.questions.askAll(first, (event) => this.dispatch(event));
  }
  /**
   * Whether a model call about to be sent needs its request measured: a budget of tokens or cost is in force
   * (`capsInForce`), or a question is open whose answer may set one before the call is let go.
   */
  needsRequest() {
    return this.questions.isOpen || capsInForce(this.runtime.state);
  }
  /** A turn begins, before the agent runs: the budget is checked on time, tokens and cost, and its status refreshed. */
  onTurnStart() {
    return this.handle({ type: "timeCheck" });
  }
  /**
   * The agent is about to start: while a budget is in force, its system prompt gets the text that says so. That text is
   * the same for as long as the budget is in force, so the prompt's cached prefix changes only when a budget is set
   * or ends; what is left is told at the end of each model call's messages.
   */
  onAgentStart() {
    if (this.disposed || !isActive(this.runtime.state)) return;
    this.guard("agent start", () => this.ports.agent.appendSystemPrompt?.(BUDGET_IN_FORCE_PROMPT));
  }
  /**
   * The instance is gone (shut down, reloaded, replaced): its in-memory state is cleared, the timers stop, the status
   * is cleared, and everything from now on is ignored. Nothing is written.
   */
  onShutdown() {
    this.disposed = true;
    this.runtime.state = EMPTY_SESSION;
    this.timeChecks.cancel();
    this.questions.close();
    this.guard("session shutdown", () => this.ports.ui.setStatus(void 0));
  }
  /** Tells the user what an answer says, and stops the subagents it stops. */
  show(answer) {
    if (this.disposed) return;
    for (const notice of answer.notices) {
      try {
        this.ports.ui.notify(notice.message, notice.level);
      } catch (error) {
        this.report("notify", error);
      }
    }
    for (const agent of answer.stoppedAgents) this.guard("stop a subagent", () => this.ports.stopAgent?.(agent));
  }
  /** Keeps the status refresh running while the budget is active, and the next time check armed at its point. */
  armTimers() {
    const dailyRun = this.runtime.daily.session.runStartedAt !== null && this.runtime.dailyTimed;
    try {
      this.timeChecks.arm(this.runtime.state, dailyRun);
    } catch (error) {
      this.report("timers", error);
    }
  }
  guard(where, action) {
    try {
      action();
    } catch (error) {
      this.report(where, error);
    }
  }
  /** A host's own part failed (`where`): the user is told once per place, and the session goes on. */
  notifyProblem(where, error) {
    this.report(where, error);
  }
  /** Tells the user about an internal error, once per place, and never throws itself. */
  report(where, error) {
    if (this.reported.has(where)) return;
    this.reported.add(where);
    try {
      this.ports.ui.notify(internalErrorMessage(where, error), "error");
    } catch {
    }
  }
};

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

// src/adapters/node/node-time.ts
var systemClock = { now: () => Date.now() };
var nodeScheduler = {
  setTimeout(callback, delayMs) {
    const timer = setTimeout(callback, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
  setInterval(callback, intervalMs) {
    const timer = setInterval(callback, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
};

// src/adapters/node/file-ledger.ts
function fileOf(dir, budgetId, kind) {
  return (0, import_node_path.join)(dir, `${checkedId(budgetId)}.${kind}.json`);
}
function checkedId(budgetId) {
  if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
  return budgetId;
}
function startMarkOf(dir, claim2) {
  return (0, import_node_path.join)(dir, `${checkedId(claim2.budgetId)}.${claim2.kind}.started`);
}
function isRecord(value) {
  return typeof value === "object" && value !== null;
}
function isFile(path) {
  return (0, import_node_fs.statSync)(path, { throwIfNoEntry: false })?.isFile() === true;
}
function exists(path) {
  return (0, import_node_fs.statSync)(path, { throwIfNoEntry: false }) !== void 0;
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
  let text;
  try {
    text = (0, import_node_fs.readFileSync)(file, "utf8");
  } catch (error) {
    return error.code === "EISDIR" ? {} : null;
  }
  try {
    const value = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}
function numberOr(value, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
function createFileLedger(dir, options = {}) {
  const { link = import_node_fs.linkSync, clock = systemClock, pid = () => process.pid, alive = processAlive } = options;
  return {
    claim(claim2) {
      const file = fileOf(dir, claim2.budgetId, claim2.kind);
      (0, import_node_fs.mkdirSync)(dir, { recursive: true });
      const draft = `${file}.${(0, import_node_crypto.randomUUID)()}.draft`;
      const fd = (0, import_node_fs.openSync)(draft, "wx");
      const record = { version: RECORD_VERSION, ...claim2, pid: pid(), claimedAt: clock.now() };
      try {
        try {
          (0, import_node_fs.writeSync)(fd, `${JSON.stringify(record)}
`);
          (0, import_node_fs.fsyncSync)(fd);
        } finally {
          (0, import_node_fs.closeSync)(fd);
        }
        link(draft, file);
        return true;
      } catch (error) {
        if (error.code === "EEXIST" && isFile(file)) return false;
        throw error;
      } finally {
        (0, import_node_fs.rmSync)(draft, { force: true });
      }
    },
    read(budgetId) {
      if (!isBudgetId(budgetId)) return { spent: null, off: false, nudged: false };
      const spent = readJson(fileOf(dir, budgetId, "spent"));
      const fields2 = spent && isRecord(spent.summary) ? spent.summary : {};
      return {
        spent: spent ? {
          usedTurns: numberOr(fields2.usedTurns, 0),
          elapsedMs: numberOr(fields2.elapsedMs, 0),
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
    startMark: (claim2) => startMarkOf(dir, claim2)
  };
}
function onStopOf(dir, budgetId, spent, alive) {
  if (spent === null) return {};
  let kind = "spent";
  let claim2 = spent;
  if (typeof spent.onStopCommand !== "string") {
    if (!isRecord(spent.summary) || typeof spent.summary.wrapUpUntil !== "number") return {};
    const ended = readJson(fileOf(dir, budgetId, "ended"));
    if (ended === null || typeof ended.onStopCommand !== "string") return {};
    kind = "ended";
    claim2 = ended;
  }
  return {
    onStop: {
      claim: { budgetId, kind },
      command: String(claim2.onStopCommand),
      claimedAt: numberOr(claim2.claimedAt, 0),
      started: exists(startMarkOf(dir, { budgetId, kind })),
      claimantAlive: alive(claim2.pid),
      recovered: readJson(fileOf(dir, budgetId, "onStopRecovered")) !== null
    }
  };
}

// src/adapters/node/on-stop-runner.ts
var import_node_child_process = require("node:child_process");
var import_node_stream = require("node:stream");

// src/adapters/on-stop/wrapper.ts
var ON_STOP_WRAPPER = 'set -C; if ! true 2>/dev/null >"$1" && [ -e "$1" ]; then exit 0; fi; exec /bin/sh -c -- "$2" 3>&-';
function wrapperArgs(mark, command2) {
  return ["-c", ON_STOP_WRAPPER, "sh", mark, command2];
}

// src/adapters/node/on-stop-runner.ts
var SHELL = "/bin/sh";
var SHELL_ARGS = ["-c", "--"];
function isSocket(stream) {
  return stream instanceof import_node_stream.Readable && "unref" in stream && typeof stream.unref === "function";
}
function describeError(error) {
  return error instanceof Error ? error.message : String(error);
}
function createShellStarter(spawnProcess = import_node_child_process.spawn, options = {}) {
  return {
    start(command2, report, start) {
      const shown = quoteInput(command2);
      const couldNotStart = (error) => ({
        kind: "failed",
        problem: `could not start ${shown}: ${describeError(error)}`
      });
      const mark = start?.mark;
      const args = mark === void 0 ? [...SHELL_ARGS, command2] : wrapperArgs(mark, command2);
      const untilMarked = mark !== void 0 && options.untilMarked === true;
      let child;
      try {
        child = spawnProcess(SHELL, args, {
          detached: true,
          stdio: untilMarked ? ["ignore", "ignore", "ignore", "pipe"] : "ignore"
        });
      } catch (error) {
        report(couldNotStart(error));
        return;
      }
      let state = "starting";
      const marked = () => {
        if (state !== "marking") return;
        state = "started";
        report({ kind: "started" });
      };
      const spawned = () => {
        if (state !== "starting") return;
        state = "marking";
        if (!untilMarked) marked();
      };
      child.once("spawn", spawned);
      child.on("error", (error) => {
        if (state !== "starting") return;
        state = "settled";
        report(couldNotStart(error));
      });
      child.once("exit", (code, signal) => {
        marked();
        if (state !== "started") return;
        state = "settled";
        if (code !== null && code !== 0) report({ kind: "exited", problem: `${shown} exited with code ${code}` });
        else if (signal !== null) report({ kind: "exited", problem: `${shown} was ended by ${signal}` });
      });
      const markPipe = untilMarked ? child.stdio[3] : null;
      if (isSocket(markPipe)) {
        markPipe.once("close", marked);
        markPipe.on("error", () => {
        });
        markPipe.resume();
        markPipe.unref();
      }
      child.unref();
      if (child.pid !== void 0) spawned();
    }
  };
}

// src/adapters/pi/defaults.ts
var import_node_fs2 = require("node:fs");
var import_node_path2 = require("node:path");
var DEFAULT_FLAG = "timebox";
var PI_DEFAULT_ENV = "PI_TIMEBOX";
var SETTINGS_KEY = "timebox";
function settingsSection(file) {
  let parsed;
  try {
    parsed = JSON.parse((0, import_node_fs2.readFileSync)(file, "utf8"));
  } catch {
    return void 0;
  }
  const section = isRecord2(parsed) ? parsed[SETTINGS_KEY] : void 0;
  return isRecord2(section) ? section : void 0;
}
function settingsField(file, field) {
  return settingsSection(file)?.[field];
}
function isRecord2(value) {
  return typeof value === "object" && value !== null;
}
function readTeamSettings(globalSettings) {
  const section = settingsSection(globalSettings);
  return { dailyStore: section?.dailyStore, team: section?.team };
}
function settingsDefault(file) {
  const value = settingsField(file, "default");
  if (value === void 0 || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}
function readSetting(sources, field) {
  for (const file of [(0, import_node_path2.join)(sources.cwd, ".pi", "settings.json"), sources.globalSettings]) {
    const value = settingsField(file, field);
    if (value !== void 0) return { value, source: `${SETTINGS_KEY}.${field} in ${file}` };
  }
  return null;
}
function subagentsSetting2(sources) {
  const env = sources.env[SUBAGENTS_ENV];
  if (env !== void 0 && env.trim().length > 0) return { value: env, source: SUBAGENTS_ENV };
  return readSetting(sources, "subagents");
}
function readSettings2(sources) {
  const projectFile = (0, import_node_path2.join)(sources.cwd, ".pi", "settings.json");
  const dailyEnv = sources.env[DAILY_ENV];
  const userDaily = dailyEnv !== void 0 && dailyEnv.trim().length > 0 ? [{ value: dailyEnv, source: DAILY_ENV, scope: "user" }] : fileDaily(sources.globalSettings, "user");
  const daily = [...userDaily, ...fileDaily(projectFile, `project:${sources.cwd}`)];
  return {
    onLimit: readSetting(sources, "onLimit"),
    awareness: readSetting(sources, "awareness"),
    grace: readSetting(sources, "grace"),
    subagents: subagentsSetting2(sources),
    daily
  };
}
function fileDaily(file, scope) {
  const value = settingsField(file, "daily");
  return value === void 0 ? [] : [{ value, source: `${SETTINGS_KEY}.daily in ${file}`, scope }];
}
function readDefaultBudget(sources) {
  if (typeof sources.flag === "string" && sources.flag.trim().length > 0) {
    return { text: sources.flag, source: `--${DEFAULT_FLAG}` };
  }
  for (const name of [PI_DEFAULT_ENV, DEFAULT_ENV]) {
    const env = sources.env[name];
    if (env !== void 0 && env.trim().length > 0) return { text: env, source: name };
  }
  const projectFile = (0, import_node_path2.join)(sources.cwd, ".pi", "settings.json");
  const project = settingsDefault(projectFile);
  if (project !== null) return { text: project, source: `${SETTINGS_KEY}.default in ${projectFile}` };
  const global = settingsDefault(sources.globalSettings);
  if (global !== null) return { text: global, source: `${SETTINGS_KEY}.default in ${sources.globalSettings}` };
  return null;
}

// src/adapters/pi/command.ts
var COMMAND_DESCRIPTION = "Cap this session by time and/or turns: /timebox 15m turns:3 [-- cmd] | status | off | subagents 5m steps:30";
function createTimeboxCommand(run) {
  return {
    description: COMMAND_DESCRIPTION,
    getArgumentCompletions: argumentCompletions,
    handler: async (args, ctx) => run(args, ctx)
  };
}

// src/adapters/pi/budget-note.ts
var BUDGET_NOTE_TYPE = "timebox";
function withBudgetNote(messages, blocks, now) {
  if (blocks.length === 0) return void 0;
  messages.push({
    role: "custom",
    customType: BUDGET_NOTE_TYPE,
    content: blocks.join("\n\n"),
    display: false,
    timestamp: now
  });
  return { messages };
}

// src/adapters/pi/usage.ts
function numberIn(fields2, key) {
  if (typeof fields2 !== "object" || fields2 === null) return 0;
  const value = fields2[key];
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
function amount(value) {
  return typeof value === "number" && value > 0 && value < Number.POSITIVE_INFINITY ? value : 0;
}
var NO_USAGE = {};
function fieldsOf(usage) {
  return typeof usage === "object" && usage !== null ? usage : NO_USAGE;
}
function tokensOf(usage) {
  return responseTokens(fieldsOf(usage));
}
function costOf(usage) {
  const cost = fieldsOf(usage).cost;
  return typeof cost === "object" && cost !== null ? amount(cost.total) : 0;
}
function usageOf(message) {
  if (message.role !== "assistant") return null;
  const tokens = tokensOf(message.usage);
  const cost = costOf(message.usage);
  return typeof message.timestamp === "number" ? { tokens, cost, at: message.timestamp } : { tokens, cost };
}
function costReportingOf(model) {
  const cost = model?.cost;
  const priced = ["input", "output", "cacheRead", "cacheWrite"].some((key) => numberIn(cost, key) > 0);
  return priced ? "reported" : "model reports none";
}
function usageOfSubagents(details) {
  const results = typeof details === "object" && details !== null ? details.results : null;
  if (!Array.isArray(results) || results.length === 0) return null;
  let tokens = 0;
  let cost = 0;
  for (const result of results) {
    const usage = typeof result === "object" && result !== null ? result.usage : null;
    tokens += tokensOf(usage);
    cost += numberIn(usage, "cost");
  }
  return { tokens, cost };
}

// src/adapters/pi/model-events.ts
function registerModelEvents(w) {
  const { pi, deps, context, ui, self, session, calls } = w;
  pi.on("context", async (event, ctx) => {
    context.bind(ctx);
    const call = calls.callOf(event.messages, ctx, self?.agent ?? null, session.needsRequest());
    ui.hold();
    const learning = w.learnStop();
    if (learning !== null) await learning;
    const answer = await session.handle(call);
    calls.capNext(answer.maxOutputTokens);
    if (!answer.aborted) ui.release();
    return withBudgetNote(event.messages, answer.context, deps.clock.now());
  });
  pi.on("message_end", async (event, ctx) => {
    context.bind(ctx);
    calls.meter.answer(event.message);
    const used = usageOf(event.message);
    if (used) await session.handle(w.ownAgent({ type: "modelResponse", tokens: used.tokens, cost: used.cost }));
  });
}

// src/adapters/pi/session-ports.ts
function lazyDailyLedger(sessionId, open) {
  let ledger = null;
  const get = () => {
    ledger ??= open(sessionId());
    return ledger;
  };
  return {
    open: () => void get(),
    get team() {
      return get().team;
    },
    standings: (budgets) => get().standings(budgets),
    countPrompt: (budgets, limits) => get().countPrompt(budgets, limits),
    addUse: (budgets, use) => get().addUse(budgets, use),
    reserve: (budgets) => get().reserve?.(budgets),
    adjust: (budget, adjustment) => get().adjust(budget, adjustment),
    problem: () => get().problem(),
    teamView: () => get().teamView?.() ?? { unreadable: NO_TEAM },
    setTeamLimits: (limits) => get().setTeamLimits?.(limits) ?? { failed: NO_TEAM },
    askTeam: (adjustment, why) => get().askTeam?.(adjustment, why) ?? { failed: NO_TEAM }
  };
}
function piTerms(settingsFile) {
  return {
    ...DEFAULT_TERMS,
    dailySetting: `Set one under the timebox key of ${settingsFile} ("daily": "3h turns:60 cost:10"), or of .pi/settings.json in the project.`
  };
}
function writeWith(write3, context) {
  return (input) => {
    const ctx = context.require();
    return write3(input, { id: ctx.sessionManager.getSessionId(), host: "pi", project: ctx.cwd });
  };
}
function readWith(read, context) {
  return () => {
    const ctx = context.require();
    return read(ctx.cwd, ctx.sessionManager.getSessionId());
  };
}

// src/adapters/pi/subagents.ts
var import_node_os = require("node:os");
var import_node_path3 = require("node:path");
var SUBAGENT_ENV = "TIMEBOX_SUBAGENT";
var SUBAGENT_TOOL = "subagent";
var PARENT_SOURCE = "the main agent's subagent budget";
function spawnRequestOf(tool, input) {
  if (tool !== SUBAGENT_TOOL || typeof input !== "object" || input === null) return null;
  const fields2 = input;
  return typeof fields2.agent === "string" && typeof fields2.task === "string" ? { agentType: fields2.agent, task: fields2.task } : null;
}
function identityFor(toolCallId, request, budget) {
  const base = (0, import_node_path3.join)((0, import_node_os.tmpdir)(), `timebox-subagent-${process.pid}-${toolCallId.replace(/[^A-Za-z0-9_-]/g, "_")}`);
  const outcome = `${base}.json`;
  return { agent: toolCallId, agentType: request.agentType, task: request.task, budget, outcome, stop: `${base}.stop` };
}
function identityOf(env) {
  const text = env[SUBAGENT_ENV];
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    if (typeof value !== "object" || value === null) return null;
    const fields2 = value;
    const { agent, agentType, task, budget, outcome, stop: stop2 } = fields2;
    if (typeof agent !== "string" || typeof agentType !== "string" || typeof task !== "string") return null;
    if (typeof outcome !== "string" || typeof stop2 !== "string") return null;
    if (budget !== null && typeof budget !== "string") return null;
    return { agent, agentType, task, budget, outcome, stop: stop2 };
  } catch {
    return null;
  }
}

// src/adapters/pi/session-events.ts
function registerSessionEvents(w) {
  const { pi, deps, context, ui, self, session } = w;
  pi.on("session_start", (event, ctx) => {
    context.bind(ctx);
    const sources = {
      flag: pi.getFlag(DEFAULT_FLAG),
      env: deps.env,
      cwd: ctx.cwd,
      globalSettings: deps.globalSettings()
    };
    const given = self === null ? readDefaultBudget(sources) : null;
    if (given !== null && isSuggestedDefault(given.text)) {
      const read = deps.projectHistory && readWith(deps.projectHistory, context);
      return resolveDefault(given, read).then((resolved) => start(event, ctx, resolved, readSettings2(sources)));
    }
    start(event, ctx, given, readSettings2(sources));
  });
  const start = (event, ctx, given, settings) => {
    const shown = ui.record(
      () => self === null ? session.onSessionStart("restore", true, given, settings) : session.onSessionStart("restore", false, null, {
        ...settings,
        subagents: self.budget === null ? null : { value: self.budget, source: PARENT_SOURCE }
      })
    );
    try {
      w.daily?.open();
    } catch (error) {
      session.notifyProblem("daily budget", error);
    }
    if (self !== null) {
      void session.handle({
        type: "agentStart",
        agent: self.agent,
        parent: null,
        agentType: self.agentType,
        task: self.task,
        contextAtStart: false
      });
    }
    const restored = shown.filter((notice) => notice.level === "info");
    if (ctx.hasUI && event.reason !== "new" && restored.length > 0) {
      w.restoreNoticeAgain = w.scheduler.setTimeout(() => {
        w.restoreNoticeAgain = null;
        for (const notice of restored) ui.notify(notice.message, notice.level);
      }, RELOAD_NOTICE_DELAY_MS);
    }
  };
  pi.on("session_tree", (_event, ctx) => {
    context.bind(ctx);
    session.onSessionStart("restore", false);
  });
  pi.on("session_shutdown", (_event, ctx) => {
    context.bind(ctx);
    try {
      ui.release();
    } catch {
    }
    w.restoreNoticeAgain?.();
    w.restoreNoticeAgain = null;
    session.onShutdown();
  });
}

// src/adapters/pi/subagent-files.ts
var import_node_fs3 = require("node:fs");
function writeOutcome(path, outcome) {
  try {
    (0, import_node_fs3.writeFileSync)(path, JSON.stringify(outcome));
  } catch {
  }
}
function takeOutcome(path) {
  let text;
  try {
    text = (0, import_node_fs3.readFileSync)(path, "utf8");
  } catch {
    return null;
  }
  (0, import_node_fs3.rmSync)(path, { force: true });
  try {
    const value = JSON.parse(text);
    return {
      lines: Array.isArray(value.lines) ? value.lines.map(String) : [],
      notices: Array.isArray(value.notices) ? value.notices : [],
      record: value.record ?? null
    };
  } catch {
    return null;
  }
}
function writeSessionStop(identity) {
  try {
    (0, import_node_fs3.writeFileSync)(identity.stop, "");
  } catch {
  }
}
function sessionStopped(identity) {
  return (0, import_node_fs3.existsSync)(identity.stop);
}
function forget(identity) {
  (0, import_node_fs3.rmSync)(identity.stop, { force: true });
}
var SubagentProcesses = class {
  running = /* @__PURE__ */ new Map();
  /** The call `callId` started the subagent named `identity`. */
  started(callId, identity) {
    this.running.set(callId, { identity, told: false });
  }
  /** The subagent the call started, now that its result is in (its stop removed); undefined for any other call. */
  ended(callId) {
    const one = this.running.get(callId);
    if (one === void 0) return void 0;
    this.running.delete(callId);
    forget(one.identity);
    return one.identity;
  }
  /** The session's budget became spent: every subagent running now is told, once (a later one runs on). */
  stopAll() {
    for (const one of this.running.values()) {
      if (one.told) continue;
      one.told = true;
      writeSessionStop(one.identity);
    }
  }
};

// src/adapters/pi/tool-events.ts
function registerToolEvents(w) {
  const { pi, deps, context, ui, session, subagents } = w;
  pi.on("tool_call", async (event, ctx) => {
    context.bind(ctx);
    const learning = w.learnStop();
    if (learning !== null) await learning;
    const call = { tool: event.toolName, input: event.input };
    const answer = await session.handle(w.ownAgent({ type: "toolCall", prompt: null, call }));
    if (answer.refusal !== null) return { block: true, reason: answer.refusal };
    const request = spawnRequestOf(event.toolName, event.input);
    if (request === null) return void 0;
    const identity = identityFor(
      event.toolCallId,
      request,
      setBudgetFor(session.state.subagents, request.agentType)?.words ?? null
    );
    subagents.started(event.toolCallId, identity);
    deps.env[SUBAGENT_ENV] = JSON.stringify(identity);
    return void 0;
  });
  pi.on("tool_result", async (event, ctx) => {
    context.bind(ctx);
    const identity = subagents.ended(event.toolCallId);
    if (identity === void 0) return void 0;
    if (deps.env[SUBAGENT_ENV] === JSON.stringify(identity)) delete deps.env[SUBAGENT_ENV];
    const used = usageOfSubagents(event.details);
    if (used) await session.handle(w.ownAgent({ type: "modelResponse", tokens: used.tokens, cost: used.cost }));
    const outcome = takeOutcome(identity.outcome);
    if (outcome === null) return void 0;
    for (const notice of outcome.notices) ui.notify(notice.message, notice.level);
    session.write(keepChildRecord(outcome.record));
    if (outcome.lines.length === 0) return void 0;
    return { content: [...event.content, { type: "text", text: outcome.lines.join("\n") }] };
  });
}

// src/adapters/pi/turn-events.ts
function registerTurnEvents(w) {
  const { pi, context, ui, self, told, session } = w;
  pi.on("turn_start", async (_event, ctx) => {
    context.bind(ctx);
    await session.onTurnStart();
  });
  pi.on("before_agent_start", (event, ctx) => {
    context.bind(ctx);
    w.systemPromptExtra = "";
    session.onAgentStart();
    return w.systemPromptExtra === "" ? void 0 : { systemPrompt: event.systemPrompt + w.systemPromptExtra };
  });
  pi.on("agent_end", async (_event, ctx) => {
    context.bind(ctx);
    ui.release();
    if (self === null) {
      await session.handle({ type: "runEnd" });
      return;
    }
    const answer = await session.handle({ type: "agentEnd", agent: self.agent });
    writeOutcome(self.outcome, { ...told, lines: answer.context });
  });
}

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
function textHash(text) {
  let hash = FNV_OFFSET;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
function promptKey(message) {
  const text = textOf(message.content);
  return `${String(message.timestamp)}:${text.length}:${textHash(text)}:${text.slice(0, KEY_TEXT_CHARS)}`;
}
function promptOfCall(messages) {
  let newestUser = null;
  let index = messages.length - 1;
  for (; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") newestUser ??= message;
    else if (message?.role === "assistant" || message?.role === "toolResult") break;
  }
  if (!newestUser) return null;
  if (messages[index]?.role === "toolResult") return null;
  return promptKey(newestUser);
}
function extensionRunOfCall(messages) {
  let newestCustom = null;
  let index = messages.length - 1;
  for (; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") return null;
    if (message?.role === "custom") newestCustom ??= message;
    else if (message?.role === "assistant" || message?.role === "toolResult") break;
  }
  if (!newestCustom || messages[index]?.role === "toolResult") return null;
  return `extension:${promptKey(newestCustom)}`;
}
function stepOfCall(messages) {
  let answers = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "assistant") {
      if (message.stopReason !== "error") answers++;
      continue;
    }
    if (message?.role !== "user" && message?.role !== "custom") continue;
    const before = messages[index - 1];
    if (before?.role !== "toolResult") break;
  }
  return answers + 1;
}

// src/adapters/pi/request-cap.ts
var ANSWER_BESIDE_THINKING = 1024;
function isFields3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function limitIn(fields2, key) {
  const value = fields2[key];
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : void 0;
}
function lowered(fields2, key, cap, onlyLower = false) {
  const limit2 = limitIn(fields2, key);
  if (limit2 !== void 0) return limit2 <= cap.maxTokens ? null : { ...fields2, [key]: cap.maxTokens };
  if (onlyLower) return null;
  return { ...fields2, [key]: cap.modelMax === void 0 ? cap.maxTokens : Math.min(cap.maxTokens, cap.modelMax) };
}
function withThinkingBelow(parent, key, budgetKey, maxTokens) {
  const thinking = parent[key];
  if (!isFields3(thinking)) return parent;
  const budget = limitIn(thinking, budgetKey);
  const most = Math.max(ANSWER_BESIDE_THINKING, maxTokens - ANSWER_BESIDE_THINKING);
  return budget === void 0 || budget <= most ? parent : { ...parent, [key]: { ...thinking, [budgetKey]: most } };
}
function nested(payload, key, change) {
  const inner = payload[key];
  if (!isFields3(inner)) return null;
  const next = change(inner);
  return next === null ? null : { ...payload, [key]: next };
}
function cappedPayload(model, payload, maxTokens) {
  if (!isFields3(payload)) return void 0;
  const modelMax = model?.maxTokens;
  const cap = { maxTokens, modelMax: typeof modelMax === "number" && modelMax > 0 ? modelMax : void 0 };
  const api = model?.api;
  let capped = null;
  switch (api) {
    case "anthropic-messages": {
      const limit2 = lowered(payload, "max_tokens", cap);
      capped = limit2 && withThinkingBelow(limit2, "thinking", "budget_tokens", maxTokens);
      break;
    }
    case "bedrock-converse-stream": {
      const limit2 = nested(payload, "inferenceConfig", (config) => lowered(config, "maxTokens", cap));
      capped = limit2 && (nested(
        limit2,
        "additionalModelRequestFields",
        (fields2) => withThinkingBelow(fields2, "thinking", "budget_tokens", maxTokens)
      ) ?? limit2);
      break;
    }
    case "openai-completions":
      capped = limitIn(payload, "max_completion_tokens") !== void 0 ? lowered(payload, "max_completion_tokens", cap) : lowered(payload, "max_tokens", cap);
      break;
    case "openai-responses":
    case "azure-openai-responses":
      capped = lowered(payload, "max_output_tokens", cap);
      break;
    case "openai-codex-responses":
      capped = lowered(payload, "max_output_tokens", cap, true);
      break;
    case "google-generative-ai":
    case "google-vertex":
      capped = nested(payload, "config", (config) => {
        const limit2 = lowered(config, "maxOutputTokens", cap);
        return limit2 && withThinkingBelow(limit2, "thinkingConfig", "thinkingBudget", maxTokens);
      });
      break;
    case "mistral-conversations":
      capped = lowered(payload, "maxTokens", cap);
      break;
    case "pi-messages":
      capped = nested(payload, "options", (options) => lowered(options, "maxTokens", cap));
      break;
  }
  return capped ?? void 0;
}

// src/adapters/node/text-size.ts
var SCALAR_BYTES = 24;
var MAX_DEPTH = 64;
function textSize(value, depth = 0) {
  if (typeof value === "string") return Buffer.byteLength(value, "utf8") + 2;
  if (typeof value !== "object" || value === null) return value === void 0 ? 0 : SCALAR_BYTES;
  if (depth >= MAX_DEPTH) return 0;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) size += textSize(item, depth + 1) + 1;
    return size;
  }
  for (const [key, item] of Object.entries(value))
    size += Buffer.byteLength(key, "utf8") + 4 + textSize(item, depth + 1);
  return size;
}

// src/adapters/pi/request-size.ts
function promptTokens(usage) {
  if (typeof usage !== "object" || usage === null) return 0;
  const { input, cacheRead, cacheWrite } = usage;
  return count(input) + count(cacheRead) + count(cacheWrite);
}
function count(value) {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
var RequestMeter = class {
  systemPrompt = null;
  systemBytes = 0;
  toolsKey = null;
  toolsBytes = 0;
  /** The part outside the messages of the call being answered, and of the call that gave the latest answer seen. */
  callFixed = 0;
  answered = null;
  /** The call about to be sent: its messages (without Timebox's note) and the part outside them. */
  measure(messages, fixed) {
    const fixedBytes = this.fixedBytes(fixed);
    this.callFixed = fixedBytes;
    let index = messages.length - 1;
    while (index >= 0 && !(messages[index]?.role === "assistant" && promptTokens(messages[index]?.usage) > 0)) index--;
    let added = 0;
    for (let at = Math.max(index, 0); at < messages.length; at++) added += textSize(messages[at]);
    const answer = messages[index];
    if (answer === void 0) return { addedBytes: added + fixedBytes };
    const before = this.answered !== null && this.answered.at === answer.timestamp ? this.answered.fixed : 0;
    return { answeredInput: promptTokens(answer.usage), addedBytes: added + Math.max(0, fixedBytes - before) };
  }
  /**
   * A call let go unmeasured: an answer to it tells nothing of its part outside the messages, so the next measured call
   * counts all of its own (more than it may have grown, never less).
   */
  skip() {
    this.callFixed = 0;
    return void 0;
  }
  /** An answer arrived: it came from the call measured last, or let go unmeasured. */
  answer(message) {
    if (message.role === "assistant") this.answered = { at: message.timestamp, fixed: this.callFixed };
  }
  /** The bytes of the system prompt and the active tools' definitions, each read again only when it changed. */
  fixedBytes(fixed) {
    if (fixed.systemPrompt !== this.systemPrompt) {
      this.systemPrompt = fixed.systemPrompt;
      this.systemBytes = textSize(fixed.systemPrompt);
    }
    const key = fixed.toolNames.join("\n");
    if (key !== this.toolsKey) {
      this.toolsKey = key;
      this.toolsBytes = textSize(fixed.definitions());
    }
    return this.systemBytes + this.toolsBytes;
  }
};
function pricesOf(model) {
  const cost = model?.cost;
  if (typeof cost !== "object" || cost === null) return void 0;
  const { input, output, cacheRead, cacheWrite } = cost;
  const prices = {
    input: count(input),
    output: count(output),
    cacheRead: count(cacheRead),
    cacheWrite: count(cacheWrite)
  };
  return prices.input + prices.output + prices.cacheRead + prices.cacheWrite > 0 ? prices : void 0;
}
function requestOfCall(meter, messages, pi, ctx) {
  try {
    const toolNames = pi.getActiveTools();
    const definitions = () => pi.getAllTools().filter((tool) => toolNames.includes(tool.name)).map(({ name, description, parameters }) => ({ name, description, parameters }));
    const measured = meter.measure(messages, {
      systemPrompt: ctx.getSystemPrompt(),
      toolNames,
      definitions
    });
    const prices = pricesOf(ctx.model);
    if (prices !== void 0) measured.prices = prices;
    const largest = ctx.model?.maxTokens;
    if (typeof largest === "number" && largest > 0) measured.answerLimit = largest;
    return measured;
  } catch {
    return void 0;
  }
}

// src/adapters/pi/call-request.ts
var CallRequests = class {
  constructor(pi) {
    this.pi = pi;
    pi.on("before_provider_request", (event, ctx) => {
      const cap = this.cap;
      this.cap = void 0;
      return cap === void 0 ? void 0 : cappedPayload(ctx.model, event.payload, cap);
    });
  }
  pi;
  /** Each model call's size, from the latest answer on. */
  meter = new RequestMeter();
  /** The cap on the answer of the call about to be sent, set when `context` let it go. */
  cap;
  /**
   * The model call of `messages`: a subagent process's (`agent`), a run an extension started, or the user's prompt at
   * its step; with its request's size where it can be measured and `capped` (a budget of tokens or cost is in force,
   * the core's `capsInForce`). Without one the request is not measured: a session's first call would otherwise walk its
   * system prompt and tools' definitions, in a fresh process's code not yet compiled, for a cap nothing sets.
   */
  callOf(messages, ctx, agent, capped) {
    const step = stepOfCall(messages);
    const extensionRun = extensionRunOfCall(messages);
    const request = capped ? requestOfCall(this.meter, messages, this.pi, ctx) : this.meter.skip();
    const call = agent !== null ? { type: "modelCall", prompt: null, agent } : extensionRun === null ? { type: "modelCall", prompt: promptOfCall(messages), step } : { type: "modelCall", prompt: extensionRun, step, startedBy: "extension" };
    return request === void 0 ? call : { ...call, request };
  }
  /** The cap the rules set on the answer of the call just let go (none: it goes at its own limit). */
  capNext(cap) {
    this.cap = cap;
  }
};

// src/adapters/pi/live-scheduler.ts
function liveOnlyScheduler(scheduler, isLive) {
  return {
    setTimeout(callback, delayMs) {
      return scheduler.setTimeout(() => {
        if (isLive()) callback();
      }, delayMs);
    },
    setInterval(callback, intervalMs) {
      const cancel = scheduler.setInterval(() => {
        if (isLive()) callback();
        else cancel();
      }, intervalMs);
      return cancel;
    }
  };
}

// src/adapters/pi/session-context.ts
var SessionContext = class {
  context;
  /** Remembers the context of the event being handled. */
  bind(context) {
    this.context = context;
  }
  /** Whether the session is still alive: pi makes every member of a context throw once its session is replaced or disposed. */
  isLive() {
    if (!this.context) return false;
    try {
      return typeof this.context.hasUI === "boolean";
    } catch {
      return false;
    }
  }
  /** The latest context; throws before the first event, which no Timebox path reaches. */
  require() {
    if (!this.context) throw new Error("no pi session context yet");
    return this.context;
  }
};

// src/adapters/pi/session-ui.ts
function sessionUI(ui, self, told) {
  if (self === null) return ui;
  return {
    notify: (message, level) => {
      told.notices.push({ message, level });
      ui.notify(message, level);
    },
    setStatus: (text) => ui.setStatus(text)
  };
}

// src/adapters/pi/store.ts
function fieldsOf2(data) {
  return typeof data === "object" && data !== null ? data : {};
}
function recordItem(entry) {
  if (entry.customType === ACTIVE_ENTRY_TYPE) return { kind: "record", record: { kind: "active", budget: entry.data } };
  if (entry.customType === OFF_ENTRY_TYPE) return { kind: "record", record: { ...fieldsOf2(entry.data), kind: "off" } };
  if (entry.customType === SUBAGENTS_ENTRY_TYPE) {
    return { kind: "record", record: { ...fieldsOf2(entry.data), kind: "subagents" } };
  }
  if (entry.customType === SUBAGENT_ENTRY_TYPE) {
    return { kind: "record", record: { ...fieldsOf2(entry.data), kind: "subagent" } };
  }
  return null;
}
var PiBudgetStore = class {
  constructor(pi, context) {
    this.pi = pi;
    this.context = context;
  }
  pi;
  context;
  appendActive(budget) {
    this.pi.appendEntry(ACTIVE_ENTRY_TYPE, budget);
  }
  appendOff(disabledAt, budgetId) {
    const named3 = budgetId === void 0 ? {} : { version: RECORD_VERSION, budgetId };
    this.pi.appendEntry(OFF_ENTRY_TYPE, { ...named3, disabledAt });
  }
  /** The `timebox-active` and `timebox-off` entries of the branch, oldest first, as written (restore checks them). */
  loadRecords() {
    return this.history().flatMap((item) => {
      if (item.kind !== "record") return [];
      const record = item.record;
      return record.kind === "active" || record.kind === "off" ? [record] : [];
    });
  }
  /** The user messages of the branch: the session's turns. */
  countUserMessages() {
    let turns = 0;
    for (const item of this.history()) if (item.kind === "prompt") turns++;
    return turns;
  }
  append(record) {
    switch (record.kind) {
      case "active":
        this.appendActive(record.budget);
        return;
      case "off":
        this.appendOff(record.disabledAt, record.budgetId);
        return;
      case "subagents":
        this.pi.appendEntry(SUBAGENTS_ENTRY_TYPE, { version: record.version, budgets: record.budgets, at: record.at });
        return;
      case "subagent":
        this.pi.appendEntry(SUBAGENT_ENTRY_TYPE, { version: record.version, agent: record.agent });
        return;
    }
  }
  /**
   * The branch from the root to the leaf, oldest first: Timebox entries as records, user messages as prompts, assistant
   * messages as what their model calls used. A session that never branched (most do not) is its entries in file order,
   * each the parent of the next and the last the leaf: read in one pass, in the order memory holds them, checking each
   * link. Otherwise the path is walked from the leaf by id, an entry lookup per entry (a few times slower at 100,000
   * entries, but still linear: pi's `getBranch` grows its array from the front, which costs the square of it, about
   * 0.9 s at 100,000 entries).
   */
  history() {
    const manager = this.context.require().sessionManager;
    const leafId = manager.getLeafId();
    if (leafId === null) return [];
    const line = historyOf(entriesOf(manager), leafId);
    if (line !== null) return line;
    const path = [];
    for (let id = leafId; id !== null; ) {
      const entry = manager.getEntry(id);
      if (!entry) break;
      path.push(entry);
      id = entry.parentId;
    }
    return historyOf(path.reverse());
  }
};
function entriesOf(manager) {
  const held = manager.fileEntries;
  return Array.isArray(held) ? held : manager.getEntries();
}
function historyOf(entries, leafId = null) {
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
        const tokens = tokensOf(message.usage);
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
function subagentProcessStore(store, keep) {
  return {
    append: (record) => {
      if (record.kind === "subagent") keep(record);
      store.append(record);
    },
    history: () => store.history()
  };
}

// src/adapters/pi/ui-bridge.ts
var PiUIBridge = class {
  constructor(context, writeFallback) {
    this.context = context;
    this.writeFallback = writeFallback;
  }
  context;
  writeFallback;
  shownStatus;
  /** Notifications kept while recording (see `record`), to be shown again. */
  recorded = null;
  /** Notifications held back until `release` (see `hold`). */
  held = null;
  notify(message, level) {
    if (this.held) {
      this.held.push({ message, level });
      return;
    }
    this.recorded?.push({ message, level });
    const ctx = this.context.require();
    if (ctx.hasUI) ctx.ui.notify(message, level);
    else this.writeFallback(`[timebox] ${level}: ${message}`);
  }
  /** Runs `action` and returns the notifications it showed, so they can be shown again where pi hid them. */
  record(action) {
    this.recorded = [];
    try {
      action();
      return this.recorded;
    } finally {
      this.recorded = null;
    }
  }
  /**
   * Holds notifications back until `release`: pi shows the prompt a model call belongs to only after the call's
   * `context` hook, so a refusal said there would stand above the prompt it refuses.
   */
  hold() {
    this.held ??= [];
  }
  /** Shows what was held back, in order. */
  release() {
    const held = this.held ?? [];
    this.held = null;
    for (const notice of held) this.notify(notice.message, notice.level);
  }
  /** Sets the `timebox` footer status; an unchanged text is not sent again. */
  setStatus(text) {
    if (text === this.shownStatus) return;
    const ctx = this.context.require();
    if (ctx.hasUI) ctx.ui.setStatus(STATUS_KEY, text);
    this.shownStatus = text;
  }
};

// src/adapters/pi/wiring.ts
var PiWiring = class {
  constructor(pi, deps) {
    this.pi = pi;
    this.deps = deps;
    const context = this.context;
    this.ui = new PiUIBridge(context, deps.writeFallback);
    const self = identityOf(deps.env);
    this.self = self;
    this.ownAgentTag = self === null ? {} : { agent: self.agent };
    const piStore = new PiBudgetStore(pi, context);
    this.scheduler = liveOnlyScheduler(deps.scheduler, () => context.isLive());
    this.calls = new CallRequests(pi);
    const daily = deps.dailyLedger ? lazyDailyLedger(() => context.require().sessionManager.getSessionId(), deps.dailyLedger) : null;
    this.daily = daily;
    this.session = new LiveSession({
      store: self === null ? piStore : subagentProcessStore(piStore, (record) => {
        this.told.record = record;
      }),
      ledger: deps.ledger(),
      ui: sessionUI(this.ui, self, this.told),
      clock: deps.clock,
      scheduler: this.scheduler,
      ...daily === null ? {} : { daily },
      onStop: deps.onStop,
      agent: {
        abortCurrentTurn: () => context.require().abort(),
        appendSystemPrompt: (extra) => {
          this.systemPromptExtra += extra;
        }
      },
      transcript: piStore,
      // The session's stop reaches the subagents running in processes of their own through their files.
      stopSubagents: () => this.subagents.stopAll(),
      // The subagent this process runs (the one subagent its rules know) is stopped: its run ends, with no further
      // request.
      ...self === null ? {} : { stopAgent: () => context.require().abort() },
      newBudgetId: deps.newBudgetId,
      canAsk: () => context.require().hasUI,
      costReporting: () => costReportingOf(context.require().model),
      terms: piTerms(deps.globalSettings()),
      ...deps.reportPage === void 0 ? {} : { reportPage: writeWith(deps.reportPage, context) },
      ...deps.projectHistory === void 0 ? {} : { projectHistory: readWith(deps.projectHistory, context) },
      ask: async (question, choices, timeoutMs, signal) => {
        const options = { timeout: timeoutMs, signal };
        const chosen = await context.require().ui.select(question, [...choices], options);
        return chosen === void 0 ? void 0 : choices.indexOf(chosen);
      }
    });
  }
  pi;
  deps;
  context = new SessionContext();
  ui;
  /** The subagent this process runs, where its parent named one; null for a session of the user's own. */
  self;
  /** What a subagent's process tells its parent at its end: what the user was told, how it stood. */
  told = { lines: [], notices: [], record: null };
  /** The subagents this session's tool calls started, running in processes of their own. */
  subagents = new SubagentProcesses();
  scheduler;
  session;
  /** The pending second showing of what was restored; a shut-down instance shows nothing. */
  restoreNoticeAgain = null;
  /** What the rules add to the system prompt of the agent about to start (set in before_agent_start). */
  systemPromptExtra = "";
  /** The daily ledger the session shares with every session of the user, opened at the session's start; null: none. */
  daily;
  /** Each model call's size, and the cap the rules set on the answer of the call about to be sent. */
  calls;
  /** Whether this subagent's process has learned the session's stop (and told its rules). */
  stopLearned = false;
  /** The tag of the subagent this process runs, made once; empty for a session of the user's own. */
  ownAgentTag;
  /**
   * A subagent's process learns the session's stop from its parent before its model calls and tools: the rules' answer
   * to wait for, or null with nothing to learn (the usual case: the handler goes on at once, with no extra turn).
   */
  learnStop() {
    if (this.self === null || this.stopLearned || !sessionStopped(this.self)) return null;
    this.stopLearned = true;
    return this.session.handle({ type: "sessionStop" });
  }
  /** An event tagged with the subagent this process runs, if any (the user's own session's events go as they are). */
  ownAgent(event) {
    return this.self === null ? event : { ...event, ...this.ownAgentTag };
  }
};

// src/adapters/pi/extension.ts
function createTimeboxExtension(deps) {
  return (pi) => {
    const w = new PiWiring(pi, deps);
    pi.registerFlag(DEFAULT_FLAG, {
      type: "string",
      description: 'A budget for new sessions, e.g. --timebox "30m turns:10"'
    });
    registerSessionEvents(w);
    registerTurnEvents(w);
    registerModelEvents(w);
    registerToolEvents(w);
    pi.registerCommand(
      COMMAND_NAME,
      createTimeboxCommand((args, ctx) => {
        w.context.bind(ctx);
        return w.session.command(args);
      })
    );
  };
}

// src/adapters/team/open.ts
var import_node_os3 = require("node:os");

// src/adapters/node/daily-ledger.ts
var import_node_crypto2 = require("node:crypto");
var import_node_fs5 = require("node:fs");
var import_node_os2 = require("node:os");
var import_node_path4 = require("node:path");

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
function numberOr2(value) {
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
function fieldsOf3(value) {
  return typeof value === "object" && value !== null ? value : {};
}
function takeUse(cache, line) {
  const fields2 = fieldsOf3(line);
  if (typeof fields2.session === "string") cache.sessions.add(fields2.session);
  cache.agentMs += numberOr2(fields2.agentMs);
  cache.tokens += numberOr2(fields2.tokens);
  cache.cost += numberOr2(fields2.cost);
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
      const fields2 = fieldsOf3(line);
      const now = cache.adjustment;
      cache.adjustment = {
        addTimeMs: now.addTimeMs + numberOr2(fields2.addTimeMs),
        // The ledger's lines name added prompts `addTurns`, as every version writes and reads them.
        addPrompts: now.addPrompts + numberOr2(fields2.addTurns),
        addTokens: now.addTokens + numberOr2(fields2.addTokens),
        addCost: now.addCost + numberOr2(fields2.addCost),
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
var import_node_fs4 = require("node:fs");
var nodeAppendFiles = {
  openAppend: (path) => (0, import_node_fs4.openSync)(path, "a+"),
  size: (fd) => (0, import_node_fs4.fstatSync)(fd).size,
  byteAt(fd, position) {
    const byte = Buffer.alloc(1);
    (0, import_node_fs4.readSync)(fd, byte, 0, 1, position);
    return byte.toString("latin1");
  },
  write: (fd, text) => {
    (0, import_node_fs4.writeSync)(fd, text);
  },
  close: (fd) => (0, import_node_fs4.closeSync)(fd)
};
function appendLine(path, line, files = nodeAppendFiles) {
  let fd;
  try {
    fd = files.openAppend(path);
  } catch (error) {
    throw named2(path, error);
  }
  try {
    const before = files.size(fd);
    const torn = before > 0 && files.byteAt(fd, before - 1) !== "\n";
    files.write(fd, torn ? `
${line}` : line);
    return { before, after: files.size(fd) };
  } catch (error) {
    throw named2(path, error);
  } finally {
    files.close(fd);
  }
}
function named2(path, error) {
  const failed = error;
  if (failed.message.includes(path)) return failed;
  return Object.assign(new Error(`${failed.message} (${path})`), { code: failed.code });
}

// src/adapters/node/daily-ledger.ts
function dailyStateDir(env) {
  return (0, import_node_path4.join)(stateDirIn(env.XDG_STATE_HOME, env.HOME ?? (0, import_node_os2.homedir)()));
}
function scopeFolder(scope) {
  return scope === "user" ? "user" : `project-${(0, import_node_crypto2.createHash)("sha256").update(scope).digest("hex").slice(0, 16)}`;
}
var nodeDailyFiles = {
  join: import_node_path4.join,
  makeDir: (path) => {
    (0, import_node_fs5.mkdirSync)(path, { recursive: true });
  },
  list: (path) => (0, import_node_fs5.readdirSync)(path),
  remove: (path) => (0, import_node_fs5.rmSync)(path, { recursive: true, force: true }),
  exists: (path) => (0, import_node_fs5.statSync)(path, { throwIfNoEntry: false }) !== void 0,
  size: (path) => (0, import_node_fs5.statSync)(path, { throwIfNoEntry: false })?.size ?? 0,
  read(path, offset, length) {
    const fd = (0, import_node_fs5.openSync)(path, "r");
    try {
      const buffer = Buffer.alloc(length);
      const read = (0, import_node_fs5.readSync)(fd, buffer, 0, length, offset);
      return buffer.subarray(0, read).toString("utf8");
    } finally {
      (0, import_node_fs5.closeSync)(fd);
    }
  },
  byteLength: (text) => Buffer.byteLength(text, "utf8"),
  // A line torn by a process killed mid-write stays apart from the next (`append-line.ts`).
  append: (path, text) => appendLine(path, text),
  createExclusive(path, text) {
    try {
      (0, import_node_fs5.writeFileSync)(path, text, { flag: "wx" });
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
var import_node_fs6 = require("node:fs");
var import_node_url = require("node:url");
var import_node_worker_threads = require("node:worker_threads");

// src/adapters/team/scripts.ts
function dayKeys(team2, day) {
  const prefix = `timebox:{${team2}}:${day}:`;
  return [`${prefix}use`, `${prefix}sessions`, `${prefix}who`, `${prefix}res`, `${prefix}sent`, `${prefix}asks`];
}
function adminKeys(team2, day) {
  return { limits: `timebox:{${team2}}:limits`, raise: `timebox:{${team2}}:raise:${day}` };
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
  if (!(0, import_node_fs6.existsSync)(new URL(workerUrl))) throw new Error(`the store's client is missing (${(0, import_node_url.fileURLToPath)(workerUrl)})`);
  const buffer = new SharedArrayBuffer(8 + REPLY_BYTES);
  const flag = new Int32Array(buffer, 0, 2);
  const bytes = new Uint8Array(buffer, 8);
  const data = { url, connectMs, callMs, scripts: SCRIPTS, buffer };
  const worker = new import_node_worker_threads.Worker(new URL(workerUrl), { workerData: data });
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
  const team2 = pick(env[TEAM_ENV], settings.team);
  if (store === void 0 && team2 === void 0) return { config: null, warning: null };
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
  if (team2 === void 0) return fail(`${DAILY_STORE_ENV} is set without ${TEAM_ENV} (the team's name).`);
  if (!TEAM_NAME.test(team2))
    return fail(`${TEAM_ENV} "${team2.slice(0, 64)}" is not a team name (letters, digits, ".", "_", "-").`);
  const zone = env[TEAM_TZ_ENV]?.trim() || UTC;
  if (!knownZone(zone)) return fail(`${TEAM_TZ_ENV} "${zone.slice(0, 64)}" is not a time zone (Europe/Berlin, UTC).`);
  const failure = env[DAILY_STORE_FAILURE_ENV]?.trim().toLowerCase() === "closed" ? "closed" : "open";
  return { config: { url: store, shown, team: team2, zone, failure, member: member() }, warning: null };
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
  keptDays(count2) {
    return this.run(this.day.keptDays(count2));
  }
  problem() {
    return this.day.problem();
  }
};

// src/adapters/team/outbox.ts
var import_node_crypto3 = require("node:crypto");
var import_node_fs7 = require("node:fs");
var import_node_path5 = require("node:path");
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
function entriesOf2(text) {
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
function fileOutbox(folder, newId = import_node_crypto3.randomUUID) {
  const missing = (error) => error.code === "ENOENT";
  return {
    keep(use) {
      (0, import_node_fs7.mkdirSync)(folder, { recursive: true });
      appendLine((0, import_node_path5.join)(folder, UNSENT), `${JSON.stringify({ id: newId(), ...use })}
`);
    },
    waiting() {
      try {
        return (0, import_node_fs7.readdirSync)(folder).some((name) => name === UNSENT || SENDING.test(name));
      } catch {
        return false;
      }
    },
    take() {
      try {
        (0, import_node_fs7.renameSync)((0, import_node_path5.join)(folder, UNSENT), (0, import_node_path5.join)(folder, `sending-${Date.now()}-${newId()}.jsonl`));
      } catch {
      }
      const names = (0, import_node_fs7.readdirSync)(folder).filter((name) => SENDING.test(name)).sort();
      const batches = [];
      for (const name of names) {
        const path = (0, import_node_path5.join)(folder, name);
        let text;
        try {
          text = (0, import_node_fs7.readFileSync)(path, "utf8");
        } catch (error) {
          if (missing(error)) continue;
          throw error;
        }
        const read = Buffer.byteLength(text);
        const sent = () => {
          if (sizeOf(path) <= read) (0, import_node_fs7.rmSync)(path, { force: true });
        };
        batches.push({ entries: entriesOf2(text), sent });
      }
      return batches;
    }
  };
}
function sizeOf(path) {
  try {
    return (0, import_node_fs7.statSync)(path).size;
  } catch {
    return 0;
  }
}
function outboxFolder(stateDir, team2) {
  return (0, import_node_path5.join)(stateDir, "team", `team-${team2}`);
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
function amount2(text) {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
function limit(text) {
  const value = amount2(text);
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
  return { limits, setBy: hash.get("by") ?? "someone", setAt: amount2(hash.get("at")) };
}
function adjustmentOf(hash) {
  return {
    addTimeMs: amount2(hash.get("addTimeMs")),
    addPrompts: amount2(hash.get("addPrompts")),
    addTokens: amount2(hash.get("addTokens")),
    addCost: amount2(hash.get("addCost")),
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
    at: amount2(ask.at)
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
  const members = [...fields(whoFields)].map(([name, count2]) => ({ name, sessions: amount2(count2) }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  return {
    use: {
      agentMs: amount2(use.get("agentMs")),
      prompts: amount2(use.get("prompts")),
      // The model calls other sessions are making count as what they reserved, until their answers settle them.
      tokens: amount2(use.get("tokens")) + amount2(reservedTokens),
      cost: amount2(use.get("cost")) + amount2(reservedCost),
      sessions: amount2(sessions),
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
function written2(calls, reply) {
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
  return written2(calls, yield* calls.send("limits", [adminKeys(calls.config.team, calls.day.day).limits], args));
}
function* raiseDay(calls, adjustment) {
  const view = yield* viewTeam(calls);
  const answered2 = "unreadable" in view ? [] : requestsAnswered(view.asks, adjustment);
  const { day, expiry } = calls.day;
  const { addTimeMs, addPrompts, addTokens, addCost, off } = adjustment;
  const keys = [adminKeys(calls.config.team, day).raise, dayKeys(calls.config.team, day)[5]];
  const args = [...common(calls, expiry), addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0, ...answered2];
  return written2(calls, yield* calls.send("raise", keys, args));
}
function* addToDay(calls, adjustment) {
  const { day, expiry } = calls.day;
  const { addTimeMs, addPrompts, addTokens, addCost, off } = adjustment;
  const args = [...common(calls, expiry), addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0];
  const reply = yield* calls.send("adjust", dayKeys(calls.config.team, day), args);
  if (!reply.ok && storeAnswer(reply.error) === null) return void 0;
  return written2(calls, reply);
}
function* askMore(calls, adjustment, why) {
  const { day, expiry } = calls.day;
  const id = `${calls.now}-${calls.sessionId}`;
  const text = askText(calls.config.member, adjustment, why, calls.now);
  const args = [...common(calls, expiry), id, text, TEAM_ASKS_KEPT];
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
  const team2 = teamOf(config);
  return budgets.map((budget) => ({ ...budget, team: team2 }));
}
function dayRowOf(day, reply) {
  const [useFields, , , reservedTokens, reservedCost] = listReply(reply);
  const use = fields(useFields);
  return {
    day,
    agentMs: amount2(use.get("agentMs")),
    prompts: amount2(use.get("prompts")),
    tokens: amount2(use.get("tokens")) + amount2(reservedTokens),
    cost: amount2(use.get("cost")) + amount2(reservedCost)
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
    if (local.length > 0) return local.map((standing2) => ({ ...standing2, closed }));
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
  *keptDays(count2) {
    const days = [];
    let day = teamDay(this.clock.now(), this.config.zone);
    for (let kept2 = 0; kept2 < Math.min(count2, TEAM_DAYS_KEPT); kept2++) {
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
  return `${(0, import_node_os3.userInfo)().username}@${(0, import_node_os3.hostname)()} (${host})`;
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
function openDailyLedger(options) {
  const { local, team: team2 } = opening(options);
  if (team2 === null) return local;
  const open = () => openSyncStore(team2.config.url, storeWorkerLocation(options.entry), TEAM_CONNECT_MS, TEAM_CALL_MS);
  return new TeamLedger(team2.day, open);
}

// src/entries/report/writer.ts
function nodeReportPageWriter(env, clock, load2) {
  return async (input, { id, host, project = null }) => {
    const { writeHostPage } = await load2();
    return writeHostPage(input, { env, now: clock.now(), session: { id, host }, project });
  };
}
function nodeProjectHistory(env, load2) {
  return async (project, current) => {
    const { pastSessionsOf } = await load2();
    return pastSessionsOf(env)(project, current);
  };
}

// src/entries/pi/timebox/extension.ts
function timeboxExtension(entry) {
  const settings = () => (0, import_node_path6.join)(entry.agentDir(), "settings.json");
  return createTimeboxExtension({
    clock: systemClock,
    scheduler: nodeScheduler,
    onStop: createShellStarter(),
    writeFallback: (line) => process.stderr.write(`${line}
`),
    ledger: () => createFileLedger((0, import_node_path6.join)(entry.agentDir(), LEDGER_FOLDER)),
    newBudgetId: import_node_crypto4.randomUUID,
    env: process.env,
    globalSettings: settings,
    dailyLedger: (sessionId) => openDailyLedger({
      env: process.env,
      sessionId,
      clock: systemClock,
      host: "pi",
      settings: readTeamSettings(settings()),
      entry: entry.url
    }),
    reportPage: nodeReportPageWriter(process.env, systemClock, entry.importReport),
    projectHistory: nodeProjectHistory(process.env, entry.importReport)
  });
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  timeboxExtension
});
