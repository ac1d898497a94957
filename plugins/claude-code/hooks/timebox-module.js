// Timebox's hooks module for Claude Code (function hooks), bundled from src/entries/claude-module.ts by npm run build. Do not edit.

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
var TEAM_HOP_MS = 4500;
var TEAM_HOP_FRESH_MS = 2e3;
var TEAM_RETRY_MS = 5e3;
var SESSION_TOLD_KEPT_MS = 7 * 24 * 36e5;
var TEAM_RESERVATION_MS = 10 * 6e4;
var TEAM_KEYS_OUTLIVE_S = 24 * 3600;
var TEAM_SCOPE = "team";
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
var SESSION_ONLY = /^(steps|loop|grace):|^aware$/i;
function isSessionWord(token) {
  return SESSION_ONLY.test(token);
}
function quoteInput(text) {
  const chars = Array.from(text);
  const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}\u2026` : text;
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
      const count2 = Number(stepMatch[1]);
      if (count2 < 1 || count2 > MAX_STEP_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a step cap is 1 to 10,000 model calls per prompt.` };
      }
      if (steps !== null) notes.push(replacesNote(token, stepsWord));
      steps = count2;
      stepsWord = token;
      continue;
    }
    if (LOOP_TOKEN.test(token)) {
      const digits = token.slice(token.indexOf(":") + 1);
      const count2 = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
      if (Number.isNaN(count2)) {
        return {
          invalid: `${quoteInput(token)} is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).`
        };
      }
      if (count2 < MIN_LOOP_LIMIT || count2 > MAX_LOOP_LIMIT) {
        return { invalid: `${quoteInput(token)} is out of range: a loop guard is 2 to 1,000 identical calls.` };
      }
      if (loop !== null) notes.push(replacesNote(token, loopWord));
      loop = count2;
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
    const count = parseTurns(token);
    if (count !== null) {
      if (count < 1 || count > MAX_TURN_LIMIT) {
        return {
          invalid: `${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.`
        };
      }
      if (turns !== null) notes.push(replacesNote(token, turnsWord));
      turns = count;
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
function safeAmount(amount) {
  return Number.isFinite(amount) ? Math.max(0, amount) : 0;
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
function limitsToday(standing2) {
  const { limits } = standing2.budget;
  const add2 = standing2.adjustment;
  const plus = (limit, more) => limit === null ? null : limit + more;
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
  const ratio = (used, limit) => limit === null ? 0 : safeAmount(used) / limit;
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
function ordinal(count) {
  const tens = count % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : count % 10 === 1 ? "st" : count % 10 === 2 ? "nd" : count % 10 === 3 ? "rd" : "th";
  return `${count}${suffix}`;
}
function named(tool, view) {
  return view.length > 0 ? `${tool} (${view})` : tool;
}
function loopRefusal(tool, view, count, scope = "run") {
  const shown = view.length > 0 ? ` (${view})` : "";
  return `Timebox: this is the ${ordinal(count)} identical ${tool} call in this ${scope}${shown}; its result will not change. Change your approach or finish with what you have.`;
}
function loopRefusedMessage(tool, view, count) {
  return `Timebox refused a repeated call: ${named(tool, view)}, the ${ordinal(count)} identical one in this run.`;
}
function subagentLoopRefusedMessage(agent, tool, view, count) {
  return `Timebox refused a repeated call of ${agent}: ${named(tool, view)}, the ${ordinal(count)} identical one in its task.`;
}
function loopStoppedMessage(tool, view, count) {
  return `Timebox stopped a loop: ${named(tool, view)} asked for ${count} times in this run.`;
}
var FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";
function loopStopRefusal(tool, view, count) {
  return `${loopStoppedMessage(tool, view, count)} ${FINISH_NOW}`;
}
var LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;
function subagentLoopRefusal(tool, view, count) {
  return `Timebox stopped a loop: ${named(tool, view)} asked for ${count} times in this task. Write your final answer now, with what you found and what is left undone. Call no more tools.`;
}
var SUBAGENT_LOOP_STOPPED_REFUSAL = "Timebox stopped a loop in this task: a call refused as a loop was asked for again. Write your final answer now, with what you found and what is left undone. Call no more tools.";
function loopGuardPhrase(limit) {
  return `a loop guard (the ${ordinal(limit)} identical tool call of a run is refused)`;
}
function loopGuardStatus(limit) {
  return `loop guard at ${limit}`;
}

// src/core/format.ts
var SECOND_MS2 = 1e3;
var SPENT_STATUS = "Timebox: budget spent";
var WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;
function formatTokens(tokens) {
  const count = safeAmount(tokens);
  if (count < 1e3) return `${Math.floor(count)}`;
  if (count < 1e6) return `${trimmed(count / 1e3)}k`;
  return `${trimmed(count / 1e6)}m`;
}
function trimmed(value) {
  const rounded = Math.floor(value * 10) / 10;
  return Number.isInteger(rounded) ? `${rounded}` : rounded.toFixed(1);
}
function formatCost(dollars) {
  const amount = safeAmount(dollars);
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  return `$${amount.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
function pluralSteps(count) {
  return `${count} ${count === 1 ? "step" : "steps"}`;
}
function pluralTurns(count) {
  return `${count} ${count === 1 ? "turn" : "turns"}`;
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
  return formatLeftMs(limitMs - elapsedMs(budget, now));
}
function formatLeftMs(ms) {
  return formatTime(Math.ceil(Math.max(0, ms) / SECOND_MS2) * SECOND_MS2);
}
function formatRemaining(budget, now, usedTurns, spend = NO_SPEND, steps = null) {
  const timePart = budget.timeLimitMs === null ? "no time limit" : `${formatTimeLeft(budget, budget.timeLimitMs, now)} left (${formatBudgetLabel(budget.timeLimitMs)} budget)`;
  const used = safeTurns(usedTurns);
  const turnPart = budget.turnLimit === null ? "no turn limit" : `${pluralTurns(Math.max(0, budget.turnLimit - used))} left (${used}/${budget.turnLimit})`;
  const timeAndTurnsOnly = budget.costLimit === void 0 && budget.tokenLimit === void 0 && budget.stepLimit === void 0 && budget.loopLimit === void 0;
  const text = `${timePart} | ${turnPart}`;
  return timeAndTurnsOnly ? text : [text, ...spendParts(budget, spend, steps)].join(" | ");
}
function stepsPerPrompt(limit) {
  return `${limit} ${limit === 1 ? "step" : "steps"} per prompt`;
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
function pluralPrompts(count) {
  return `${count} ${count === 1 ? "prompt" : "prompts"}`;
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
  dailySetting: `Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of pi's settings.json.`
};
var COST_USED = /\$[\d.]+ of (\$[\d.]+)( used, \$[\d.]+ left)?/g;
var TOKENS_USED = /\b[\d.]+[km]? of ([\d.]+[km]?) tokens\b( used, [\d.]+[km]? left)?/g;
function inHostTerms(text, terms) {
  let shown = terms.command === WRITTEN_COMMAND ? text : text.replace(NAMED_COMMAND, `$1${terms.command}`);
  const untracked = (what, limit) => (used, of, daily) => daily === void 0 ? `${of} ${limit} (${what} not tracked in ${terms.name})` : `${used} (${what} not tracked in ${terms.name})`;
  if (!terms.cost) shown = shown.replace(COST_USED, untracked("cost", "limit"));
  if (!terms.tokens) shown = shown.replace(TOKENS_USED, untracked("tokens", "token limit"));
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
function expiredMessage(budget, summary, startsLate = false, stoppedBefore = false) {
  const why = summary.timeRanOut ? "time ran out" : summary.limit === "tokens" ? "the token limit was reached" : summary.limit === "cost" ? "the cost limit was reached" : `all ${pluralTurns(Number(budget.turnLimit))} used`;
  const command2 = budget.onStopCommand === null || startsLate ? "" : stoppedBefore ? ` Its on-stop command was started at its stop, and is not run again: ${budget.onStopCommand}` : ` Its on-stop command is not run on restore: ${budget.onStopCommand}`;
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
function stepsUsedMessage(limit) {
  return `Timebox: this prompt used its ${pluralSteps(limit)}; the model was asked to finish.`;
}
function stepsRefusal(limit) {
  return `Timebox: this prompt used its ${pluralSteps(limit)}. Write the final answer now, with what was done and what is left, without tools.`;
}
function stepsStoppedMessage(limit) {
  return `Timebox: this prompt used its ${pluralSteps(limit)} and was stopped.`;
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
    const limits = describeDaily(limitsReached(standing2), true);
    return `Timebox: the team's budget for today is spent (${limits}). It resets at midnight ${team2.zone}.`;
  }
  return `Timebox: today's budget is spent (${describeDaily(limitsReached(standing2))}). It resets at midnight.`;
}
function dailyWarningMessage(standing2) {
  const whose = standing2.budget.team ? "the team's budget for today" : "today's budget";
  return `Timebox: ${whose}: ${dailyLeft(standing2)} \u2014 the model is asked to wrap up.`;
}
function dailyModelLine(standing2) {
  const whose = standing2.budget.team ? "The team's budget for today (shared by every member)" : "Today's budget (shared by every session)";
  return `${whose}: ${dailyLeft(standing2)}. ${DAILY_WRAP_UP}`;
}
var DAILY_WRAP_UP = "Wrap up what you are doing, and start nothing new.";
function limitsReached(standing2) {
  const limits = limitsToday(standing2);
  const { use } = standing2;
  const reached = (used, limit) => limit !== null && used >= limit ? limit : null;
  const spent = {
    timeMs: reached(use.agentMs, limits.timeMs),
    turns: reached(use.prompts, limits.turns),
    tokens: reached(use.tokens, limits.tokens),
    cost: reached(use.cost, limits.cost)
  };
  return Object.values(spent).some((limit) => limit !== null) ? spent : limits;
}
function dailyLeft(standing2) {
  const limits = limitsToday(standing2);
  const { use } = standing2;
  const parts = [];
  if (limits.timeMs !== null) {
    parts.push(
      `${formatLeftMs(limits.timeMs - use.agentMs)} of agent time left of ${formatBudgetLabel(limits.timeMs)}`
    );
  }
  if (limits.turns !== null)
    parts.push(
      `${(standing2.budget.team ? pluralTurns : pluralPrompts)(Math.max(0, limits.turns - use.prompts))} left of ${limits.turns}`
    );
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
    const left = formatLeftMs(limits.timeMs - use.agentMs);
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
function teamWriteNotSent(why) {
  return `Timebox: the team's daily store did not get it (${why}). Nothing changed.`;
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
function teamLimitsSet(team2, stored, notes = []) {
  const replaced = notes.map((note) => `
${note}`).join("");
  return `Timebox: the team ${team2.name}'s limits are now ${describeDaily(stored.limits, true)} a day, in its store, for every member from their next check.${replaced}`;
}
function keptToday(standings) {
  const day = standings.find((standing2) => standing2.budget.team !== void 0 && standing2.budget.personal !== true);
  if (day === void 0) return [];
  if (day.adjustment.off)
    return ["The team's day is off until midnight (/timebox today off): they count from tomorrow."];
  const added = describeAdded(day.adjustment);
  return added === "" ? [] : [`Today's raise of ${added} still holds on top of them until midnight.`];
}
function teamLimitsRemoved(team2) {
  return `Timebox: the team ${team2.name}'s limits are removed from its store: each machine's own daily budget (TIMEBOX_DAILY) is the team's again.`;
}
function teamHadNoLimits(team2) {
  return `Timebox: the team ${team2.name}'s store keeps no limits, so there were none to remove: each machine's own daily budget (TIMEBOX_DAILY) is the team's.`;
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
function teamReport(team2, view, standings, unread = null) {
  const today2 = standings.filter((standing2) => standing2.budget.team !== void 0).map(todayLine);
  const lines = [limitsLine(team2, view.stored)];
  if (unread !== null) lines.push(teamDayUnreadLine(unread));
  else lines.push(...today2.length > 0 ? today2 : ["No daily budget of the team covers this session today."]);
  const asks = [...view.asks].sort((a, b) => a.at - b.at);
  if (asks.length === 0) lines.push("No open requests.");
  else lines.push(`Open requests (${asks.length}):`, ...asks.map(askLine));
  return lines.join("\n");
}
function noTeamLimitsHere(team2) {
  return `The team ${team2.name}'s store keeps no limits either: /timebox team shows it.`;
}
function teamDayUnread(why, shown) {
  return `today's use could not be read from the team's daily store${shown ? ` ${shown}` : ""} (${why})`;
}
function teamDayUnreadLine(unread) {
  return `${unread.charAt(0).toUpperCase()}${unread.slice(1)}, so the team's standing today is not known.`;
}
function teamDayUnknown(unread, changing) {
  return `Timebox: ${unread}, so the team's standing today is not known.${changing ? " Nothing changed." : ""}`;
}
function teamDayUnknownHere(unread) {
  return `Timebox: ${unread}, so the team's standing today is not known. Meanwhile this machine's own daily budget holds this session:`;
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
var PERSONAL_KEPT = "Your own daily budget (TIMEBOX_DAILY) is not changed: it is yours, not the team's; change it in TIMEBOX_DAILY, for the sessions that start after.";
function adjusted(standings, adjustment) {
  return standings.map((standing2) => {
    if (standing2.budget.personal === true) return standing2;
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
  const budgets = standings.map((standing2) => standing2.budget).filter((budget) => budget.personal !== true);
  const kept2 = standings.length - budgets.length;
  const keptNote = kept2 === 0 ? "" : `
${PERSONAL_KEPT}`;
  const change = (adjustment, message) => ({
    message: null,
    level: "info",
    effects: [{ kind: "adjustDaily", adjustment, budgets, done: [{ kind: "notify", message, level: "info" }] }]
  });
  if (command2.kind === "off") {
    return change(
      { ...NO_ADJUSTMENT, off: true },
      `Timebox: today's budget is off until midnight, in every session it covers.${keptNote}`
    );
  }
  return change(
    command2.adjustment,
    `Timebox: today's budget raised by ${command2.added} for the rest of the day.
${todayReport(adjusted(standings, command2.adjustment))}${keptNote}`
  );
}

// src/core/daily/team.ts
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
function limitsUnread(standing2) {
  return standing2.budget.source === STORE_SOURCE && standing2.budget.stored === void 0;
}
var TEAM_USAGE = "After /timebox team: nothing, set <limits> (set 4h turns:200 $50), set off, or ask +30m <why>.";
var SET_WORDS = "a time (4h), turns:200, tokens:2m and cost ($50)";
var SET_KNOWN = `team set takes ${SET_WORDS}`;
var LIMIT_KINDS = ["timeMs", "turns", "tokens", "cost"];
function parseLimits(text) {
  const tokens = joinSplitTokens(text).split(/\s+/).filter((token) => token.length > 0);
  if (tokens.length === 0)
    return { kind: "invalid", reason: `team set takes the team's limits, ${SET_WORDS}, or off.` };
  if (tokens.length === 1 && tokens[0]?.toLowerCase() === "off") return { kind: "unset" };
  const limits = { timeMs: null, turns: null, tokens: null, cost: null };
  const given = /* @__PURE__ */ new Map();
  const notes = [];
  for (const token of tokens) {
    if (token.startsWith("+")) {
      const raise = `To raise today's budget: /timebox today ${token}.`;
      return { kind: "invalid", reason: `${quoteInput(token)} is no daily budget word: ${SET_KNOWN}. ${raise}` };
    }
    const word = readWords([token], SET_KNOWN);
    if ("invalid" in word && !isSessionWord(token)) return { kind: "invalid", reason: word.invalid };
    if ("invalid" in word || [word.timeMs, word.turns, word.tokens, word.cost].every((limit) => limit === null)) {
      return { kind: "invalid", reason: `${quoteInput(token)} is no daily budget word: ${SET_KNOWN}.` };
    }
    for (const kind of LIMIT_KINDS) {
      if (word[kind] === null) continue;
      const earlier = given.get(kind);
      if (earlier !== void 0) notes.push(replacesNote(token, earlier, kind === "timeMs"));
      given.set(kind, token);
      limits[kind] = word[kind];
    }
  }
  return notes.length > 0 ? { kind: "set", limits, notes } : { kind: "set", limits };
}
function parseAsk(text) {
  const tokens = text.split(/\s+/).filter((token) => token.length > 0);
  const count = tokens.findIndex((token) => !token.startsWith("+"));
  const amount = (count < 0 ? tokens : tokens.slice(0, count)).join(" ");
  const asked = amount === "" ? null : parseToday(amount);
  if (asked === null || asked.kind !== "add") {
    const why2 = asked?.kind === "invalid" ? `${quoteInput(amount)} is not an amount to add: ` : "";
    return { kind: "invalid", reason: `${why2}team ask takes what to add first (+30m, +turns:20, +$5), then why.` };
  }
  const why = Array.from(count < 0 ? "" : tokens.slice(count).join(" ")).slice(0, TEAM_ASK_WHY_CHARS).join("");
  return { kind: "ask", adjustment: asked.adjustment, grant: amount, why };
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
      const standings = reads.standings();
      const unread = reads.dayUnread?.() ?? null;
      return {
        message: teamReport(team2, view, standings, unread),
        level: unread === null ? "info" : "warning",
        effects: []
      };
    }
    case "set": {
      const done = notify2(teamLimitsSet(team2, command2, [...command2.notes ?? [], ...keptToday(reads.standings())]));
      return { message: null, level: "info", effects: [{ kind: "setTeamLimits", limits: command2.limits, done }] };
    }
    case "unset": {
      const view = reads.view();
      const none = "stored" in view && view.stored === null;
      const done = notify2(none ? teamHadNoLimits(team2) : teamLimitsRemoved(team2));
      return { message: null, level: "info", effects: [{ kind: "setTeamLimits", limits: null, done }] };
    }
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
    modelLines.push(dailyModelLine(standing2));
    if (now.includes(level)) continue;
    now.push(level);
    effects.push({ kind: "notify", message: dailyWarningMessage(standing2), level: "warning" });
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
function budgetsCounting(port) {
  return inForce(port.ledger.standings(port.budgets));
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
      if (spent) {
        const time = event.used ? [] : addAgentTime(running, standings);
        return {
          ...none,
          session: { ...resumed, runStartedAt: now, stopped: true },
          effects: [...write3, ...time, ...refusal(spent)]
        };
      }
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
    const limit = timeRanOut || turnsSpent ? void 0 : tokensSpent ? "tokens" : "cost";
    const summary = summaryOf(budget, elapsed, used, tokens, cost, timeRanOut, limit);
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
function stopWithoutRoom(budget, now, turns, spend, limit) {
  const used = safeTurns(turns);
  const elapsed = elapsedMs(budget, now);
  const summary = summaryOf(budget, elapsed, used, safeAmount(spend.tokens), safeAmount(spend.cost), false, limit);
  summary.noRoom = true;
  return { kind: "stop", usedTurns: used, elapsedMs: elapsed, onStopCommand: budget.onStopCommand, summary };
}
function summaryOf(budget, elapsed, used, tokens, cost, timeRanOut, limit) {
  const summary = { usedTurns: used, elapsedMs: elapsed, timeRanOut };
  if (limit) summary.limit = limit;
  if (budget.tokenLimit !== void 0) summary.tokens = tokens;
  if (budget.costLimit !== void 0) summary.cost = cost;
  return summary;
}
function decideMidRun(budget, now, turns, spend = NO_SPEND) {
  return decideOn(budget, now, turns, spend, false);
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
function optionalFields(fields) {
  const { tokenLimit, costLimit, stepLimit, loopLimit, pausedMs, pausedAt, extensions, awareness, graceMs } = fields;
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
      ports.daily?.ledger.addUse(effect.budgets ?? budgetsCounting(ports.daily), effect.use);
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
      const report = (outcome) => onStopReport2(command2, outcome, effect.recovery);
      try {
        const mark = startMark(effect, ports);
        if (mark === void 0) ports.onStop.start(command2, report);
        else ports.onStop.start(command2, report, { mark });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        report({ kind: "failed", problem: `could not start ${quoteInput(command2)}: ${reason}` });
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
  const unreadable = daily?.unreadable ?? [];
  const none = unreadable.length > 0 ? unreadable.join("\n") : noDailyBudgetMessage(terms);
  const noneLevel = unreadable.length > 0 ? "warning" : "info";
  if (!hasDailyBudgets(daily)) return { message: none, level: noneLevel, effects: [] };
  const standings = daily.ledger.standings(daily.budgets);
  const team2 = daily.ledger.team;
  const usable = team2 !== void 0 && !("unusable" in team2) ? team2 : null;
  const refusing = team2 !== void 0 && "unusable" in team2 ? team2.unusable : null;
  const named2 = refusing !== null && standings.some((standing2) => standing2.closed === refusing) ? [refusing] : [];
  const unread = usable === null ? null : daily.ledger.dayUnread?.() ?? null;
  const asked = parseToday(words);
  if (asked.kind === "invalid") return todayCommand(standings, words);
  if (refusing !== null && standings.length > 0 && standings.every(limitsUnread)) {
    return { message: refusing, level: "warning", effects: [] };
  }
  if (unread !== null && standings.every(limitsUnread)) {
    return { message: teamDayUnknown(unread, asked.kind !== "show"), level: "warning", effects: [] };
  }
  if (unread !== null && asked.kind === "show") {
    const shown = todayCommand(standings.map(machineOwn), words);
    return { message: [teamDayUnknownHere(unread), shown.message].join("\n"), level: "warning", effects: [] };
  }
  if (standings.length === 0) {
    if (refusing !== null)
      return { message: [refusing, ...unreadable].join("\n"), level: "warning", effects: [] };
    const message = usable === null ? none : `${none} ${noTeamLimitsHere(usable)}`;
    return { message, level: noneLevel, effects: [] };
  }
  const answer = todayCommand(standings, words);
  return answer.message === null ? answer : { ...answer, message: [answer.message, ...named2, ...unreadable].join("\n") };
}
function machineOwn(standing2) {
  const { team: _team, ...own } = standing2.budget;
  return { ...standing2, budget: own };
}
function team(daily, words) {
  if (daily === void 0) return { message: NO_TEAM, level: "info", effects: [] };
  const { ledger, budgets } = daily;
  return teamCommand(ledger.team, words, {
    view: () => ledger.teamView?.() ?? { unreadable: NO_TEAM },
    standings: () => ledger.standings(budgets),
    dayUnread: () => ledger.dayUnread?.() ?? null
  });
}
function toldBefore(daily, message) {
  const team2 = daily?.ledger.team;
  if (daily === void 0 || team2 === void 0 || !("unusable" in team2) || !message.includes(team2.unusable))
    return null;
  const problem = daily.ledger.problem();
  return problem === team2.unusable ? null : problem;
}
function dailyCommandAnswer(command2, ports, terms = DEFAULT_TERMS) {
  const answer = noAnswer();
  try {
    const reply = command2.kind === "today" ? today(ports.daily, command2.words, terms) : team(ports.daily, command2.words);
    carryOut(reply.effects, ports, answer, nothing);
    const told = reply.message === null ? null : toldBefore(ports.daily, reply.message);
    if (told !== null) answer.notices.push({ message: told, level: "warning" });
    if (reply.message !== null) answer.notices.push({ message: reply.message, level: reply.level });
  } catch (error) {
    ports.problem(`/timebox ${command2.kind}`, error);
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
function refusesCall(effects) {
  return effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort");
}
function callGoes(effects) {
  return !refusesCall(effects) && !effects.some((effect) => effect.kind === "ask");
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
function pluralCalls(count) {
  return `${count} model ${count === 1 ? "call" : "calls"}`;
}
function subagentName(task, agentType) {
  return `subagent ${quoteInput(task)} (${agentType})`;
}
function subagentStoppedMessage(name, limit, budget, steps, parent) {
  const to = parent === null ? "the main agent" : "the agent that started it";
  return `Timebox: ${name} stopped ${subagentStopCause(limit, budget)} after ${pluralCalls(steps)}; its answer went back to ${to}.`;
}
function subagentWarningMessage(name, left) {
  return `Timebox: ${name} used 80% of its budget (${left} left); it is asked to wrap up.`;
}
function subagentParentLine(limit, budget, used) {
  const at = limit === "session" ? "when the session's budget ran out" : limit === "parent" ? "when the agent that started it was stopped" : `at ${subagentLimitPhrase(limit, budget)}`;
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
  const hosts = [...byHost].map(([host, count]) => ({ host, sessions: count })).sort((a, b) => b.sessions - a.sessions);
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
function lastSessions(count) {
  return count === 1 ? "your last session here" : `your last ${count} sessions here`;
}
function sessionsCount(count) {
  if (count === 0) return "no session";
  return count === 1 ? "1 session" : `${count} sessions`;
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
      if (agents.budgets === null && agents.badSetting !== void 0)
        return { agents, effects: [notify(agents.badSetting, "warning")] };
      return { agents, effects: [notify(showBudget(agents), "info")] };
    case "off": {
      const { badSetting: _said, ...rest } = agents;
      return {
        agents: { ...rest, budgets: null },
        effects: [budgetsRecord(null, now), notify(SUBAGENT_BUDGET_OFF, "info")]
      };
    }
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
    const warning = badSettingMessage(setting.source, setting.value, read.invalid);
    effects.push(notify(warning, "warning"));
    return { ...agents, badSetting: warning };
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
  const count = runs.length === 1 ? "1 subagent" : `${runs.length} subagents`;
  return [`${count} in this session:`, ...runs.map((run) => `- ${subagentReportLine(run, now)}`)];
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
function stepsQuestion(limit) {
  return `This prompt used its ${pluralSteps(limit)}. Stop now, or continue with ${limit} more?`;
}
function moreStepsChoice(limit) {
  return `Continue with ${limit} more steps`;
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
  const limit = standing2?.budget.stepLimit;
  if (!standing2 || limit === void 0 || !state.running || standing2.steps === null) return null;
  return { used: standing2.steps, allowed: limit + standing2.stepAllowance };
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
    once(
      {
        kind: "spent",
        budgetId: outcomeId(budget),
        summary: { ...summary, wrapUpUntil: until },
        prompt,
        // What the run's end starts, kept with the stop: a process that finds the run over and its end unclaimed
        // (the one that ran it was killed) ends it (recovery.ts).
        ...budget.onStopCommand === null ? {} : { onStopAtEnd: budget.onStopCommand }
      },
      [{ kind: "notify", message, level: "error" }]
    )
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

// src/core/session/commands.ts
function command(state, event, now) {
  const parsed2 = parseCommand(event.args);
  if (parsed2.kind === "subagents") {
    const result = subagentsCommand2(state.subagents, parsed2, now);
    return { state: { ...state, subagents: result.agents }, effects: result.effects };
  }
  const used = usedByBudget(state);
  const plan = planCommand(parsed2, {
    ...event.turns === void 0 ? {} : { turns: event.turns },
    budget: budgetOf(state),
    spent: state.standing?.spent ?? null,
    usedTurns: used.usedTurns,
    spend: used.spend,
    now,
    newBudgetId: event.newBudgetId,
    ...event.cost === void 0 ? {} : { cost: event.cost },
    ...event.tokensSeen === void 0 ? {} : { tokensSeen: event.tokensSeen },
    ...event.report === void 0 ? {} : { report: event.report },
    ...parsed2.kind === "status" ? { subagents: subagentStatusLines(state.subagents, now) } : {}
  });
  const ignored = (parsed2.kind === "off" || parsed2.kind === "status") && parsed2.ignored !== void 0 ? ignoredWordsNote(parsed2.kind, parsed2.ignored) : null;
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
      const ended = wrapUpEnded(state, now);
      const next = withNewBudget(ended.state, plan.budget);
      return {
        state: next,
        effects: [...recordBudget(plan.budget), status(next, now), reply, ...ended.effects]
      };
    }
    case "update": {
      const standing2 = { ...freshStanding(plan.budget), ...state.standing };
      const stop2 = usedAtStop(state);
      const next = withStanding(
        state,
        standing2,
        plan.reactivate ? {
          budget: { ...plan.budget, softNudgeSent: false, active: true },
          spent: null,
          stoppedPrompt: null,
          wrapUp: null,
          // Counted from the stop; a run the stop let wrap up goes on under the extension, its prompt counted.
          ...stop2 && { usedTurns: stop2.counted, runningCounted: stop2.runningCounted, spend: stop2.spend }
        } : {
          budget: {
            ...plan.budget,
            softNudgeSent: plan.budget.extensions === standing2.budget.extensions && standing2.budget.softNudgeSent
          }
        }
      );
      return {
        state: next,
        effects: [
          ...recordBudget(plan.budget, next.standing?.usedTurns, next.standing?.spend),
          status(next, now),
          reply
        ]
      };
    }
    case "off": {
      const ended = wrapUpEnded(state, now);
      const next = withNewBudget(ended.state, null);
      if (!plan.write) return { state: next, effects: [status(next, now), reply, ...ended.effects] };
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
function wrapUpEnded(state, now) {
  const wrapUp = state.standing?.wrapUp;
  if (!state.standing || !wrapUp) return { state, effects: [] };
  const ended = endWrapUp(state, state.standing, wrapUp, now, null);
  return { state: ended.state, effects: ended.effects.filter((effect) => effect.kind !== "status") };
}
function usedByBudget(state) {
  const stop2 = usedAtStop(state);
  if (stop2 === null) return { usedTurns: shownTurns(state), spend: spendOf(state) };
  return { usedTurns: stop2.counted - (stop2.runningCounted ? 1 : 0), spend: stop2.spend };
}
function usedAtStop(state) {
  const spent = state.standing?.spent;
  if (!spent) return null;
  const spend = spendOf(state);
  return {
    counted: spent.usedTurns + (spent.promptCounted ? 1 : 0),
    runningCounted: state.running && spent.promptCounted === true && state.lastPrompt === state.standing?.stoppedPrompt,
    spend: { tokens: spent.tokens ?? spend.tokens, cost: spent.cost ?? spend.cost }
  };
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
function formatStepsWrapUp(limit) {
  return [
    "TIMEBOX: STEPS SPENT",
    `This prompt has made the ${limit} model calls the user allows per prompt. Write your final answer now: what was done, and what is left to do.`,
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
  if (!callGoes(effects)) return result;
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

// src/core/session/recovery.ts
function recoverOnStop(ledger, now, load2) {
  const intent = ledger.onStop;
  if (!intent || intent.started || intent.recovered) return [];
  if (intent.endsBy !== void 0) return load2 === void 0 ? [] : runEnded(intent, intent.endsBy, now, load2);
  if (intent.claimantAlive && now - intent.claimedAt < ON_STOP_RECOVERY_MS) return [];
  return [{ kind: "startOnStop", command: intent.command, claim: intent.claim, recovery: intent.claim.budgetId }];
}
function recoveredStart(event) {
  if (event.recovery === void 0 || event.outcome.kind === "exited") return [];
  const told = event.outcome.kind === "failed" ? [] : [{ kind: "notify", message: ON_STOP_RAN_LATE, level: "warning" }];
  return [once({ kind: "onStopRecovered", budgetId: event.recovery }, told)];
}
function runEnded(intent, endsBy, now, load2) {
  if (load2.continuesRun) return [];
  const over = intent.claimantAlive ? endsBy + ON_STOP_RECOVERY_MS : load2.atStart ? Number.NEGATIVE_INFINITY : endsBy;
  if (now < over) return [];
  const budgetId = intent.claim.budgetId;
  return [
    once({ kind: "ended", budgetId, onStopCommand: intent.command }, [
      { kind: "startOnStop", command: intent.command, claim: { budgetId, kind: "ended" }, recovery: budgetId }
    ])
  ];
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
    (limit) => stopWithoutRoom(budget, now, active.usedTurns, active.spend, limit)
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
  const limit = standing2?.budget.stepLimit;
  if (steps && limit !== void 0 && key === state.lastPrompt && steps.used > steps.allowed && !standing2?.spent) {
    return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit) }] };
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
    (limit) => stopWithoutRoom(budget, now, turns, active.spend, limit),
    agent
  );
  switch (decision.kind) {
    case "stop": {
      const counted = state.running && active.runningCounted;
      const summary = counted ? { ...decision.summary, promptCounted: true } : decision.summary;
      if (state.running && graceOf(state, budget) > 0) {
        return startWrapUp(state, active, summary, prompt, now, reached === "toolCall");
      }
      return hardStop(state, active, summary, prompt, now, reached === "toolCall" || reached === "modelCall");
    }
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
  const began = event.outcome.kind === "started" || event.outcome.kind === "alreadyStarted";
  const outcome = began && standing2?.onStopOutcome !== "failed" ? "ran" : "failed";
  const next = standing2?.spent ? withStanding(state, standing2, { onStopOutcome: outcome }) : state;
  return {
    state: next,
    effects: [...onStopReport(event.command, event.outcome), ...recoveredStart(event), status(next, now)]
  };
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
    case "alreadyStarted":
      return [];
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

// src/core/session/load.ts
function load(event, now) {
  const recovered = recoverOnStop(event.ledger, now, recoveryLoad(event));
  const loaded = loadBudget(event, now, recovered.length > 0);
  return recovered.length === 0 ? loaded : { state: loaded.state, effects: [...loaded.effects, ...recovered] };
}
function recoveryLoad(event) {
  return { continuesRun: wrappingPrompt(event) !== null, atStart: event.runningPrompt === void 0 };
}
function wrappingPrompt(event) {
  const { history, ledger } = event;
  const runningKey = event.runningPrompt === void 0 ? null : event.runningPrompt ?? history.lastPrompt;
  const running = runningKey !== null && runningKey === history.lastPrompt;
  const wraps = event.mode === "continue" && running && ledger.spent?.wrapUpUntil !== void 0;
  return wraps && ledger.spent?.prompt === runningKey ? runningKey : null;
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
    const wrappedPrompt = wrappingPrompt(event);
    const wrapUp = wrapUntil !== void 0 && wrappedPrompt !== null ? {
      prompt: wrappedPrompt,
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
      effects.push({
        kind: "notify",
        message: expiredMessage(budget, summary, startsLate, ledger.onStop !== void 0),
        level: "warning"
      });
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
  const command2 = parseCommand(text);
  if (unavailable !== void 0 || command2.kind !== "set") {
    const reason = unavailable ?? (command2.kind === "invalid" ? command2.reason : `${quoteInput(text)} is not a budget.`);
    return {
      state,
      effects: [
        status(state, now),
        { kind: "notify", message: badDefaultMessage(source, reason), level: "warning" },
        { kind: "logLine", line: { kind: "default-said", at: now } }
      ]
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
    const fields = value;
    const parts = [];
    for (const key of sortedKeys(fields)) {
      const written2 = write(fields[key], open);
      if (written2 !== void 0) parts.push(`${JSON.stringify(key)}:${written2}`);
    }
    text = `{${parts.join(",")}}`;
  }
  open.delete(value);
  return text;
}
function sortedKeys(fields) {
  const keys = Object.keys(fields);
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
    const fields = value;
    feed(lanes, OBJECT);
    for (const key of sortedKeys(fields)) {
      const field = fields[key];
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
  const fields = input;
  const command2 = commandOf(fields.command);
  if (command2 !== null) return command2;
  for (const field of TELLING_FIELDS) {
    const value = fields[field];
    if (typeof value === "string" && value.trim().length > 0) return value;
  }
  const first = firstString(fields, 0);
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
  const fields = value;
  const items = Array.isArray(value) ? value : Object.keys(fields).sort().map((key) => fields[key]);
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
  let count = 1;
  if (slot === void 0) next = { a: hash.a, b: hash.b, count };
  else if (isLevel(slot)) {
    const below = add(slot, hash, depth + 1);
    next = below.level;
    count = below.count;
  } else if (same(slot, hash)) {
    count = slot.count + 1;
    next = { a: hash.a, b: hash.b, count };
  } else {
    const moved = EMPTY_LEVEL.slice();
    moved[slotOf(slot, depth + 1)] = slot;
    next = add(moved, hash, depth + 1).level;
  }
  const copy = level.slice();
  copy[index] = next;
  return { level: copy, count };
}
function isLevel(slot) {
  return Array.isArray(slot);
}

// src/core/loop/guard.ts
function checkCall(calls, run, call, limit, earlier) {
  const before = earlier === void 0 ? calls !== null && calls.run === run ? calls : noCalls(run) : replay(run, earlier);
  if (before.peak > limit) return { calls: before, count: 0, verdict: "stopped" };
  const counted = countCall(before, callHash(call));
  const verdict = counted.count < limit ? "runs" : counted.count === limit ? "refused" : "stops";
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
  const limit = active?.budget.loopLimit;
  if (!active || limit === void 0) return result;
  const check = checkCall(active.calls ?? null, promptKeyOf(state, event.prompt), call, limit, event.earlier);
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
  const limit = active?.budget.loopLimit;
  if (calls === void 0 || limit === void 0 || calls.peak <= limit) return null;
  const key = promptKeyOf(state, prompt);
  if (key !== calls.run || key !== state.lastPrompt) return null;
  return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }] };
}

// src/core/session/steps.ts
function countStep(before, result, event, now) {
  const { state, effects } = result;
  const active = counting(state);
  const limit = active?.budget.stepLimit;
  if (!active || limit === void 0) return result;
  const newPrompt = state.lastPrompt !== before.lastPrompt;
  const previous = newPrompt ? 0 : active.steps ?? 0;
  const step = event.step ?? previous + 1;
  const used = step < previous ? previous + 1 : Math.max(previous, step);
  const allowance = newPrompt ? 0 : active.stepAllowance;
  const allowed = limit + allowance;
  const counted = withStanding(state, active, { steps: used, stepAllowance: allowance });
  const withStatus = [...effects.filter((effect) => effect.kind !== "status"), status(counted, now)];
  if (used <= allowed || used === previous) return { state: counted, effects: withStatus };
  if (used > allowed + 1) {
    return {
      state: counted,
      effects: [...withStatus, { kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit) }]
    };
  }
  if (state.askAtLimit) {
    return { state: { ...state, asking: true }, effects: [askAboutSteps(limit, allowance, event)] };
  }
  return {
    state: counted,
    effects: [...withStatus, { kind: "notify", message: stepsUsedMessage(limit), level: "warning" }]
  };
}
function askAboutSteps(limit, allowance, reached) {
  const answer = (choice) => ({
    type: "stepsAnswer",
    answer: choice,
    limit,
    allowance,
    reached
  });
  return {
    kind: "ask",
    question: stepsQuestion(limit),
    choices: [
      { label: STOP_CHOICE, answer: answer("stop") },
      { label: moreStepsChoice(limit), answer: answer("more") }
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
  const { limit } = event;
  if (event.answer === "stop") {
    return {
      state,
      effects: [
        { kind: "notify", message: stepsStoppedMessage(limit), level: "warning" },
        { kind: "abort" },
        { kind: "refuse", reason: stepsRefusal(limit) }
      ]
    };
  }
  const standing2 = state.standing;
  const more = standing2 ? withStanding(state, standing2, { stepAllowance: event.allowance + limit }) : state;
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
  const count = budgets.length === 1 ? "1 budget" : `${budgets.length} budgets`;
  const note = unmeasuredNote(terms);
  return [`Timebox report: ${count} in this session.`, ...lines, ...subagents, ...note === null ? [] : [note]].join(
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

// src/core/run/live-report-page.ts
function livePageSource(ports, budgets) {
  const daily = ports.daily;
  return {
    history: () => ports.store.history(),
    ledger: (budget) => readLedger(ports.ledger, budget),
    now: ports.clock.now(),
    terms: ports.terms,
    standings: () => daily && (budgets.length > 0 || daily.team !== void 0) ? daily.standings(budgets) : [],
    team: () => teamOfPage(daily)
  };
}
function teamOfPage(daily) {
  const team2 = daily?.team;
  if (team2 === void 0 || "unusable" in team2 || daily?.teamView === void 0) return void 0;
  return { team: team2, view: daily.teamView(), unread: daily.dayUnread?.() ?? null };
}
async function writeReportPage(write3, source) {
  if (write3 === void 0) return void 0;
  try {
    const report = reportData(source.history(), source.ledger, source.now, source.terms);
    const standings = source.standings();
    const team2 = source.team();
    return { path: await write3({ report, standings, ...team2 === void 0 ? {} : { team: team2 } }) };
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
  const limit = run?.budget?.loopLimit;
  if (call === void 0 || run === void 0 || limit === void 0) return result;
  if (!isRunning(run) || run.spent !== null) return result;
  const check = checkCall(result.agents.calls?.[agent] ?? null, agent, call, limit, event.earlier);
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
function spendBudget(agents, run, limit, now, session) {
  const spent = {
    ...run,
    spent: { limit, at: now },
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
function stop(agents, run, now, limit, refuse, cascade) {
  const spent = run.spent ?? { limit, at: now };
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
function stoppedNotice(run, limit) {
  const name = subagentName(run.task, run.agentType);
  return {
    kind: "notify",
    message: subagentStoppedMessage(name, limit, run.budget, run.steps, run.parent),
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
  const limit = reachedLimit(run, now) ?? noRoomIn(run, request);
  if (limit !== null) {
    const wrapping = { ...run, steps: run.steps + 1, spent: { limit, at: now } };
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
  const limit = reachedLimit(run, now, false);
  if (limit === null) return { agents, effects: [] };
  const spent = { ...run, spent: { limit, at: now }, wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: 0 } };
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
    const limit = running ? reachedLimit(withSpend, now, false) : null;
    const step = limit === null ? running ? warnOnce(next, withSpend, now, [], true) : kept(next, withSpend) : spendBudget(next, withSpend, limit, now, session);
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
      const limit = reachedLimit(run, now, false);
      step = limit === null ? warnOnce(next, run, now, [], false) : spendBudget(next, run, limit, now, session);
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
   * event there; else their notices and lines for the model come after the session's own. A new prompt that the
   * session's own budget refuses goes to the session's rules alone: it never runs, so the day does not count it.
   */
  handle(event) {
    if (event.type === "promptRefused") this.daily = { ...this.daily, session: dailyRefused(this.daily.session) };
    if (this.sessionHoldsPrompt(event)) return this.dispatch(event);
    if (event.type === "limitAnswer" && event.answer !== "stop") return this.goOnAfterAsking(event);
    const daily = this.dailyAnswer(event);
    if (daily !== null && daily.refusal !== null) return daily;
    const answer = this.dispatch(event);
    const merged = daily === null ? answer : mergeAnswer(answer, daily);
    if (!answer.aborted || this.daily.session.runStartedAt === null) return merged;
    const ended = this.dailyAnswer({ type: "runEnd" });
    return ended === null ? merged : mergeAnswer(merged, ended);
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
    const parsed2 = parseCommand(args);
    if (parsed2.kind === "today" || parsed2.kind === "team") return dailyCommandAnswer(parsed2, this.ports, this.terms);
    if (parsed2.kind === "reportPage") {
      const answer2 = noAnswer();
      answer2.notices.push(reportPageReply(details.reportPage));
      return answer2;
    }
    if (parsed2.kind === "suggest") {
      const answer2 = noAnswer();
      const reply = suggestReply(details.suggestion);
      answer2.notices.push({ message: inHostTerms(reply.message, this.terms), level: reply.level });
      return answer2;
    }
    const event = { type: "command", args, newBudgetId: details.newBudgetId };
    if (details.canAsk !== void 0) event.canAsk = details.canAsk;
    if (details.cost !== void 0) event.cost = details.cost;
    if (details.tokensSeen !== void 0) event.tokensSeen = details.tokensSeen;
    if (details.turns !== void 0 && parsed2.kind === "set") event.turns = details.turns();
    if (parsed2.kind === "report") {
      try {
        event.report = details.report();
      } catch (error) {
        this.ports.problem("/timebox report", error);
      }
    }
    const answer = this.dispatch(event);
    const mode = parsed2.kind === "status" ? modeLine(this.terms) : null;
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
  onStopReport = (command2, outcome, recovery) => {
    const event = { type: "onStopReport", command: command2, outcome };
    if (recovery !== void 0) event.recovery = recovery;
    const report = this.dispatch(event);
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
      const refusalSays = standings.some((standing2) => standing2.closed === problem);
      if (problem !== null && !refusalSays) {
        answer.notices.unshift({ message: inHostTerms(problem, this.terms), level: "warning" });
      }
      if (answer.refusal !== null && prompt !== null && dailyEvent.type === "newPrompt") {
        this.daily = { session: dailyRefused(result.session), refused: { prompt, reason: answer.refusal } };
      } else this.daily = { session: result.session, refused };
      return answer;
    } catch (error) {
      this.ports.problem("daily budget", error);
      return null;
    }
  }
  /**
   * Whether the event is a new prompt, under a daily budget, that the session's own rules would refuse, or hold while
   * they ask the user whether to go on at the limit (their transition is pure: asked on the state as it stands, it
   * changes nothing), where the day would not refuse it first; with `answered`, whether the user's answer to that
   * question (a `limitAnswer`) still leaves it refused or held. The day counts such a prompt only once it runs: a prompt
   * the user stops there never ran. False where that cannot be told: the day then counts the prompt, as it does any.
   */
  sessionHoldsPrompt(event, answered2 = false) {
    if (event.type !== (answered2 ? "limitAnswer" : "modelCall")) return false;
    try {
      const daily = this.ports.daily;
      const prompt = event.type === "limitAnswer" ? event.reached : event;
      if (!hasDailyBudgets(daily) || this.dailyEventOf(prompt)?.type !== "newPrompt") return false;
      const { effects } = transitionWithSubagents(this.state, event, this.ports.clock.now());
      if (refusesCall(effects)) return true;
      const asks = effects.some((effect) => effect.kind === "ask");
      return asks && (answered2 || !spentDaily(daily.ledger.standings(daily.budgets), true));
    } catch {
      return false;
    }
  }
  /**
   * The user chose more time or a prompt at the limit: the budget gets its room, and the event that met the limit goes
   * on. A new prompt held by the question starts there, so the day counts it now; a day that refuses it ends it there,
   * with the room given all the same (the user asked for it) and the prompt never run.
   */
  goOnAfterAsking(event) {
    const reached = event.reached;
    const held = reached.type === "modelCall" && this.dailyEventOf(reached)?.type === "newPrompt";
    const daily = held && !this.sessionHoldsPrompt(event, true) ? this.dailyAnswer(reached) : null;
    if (daily === null) return this.dispatch(event);
    if (daily.refusal === null) return mergeAnswer(this.dispatch(event), daily);
    return mergeAnswer(this.dispatch({ ...event, reached: { type: "timeCheck" } }), daily);
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
    const unreadable = [];
    for (const setting of this.settings.daily ?? []) {
      const budget = parseDailyBudget(setting.value, setting.scope, setting.source);
      if ("warning" in budget) {
        unreadable.push(budget.warning);
        if (announce) this.ports.ui.notify(budget.warning, "warning");
      } else budgets.push(budget);
    }
    const ledger = this.ports.daily;
    this.dailyBudgets = ledger ? budgets : [];
    if (ledger) this.runtimePorts.daily = { ledger, budgets, unreadable };
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
  /**
   * Feeds one event to the session's rules and carries out what they say, without waiting for an open question. An
   * answer to a question goes past the daily budgets too: a prompt the question held starts there, and counts then.
   */
  dispatch(event, asked = false) {
    if (this.disposed) return noAnswer();
    const before = this.runtime.state;
    const answer = asked ? this.runtime.handle(event) : this.runtime.dispatch(event);
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
    return first.questions.length === 0 ? Promise.resolve(first) : this.questions.askAll(first, (event) => this.dispatch(event, true));
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
   * The instance is gone (shut down, reloaded, replaced): a run under way ends here, as its host sends no end of it (a
   * quit while wrapping up starts the on-stop command now); then all is cleared, and all that comes after ignored.
   */
  onShutdown() {
    if (this.disposed) return;
    this.questions.close();
    if (this.runtime.state.running) this.guard("shutdown", () => this.show(this.runtime.handle({ type: "runEnd" })));
    this.disposed = true;
    this.runtime.state = EMPTY_SESSION;
    this.timeChecks.cancel();
    this.guard("session shutdown", () => this.ports.ui.setStatus(void 0));
  }
  /** Tells the user what an answer says, and stops the subagents it stops. */
  show(answer) {
    if (this.disposed) return;
    for (const notice of answer.notices) this.guard("notify", () => this.ports.ui.notify(notice.message, notice.level));
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
function teamSettingsRefusal(why, variable, mode) {
  const taken = mode.toLowerCase() === "closed" ? `"${mode}"` : `"${mode.slice(0, 64)}", taken as closed`;
  return `Timebox: ${why} The team's budget cannot be counted, so new turns are refused until it is set right (${variable} is ${taken}).`;
}
function teamFailureModeUnread(variable, value) {
  return `Timebox: ${variable} "${value.slice(0, 64)}" is neither "open" nor "closed", so new turns are refused while the team's store cannot be reached (closed).`;
}
function storeRepaired(path, entries, skipped, movedTo) {
  const skippedText = skipped === 0 ? "" : `, skipped ${skipped} it could not read`;
  return `Timebox found its store ${path} damaged: it kept the ${entries} session(s) it could read${skippedText}, moved the damaged file to ${movedTo}, and goes on.`;
}
function teamHopFailed(why, closed) {
  const goesOn = closed ? "so new turns are refused until it answers" : "so this session's use is not counted for the team until it answers";
  return `Timebox: the team's daily store cannot be reached through the plugin's batch script (${why}), ${goesOn}.`;
}

// src/core/text/refusals.ts
var TOOL_STOPPED_REFUSAL = "Timebox stopped this tool: the session's budget ran out while it ran. Run no more tools.";
var DAILY_TAKEN_REFUSAL = "Timebox: another session took today's last prompt just now, so this prompt was not sent.";
var GUARD_FAILED_REFUSAL = "Timebox could not check its budget here, so it refused (see the debug log).";

// src/adapters/claude/function-hooks/engine.ts
function engineOf($) {
  return {
    session: { id: () => $.session.id(), usage: () => $.session.usage() },
    turn: { abort: (input) => $.turn.abort(input) },
    ui: {
      status: (text) => $.ui.status(text),
      log: (text) => $.ui.log(text)
    },
    store: {
      get: (key) => $.store.get(key),
      set: (key, value) => $.store.set(key, value),
      delete: (key) => $.store.delete(key)
    },
    clock: { after: (ms, fn) => $.clock.after(ms, fn), every: (ms, fn) => $.clock.every(ms, fn) },
    process: { run: (argv) => $.process.run(argv) },
    fs: {
      read: (path, options) => $.fs.read(path, options),
      list: (path) => $.fs.list(path)
    },
    env: {
      defaultBudget: () => $.env.get("TIMEBOX_DEFAULT"),
      dailyBudget: () => $.env.get("TIMEBOX_DAILY"),
      subagentBudget: () => $.env.get("TIMEBOX_SUBAGENTS"),
      dailyStore: () => $.env.get("TIMEBOX_DAILY_STORE"),
      team: () => $.env.get("TIMEBOX_TEAM"),
      teamZone: () => $.env.get("TIMEBOX_TEAM_TZ"),
      dailyStoreFailure: () => $.env.get("TIMEBOX_DAILY_STORE_FAILURE"),
      home: () => $.env.get("HOME"),
      stateHome: () => $.env.get("XDG_STATE_HOME"),
      markModuleLoaded: () => $.env.set("TIMEBOX_MODULE_LOADED", "1")
    }
  };
}

// src/adapters/claude/function-hooks/loops.ts
var Loops = class {
  loops = /* @__PURE__ */ new Map();
  /** A loop's last step, made on first use. */
  of(agent) {
    let loop = this.loops.get(agent);
    if (!loop) {
      loop = { toolsLeft: 0, nextStep: 1, called: false, refused: null };
      this.loops.set(agent, loop);
    }
    return loop;
  }
  /** A subagent ended: its loop is forgotten. */
  end(agent) {
    this.loops.delete(agent);
  }
};
function noRequest(event) {
  return { turnId: event.turnId, index: event.index, answer: "", toolUses: [], stopReason: "end_turn", usage: null };
}

// src/adapters/claude/function-hooks/hooks.ts
async function sessionStart(host, $, event, next) {
  const engine = engineOf($);
  host.bind(engine);
  host.headless = !event.isInteractive;
  host.cwd = event.cwd;
  await Promise.all([engine.env.markModuleLoaded(), host.sessionOf(engine)]);
  return next(event);
}
async function classicSessionStart($, event, next) {
  await engineOf($).env.markModuleLoaded();
  return next(event);
}
function classicSessionStartFailed(_engine, event, next) {
  return next(event);
}
async function timeboxCommand(host, $, event) {
  const session = await host.sessionOf(engineOf($));
  return { text: await session.command(event.args), isTextDisplayOnly: true };
}
function commandFailed() {
  return { text: GUARD_FAILED_REFUSAL, isTextDisplayOnly: true };
}
async function promptSubmit(host, $, event, next) {
  const session = await host.sessionOf(engineOf($));
  return session.promptSubmit(event, next);
}
function promptGuardFailed(_engine, event, next) {
  return next.called ? next(event) : { drop: GUARD_FAILED_REFUSAL };
}
async function* turnStep(host, $, event, next) {
  const session = await host.sessionOf(engineOf($));
  if (await session.beforeStep(event) !== null) return noRequest(event);
  const response = yield* next(event);
  await session.afterStep(event, response);
  return response;
}
async function* stepFailed($, event, next) {
  if (next.called) return yield* next(event);
  $.ui.log(GUARD_FAILED_REFUSAL);
  return noRequest(event);
}
async function toolCall2(host, $, event, next) {
  const session = await host.sessionOf(engineOf($));
  return session.toolCall(event, next);
}
function toolGuardFailed(_engine, event, next) {
  return next.called ? next(event) : { deny: GUARD_FAILED_REFUSAL };
}
async function agentSpawn(host, $, event, next) {
  const session = await host.sessionOf(engineOf($));
  return session.agentSpawn(event, next);
}
function spawnGuardFailed(_engine, event, next) {
  return next.called ? next(event) : { deny: GUARD_FAILED_REFUSAL };
}
async function turnComplete(host, $, event, next) {
  const session = await host.sessionOf(engineOf($));
  await session.turnComplete(event);
  return next(event);
}
async function sessionEnd(host, $, event, next) {
  host.bind(engineOf($));
  await host.end();
  return next(event);
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
  const mode = env[DAILY_STORE_FAILURE_ENV]?.trim() ?? "";
  const failure = mode === "" || mode.toLowerCase() === "open" ? "open" : "closed";
  const fail = (why) => failure === "open" ? { config: null, warning: teamSettingsUnusable(why) } : {
    config: null,
    warning: teamSettingsRefusal(why, DAILY_STORE_FAILURE_ENV, mode),
    closed: { name: team2?.slice(0, 64) ?? "", zone: UTC }
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
  if (team2 === void 0) return fail(`${DAILY_STORE_ENV} is set without ${TEAM_ENV} (the team's name).`);
  if (!TEAM_NAME.test(team2))
    return fail(
      team2.length > 64 ? `${TEAM_ENV} "${team2.slice(0, 64)}\u2026" is not a team name: a team name is at most 64 characters.` : `${TEAM_ENV} "${team2}" is not a team name (letters, digits, ".", "_", "-").`
    );
  const zone = env[TEAM_TZ_ENV]?.trim() || UTC;
  if (!knownZone(zone)) return fail(`${TEAM_TZ_ENV} "${zone.slice(0, 64)}" is not a time zone (Europe/Berlin, UTC).`);
  const note = failure === "closed" && mode.toLowerCase() !== "closed" ? { note: teamFailureModeUnread(DAILY_STORE_FAILURE_ENV, mode) } : {};
  return { config: { url: store, shown, team: team2, zone, failure, member: member(), ...note }, warning: null };
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
function dayFolder(files, dir, scopeName, day) {
  return files.join(dir, "daily", scopeName, day);
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
  const fields = fieldsOf(line);
  if (typeof fields.session === "string") cache.sessions.add(fields.session);
  cache.agentMs += numberOr(fields.agentMs);
  cache.tokens += numberOr(fields.tokens);
  cache.cost += numberOr(fields.cost);
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
      const fields = fieldsOf(line);
      const now = cache.adjustment;
      cache.adjustment = {
        addTimeMs: now.addTimeMs + numberOr(fields.addTimeMs),
        // The ledger's lines name added prompts `addTurns`, as every version writes and reads them.
        addPrompts: now.addPrompts + numberOr(fields.addTurns),
        addTokens: now.addTokens + numberOr(fields.addTokens),
        addCost: now.addCost + numberOr(fields.addCost),
        off: now.off || fields.off === true
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
      return void 0;
    },
    problem() {
      if (trouble === null || told) return null;
      told = true;
      return trouble;
    }
  };
}

// src/adapters/claude/function-hooks/daily.ts
var USER_SCOPE = "user";
function dailyDir(stateHome, home) {
  return stateHome?.trim() || home ? stateDirIn(stateHome, home ?? "") : null;
}
var CLAIM_TRIES = 5;
var WRITE_SCRIPT = [
  "while [ $# -gt 0 ]; do",
  // The folder by the shell's own cut (its paths are absolute), made only where it is missing: no process for either
  // where it is there, as it is for every write of a day but its first.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, not a template.
  '  kind=$1 path=$2 text=$3; shift 3; dir=${path%/*}; [ -z "$dir" ] || [ -d "$dir" ] || mkdir -p -- "$dir"',
  "  case $kind in",
  `    create) ( set -C; printf '%s' "$text" > "$path" ) 2>/dev/null || printf '%s\\n' "$path" ;;`,
  // A line torn by a process killed mid-write stays apart from the next: a newline first when the file's last byte is
  // none (counted by `wc -l`, which a NUL or a cut character cannot fool). The rule and its cases: append-line.ts,
  // tests/support/torn-lines.ts.
  `    append) [ -s "$path" ] && [ "$(tail -c 1 -- "$path" | wc -l)" -eq 0 ] && text="
$text"; printf '%s' "$text" >> "$path" ;;`,
  '    remove) rm -rf -- "$path" ;;',
  "  esac",
  "done"
].join("\n");
var encoder = new TextEncoder();
var NOTHING = new Uint8Array();
var decoder = new TextDecoder();
function split(path) {
  const cut = path.lastIndexOf("/");
  return { folder: path.slice(0, cut), name: path.slice(cut + 1) };
}
var MirroredFiles = class {
  constructor(engine) {
    this.engine = engine;
  }
  engine;
  texts = /* @__PURE__ */ new Map();
  names = /* @__PURE__ */ new Map();
  writes = [];
  join(...parts) {
    return parts.join("/").replace(/\/+/g, "/");
  }
  makeDir() {
  }
  list(path) {
    return [...this.namesOf(path)];
  }
  remove(path) {
    this.writes.push({ kind: "remove", path });
  }
  exists(path) {
    const { folder, name } = split(path);
    return this.namesOf(folder).has(name);
  }
  size(path) {
    return this.textOf(path).length;
  }
  read(path, offset, length) {
    return decoder.decode(this.textOf(path).subarray(offset, offset + length));
  }
  /** What was read of a file (nothing, for one never seen). */
  textOf(path) {
    return this.texts.get(path) ?? NOTHING;
  }
  /** The names last read in a folder, with the prompt files taken here since (none, for a folder never read). */
  namesOf(folder) {
    let names = this.names.get(folder);
    if (!names) {
      names = /* @__PURE__ */ new Set();
      this.names.set(folder, names);
    }
    return names;
  }
  byteLength(text) {
    return encoder.encode(text).length;
  }
  append(path, text) {
    this.writes.push({ kind: "append", path, text });
    return { before: -1, after: -1 };
  }
  createExclusive(path, text) {
    const { folder, name } = split(path);
    const names = this.namesOf(folder);
    if (names.has(name)) return false;
    names.add(name);
    this.writes.push({ kind: "create", path, text });
    return true;
  }
  /** Reads what changed in `folders` since the last read: their names, and what was appended to their files. */
  async refresh(folders) {
    const fs = this.engine().fs;
    for (const folder of folders) {
      const entries = await fs.list(folder).catch(() => []);
      this.names.set(folder, new Set(entries.map((entry) => entry.name)));
      for (const entry of entries) {
        if (!entry.name.endsWith(".jsonl")) continue;
        const path = this.join(folder, entry.name);
        const known = this.textOf(path);
        if (entry.size <= known.length) continue;
        const added = encoder.encode(await fs.read(path, { offset: known.length, length: entry.size - known.length }));
        const text = new Uint8Array(known.length + added.length);
        text.set(known);
        text.set(added, known.length);
        this.texts.set(path, text);
      }
    }
  }
  /** Carries out what was written since the last commit: the prompt files that existed already. */
  async commit() {
    const writes = this.writes;
    this.writes = [];
    if (writes.length === 0) return [];
    const args = writes.flatMap((write3) => [write3.kind, write3.path, write3.kind === "remove" ? "" : write3.text]);
    const { exitCode, stdout, stderr } = await this.engine().process.run(["sh", "-c", WRITE_SCRIPT, "sh", ...args]);
    if (exitCode !== 0) throw new Error(`the daily ledger's files could not be written: ${stderr.trim()}`);
    return stdout.split("\n").filter((line) => line !== "");
  }
};
var ModuleDailyLedger = class {
  constructor(engine, dir, sessionId, clock) {
    this.dir = dir;
    this.clock = clock;
    this.files = new MirroredFiles(engine);
    this.ledger = dailyLedgerOver(this.files, dir, sessionId, clock, () => USER_SCOPE);
  }
  dir;
  clock;
  files;
  ledger;
  lastCount = null;
  trouble = null;
  told = false;
  standings(budgets) {
    return this.ledger.standings(budgets);
  }
  countPrompt(budgets, limits) {
    this.lastCount = { budgets, limits };
    return this.ledger.countPrompt(budgets, limits);
  }
  addUse(budgets, use) {
    this.ledger.addUse(budgets, use);
  }
  adjust(...args) {
    return this.ledger.adjust(...args);
  }
  problem() {
    if (this.trouble === null || this.told) return this.ledger.problem();
    this.told = true;
    return this.trouble;
  }
  /** Reads today's folder (and the folder of its days, to prune) before an event. */
  async refresh() {
    const today2 = dayFolder(this.files, this.dir, USER_SCOPE, localDay(this.clock.now()));
    try {
      await this.files.refresh([today2, split(today2).folder]);
    } catch (error) {
      this.fail(error);
    }
  }
  /**
   * Writes what the event wrote. False when a prompt counted in it cannot be counted after all: another session took
   * the last prompt of the day meanwhile.
   */
  async settle() {
    try {
      let lost = await this.files.commit();
      for (let tries = 0; lost.length > 0 && this.lastCount !== null; tries++) {
        if (tries === CLAIM_TRIES) return false;
        await this.refresh();
        const { budgets, limits } = this.lastCount;
        if (!this.ledger.countPrompt(budgets, limits)) return false;
        lost = await this.files.commit();
      }
    } catch (error) {
      this.fail(error);
    }
    this.lastCount = null;
    return true;
  }
  /** A prompt whose file another session took: the day's last prompt went there. */
  takenRefusal() {
    return DAILY_TAKEN_REFUSAL;
  }
  fail(error) {
    this.trouble ??= dailyLedgerUnusable(this.dir, error instanceof Error ? error.message : String(error));
  }
};

// src/adapters/claude/function-hooks/report-page.ts
function hookScriptLine(args, script = "timebox.mjs") {
  return `root=$CLAUDE_PLUGIN_ROOT; [ -n "$root" ] || root=$2; [ -n "$root" ] || { echo "the plugin folder is not known" >&2; exit 2; }; exec node "$root/bin/${script}" ${args}`;
}
var REPORT_LINE = hookScriptLine('report --session "$1" --or-day');
function pluginRoot(moduleUrl) {
  if (moduleUrl === void 0 || !moduleUrl.startsWith("file:")) return "";
  return decodeURIComponent(new URL("..", moduleUrl).pathname).replace(/\/$/, "");
}
function engineReportPage(engine, saved) {
  return async () => {
    await saved();
    const id = await engine().session.id();
    const root = pluginRoot(import.meta.url);
    const { exitCode, stdout, stderr } = await engine().process.run(["sh", "-c", REPORT_LINE, "sh", id, root]);
    const link = /file:\/\/(\S+)/.exec(stdout);
    if (exitCode !== 0 || link === null) {
      throw new Error(stderr.trim().split("\n")[0] || `the hook script exited with ${exitCode}`);
    }
    return decodeURIComponent(link[1]);
  };
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

// src/adapters/claude/function-hooks/daily-order.ts
var DailyOrder = class {
  constructor(daily) {
    this.daily = daily;
  }
  daily;
  /** The writes, in order. Each resolves to why a prompt counted in the ledger was refused after all, or null. */
  writes = Promise.resolve(null);
  /** Reads the day's files, after the writes before. */
  async read() {
    const daily = this.daily;
    if (!daily) return;
    await this.writes;
    await daily.refresh();
  }
  /** A daily command's reads and writes on a team's store, prepared after the writes before; else a plain read. */
  async prepare(args) {
    const daily = this.daily;
    if (daily?.prepare) {
      await this.writes;
      await daily.prepare(args);
    } else await this.read();
  }
  /** Writes what the rules wrote to the daily ledger: why a prompt counted there was taken meanwhile, or null. */
  write() {
    const daily = this.daily;
    if (!daily) return this.writes;
    this.writes = this.writes.then(async () => await daily.settle() ? null : daily.takenRefusal());
    return this.writes;
  }
};

// src/adapters/on-stop/wrapper.ts
var ON_STOP_WRAPPER = 'set -C; if ! true 2>/dev/null >"$1" && [ -e "$1" ]; then [ -z "$3" ] || printf t 2>/dev/null >&3; exit 0; fi; exec /bin/sh -c -- "$2" 3>&-';

// src/adapters/claude/function-hooks/on-stop.ts
function detached(argv) {
  const inOwnSession = `/bin/sh -c 'printf x; exec "$@" >/dev/null 2>&1 </dev/null' sh ${argv}`;
  return `if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; started=$($S ${inOwnSession} 2>/dev/null </dev/null &)`;
}
function detachedLine(command2) {
  const script = `(
${command2}
)`;
  return detached(`/bin/sh -c '${script.replaceAll("'", "'\\''")}'`);
}
var DETACHED_WRAPPER_LINE = `[ -d "$2" ] || mkdir -p -- "$2" 2>/dev/null; ${detached('/bin/sh -c "$1" sh "$3" "$4"')}`;
function wrappedArgv(mark, command2) {
  const folder = mark.slice(0, mark.lastIndexOf("/"));
  return ["sh", "-c", DETACHED_WRAPPER_LINE, "sh", ON_STOP_WRAPPER, folder, mark, command2];
}
function engineOnStop(engine, reporting) {
  return {
    start(command2, said, options) {
      const mark = options?.mark;
      const report = (outcome) => reporting(() => said(outcome));
      engine().process.run(mark === void 0 ? ["sh", "-c", detachedLine(command2)] : wrappedArgv(mark, command2)).then(
        ({ exitCode, stderr }) => report(
          exitCode === 0 ? { kind: "started" } : { kind: "failed", problem: `sh exited with ${exitCode}${stderr.trim() ? `: ${stderr.trim()}` : ""}` }
        ),
        (error) => report({ kind: "failed", problem: error instanceof Error ? error.message : String(error) })
      );
    }
  };
}
function moduleStartMark(dir, claim2) {
  if (!isBudgetId(claim2.budgetId)) throw new Error(`not a budget id: ${JSON.stringify(claim2.budgetId)}`);
  return `${dir}/${claim2.budgetId}.${claim2.kind}.started`;
}
function markKey(claim2) {
  return `${claim2.budgetId}.${claim2.kind}`;
}
async function startedMarks(engine, dir, claims) {
  const found = /* @__PURE__ */ new Set();
  for (const held of claims) {
    if (held.kind !== "spent" && held.kind !== "ended") continue;
    const atEnd = held.kind === "spent" && held.onStopAtEnd !== void 0;
    if (held.onStopCommand === void 0 && !atEnd || !isBudgetId(held.budgetId)) continue;
    const claim2 = { budgetId: held.budgetId, kind: atEnd ? "ended" : held.kind };
    const exists = await engine.fs.read(moduleStartMark(dir, claim2), { offset: 0, length: 0 }).then(
      () => true,
      () => false
    );
    if (exists) found.add(markKey(claim2));
  }
  return found;
}

// src/adapters/claude/function-hooks/running-cost.ts
var RunningCost = class {
  constructor(engine) {
    this.engine = engine;
  }
  engine;
  /**
   * The running total when the last response was counted, or before the request that runs; null while no budget
   * stands (it is read again before the next request under one).
   */
  seen = null;
  /** Before a request: the total it starts from, read once a budget stands; forgotten while none does. */
  async beforeRequest(budgeted) {
    if (!budgeted) this.seen = null;
    else if (this.seen === null) this.seen = (await this.engine().session.usage()).cost.usd;
  }
  /** What the session cost since the last response: the engine's running total, read only while a budget is set. */
  async since(budgeted) {
    if (!budgeted) return 0;
    const { usd } = (await this.engine().session.usage()).cost;
    const before = this.seen ?? usd;
    this.seen = usd;
    return Math.max(0, usd - before);
  }
};

// src/adapters/claude/function-hooks/running-tools.ts
var STOPPED = /* @__PURE__ */ Symbol("stopped");
var RunningTools = class {
  /** Settles each running tool's race as stopped, with the subagent it runs in (null: the main loop). */
  stoppers = /* @__PURE__ */ new Map();
  /** The tool's answer, or STOPPED when the run, or the subagent it runs in, is ended while it runs. */
  run(pending, agent) {
    return new Promise((resolve, reject) => {
      const stop2 = () => resolve(STOPPED);
      this.stoppers.set(stop2, agent);
      pending.then(resolve, reject).finally(() => this.stoppers.delete(stop2));
    });
  }
  /** Stops the tools running in a subagent. */
  stopIn(agent) {
    for (const [stop2, runningIn] of [...this.stoppers]) if (runningIn === agent) stop2();
  }
  /** Stops every running tool: false when none was running. */
  stopAll() {
    if (this.stoppers.size === 0) return false;
    for (const stop2 of [...this.stoppers.keys()]) stop2();
    this.stoppers.clear();
    return true;
  }
};

// src/adapters/claude/function-hooks/subagents.ts
var Subagents = class {
  /** Each subagent's key in the rules, by Claude Code's id of its loop. */
  agents = /* @__PURE__ */ new Map();
  /** The keys of the subagents being spawned, whose loop's id is not known yet. */
  spawning = [];
  /** The subagents the rules stopped, until they end. */
  stopped = /* @__PURE__ */ new Set();
  /** What the parent reads with a subagent's answer, by the subagent's key, until its Agent tool call returns. */
  linesForParent = /* @__PURE__ */ new Map();
  /** The key of the subagent an event belongs to, or null for the main loop. */
  agentOf(event) {
    return event.agentId === void 0 ? null : this.keyOf(event.agentId);
  }
  /**
   * A subagent's key by its loop's id. One that starts before its spawn returned is the one being spawned, when only
   * one is; any other is known by its own id (the rules let an agent they never saw start run, and count its usage).
   */
  keyOf(agentId) {
    const known = this.agents.get(agentId);
    if (known !== void 0) return known;
    const [only, ...others] = this.spawning;
    if (only === void 0 || others.length > 0) return agentId;
    this.agents.set(agentId, only);
    return only;
  }
  /** Runs a subagent's spawn under its key; the loop it starts is known by that key. */
  async spawn(key, start) {
    this.spawning.push(key);
    try {
      const started = await start();
      if (started.deny === void 0 && started.agentId !== void 0) this.agents.set(started.agentId, key);
      return started;
    } finally {
      this.spawning.splice(this.spawning.indexOf(key), 1);
    }
  }
  /** A subagent ended, with what its parent is to read of how. */
  end(agent, lines) {
    this.stopped.delete(agent);
    if (lines.length > 0) this.linesForParent.set(agent, lines);
  }
  /** An Agent tool call's result, with what the parent is to read of the subagent's end (stopped at its budget). */
  withParentLines(event, result) {
    const lines = this.linesForParent.get(event.tool_use_id);
    if (lines === void 0) return result;
    this.linesForParent.delete(event.tool_use_id);
    return result.deny !== void 0 ? result : { ...result, context: [...result.context ?? [], ...lines] };
  }
};

// src/adapters/claude/function-hooks/time.ts
function engineScheduler(engine) {
  return {
    setTimeout(callback, delayMs) {
      const timer = engine().clock.after(Math.max(0, delayMs), callback);
      return () => timer.cancel();
    },
    setInterval(callback, intervalMs) {
      const timer = engine().clock.every(Math.max(1, intervalMs), callback);
      return () => timer.cancel();
    }
  };
}

// src/adapters/claude/function-hooks/ui.ts
var STDERR_SCRIPT = `{ printf '%s\\n' "$1" > "/proc/$PPID/fd/2"; } 2>/dev/null; exit 0`;
var ModuleUI = class {
  constructor(engine) {
    this.engine = engine;
  }
  engine;
  /** The notices of the stop that ends the running turn, gathered until they are shown, or null. */
  stopping = null;
  /** Whether the session is a headless `claude -p` (told at `session.start`; until then, taken as not). */
  headless = false;
  /** The notices of the reply being gathered, or null when they go to the transcript. */
  gathering = null;
  /** The status line this session last sent, null before the first: each `$.ui.status` is a hop to Claude Code. */
  shown = null;
  /** Something whose warnings no reply carries is being carried out. */
  unreplied = false;
  notify(message, level) {
    if (this.gathering) this.gathering.push(message);
    else if (this.unreplied && level !== "info") this.warn(message);
    else {
      this.stopping?.push(message);
      this.engine().ui.log(message);
      if (this.headless && level === "error" && this.stopping === null) this.toStderr(message);
    }
  }
  /**
   * Carries out what no reply answers: the session's load, and the word of what became of an on-stop command, which
   * comes after its event. A warning of theirs (a setting that cannot be read, a command that could not start, or one
   * started late because the process that stopped the budget ended first) must not go unseen.
   */
  withoutReply(action) {
    this.unreplied = true;
    try {
      action();
    } finally {
      this.unreplied = false;
    }
  }
  /** A notice no reply carries that must not go unseen: in the transcript, and in a headless run on stderr too. */
  warn(message) {
    this.engine().ui.log(message);
    if (this.headless) this.toStderr(message);
  }
  toStderr(text) {
    this.engine().process.run(["sh", "-c", STDERR_SCRIPT, "sh", text]).catch(() => {
    });
  }
  /**
   * The running turn is being ended by a stop: its notices, shown as they come (the rules say them right after the
   * abort, in the same turn of the event loop), are written to stderr too once they are all said, in a headless run.
   */
  turnStopped() {
    const said = [];
    this.stopping = said;
    void Promise.resolve().then(() => {
      this.stopping = null;
      if (this.headless && said.length > 0) this.toStderr(said.join("\n"));
    });
  }
  /** Sends the status line when it changed: with nothing in force every event would clear a line already clear. */
  setStatus(text) {
    if (text === this.shown) return;
    this.shown = text;
    this.engine().ui.status(text);
  }
  /** Runs `action` (the live session's, which never throws) with its notices kept for its reply instead of shown. */
  async gather(action) {
    const outer = this.gathering;
    const said = [];
    this.gathering = said;
    try {
      return { value: await action(), said };
    } finally {
      this.gathering = outer;
    }
  }
  /** Shows notices that no reply carries. */
  tell(notices) {
    for (const notice of notices) this.notify(notice, "info");
  }
};

// src/adapters/claude/function-hooks/session.ts
var ClaudeSession = class {
  constructor(deps) {
    this.deps = deps;
    this.ui = new ModuleUI(deps.engine);
    this.daily = new DailyOrder(deps.daily);
    this.cost = new RunningCost(deps.engine);
    this.live = new LiveSession({
      store: deps.store,
      ledger: deps.store,
      ui: this.ui,
      clock: deps.clock,
      scheduler: engineScheduler(deps.engine),
      onStop: engineOnStop(deps.engine, (say) => this.ui.withoutReply(say)),
      agent: { abortCurrentTurn: () => this.abortRun() },
      stopAgent: (agent) => this.stopAgent(agent),
      newBudgetId: deps.newId,
      terms: deps.terms,
      ...deps.daily ? { daily: deps.daily } : {},
      reportPage: engineReportPage(deps.engine, () => deps.store.flush()),
      projectHistory: deps.projectHistory,
      historyWhileBudgeted: deps.historyWhileBudgeted
    });
  }
  deps;
  live;
  ui;
  /** The main loop's running turn, or null while idle. */
  turnId = null;
  /** The prompt the latest run belongs to, by its key; null before the first. */
  prompt = null;
  loops = new Loops();
  tools = new RunningTools();
  subagents = new Subagents();
  daily;
  cost;
  /** Feeds an event to the rules, with the day's files read before it and written after it. */
  async handle(event) {
    await this.daily.read();
    const answer = await this.live.handle(event);
    void this.daily.write();
    return answer;
  }
  /** Loads the session's budget, or the default budget where none was ever set. */
  load(settings) {
    const daily = settings.daily?.trim();
    const subagents = settings.subagents?.trim();
    const sources = {
      ...daily ? { daily: [{ value: daily, source: DAILY_ENV, scope: "user" }] } : {},
      ...subagents ? { subagents: { value: subagents, source: SUBAGENTS_ENV } } : {}
    };
    this.live.onSessionStart("continue", true, settings.defaultBudget, sources);
  }
  /**
   * `/timebox <args>`: the reply's text, with no model request. A daily command's reads and writes on a team's store
   * are prepared first, after the writes before it.
   */
  async command(args) {
    await this.daily.prepare(args);
    const { said } = await this.ui.gather(() => this.live.command(args));
    void this.daily.write();
    return said.join("\n");
  }
  /**
   * A prompt, before any request: counted as a new prompt's first model call, or refused. One delivered into the
   * running turn belongs to that turn's prompt, and is refused once that prompt is stopped.
   */
  async promptSubmit(event, next) {
    if (event.command !== void 0) return next(event);
    const joining = event.turnId !== void 0 && this.turnId !== null && this.prompt !== null;
    const key = joining && this.prompt !== null ? this.prompt : this.deps.newId();
    const sessionEvent = joining ? { type: "toolCall", prompt: key } : { type: "modelCall", prompt: key, step: 1, ...event.isMeta ? { startedBy: "extension" } : {} };
    await this.daily.read();
    const { value: answer, said } = await this.ui.gather(() => this.live.handle(sessionEvent));
    const taken = await this.daily.write();
    if (answer.refusal !== null) return { drop: said.length > 0 ? said.join("\n") : answer.refusal };
    this.ui.tell(said);
    if (taken !== null) {
      await this.live.handle({ type: "promptRefused" });
      return { drop: taken };
    }
    if (!joining) this.prompt = key;
    return next(
      answer.context.length === 0 ? event : { ...event, context: [...event.context ?? [], ...answer.context] }
    );
  }
  /**
   * Before a model request: a step of the prompt's run, or a subagent's model call, or its refusal (the step is answered
   * with no request, which ends the turn: a stopped subagent's answer goes back to its parent).
   */
  async beforeStep(event) {
    const agent = this.subagents.agentOf(event);
    if (agent === null) this.turnId = event.turnId;
    await this.cost.beforeRequest(this.live.state.standing !== null);
    const loop = this.loops.of(agent);
    const counted = loop.called;
    const refused = loop.refused;
    loop.called = false;
    loop.refused = null;
    if (refused !== null) return refused;
    if (agent !== null && counted && !this.subagents.stopped.has(agent)) return null;
    const sessionEvent = agent !== null ? { type: "modelCall", prompt: null, agent } : this.prompt === null ? { type: "modelCall", prompt: null } : { type: "modelCall", prompt: this.prompt, step: event.index + 1 };
    const answer = await this.handle(sessionEvent);
    return answer.refusal;
  }
  /** After a model response: what it used, and the tools it asked for, before the loop's next call. */
  async afterStep(event, response) {
    const agent = this.subagents.agentOf(event);
    const loop = this.loops.of(agent);
    loop.toolsLeft = response.toolUses.length;
    loop.nextStep = event.index + 2;
    if (!response.usage) return;
    const tokens = tokensOf(response.usage);
    const cost = await this.cost.since(this.live.state.standing !== null);
    const responseId = `${event.turnId}:${event.index}`;
    await this.handle({ type: "modelResponse", tokens, cost, responseId, ...agent === null ? {} : { agent } });
  }
  /**
   * A tool call: refused once the run is stopped or wrapping up; while it runs, stopped (refused, which kills it) the
   * moment the rules end the run. The main loop's last tool of a step carries what the model is to read at the next.
   */
  async toolCall(event, next) {
    const agent = this.subagents.agentOf(event);
    const main = agent === null;
    const { tool, tool_use_id: _id, agentId: _agent, requestMeta: _meta, ...input } = event;
    const asked = { tool, input };
    const before = await this.handle(
      main ? { type: "toolCall", prompt: this.prompt, call: asked } : { type: "toolCall", prompt: null, agent, call: asked }
    );
    if (before.refusal !== null) {
      const call2 = main ? null : await this.nextCall(agent);
      const told = call2 === null || call2.refusal !== null ? [] : call2.context;
      return { deny: [before.refusal, ...told].join("\n\n") };
    }
    const ran = await this.tools.run(next(event), agent);
    if (ran === STOPPED) return { deny: TOOL_STOPPED_REFUSAL };
    const result = this.subagents.withParentLines(event, ran);
    if (result.deny !== void 0) return result;
    const call = await this.nextCall(agent);
    return call === null ? result : withContext(result, call);
  }
  /**
   * After a loop's tool: when it was the step's last, the loop's next call, counted now so that what its model is to
   * read reaches it with this tool's result (Claude Code cannot add to the request a `turn.step` hooks); else null.
   */
  async nextCall(agent) {
    const loop = this.loops.of(agent);
    if (loop.toolsLeft === 0 || --loop.toolsLeft > 0) return null;
    const call = await this.handle(
      agent === null ? { type: "modelCall", prompt: this.prompt, step: loop.nextStep } : { type: "modelCall", prompt: null, agent }
    );
    loop.called = agent !== null;
    if (agent === null && call.refusal !== null) loop.refused = call.refusal;
    return call;
  }
  /**
   * A subagent about to start: refused once the session's budget is spent; else it starts with its budget in its
   * task. It is known to the rules by its Agent tool call's id (its loop's id comes only once it started).
   */
  async agentSpawn(event, next) {
    const key = event.tool_use_id || this.deps.newId();
    const parent = event.parentAgentId === void 0 ? null : this.subagents.keyOf(event.parentAgentId);
    const task = event.description || event.prompt;
    const answer = await this.handle({ type: "agentStart", agent: key, parent, agentType: event.subagentType, task });
    if (answer.refusal !== null) return { deny: answer.refusal };
    const told = answer.context.length === 0 ? event : { ...event, prompt: [event.prompt, ...answer.context].join("\n\n") };
    return this.subagents.spawn(key, () => next(told));
  }
  /** The rules stopped a subagent: its running tools are stopped; its next request is answered with none. */
  stopAgent(agent) {
    this.subagents.stopped.add(agent);
    this.tools.stopIn(agent);
  }
  /**
   * A turn ended: the main loop's run is over, or a subagent's answer goes back to its parent, with what the parent
   * is to read of how it ended (given with its Agent tool call's result).
   */
  async turnComplete(event) {
    const agent = this.subagents.agentOf(event);
    if (agent !== null) {
      const ended = await this.handle({ type: "agentEnd", agent, ...event.answer ? { result: event.answer } : {} });
      this.subagents.end(agent, ended.context);
      this.loops.end(agent);
      return;
    }
    this.turnId = null;
    this.loops.of(null).toolsLeft = 0;
    await this.handle({ type: "runEnd" });
  }
  /** The rules end the run: running tools are stopped; a turn with none running (a response streaming) is aborted. */
  abortRun() {
    if (this.tools.stopAll()) return;
    const turnId = this.turnId;
    if (turnId === null) return;
    this.ui.turnStopped();
    this.deps.engine().turn.abort({ turnId }).catch(() => {
    });
  }
  /** The session ends: its timers stop, and every change is written. */
  async close() {
    this.live.onShutdown();
    await this.daily.write();
    await this.deps.store.flush();
  }
};
function withContext(result, call) {
  if (call.refusal !== null || call.context.length === 0) return result;
  return { ...result, context: [...result.context ?? [], ...call.context] };
}

// src/adapters/claude/function-hooks/store-repair.ts
var DAMAGED_SUFFIX = ".damaged";
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function parsed(text) {
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}
var TOP_LEVEL_LINE = /^ {2}"/gm;
function salvage(text) {
  const whole = parsed(text);
  if (whole !== null) return { kept: whole, skipped: 0 };
  const end = text.lastIndexOf("\n}");
  const prefix = end >= 0 ? parsed(text.slice(0, end + 2)) : null;
  if (prefix !== null) return { kept: prefix, skipped: 0 };
  const starts = [...text.matchAll(TOP_LEVEL_LINE)].map((match) => match.index);
  const kept2 = {};
  let skipped = 0;
  for (const [n, from] of starts.entries()) {
    const body = text.slice(from, starts[n + 1] ?? text.length).replace(/,?\s*(\n}\s*)?$/, "");
    const entry = parsed(`{${body}}`);
    if (entry === null) skipped++;
    else Object.assign(kept2, entry);
  }
  return { kept: kept2, skipped };
}
function damagedPath(error) {
  const message = error instanceof Error ? error.message : String(error);
  return /store file (\S+\.json)/.exec(message)?.[1] ?? null;
}
var MOVE_ASIDE_SCRIPT = 'mv -f "$1" "$1$2"';
async function repairStore(engine, path) {
  const slash = path.lastIndexOf("/");
  const [folder, name] = [path.slice(0, slash), path.slice(slash + 1)];
  const size = (await engine.fs.list(folder)).find((entry) => entry.name === name)?.size ?? 0;
  const text = size > 0 ? await engine.fs.read(path, { offset: 0, length: size }) : "";
  const { kept: kept2, skipped } = salvage(text);
  const moved = await engine.process.run(["sh", "-c", MOVE_ASIDE_SCRIPT, "sh", path, DAMAGED_SUFFIX]);
  if (moved.exitCode !== 0) throw new Error(`could not move ${path} aside: ${moved.stderr.trim()}`);
  for (const [key, value] of Object.entries(kept2)) await engine.store.set(key, value);
  return { path, kept: kept2, skipped };
}
function repairNotice(repair) {
  const entries = Object.keys(repair.kept).filter((key) => key !== "sessions").length;
  return storeRepaired(repair.path, entries, repair.skipped, `${repair.path}${DAMAGED_SUFFIX}`);
}

// src/adapters/claude/function-hooks/store.ts
var SESSION_KEY_PREFIX = "session:";
var SESSIONS_INDEX_KEY = "sessions";
var USAGE_WRITE_DELAY_MS = 1e3;
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
  for (const claim2 of claims) {
    if (claim2.budgetId !== budgetId) continue;
    if (claim2.kind === "spent") view = { ...view, spent: { ...claim2.summary, prompt: claim2.prompt } };
    else if (claim2.kind === "off") view = { ...view, off: true };
    else if (claim2.kind === "nudged") view = { ...view, nudged: true };
  }
  const intent = marks && isBudgetId(budgetId) ? onStopIntent(claims, budgetId, marks) : null;
  return intent ? { ...view, onStop: intent } : view;
}
function onStopIntent(claims, budgetId, marks) {
  const own = claims.filter((claim3) => claim3.budgetId === budgetId);
  const held = own.find(
    (claim3) => (claim3.kind === "spent" || claim3.kind === "ended") && typeof claim3.onStopCommand === "string"
  );
  const stop2 = own.find((claim3) => claim3.kind === "spent");
  const endsBy = stop2?.summary.wrapUpUntil;
  const waiting = held === void 0 && !own.some((claim3) => claim3.kind === "ended") && endsBy !== void 0 ? stop2 : void 0;
  const command2 = held?.onStopCommand ?? waiting?.onStopAtEnd;
  const from = held ?? waiting;
  if (command2 === void 0 || from === void 0) return null;
  const claim2 = { budgetId, kind: held?.kind ?? "ended" };
  return {
    claim: claim2,
    command: command2,
    claimedAt: typeof from.claimedAt === "number" ? from.claimedAt : 0,
    started: marks.started.has(markKey(claim2)),
    // One Claude Code process holds a session: a claim made under another id was made by a process that ended.
    claimantAlive: from.instance === marks.instance,
    recovered: own.some((other) => other.kind === "onStopRecovered"),
    ...waiting === void 0 || endsBy === void 0 ? {} : { endsBy }
  };
}
var ModuleStore = class _ModuleStore extends SpecSessionStore {
  constructor(engine, sessionId, saved, deps, marks) {
    super();
    this.engine = engine;
    this.sessionId = sessionId;
    this.saved = saved;
    this.deps = deps;
    this.marks = marks;
    const dir = deps.marks?.dir;
    if (dir !== void 0) this.startMark = (claim2) => moduleStartMark(dir, claim2);
  }
  engine;
  sessionId;
  saved;
  deps;
  marks;
  writing = Promise.resolve();
  /** A write is queued behind the one in flight: it takes the entry as it stands when it starts. */
  queued = false;
  indexed = false;
  /** Cancels the delayed write of usage, while one waits. */
  delayed = null;
  /** A claim was made since the last write began. */
  claimsUnwritten = false;
  /** Where the start mark of an on-stop command goes, where the store knows the marks' folder. */
  startMark;
  /** Reads the session's entry, and removes the sessions untouched for `RETENTION_MS`. */
  static async open(engine, sessionId, deps) {
    const now = () => deps.clock.now();
    const store = engine().store;
    const read = () => Promise.all([store.get(`${SESSION_KEY_PREFIX}${sessionId}`), store.get(SESSIONS_INDEX_KEY)]);
    let repaired = null;
    const [entry, index] = await read().catch(async (error) => {
      const path = damagedPath(error);
      if (path === null) throw error;
      repaired = await repairStore(engine(), path);
      return read();
    });
    const saved = savedSession(entry);
    if (deps.cwd) saved.cwd = deps.cwd;
    if (isRecord(index)) {
      const old = Object.keys(index).filter((id) => id !== sessionId && !(Number(index[id]) > now() - RETENTION_MS));
      if (old.length > 0) {
        for (const id of old) {
          delete index[id];
          await store.delete(`${SESSION_KEY_PREFIX}${id}`);
        }
        await store.set(SESSIONS_INDEX_KEY, index);
      }
    }
    const marks = deps.marks && {
      instance: deps.marks.instance,
      started: await startedMarks(engine(), deps.marks.dir, saved.claims)
    };
    const opened = new _ModuleStore(engine, sessionId, saved, deps, marks);
    opened.repaired = repaired;
    return opened;
  }
  /** The repair of a damaged store file this session's opening made, to be told once; else null. */
  repaired = null;
  append(record) {
    this.saved.history.push({ kind: "record", record });
    this.save();
  }
  history() {
    return this.saved.history;
  }
  /** A prompt that ran, by its key. */
  appendPrompt(key) {
    this.saved.history.push({ kind: "prompt", key, at: this.deps.clock.now() });
    this.save();
  }
  /** Forgets the newest prompt of a key that never ran after all (the rules say which). */
  dropPrompt(key) {
    const history = this.saved.history;
    const at = history.findLastIndex((item) => item.kind === "prompt" && item.key === key);
    if (at < 0) return;
    history.splice(at, 1);
    this.save();
  }
  /** What a response used, as the rules keep it (`recordUsage`); its id is not kept, as the rules only sum usage. */
  recordUsage(usage) {
    this.appendUsage(usage.used.tokens, usage.used.cost ?? 0);
  }
  /** What a model call used: added to the usage just before it, if any (the rules only sum it). */
  appendUsage(tokens, cost) {
    const history = this.saved.history;
    const last = history[history.length - 1];
    const at = this.deps.clock.now();
    if (last?.kind === "usage")
      history[history.length - 1] = { ...last, tokens: last.tokens + tokens, cost: last.cost + cost, at };
    else history.push({ kind: "usage", tokens, cost, at });
    this.delayed ??= this.deps.scheduler.setTimeout(() => {
      this.delayed = null;
      this.save();
    }, USAGE_WRITE_DELAY_MS);
  }
  claim(claim2) {
    if (this.saved.claims.some((held) => held.budgetId === claim2.budgetId && held.kind === claim2.kind)) return false;
    const by = this.deps.marks ? { instance: this.deps.marks.instance } : {};
    this.saved.claims.push({ ...claim2, ...by, claimedAt: this.deps.clock.now() });
    this.claimsUnwritten = true;
    this.save();
    return true;
  }
  read(budgetId) {
    return claimedView(this.saved.claims, budgetId, this.marks);
  }
  /** Resolves once every change so far is written. */
  flush() {
    if (this.delayed) this.save();
    return this.writing;
  }
  /** Writes the entry after the write in flight; changes made meanwhile go in that one write. */
  save() {
    this.delayed?.();
    this.delayed = null;
    if (this.queued) return;
    this.queued = true;
    this.writing = this.writing.then(async () => {
      this.queued = false;
      const withClaims = this.claimsUnwritten;
      this.claimsUnwritten = false;
      try {
        const store = this.engine().store;
        await store.set(`${SESSION_KEY_PREFIX}${this.sessionId}`, this.saved);
        if (!this.indexed) {
          this.indexed = true;
          const index = await store.get(SESSIONS_INDEX_KEY);
          await store.set(SESSIONS_INDEX_KEY, {
            ...isRecord(index) ? index : {},
            [this.sessionId]: this.deps.clock.now()
          });
        }
      } catch (error) {
        this.deps.problem(error, withClaims ? "ledger" : "store");
      }
    });
  }
};

// src/adapters/claude/function-hooks/suggestion.ts
var SUGGEST_LINE = hookScriptLine('report --suggest --json --project "$1"');
function engineProjectHistory(engine, project, current) {
  return async () => {
    const folder = project();
    if (folder === null) throw new Error("Claude Code did not say which folder the session runs in");
    const root = pluginRoot(import.meta.url);
    const { exitCode, stdout, stderr } = await engine().process.run(["sh", "-c", SUGGEST_LINE, "sh", folder, root]);
    if (exitCode !== 0) throw new Error(stderr.trim().split("\n")[0] || `the hook script exited with ${exitCode}`);
    const read = JSON.parse(stdout);
    const sessions = typeof read === "object" && read !== null && "sessions" in read ? read.sessions : null;
    if (!Array.isArray(sessions)) throw new Error("the hook script printed no sessions");
    return { sessions, current: await current() };
  };
}

// src/adapters/team/outage.ts
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

// src/adapters/team/prepared-writes.ts
var PreparedWrites = class {
  /** While a command's writes are learnt, those the rules make; else null. */
  recording = null;
  /** What became of a prepared command's writes, answered in order as the rules make them again; else null. */
  replay = null;
  /** Forgets what became of the last command's writes: a new command is being prepared. */
  forget() {
    this.replay = null;
  }
  /**
   * The writes the rules make for a command (`answer` runs them, calling `unanswered` where they cannot answer it
   * here), in order; none where they could not answer it: they say why when they answer it for the session.
   */
  learn(answer) {
    this.recording = [];
    try {
      let answered2 = true;
      answer(() => {
        answered2 = false;
      });
      return answered2 ? this.recording : [];
    } finally {
      this.recording = null;
    }
  }
  /** What became of the learnt `writes`, as the batch that sent them answered (null: there were none to send). */
  sent(writes, reply) {
    if (reply === null) {
      this.replay = [];
      return;
    }
    const done = "error" in reply ? void 0 : reply.writes;
    const why = "error" in reply ? reply.error : "the batch did not say";
    this.replay = done ?? writes.map(() => ({ failed: teamWriteNotSent(why) }));
  }
  /** A write of a daily command: learnt while it is prepared (taken as done), then answered as the store did it. */
  write(op) {
    if (this.recording !== null) {
      this.recording.push(op);
      return "done";
    }
    return this.replay?.shift() ?? { failed: teamWriteNotSent("it was not prepared") };
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
  /** The problems still to say, one with each answer of the rules that asks. */
  untold = [];
  /** Every problem this process said, or has still to say. */
  said = /* @__PURE__ */ new Set();
  /** Why the last prompt refused at `settle` was refused. */
  taken = DAILY_TAKEN_REFUSAL;
  /** Why the day could not be read at the last batch that read it (or that could not run), or null. */
  unread = null;
  /** The team's store beside the day, as a daily command's batch read it. */
  view = { unreadable: NO_TEAM };
  /** A daily command's writes, learnt before the rules answer it and sent. */
  writes = new PreparedWrites();
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
    return this.writes.write({ op: "adjust", budget, adjustment });
  }
  teamView() {
    return this.view;
  }
  setTeamLimits(limits) {
    return this.writes.write({ op: "limits", limits });
  }
  askTeam(adjustment, why) {
    return this.writes.write({ op: "ask", adjustment, why });
  }
  /**
   * Before the rules answer `/timebox <words>`: for a daily command, the day and the team's store beside it are read,
   * the writes the rules make for it learnt on that reading and sent, in order, in one batch; for the report page, the
   * day and the store read (its limits and open requests are on the page); else the day is read as before any event.
   */
  async prepare(words) {
    const command2 = parseCommand(words);
    const daily = command2.kind === "today" || command2.kind === "team";
    if (!daily && command2.kind !== "reportPage") return this.refresh();
    this.writes.forget();
    const ops = [...this.takeOps(), { op: "view" }];
    const read = await this.exchange(ops, true);
    if ("error" in read) {
      this.failed(ops);
      this.view = { unreadable: this.options.texts.unreachable(read.error, this.options.closed) };
    } else this.view = read.view ?? { unreadable: teamWriteNotSent("the batch did not read it") };
    if (!daily) return;
    const writes = this.writes.learn(
      (unanswered) => dailyCommandAnswer(command2, dailyCommandPorts({ ledger: this, budgets: this.budgets }, unanswered))
    );
    this.writes.sent(writes, writes.length === 0 ? null : await this.exchange(writes, false));
  }
  dayUnread() {
    return this.unread;
  }
  problem() {
    const said = this.untold.shift() ?? null;
    if (said !== null) this.options.told?.first(said);
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
      if (read) this.unread = teamDayUnread(outcome.error);
      return outcome;
    }
    this.outage.answered();
    if (read) {
      this.reading = outcome.standings;
      this.unread = outcome.unread ?? null;
    }
    this.carried = outcome.carry;
    for (const problem of outcome.problems) this.say(problem);
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
  /** Says each problem once per session: one the session was told before (where it keeps that) is not said again. */
  say(problem) {
    if (this.said.has(problem) || this.options.told?.said(problem)) return;
    this.said.add(problem);
    this.untold.push(problem);
  }
};

// src/adapters/team/told.ts
function firstTold(problem, told) {
  let text = problem();
  while (text !== null && told !== void 0 && !told.first(text)) text = problem();
  return text;
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
      return own.map((standing2) => ({ ...standing2, closed: warning }));
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
var NO_DAILY_LEDGER = {
  standings: () => [],
  countPrompt: () => true,
  addUse: () => {
  },
  adjust: () => void 0,
  problem: () => null
};

// src/adapters/claude/function-hooks/team.ts
var TEAM_LINE = hookScriptLine('"$1"', "timebox-team.cjs");
function readBatchReply(result) {
  if (result.exitCode !== 0) {
    return { error: result.stderr.trim().split("\n")[0] || `the batch script exited with ${result.exitCode}` };
  }
  let reply;
  try {
    reply = JSON.parse(result.stdout);
  } catch {
    return { error: "the batch script's reply is not JSON" };
  }
  if (typeof reply === "object" && reply !== null) {
    const fields = reply;
    if (typeof fields.error === "string") return { error: fields.error };
    if (Array.isArray(fields.counted) && Array.isArray(fields.standings) && Array.isArray(fields.problems))
      return reply;
  }
  return { error: "the batch script's reply cannot be read" };
}
var ModuleTeamLedger = class extends ReadAheadLedger {
  constructor(engine, options) {
    super({
      ...options,
      run: (request) => runBatch(engine(), request, options.root),
      texts: { unreachable: teamHopFailed, refusal: (why) => teamHopFailed(why, true) },
      // The next event of the session may come within TEAM_HOP_FRESH_MS: it reads the day this batch read.
      readAfter: true
    });
  }
};
function unusableTeam(warning, machine, closed) {
  const said = saying(warning, machine ?? NO_DAILY_LEDGER, void 0, closed);
  return {
    ...said,
    refresh: async () => machine?.refresh(),
    settle: async () => await machine?.settle() ?? true,
    takenRefusal: () => machine?.takenRefusal() ?? DAILY_TAKEN_REFUSAL
  };
}
async function runBatch(engine, request, root) {
  let timer;
  const late = new Promise((resolve) => {
    timer = engine.clock.after(TEAM_HOP_MS, () => resolve({ error: `no answer within ${TEAM_HOP_MS} ms` }));
  });
  const ran = engine.process.run(["sh", "-c", TEAM_LINE, "sh", JSON.stringify(request), root]).then(readBatchReply, (error) => ({ error: error instanceof Error ? error.message : String(error) }));
  try {
    return await Promise.race([ran, late]);
  } finally {
    timer?.cancel();
  }
}

// src/adapters/claude/function-hooks/host.ts
var ON_STOP_MARKS_FOLDER = "on-stop";
var ModuleHost = class {
  constructor(deps) {
    this.deps = deps;
    this.instance = deps.newId();
  }
  deps;
  /** Set by every hook before anything calls the engine. */
  bound;
  session = null;
  /** Whether Claude Code runs headless (`claude -p`), as `session.start` said. */
  headless = false;
  /** The folder the session runs in, as `session.start` said: a suggested budget is made of its past sessions. */
  cwd = null;
  engine = () => this.bound;
  /** This Claude Code process's id, which its claims carry: one made under another id was made by a process gone. */
  instance;
  /** The engine of the hook that runs now: later calls on the engine go through it. */
  bind(engine) {
    this.bound = engine;
  }
  /** The running session, opened on first use; one that failed to open is tried again at the next event. */
  sessionOf(engine) {
    this.bind(engine);
    if (this.session === null) {
      const opening = this.open();
      this.session = opening;
      opening.catch(() => {
        if (this.session === opening) this.session = null;
      });
    }
    return this.session;
  }
  async open() {
    const engine = this.engine;
    const { env } = engine();
    const [sessionId, defaultBudget, daily, subagents, stateHome, home, dailyStore, team2, zone, failure] = await Promise.all([
      engine().session.id(),
      env.defaultBudget(),
      env.dailyBudget(),
      env.subagentBudget(),
      env.stateHome(),
      env.home(),
      env.dailyStore(),
      env.team(),
      env.teamZone(),
      env.dailyStoreFailure()
    ]);
    let session = null;
    const projectHistory = engineProjectHistory(
      engine,
      () => this.cwd,
      async () => sessionId
    );
    const text = defaultBudget?.trim();
    const suggested = text !== void 0 && isSuggestedDefault(text);
    const state = dailyDir(stateHome, home);
    const store = await ModuleStore.open(engine, sessionId, {
      clock: this.deps.clock,
      scheduler: engineScheduler(engine),
      problem: (error, where) => session?.live.notifyProblem(where, error),
      cwd: this.cwd,
      ...state === null ? {} : { marks: { dir: `${state}/${ON_STOP_MARKS_FOLDER}`, instance: this.instance } }
    });
    const ledger = this.dailyLedger(sessionId, daily, { dailyStore, team: team2, zone, failure, stateHome, home });
    session = new ClaudeSession({
      engine,
      clock: this.deps.clock,
      newId: this.deps.newId,
      terms: claudeCodeTerms("function hooks"),
      store,
      ...ledger ? { daily: ledger } : {},
      projectHistory,
      // A session without a budget is kept too where budgets are suggested from the sessions kept.
      historyWhileBudgeted: !suggested
    });
    session.ui.headless = this.headless;
    if (store.repaired !== null) session.ui.warn(repairNotice(store.repaired));
    const given = text ? await resolveDefault({ text, source: DEFAULT_ENV }, projectHistory) : null;
    session.ui.withoutReply(() => session.load({ defaultBudget: given, daily, subagents }));
    return session;
  }
  /**
   * The daily ledger of a session: the team's, through the hook script, when a store and a team are set as every Node
   * host reads them, with or without a daily budget of its own (the team's limits may be in its store); else this
   * machine's, through `$`, with a daily budget. A team set wrongly is said once, and `/timebox team` says it again; in
   * the closed failure mode, new turns are refused with it.
   */
  dailyLedger(sessionId, daily, env) {
    const clock = this.deps.clock;
    const { config, warning, closed } = readTeam(
      {
        [DAILY_STORE_ENV]: env.dailyStore,
        [TEAM_ENV]: env.team,
        [TEAM_TZ_ENV]: env.zone,
        [DAILY_STORE_FAILURE_ENV]: env.failure
      },
      {},
      // Who the member is, the batch script tells the store: the module never asks.
      () => ""
    );
    if (config !== null) {
      const budget = daily?.trim() ? parseDailyBudget(daily.trim(), "user", DAILY_ENV) : null;
      const budgets = budget === null || "warning" in budget ? [] : [budget];
      const root = pluginRoot(import.meta.url);
      return new ModuleTeamLedger(this.engine, {
        sessionId,
        clock,
        budgets,
        closed: config.failure === "closed",
        root,
        team: { name: config.team, zone: config.zone }
      });
    }
    const dir = dailyDir(env.stateHome, env.home);
    const machine = daily?.trim() && dir !== null ? new ModuleDailyLedger(this.engine, dir, sessionId, clock) : void 0;
    if (warning === null) return machine;
    return unusableTeam(warning, machine, closed && { team: closed, clock });
  }
  /** The session ended (exit, `/clear`, a resume): its timers stop and its changes are written. */
  async end() {
    const ending2 = this.session;
    this.session = null;
    if (ending2 === null) return;
    const session = await ending2.catch(() => null);
    await session?.close();
  }
};

// src/adapters/claude/function-hooks/module.ts
function registerWith(on, deps) {
  const host = new ModuleHost(deps);
  on(
    "session.start",
    ($, e, next) => sessionStart(host, $, e, next)
  );
  on(
    "classic.SessionStart",
    ($, e, next) => classicSessionStart($, e, next)
  ).catch(classicSessionStartFailed);
  on(
    "command.run",
    { command: ["timebox", "timebox:timebox"] },
    ($, e) => timeboxCommand(host, $, e)
  ).catch(() => commandFailed());
  on(
    "prompt.submit",
    ($, e, next) => promptSubmit(host, $, e, next)
  ).catch(promptGuardFailed);
  on("turn.step", async function* ($, e, next) {
    return yield* turnStep(host, $, e, next);
  }).catch(async function* ($, e, next) {
    return yield* stepFailed($, e, next);
  });
  on(
    "tool.call",
    ($, e, next) => toolCall2(host, $, e, next)
  ).catch(toolGuardFailed);
  on(
    "agent.spawn",
    ($, e, next) => agentSpawn(host, $, e, next)
  ).catch(spawnGuardFailed);
  on(
    "turn.complete",
    ($, e, next) => turnComplete(host, $, e, next)
  );
  on(
    "session.end",
    ($, e, next) => sessionEnd(host, $, e, next)
  );
  return host;
}

// src/entries/claude-module.ts
function register(on) {
  registerWith(on, { clock: { now: () => Date.now() }, newId: () => crypto.randomUUID() });
}
export {
  register
};
