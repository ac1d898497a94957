// Timebox's hook script for Claude Code, Gemini CLI and Codex CLI, bundled from src/entries/hooks.ts by npm run build. Do not edit.
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// lazy-builtin:node:child_process
import { createRequire } from "node:module";
var loaded;
var load = () => loaded ??= process.getBuiltinModule?.("node:child_process") ?? createRequire(import.meta.url)("node:child_process");
function spawn(...args) {
  return load().spawn(...args);
}
function spawnSync(...args) {
  return load().spawnSync(...args);
}

// src/entries/hooks.ts
import { readFileSync as readFileSync6, writeSync as writeSync3 } from "node:fs";

// src/adapters/claude/hook-host.ts
import { join as join2 } from "node:path";

// src/adapters/hooks/roles.ts
function silentReply() {
  return { notices: [], context: [], refusal: null, stop: false, answered: false };
}
function readHookEvent({ event, sessionId, fields: fields2 }, dialect) {
  const prompt2 = typeof fields2.prompt === "string" ? fields2.prompt : null;
  const subagents = dialect.subagents;
  const tool = textField(fields2, "tool_name");
  const input = fields2.tool_input;
  return {
    role: dialect.roles[event] ?? null,
    hostEvent: event,
    sessionId,
    promptId: dialect.promptId(fields2),
    prompt: prompt2,
    command: commandWords(prompt2, dialect.command),
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
function commandWords(prompt2, forms) {
  if (prompt2 === null) return null;
  const match = forms.exec(prompt2.trim());
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
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

// src/core/constants.ts
var NUDGE_WARNING_RATIO = 0.8;
var NUDGE_CRITICAL_RATIO = 0.95;
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
var DEFAULT_ENV = "TIMEBOX_DEFAULT";
var DAILY_ENV = "TIMEBOX_DAILY";
var SUBAGENTS_ENV = "TIMEBOX_SUBAGENTS";
var SUBAGENTS_WORD = "subagents";
var ANY_AGENT_TYPE = "*";
var SUBAGENT_GRACE_MS = 3e4;
var SUBAGENT_TASK_WORDS = 6;
var SUBAGENT_CALLS_AFTER_SPENT = 2;
var DAILY_STORE_ENV = "TIMEBOX_DAILY_STORE";
var TEAM_ENV = "TIMEBOX_TEAM";
var TEAM_TZ_ENV = "TIMEBOX_TEAM_TZ";
var DAILY_STORE_FAILURE_ENV = "TIMEBOX_DAILY_STORE_FAILURE";
var TEAM_CONNECT_MS = 1e3;
var TEAM_CALL_MS = 2e3;
var TEAM_FIRST_CALL_MS = 3e4;
var TEAM_WAIT_MS = 1e4;
var TEAM_HOP_FRESH_MS = 2e3;
var TEAM_RETRY_MS = 5e3;
var TEAM_RESERVATION_MS = 10 * 6e4;
var TEAM_KEYS_OUTLIVE_S = 24 * 3600;
var TEAM_DAYS_KEPT = 2;
var TEAM_SCOPE = "team";
var TEAM_ASKS_KEPT = 100;
var TEAM_ASK_WHY_CHARS = 200;
var LOG_FOLD_KEEP_BYTES = 16384;
var LOG_FOLD_VERSION = 2;
var LOG_FOLD_CHECK_BYTES = 256;

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
function quoteInput(text3) {
  const chars = Array.from(text3);
  const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}\u2026` : text3;
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
function withNotes(command3, notes) {
  return notes.length > 0 ? { ...command3, notes: [...notes] } : command3;
}
function extensionWords(tokens) {
  const [first, ...rest] = tokens;
  if (first !== void 0 && EXTEND_WORDS.includes(first.toLowerCase())) return rest;
  if (tokens.length > 0 && tokens.every((token) => token.startsWith("+"))) return tokens.map((token) => token.slice(1));
  return null;
}
function parseCommand(input) {
  const text3 = typeof input === "string" ? input : "";
  const trimmed2 = text3.trim();
  const bare = SUB_COMMANDS.get(trimmed2.toLowerCase());
  if (bare !== void 0) return { kind: bare };
  const today2 = TODAY_COMMAND.exec(trimmed2);
  if (today2) return { kind: "today", words: today2[1] ?? "" };
  const team2 = TEAM_COMMAND.exec(trimmed2);
  if (team2) return { kind: "team", words: team2[1] ?? "" };
  if (REPORT_PAGE_COMMAND.test(trimmed2)) return { kind: "reportPage" };
  const subagents = SUBAGENTS_COMMAND.exec(trimmed2);
  if (subagents) return subagentsCommand((subagents[1] ?? "").trim());
  const delimiter = STOP_COMMAND_DELIMITER.exec(text3);
  const budgetText = delimiter ? text3.slice(0, delimiter.index) : text3;
  const stopCommand = delimiter ? text3.slice(delimiter.index + delimiter[0].length).trim() : "";
  const tokens = joinSplitTokens(budgetText).split(/\s+/).filter((token) => token.length > 0);
  const first = SUB_COMMANDS.get(tokens[0]?.toLowerCase() ?? "");
  if ((first === "off" || first === "status") && (tokens.length > 1 || delimiter)) {
    return { kind: first, ignored: text3.trim().replace(/^\S+\s*/, "") };
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
function parseTaskBudget(text3) {
  if (STOP_COMMAND_DELIMITER.test(text3)) {
    return { invalid: "A subagent budget runs no on-stop command: the session's runs when the session stops." };
  }
  const tokens = joinSplitTokens(text3).split(/\s+/).filter((token) => token.length > 0);
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
function safeAmount(amount2) {
  return Number.isFinite(amount2) ? Math.max(0, amount2) : 0;
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
function parseDailyBudget(text3, scope, source) {
  const value = typeof text3 === "string" ? text3 : JSON.stringify(text3);
  const command3 = parseCommand(value);
  if (command3.kind !== "set") {
    const why = command3.kind === "invalid" ? command3.reason : `${quoteInput(value)} is not a budget.`;
    return { warning: `Timebox: ${source}: ${why} No daily budget is enforced from it.` };
  }
  if (command3.stepLimit !== void 0 || command3.loopLimit !== void 0 || command3.awareness !== void 0 || command3.graceMs !== void 0 || command3.onStopCommand) {
    return {
      warning: `Timebox: ${source}: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.`
    };
  }
  return {
    scope,
    source,
    limits: {
      timeMs: command3.timeLimitMs,
      turns: command3.turnLimit,
      tokens: command3.tokenLimit ?? null,
      cost: command3.costLimit ?? null
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
function ordinal(count4) {
  const tens = count4 % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : count4 % 10 === 1 ? "st" : count4 % 10 === 2 ? "nd" : count4 % 10 === 3 ? "rd" : "th";
  return `${count4}${suffix}`;
}
function named(tool, view) {
  return view.length > 0 ? `${tool} (${view})` : tool;
}
function loopRefusal(tool, view, count4, scope = "run") {
  const shown = view.length > 0 ? ` (${view})` : "";
  return `Timebox: this is the ${ordinal(count4)} identical ${tool} call in this ${scope}${shown}; its result will not change. Change your approach or finish with what you have.`;
}
function loopRefusedMessage(tool, view, count4) {
  return `Timebox refused a repeated call: ${named(tool, view)}, the ${ordinal(count4)} identical one in this run.`;
}
function subagentLoopRefusedMessage(agent, tool, view, count4) {
  return `Timebox refused a repeated call of ${agent}: ${named(tool, view)}, the ${ordinal(count4)} identical one in its task.`;
}
function loopStoppedMessage(tool, view, count4) {
  return `Timebox stopped a loop: ${named(tool, view)} asked for ${count4} times in this run.`;
}
var FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";
function loopStopRefusal(tool, view, count4) {
  return `${loopStoppedMessage(tool, view, count4)} ${FINISH_NOW}`;
}
var LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;
function subagentLoopRefusal(tool, view, count4) {
  return `Timebox stopped a loop: ${named(tool, view)} asked for ${count4} times in this task. Write your final answer now, with what you found and what is left undone. Call no more tools.`;
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
  const amount2 = safeAmount(dollars);
  if (amount2 >= 1) return `$${amount2.toFixed(2)}`;
  return `$${amount2.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
function pluralTurns(count4) {
  return `${count4} ${count4 === 1 ? "turn" : "turns"}`;
}
function formatBudgetLabel(ms) {
  if (ms === lastLabel.ms) return lastLabel.text;
  const text3 = budgetLabel(ms);
  lastLabel = { ms, text: text3 };
  return text3;
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
  const text3 = `${timePart} | ${turnPart}`;
  return timeAndTurnsOnly ? text3 : [text3, ...spendParts(budget, spend, steps)].join(" | ");
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
  const text3 = `Timebox: ${paused}${formatRemaining(budget, now, usedTurns, spend, steps)}`;
  lastStatus = {
    budget,
    secondsLeft,
    usedTurns,
    tokens: spend.tokens,
    cost: spend.cost,
    stepsUsed: steps?.used,
    stepsAllowed: steps?.allowed,
    text: text3
  };
  return text3;
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
function pluralPrompts(count4) {
  return `${count4} ${count4 === 1 ? "prompt" : "prompts"}`;
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
function inHostTerms(text3, terms) {
  let shown = terms.command === WRITTEN_COMMAND ? text3 : text3.replace(NAMED_COMMAND, `$1${terms.command}`);
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
function capitalize(text3) {
  return `${text3.charAt(0).toUpperCase()}${text3.slice(1)}`;
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
function ignoredWordsNote(command3, ignored) {
  return `Ignored what followed ${command3}: ${quoteInput(ignored)}.`;
}
var UNUSABLE_RECORD = "Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.";
function onStopNote(command3) {
  return command3 === null ? "" : ` On stop it runs: ${command3}`;
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
function onStopStartedMessage(command3) {
  return `Timebox ran the on-stop command: ${command3}`;
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
  const command3 = budget.onStopCommand === null || startsLate ? "" : ` Its on-stop command is not run on restore: ${budget.onStopCommand}`;
  return `Timebox budget of this session was already spent (${why}), so it was not restored.${command3}`;
}
function internalErrorMessage(where, error) {
  const message = error instanceof Error ? error.message : String(error);
  return `Timebox hit an internal error (${where}): ${message}. Your session goes on; check the budget with /timebox status.`;
}
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
function teamWriteRefusal(write5, asking) {
  if (write5 === "done") return null;
  if (write5 === "refused") return asking ? ASK_REFUSED : ADMIN_ONLY;
  return write5.failed;
}
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
function teamAsksFull(count4) {
  return `Timebox: the team's day holds ${count4} open requests already, so this one was not recorded. Ask the admin directly.`;
}

// src/core/daily/today-command.ts
function parseToday(words) {
  const text3 = words.trim();
  if (text3.length === 0) return { kind: "show" };
  if (text3.toLowerCase() === "off") return { kind: "off" };
  const command3 = parseCommand(text3);
  if (command3.kind !== "extend") {
    return { kind: "invalid", reason: "After /timebox today: nothing, off, or what to add (+30m, +turns:5, +$2)." };
  }
  const adjustment = {
    addTimeMs: command3.addTimeMs ?? 0,
    addPrompts: command3.addTurns ?? 0,
    addTokens: command3.addTokens ?? 0,
    addCost: command3.addCost ?? 0,
    off: false
  };
  const added = describeDaily({
    timeMs: command3.addTimeMs,
    turns: command3.addTurns,
    tokens: command3.addTokens ?? null,
    cost: command3.addCost ?? null
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
  const command3 = parseToday(words);
  if (command3.kind === "invalid")
    return { message: `Timebox: ${command3.reason} Nothing changed.`, level: "warning", effects: [] };
  if (standings.length === 0 || command3.kind === "show")
    return { message: todayReport(standings), level: "info", effects: [] };
  const budgets = standings.map((standing2) => standing2.budget);
  const change = (adjustment, message) => ({
    message: null,
    level: "info",
    effects: [{ kind: "adjustDaily", adjustment, budgets, done: [{ kind: "notify", message, level: "info" }] }]
  });
  if (command3.kind === "off") {
    return change(
      { ...NO_ADJUSTMENT, off: true },
      "Timebox: today's budget is off until midnight, in every session it covers."
    );
  }
  return change(
    command3.adjustment,
    `Timebox: today's budget raised by ${command3.added} for the rest of the day.
${todayReport(adjusted(standings, command3.adjustment))}`
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
function parseLimits(text3) {
  const tokens = joinSplitTokens(text3).split(/\s+/).filter((token) => token.length > 0);
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
function parseAsk(text3) {
  const tokens = text3.split(/\s+/).filter((token) => token.length > 0);
  const count4 = tokens.findIndex((token) => !token.startsWith("+"));
  const amount2 = (count4 < 0 ? tokens : tokens.slice(0, count4)).join(" ");
  const asked = amount2 === "" ? null : parseToday(amount2);
  if (asked === null || asked.kind !== "add") {
    const why2 = asked?.kind === "invalid" ? `${quoteInput(amount2)} is not an amount to add: ` : "";
    return { kind: "invalid", reason: `${why2}team ask takes what to add first (+30m, +turns:20, +$5), then why.` };
  }
  const why = Array.from(count4 < 0 ? "" : tokens.slice(count4).join(" ")).slice(0, TEAM_ASK_WHY_CHARS).join("");
  return { kind: "ask", adjustment: asked.adjustment, grant: amount2, why };
}
function parseTeam(words) {
  const text3 = words.trim();
  if (text3 === "") return { kind: "show" };
  const [first = "", ...rest] = text3.split(/\s+/);
  const after = rest.join(" ");
  if (first.toLowerCase() === "set") return parseLimits(after);
  if (first.toLowerCase() === "ask") return parseAsk(after);
  return { kind: "invalid", reason: TEAM_USAGE };
}
function teamCommand(team2, words, reads) {
  if (team2 === void 0) return { message: NO_TEAM, level: "info", effects: [] };
  if ("unusable" in team2) return { message: team2.unusable, level: "warning", effects: [] };
  const command3 = parseTeam(words);
  const notify2 = (message) => [{ kind: "notify", message, level: "info" }];
  switch (command3.kind) {
    case "invalid":
      return { message: `Timebox: ${command3.reason} Nothing changed.`, level: "warning", effects: [] };
    case "show": {
      const view = reads.view();
      if ("unreadable" in view) return { message: view.unreadable, level: "warning", effects: [] };
      return { message: teamReport(team2, view, reads.standings()), level: "info", effects: [] };
    }
    case "set":
      return {
        message: null,
        level: "info",
        effects: [{ kind: "setTeamLimits", limits: command3.limits, done: notify2(teamLimitsSet(team2, command3)) }]
      };
    case "unset":
      return {
        message: null,
        level: "info",
        effects: [{ kind: "setTeamLimits", limits: null, done: notify2(teamLimitsRemoved(team2)) }]
      };
    case "ask": {
      const { adjustment, why, grant } = command3;
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
function promptTakenMessage(standings) {
  const spent = promptLimitMet(standings);
  return spent ? dailySpentMessage(spent) : null;
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
      const write5 = event.used ? [
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
        return { ...none, session: resumed, effects: [...write5, ...quiet] };
      }
      if (spent) return { ...none, session: { ...resumed, stopped: true }, effects: [...write5, ...refusal(spent)] };
      const warned = dailyWarnings(withRun2, session.given);
      return {
        session: { ...resumed, given: warned.given },
        effects: [...write5, ...warned.effects, ...event.modelCall ? [reserve(standings)] : []],
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

// src/core/model/id-text.ts
var END = "\n";
var PART = "	";
function textId(id) {
  return typeof id === "string" && !id.includes(END);
}
function idIndex(text3, id) {
  if (!textId(id)) return -1;
  if (text3.startsWith(`${id}${END}`)) return 0;
  const at = text3.indexOf(`${END}${id}${END}`);
  return at < 0 ? -1 : at + 1;
}
function idCount(text3, end = text3.length) {
  let count4 = 0;
  for (let at = text3.indexOf(END); at >= 0 && at < end; at = text3.indexOf(END, at + 1)) count4++;
  return count4;
}
var IdSet = class _IdSet {
  /** The ids read back, each followed by a line break, and those holding one. */
  text;
  odd;
  /** The ids added since. */
  added;
  constructor(text3 = "", odd = [], added = []) {
    this.text = text3;
    this.odd = new Set(odd);
    this.added = new Set(added);
  }
  has(id) {
    if (this.added.has(id)) return true;
    return textId(id) ? idIndex(this.text, id) >= 0 : this.odd.has(id);
  }
  add(id) {
    if (!this.has(id)) this.added.add(id);
    return this;
  }
  /** A copy that what is added to this one later leaves alone. */
  copy() {
    return new _IdSet(this.text, this.odd, this.added);
  }
  /** Every id, in the order added. */
  *[Symbol.iterator]() {
    const { text: text3 } = this;
    for (let from = 0; from < text3.length; ) {
      const end = text3.indexOf(END, from);
      yield text3.slice(from, end);
      from = end + 1;
    }
    yield* this.odd;
    yield* this.added;
  }
  toJSON() {
    let text3 = this.text;
    const odd = [...this.odd];
    for (const id of this.added) {
      if (id.includes(END)) odd.push(id);
      else text3 += `${id}${END}`;
    }
    return { text: text3, odd };
  }
  /** A set from its JSON, or null for anything that is not one. */
  static fromJSON(value) {
    if (typeof value !== "object" || value === null) return null;
    const { text: text3, odd } = value;
    if (typeof text3 !== "string" || text3.length > 0 && !text3.endsWith(END)) return null;
    if (!Array.isArray(odd) || !odd.every((id) => typeof id === "string" && id.includes(END))) return null;
    return new _IdSet(text3, odd);
  }
};
var IdCounts = class _IdCounts {
  /** The counts read back, one line each, and those whose id holds a line break or a tab, by id. */
  text;
  odd;
  /** The counts set since, by id. */
  added;
  constructor(text3 = "", odd = [], added = []) {
    this.text = text3;
    this.odd = new Map(odd);
    this.added = new Map(added);
  }
  get(id) {
    const set = this.added.get(id);
    if (set !== void 0) return set;
    if (!plain(id)) return this.odd.get(id);
    const line = this.lineOf(id);
    if (line < 0) return void 0;
    const from = line + id.length + 1;
    return Number(this.text.slice(from, this.text.indexOf(END, from)));
  }
  set(id, count4) {
    if (plain(id)) this.added.set(id, count4);
    else this.odd.set(id, count4);
    return this;
  }
  copy() {
    return new _IdCounts(this.text, this.odd, this.added);
  }
  /** Every id and its count, in the order first counted. */
  *[Symbol.iterator]() {
    const { text: text3 } = this;
    for (let from = 0; from < text3.length; ) {
      const part = text3.indexOf(PART, from);
      const end = text3.indexOf(END, part);
      const id = text3.slice(from, part);
      yield [id, this.added.get(id) ?? Number(text3.slice(part + 1, end))];
      from = end + 1;
    }
    yield* this.odd;
    for (const entry of this.added) if (this.lineOf(entry[0]) < 0) yield entry;
  }
  toJSON() {
    let text3 = "";
    const odd = [];
    for (const [id, count4] of this) {
      if (plain(id)) text3 += `${id}${PART}${count4}${END}`;
      else odd.push(id, count4);
    }
    return { text: text3, odd };
  }
  /** Counts from their JSON, or null for anything that is not one. */
  static fromJSON(value) {
    if (typeof value !== "object" || value === null) return null;
    const { text: text3, odd } = value;
    if (typeof text3 !== "string" || !COUNTS_TEXT.test(text3)) return null;
    if (!Array.isArray(odd) || odd.length % 2 !== 0) return null;
    const pairs = [];
    for (let index = 0; index < odd.length; index += 2) {
      const id = odd[index];
      const count4 = odd[index + 1];
      if (typeof id !== "string" || plain(id) || typeof count4 !== "number" || !Number.isFinite(count4)) return null;
      pairs.push([id, count4]);
    }
    return new _IdCounts(text3, pairs);
  }
  /** Where the line of `id` begins in the text read back, or -1 where it holds none. */
  lineOf(id) {
    if (this.text.startsWith(`${id}${PART}`)) return 0;
    const at = this.text.indexOf(`${END}${id}${PART}`);
    return at < 0 ? -1 : at + 1;
  }
};
var COUNTS_TEXT = /^(?:[^\t\n]*\t(?:0|[1-9]\d*)\n)*$/;
function plain(id) {
  return !id.includes(END) && !id.includes(PART);
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
function compactKept(kept2, recordAt) {
  const out = [];
  const seen = /* @__PURE__ */ new Set();
  let ids = "";
  let times = [];
  const end = () => {
    if (times.length === 1) out.push([ids.slice(0, -1), times[0]]);
    else if (times.length > 1) out.push({ kind: "prompts", ids, at: times });
    ids = "";
    times = [];
  };
  let recordFound = -1;
  for (let index = 0; index < kept2.length; index++) {
    const line = kept2[index];
    if (line.kind === "prompts") {
      for (const id of idsNewestFirst(line.ids)) seen.add(id);
      ids += line.ids;
      times = times.concat(line.at);
      continue;
    }
    if (line.kind === "prompt") {
      const joins = line.cwd === void 0 && textId(line.promptId) && !seen.has(line.promptId);
      seen.add(line.promptId);
      if (joins) {
        ids += `${line.promptId}
`;
        times.push(line.at);
        continue;
      }
    }
    end();
    if (index === recordAt) recordFound = out.length;
    out.push(line.kind === "prompt" && line.cwd === void 0 ? [line.promptId, line.at] : line);
  }
  end();
  return { kept: out, recordAt: recordFound };
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
  for (const [agentType, text3] of Object.entries(value)) {
    if (typeof text3 !== "string") return void 0;
    words[agentType] = text3;
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
var ADDED_UP = /* @__PURE__ */ new Set(["call", "usage", "ended", "transcript"]);
function emptyLogFold() {
  return {
    kept: [],
    lines: 0,
    calls: new IdCounts(),
    ended: new IdSet(),
    responses: new IdSet(),
    offset: 0,
    usagePrompt: null,
    recordAt: -1,
    spend: []
  };
}
function foldLine(fold, line) {
  fold.lines++;
  switch (line.kind) {
    case "call":
      fold.calls.set(line.promptId, (fold.calls.get(line.promptId) ?? 0) + 1);
      return;
    case "ended":
      fold.ended.add(line.promptId);
      return;
    case "transcript":
      fold.offset = Math.max(fold.offset, line.offset);
      return;
    case "usage":
      if (line.offset !== void 0) fold.offset = Math.max(fold.offset, line.offset);
      if (line.prompt !== void 0) fold.usagePrompt = line.prompt;
      if (fold.responses.has(line.responseId)) return;
      fold.responses.add(line.responseId);
      if (fold.recordAt >= 0) fold.spend.push(line.tokens, line.cost ?? 0);
      return;
    default:
      fold.kept.push(line);
      if (isRecordLine(line) && !isSubagentRecord(line) && parseRecord(line) !== null) {
        fold.recordAt = fold.kept.length - 1;
        fold.spend = [];
      }
  }
}
function isRecordLine(line) {
  return line.kind === "active" || line.kind === "off" || line.kind === "subagents" || line.kind === "subagent";
}
function copyLogFold(fold) {
  return {
    ...fold,
    kept: fold.kept.slice(),
    calls: fold.calls.copy(),
    ended: fold.ended.copy(),
    responses: fold.responses.copy(),
    spend: fold.spend.slice()
  };
}
function historyOfFold(fold) {
  const items = [];
  for (let index = 0; index < fold.kept.length; index++) {
    const line = fold.kept[index];
    if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId });
    else if (line.kind === "prompts") items.push({ kind: "prompts", keys: line.ids, count: line.at.length });
    else if (line.kind === "prompt-dropped") dropPromptItem(items, line.promptId);
    else if (isRecordLine(line)) items.push({ kind: "record", record: line });
    if (index === fold.recordAt && fold.spend.length > 0) items.push({ kind: "spend", amounts: fold.spend });
  }
  return items;
}
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
function stepOfFold(fold, promptId) {
  return 1 + (fold.calls.get(promptId) ?? 0);
}
function serialiseLogFold(fold) {
  const { kept: kept2, recordAt } = compactKept(fold.kept, fold.recordAt);
  return {
    kept: kept2,
    lines: fold.lines,
    calls: fold.calls.toJSON(),
    ended: fold.ended.toJSON(),
    responses: fold.responses.toJSON(),
    offset: fold.offset,
    usagePrompt: fold.usagePrompt,
    recordAt,
    spend: fold.spend
  };
}
var count = (value) => typeof value === "number" && Number.isFinite(value);
var text = (value) => typeof value === "string";
var list = (value) => Array.isArray(value);
function restoreLogFold(value, readLine) {
  if (typeof value !== "object" || value === null) return null;
  const json = value;
  const { lines, offset, usagePrompt, recordAt, spend } = json;
  const kept2 = keptLines(json.kept, readLine);
  if (kept2 === null || !count(lines) || !count(offset) || !count(recordAt)) return null;
  if (recordAt < -1 || recordAt >= kept2.length || !Number.isInteger(recordAt)) return null;
  if (!list(spend) || spend.length % 2 !== 0 || !spend.every(count)) return null;
  if (usagePrompt !== null && !isPrompt(usagePrompt)) return null;
  const calls = IdCounts.fromJSON(json.calls);
  const ended = IdSet.fromJSON(json.ended);
  const responses = IdSet.fromJSON(json.responses);
  if (calls === null || ended === null || responses === null) return null;
  return {
    kept: kept2,
    lines,
    calls,
    ended,
    responses,
    offset,
    usagePrompt,
    recordAt,
    spend
  };
}
function keptLines(value, readLine) {
  if (!list(value)) return null;
  const lines = new Array(value.length);
  for (let index = 0; index < value.length; index++) {
    const item = value[index];
    if (list(item)) {
      const promptId = item[0];
      const at = item[1];
      if (item.length !== 2 || !text(promptId) || !count(at)) return null;
      lines[index] = { kind: "prompt", promptId, at };
    } else if (isRun(item)) lines[index] = item;
    else if (!isLine(item)) return null;
    else {
      const line = readLine ? readLine(item) : item;
      if (line === null || ADDED_UP.has(line.kind)) return null;
      lines[index] = line;
    }
  }
  return lines;
}
function isRun(value) {
  if (typeof value !== "object" || value === null) return false;
  const { kind, ids, at } = value;
  if (kind !== "prompts") return false;
  if (!text(ids) || !ids.endsWith("\n") || !list(at) || at.length < 2 || !at.every(count)) return false;
  return idCount(ids) === at.length;
}
function isLine(value) {
  if (typeof value !== "object" || value === null) return false;
  const kind = value.kind;
  return text(kind) && !ADDED_UP.has(kind) && kind !== "prompts";
}
function isPrompt(value) {
  if (typeof value !== "object" || value === null) return false;
  const { input, from } = value;
  return count(input) && count(from);
}

// src/core/persist.ts
function restoreBudget(budget, now, usedTurns, spend, nudged) {
  if (budget.timeLimitMs !== null && elapsedMs(budget, now) >= budget.timeLimitMs) return { status: "expired" };
  const softNudgeSent = nudged || worstRatio(budget, now, usedTurns, spend) >= NUDGE_WARNING_RATIO;
  return { status: "restored", budget: { ...budget, softNudgeSent, active: true } };
}
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
      const write5 = ports.daily?.ledger.setTeamLimits?.(effect.limits) ?? NO_TEAM_STORE;
      if (!refusedWrite(write5, false, answer)) carryOut(effect.done, ports, answer, onStopReport2);
      return;
    }
    case "askTeam": {
      const write5 = ports.daily?.ledger.askTeam?.(effect.adjustment, effect.why) ?? NO_TEAM_STORE;
      if (!refusedWrite(write5, true, answer)) carryOut(effect.done, ports, answer, onStopReport2);
      return;
    }
    case "startOnStop": {
      const command3 = effect.command;
      const report = (outcome) => onStopReport2(command3, outcome);
      try {
        const mark = startMark(effect, ports);
        if (mark === void 0) ports.onStop.start(command3, report);
        else ports.onStop.start(command3, report, { mark });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        onStopReport2(command3, { kind: "failed", problem: `could not start ${quoteInput(command3)}: ${reason}` });
      }
      return;
    }
  }
}
var NO_TEAM_STORE = { failed: NO_TEAM };
function refusedWrite(write5, asking, answer) {
  const refusal2 = write5 === void 0 ? null : teamWriteRefusal(write5, asking);
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
function dailyCommandAnswer(command3, ports, terms = DEFAULT_TERMS) {
  const answer = noAnswer();
  try {
    const reply = command3.kind === "today" ? today(ports.daily, command3.words, terms) : team(ports.daily, command3.words);
    carryOut(reply.effects, ports, answer, nothing);
    if (reply.message !== null) answer.notices.push({ message: reply.message, level: reply.level });
  } catch (error) {
    ports.problem(`/timebox ${command3.kind}`, error);
  }
  for (const notice of answer.notices) notice.message = inHostTerms(notice.message, terms);
  return answer;
}
function dailyCommandPorts(daily, problem) {
  return {
    daily,
    store: { append: nothing },
    ledger: { claim: () => true },
    setStatus: nothing,
    onStop: { start: nothing },
    abortRun: nothing,
    problem
  };
}

// src/core/session/caps.ts
var PER_MILLION = 1e6;
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
function pluralCalls(count4) {
  return `${count4} model ${count4 === 1 ? "call" : "calls"}`;
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
var NO_SUGGESTION = "Timebox: past sessions cannot be read from here. From a checkout of Timebox: npm run report -- --suggest.";
function suggestionUnreadable(problem) {
  return `Timebox: your past sessions could not be read (${problem}).`;
}
function suggestReply(outcome) {
  if (outcome === void 0) return { message: NO_SUGGESTION, level: "info" };
  if ("problem" in outcome) return { message: suggestionUnreadable(outcome.problem), level: "warning" };
  return { message: suggestionText(outcome.suggestion), level: "info" };
}
function isSuggestedDefault(text3) {
  return text3.trim().toLowerCase() === SUGGESTED_DEFAULT;
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
function planCommand(command3, view) {
  switch (command3.kind) {
    case "invalid":
      return { change: "none", reply: { message: invalidMessage(command3.reason), level: "warning" } };
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
        timeLimitMs: command3.timeLimitMs,
        turnLimit: command3.turnLimit,
        startTime: view.now,
        onStopCommand: command3.onStopCommand,
        ...spendLimits(command3),
        ...treatment(command3)
      };
      const budget = freshBudget(terms, view.turns ?? 0);
      const replacedActive = view.budget !== null && view.spent === null;
      const costNote = command3.costLimit === void 0 ? [] : costNotes(view.cost ?? "reported");
      const tokensNote = command3.tokenLimit !== void 0 && view.tokensSeen === false ? [TOKENS_NOT_SEEN] : [];
      const notes = [...command3.notes ?? [], ...costNote, ...tokensNote];
      const message = budgetSetMessage(command3, replacedActive, notes);
      return { change: "set", budget, reply: { message, level: "info" } };
    }
    case "extend":
      return planExtension(command3, view);
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
function planExtension(command3, view) {
  const budget = view.budget;
  if (!budget) return { change: "none", reply: info(NOTHING_TO_EXTEND) };
  const timeLimitMs = command3.addTimeMs === null ? budget.timeLimitMs : (budget.timeLimitMs ?? elapsedMs(budget, view.now)) + command3.addTimeMs;
  const turnLimit = command3.addTurns === null ? budget.turnLimit : (budget.turnLimit ?? view.usedTurns) + command3.addTurns;
  const spend = view.spend;
  const tokenLimit = command3.addTokens === void 0 ? budget.tokenLimit : (budget.tokenLimit ?? spend.tokens) + command3.addTokens;
  const costLimit = command3.addCost === void 0 ? budget.costLimit : (budget.costLimit ?? spend.cost) + command3.addCost;
  if ((timeLimitMs ?? 0) > MAX_TIME_LIMIT_MS || (turnLimit ?? 0) > MAX_TURN_LIMIT || (tokenLimit ?? 0) > MAX_TOKEN_LIMIT || (costLimit ?? 0) > MAX_COST_LIMIT) {
    return { change: "none", reply: { message: EXTENSION_TOO_LARGE, level: "warning" } };
  }
  const added = describeBudget({
    timeLimitMs: command3.addTimeMs,
    turnLimit: command3.addTurns,
    ...command3.addTokens === void 0 ? {} : { tokenLimit: command3.addTokens },
    ...command3.addCost === void 0 ? {} : { costLimit: command3.addCost },
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
    reply: info(extendedMessage(added, status2, command3.notes))
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
function subagentsCommand2(agents, command3, now) {
  switch (command3.action) {
    case "show":
      return { agents, effects: [notify(showBudget(agents), "info")] };
    case "off":
      return {
        agents: { ...agents, budgets: null },
        effects: [budgetsRecord(null, now), notify(SUBAGENT_BUDGET_OFF, "info")]
      };
    case "set": {
      const byType = { [ANY_AGENT_TYPE]: { words: command3.words, budget: command3.budget } };
      return {
        agents: { ...agents, budgets: { byType, source: COMMAND_SOURCE } },
        effects: [
          budgetsRecord({ [ANY_AGENT_TYPE]: command3.words }, now),
          notify(subagentBudgetSetMessage(describeTaskBudget(command3.budget)), "info")
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

// src/core/subagents/status.ts
function subagentStatusLines(agents, now) {
  const running = Object.values(agents.runs).filter(isRunning);
  if (running.length === 0) return [];
  return [`Subagents running: ${running.length}.`, ...running.map((run) => `- ${nameOf(run)}: ${standing(run, now)}`)];
}
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
function claimWithOnStop(claim2, command3, then) {
  if (command3 === null) return once(claim2, then);
  const start = { kind: "startOnStop", command: command3, claim: { budgetId: claim2.budgetId, kind: claim2.kind } };
  return once({ ...claim2, onStopCommand: command3 }, [...then, start]);
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
function promptKeyOf(state, prompt2) {
  return prompt2 ?? state.lastPrompt ?? UNNAMED_RUN;
}
function isNewPrompt(state, prompt2) {
  return promptKeyOf(state, prompt2) !== state.lastPrompt;
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
function status(state, now) {
  return { kind: "status", text: statusText(state, now) };
}
function withNewBudget(state, budget) {
  return { ...state, standing: budget ? freshStanding(budget) : null };
}
function spentStanding(standing2, summary, prompt2) {
  return { ...standing2, budget: { ...standing2.budget, active: false }, spent: summary, stoppedPrompt: prompt2 };
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
    const result2 = subagentsCommand2(state.subagents, parsed, now);
    return { state: { ...state, subagents: result2.agents }, effects: result2.effects };
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
function withCallContext(result2, now) {
  const { state, effects } = result2;
  if (effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort" || effect.kind === "ask")) {
    return result2;
  }
  const text3 = callContext(state, now);
  return text3 === null ? result2 : { state, effects: [...effects, { kind: "context", text: text3 }] };
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
function startWrapUp(state, standing2, summary, prompt2, now, refuseTool2) {
  const budget = standing2.budget;
  const graceMs = graceOf(state, budget);
  const until = now + graceMs;
  const wrapUp = {
    prompt: prompt2,
    until,
    refused: refuseTool2,
    callsSinceRefusal: 0,
    outcomeId: outcomeId(budget),
    onStopCommand: budget.onStopCommand
  };
  const next = { ...state, standing: { ...spentStanding(standing2, summary, prompt2), wrapUp } };
  const message = wrapUpMessage(summary.usedTurns, summary.elapsedMs, graceMs, spentUsage(summary, budget));
  const effects = [
    status(next, now),
    once({ kind: "spent", budgetId: outcomeId(budget), summary: { ...summary, wrapUpUntil: until }, prompt: prompt2 }, [
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
function modelCall(state, prompt2, now, isPrompt2 = true, request) {
  const key = promptKeyOf(state, prompt2);
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
    const goOn = modelCall(ended.state, key, now, isPrompt2, request);
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
  if (!isPrompt2) return checkTime(fresh, now, "modelCall", fresh.lastPrompt, request);
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
  const prompt2 = state.lastPrompt;
  if (prompt2 === null || !state.running) return { state, effects: [] };
  const drop = { kind: "dropPrompt", prompt: prompt2 };
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
function toolCall(state, prompt2, now) {
  const key = prompt2 ?? state.lastPrompt;
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
function checkTime(state, now, reached, prompt2 = state.lastPrompt, request, agent) {
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
        return startWrapUp(state, active, decision.summary, prompt2, now, reached === "toolCall");
      }
      return hardStop(state, active, decision.summary, prompt2, now, reached === "toolCall" || reached === "modelCall");
    case "nudge": {
      const next = withStanding(state, active, { budget: nudgedBudget(active) });
      const warning = nudge(budget, decision.urgency, decision.detail, state.running);
      return { state: next, effects: [warning, status(next, now)] };
    }
    case "ok":
      return { state, effects: [status(state, now)] };
  }
}
function hardStop(state, standing2, summary, prompt2, now, refuse) {
  const budget = standing2.budget;
  const next = { ...state, standing: spentStanding(standing2, summary, prompt2) };
  const usage = spentUsage(summary, budget);
  const message = spentMessage(summary.usedTurns, summary.elapsedMs, usage);
  const said = state.running ? message : idleSpentMessage(summary.usedTurns, summary.elapsedMs, usage);
  const announce = [{ kind: "notify", message: said, level: "error" }];
  const claim2 = { kind: "spent", budgetId: outcomeId(budget), summary, prompt: prompt2 };
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
function onStopReport(command3, outcome) {
  switch (outcome.kind) {
    case "started":
      return [{ kind: "notify", message: onStopStartedMessage(command3), level: "info" }];
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
    const loaded6 = { ...NO_SUBAGENTS, runs };
    return setting ? subagentsSetting(loaded6, setting, effects) : loaded6;
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
function load2(event, now) {
  const recovered = recoverOnStop(event.ledger, now);
  const loaded6 = loadBudget(event, now, recovered.length > 0);
  return recovered.length === 0 ? loaded6 : { state: loaded6.state, effects: [...loaded6.effects, ...recovered] };
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
  text: text3,
  source,
  newBudgetId: newBudgetId2,
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
  const command3 = parseCommand(text3);
  if (command3.kind !== "set") {
    const reason = command3.kind === "invalid" ? command3.reason : `${quoteInput(text3)} is not a budget.`;
    return {
      state,
      effects: [status(state, now), { kind: "notify", message: badDefaultMessage(source, reason), level: "warning" }]
    };
  }
  const budget = freshBudget({
    id: newBudgetId2,
    timeLimitMs: command3.timeLimitMs,
    turnLimit: command3.turnLimit,
    startTime: now,
    onStopCommand: command3.onStopCommand,
    ...spendLimits(command3),
    ...treatment(command3)
  });
  const next = withNewBudget(state, budget);
  return {
    state: next,
    effects: [
      ...recordBudget(budget),
      status(next, now),
      { kind: "notify", message: defaultSetMessage(source, command3), level: "info" }
    ]
  };
}
function restoredNotice(budget, now, usedTurns, spend) {
  const text3 = formatStatus(budget, now, usedTurns, spend);
  return { kind: "notify", message: restoredMessage(text3, budget.onStopCommand), level: "info" };
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
  let text3;
  if (Array.isArray(value)) {
    text3 = `[${value.map((item) => write(item, open) ?? "null").join(",")}]`;
  } else {
    const fields2 = value;
    const parts = [];
    for (const key of sortedKeys(fields2)) {
      const written3 = write(fields2[key], open);
      if (written3 !== void 0) parts.push(`${JSON.stringify(key)}:${written3}`);
    }
    text3 = `{${parts.join(",")}}`;
  }
  open.delete(value);
  return text3;
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
function callKey(call) {
  return keyOf(callHash(call));
}
function keyOf(hash) {
  return hex(hash.a) + hex(hash.b);
}
var KEY = /^[0-9a-f]{16}$/;
function hashOfKey(key) {
  if (KEY.test(key)) return { a: Number.parseInt(key.slice(0, 8), 16), b: Number.parseInt(key.slice(8), 16) };
  return hashText(key);
}
function hashText(text3) {
  const lanes = { a: 2166136261, b: 2654435761 };
  feedText(lanes, text3);
  return finish(lanes);
}
function feed(lanes, code) {
  lanes.a = Math.imul(lanes.a ^ code, 16777619);
  lanes.b = Math.imul(lanes.b ^ code, 1540483477);
}
function feedText(lanes, text3) {
  feed(lanes, TEXT);
  feed(lanes, text3.length);
  let { a, b } = lanes;
  const pairs = text3.length - 1;
  let index = 0;
  for (; index < pairs; index += 2) {
    const pair = text3.charCodeAt(index) | text3.charCodeAt(index + 1) << 16;
    a = Math.imul(a ^ pair, 16777619);
    b = Math.imul(b ^ pair, 1540483477);
  }
  if (index < text3.length) {
    const last = text3.charCodeAt(index);
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

// src/core/loop/call-view.ts
var TELLING_FIELDS = ["cmd", "file_path", "filePath", "path", "pattern", "query", "url", "description", "prompt"];
var SHELLS = /* @__PURE__ */ new Set(["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"]);
function callView(call) {
  const text3 = oneLine(tellingText(call.input));
  const chars = Array.from(text3);
  return chars.length > LOOP_VIEW_CHARS ? `${chars.slice(0, LOOP_VIEW_CHARS - 1).join("")}\u2026` : text3;
}
function tellingText(input) {
  if (typeof input === "string") return input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return input === void 0 ? "" : canonicalJson(input);
  }
  const fields2 = input;
  const command3 = commandOf(fields2.command);
  if (command3 !== null) return command3;
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
function oneLine(text3) {
  return text3.replace(/\s+/g, " ").trim();
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
  let count4 = 1;
  if (slot === void 0) next = { a: hash.a, b: hash.b, count: count4 };
  else if (isLevel(slot)) {
    const below = add(slot, hash, depth + 1);
    next = below.level;
    count4 = below.count;
  } else if (same(slot, hash)) {
    count4 = slot.count + 1;
    next = { a: hash.a, b: hash.b, count: count4 };
  } else {
    const moved = EMPTY_LEVEL.slice();
    moved[slotOf(slot, depth + 1)] = slot;
    next = add(moved, hash, depth + 1).level;
  }
  const copy = level.slice();
  copy[index] = next;
  return { level: copy, count: count4 };
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
function guardLoop(event, result2) {
  const call = event.call;
  if (call === void 0 || result2.effects.some((effect) => effect.kind === "refuse")) return result2;
  const state = result2.state;
  const active = counting(state);
  const limit2 = active?.budget.loopLimit;
  if (!active || limit2 === void 0) return result2;
  const check = checkCall(active.calls ?? null, promptKeyOf(state, event.prompt), call, limit2, event.earlier);
  const next = withStanding(state, active, { calls: check.calls });
  const view = check.verdict === "runs" || check.verdict === "stopped" ? "" : callView(call);
  const effects = [...result2.effects];
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
function loopStoppedCall(state, prompt2) {
  const active = counting(state);
  const calls = active?.calls;
  const limit2 = active?.budget.loopLimit;
  if (calls === void 0 || limit2 === void 0 || calls.peak <= limit2) return null;
  const key = promptKeyOf(state, prompt2);
  if (key !== calls.run || key !== state.lastPrompt) return null;
  return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }] };
}

// src/core/session/steps.ts
function countStep(before, result2, event, now) {
  const { state, effects } = result2;
  const active = counting(state);
  const limit2 = active?.budget.stepLimit;
  if (!active || limit2 === void 0) return result2;
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
  const result2 = applyEvent(state, event, now);
  const spent = result2.state.standing?.spent ?? null;
  const reachesLimit = event.type === "modelCall" || event.type === "modelRequest" || event.type === "toolCall" || event.type === "timeCheck" || event.type === "modelResponse";
  if (state.askAtLimit && !state.standing?.spent && spent !== null && spent.limit === void 0 && reachesLimit) {
    return askAtTheLimit(state, event, spent);
  }
  return result2;
}
function applyEvent(state, event, now) {
  switch (event.type) {
    case "load":
      return load2(event, now);
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
function recordPrompt(before, event, result2) {
  const prompt2 = event.prompt;
  if (prompt2 === null || event.startedBy === "extension" || !isNewPrompt(before, prompt2)) return result2;
  if (result2.effects.some((effect) => effect.kind === "refuse")) return result2;
  return { state: result2.state, effects: [...result2.effects, { kind: "recordPrompt", prompt: prompt2 }] };
}
function subagentModelCall(state, request, now, agent) {
  const timed = transition(state, { type: "timeCheck" }, now);
  const active = counting(timed.state);
  if (request === void 0 || timed.state.asking || !active) return timed;
  if (!tooLittleRoom(roomLeft(active.budget, spendBeside(active, agent), request))) return timed;
  const stopped = checkTime(timed.state, now, "modelCall", timed.state.lastPrompt, request, agent);
  return { state: stopped.state, effects: [...timed.effects, ...stopped.effects] };
}
function capInFlight(result2, request, agent) {
  const active = counting(result2.state);
  const room = active ? roomLeft(active.budget, spendBeside(active, agent), request) : null;
  if (!active || room === null) return result2;
  const cap = capEffect(room.tokens);
  const answer = Math.min(Math.max(room.tokens, MIN_ANSWER_TOKENS), request.answerLimit ?? Number.POSITIVE_INFINITY);
  const held = withInFlight(active, agent, mostUsed(request, answer));
  return { state: { ...result2.state, standing: held }, effects: [...result2.effects, ...cap] };
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
function withOutputCap(result2, event) {
  const request = event.request;
  if (request === void 0 || !callGoes(result2.effects)) return result2;
  const standing2 = result2.state.standing;
  if (standing2?.wrapUp && standing2.spent?.limit !== void 0) {
    return { state: result2.state, effects: [...result2.effects, ...capEffect(MIN_ANSWER_TOKENS)] };
  }
  return capInFlight(result2, request, MAIN_AGENT);
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
async function writeReportPage(write5, source) {
  if (write5 === void 0) return void 0;
  try {
    const report = reportData(source.history(), source.ledger, source.now, source.terms);
    return { path: await write5({ report, standings: source.standings() }) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

// src/core/subagents/loop.ts
function guardAgentLoop(event, agent, now, session, result2) {
  const call = event.call;
  const run = result2.agents.runs[agent];
  const limit2 = run?.budget?.loopLimit;
  if (call === void 0 || run === void 0 || limit2 === void 0) return result2;
  if (!isRunning(run) || run.spent !== null) return result2;
  const check = checkCall(result2.agents.calls?.[agent] ?? null, agent, call, limit2, event.earlier);
  const agents = withCalls(result2.agents, agent, check.calls);
  if (check.verdict === "runs") return { agents, effects: result2.effects };
  const view = callView(call);
  if (check.verdict === "refused") {
    const name = subagentName(run.task, run.agentType);
    const effects = [
      ...result2.effects,
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
      ...result2.effects,
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
  const result2 = composed(state, event, now);
  if (event.type !== "modelResponse" || event.responseId === void 0) return result2;
  const responseId = event.responseId;
  return { state: result2.state, effects: [keptUsage({ ...event, responseId }, now), ...result2.effects] };
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
      const result2 = joined(session.state, session.effects, agentModelCall(agents, run, now, view, request));
      return request === void 0 || !callGoes(result2.effects) ? result2 : capInFlight(result2, request, agent);
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
function withSessionStop(state, result2, now) {
  if (isSpent(state) || !isSpent(result2.state)) return result2;
  const stopped = joined(result2.state, result2.effects, stopAll(result2.state.subagents, now));
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
      const result2 = transitionWithSubagents(this.state, event, this.ports.clock.now());
      this.state = result2.state;
      return this.carryOut(keptForStore(result2.effects, result2.state, this.ports.historyWhileBudgeted === true));
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
  onStopReport = (command3, outcome) => {
    const report = this.dispatch({ type: "onStopReport", command: command3, outcome });
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
      const prompt2 = event.type === "modelCall" ? event.prompt ?? this.state.lastPrompt : null;
      const refused = this.daily.refused;
      if (prompt2 !== null && prompt2 === refused?.prompt) {
        return this.carryOut([{ kind: "abort" }, { kind: "refuse", reason: refused.reason }]);
      }
      const dailyEvent = this.dailyEventOf(event);
      if (dailyEvent === null) return null;
      const standings = port.ledger.standings(port.budgets);
      this.timedDaily = standings.some((standing2) => standing2.budget.limits.timeMs !== null);
      const result2 = dailyTransition(this.daily.session, dailyEvent, standings, this.ports.clock.now());
      const answer = this.carryOut(result2.effects);
      answer.context.push(...result2.context);
      const problem = port.ledger.problem();
      if (problem !== null) answer.notices.unshift({ message: inHostTerms(problem, this.terms), level: "warning" });
      if (answer.refusal !== null && prompt2 !== null && dailyEvent.type === "newPrompt") {
        this.daily = { session: dailyRefused(result2.session), refused: { prompt: prompt2, reason: answer.refusal } };
      } else this.daily = { session: result2.session, refused };
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
var STATUS_LINE_SETUP_HINT = "Timebox: run the plugin's script with setup-statusline to set up the status line.";
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

// src/core/run/kept-lines.ts
var write2 = (line) => ({ kind: "logLine", line });
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
  return [write2({ kind: "owed", to, lines, at: now })];
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
  return { value: owed.flat(), effects: owed.map(() => write2({ kind: "paid", to, at: now })) };
}
function keepUntold(notices, now) {
  return [write2({ kind: "untold", notices, at: now })];
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
  return { value: untold.flat(), effects: untold.map(() => write2({ kind: "told", at: now })) };
}
function keepSpawn(id, agent, spawn2, now) {
  return [write2({ kind: "spawn", id, agent, ...spawn2, at: now })];
}
function takeSpawn(lines, agent, agentType, now) {
  const taken = new Set(linesOfKind(lines, "spawn-taken").map((line) => line.index));
  const open = linesOfKind(lines, "spawn").map((line, index) => ({ line, index })).filter(({ index }) => !taken.has(index));
  const found = open.find(({ line }) => line.agentType === agentType) ?? open[0];
  if (!found) return { value: null, effects: [] };
  return { value: found.line, effects: [write2({ kind: "spawn-taken", index: found.index, agent, at: now })] };
}
function ruleIdOf(lines, hostAgent) {
  const taken = lines.find((line) => line.kind === "spawn-taken" && line.agent === hostAgent);
  if (taken?.kind !== "spawn-taken") return hostAgent;
  const spawn2 = linesOfKind(lines, "spawn")[taken.index];
  return spawn2?.id ?? hostAgent;
}
function refuseSpawn(agent, reason, now) {
  return [write2({ kind: "spawn-refused", agent, reason, at: now })];
}
function refusedSpawn(lines, agent) {
  const refused = lines.find((line) => line.kind === "spawn-refused" && line.agent === agent);
  return refused?.kind === "spawn-refused" ? refused.reason : null;
}

// src/core/run/session-log.ts
function nextCallLines(state, promptKey, now) {
  return promptKey !== null && state.standing ? [write2({ kind: "call", promptId: promptKey, at: now })] : [];
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
  return { value: earlier, effects: [write2({ kind: "tool", promptId, agent, key: callKey(call), at: now })] };
}
function runEndedLines(promptId, now) {
  return promptId === null ? [] : [write2({ kind: "ended", promptId, at: now })];
}
function claimKept(claim2, lines, now) {
  const kept2 = lines.some(
    (line) => line.kind === "claim" && line.claim.kind === claim2.kind && line.claim.budgetId === claim2.budgetId
  );
  return kept2 ? null : [write2({ kind: "claim", claim: claim2, at: now })];
}
function dailyPartOf(lines, promptId) {
  const startedAt = sentAt(lines, promptId);
  const ended = lines.some(
    (line) => (line.kind === "daily-ended" || line.kind === "prompt-dropped") && line.promptId === promptId
  );
  return {
    ...NO_DAILY_PART,
    session: {
      given: linesOfKind(lines, "daily-warned").map((line) => line.level),
      runStartedAt: !ended && startedAt !== void 0 ? startedAt : null,
      stopped: lines.some((line) => line.kind === "daily-stopped" && line.promptId === promptId)
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
  if (after.session.stopped && !before.session.stopped) lines.push({ kind: "daily-stopped", promptId, at: now });
  if (before.session.runStartedAt !== null && after.session.runStartedAt === null) {
    lines.push({ kind: "daily-ended", promptId, at: now });
  }
  return lines.map(write2);
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
    effects.push(write2({ kind: "transcript", offset: found.offset }));
  }
  if (!found.unreadable || lines.some((line) => line.kind === "transcript-unreadable"))
    return { effects, notice: null };
  effects.push(write2({ kind: "transcript-unreadable", at: now }));
  return { effects, notice: TRANSCRIPT_UNREADABLE };
}

// src/core/text/refusals.ts
var DAILY_TAKEN_REFUSAL = "Timebox: another session took today's last prompt just now, so this prompt was not sent.";

// src/adapters/claude/setup.ts
function statusLineCommand(script, theirs) {
  const own = `node ${shellQuote(script)} statusline`;
  return theirs === null ? own : `${own} --wrap ${shellQuote(theirs)}`;
}
function shellQuote(word) {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function mergeStatusLine(text3, script) {
  let settings = {};
  if (text3 !== null && text3.trim().length > 0) {
    try {
      settings = JSON.parse(text3);
    } catch {
      return { text: null, message: SETTINGS_NOT_JSON };
    }
  }
  if (!isRecord(settings)) return { text: null, message: SETTINGS_NOT_OBJECT };
  const current = isRecord(settings.statusLine) ? settings.statusLine : null;
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
  const text3 = existsSync(settingsFile) ? readFileSync(settingsFile, "utf8") : null;
  const merged = mergeStatusLine(text3, script);
  if (merged.text !== null) {
    mkdirSync(dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, merged.text);
  }
  return merged.message;
}
var DATA_FOLDER_PREFIX = "timebox-";
function findDataDir(home, sessionId) {
  const root = join(home, ".claude", "plugins", "data");
  let folders;
  try {
    folders = readdirSync(root).filter((name) => name.startsWith(DATA_FOLDER_PREFIX));
  } catch {
    return null;
  }
  const withSession = folders.find((name) => existsSync(join(root, name, "sessions", `${sessionId}.jsonl`)));
  const chosen = withSession ?? (folders.length === 1 ? folders[0] : void 0);
  return chosen === void 0 ? null : join(root, chosen);
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
import { closeSync, openSync, readSync, statSync } from "node:fs";
var MAX_READ_BYTES = 8 * 1024 * 1024;
function fieldsOf(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}
function readTranscriptLines(usageOfLine3, path, offset, seen) {
  const nothing2 = { responses: [], offset, unreadable: false };
  let fd;
  try {
    fd = openSync(path, "r");
  } catch {
    return nothing2;
  }
  try {
    const size = statSync(path).size;
    if (size <= offset) return { ...nothing2, offset: Math.min(offset, size) };
    const buffer = Buffer.alloc(Math.min(size - offset, MAX_READ_BYTES));
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    const end = buffer.subarray(0, read).lastIndexOf(10);
    if (end < 0) return read === MAX_READ_BYTES ? { ...nothing2, offset: offset + read } : nothing2;
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
    return nothing2;
  } finally {
    closeSync(fd);
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
    line = fieldsOf(JSON.parse(raw));
  } catch {
    return null;
  }
  if (line?.type !== "assistant") return null;
  const message = fieldsOf(line.message);
  const usage = fieldsOf(message?.usage);
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
    const result2 = response;
    const agent = textField(result2, "agentId");
    if (agent === null) return null;
    const tokens = result2.totalTokens;
    return typeof tokens === "number" && tokens > 0 ? { agent, result: resultText(result2.content), tokens } : { agent, result: resultText(result2.content) };
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
    settings: (home) => join2(home, ".claude", "settings.json"),
    setup: setupStatusLine,
    script: (env) => env.CLAUDE_PLUGIN_ROOT ? join2(env.CLAUDE_PLUGIN_ROOT, "bin", "timebox.mjs") : null,
    findDataDir
  }
};

// src/adapters/codex/hook-host.ts
import { join as join3 } from "node:path";
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
      json.systemMessage = [json.systemMessage, json.stopReason].filter((text3) => typeof text3 === "string").join("\n");
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
  dataDir: (env, home) => join3(env.CODEX_HOME ?? join3(home, ".codex"), "timebox")
};

// src/adapters/gemini/hook-host.ts
import { join as join4 } from "node:path";

// src/adapters/gemini/transcript-usage.ts
import { statSync as statSync2 } from "node:fs";
function count2(value) {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
function usageOfLine2(raw, from) {
  let line;
  try {
    line = fieldsOf(JSON.parse(raw));
  } catch {
    return null;
  }
  if (line?.type !== "gemini" || line.tokens === void 0) return null;
  const tokens = fieldsOf(line.tokens);
  if (typeof line.id !== "string" || tokens === null || typeof tokens.input !== "number") return "unreadable";
  const parts = count2(tokens.input) + count2(tokens.output) + count2(tokens.thoughts) + count2(tokens.tool);
  return { id: line.id, tokens: count2(tokens.total) || parts, prompt: { input: count2(tokens.input), from } };
}
function readGeminiUsage(path, offset, seen) {
  return readTranscriptLines(usageOfLine2, path, offset, seen);
}
function transcriptSize(path) {
  try {
    return statSync2(path).size;
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
  dataDir: (_env, home) => join4(home, ".gemini", "timebox"),
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

// src/adapters/node/node-time.ts
var systemClock = { now: () => Date.now() };

// src/adapters/node/on-stop-runner.ts
import { Readable } from "node:stream";

// src/adapters/on-stop/wrapper.ts
var ON_STOP_WRAPPER = 'set -C; if ! true 2>/dev/null >"$1" && [ -e "$1" ]; then exit 0; fi; exec /bin/sh -c -- "$2" 3>&-';
function wrapperArgs(mark, command3) {
  return ["-c", ON_STOP_WRAPPER, "sh", mark, command3];
}

// src/adapters/node/on-stop-runner.ts
var SHELL = "/bin/sh";
var SHELL_ARGS = ["-c", "--"];
function isSocket(stream) {
  return stream instanceof Readable && "unref" in stream && typeof stream.unref === "function";
}
function describeError(error) {
  return error instanceof Error ? error.message : String(error);
}
function createShellStarter(spawnProcess = spawn, options = {}) {
  return {
    start(command3, report, start) {
      const shown = quoteInput(command3);
      const couldNotStart = (error) => ({
        kind: "failed",
        problem: `could not start ${shown}: ${describeError(error)}`
      });
      const mark = start?.mark;
      const args = mark === void 0 ? [...SHELL_ARGS, command3] : wrapperArgs(mark, command3);
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

// src/adapters/node/status-line-runner.ts
var WRAPPED_TIMEOUT_MS = 2e3;
function runStatusLineCommand(command3, stdin2, shell = "/bin/sh") {
  const result2 = spawnSync(shell, ["-c", command3], { input: stdin2, encoding: "utf8", timeout: WRAPPED_TIMEOUT_MS });
  return typeof result2.stdout === "string" ? result2.stdout.replace(/\n[\s\S]*$/, "") : "";
}

// src/entries/hook-cli.ts
import { homedir as homedir2 } from "node:os";
import { join as join10 } from "node:path";

// lazy-builtin:node:crypto
import { createRequire as createRequire2 } from "node:module";
var loaded2;
var load3 = () => loaded2 ??= process.getBuiltinModule?.("node:crypto") ?? createRequire2(import.meta.url)("node:crypto");
function createHash(...args) {
  return load3().createHash(...args);
}
function randomUUID(...args) {
  return load3().randomUUID(...args);
}

// src/adapters/hooks/load.ts
function loadEvent(files, options = {}) {
  const history = files.store.foldedHistory();
  const ledger = history.budget ? ledgerView(history.budget, files) : NOTHING_RECORDED;
  const event = { type: "load", history, ledger, mode: "continue", announce: options.announce === true };
  const running = options.running === null ? history.lastPrompt : options.running;
  if (typeof running === "string") event.runningSteps = files.store.stepOf(running);
  if (options.defaultBudget) event.defaultBudget = options.defaultBudget;
  if (files.subagents) event.subagents = files.subagents;
  return options.running === void 0 ? event : { ...event, runningPrompt: options.running };
}
function loadState(files, now, options = {}) {
  return transition(EMPTY_SESSION, loadEvent(files, options), now).state;
}
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
    (claim2) => claim2.kind === "spent" && claim2.budgetId === outcome
  );
  const recovered = logged.some((claim2) => claim2.kind === "onStopRecovered" && claim2.budgetId === outcome);
  return {
    ...view,
    spent: view.spent ?? (spent ? { ...spent.summary, prompt: spent.prompt } : null),
    off: view.off || logged.some((claim2) => claim2.kind === "off" && claim2.budgetId === budget.id),
    nudged: view.nudged || logged.some((claim2) => claim2.kind === "nudged" && claim2.budgetId === outcome),
    ...view.onStop && recovered ? { onStop: { ...view.onStop, recovered } } : {}
  };
}

// src/adapters/hooks/log-store.ts
function logStore(deps) {
  return {
    append: (record) => deps.store.append(record),
    appendPrompt: (key) => deps.store.appendPrompt(key, deps.clock.now()),
    dropPrompt: (key) => deps.store.dropPrompt(key, deps.clock.now()),
    recordUsage: (usage) => deps.store.recordUsage(usage),
    appendLine: (line) => deps.store.appendLine(line),
    keepFold: (fold) => deps.store.keepFold(fold)
  };
}

// src/adapters/hooks/hook-runtime.ts
var ON_STOP_START_WAIT_MS = 1e3;
var HookRuntime = class _HookRuntime {
  constructor(deps, promptId = null, state, daily = promptId === null ? void 0 : deps.daily) {
    this.deps = deps;
    this.promptId = promptId;
    this.dailyBefore = daily && promptId !== null ? session_log_exports.dailyPartOf(deps.store.lines(), promptId) : void 0;
    this.runtime = new SessionRuntime(
      {
        store: logStore(deps),
        ledger: {
          claim: (claim2) => this.claim(claim2),
          ...deps.ledger.startMark ? { startMark: deps.ledger.startMark.bind(deps.ledger) } : {}
        },
        clock: deps.clock,
        onStop: { start: (command3, report, options) => this.startOnStop(command3, report, options) },
        // No status bar to set: the status line reads the log itself.
        setStatus: () => {
        },
        // A hook ends the run through its reply.
        abortRun: () => {
        },
        problem: (where, error) => {
          if (LOG_WRITES.has(where)) throw error;
          if (where === "recordPrompt") this.unkept ??= { error };
          else this.told.push(internalErrorMessage(where, error));
        },
        late: (late) => this.told.push(...late.notices.map((notice) => notice.message)),
        // A budget with time to run out is watched while no hook runs (the agent idle), so it stops on time.
        ...deps.startWatcher ? { watchBudget: deps.startWatcher } : {},
        ...daily ? { daily } : {},
        ...deps.terms ? { terms: deps.terms } : {}
      },
      state,
      this.dailyBefore
    );
  }
  deps;
  promptId;
  runtime;
  dailyBefore;
  waiting = [];
  told = [];
  /** Why a prompt that ran could not be kept in the session's log. */
  unkept = null;
  /**
   * The one runtime of a hook, before its session is folded: what it writes first (what the transcript says was used,
   * the lines that mark a value taken) counts in today's use, and `/timebox today` reads the day.
   */
  static of(deps) {
    return new _HookRuntime(deps, null, void 0, deps.daily);
  }
  /**
   * Folds the session from its log (with all this hook wrote so far) and the ledger, once, into this runtime, and
   * returns it. Loaded for a named prompt (`running`), the daily budgets hear the events of its run; else none. With
   * `recover` (the default), an on-stop command that a killed hook claimed and never started is started first.
   */
  load(now, options = {}, recover = true) {
    const event = loadEvent(this.deps, options);
    this.runtime.state = transition(EMPTY_SESSION, event, now).state;
    const prompt2 = typeof options.running === "string" ? options.running : null;
    this.promptId = prompt2;
    this.dailyBefore = prompt2 !== null && this.deps.daily ? session_log_exports.dailyPartOf(this.deps.store.lines(), prompt2) : void 0;
    this.runtime.daily = this.dailyBefore ?? NO_DAILY_PART;
    if (recover) this.tell(this.runtime.write(recoverOnStop(event.ledger, now)));
    return this.runtime.state;
  }
  /** Keeps what an answer outside the hook's event says, for the reply. */
  tell(answer) {
    this.told.push(...answer.notices.map((notice) => notice.message));
  }
  /**
   * Loads the session by carrying out its load (the session's start: a default budget set in a session that never had
   * one is written), and answers with what it says.
   */
  start(event) {
    return this.runtime.dispatch(event);
  }
  /**
   * Feeds one event to the rules: to the daily budgets first when it belongs to a named prompt's run, then to the
   * session's rules (and its subagents').
   */
  handle(event) {
    return this.promptId !== null ? this.runtime.handle(event) : this.runtime.dispatch(event);
  }
  /**
   * The reply to an answer of the rules, once every on-stop command said whether it started. A stop that said nothing
   * of its own (a prompt that was stopped already) is said by its reason, before any other note.
   */
  async reply(answer) {
    await Promise.all(this.waiting.splice(0));
    if (this.unkept !== null) throw this.unkept.error;
    const own = answer.notices.map((notice) => notice.message);
    const said = own.length === 0 && answer.aborted && answer.refusal !== null ? [answer.refusal] : own;
    const told = this.told.splice(0).map((text3) => this.deps.terms ? inHostTerms(text3, this.deps.terms) : text3);
    const notices = [...said, ...told];
    const reply = {
      notices,
      context: answer.context,
      refusal: answer.refusal,
      stop: answer.aborted,
      answered: false
    };
    if (answer.stoppedAgents.length > 0) reply.stoppedAgents = answer.stoppedAgents;
    return reply;
  }
  /**
   * Carries out what a rule of the session's log returned (core's sessionLog) through the one executor; a line the log
   * cannot take fails the hook.
   */
  write(effects) {
    this.runtime.write(effects);
  }
  /** A value read from the session's log, once the lines that mark it taken are written. */
  take(taken) {
    this.write(taken.effects);
    return taken.value;
  }
  /** Writes the prompt's part in the daily budgets back to the log; a log that cannot take it is said, not fatal. */
  saveDaily(now) {
    if (!this.dailyBefore || this.promptId === null) return;
    try {
      this.write(session_log_exports.dailyPartLines(this.promptId, this.dailyBefore, this.runtime.daily, now));
    } catch (error) {
      this.told.push(internalErrorMessage("session log", error));
    }
  }
  /**
   * Claims an outcome in the ledger. One that cannot be written is kept in the session's log instead, so the session
   * never claims it twice; the executor counts it as won and says what failed.
   */
  claim(claim2) {
    try {
      return this.deps.ledger.claim(claim2);
    } catch (error) {
      const kept2 = session_log_exports.claimKept(claim2, this.deps.store.lines(), this.deps.clock.now());
      if (kept2 === null) return false;
      this.write(kept2);
      throw error;
    }
  }
  /** Starts the on-stop command and waits until it started or failed to; a failing exit comes after this hook is gone. */
  startOnStop(command3, report, options) {
    let done;
    this.waiting.push(new Promise((resolve) => done = resolve));
    let settled2 = false;
    const settle = (outcome) => {
      if (settled2) return;
      settled2 = true;
      clearTimeout(timer);
      report(outcome);
      done();
    };
    const timer = setTimeout(() => settle({ kind: "started" }), ON_STOP_START_WAIT_MS);
    try {
      const starting = (outcome) => {
        if (outcome.kind !== "exited") settle(outcome);
      };
      if (options === void 0) this.deps.onStop.start(command3, starting);
      else this.deps.onStop.start(command3, starting, options);
    } catch (error) {
      clearTimeout(timer);
      done();
      throw error;
    }
  }
};
var LOG_WRITES = /* @__PURE__ */ new Set(["append", "recordUsage", "logLine"]);
function newBudgetId(deps) {
  return (deps.newBudgetId ?? randomUUID)();
}

// src/adapters/hooks/subagent-spawns.ts
async function spawnStart(event, parent, hook, now) {
  if (event.role !== "beforeTool" || event.spawn === null || event.toolUseId === null) return null;
  const answer = hook.handle({
    type: "agentStart",
    agent: event.toolUseId,
    parent,
    agentType: event.spawn.agentType,
    task: event.spawn.task,
    contextAtStart: false
  });
  if (answer.refusal === null) return null;
  hook.saveDaily(now);
  return hook.reply(answer);
}
function spawnEnd(event, answer, agent, hook, now) {
  if (event.spawn === null) return;
  if (answer.refusal === null) {
    hook.write(session_log_exports.keepSpawn(event.toolUseId, agent, event.spawn, now));
    return;
  }
  if (event.toolUseId !== null) hook.handle({ type: "agentEnd", agent: event.toolUseId });
}
async function subagentBoundary(event, hostAgent, hook, now) {
  const deps = hook.deps;
  const refused = session_log_exports.refusedSpawn(deps.store.lines(), hostAgent);
  if (refused !== null) return { ...silentReply(), refusal: refused, stop: true };
  const agent = session_log_exports.ruleIdOf(deps.store.lines(), hostAgent);
  hook.load(now, { running: event.promptId });
  const spawnRefused = await spawnStart(event, agent, hook, now);
  if (spawnRefused !== null) return spawnRefused;
  const sessionEvent = event.role === "beforeModelCall" ? { type: "modelCall", prompt: event.promptId, agent } : toolCallEvent(event, agent, hook, event.promptId, now);
  const answer = hook.handle(sessionEvent);
  const stopped = answer.stoppedAgents.includes(agent);
  if (!stopped) spawnEnd(event, answer, agent, hook, now);
  hook.saveDaily(now);
  const reply = await hook.reply(answer);
  if (stopped) return { ...reply, stop: true };
  return event.role === "beforeModelCall" && reply.refusal === null ? { ...reply, context: [...hook.take(session_log_exports.owedTo(deps.store.lines(), agent, now)), ...reply.context] } : reply;
}
function toolCallEvent(event, agent, hook, promptId, now) {
  const call = event.call;
  const own = agent === null ? {} : { agent };
  if (call === null) return { type: "toolCall", prompt: event.promptId, ...own };
  const lines = hook.deps.store.lines();
  const earlier = hook.take(session_log_exports.loopCalls(lines, hook.runtime.state, promptId, agent, call, now));
  return { type: "toolCall", prompt: event.promptId, ...own, call, ...earlier === void 0 ? {} : { earlier } };
}
async function agentStart2(event, hostAgent, hook, now) {
  const spawn2 = hook.take(session_log_exports.takeSpawn(hook.deps.store.lines(), hostAgent, event.agentType, now));
  hook.load(now, { running: event.promptId });
  if (spawn2?.id) {
    const first2 = hook.handle({ type: "modelCall", prompt: event.promptId, agent: spawn2.id });
    hook.saveDaily(now);
    return hook.reply(first2);
  }
  const agent = hostAgent;
  const started = hook.handle({
    type: "agentStart",
    agent,
    parent: spawn2?.agent ?? null,
    agentType: event.agentType ?? spawn2?.agentType ?? "",
    task: spawn2?.task ?? ""
  });
  if (started.refusal !== null) {
    hook.write(session_log_exports.refuseSpawn(agent, started.refusal, now));
    hook.saveDaily(now);
    const reply = await hook.reply(started);
    return { ...reply, context: [started.refusal, ...reply.context], refusal: null };
  }
  const first = hook.handle({ type: "modelCall", prompt: event.promptId, agent });
  hook.saveDaily(now);
  return hook.reply(mergeAnswer(started, first));
}
async function agentEnd2(event, ended, hook, now) {
  const agent = session_log_exports.ruleIdOf(hook.deps.store.lines(), ended.agent);
  hook.load(now, { running: event.promptId });
  const used = ended.tokens === void 0 ? null : subagentUsage(hook, agent, ended.tokens);
  const parent = hook.runtime.state.subagents.runs[agent]?.parent ?? null;
  const ending2 = hook.handle({ type: "agentEnd", agent, result: ended.result });
  hook.saveDaily(now);
  const reply = await hook.reply(used === null ? ending2 : mergeAnswer(used, ending2));
  if (ended.reachesParent || reply.context.length === 0) return reply;
  hook.write(session_log_exports.owe(parent, reply.context, now));
  return { ...reply, context: [] };
}
function subagentUsage(hook, agent, tokens) {
  return hook.handle({
    type: "modelResponse",
    tokens,
    cost: 0,
    agent,
    responseId: `subagent:${agent}`,
    costSeen: false
  });
}

// src/adapters/hooks/main-session.ts
var STATUS_LINE_WORD = "statusline";
async function sessionStart(event, hook) {
  if (event.source === "compact") return null;
  const reply = await startSession(hook, event.source === "resume");
  if (hook.deps.dailyWarning) reply.notices.push(hook.deps.dailyWarning);
  return reply.notices.length > 0 ? reply : null;
}
async function startSession(hook, announce) {
  const deps = hook.deps;
  const text3 = deps.defaultBudget?.trim();
  const options = { announce };
  const given = text3 ? await resolveDefault({ text: text3, source: DEFAULT_ENV }, deps.projectHistory) : null;
  if (given) options.defaultBudget = { ...given, newBudgetId: newBudgetId(deps) };
  return hook.reply(hook.start(loadEvent(deps, options)));
}
async function prompt(event, hook, now) {
  const started = await defaultAtFirstPrompt(hook);
  const untold = hook.take(session_log_exports.untoldNotices(hook.deps.store.lines(), now));
  const reply = await answerPrompt(event, hook, now);
  const first = [...started, ...untold];
  if (first.length > 0) reply.notices.unshift(...first);
  return reply;
}
async function defaultAtFirstPrompt(hook) {
  const deps = hook.deps;
  if (!deps.defaultBudget?.trim() || !deps.store.empty()) return [];
  const { notices } = await startSession(hook, false);
  return notices;
}
async function answerPrompt(event, hook, now) {
  const promptId = event.promptId ?? `unnamed-${randomUUID()}`;
  if (event.command !== null) return command2(event.command, hook, now, promptId);
  hook.load(now, { running: promptId });
  const answer = hook.handle({ type: "modelCall", prompt: promptId, step: hook.deps.store.stepOf(promptId) });
  hook.saveDaily(now);
  return hook.reply(answer);
}
async function command2(args, hook, now, promptId) {
  const deps = hook.deps;
  if (args.trim().toLowerCase() === STATUS_LINE_WORD) {
    const said = deps.setupStatusLine ? deps.setupStatusLine() : STATUS_LINE_SETUP_HINT;
    return { ...silentReply(), notices: [said], answered: true };
  }
  const kind = parseCommand(args).kind;
  const suggestion = kind === "suggest" ? await readSuggestion(deps.projectHistory) : void 0;
  const page = kind === "reportPage" ? await writeReportPage(deps.reportPage, {
    history: () => deps.store.history(),
    ledger: (budget) => ledgerView(budget, deps),
    now,
    terms: deps.terms,
    standings: () => deps.daily ? deps.daily.ledger.standings(deps.daily.budgets) : []
  }) : void 0;
  hook.load(now, { running: promptId });
  const answered2 = hook.runtime.command(args, {
    newBudgetId: newBudgetId(deps),
    // The hooks are told nothing of what a session costs: a cost limit is set, and said to be unenforceable.
    cost: "host cannot see",
    ...deps.readUsage ? {} : { tokensSeen: false },
    report: () => sessionReport(deps.store.history(), (budget) => ledgerView(budget, deps), now, deps.terms),
    ...page === void 0 ? {} : { reportPage: page },
    ...suggestion === void 0 ? {} : { suggestion }
  });
  return { ...await hook.reply(answered2), answered: true };
}
async function toolBoundary(event, hook, now) {
  const deps = hook.deps;
  const state = hook.load(now, { running: event.promptId });
  const refused = await spawnStart(event, null, hook, now);
  if (refused !== null) return refused;
  const promptKey = event.promptId ?? state.lastPrompt;
  const nextCall = event.role === "beforeModelCall" && promptKey === state.lastPrompt;
  if (nextCall) hook.write(session_log_exports.nextCallLines(state, promptKey, now));
  const sessionEvent = nextCall ? {
    type: "modelCall",
    prompt: event.promptId,
    ...promptKey === null ? {} : { step: deps.store.stepOf(promptKey) }
  } : toolCallEvent(event, null, hook, promptKey, now);
  const answer = hook.handle(sessionEvent);
  spawnEnd(event, answer, null, hook, now);
  hook.saveDaily(now);
  const reply = await hook.reply(answer);
  return nextCall && reply.refusal === null ? { ...reply, context: [...hook.take(session_log_exports.owedTo(deps.store.lines(), null, now)), ...reply.context] } : reply;
}
async function runEnd(event, hook, now) {
  hook.write(session_log_exports.runEndedLines(event.promptId, now));
  hook.load(now, { running: event.promptId });
  const answer = hook.handle({ type: "runEnd" });
  hook.saveDaily(now);
  return hook.reply(answer);
}

// src/adapters/hooks/model-request.ts
async function modelRequest2(event, hook, now, size) {
  const prompt2 = hook.deps.store.latestPrompt();
  const bytes = event.transcriptPath === null ? null : size(event.transcriptPath);
  if (prompt2 === null || bytes === null) return null;
  const request = { answeredInput: prompt2.input, addedBytes: Math.max(0, bytes - prompt2.from) };
  hook.load(now, { running: event.promptId });
  const answer = hook.handle({ type: "modelRequest", request });
  const reply = await hook.reply(answer);
  return answer.maxOutputTokens === void 0 ? reply : { ...reply, maxOutputTokens: answer.maxOutputTokens };
}

// src/adapters/hooks/usage.ts
function countUsage(read, transcriptPath, store, now) {
  const progress = store.transcriptProgress();
  const found = read(transcriptPath, progress.offset, progress.seen);
  return session_log_exports.transcriptUsage(found, progress.offset, store.lines(), now);
}

// src/adapters/hooks/handle.ts
async function handleHook(hostEvent, deps) {
  const now = deps.clock.now();
  const hook = HookRuntime.of(deps);
  hook.write(session_log_exports.keepFold(deps.store.foldRead()));
  const event = deps.unnamedPrompts && hostEvent.promptId === null ? namePrompt(hostEvent, deps) : hostEvent;
  const counted = event.transcriptPath !== null && deps.readUsage ? countUsage(deps.readUsage, event.transcriptPath, deps.store, now) : null;
  if (counted !== null) hook.write(counted.effects);
  const usageNote = counted?.notice ?? null;
  let reply = await replyTo(event, hook, now);
  if (usageNote !== null) {
    reply ??= silentReply();
    reply.notices.push(usageNote);
  }
  return settleDay(reply, hook, readAheadOf(deps));
}
function readAheadOf(deps) {
  const ledger = deps.daily?.ledger;
  return ledger !== void 0 && "settle" in ledger ? ledger : null;
}
async function settleDay(reply, hook, ledger) {
  if (ledger === null || await ledger.settle() || reply === null) return reply;
  hook.handle({ type: "promptRefused" });
  const refusal2 = ledger.takenRefusal();
  return { notices: [refusal2], context: [], refusal: refusal2, stop: true, answered: reply.answered };
}
function namePrompt(event, deps) {
  const promptId = event.role === "prompt" ? `unnamed-${randomUUID()}` : session_log_exports.latestPrompt(deps.store.lines());
  return { ...event, promptId };
}
async function replyTo(event, hook, now) {
  switch (event.role) {
    case "sessionStart":
      return sessionStart(event, hook);
    case "prompt":
      return event.agent === null ? prompt(event, hook, now) : null;
    case "beforeTool":
    case "beforeModelCall":
      return event.agent === null ? toolBoundary(event, hook, now) : subagentBoundary(event, event.agent, hook, now);
    case "agentStart":
      return event.agent === null ? null : agentStart2(event, event.agent, hook, now);
    case "agentEnd":
      return event.ended === null ? null : agentEnd2(event, event.ended, hook, now);
    case "modelRequest":
      return hook.deps.transcriptSize ? modelRequest2(event, hook, now, hook.deps.transcriptSize) : null;
    case "runEnd":
      return runEnd(event, hook, now);
    default:
      return null;
  }
}

// src/adapters/hooks/input.ts
var SESSION_ID = /^[A-Za-z0-9._-]{1,200}$/;
function parseHookInput(text3, event) {
  let value;
  try {
    value = JSON.parse(text3);
  } catch {
    return { error: "stdin is not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { error: "stdin is not a JSON object" };
  const fields2 = value;
  const { hook_event_name: named3 = event, session_id: sessionId } = fields2;
  if (typeof named3 !== "string" || named3.length === 0) return { error: "hook_event_name is missing" };
  if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId) || sessionId.startsWith(".")) {
    return { error: "session_id is missing or not a plain id" };
  }
  return { event: named3, sessionId, fields: fields2 };
}

// src/adapters/hooks/watcher.ts
var WATCH_INTERVAL_MS = 1e3;
var WATCH_RUNNING_MS = 10 * 6e4;
var WATCH_GONE_LOOKS = 2;
async function watchOnce(deps, watched, now) {
  deps.store.reread();
  const hook = HookRuntime.of(deps);
  const state = hook.load(now, {}, false);
  if (deps.store.missing()) return "missing";
  const budget = state.standing?.budget;
  if (!budget || outcomeId(budget) !== watched || state.standing?.spent || budget.pausedAt !== void 0) return "done";
  const spent = transitionWithSubagents(state, { type: "timeCheck" }, now).state.standing?.spent;
  if (!spent) return "watching";
  const running = state.lastPrompt !== null && !deps.store.runEnded(state.lastPrompt);
  const pastDeadline = spent.elapsedMs - Number(budget.timeLimitMs);
  if (running && pastDeadline < WATCH_RUNNING_MS) return "watching";
  const { notices } = await hook.reply(hook.handle({ type: "timeCheck" }));
  hook.write(session_log_exports.keepUntold(notices, now));
  return "done";
}
function statusLineText(deps, now) {
  const state = transitionWithSubagents(loadState(deps, now), { type: "timeCheck" }, now).state;
  return statusText(state, now) ?? "";
}

// src/adapters/node/file-ledger.ts
import {
  closeSync as closeSync2,
  fsyncSync,
  linkSync,
  mkdirSync as mkdirSync2,
  openSync as openSync2,
  readFileSync as readFileSync2,
  rmSync,
  statSync as statSync3,
  writeSync
} from "node:fs";
import { join as join5 } from "node:path";
function fileOf(dir, budgetId, kind) {
  return join5(dir, `${checkedId(budgetId)}.${kind}.json`);
}
function checkedId(budgetId) {
  if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
  return budgetId;
}
function startMarkOf(dir, claim2) {
  return join5(dir, `${checkedId(claim2.budgetId)}.${claim2.kind}.started`);
}
function isRecord2(value) {
  return typeof value === "object" && value !== null;
}
function isFile(path) {
  return statSync3(path, { throwIfNoEntry: false })?.isFile() === true;
}
function exists(path) {
  return statSync3(path, { throwIfNoEntry: false }) !== void 0;
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
  let text3;
  try {
    text3 = readFileSync2(file, "utf8");
  } catch (error) {
    return error.code === "EISDIR" ? {} : null;
  }
  try {
    const value = JSON.parse(text3);
    return isRecord2(value) ? value : {};
  } catch {
    return {};
  }
}
function numberOr(value, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
function createFileLedger(dir, options = {}) {
  const { link = linkSync, clock = systemClock, pid = () => process.pid, alive = processAlive } = options;
  return {
    claim(claim2) {
      const file = fileOf(dir, claim2.budgetId, claim2.kind);
      mkdirSync2(dir, { recursive: true });
      const draft = `${file}.${randomUUID()}.draft`;
      const fd = openSync2(draft, "wx");
      const record = { version: RECORD_VERSION, ...claim2, pid: pid(), claimedAt: clock.now() };
      try {
        try {
          writeSync(fd, `${JSON.stringify(record)}
`);
          fsyncSync(fd);
        } finally {
          closeSync2(fd);
        }
        link(draft, file);
        return true;
      } catch (error) {
        if (error.code === "EEXIST" && isFile(file)) return false;
        throw error;
      } finally {
        rmSync(draft, { force: true });
      }
    },
    read(budgetId) {
      if (!isBudgetId(budgetId)) return { spent: null, off: false, nudged: false };
      const spent = readJson(fileOf(dir, budgetId, "spent"));
      const fields2 = spent && isRecord2(spent.summary) ? spent.summary : {};
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
    if (!isRecord2(spent.summary) || typeof spent.summary.wrapUpUntil !== "number") return {};
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

// src/adapters/node/folded-session-log.ts
import { join as join7 } from "node:path";

// src/adapters/node/append-line.ts
import { closeSync as closeSync3, fstatSync, openSync as openSync3, readSync as readSync2, writeSync as writeSync2 } from "node:fs";
var nodeAppendFiles = {
  openAppend: (path) => openSync3(path, "a+"),
  size: (fd) => fstatSync(fd).size,
  byteAt(fd, position) {
    const byte = Buffer.alloc(1);
    readSync2(fd, byte, 0, 1, position);
    return byte.toString("latin1");
  },
  write: (fd, text3) => {
    writeSync2(fd, text3);
  },
  close: (fd) => closeSync3(fd)
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

// src/adapters/node/log-lines.ts
var text2 = (value) => typeof value === "string";
var count3 = (value) => typeof value === "number" && Number.isFinite(value);
var PROMPT_KINDS = /* @__PURE__ */ new Set(["call", "ended", "daily-stopped", "daily-ended", "prompt-dropped"]);
function readLogLine(fields2) {
  const kind = fields2.kind;
  if (kind === "active" || kind === "off" || kind === "subagents" || kind === "subagent") return { ...fields2, kind };
  if (kind === "prompt") {
    if (!text2(fields2.promptId)) return null;
    const line = { kind: "prompt", promptId: fields2.promptId, at: atOf(fields2) };
    return text2(fields2.cwd) ? { ...line, cwd: fields2.cwd } : line;
  }
  if (PROMPT_KINDS.has(String(kind))) {
    if (!text2(fields2.promptId)) return null;
    if (count3(fields2.at)) return fields2;
    return { kind, promptId: fields2.promptId, at: 0 };
  }
  switch (kind) {
    case "usage":
      if (!text2(fields2.responseId)) return null;
      return usageAsWritten(fields2) ? fields2 : usageLine(fields2, fields2.responseId);
    case "transcript":
      return count3(fields2.offset) ? { kind, offset: fields2.offset } : null;
    case "transcript-unreadable":
    case "told":
      return { kind, at: atOf(fields2) };
    case "untold":
      return { kind, notices: Array.isArray(fields2.notices) ? fields2.notices.map(String) : [], at: atOf(fields2) };
    case "daily-warned":
      return text2(fields2.level) ? { kind, level: fields2.level, at: atOf(fields2) } : null;
    case "claim":
      return claimLine(fields2);
    case "spent":
      return count3(fields2.budgetStart) ? {
        kind,
        budgetStart: fields2.budgetStart,
        usedTurns: count3(fields2.usedTurns) ? fields2.usedTurns : 0,
        elapsedMs: count3(fields2.elapsedMs) ? fields2.elapsedMs : 0,
        promptId: text2(fields2.promptId) ? fields2.promptId : null
      } : null;
    case "nudged":
      return count3(fields2.budgetStart) ? { kind, budgetStart: fields2.budgetStart } : null;
    case "spawn":
      return text2(fields2.agentType) && text2(fields2.task) ? {
        kind,
        id: text2(fields2.id) ? fields2.id : null,
        agent: text2(fields2.agent) ? fields2.agent : null,
        agentType: fields2.agentType,
        task: fields2.task,
        at: atOf(fields2)
      } : null;
    case "spawn-taken":
      return count3(fields2.index) && text2(fields2.agent) ? { kind, index: fields2.index, agent: fields2.agent, at: atOf(fields2) } : null;
    case "spawn-refused":
      return text2(fields2.agent) && text2(fields2.reason) ? { kind, agent: fields2.agent, reason: fields2.reason, at: atOf(fields2) } : null;
    case "owed":
      return Array.isArray(fields2.lines) ? { kind, to: text2(fields2.to) ? fields2.to : null, lines: fields2.lines.map(String), at: atOf(fields2) } : null;
    case "paid":
      return { kind, to: text2(fields2.to) ? fields2.to : null, at: atOf(fields2) };
    case "tool":
      return text2(fields2.promptId) && text2(fields2.key) && (fields2.agent === null || text2(fields2.agent)) ? { kind, promptId: fields2.promptId, agent: fields2.agent, key: fields2.key, at: atOf(fields2) } : null;
    default:
      return null;
  }
}
function atOf(fields2) {
  return count3(fields2.at) ? fields2.at : 0;
}
function usageAsWritten(fields2) {
  const { tokens, cost, at, offset, prompt: prompt2 } = fields2;
  return count3(tokens) && (cost === void 0 || count3(cost)) && (at === void 0 || count3(at)) && (offset === void 0 || count3(offset)) && (prompt2 === void 0 || promptOf(prompt2).prompt !== void 0);
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
function promptOf(prompt2) {
  if (typeof prompt2 !== "object" || prompt2 === null) return {};
  const { input, from } = prompt2;
  return count3(input) && count3(from) ? { prompt: { input, from } } : {};
}
function claimLine(fields2) {
  const claim2 = fields2.claim;
  if (typeof claim2 !== "object" || claim2 === null) return null;
  const { kind, budgetId } = claim2;
  if (!text2(budgetId) || !["spent", "off", "nudged", "ended", "onStopRecovered"].includes(String(kind))) return null;
  return { kind: "claim", claim: claim2, at: atOf(fields2) };
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
function eachLogLine(text3, add2) {
  const raws = text3.split("\n");
  for (let index = 0; index < raws.length; index++) {
    const raw = raws[index];
    if (raw.length === 0) continue;
    try {
      const value = JSON.parse(raw);
      const line = isFields3(value) ? readLogLine(value) : null;
      if (line !== null) add2(line);
    } catch {
    }
  }
}

// src/adapters/node/log-summary.ts
import { closeSync as closeSync4, fstatSync as fstatSync2, openSync as openSync4, readFileSync as readFileSync3, readSync as readSync3, renameSync, rmSync as rmSync2, writeFileSync as writeFileSync2 } from "node:fs";
var SUMMARY_SUFFIX = ".fold.json";
var nodeLogFiles = {
  open(path) {
    try {
      return openSync4(path, "r");
    } catch (error) {
      const code = error.code;
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw error;
    }
  },
  stat(fd) {
    const stats = fstatSync2(fd);
    return { size: stats.size, ino: stats.ino };
  },
  read(fd, length, position) {
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const got = readSync3(fd, buffer, done, length - done, position + done);
      if (got === 0) break;
      done += got;
    }
    return buffer.subarray(0, done);
  },
  close: (fd) => closeSync4(fd),
  readText(path) {
    try {
      return readFileSync3(path, "utf8");
    } catch {
      return null;
    }
  },
  replace(path, text3) {
    const draft = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    try {
      writeFileSync2(draft, text3, { flag: "wx" });
      renameSync(draft, path);
    } catch (error) {
      rmSync2(draft, { force: true });
      throw error;
    }
  }
};
function readLog(files, path, summaryPath) {
  let fd;
  try {
    fd = files.open(path);
  } catch (error) {
    throw named2(path, error);
  }
  if (fd === null) return { fold: emptyLogFold(), end: null, missing: true };
  try {
    const { size, ino } = files.stat(fd);
    const kept2 = keptSummary(files, fd, summaryPath, size, ino);
    const start = kept2?.offset ?? 0;
    const from = Math.max(0, start - LOG_FOLD_CHECK_BYTES);
    const bytes = files.read(fd, size - from, from);
    const fold = kept2?.fold ?? emptyLogFold();
    const whole = bytes.lastIndexOf(10) + 1;
    eachLogLine(
      bytes.subarray(start - from, Math.max(whole, start - from)).toString("utf8"),
      (line) => foldLine(fold, line)
    );
    const offset = Math.max(from + whole, start);
    const head = kept2?.head.length === LOG_FOLD_CHECK_BYTES ? kept2.head : bytes.subarray(0, Math.min(LOG_FOLD_CHECK_BYTES, offset));
    const back = bytes.subarray(Math.max(0, offset - LOG_FOLD_CHECK_BYTES) - from, offset - from);
    const end = { fold, offset, bytes: offset - start, ino, head: Buffer.from(head), back: Buffer.from(back) };
    const torn = bytes.subarray(offset - from).toString("utf8");
    if (torn.length === 0) return { fold, end };
    const withTorn = copyLogFold(fold);
    eachLogLine(torn, (line) => foldLine(withTorn, line));
    return { fold: withTorn, end };
  } catch (error) {
    throw named2(path, error);
  } finally {
    files.close(fd);
  }
}
function keptSummary(files, fd, summaryPath, size, ino) {
  const text3 = files.readText(summaryPath);
  if (text3 === null) return null;
  const split = text3.indexOf("\n");
  const header = headerOf(text3.slice(0, split));
  if (header === null || header.version !== LOG_FOLD_VERSION || header.ino !== ino) return null;
  const { offset } = header;
  if (!Number.isInteger(offset) || offset <= 0 || offset > size) return null;
  const body = text3.slice(split + 1);
  if (split < 0 || body.length !== header.length) return null;
  const head = files.read(fd, Math.min(LOG_FOLD_CHECK_BYTES, offset), 0);
  const backFrom = Math.max(0, offset - LOG_FOLD_CHECK_BYTES);
  const back = files.read(fd, offset - backFrom, backFrom);
  if (back.at(-1) !== 10 || !head.equals(Buffer.from(header.head, "base64"))) return null;
  if (!back.equals(Buffer.from(header.back, "base64"))) return null;
  let fold;
  try {
    fold = restoreLogFold(JSON.parse(body), readLogLine);
  } catch {
    return null;
  }
  return fold === null ? null : { fold, offset, head };
}
function headerOf(line) {
  try {
    const value = JSON.parse(line);
    if (typeof value !== "object" || value === null) return null;
    const { version, offset, ino, head, back, length } = value;
    const numbers = [version, offset, ino, length].every((field) => typeof field === "number");
    return numbers && typeof head === "string" && typeof back === "string" ? value : null;
  } catch {
    return null;
  }
}
function summaryText(end) {
  const body = JSON.stringify(serialiseLogFold(end.fold));
  const header = {
    version: LOG_FOLD_VERSION,
    offset: end.offset,
    ino: end.ino,
    head: end.head.toString("base64"),
    back: end.back.toString("base64"),
    length: body.length
  };
  return `${JSON.stringify(header)}
${body}`;
}

// src/adapters/node/session-log.ts
import { mkdirSync as mkdirSync3, readFileSync as readFileSync4 } from "node:fs";
import { join as join6 } from "node:path";
var SessionLog = class {
  /**
   * `readOnce`: the file is read at the first look and kept, with what this log writes added (a hook is one short
   * process: it folds its session once); else every look reads the file again.
   */
  constructor(dataDir, sessionId, clock = systemClock, readOnce = false, files = nodeAppendFiles) {
    this.clock = clock;
    this.readOnce = readOnce;
    this.files = files;
    this.folder = join6(dataDir, "sessions");
    this.file = join6(this.folder, `${sessionId}.jsonl`);
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
  appendUsage(responseId, used, at, offset, prompt2) {
    this.appendLine({
      kind: "usage",
      responseId,
      ...used,
      at,
      ...offset === void 0 ? {} : { offset },
      ...prompt2 === void 0 ? {} : { prompt: prompt2 }
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
    let text3;
    this.absent = false;
    try {
      text3 = readFileSync4(this.file, "utf8");
    } catch (error) {
      const code = error.code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        this.absent = true;
        return [];
      }
      throw named2(this.file, error);
    }
    const lines = [];
    eachLogLine(text3, (line) => lines.push(line));
    return lines;
  }
  /**
   * Appends one line; a single small append is written whole even when hooks run in parallel, and a line torn by a
   * process killed mid-write stays apart from it (`append-line.ts`).
   */
  appendLine(line) {
    mkdirSync3(this.folder, { recursive: true });
    appendLine(this.file, `${JSON.stringify(line)}
`, this.files);
    this.read?.push(JSON.parse(JSON.stringify(line)));
  }
};

// src/adapters/node/folded-session-log.ts
var FoldedSessionLog = class extends SessionLog {
  constructor(dataDir, sessionId, clock = systemClock, files = nodeAppendFiles, reads = nodeLogFiles) {
    super(dataDir, sessionId, clock, true, files);
    this.reads = reads;
    this.summary = join7(this.folder, `${sessionId}${SUMMARY_SUFFIX}`);
  }
  reads;
  summary;
  /** The fold now: as read, with what this log wrote since. */
  fold = null;
  /** Where the read ended, and its fold as it was then (a summary to keep). */
  end = null;
  /** Whether the log was not there when it was last read. */
  absentAtRead = false;
  /** Every readable line of the log but the kinds the fold adds up (calls, usage, runs' ends, transcript reads). */
  lines() {
    return this.current().kept;
  }
  stepOf(promptId) {
    return stepOfFold(this.current(), promptId);
  }
  transcriptProgress() {
    const fold = this.current();
    return { offset: fold.offset, seen: fold.responses };
  }
  latestPrompt() {
    return this.current().usagePrompt;
  }
  /** The whole log as history, read again (a report's: what each response used, and when). */
  history() {
    return historyOf(this.readFile());
  }
  foldedHistory() {
    return foldHistory(historyOfFold(this.current()));
  }
  missing() {
    this.current();
    return this.absentAtRead;
  }
  runEnded(promptId) {
    return this.current().ended.has(promptId);
  }
  empty() {
    return this.current().lines === 0;
  }
  /**
   * What the read of the log (made now, if it was not) read past its kept summary; null where there is no log, or
   * once this log wrote a line (the fold is no summary of the file's first lines then).
   */
  foldRead() {
    this.current();
    return this.end === null ? null : { fold: this.end.fold, bytes: this.end.bytes };
  }
  reread() {
    this.fold = null;
    this.end = null;
  }
  appendLine(line) {
    super.appendLine(line);
    if (this.fold === null) return;
    this.end = null;
    foldLine(this.fold, JSON.parse(JSON.stringify(line)));
  }
  /**
   * Keeps the fold this log read as the summary of the log up to where the read ended (the rules say when). Only a
   * cache: one that cannot be written is left for a later hook, and the log is read as before.
   */
  keepFold(fold) {
    const end = this.end;
    if (end === null || fold !== end.fold) return;
    try {
      this.reads.replace(this.summary, summaryText(end));
    } catch {
    }
  }
  current() {
    if (this.fold !== null) return this.fold;
    const read = readLog(this.reads, this.file, this.summary);
    this.end = read.end;
    this.fold = read.fold;
    this.absentAtRead = read.missing === true;
    return read.fold;
  }
};

// src/adapters/team/open.ts
import { hostname, userInfo } from "node:os";

// src/adapters/node/daily-ledger.ts
import { closeSync as closeSync5, mkdirSync as mkdirSync4, openSync as openSync5, readdirSync as readdirSync2, readSync as readSync4, rmSync as rmSync3, statSync as statSync4, writeFileSync as writeFileSync3 } from "node:fs";
import { homedir } from "node:os";
import { join as join8 } from "node:path";

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
  const text3 = files.read(file, offset, size - offset);
  const end = text3.lastIndexOf("\n");
  if (end < 0) return { lines: [], offset };
  const lines = [];
  for (const raw of text3.slice(0, end).split("\n")) {
    try {
      lines.push(JSON.parse(raw));
    } catch {
    }
  }
  return { lines, offset: offset + files.byteLength(text3.slice(0, end + 1)) };
}
function fieldsOf2(value) {
  return typeof value === "object" && value !== null ? value : {};
}
function takeUse(cache, line) {
  const fields2 = fieldsOf2(line);
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
      const fields2 = fieldsOf2(line);
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
    const text3 = `${JSON.stringify(line)}
`;
    const { before, after } = files.append(cache.useFile, text3);
    if (before === cache.useOffset && after === before + files.byteLength(text3)) {
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
function dailyStateDir(env) {
  return join8(stateDirIn(env.XDG_STATE_HOME, env.HOME ?? homedir()));
}
function scopeFolder(scope) {
  return scope === "user" ? "user" : `project-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
}
var nodeDailyFiles = {
  join: join8,
  makeDir: (path) => {
    mkdirSync4(path, { recursive: true });
  },
  list: (path) => readdirSync2(path),
  remove: (path) => rmSync3(path, { recursive: true, force: true }),
  exists: (path) => statSync4(path, { throwIfNoEntry: false }) !== void 0,
  size: (path) => statSync4(path, { throwIfNoEntry: false })?.size ?? 0,
  read(path, offset, length) {
    const fd = openSync5(path, "r");
    try {
      const buffer = Buffer.alloc(length);
      const read = readSync4(fd, buffer, 0, length, offset);
      return buffer.subarray(0, read).toString("utf8");
    } finally {
      closeSync5(fd);
    }
  },
  byteLength: (text3) => Buffer.byteLength(text3, "utf8"),
  // A line torn by a process killed mid-write stays apart from the next (`append-line.ts`).
  append: (path, text3) => appendLine(path, text3),
  createExclusive(path, text3) {
    try {
      writeFileSync3(path, text3, { flag: "wx" });
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

// src/adapters/team/batch.ts
var WRITES = /* @__PURE__ */ new Set(["adjust", "limits", "ask"]);
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
    const before = writes.find((write5) => write5 !== "done");
    if (before !== void 0) {
      writes.push({ failed: teamWriteNotSent("a write before it was not done") });
      continue;
    }
    writes.push(await write3(op, ledger) ?? "done");
  }
  return writes;
}
function write3(op, ledger) {
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

// src/adapters/team/bridge.ts
import { existsSync as existsSync2 } from "node:fs";
import { fileURLToPath } from "node:url";

// lazy-builtin:node:worker_threads
import { createRequire as createRequire3 } from "node:module";
var loaded3;
var load4 = () => loaded3 ??= process.getBuiltinModule?.("node:worker_threads") ?? createRequire3(import.meta.url)("node:worker_threads");
function Worker(...args) {
  return new (load4()).Worker(...args);
}

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

// lazy-builtin:node:net
import { createRequire as createRequire4 } from "node:module";
var loaded4;
var load5 = () => loaded4 ??= process.getBuiltinModule?.("node:net") ?? createRequire4(import.meta.url)("node:net");
function connect(...args) {
  return load5().connect(...args);
}

// lazy-builtin:node:tls
import { createRequire as createRequire5 } from "node:module";
var loaded5;
var load6 = () => loaded5 ??= process.getBuiltinModule?.("node:tls") ?? createRequire5(import.meta.url)("node:tls");
function connect2(...args) {
  return load6().connect(...args);
}

// src/adapters/team/resp.ts
var ReplyError = class {
  constructor(message) {
    this.message = message;
  }
  message;
};
function encodeCommand(args) {
  let text3 = `*${args.length}\r
`;
  for (const arg of args) {
    const value = String(arg);
    text3 += `$${Buffer.byteLength(value)}\r
${value}\r
`;
  }
  return Buffer.from(text3);
}
var CR = 13;
var SIMPLE = 43;
var ERROR = 45;
var INTEGER = 58;
var BULK = 36;
var ARRAY2 = 42;
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
    case ARRAY2: {
      const count4 = numberAt(buffer, offset + 1, end);
      if (count4 < 0) return { value: null, next };
      const items = [];
      let at = next;
      for (let index = 0; index < count4; index++) {
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
  const command3 = (args, ms) => new Promise((resolve) => {
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
      let reply = await command3(["EVALSHA", sha(name, lua), ...rest], left());
      if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT")) {
        reply = await command3(["EVAL", lua, ...rest], left());
      }
      return reply instanceof ReplyError ? { ok: false, error: reply.message } : { ok: true, value: reply };
    },
    post(name, keys, args) {
      const { lua, rest } = evalArgs(name, keys, args);
      void command3(["EVALSHA", sha(name, lua), ...rest], options.callMs).then((reply) => {
        if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT"))
          void command3(["EVAL", lua, ...rest], options.callMs);
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
  keptDays(count4) {
    return this.run(this.day.keptDays(count4));
  }
  problem() {
    return this.day.problem();
  }
};

// src/adapters/team/outbox.ts
import { mkdirSync as mkdirSync5, readdirSync as readdirSync3, readFileSync as readFileSync5, renameSync as renameSync2, rmSync as rmSync4, statSync as statSync5 } from "node:fs";
import { join as join9 } from "node:path";
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
function entriesOf(text3) {
  const entries = [];
  for (const line of text3.split("\n")) {
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
      mkdirSync5(folder, { recursive: true });
      appendLine(join9(folder, UNSENT), `${JSON.stringify({ id: newId(), ...use })}
`);
    },
    waiting() {
      try {
        return readdirSync3(folder).some((name) => name === UNSENT || SENDING.test(name));
      } catch {
        return false;
      }
    },
    take() {
      try {
        renameSync2(join9(folder, UNSENT), join9(folder, `sending-${Date.now()}-${newId()}.jsonl`));
      } catch {
      }
      const names = readdirSync3(folder).filter((name) => SENDING.test(name)).sort();
      const batches = [];
      for (const name of names) {
        const path = join9(folder, name);
        let text3;
        try {
          text3 = readFileSync5(path, "utf8");
        } catch (error) {
          if (missing(error)) continue;
          throw error;
        }
        const read = Buffer.byteLength(text3);
        const sent = () => {
          if (sizeOf(path) <= read) rmSync4(path, { force: true });
        };
        batches.push({ entries: entriesOf(text3), sent });
      }
      return batches;
    }
  };
}
function sizeOf(path) {
  try {
    return statSync5(path).size;
  } catch {
    return 0;
  }
}
function outboxFolder(stateDir, team2) {
  return join9(stateDir, "team", `team-${team2}`);
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
    const text3 = this.untold;
    this.untold = null;
    return text3;
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

// src/adapters/team/read-ahead.ts
var NO_USE = { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 };
var ReadAheadLedger = class {
  constructor(options) {
    this.options = options;
    this.budgets = options.budgets;
    this.outage = new Outage(options.closed, options.clock, options.texts);
  }
  options;
  /** The day as the last batch read it; null before the first. */
  reading = null;
  /** When the day was last read (or a batch failed), epoch ms; null before the first. */
  readAt = null;
  /** A batch that could not run at all: the outage policy's. */
  outage;
  ops = [];
  carried = null;
  budgets;
  /** Whether the session's model call is reserved already (until an answer's use settles it). */
  reserved = false;
  untold = null;
  told = false;
  /** Why the last prompt refused at `settle` was refused. */
  taken = DAILY_TAKEN_REFUSAL;
  /** The team's store beside the day, as a daily command's batch read it. */
  view = { unreadable: NO_TEAM };
  /** While a daily command's writes are learnt, those the rules make; else null. */
  recording = null;
  /** What became of a prepared command's writes, answered in order as the rules make them again; else null. */
  replay = null;
  get team() {
    return this.options.team;
  }
  standings(budgets) {
    this.budgets = budgets;
    const standings = this.reading ?? budgets.map((budget) => ({ budget, use: NO_USE, adjustment: NO_ADJUSTMENT, dayStart: 0 }));
    const closed = this.outage.refusal();
    if (closed === null) return standings;
    if (standings.length === 0) return [closedTeamStanding(this.options.team, closed, 0)];
    return standings.map((standing2) => ({ ...standing2, closed }));
  }
  /** Counted ahead: the rules count a prompt only where the day just read leaves one; the store decides at `settle`. */
  countPrompt(budgets, limits) {
    this.ops.push({ op: "count", limits: [...limits], budgets: [...budgets] });
    return true;
  }
  addUse(budgets, use) {
    this.ops.push({ op: "use", use, budgets: [...budgets] });
    this.reserved = false;
  }
  /** Reserves the model call about to start, once: a call counted at its tool's end and at its request is one. */
  reserve(budgets) {
    if (this.reserved) return;
    this.reserved = true;
    this.ops.push({ op: "reserve", budgets: [...budgets] });
  }
  adjust(budget, adjustment) {
    return this.write({ op: "adjust", budget, adjustment });
  }
  teamView() {
    return this.view;
  }
  setTeamLimits(limits) {
    return this.write({ op: "limits", limits });
  }
  askTeam(adjustment, why) {
    return this.write({ op: "ask", adjustment, why });
  }
  /**
   * A write of a daily command: learnt while it is prepared (taken as done), then answered with what the store made of
   * it. A write that was not prepared is not done: only a prepared command writes beside the day's use.
   */
  write(op) {
    if (this.recording !== null) {
      this.recording.push(op);
      return "done";
    }
    return this.replay?.shift() ?? { failed: teamWriteNotSent("it was not prepared") };
  }
  /**
   * Before the rules answer `/timebox <words>`: for a daily command, the day and the team's store beside it are read,
   * the writes the rules make for it learnt on that reading and sent, in order, in one batch; else the day is read as
   * before any event.
   */
  async prepare(words) {
    const command3 = parseCommand(words);
    if (command3.kind !== "today" && command3.kind !== "team") return this.refresh();
    this.replay = null;
    const ops = [...this.takeOps(), { op: "view" }];
    const read = await this.exchange(ops, true);
    if ("error" in read) {
      this.failed(ops);
      this.view = { unreadable: this.options.texts.unreachable(read.error, this.options.closed) };
    } else this.view = read.view ?? { unreadable: teamWriteNotSent("the batch did not read it") };
    this.recording = [];
    let answered2 = true;
    try {
      dailyCommandAnswer(
        command3,
        dailyCommandPorts({ ledger: this, budgets: this.budgets }, () => {
          answered2 = false;
        })
      );
    } finally {
      const writes = answered2 ? this.recording : [];
      this.recording = null;
      if (writes.length > 0) {
        const sent = await this.exchange(writes, false);
        const why = "error" in sent ? sent.error : "the batch did not say";
        this.replay = "error" in sent || !sent.writes ? writes.map(() => ({ failed: teamWriteNotSent(why) })) : sent.writes;
      } else this.replay = [];
    }
  }
  problem() {
    const said = this.untold;
    this.untold = null;
    return said;
  }
  takenRefusal() {
    return this.taken;
  }
  /** Reads the day before an event, unless the last batch read it just now. */
  async refresh() {
    if (this.readAt !== null && this.options.clock.now() - this.readAt < TEAM_HOP_FRESH_MS) return;
    await this.send(true);
  }
  /**
   * Sends what the event wrote, with a read where `readAfter` or where a prompt was counted (a prompt the store refused
   * is refused in the words of the day as it stands): false when the store refused a prompt counted in it.
   */
  async settle() {
    if (this.ops.length === 0) return true;
    return this.send(this.options.readAfter || this.ops.some((op) => op.op === "count"));
  }
  /** Runs the calls made since the last batch, then a read where `read`, in one batch. */
  async send(read) {
    const ops = this.takeOps();
    const outcome = await this.exchange(ops, read);
    if ("error" in outcome) return this.failed(ops);
    if (!outcome.counted.includes(false)) return true;
    this.taken = promptTakenMessage(outcome.standings) ?? DAILY_TAKEN_REFUSAL;
    return false;
  }
  /** The calls made since the last batch, taken to send. */
  takeOps() {
    const ops = this.ops;
    this.ops = [];
    return ops;
  }
  /** Runs `ops`, then a read where `read`, in one batch: its reply, or why it could not run (the outage policy's). */
  async exchange(ops, read) {
    const waiting = this.outage.waiting();
    if (waiting !== null) return { error: waiting };
    const request = {
      session: this.options.sessionId,
      budgets: [...this.budgets],
      ops,
      ...this.carried ? { carry: this.carried } : {},
      ...read ? {} : { read: false }
    };
    const outcome = await this.options.run(request).catch((error) => ({
      error: error instanceof Error ? error.message : String(error)
    }));
    if (read || "error" in outcome) this.readAt = this.options.clock.now();
    if ("error" in outcome) {
      this.outage.failed(outcome.error);
      return outcome;
    }
    this.outage.answered();
    if (read) this.reading = outcome.standings;
    this.carried = outcome.carry;
    if (outcome.problem !== null) this.say(outcome.problem);
    return outcome;
  }
  /**
   * A batch that could not run (or one held back while the way to the store is left alone): said once; in the closed
   * mode new turns are refused (a prompt counted in the batch among them), else the session goes on and what the
   * batch held is not counted for the team.
   */
  failed(ops) {
    const said = this.outage.told();
    if (said !== null) this.say(said);
    const refusal2 = this.outage.refusal();
    if (refusal2 === null) return true;
    this.taken = refusal2;
    return !ops.some((op) => op.op === "count");
  }
  /** Says a problem once per session: the first. */
  say(problem) {
    if (this.told) return;
    this.told = true;
    this.untold = problem;
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
function amount(text3) {
  const value = Number(text3);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
function limit(text3) {
  const value = amount(text3);
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
function askOf(id, text3) {
  let value;
  try {
    value = JSON.parse(text3);
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
  for (const [id, text3] of hash) {
    const ask = askOf(id, text3);
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
  const members = [...fields(whoFields)].map(([name, count4]) => ({ name, sessions: amount(count4) }));
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
  const text3 = askText(calls.config.member, adjustment, why, calls.now);
  const args = [...common(calls, expiry), id, text3, TEAM_ASKS_KEPT];
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
  *request(script, keys, args, write5 = false) {
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
    if (answer !== null && write5) return { ok: false, error: why };
    if (answer === "refused") this.outage.denied(why);
    else this.outage.failed(why);
    const said = this.outage.told();
    if (said !== null) this.untold.push(said);
    return { ok: false, error: why };
  }
  /** An error's text without the store's password or full address. */
  hidden(error) {
    let text3 = error.split(this.config.url).join(this.config.shown);
    const password = new URL(this.config.url).password;
    if (password) text3 = text3.split(password).join("***").split(decodeURIComponent(password)).join("***");
    return text3.trim() || "no answer";
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
};

// src/adapters/team/open.ts
function memberName(host) {
  return `${userInfo().username}@${hostname()} (${host})`;
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
function asyncStore(config) {
  return openStore(config.url, SCRIPTS, {
    connectMs: TEAM_CONNECT_MS,
    callMs: TEAM_CALL_MS,
    connector: nodeConnector,
    shas: SCRIPT_SHAS
  });
}
function openHookDailyLedger(options, budgets) {
  const { local, team: team2 } = opening(options);
  if (team2 === null) return local;
  const { config } = team2;
  return readAheadIn(new AsyncTeamLedger(team2.day, () => asyncStore(config)), config, options, budgets);
}
function readAheadIn(ledger, config, options, budgets) {
  return new ReadAheadLedger({
    sessionId: options.sessionId,
    clock: options.clock,
    budgets,
    closed: config.failure === "closed",
    run: (request) => runTeamBatch(request, ledger),
    texts: {
      unreachable: (why, closed) => teamStoreUnreachable(config.shown, why, closed),
      refusal: (why) => teamStoreRefusal(config.shown, why)
    },
    // The process ends after its event: nothing reads the day after it.
    readAfter: false,
    team: { name: config.team, zone: config.zone }
  });
}

// src/entries/hook-cli.ts
var USAGE2 = "usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id> | timebox report [--session <id>] [--days <n>] [--out <file>]";
function joinStatusLines(theirs, ours) {
  return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}
function option(args, name) {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : void 0;
}
function dailyOf(env, sessionId, clock, host, open) {
  const text3 = env[DAILY_ENV]?.trim();
  const options = { env, sessionId, clock, host, entry: import.meta.url };
  if (!text3) {
    if (!env[DAILY_STORE_ENV]?.trim() && !env[TEAM_ENV]?.trim()) return {};
    return { daily: { ledger: open(options, []), budgets: [] } };
  }
  const budget = parseDailyBudget(text3, "user", DAILY_ENV);
  if ("warning" in budget) return { dailyWarning: budget.warning };
  return { daily: { ledger: open(options, [budget]), budgets: [budget] } };
}
function pageOf(write5, id, host, project) {
  return (page) => write5(page, { id, host, project });
}
function cwdOf(fields2) {
  return typeof fields2.cwd === "string" && fields2.cwd.length > 0 ? fields2.cwd : null;
}
function subagentsOf(env) {
  const value = env[SUBAGENTS_ENV];
  return value !== void 0 && value.trim().length > 0 ? { subagents: { value, source: SUBAGENTS_ENV } } : {};
}
async function watch(rest, env, deps) {
  const dataDir = option(rest, "--data");
  const sessionId = option(rest, "--session");
  const budget = option(rest, "--budget");
  if (!dataDir || !sessionId || !budget) return { stdout: "", stderr: `timebox: ${USAGE2}
` };
  const hookDeps = {
    store: new FoldedSessionLog(dataDir, sessionId, deps.clock),
    ledger: createFileLedger(join10(dataDir, LEDGER_FOLDER), { clock: deps.clock }),
    clock: deps.clock,
    onStop: deps.onStop,
    ...dailyOf(env, sessionId, deps.clock, option(rest, "--host") ?? "watcher", openDailyLedger),
    ...subagentsOf(env)
  };
  try {
    for (let missed = 0; ; await deps.sleep(WATCH_INTERVAL_MS)) {
      const look = await watchOnce(hookDeps, budget, deps.clock.now());
      missed = look === "missing" ? missed + 1 : 0;
      if (look === "done" || missed >= WATCH_GONE_LOOKS) return { stdout: "", stderr: "" };
    }
  } catch (error) {
    return { stdout: "", stderr: `timebox: the watcher stopped: ${String(error)}
` };
  }
}
async function runCli(args, stdin2, env, deps) {
  const [mode, ...rest] = args;
  const home = env.HOME ?? homedir2();
  const hostName = option(rest, "--host") ?? deps.hosts[0]?.name;
  const host = deps.hosts.find((candidate) => candidate.name === hostName);
  if (mode === "watch") return watch(rest, env, deps);
  if (mode === "report") {
    const { runReport } = await import("./timebox-report.mjs");
    const result2 = runReport(rest, env, home, deps.clock);
    return { stdout: result2.stdout, stderr: result2.stderr, exitCode: result2.failed ? 1 : 0 };
  }
  if (mode !== "hook" && mode !== "statusline" && mode !== "setup-statusline") {
    return { stdout: "", stderr: `timebox: ${USAGE2}
` };
  }
  if (!host) return { stdout: "", stderr: `timebox: unknown host "${hostName}": ${USAGE2}
` };
  const statusLine = host.statusLine;
  if (mode === "setup-statusline") {
    if (!statusLine) return { stdout: "", stderr: `timebox: ${host.name} has no status line to set up
` };
    const settings = option(rest, "--settings") ?? statusLine.settings(home);
    return { stdout: `${statusLine.setup(settings, deps.script)}
`, stderr: "" };
  }
  const parsed = parseHookInput(stdin2, mode === "statusline" ? "statusline" : void 0);
  if ("error" in parsed) return { stdout: "", stderr: `timebox: ignored this ${mode} call: ${parsed.error}
` };
  const event = host.read(parsed);
  const dataDir = option(rest, "--data") ?? env.CLAUDE_PLUGIN_DATA ?? host.dataDir(env, home) ?? (mode === "statusline" ? statusLine?.findDataDir(home, event.sessionId) ?? null : null);
  if (!dataDir) return { stdout: "", stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n" };
  const cwd = cwdOf(parsed.fields);
  const store = new FoldedSessionLog(dataDir, event.sessionId, deps.clock).setCwd(cwd);
  const ledger = createFileLedger(join10(dataDir, LEDGER_FOLDER), { clock: deps.clock });
  try {
    if (mode === "statusline") {
      const wrapped = option(rest, "--wrap");
      const theirs = wrapped ? deps.runStatusLine(wrapped, stdin2) : "";
      return {
        stdout: `${joinStatusLines(theirs, statusLineText({ store, ledger }, deps.clock.now()))}
`,
        stderr: ""
      };
    }
    const script = statusLine?.script(env) ?? null;
    const read = deps.projectHistory;
    const daily = dailyOf(env, event.sessionId, deps.clock, host.name, deps.openDaily ?? openHookDailyLedger);
    const readAhead = readAheadOf(daily);
    await (event.command === null ? readAhead?.refresh() : readAhead?.prepare(event.command));
    const reply = await handleHook(event, {
      store,
      ledger,
      clock: deps.clock,
      onStop: deps.onStop,
      ...deps.newBudgetId ? { newBudgetId: deps.newBudgetId } : {},
      ...env[DEFAULT_ENV] ? { defaultBudget: env[DEFAULT_ENV] } : {},
      ...daily,
      ...subagentsOf(env),
      ...statusLine && script !== null ? { setupStatusLine: () => statusLine.setup(statusLine.settings(home), script) } : {},
      startWatcher: (budget) => deps.startWatcher(dataDir, event.sessionId, budget),
      ...host.unnamedPrompts ? { unnamedPrompts: true } : {},
      ...host.readUsage ? { readUsage: host.readUsage } : {},
      ...host.transcriptSize ? { transcriptSize: host.transcriptSize } : {},
      terms: host.terms,
      ...deps.reportPage ? { reportPage: pageOf(deps.reportPage, event.sessionId, host.name, cwd) } : {},
      ...read && cwd !== null ? { projectHistory: () => read(cwd, event.sessionId) } : {}
    });
    const answer = reply === null ? null : host.write(reply, event);
    return { stdout: answer ? `${JSON.stringify(answer)}
` : "", stderr: "" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const stderr = `timebox: internal error, nothing enforced for this ${event.hostEvent}: ${message}
`;
    if (event.command === null) return { stdout: "", stderr };
    const blocked = host.write(
      {
        notices: [inHostTerms(internalErrorMessage("/timebox", error), host.terms)],
        context: [],
        refusal: null,
        stop: false,
        answered: true
      },
      event
    );
    return { stdout: `${JSON.stringify(blocked)}
`, stderr };
  }
}

// src/entries/report/writer.ts
function nodeReportPageWriter(env, clock, load7) {
  return async (input, { id, host, project = null }) => {
    const { writeHostPage } = await load7();
    return writeHostPage(input, { env, now: clock.now(), session: { id, host }, project });
  };
}
function nodeProjectHistory(env, load7) {
  return async (project, current) => {
    const { pastSessionsOf } = await load7();
    return pastSessionsOf(env)(project, current);
  };
}

// src/entries/hooks.ts
var importReport = () => import("./timebox-report.mjs");
var stdin = "";
try {
  if (!["setup-statusline", "report"].includes(process.argv[2] ?? "")) stdin = readFileSync6(0, "utf8");
} catch {
}
var result = await runCli(process.argv.slice(2), stdin, process.env, {
  hosts: [claudeCodeHost, geminiCliHost, codexCliHost],
  clock: systemClock,
  // A hook ends right after its reply: it says the command started once the wrapper holds its mark.
  onStop: createShellStarter(spawn, { untilMarked: true }),
  runStatusLine: runStatusLineCommand,
  script: process.argv[1] ?? "timebox.mjs",
  startWatcher: (dataDir, sessionId, budget) => {
    const args = [
      process.argv[1] ?? "timebox.mjs",
      "watch",
      "--data",
      dataDir,
      "--session",
      sessionId,
      "--budget",
      budget
    ];
    spawn(process.execPath, args, { detached: true, stdio: "ignore" }).on("error", () => {
    }).unref();
  },
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
  reportPage: nodeReportPageWriter(process.env, systemClock, importReport),
  projectHistory: nodeProjectHistory(process.env, importReport)
});
function write4(fd, text3) {
  let rest = Buffer.from(text3);
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync3(fd, rest));
  } catch {
    (fd === 1 ? process.stdout : process.stderr).write(rest);
  }
}
write4(1, result.stdout);
write4(2, result.stderr);
process.exitCode = result.exitCode ?? 0;
