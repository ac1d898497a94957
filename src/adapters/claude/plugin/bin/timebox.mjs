// Timebox's hook script for Claude Code, Gemini CLI and Codex CLI, bundled by npm run build:claude from src/adapters/. Do not edit.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { createHash, randomUUID } from "node:crypto";
// src/adapters/node/node-time.ts
const systemClock = { now: () => Date.now() };
// src/core/budget.ts
/** Nothing used. */
const NO_SPEND = {
	tokens: 0,
	cost: 0
};
/** The largest turn budget. */
const MAX_TURN_LIMIT = 1e6;
/** What the `awareness` setting may be: the warning block from 80% (the default), or a line on every model call too. */
const AWARENESS_CHOICES = ["nudge", "always"];
/** Arguments that are sub-commands rather than budgets. */
const OFF_WORDS = [
	"off",
	"disable",
	"cancel"
];
const STATUS_WORD = "status";
const PAUSE_WORD = "pause";
const RESUME_WORD = "resume";
const REPORT_WORD = "report";
/** Words that open an extension: `/timebox extend 10m`, `/timebox add turns:2` (or each word prefixed with `+`). */
const EXTEND_WORDS = ["extend", "add"];
/** What a budget id may look like: it names files in the ledger, so nothing that could leave its folder. */
const BUDGET_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
/** The id given to a budget record from the first version, which had none: its start time names it. */
const LEGACY_ID_PREFIX = "legacy-";
/** The folder of the per-user ledger, under the host's own data folder (pi's agent directory, the plugin's data). */
const LEDGER_FOLDER = "timebox-ledger";
/** How long the limit question waits for an answer before it stops, as if "Stop now" was chosen. */
const LIMIT_QUESTION_TIMEOUT_MS = 3e4;
/** What `onLimit` may be: stop at the limit (the default), or ask first where the host can ask. */
const ON_LIMIT_CHOICES = ["stop", "ask"];
// src/core/measure.ts
/**
* Milliseconds the budget has run: since it started, less the time it spent paused (the clock stands still while
* paused). Never negative: a clock that went back counts as no time spent.
*/
function elapsedMs(budget, now) {
	const elapsed = (budget.pausedAt ?? now) - budget.startTime - (budget.pausedMs ?? 0);
	return Number.isFinite(elapsed) ? Math.max(0, elapsed) : 0;
}
/** A used-turn count made safe to show and compare: a whole number, never negative. */
function safeTurns(usedTurns) {
	return Number.isFinite(usedTurns) ? Math.max(0, Math.floor(usedTurns)) : 0;
}
/** A token count or a cost made safe to compare: finite, never negative. */
function safeAmount(amount) {
	return Number.isFinite(amount) ? Math.max(0, amount) : 0;
}
/** The used share of the budget's worst dimension; a dimension without a limit is ignored. */
function worstRatio(budget, now, usedTurns, spend = NO_SPEND) {
	const timeRatio = budget.timeLimitMs === null ? 0 : elapsedMs(budget, now) / budget.timeLimitMs;
	const turnRatio = budget.turnLimit === null ? 0 : safeTurns(usedTurns) / budget.turnLimit;
	const tokenRatio = budget.tokenLimit === void 0 ? 0 : safeAmount(spend.tokens) / budget.tokenLimit;
	const costRatio = budget.costLimit === void 0 ? 0 : safeAmount(spend.cost) / budget.costLimit;
	return Math.max(timeRatio, turnRatio, tokenRatio, costRatio);
}
// src/core/parse.ts
const TIME_TOKEN = /^(\d+(?:\.\d+)?)\s*([smh])?$/i;
/** A duration written in parts, largest first: `1h30m`, `2h15m`, `1m30s`, `1h0m5s`. */
const COMPOUND_TIME_TOKEN = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/i;
const TURNS_TOKEN = /^turns:\s*(\d+)$/i;
const STEPS_TOKEN = /^steps:(\d+)$/i;
const GRACE_TOKEN = /^grace:(.+)$/i;
const TOKENS_TOKEN = /^tokens:(\d+(?:\.\d+)?)([km])?$/i;
const COST_TOKEN = /^(?:cost:\$?|\$)(\d+(?:\.\d+)?)$/i;
const TOKEN_UNITS = {
	k: 1e3,
	m: 1e6
};
const STOP_COMMAND_DELIMITER = /(?:^|\s)--(?:\s|$)/;
const UNIT_MS = {
	s: 1e3,
	m: 6e4,
	h: 36e5
};
const SECOND_MS$1 = 1e3;
const MINUTE_MS = 6e4;
const HOUR_MS = 36e5;
/**
* Parses a time token; a bare number means minutes, and parts add up (`1h30m`). Returns null when the token is not a
* time.
* @example parseTimeToMs("15m") // 900_000
* @example parseTimeToMs("90") // 5_400_000
* @example parseTimeToMs("1h30m") // 5_400_000
*/
function parseTimeToMs(token) {
	const trimmed = token.trim();
	const compound = COMPOUND_TIME_TOKEN.exec(trimmed);
	if (compound && compound.slice(1).filter((part) => part !== void 0).length > 1) {
		const [, hours = "0", minutes = "0", seconds = "0"] = compound;
		return Number(hours) * HOUR_MS + Number(minutes) * MINUTE_MS + Number(seconds) * SECOND_MS$1;
	}
	const match = TIME_TOKEN.exec(trimmed);
	if (!match) return null;
	const unit = (match[2] ?? "m").toLowerCase();
	const ms = Number(match[1]) * UNIT_MS[unit];
	return Number.isFinite(ms) ? ms : null;
}
/**
* Parses a turn token such as `turns:5`. Returns null when the token is not a turn count.
* @example parseTurns("TURNS: 10") // 10
*/
function parseTurns(token) {
	const match = TURNS_TOKEN.exec(token.trim());
	if (!match) return null;
	const turns = Number(match[1]);
	return Number.isFinite(turns) ? turns : null;
}
/**
* Formats a duration for people: seconds under a minute, minutes and seconds under an hour, else hours and minutes.
* @example formatTime(60_000) // "1m 0s"
* @example formatTime(3_661_000) // "1h 1m"
*/
function formatTime(ms) {
	const safeMs = Number.isFinite(ms) ? Math.max(0, ms) : 0;
	const totalSeconds = Math.floor(safeMs / SECOND_MS$1);
	if (safeMs < MINUTE_MS) return `${totalSeconds}s`;
	if (safeMs < HOUR_MS) return `${Math.floor(totalSeconds / 60)}m ${totalSeconds % 60}s`;
	const totalMinutes = Math.floor(totalSeconds / 60);
	return `${Math.floor(totalMinutes / 60)}h ${totalMinutes % 60}m`;
}
/** Quotes user input back in a message, shortened so a huge argument cannot flood the screen. */
function quoteInput(text) {
	const chars = Array.from(text);
	return `"${chars.length > 40 ? `${chars.slice(0, 40).join("")}…` : text}"`;
}
/** Joins `turns: 5` into `turns:5` and `15 m` into `15m`, so the spacing people type still parses. */
function joinSplitTokens(budgetText) {
	return budgetText.replace(/\b(turns|grace|tokens|cost|steps):\s+(?=[\d$])/gi, "$1:").replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}
function invalid(reason) {
	return {
		kind: "invalid",
		reason
	};
}
const SUB_COMMANDS = {
	[STATUS_WORD]: "status",
	[REPORT_WORD]: "report",
	[PAUSE_WORD]: "pause",
	[RESUME_WORD]: "resume",
	...Object.fromEntries(OFF_WORDS.map((word) => [word, "off"]))
};
/** A token count such as `tokens:200k` or `tokens:1.5m`, or null when the word is not one. */
function parseTokens(token) {
	const match = TOKENS_TOKEN.exec(token);
	if (!match) return null;
	const unit = (match[2] ?? "").toLowerCase();
	return Math.round(Number(match[1]) * (unit === "k" || unit === "m" ? TOKEN_UNITS[unit] : 1));
}
/** A cost in US dollars such as `cost:2.50` or `$2.50`, or null when the word is not one. */
function parseCost(token) {
	const match = COST_TOKEN.exec(token);
	return match ? Number(match[1]) : null;
}
function readWords(tokens) {
	let timeMs = null;
	let turns = null;
	let tokenCount = null;
	let steps = null;
	let stepsWord = "";
	let cost = null;
	let aware = false;
	let graceMs = null;
	let timeWord = "";
	let turnsWord = "";
	let tokensWord = "";
	let costWord = "";
	let graceWord = "";
	const notes = [];
	for (const token of tokens) {
		const stepMatch = STEPS_TOKEN.exec(token);
		if (stepMatch) {
			const count = Number(stepMatch[1]);
			if (count < 1 || count > 1e4) return { invalid: `${quoteInput(token)} is out of range: a step cap is 1 to 10,000 model calls per prompt.` };
			if (steps !== null) notes.push(`${token} replaces ${stepsWord}.`);
			steps = count;
			stepsWord = token;
			continue;
		}
		const tokenBudget = parseTokens(token);
		if (tokenBudget !== null) {
			if (tokenBudget < 1 || tokenBudget > 1e9) return { invalid: `${quoteInput(token)} is out of range: a token budget is 1 to 1,000,000,000 tokens.` };
			if (tokenCount !== null) notes.push(`${token} replaces ${tokensWord}.`);
			tokenCount = tokenBudget;
			tokensWord = token;
			continue;
		}
		const dollars = parseCost(token);
		if (dollars !== null) {
			if (dollars < .01 || dollars > 1e4) return { invalid: `${quoteInput(token)} is out of range: a cost budget is $0.01 to $10,000.` };
			if (cost !== null) notes.push(`${token} replaces ${costWord}.`);
			cost = dollars;
			costWord = token;
			continue;
		}
		if (token.toLowerCase() === "aware") {
			aware = true;
			continue;
		}
		if (GRACE_TOKEN.test(token)) {
			const ms = parseTimeToMs(token.slice(token.indexOf(":") + 1));
			if (ms === null) return { invalid: `${quoteInput(token)} is not a grace period: write grace:30s or grace:2m.` };
			const wholeSeconds = Math.round(ms / SECOND_MS$1) * SECOND_MS$1;
			if (wholeSeconds < 1e3 || wholeSeconds > 6e5) return { invalid: `${quoteInput(token)} is out of range: a grace period is 1s to 10m.` };
			if (graceMs !== null) notes.push(`${token} replaces ${graceWord}.`);
			graceMs = wholeSeconds;
			graceWord = token;
			continue;
		}
		const count = parseTurns(token);
		if (count !== null) {
			if (count < 1 || count > 1e6) return { invalid: `${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.` };
			if (turns !== null) notes.push(`${token} replaces ${turnsWord}.`);
			turns = count;
			turnsWord = token;
			continue;
		}
		const ms = parseTimeToMs(token);
		if (ms !== null) {
			const wholeSeconds = Math.round(ms / SECOND_MS$1) * SECOND_MS$1;
			if (wholeSeconds < 1e3 || wholeSeconds > 2592e6) return { invalid: `${quoteInput(token)} is out of range: a time budget is 1s to 30 days.` };
			if (timeMs !== null) notes.push(`${token} replaces ${timeWord}; for the sum, write ${timeWord}${token} as one word.`);
			timeMs = wholeSeconds;
			timeWord = token;
			continue;
		}
		return { invalid: unknownWord(token) };
	}
	return {
		timeMs,
		turns,
		tokens: tokenCount,
		cost,
		steps,
		aware,
		graceMs,
		notes
	};
}
/** Why a word is no budget word, with a hint for the slips people make. */
function unknownWord(token) {
	const why = `${quoteInput(token)} is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s.`;
	if (/^[—–]+$/.test(token)) return `${why} Did you mean -- before the on-stop command?`;
	if (token.startsWith("+")) return `${why} To add to the budget, put + before every word: +10m +turns:2.`;
	return why;
}
function withNotes(command, notes) {
	return notes.length > 0 ? {
		...command,
		notes: [...notes]
	} : command;
}
/** `extend 10m`, `add turns:2`, or every word prefixed with `+`: the words to add, else null. */
function extensionWords(tokens) {
	const [first, ...rest] = tokens;
	if (first !== void 0 && EXTEND_WORDS.includes(first.toLowerCase())) return rest;
	if (tokens.length > 0 && tokens.every((token) => token.startsWith("+"))) return tokens.map((token) => token.slice(1));
	return null;
}
/**
* Parses the text after `/timebox`. Never throws: anything it cannot read is `invalid` with a reason naming the problem.
* @example parseCommand("15m turns:3 -- say done") // { kind: "set", timeLimitMs: 900_000, turnLimit: 3, onStopCommand: "say done" }
* @example parseCommand("+10m +turns:2") // { kind: "extend", addTimeMs: 600_000, addTurns: 2 }
* @example parseCommand("15m aware grace:30s") // { kind: "set", timeLimitMs: 900_000, …, awareness: "always", graceMs: 30_000 }
*/
function parseCommand(input) {
	const text = typeof input === "string" ? input : "";
	const delimiter = STOP_COMMAND_DELIMITER.exec(text);
	const budgetText = delimiter ? text.slice(0, delimiter.index) : text;
	const stopCommand = delimiter ? text.slice(delimiter.index + delimiter[0].length).trim() : "";
	const tokens = joinSplitTokens(budgetText).split(/\s+/).filter((token) => token.length > 0);
	for (const token of tokens) {
		const kind = SUB_COMMANDS[token.toLowerCase()];
		if (kind === void 0) continue;
		if (tokens.length > 1 || delimiter) return invalid(`${quoteInput(token)} takes nothing else with it.`);
		return { kind };
	}
	const extension = extensionWords(tokens);
	if (extension !== null) {
		if (delimiter) return invalid("An extension keeps the budget's on-stop command: nothing goes after --.");
		const words = readWords(extension);
		if ("invalid" in words) return invalid(words.invalid);
		if (words.aware || words.graceMs !== null || words.steps !== null) return invalid("An extension adds to the limits only; set aware, grace or steps with a new budget.");
		if (words.timeMs === null && words.turns === null && words.tokens === null && words.cost === null) return invalid("Nothing to add: give a time, turns:<n>, tokens:<n> or cost:<dollars>.");
		return withNotes({
			kind: "extend",
			addTimeMs: words.timeMs,
			addTurns: words.turns,
			...words.tokens === null ? {} : { addTokens: words.tokens },
			...words.cost === null ? {} : { addCost: words.cost }
		}, words.notes);
	}
	const words = readWords(tokens);
	if ("invalid" in words) return invalid(words.invalid);
	const noLimit = words.tokens === null && words.cost === null && words.steps === null;
	if (words.timeMs === null && words.turns === null && noLimit) return invalid(stopCommand ? "A command after -- needs a budget before it." : "No budget given.");
	if (delimiter && stopCommand.length === 0) words.notes.push("Nothing follows --, so no on-stop command was set.");
	return withNotes({
		kind: "set",
		timeLimitMs: words.timeMs,
		turnLimit: words.turns,
		...words.tokens === null ? {} : { tokenLimit: words.tokens },
		...words.cost === null ? {} : { costLimit: words.cost },
		...words.steps === null ? {} : { stepLimit: words.steps },
		onStopCommand: stopCommand.length > 0 ? stopCommand : null,
		...words.aware ? { awareness: "always" } : {},
		...words.graceMs === null ? {} : { graceMs: words.graceMs }
	}, words.notes);
}
// src/core/daily-budget.ts
const NO_ADJUSTMENT = {
	addTimeMs: 0,
	addPrompts: 0,
	addTokens: 0,
	addCost: 0,
	off: false
};
/** The part of a run since `startedAt` that belongs to today: a run that began yesterday counts from midnight. */
function runTimeToday(startedAt, standings, now) {
	const dayStart = standings.reduce((latest, standing) => Math.max(latest, standing.dayStart), startedAt);
	return Math.max(0, now - dayStart);
}
/** The settings words a daily budget takes: time, prompts, tokens and cost; the rest belong to a session. */
function parseDailyBudget(text, scope, source) {
	const value = typeof text === "string" ? text : JSON.stringify(text);
	const command = parseCommand(value);
	if (command.kind !== "set") return { warning: `Timebox: ${source}: ${command.kind === "invalid" ? command.reason : `${quoteInput(value)} is not a budget.`} No daily budget is enforced from it.` };
	if (command.stepLimit !== void 0 || command.awareness !== void 0 || command.graceMs !== void 0 || command.onStopCommand) return { warning: `Timebox: ${source}: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.` };
	return {
		scope,
		source,
		limits: {
			timeMs: command.timeLimitMs,
			prompts: command.turnLimit,
			tokens: command.tokenLimit ?? null,
			cost: command.costLimit ?? null
		}
	};
}
/** The limits in force today: the budget's, plus what was added today. */
function limitsToday(standing) {
	const { limits } = standing.budget;
	const add = standing.adjustment;
	const plus = (limit, more) => limit === null ? null : limit + more;
	return {
		timeMs: plus(limits.timeMs, add.addTimeMs),
		prompts: plus(limits.prompts, add.addPrompts),
		tokens: plus(limits.tokens, add.addTokens),
		cost: plus(limits.cost, add.addCost)
	};
}
/** The used share of the daily budget's worst limit; 0 while it is off for the day. */
function dailyRatio(standing) {
	if (standing.adjustment.off) return 0;
	const limits = limitsToday(standing);
	const { use } = standing;
	const ratio = (used, limit) => limit === null ? 0 : safeAmount(used) / limit;
	return Math.max(ratio(use.agentMs, limits.timeMs), ratio(use.prompts, limits.prompts), ratio(use.tokens, limits.tokens), ratio(use.cost, limits.cost));
}
/** The first daily budget that is spent, or null. `prompts` checks the prompt limit too (a new prompt is about to run). */
function spentDaily(standings, prompts) {
	return standings.find((standing) => {
		if (standing.adjustment.off) return false;
		const limits = limitsToday(standing);
		const { use } = standing;
		return limits.timeMs !== null && use.agentMs >= limits.timeMs || prompts && limits.prompts !== null && use.prompts >= limits.prompts || limits.tokens !== null && use.tokens >= limits.tokens || limits.cost !== null && use.cost >= limits.cost;
	}) ?? null;
}
// src/core/format.ts
const SECOND_MS = 1e3;
/** Shown in the status bar once the budget is spent. */
const SPENT_STATUS = "Timebox: budget spent";
/** Shown in the status bar while the run that met the limit writes its final answer. */
const WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;
/**
* A token count as people read it: `950`, `1.5k`, `150k`, `1.2m`.
* @example formatTokens(150_000) // "150k"
*/
function formatTokens(tokens) {
	const count = safeAmount(tokens);
	if (count < 1e3) return `${Math.floor(count)}`;
	if (count < 1e6) return `${trimmed(count / 1e3)}k`;
	return `${trimmed(count / 1e6)}m`;
}
/** One decimal, none when it is zero: `1.5`, `150`. */
function trimmed(value) {
	const rounded = Math.floor(value * 10) / 10;
	return Number.isInteger(rounded) ? `${rounded}` : rounded.toFixed(1);
}
/**
* US dollars as people read them: cents from a dollar up (`$2.07`), and below a dollar up to four decimals, so that a
* small budget's figures stay apart (`$0.012 of $0.01`, `$0.0042`).
* @example formatCost(1.234) // "$1.23"
*/
function formatCost(dollars) {
	const amount = safeAmount(dollars);
	if (amount >= 1) return `$${amount.toFixed(2)}`;
	return `$${amount.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}
/** `1 turn` / `3 turns`. */
function pluralTurns(count) {
	return `${count} ${count === 1 ? "turn" : "turns"}`;
}
/**
* A compact label for a time limit: only the non-zero parts.
* @example formatBudgetLabel(5_400_000) // "1h 30m"
*/
function formatBudgetLabel(ms) {
	const totalSeconds = Math.floor(Math.max(0, ms) / SECOND_MS);
	const hours = Math.floor(totalSeconds / 3600);
	const minutes = Math.floor(totalSeconds % 3600 / 60);
	const seconds = totalSeconds % 60;
	return [
		hours > 0 ? `${hours}h` : "",
		minutes > 0 ? `${minutes}m` : "",
		seconds > 0 ? `${seconds}s` : ""
	].filter((part) => part.length > 0).join(" ") || "0s";
}
/**
* `15m and 3 turns`, `15m`, `1 turn`: what a budget allows, for notifications, then how the model is treated under it
* (`; the model is told what is left at every call; 30s to wrap up at the limit`).
*/
function describeBudget(limits) {
	const parts = [];
	if (limits.timeLimitMs !== null) parts.push(formatBudgetLabel(limits.timeLimitMs));
	if (limits.turnLimit !== null) parts.push(pluralTurns(limits.turnLimit));
	if (limits.tokenLimit !== void 0) parts.push(`${formatTokens(limits.tokenLimit)} tokens`);
	if (limits.costLimit !== void 0) parts.push(formatCost(limits.costLimit));
	if (limits.stepLimit !== void 0) parts.push(stepsPerPrompt(limits.stepLimit));
	const treatment = [];
	if (limits.awareness === "always") treatment.push("the model is told what is left at every call");
	if (limits.graceMs !== void 0) treatment.push(`${formatBudgetLabel(limits.graceMs)} to wrap up at the limit`);
	return [parts.join(" and "), ...treatment].join("; ");
}
/** Time left as people read it, rounded up to the second so the countdown reads 0s only when the time is up. */
function formatTimeLeft(budget, limitMs, now) {
	return formatTime(Math.ceil(Math.max(0, limitMs - elapsedMs(budget, now)) / SECOND_MS) * SECOND_MS);
}
/**
* `12m 34s left (15m budget) | 3 turns left (2/5) | $1.23 of $2.00 | 150k of 200k tokens`: what remains of time and
* prompts, and what was used of cost and tokens where the budget limits them.
*/
function formatRemaining(budget, now, usedTurns, spend = NO_SPEND, steps = null) {
	const timePart = budget.timeLimitMs === null ? "no time limit" : `${formatTimeLeft(budget, budget.timeLimitMs, now)} left (${formatBudgetLabel(budget.timeLimitMs)} budget)`;
	const used = safeTurns(usedTurns);
	return [
		timePart,
		budget.turnLimit === null ? "no turn limit" : `${pluralTurns(Math.max(0, budget.turnLimit - used))} left (${used}/${budget.turnLimit})`,
		...spendParts(budget, spend, steps)
	].join(" | ");
}
/** `25 steps per prompt`. */
function stepsPerPrompt(limit) {
	return `${limit} ${limit === 1 ? "step" : "steps"} per prompt`;
}
/**
* `$1.23 of $2.00`, `150k of 200k tokens`: what was used of the cost and token limits the budget has; then the step cap,
* as `step 12/25` while a run is going, else `25 steps per prompt`.
*/
function spendParts(budget, spend, steps) {
	const parts = [];
	if (budget.costLimit !== void 0) parts.push(`${formatCost(spend.cost)} of ${formatCost(budget.costLimit)}`);
	if (budget.tokenLimit !== void 0) parts.push(`${formatTokens(spend.tokens)} of ${formatTokens(budget.tokenLimit)} tokens`);
	if (budget.stepLimit !== void 0) parts.push(steps ? `step ${steps.used}/${steps.allowed}` : stepsPerPrompt(budget.stepLimit));
	return parts;
}
/**
* The status bar text of an active budget: `Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)`, with
* `paused | ` after `Timebox:` while it is paused.
*/
function formatStatus(budget, now, usedTurns, spend = NO_SPEND, steps = null) {
	return `Timebox: ${budget.pausedAt === void 0 ? "" : "paused | "}${formatRemaining(budget, now, usedTurns, spend, steps)}`;
}
/** The block added to every model call once the budget is nearly spent; `graceMs` > 0 promises a wrap-up at the limit. */
function formatNudgePrompt(budget, now, usedTurns, urgency, graceMs = 0, spend = NO_SPEND, steps = null) {
	const lines = [`${urgency === "critical" ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`];
	lines.push("The user gave this session a budget and it is nearly spent.");
	if (budget.timeLimitMs !== null) lines.push(`Time left: ${formatTimeLeft(budget, budget.timeLimitMs, now)} of ${formatBudgetLabel(budget.timeLimitMs)}.`);
	if (budget.turnLimit !== null) {
		const used = safeTurns(usedTurns);
		const left = Math.max(0, budget.turnLimit - used);
		lines.push(left <= 1 ? `Turns: this is the last prompt the budget allows (${used} of ${budget.turnLimit} used).` : `Turns left: ${left} prompts, this one included (${used} of ${budget.turnLimit} used).`);
	}
	if (budget.tokenLimit !== void 0) {
		const left = Math.max(0, budget.tokenLimit - safeAmount(spend.tokens));
		lines.push(`Tokens left: ${formatTokens(left)} of ${formatTokens(budget.tokenLimit)}.`);
	}
	if (budget.costLimit !== void 0) {
		const left = Math.max(0, budget.costLimit - safeAmount(spend.cost));
		lines.push(`Cost left: ${formatCost(left)} of ${formatCost(budget.costLimit)}.`);
	}
	if (steps) lines.push(`Steps: this is model call ${steps.used} of the ${steps.allowed} this prompt may make.`);
	lines.push("Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.", graceMs > 0 ? `When the budget runs out, your tool calls are refused and you have ${formatBudgetLabel(graceMs)} to write the final answer.` : "When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished.");
	return lines.join("\n");
}
/**
* The line every model call carries when the user asked that the model always know its budget.
* @example formatAwareLine(fifteenMinutesFivePrompts, now, 2) // "Timebox: 9m 12s and 3 prompts left of 15m / 5 prompts."
*/
function formatAwareLine(budget, now, usedTurns, spend = NO_SPEND) {
	const left = [];
	const of = [];
	if (budget.timeLimitMs !== null) {
		left.push(formatTimeLeft(budget, budget.timeLimitMs, now));
		of.push(formatBudgetLabel(budget.timeLimitMs));
	}
	if (budget.turnLimit !== null) {
		left.push(pluralPrompts$1(Math.max(0, budget.turnLimit - safeTurns(usedTurns))));
		of.push(pluralPrompts$1(budget.turnLimit));
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
/** The block the model reads on the call a prompt gets to wrap up in, once its steps are used. */
function formatStepsWrapUp(limit) {
	return [
		"TIMEBOX: STEPS SPENT",
		`This prompt has made the ${limit} model calls the user allows per prompt. Write your final answer now: what was done, and what is left to do.`,
		"Call no tools: they are refused, and the run ends if you ask for one."
	].join("\n");
}
/** The block the model reads on the calls it gets to wrap up in, once the budget is spent. */
const WRAP_UP_PROMPT = [
	"TIMEBOX: BUDGET SPENT",
	"The budget the user gave this session is spent. Write your final answer now: what was done, and what is left to do.",
	"Call no more tools: they are refused, and the run is stopped if you ask for one again."
].join("\n");
/** `12m 34s left | 2 turns left`: only what is left of each limit, for a question. */
function formatLeft(budget, now, usedTurns, spend = NO_SPEND) {
	const parts = [];
	if (budget.timeLimitMs !== null) parts.push(`${formatTimeLeft(budget, budget.timeLimitMs, now)} left`);
	if (budget.turnLimit !== null) parts.push(`${pluralTurns(Math.max(0, budget.turnLimit - safeTurns(usedTurns)))} left`);
	if (budget.tokenLimit !== void 0) parts.push(`${formatTokens(Math.max(0, budget.tokenLimit - safeAmount(spend.tokens)))} tokens left`);
	if (budget.costLimit !== void 0) parts.push(`${formatCost(Math.max(0, budget.costLimit - safeAmount(spend.cost)))} left`);
	return parts.join(" | ");
}
/** `1 prompt`, `3 prompts`: a count of prompts as people read it. */
function pluralPrompts$1(count) {
	return `${count} ${count === 1 ? "prompt" : "prompts"}`;
}
/** `3m 0s left of 15m and 1 prompt left of 5`: what is left of each limit, against the limit, for the warning. */
function formatLeftOf(budget, now, usedTurns, spend = NO_SPEND) {
	const parts = [];
	if (budget.timeLimitMs !== null) parts.push(`${formatTimeLeft(budget, budget.timeLimitMs, now)} left of ${formatBudgetLabel(budget.timeLimitMs)}`);
	if (budget.turnLimit !== null) {
		const left = Math.max(0, budget.turnLimit - safeTurns(usedTurns));
		parts.push(`${pluralPrompts$1(left)} left of ${budget.turnLimit}`);
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
// src/core/daily-text.ts
/** `/timebox today` where no daily budget is set: how to set one. */
const NO_DAILY_BUDGET = "No daily budget is set. In pi, set one under the timebox key of the settings (\"daily\": \"3h turns:60 $10\"); in Claude Code, with TIMEBOX_DAILY=\"3h turns:60 $10\".";
/** `1 prompt` / `3 prompts`. */
function pluralPrompts(count) {
	return `${count} ${count === 1 ? "prompt" : "prompts"}`;
}
/** `3h of agent time`, `60 prompts`, `$10.00`: what a daily budget allows, for its messages. */
function describeDaily(limits) {
	const parts = [];
	if (limits.timeMs !== null) parts.push(`${formatBudgetLabel(limits.timeMs)} of agent time`);
	if (limits.prompts !== null) parts.push(pluralPrompts(limits.prompts));
	if (limits.tokens !== null) parts.push(`${formatTokens(limits.tokens)} tokens`);
	if (limits.cost !== null) parts.push(formatCost(limits.cost));
	return parts.join(" and ");
}
/** The refusal and stop text of a spent daily budget. */
function dailySpentMessage(standing) {
	return `Timebox: today's budget is spent (${describeDaily(limitsToday(standing))}). It resets at midnight.`;
}
/** What is left of a daily budget, for the warnings: `36m 0s of agent time left of 3h and 1 prompt left of 5`. */
function dailyLeft(standing) {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts = [];
	if (limits.timeMs !== null) parts.push(`${formatTime(Math.max(0, limits.timeMs - use.agentMs))} of agent time left of ${formatBudgetLabel(limits.timeMs)}`);
	if (limits.prompts !== null) parts.push(`${pluralPrompts(Math.max(0, limits.prompts - use.prompts))} left of ${limits.prompts}`);
	if (limits.tokens !== null) parts.push(`${formatTokens(Math.max(0, limits.tokens - use.tokens))} tokens left of ${formatTokens(limits.tokens)}`);
	if (limits.cost !== null) parts.push(`${formatCost(Math.max(0, limits.cost - use.cost))} left of ${formatCost(limits.cost)}`);
	return parts.join(" and ");
}
/**
* Each limited dimension of a daily budget as used of limit and what is left, the unlimited ones not at all:
* `1h 0m of 3h of agent time used, 2h 0m left; 2 of 3 prompts used, 1 left`.
*/
function usedOfLimits(standing) {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts = [];
	if (limits.timeMs !== null) {
		const left = formatTime(Math.max(0, limits.timeMs - use.agentMs));
		parts.push(`${formatTime(use.agentMs)} of ${formatBudgetLabel(limits.timeMs)} of agent time used, ${left} left`);
	}
	if (limits.prompts !== null) {
		const left = Math.max(0, limits.prompts - use.prompts);
		parts.push(`${use.prompts} of ${pluralPrompts(limits.prompts)} used, ${left} left`);
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
/** `Used by 2 sessions.`: how many sessions used a daily budget today. */
function usedBy(sessions) {
	if (sessions === 0) return "Used by no session yet.";
	return `Used by ${sessions} ${sessions === 1 ? "session" : "sessions"}.`;
}
/** `/timebox today`: today's use against each daily budget, what is left, and how many sessions used it. */
function todayReport(standings) {
	if (standings.length === 0) return NO_DAILY_BUDGET;
	const lines = standings.map((standing) => {
		const who = standing.budget.scope === "user" ? "Every session" : "This project";
		const state = standing.adjustment.off ? " Off until midnight." : "";
		return `${who} (${standing.budget.source}): ${usedOfLimits(standing)}. ${usedBy(standing.use.sessions)}${state}`;
	});
	return [`Timebox today: ${standings.length === 1 ? "1 daily budget" : `${standings.length} daily budgets`}.`, ...lines].join("\n");
}
// src/core/daily.ts
/**
* The warnings due for today's budgets at 80% and 95%, each once per session and level: the user's notice and the
* model's lines, and the levels now given.
*/
function dailyWarnings(standings, given) {
	const effects = [];
	const now = [...given];
	const modelLines = [];
	for (const standing of standings) {
		const ratio = dailyRatio(standing);
		if (ratio < .8 || ratio >= 1) continue;
		const level = `${standing.budget.scope}:${ratio >= .95 ? "critical" : "warning"}`;
		modelLines.push(`Today's budget (shared by every session): ${dailyLeft(standing)}.`);
		if (now.includes(level)) continue;
		now.push(level);
		effects.push({
			kind: "notify",
			message: `Timebox: today's budget: ${dailyLeft(standing)} — the model is asked to wrap up.`,
			level: "warning"
		});
	}
	return {
		effects,
		given: now,
		modelLines
	};
}
/** Reads the words after `/timebox today`. */
function parseToday(words) {
	const text = words.trim();
	if (text.length === 0) return { kind: "show" };
	if (text.toLowerCase() === "off") return { kind: "off" };
	const command = parseCommand(text);
	if (command.kind !== "extend") return {
		kind: "invalid",
		reason: "After /timebox today: nothing, off, or what to add (+30m, +turns:5, +$2)."
	};
	return {
		kind: "add",
		adjustment: {
			addTimeMs: command.addTimeMs ?? 0,
			addPrompts: command.addTurns ?? 0,
			addTokens: command.addTokens ?? 0,
			addCost: command.addCost ?? 0,
			off: false
		},
		added: describeDaily({
			timeMs: command.addTimeMs,
			prompts: command.addTurns,
			tokens: command.addTokens ?? null,
			cost: command.addCost ?? null
		})
	};
}
function refusal(standing) {
	const message = dailySpentMessage(standing);
	return [
		{
			kind: "notify",
			message,
			level: "error"
		},
		{ kind: "abort" },
		{
			kind: "refuse",
			reason: message
		}
	];
}
/**
* The daily rules for one event of a session: a new prompt is refused once a daily budget is spent, else counted; a run
* is stopped once today's time, tokens or cost are spent (its own time so far included); the model and the user are
* warned at 80% and 95%; the end of a run adds its agent time.
*/
function dailyStep(session, event, standings, now) {
	const none = {
		effects: [],
		context: [],
		countPrompt: false,
		agentMs: 0
	};
	switch (event.type) {
		case "newPrompt": {
			const spent = spentDaily(standings, true);
			if (spent) return {
				...none,
				session: {
					...session,
					runStartedAt: null
				},
				effects: refusal(spent)
			};
			const warned = dailyWarnings(standings, session.given);
			const before = session.runStartedAt === null ? 0 : runTimeToday(session.runStartedAt, standings, now);
			return {
				...none,
				session: {
					given: warned.given,
					runStartedAt: now,
					stopped: false
				},
				effects: warned.effects,
				context: warned.modelLines,
				countPrompt: true,
				agentMs: before
			};
		}
		case "promptRefused": {
			const spent = spentDaily(standings, true) ?? standings[0];
			return {
				...none,
				session: {
					...session,
					runStartedAt: null
				},
				effects: spent ? refusal(spent) : []
			};
		}
		case "duringRun": {
			if (session.runStartedAt === null && !event.modelCall) return {
				...none,
				session
			};
			const startedAt = session.runStartedAt ?? now;
			const running = runTimeToday(startedAt, standings, now);
			const withRun = standings.map((standing) => ({
				...standing,
				use: {
					...standing.use,
					agentMs: standing.use.agentMs + running,
					prompts: Math.max(0, standing.use.prompts - 1)
				}
			}));
			const spent = spentDaily(withRun, false);
			const resumed = {
				...session,
				runStartedAt: startedAt
			};
			if (spent && session.stopped) return {
				...none,
				session: resumed,
				effects: refusal(spent).filter((effect) => effect.kind !== "notify")
			};
			if (spent) return {
				...none,
				session: {
					...resumed,
					stopped: true
				},
				effects: refusal(spent)
			};
			const warned = dailyWarnings(withRun, session.given);
			return {
				...none,
				session: {
					...resumed,
					given: warned.given
				},
				effects: warned.effects,
				context: event.modelCall ? warned.modelLines : []
			};
		}
		case "runEnd":
			if (session.runStartedAt === null) return {
				...none,
				session
			};
			return {
				...none,
				session: {
					...session,
					runStartedAt: null,
					stopped: false
				},
				agentMs: runTimeToday(session.runStartedAt, standings, now)
			};
	}
}
/**
* Carries one daily event out against the ledger: reads today's standing, steps the rules, counts a new prompt (and
* refuses it if another session took the last one meanwhile), and adds the agent time of a run that ended.
*/
function runDaily(port, session, event, now) {
	const { ledger, budgets } = port;
	const standings = ledger.standings(budgets);
	let result = dailyStep(session, event, standings, now);
	if (result.countPrompt) {
		const limits = standings.map((standing) => standing.adjustment.off ? null : limitsToday(standing).prompts);
		if (!ledger.countPrompt(budgets, limits)) result = dailyStep(result.session, { type: "promptRefused" }, ledger.standings(budgets), now);
	}
	if (result.agentMs > 0) ledger.addUse(budgets, { agentMs: result.agentMs });
	const problem = ledger.problem();
	if (problem !== null) result = {
		...result,
		effects: [{
			kind: "notify",
			message: problem,
			level: "warning"
		}, ...result.effects]
	};
	return result;
}
/** What `/timebox today …` says, after doing what it asks to every budget. */
function todayCommand(port, words) {
	const command = parseToday(words);
	const { ledger, budgets } = port;
	if (command.kind === "invalid") return {
		message: `Timebox: ${command.reason} Nothing changed.`,
		level: "warning"
	};
	if (budgets.length === 0 || command.kind === "show") return {
		message: todayReport(ledger.standings(budgets)),
		level: "info"
	};
	if (command.kind === "off") {
		for (const budget of budgets) ledger.adjust(budget, {
			...NO_ADJUSTMENT,
			off: true
		});
		return {
			message: "Timebox: today's budget is off until midnight, in every session it covers.",
			level: "info"
		};
	}
	for (const budget of budgets) ledger.adjust(budget, command.adjustment);
	return {
		message: `Timebox: today's budget raised by ${command.added} for the rest of the day.\n${todayReport(ledger.standings(budgets))}`,
		level: "info"
	};
}
// src/core/decide.ts
/** The urgency of a nudge at this used share of the budget. */
function urgencyFor(ratio) {
	return ratio >= .95 ? "critical" : "warning";
}
/**
* Decides what the budget calls for: `stop` once any limit is reached (time, prompts, tokens or cost), a one-shot
* `nudge` once any dimension passes 80% (critical from 95%) and no nudge was sent yet, else `ok`.
* @example decide(fifteenMinutes, start + 12 * 60_000, 0, false) // { kind: "nudge", urgency: "warning", detail: "3m 0s left of 15m" }
*/
function decide(budget, now, usedTurns, nudged, spend = NO_SPEND) {
	const elapsed = elapsedMs(budget, now);
	const used = safeTurns(usedTurns);
	const tokens = safeAmount(spend.tokens);
	const cost = safeAmount(spend.cost);
	const timeRanOut = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
	const turnsSpent = budget.turnLimit !== null && used >= budget.turnLimit;
	const tokensSpent = budget.tokenLimit !== void 0 && tokens >= budget.tokenLimit;
	const costSpent = budget.costLimit !== void 0 && cost >= budget.costLimit;
	if (timeRanOut || turnsSpent || tokensSpent || costSpent) {
		const summary = {
			usedTurns: used,
			elapsedMs: elapsed,
			timeRanOut
		};
		if (!timeRanOut && !turnsSpent) summary.limit = tokensSpent ? "tokens" : "cost";
		if (budget.tokenLimit !== void 0) summary.tokens = tokens;
		if (budget.costLimit !== void 0) summary.cost = cost;
		return {
			kind: "stop",
			summary
		};
	}
	const ratio = worstRatio(budget, now, used, spend);
	if (!nudged && ratio >= .8) return {
		kind: "nudge",
		urgency: urgencyFor(ratio),
		detail: formatLeftOf(budget, now, used, spend)
	};
	return { kind: "ok" };
}
/**
* The same decision inside a run, on everything but the prompts: time, tokens and cost. Prompts are spent by prompts,
* and checked when one starts.
*/
function decideMidRun(budget, now, usedTurns, nudged, spend = NO_SPEND) {
	return decide({
		...budget,
		turnLimit: null
	}, now, usedTurns, nudged, spend);
}
// src/core/records.ts
function isFields(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isFiniteNumber(value) {
	return typeof value === "number" && Number.isFinite(value);
}
function isTimeLimit(value) {
	return value === null || isFiniteNumber(value) && value >= 1e3 && value <= 2592e6;
}
function isTurnLimit(value) {
	return value === null || Number.isInteger(value) && value >= 1 && value <= 1e6;
}
function isWholeCount(value) {
	return Number.isInteger(value) && value >= 0;
}
/** Whether `value` can name a budget (and so a ledger file). */
function isBudgetId(value) {
	return typeof value === "string" && BUDGET_ID_PATTERN.test(value);
}
/** The record to write when a budget is turned off. */
function offRecord(budgetId, disabledAt) {
	return {
		kind: "off",
		version: 2,
		budgetId,
		disabledAt
	};
}
/** The record to write for a budget; what was used before when it writes an existing budget again. */
function budgetRecord(budget, turnsBefore = 0, spendBefore = NO_SPEND) {
	return {
		version: 2,
		id: budget.id,
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
/** Whether `value` is a whole number from `min` to `max`. */
function isWholeIn(value, min, max) {
	return Number.isInteger(value) && value >= min && value <= max;
}
/**
* The optional fields of a budget that are set: token, cost and step limits, a pause, time paused before, extensions,
* awareness, a grace period.
*/
function optionalFields(fields) {
	const { tokenLimit, costLimit, stepLimit, pausedMs, pausedAt, extensions, awareness, graceMs } = fields;
	return {
		...isWholeIn(tokenLimit, 1, 1e9) ? { tokenLimit } : {},
		...isWholeIn(stepLimit, 1, 1e4) ? { stepLimit } : {},
		...isFiniteNumber(costLimit) && costLimit >= .01 && costLimit <= 1e4 ? { costLimit } : {},
		...isWholeCount(pausedMs) && pausedMs > 0 ? { pausedMs } : {},
		...isFiniteNumber(pausedAt) ? { pausedAt } : {},
		...isWholeCount(extensions) && extensions > 0 ? { extensions } : {},
		...awareness === "always" || awareness === "nudge" ? { awareness } : {},
		...isFiniteNumber(graceMs) && graceMs >= 1e3 && graceMs <= 6e5 ? { graceMs } : {}
	};
}
/**
* Reads a persisted budget, or null when it is unusable. Extra fields are ignored. A record without a version is from
* the first version: it has no id, so its start time names it, and a missing `onStopCommand` reads as null.
*/
function parseBudget(value) {
	if (!isFields(value)) return null;
	const { timeLimitMs, turnLimit, startTime, onStopCommand } = value;
	if (!isTimeLimit(timeLimitMs) || !isTurnLimit(turnLimit)) return null;
	const limits = optionalFields(value);
	const noLimit = limits.tokenLimit === void 0 && limits.costLimit === void 0 && limits.stepLimit === void 0;
	if (timeLimitMs === null && turnLimit === null && noLimit) return null;
	if (!isFiniteNumber(startTime)) return null;
	if (onStopCommand !== void 0 && onStopCommand !== null && typeof onStopCommand !== "string") return null;
	const id = value.version === void 0 ? `${LEGACY_ID_PREFIX}${startTime}` : value.id;
	if (!isBudgetId(id)) return null;
	return {
		id,
		timeLimitMs,
		turnLimit,
		startTime,
		onStopCommand: onStopCommand ? onStopCommand : null,
		...limits
	};
}
/**
* Reads one persisted record, or null when it is unusable. An `off` record counts whatever else it holds: a budget the
* user turned off must never come back because its off record was damaged.
*/
function parseRecord(value) {
	if (!isFields(value)) return null;
	if (value.kind === "off") return {
		kind: "off",
		budgetId: isBudgetId(value.budgetId) ? value.budgetId : null,
		disabledAt: isFiniteNumber(value.disabledAt) ? value.disabledAt : 0
	};
	const data = value.budget;
	if (value.kind !== "active" || !isFields(data)) return null;
	const budget = parseBudget(data);
	if (!budget) return null;
	const { startTurn, version, turnsBefore, tokensBefore, costBefore } = data;
	return {
		kind: "active",
		budget,
		legacyStartTurn: version === void 0 && isWholeCount(startTurn) ? startTurn : null,
		turnsBefore: isWholeCount(turnsBefore) ? turnsBefore : 0,
		spendBefore: {
			tokens: isWholeCount(tokensBefore) ? tokensBefore : 0,
			cost: isFiniteNumber(costBefore) && costBefore > 0 ? costBefore : 0
		}
	};
}
// src/core/history.ts
/**
* Folds a history: the newest usable record decides (an off means no budget), and the prompts after a budget's record
* count against it. Prompts are told apart by key, so a prompt the host repeats (a re-run, a message joined to a running
* prompt) counts once. Never throws, whatever the items hold.
* @example foldHistory([{ kind: "record", record: { kind: "active", budget } }, { kind: "prompt", key: "p1" }]).usedTurns // 1
*/
function foldHistory(items) {
	let budget = null;
	let budgetAt = items.length;
	let legacyStartTurn = null;
	let turnsBefore = 0;
	let spendBefore = {
		tokens: 0,
		cost: 0
	};
	let unusable = 0;
	for (let index = items.length - 1; index >= 0; index--) {
		const item = items[index];
		if (item?.kind !== "record") continue;
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
	let lastPrompt = null;
	const paused = budget?.pausedAt !== void 0;
	let tokens = spendBefore.tokens;
	let cost = spendBefore.cost;
	for (const [index, item] of items.entries()) {
		if (item.kind === "usage") {
			if (index > budgetAt && !paused) {
				tokens += safeAmount(item.tokens);
				cost += safeAmount(item.cost);
			}
			continue;
		}
		if (item.kind !== "prompt") continue;
		lastPrompt = item.key;
		if (index > countFrom && !paused) counted.add(item.key);
	}
	const usedTurns = Math.max(0, counted.size - (legacyStartTurn ?? 0)) + turnsBefore;
	return {
		budget,
		usedTurns: budget ? usedTurns : 0,
		spend: budget ? {
			tokens,
			cost
		} : {
			tokens: 0,
			cost: 0
		},
		lastPrompt,
		lastPromptCounted: usedTurns > 0 && lastPrompt !== null && counted.has(lastPrompt),
		newestUnusable: unusable > 0,
		hasRecords: items.some((item) => item.kind === "record")
	};
}
// src/core/messages.ts
/** The usage hint shown with every invalid input. */
const USAGE$1 = [
	"Usage: /timebox <budget> [-- <command>] | status | off",
	"       /timebox +<budget> (extend) | pause | resume | report",
	"  budget: 30s 15m 2h 1h30m (a bare number is minutes), turns:5 (prompts you send), tokens:200k, cost:2.50",
	"  options: aware (the model sees what is left at every call), grace:30s (time to wrap up at the limit)",
	"  e.g. /timebox 15m turns:3    /timebox turns:5 -- notify-send \"Timebox done\"    /timebox +10m +turns:2"
].join("\n");
const NO_ACTIVE_TIMEBOX = "No active timebox.";
const TIMEBOX_OFF = "Timebox off.";
const UNUSABLE_RECORD = "Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.";
function onStopNote(command) {
	return command === null ? "" : ` On stop it runs: ${command}`;
}
/** Invalid `/timebox` input: what is wrong, that nothing changed, and the usage. */
function invalidMessage(reason) {
	return `Timebox: ${reason} Nothing changed.\n${USAGE$1}`;
}
/** `/timebox status` with no budget: a question, not a mistake, so no usage. */
function noBudgetStatusMessage() {
	return NO_ACTIVE_TIMEBOX;
}
/** A new budget is in force; `notes` say which word replaced an earlier one. */
function budgetSetMessage(limits, replacedActive, notes = []) {
	const replaced = replacedActive ? " It replaces the previous budget." : "";
	return `Timebox set: ${describeBudget(limits)}.${replaced}${onStopNote(limits.onStopCommand)}${noteLines(notes)}`;
}
function noteLines(notes) {
	return notes.map((note) => `\n${note}`).join("");
}
/** The budget was extended: what was added, and the status now. */
function extendedMessage(added, statusText, notes = []) {
	return `Timebox extended by ${added}. ${statusText}${noteLines(notes)}`;
}
/** `/timebox +…` with no budget. */
const NOTHING_TO_EXTEND = "No active timebox: nothing to extend. Set one with /timebox <budget>.";
/** An extension would pass the largest budget. */
const EXTENSION_TOO_LARGE = "Timebox: that extension would pass the largest budget (30 days, 1,000,000 turns, 1,000,000,000 tokens, $10,000). Nothing changed.";
/** `/timebox pause` took effect. */
function pausedMessage(statusText) {
	return `Timebox paused: the clock stands still and prompts do not count until /timebox resume.\n${statusText}`;
}
/** `/timebox resume` took effect. */
function resumedMessage(statusText) {
	return `Timebox resumed. ${statusText}`;
}
const ALREADY_PAUSED = "Timebox is already paused. /timebox resume goes on.";
const NOT_PAUSED = "Timebox is not paused.";
/** A cost limit set where the model reports no cost. */
const COST_NOT_REPORTED = "Timebox: this model reports no cost: the cost limit cannot be enforced.";
/** A cost limit set on a host whose hooks never see what the session costs. */
const COST_NOT_SEEN = "Timebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.";
/** A token limit set on a host whose hooks never see what a model call used. */
const TOKENS_NOT_SEEN = "Timebox: this host does not tell Timebox what a model call used: the token limit cannot be enforced here.";
const SPENT_CANNOT_PAUSE = "Timebox budget is spent: there is nothing to pause. Extend it with /timebox +<budget>.";
/** `/timebox status` while a budget is active: the status text and the on-stop command. */
function activeStatusMessage(statusText, onStopCommand) {
	return `${statusText}${onStopCommand === null ? "" : `\nOn stop it runs: ${onStopCommand}`}`;
}
/**
* What a spent budget used of its token and cost limits, to follow the prompts and the time in a stop message:
* `, 1,200 of 1,000 tokens, $2.07 of $2.00` (empty for a budget without such limits). A model call already sent when the
* limit was reached can take the figure past it.
*/
function spentUsage(summary, budget) {
	const parts = [];
	if (budget.tokenLimit !== void 0) parts.push(`${(summary.tokens ?? 0).toLocaleString("en-US")} of ${budget.tokenLimit.toLocaleString("en-US")} tokens`);
	if (budget.costLimit !== void 0) parts.push(`${formatCost(summary.cost ?? 0)} of ${formatCost(budget.costLimit)}`);
	return parts.map((part) => `, ${part}`).join("");
}
/** The hard-stop notification; `usage` is what `spentUsage` says. */
function spentMessage(usedTurns, elapsedMs, usage = "") {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}. The agent stops for this turn. The chat continues.`;
}
/** The hard-stop notification when the budget ran out while nothing was running. */
function idleSpentMessage(usedTurns, elapsedMs, usage = "") {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}, while the agent was idle. The chat continues.`;
}
/** The budget ran out mid-run and the model may wrap up: nothing is cut yet. */
function wrapUpMessage(usedTurns, elapsedMs, graceMs, usage = "") {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}. The agent is wrapping up: its tools are refused, and it has ${formatTime(graceMs)} to write its final answer. The chat continues.`;
}
/** Why a tool is refused while the model wraps up: the model reads it. */
const WRAP_UP_REFUSAL = "Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";
/** The run that was wrapping up was stopped: its time ran out, or the model asked for tools again. */
function wrapUpCutMessage(why) {
	return `Timebox stopped the agent: ${why === "time" ? "the time to wrap up ran out" : "the model asked for tools again"}.`;
}
/** A setting Timebox cannot use: where it came from, what is wrong, and that it is ignored. */
function badSettingMessage(source, value, why) {
	return `Timebox: ${source}: ${JSON.stringify(value)} ${why}, so it is ignored.`;
}
/** `/timebox status` after the hard stop. */
function spentStatusMessage(usedTurns, elapsedMs, usage = "") {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}. Set a new budget with /timebox <budget>, or clear this one with /timebox off.`;
}
/** The soft nudge the user sees at 80% (critical from 95%). */
function nudgeMessage(urgency, detail) {
	return `Timebox: ${detail} — the model is asked to wrap up${urgency === "critical" ? " now" : ""}.`;
}
/** The on-stop command was started. */
function onStopStartedMessage(command) {
	return `Timebox ran the on-stop command: ${command}`;
}
/** The on-stop command could not start or failed. */
function onStopProblemMessage(problem) {
	return `Timebox on-stop command failed: ${problem}`;
}
/** A budget came back after a reload or resume. */
function restoredMessage(statusText, onStopCommand) {
	return `${statusText.replace(/^Timebox:/, "Timebox restored:")}.${onStopNote(onStopCommand)}`;
}
/** The session's budget was already spent when it was reopened. */
function expiredMessage(budget, summary) {
	return `Timebox budget of this session was already spent (${summary.timeRanOut ? "time ran out" : summary.limit === "tokens" ? "the token limit was reached" : summary.limit === "cost" ? "the cost limit was reached" : `all ${pluralTurns(Number(budget.turnLimit))} used`}), so it was not restored.${budget.onStopCommand === null ? "" : ` Its on-stop command is not run on restore: ${budget.onStopCommand}`}`;
}
/** An unexpected error inside Timebox, reported once per place. */
function internalErrorMessage(where, error) {
	return `Timebox hit an internal error (${where}): ${error instanceof Error ? error.message : String(error)}. Your session goes on; check the budget with /timebox status.`;
}
/** A default budget was set on a session new to Timebox. */
function defaultSetMessage(source, limits) {
	return `Timebox set from ${source}: ${describeBudget(limits)}.${onStopNote(limits.onStopCommand)}`;
}
/** A default budget that cannot be read: where it came from, what is wrong, and that the session has no budget. */
function badDefaultMessage(source, reason) {
	return `Timebox: ${source}: ${reason} The session starts without a budget.`;
}
/** Asked before a new budget replaces an active one. */
function replaceQuestion(left) {
	return `Replace the active budget (${left})?`;
}
const REPLACE_CHOICE = "Replace it";
const KEEP_CHOICE = "Keep it";
const KEPT_MESSAGE = "Nothing changed: the active budget stays.";
/** Asked when the budget is spent and the user chose to be asked at the limit. */
function limitQuestion(usedTurns, elapsedMs) {
	return `Timebox budget spent (used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}). Stop now, or go on with more?`;
}
const STOP_CHOICE = "Stop now";
const MORE_TIME_CHOICE = "+5 minutes";
const MORE_TURNS_CHOICE = "+1 prompt";
/** The running prompt made its last allowed model call; the next one is its wrap-up. */
function stepsUsedMessage(limit) {
	return `Timebox: this prompt used its ${limit} steps; the model was asked to finish.`;
}
/** Why a tool is refused once the prompt's steps are used: the model reads it. */
function stepsRefusal(limit) {
	return `Timebox: this prompt used its ${limit} steps. Write the final answer now, with what was done and what is left, without tools.`;
}
/** Asked when a prompt used its steps and the user chose to be asked at the limit. */
function stepsQuestion(limit) {
	return `This prompt used its ${limit} steps. Stop now, or continue with ${limit} more?`;
}
/** The choice that lets a run go on for another round of steps. */
function moreStepsChoice(limit) {
	return `Continue with ${limit} more steps`;
}
/** The run was ended at its step cap, as the user chose. */
function stepsStoppedMessage(limit) {
	return `Timebox: this prompt used its ${limit} steps and was stopped.`;
}
/** An `onLimit` setting Timebox does not know. */
function badOnLimitMessage(source, value) {
	return `Timebox: ${source}: ${JSON.stringify(value)} is neither "stop" nor "ask", so Timebox stops at the limit.`;
}
// src/core/report.ts
/**
* The report of a session's budgets, oldest first, or a line saying there were none.
* @example sessionReport(items, lookup, now) // "Timebox report: 1 budget in this session.\n1. 15m and 3 turns, set 4m 0s ago: …"
*/
function sessionReport(items, ledger, now) {
	const budgets = foldBudgets(items);
	if (budgets.length === 0) return "Timebox report: no budget was set in this session.";
	const lines = budgets.map((entry, index) => `${index + 1}. ${describeEntry(entry, ledger(entry.budget), now)}`);
	return [`Timebox report: ${budgets.length === 1 ? "1 budget" : `${budgets.length} budgets`} in this session.`, ...lines].join("\n");
}
/** Every budget the history set, with the prompts and usage that came while each was in force and not paused. */
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
				if (current) current.ending = {
					kind: "replaced",
					at: record.budget.startTime
				};
				current = {
					budget: record.budget,
					prompts: /* @__PURE__ */ new Set(),
					usage: [],
					ending: { kind: "active" }
				};
				budgets.push(current);
			} else if (record?.kind === "off" && current) {
				current.ending = {
					kind: "off",
					at: record.disabledAt
				};
				current = null;
			}
			continue;
		}
		if (!current || current.budget.pausedAt !== void 0) continue;
		if (item.kind === "prompt") current.prompts.add(item.key);
		else current.usage.push({
			tokens: item.tokens,
			cost: item.cost,
			at: item.at
		});
	}
	return budgets;
}
/** `15m and 3 turns, set 12m 0s ago: used 12m 0s, 3 turns, 150k tokens, $1.23. Spent: the time ran out.` */
function describeEntry(entry, ledger, now) {
	const { budget } = entry;
	const spent = ledger.spent;
	const ending = spent ? {
		kind: "spent",
		why: spentWhy(spent)
	} : entry.ending;
	const until = ending.kind === "off" || ending.kind === "replaced" ? ending.at : now;
	const time = spent ? spent.elapsedMs : elapsedMs(budget, until);
	const turns = spent ? spent.usedTurns : entry.prompts.size;
	const extended = budget.extensions ? `, extended ${budget.extensions === 1 ? "once" : `${budget.extensions} times`}` : "";
	const stoppedAt = spent ? budget.startTime + (budget.pausedMs ?? 0) + spent.elapsedMs : Number.POSITIVE_INFINITY;
	const spend = sumUsage(entry.usage.filter((usage) => usage.at === void 0 || usage.at <= stoppedAt));
	const used = [
		formatTime(time),
		pluralTurns(turns),
		`${formatTokens(spend.tokens)} tokens`,
		formatCost(spend.cost)
	];
	return `${`${describeBudget(budget)}, set ${formatTime(Math.max(0, now - budget.startTime))} ago${extended}`}: used ${used.join(", ")}. ${endingText(ending)}`;
}
function sumUsage(usage) {
	return usage.reduce((sum, one) => ({
		tokens: sum.tokens + safeAmount(one.tokens),
		cost: sum.cost + safeAmount(one.cost)
	}), {
		tokens: 0,
		cost: 0
	});
}
function spentWhy(spent) {
	if (spent.timeRanOut) return "the time ran out";
	if (spent.limit === "tokens") return "the tokens were used up";
	if (spent.limit === "cost") return "the cost limit was reached";
	return "the prompts were used up";
}
function endingText(ending) {
	switch (ending.kind) {
		case "active": return "Still active.";
		case "spent": return `Spent: ${ending.why}.`;
		case "off": return "Turned off.";
		case "replaced": return "Replaced by a new budget.";
	}
}
// src/core/command-plan.ts
/** Plans a parsed `/timebox` command against the session's budget. Pure: the session rules carry the change out. */
function planCommand(command, view) {
	switch (command.kind) {
		case "invalid": return {
			change: "none",
			reply: {
				message: invalidMessage(command.reason),
				level: "warning"
			}
		};
		case "status": return {
			change: "none",
			reply: {
				message: statusMessage(view),
				level: "info"
			}
		};
		case "off":
			if (!view.budget) return {
				change: "none",
				reply: {
					message: NO_ACTIVE_TIMEBOX,
					level: "info"
				}
			};
			return {
				change: "off",
				budgetId: view.budget.id,
				disabledAt: view.now,
				reply: {
					message: TIMEBOX_OFF,
					level: "info"
				}
			};
		case "set": {
			const budget = {
				id: view.newBudgetId,
				timeLimitMs: command.timeLimitMs,
				turnLimit: command.turnLimit,
				startTime: view.now,
				onStopCommand: command.onStopCommand,
				...spendLimits(command),
				...treatment(command)
			};
			const replacedActive = view.budget !== null && view.spent === null;
			const costNote = command.costLimit === void 0 ? [] : costNotes(view.cost ?? "reported");
			const tokensNote = command.tokenLimit !== void 0 && view.tokensSeen === false ? [TOKENS_NOT_SEEN] : [];
			return {
				change: "set",
				budget,
				reply: {
					message: budgetSetMessage(command, replacedActive, [
						...command.notes ?? [],
						...costNote,
						...tokensNote
					]),
					level: "info"
				}
			};
		}
		case "extend": return planExtension(command, view);
		case "pause": return planPause(view);
		case "resume": return planResume(view);
		case "report": return {
			change: "none",
			reply: {
				message: view.report ?? "No budget was set in this session.",
				level: "info"
			}
		};
	}
}
/** Why a cost limit cannot be enforced here, said when it is set. */
function costNotes(cost) {
	switch (cost) {
		case "reported": return [];
		case "model reports none": return [COST_NOT_REPORTED];
		case "host cannot see": return [COST_NOT_SEEN];
	}
}
/** The token, cost and step limits a budget's words asked for. */
function spendLimits(limits) {
	return {
		...limits.tokenLimit === void 0 ? {} : { tokenLimit: limits.tokenLimit },
		...limits.costLimit === void 0 ? {} : { costLimit: limits.costLimit },
		...limits.stepLimit === void 0 ? {} : { stepLimit: limits.stepLimit }
	};
}
const info = (message) => ({
	message,
	level: "info"
});
/** How the model is treated under a budget, as its words asked (`aware`, `grace:30s`). */
function treatment(limits) {
	return {
		...limits.awareness === void 0 ? {} : { awareness: limits.awareness },
		...limits.graceMs === void 0 ? {} : { graceMs: limits.graceMs }
	};
}
/** More time and/or prompts for the budget in force, counted from its limits (or from what is used, for a dimension it had no limit on). */
function planExtension(command, view) {
	const budget = view.budget;
	if (!budget) return {
		change: "none",
		reply: info(NOTHING_TO_EXTEND)
	};
	const timeLimitMs = command.addTimeMs === null ? budget.timeLimitMs : (budget.timeLimitMs ?? elapsedMs(budget, view.now)) + command.addTimeMs;
	const turnLimit = command.addTurns === null ? budget.turnLimit : (budget.turnLimit ?? view.usedTurns) + command.addTurns;
	const spend = view.spend;
	const tokenLimit = command.addTokens === void 0 ? budget.tokenLimit : (budget.tokenLimit ?? spend.tokens) + command.addTokens;
	const costLimit = command.addCost === void 0 ? budget.costLimit : (budget.costLimit ?? spend.cost) + command.addCost;
	if ((timeLimitMs ?? 0) > 2592e6 || (turnLimit ?? 0) > 1e6 || (tokenLimit ?? 0) > 1e9 || (costLimit ?? 0) > 1e4) return {
		change: "none",
		reply: {
			message: EXTENSION_TOO_LARGE,
			level: "warning"
		}
	};
	const added = describeBudget({
		timeLimitMs: command.addTimeMs,
		turnLimit: command.addTurns,
		...command.addTokens === void 0 ? {} : { tokenLimit: command.addTokens },
		...command.addCost === void 0 ? {} : { costLimit: command.addCost },
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
	const status = formatStatus(extended, view.now, view.usedTurns, spend);
	return {
		change: "update",
		budget: extended,
		reactivate: view.spent !== null,
		reply: info(extendedMessage(added, status, command.notes))
	};
}
function planPause(view) {
	const budget = view.budget;
	if (!budget) return {
		change: "none",
		reply: info(NO_ACTIVE_TIMEBOX)
	};
	if (view.spent) return {
		change: "none",
		reply: info(SPENT_CANNOT_PAUSE)
	};
	if (budget.pausedAt !== void 0) return {
		change: "none",
		reply: info(ALREADY_PAUSED)
	};
	const paused = {
		...budget,
		pausedAt: view.now
	};
	const status = formatStatus(paused, view.now, view.usedTurns, view.spend);
	return {
		change: "update",
		budget: paused,
		reactivate: false,
		reply: info(pausedMessage(status))
	};
}
function planResume(view) {
	const budget = view.budget;
	if (!budget) return {
		change: "none",
		reply: info(NO_ACTIVE_TIMEBOX)
	};
	if (budget.pausedAt === void 0) return {
		change: "none",
		reply: info(NOT_PAUSED)
	};
	const { pausedAt, ...running } = budget;
	const pausedMs = (budget.pausedMs ?? 0) + Math.max(0, view.now - pausedAt);
	const resumed = pausedMs > 0 ? {
		...running,
		pausedMs
	} : running;
	const status = formatStatus(resumed, view.now, view.usedTurns, view.spend);
	return {
		change: "update",
		budget: resumed,
		reactivate: false,
		reply: info(resumedMessage(status))
	};
}
function statusMessage(view) {
	if (!view.budget) return noBudgetStatusMessage();
	if (view.spent) return spentStatusMessage(view.spent.usedTurns, view.spent.elapsedMs, spentUsage(view.spent, view.budget));
	return activeStatusMessage(formatStatus(view.budget, view.now, view.usedTurns, view.spend), view.budget.onStopCommand);
}
// src/core/session.ts
/** A session with no budget. */
const EMPTY_SESSION = {
	budget: null,
	usedTurns: 0,
	lastPrompt: null,
	running: false,
	runningCounted: false,
	nudged: false,
	spent: null,
	stoppedPrompt: null
};
/** A ledger that knows nothing of a budget. */
const NOTHING_RECORDED = {
	spent: null,
	off: false,
	nudged: false
};
/** Applies one event to a session: the new state and the effects to carry out. */
function step(state, event, now) {
	if (state.asking && (event.type === "timeCheck" || event.type === "toolCall" || event.type === "modelCall")) return {
		state,
		effects: [status(state, now)]
	};
	const result = applyEvent(state, event, now);
	const spent = result.state.spent;
	const reachesLimit = event.type === "modelCall" || event.type === "toolCall" || event.type === "timeCheck" || event.type === "modelResponse";
	if (state.askAtLimit && state.spent === null && spent !== null && spent.limit === void 0 && reachesLimit) return askAtTheLimit(state, event, spent);
	return result;
}
function applyEvent(state, event, now) {
	switch (event.type) {
		case "load": return load(event, now);
		case "command": return command(state, event, now);
		case "declined": return {
			state,
			effects: [{
				kind: "notify",
				message: event.message,
				level: "info"
			}]
		};
		case "limitAnswer": return limitAnswer({
			...state,
			asking: false
		}, event, now);
		case "modelCall": return withCallContext(countStep(state, modelCall(state, event.prompt, now), event, now), now);
		case "stepsAnswer": return stepsAnswer({
			...state,
			asking: false
		}, event, now);
		case "toolCall": return toolCall(state, event.prompt, now);
		case "modelResponse": return modelResponse(state, event, now);
		case "runEnd": {
			const next = {
				...state,
				running: false
			};
			if (state.wrapUp) return endWrapUp(next, state.wrapUp, now, null);
			return {
				state: next,
				effects: [status(next, now)]
			};
		}
		case "timeCheck":
			if (state.wrapUp) return wrapUpTimeCheck(state, state.wrapUp, now);
			return checkTime(state, now, "timer");
		case "onStopReport": {
			const outcome = event.outcome.kind === "started" && state.onStopOutcome !== "failed" ? "ran" : "failed";
			const next = state.spent ? {
				...state,
				onStopOutcome: outcome
			} : state;
			return {
				state: next,
				effects: [...onStopReport(event.command, event.outcome), status(next, now)]
			};
		}
	}
}
/**
* Counts a model call against its prompt's step cap, once the call is let through. Calls up to the cap run as usual;
* the next one is the prompt's wrap-up call (the model is told, the user too), or, when the user asked to be asked at
* the limit, a question: stop the run, or continue with as many steps again. A call past the wrap-up ends the run.
*/
function countStep(before, result, event, now) {
	const { state, effects } = result;
	const budget = state.budget;
	const limit = budget?.stepLimit;
	if (limit === void 0 || state.spent || budget?.pausedAt !== void 0) return result;
	const newPrompt = state.lastPrompt !== before.lastPrompt;
	const previous = newPrompt ? 0 : before.steps ?? 0;
	const step = event.step ?? previous + 1;
	const used = step < previous ? previous + 1 : Math.max(previous, step);
	const allowance = newPrompt ? 0 : before.stepAllowance ?? 0;
	const allowed = limit + allowance;
	const counted = {
		...state,
		steps: used,
		stepAllowance: allowance
	};
	const withStatus = [...effects.filter((effect) => effect.kind !== "status"), status(counted, now)];
	if (used <= allowed || used === previous) return {
		state: counted,
		effects: withStatus
	};
	if (used > allowed + 1) return {
		state: counted,
		effects: [
			...withStatus,
			{ kind: "abort" },
			{
				kind: "refuse",
				reason: stepsRefusal(limit)
			}
		]
	};
	if (state.askAtLimit) return {
		state: {
			...state,
			asking: true
		},
		effects: [askAboutSteps(limit, allowance, event)]
	};
	return {
		state: counted,
		effects: [...withStatus, {
			kind: "notify",
			message: stepsUsedMessage(limit),
			level: "warning"
		}]
	};
}
/** The question at a prompt's step cap: stop the run now, or continue with as many steps again. */
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
		choices: [{
			label: STOP_CHOICE,
			answer: answer("stop")
		}, {
			label: moreStepsChoice(limit),
			answer: answer("more")
		}],
		timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
		onTimeout: answer("stop")
	};
}
/** The user answered the question at a prompt's step cap: the run ends, or goes on with as many steps again. */
function stepsAnswer(state, event, now) {
	const { limit } = event;
	if (event.answer === "stop") return {
		state,
		effects: [
			{
				kind: "notify",
				message: stepsStoppedMessage(limit),
				level: "warning"
			},
			{ kind: "abort" },
			{
				kind: "refuse",
				reason: stepsRefusal(limit)
			}
		]
	};
	return applyEvent({
		...state,
		stepAllowance: event.allowance + limit
	}, event.reached, now);
}
/** The prompt a model call belongs to: the one named, else the latest, else the one run without a prompt. */
function promptKeyOf(state, prompt) {
	return prompt ?? state.lastPrompt ?? "\0run-without-a-prompt";
}
/** Prompts used as the user reads them: the prompt being answered does not count against itself. */
function shownTurns(state) {
	return state.usedTurns - (state.running && state.runningCounted ? 1 : 0);
}
/** The status text: the budget left, the spent marker, or nothing without a budget. */
function statusText(state, now) {
	if (!state.budget) return void 0;
	if (state.wrapUp) return WRAPPING_UP_STATUS;
	if (state.spent) return state.onStopOutcome ? `${SPENT_STATUS} | on-stop command ${state.onStopOutcome}` : SPENT_STATUS;
	return formatStatus(state.budget, now, shownTurns(state), spendOf(state), stepsOf(state));
}
/** Where the running prompt stands under the step cap, or null when there is no cap or no run. */
function stepsOf(state) {
	const limit = state.budget?.stepLimit;
	if (limit === void 0 || !state.running || state.steps === void 0) return null;
	return {
		used: state.steps,
		allowed: limit + (state.stepAllowance ?? 0)
	};
}
function status(state, now) {
	return {
		kind: "status",
		text: statusText(state, now)
	};
}
function load(event, now) {
	const { history, ledger, mode, announce } = event;
	const effects = [];
	if (announce && history.newestUnusable) effects.push({
		kind: "notify",
		message: UNUSABLE_RECORD,
		level: "warning"
	});
	const runningKey = event.runningPrompt === void 0 ? null : event.runningPrompt ?? history.lastPrompt;
	const running = runningKey !== null && runningKey === history.lastPrompt;
	const onLimit = event.onLimit;
	if (onLimit && !ON_LIMIT_CHOICES.includes(String(onLimit.value))) effects.push({
		kind: "notify",
		message: badOnLimitMessage(onLimit.source, onLimit.value),
		level: "warning"
	});
	const settings = readSettings(event, effects);
	const base = {
		...EMPTY_SESSION,
		lastPrompt: history.lastPrompt,
		running,
		...onLimit?.value === "ask" && event.canAsk ? { askAtLimit: true } : {},
		...Object.keys(settings).length > 0 ? { settings } : {}
	};
	const budget = history.budget;
	if (!history.hasRecords && event.defaultBudget) {
		const given = withDefault(base, event.defaultBudget, now);
		return {
			state: given.state,
			effects: [...effects, ...given.effects]
		};
	}
	if (!budget || ledger.off) return {
		state: base,
		effects: [...effects, status(base, now)]
	};
	const loaded = {
		...base,
		budget,
		usedTurns: history.usedTurns,
		...history.spend.tokens > 0 || history.spend.cost > 0 ? { spend: history.spend } : {},
		...running && event.runningSteps !== void 0 && budget.stepLimit !== void 0 ? { steps: event.runningSteps } : {},
		runningCounted: running && history.lastPromptCounted,
		nudged: ledger.nudged,
		spent: ledger.spent,
		stoppedPrompt: ledger.spent?.prompt ?? null
	};
	if (mode === "continue") {
		const wrapUntil = ledger.spent?.wrapUpUntil;
		const wrapping = wrapUntil !== void 0 && running && ledger.spent?.prompt === runningKey ? {
			...loaded,
			wrapUp: {
				prompt: runningKey,
				until: wrapUntil,
				refused: false,
				callsSinceRefusal: 0,
				outcomeId: outcomeId(budget),
				onStopCommand: budget.onStopCommand
			}
		} : loaded;
		effects.push(status(wrapping, now));
		if (announce && !ledger.spent) effects.push(restored(budget, now, history.usedTurns, history.spend));
		return {
			state: wrapping,
			effects
		};
	}
	const decision = ledger.spent ? null : decide(budget, now, history.usedTurns, true, history.spend);
	const summary = ledger.spent ?? (decision?.kind === "stop" ? decision.summary : null);
	if (summary) {
		if (announce) effects.push({
			kind: "notify",
			message: expiredMessage(budget, summary),
			level: "warning"
		});
		if (!ledger.spent) effects.push(once({
			kind: "spent",
			budgetId: outcomeId(budget),
			summary,
			prompt: null
		}, []));
		return {
			state: base,
			effects: [...effects, status(base, now)]
		};
	}
	const next = {
		...loaded,
		nudged: ledger.nudged || worstRatio(budget, now, history.usedTurns, history.spend) >= .8
	};
	effects.push(status(next, now));
	if (announce) effects.push(restored(budget, now, history.usedTurns, history.spend));
	return {
		state: next,
		effects
	};
}
/** A session new to Timebox gets the default budget, or a warning naming where a bad default came from. */
function withDefault(state, { text, source, newBudgetId }, now) {
	const command = parseCommand(text);
	if (command.kind !== "set") {
		const reason = command.kind === "invalid" ? command.reason : `${quoteInput(text)} is not a budget.`;
		return {
			state,
			effects: [status(state, now), {
				kind: "notify",
				message: badDefaultMessage(source, reason),
				level: "warning"
			}]
		};
	}
	const budget = {
		id: newBudgetId,
		timeLimitMs: command.timeLimitMs,
		turnLimit: command.turnLimit,
		startTime: now,
		onStopCommand: command.onStopCommand,
		...spendLimits(command),
		...treatment(command)
	};
	const next = withNewBudget(state, budget);
	return {
		state: next,
		effects: [
			{
				kind: "append",
				record: {
					kind: "active",
					budget: budgetRecord(budget)
				}
			},
			status(next, now),
			{
				kind: "notify",
				message: defaultSetMessage(source, command),
				level: "info"
			}
		]
	};
}
function restored(budget, now, usedTurns, spend) {
	return {
		kind: "notify",
		message: restoredMessage(formatStatus(budget, now, usedTurns, spend), budget.onStopCommand),
		level: "info"
	};
}
function command(state, event, now) {
	const plan = planCommand(parseCommand(event.args), {
		budget: state.budget,
		spent: state.spent,
		usedTurns: shownTurns(state),
		now,
		newBudgetId: event.newBudgetId,
		spend: spendOf(state),
		...event.cost === void 0 ? {} : { cost: event.cost },
		...event.tokensSeen === void 0 ? {} : { tokensSeen: event.tokensSeen },
		...event.report === void 0 ? {} : { report: event.report }
	});
	const reply = {
		kind: "notify",
		message: plan.reply.message,
		level: plan.reply.level
	};
	switch (plan.change) {
		case "none": return {
			state,
			effects: [status(state, now), reply]
		};
		case "set": {
			if (state.budget && !state.spent && event.canAsk && !event.confirmed) return askToReplace(state, state.budget, event, now);
			const next = withNewBudget(state, plan.budget);
			return {
				state: next,
				effects: [
					{
						kind: "append",
						record: {
							kind: "active",
							budget: budgetRecord(plan.budget)
						}
					},
					status(next, now),
					reply
				]
			};
		}
		case "update": {
			const { wrapUp: _wrapUpEndsWithTheExtension, ...unwrapped } = state;
			const next = plan.reactivate ? {
				...unwrapped,
				budget: plan.budget,
				nudged: false,
				spent: null,
				stoppedPrompt: null
			} : {
				...state,
				budget: plan.budget,
				nudged: plan.budget.extensions === state.budget?.extensions && state.nudged
			};
			return {
				state: next,
				effects: [
					{
						kind: "append",
						record: {
							kind: "active",
							budget: budgetRecord(plan.budget, next.usedTurns, spendOf(next))
						}
					},
					status(next, now),
					reply
				]
			};
		}
		case "off": {
			const next = withNewBudget(state, null);
			return {
				state: next,
				effects: [
					{
						kind: "append",
						record: offRecord(plan.budgetId, plan.disabledAt)
					},
					once({
						kind: "off",
						budgetId: plan.budgetId
					}, []),
					status(next, now),
					reply
				]
			};
		}
	}
}
/** Asks before a new budget replaces the active one; "no" changes nothing. */
function askToReplace(state, budget, event, now) {
	const keep = {
		type: "declined",
		message: KEPT_MESSAGE
	};
	return {
		state,
		effects: [{
			kind: "ask",
			question: replaceQuestion(formatLeft(budget, now, shownTurns(state), spendOf(state))),
			choices: [{
				label: REPLACE_CHOICE,
				answer: {
					...event,
					confirmed: true
				}
			}, {
				label: KEEP_CHOICE,
				answer: keep
			}],
			timeoutMs: null,
			onTimeout: keep
		}]
	};
}
/**
* The budget is spent and the user asked to be asked: nothing stops yet; the question offers to stop now, or more time
* or prompts, and stops if nobody answers in time.
*/
function askAtTheLimit(state, reached, summary) {
	const answer = (choice) => ({
		type: "limitAnswer",
		answer: choice,
		reached
	});
	return {
		state: {
			...state,
			asking: true
		},
		effects: [{
			kind: "ask",
			question: limitQuestion(summary.usedTurns, summary.elapsedMs),
			choices: [
				{
					label: STOP_CHOICE,
					answer: answer("stop")
				},
				{
					label: MORE_TIME_CHOICE,
					answer: answer("time")
				},
				{
					label: MORE_TURNS_CHOICE,
					answer: answer("turns")
				}
			],
			timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
			onTimeout: answer("stop")
		}]
	};
}
/** The user answered the limit question: stop as usual, or extend and go on with what reached the limit. */
function limitAnswer(state, event, now) {
	if (event.answer === "stop") return applyEvent(state, event.reached, now);
	const extended = command(state, {
		type: "command",
		args: event.answer === "time" ? `+5m` : `+turns:1`,
		newBudgetId: ""
	}, now);
	const goOn = step(extended.state, event.reached, now);
	return {
		state: goOn.state,
		effects: [...extended.effects, ...goOn.effects]
	};
}
/** The session under a new budget (or none): nothing used, warned or stopped; a prompt running now does not count. */
function withNewBudget(state, budget) {
	const { onStopOutcome: _spentBudgetsCommand, wrapUp: _spentBudgetsRun, ...rest } = state;
	const { spend: _spentUnderTheOldBudget, steps: _stepsUnderIt, stepAllowance: _allowance, ...fresh } = rest;
	return {
		...fresh,
		budget,
		usedTurns: 0,
		runningCounted: false,
		nudged: false,
		spent: null,
		stoppedPrompt: null
	};
}
/**
* A model call is about to start. For a new prompt: count it, or stop the budget when the prompts are used up (this is
* prompt N+1 of turns:N). For the latest prompt (a tool loop, a steer, a re-run after a provider error or compaction):
* it never counts again; its run goes on unless the budget stopped it.
*/
function modelCall(state, prompt, now) {
	const key = promptKeyOf(state, prompt);
	if (key === state.lastPrompt) {
		const next = {
			...state,
			running: true
		};
		if (state.wrapUp && key === state.wrapUp.prompt) return wrapUpModelCall(next, state.wrapUp, now);
		if (key === state.stoppedPrompt && state.spent) return {
			state: next,
			effects: refuseStopped(state.spent)
		};
		return checkTime(next, now, "modelCall");
	}
	if (state.wrapUp) {
		const ended = endWrapUp(state, state.wrapUp, now, null);
		const goOn = modelCall(ended.state, key, now);
		return {
			state: goOn.state,
			effects: [...ended.effects, ...goOn.effects]
		};
	}
	const budget = state.budget;
	const fresh = {
		...state,
		lastPrompt: key,
		running: true,
		runningCounted: false
	};
	if (!budget || state.spent || budget.pausedAt !== void 0) return {
		state: fresh,
		effects: [status(fresh, now)]
	};
	const decision = decide(budget, now, state.usedTurns, state.nudged, spendOf(state));
	if (decision.kind === "stop") return hardStop(fresh, budget, decision.summary, key, now, true);
	const counted = {
		...fresh,
		usedTurns: state.usedTurns + 1,
		runningCounted: true
	};
	if (decision.kind === "nudge") {
		const nudged = {
			...counted,
			nudged: true
		};
		return {
			state: nudged,
			effects: [nudge(budget, decision.urgency, decision.detail), status(nudged, now)]
		};
	}
	return {
		state: counted,
		effects: [status(counted, now)]
	};
}
/**
* A model call was answered: what it used counts against the budget (not while paused, nor once spent), and the budget
* is checked at once, so a run that used up its tokens or cost stops before its next step.
*/
function modelResponse(state, used, now) {
	const budget = state.budget;
	if (!budget || state.spent || budget.pausedAt !== void 0) return {
		state,
		effects: []
	};
	const before = spendOf(state);
	const spend = {
		tokens: before.tokens + safeAmount(used.tokens),
		cost: before.cost + safeAmount(used.cost)
	};
	return checkTime({
		...state,
		spend
	}, now, "modelResponse");
}
/** What the model used under the budget so far. */
function spendOf(state) {
	return state.spend ?? NO_SPEND;
}
/** A tool is about to run: refused once its prompt was stopped; the time limit is checked. */
function toolCall(state, prompt, now) {
	const key = prompt ?? state.lastPrompt;
	const steps = stepsOf(state);
	const limit = state.budget?.stepLimit;
	if (steps && limit !== void 0 && key === state.lastPrompt && steps.used > steps.allowed && !state.spent) return {
		state,
		effects: [{ kind: "abort" }, {
			kind: "refuse",
			reason: stepsRefusal(limit)
		}]
	};
	if (state.wrapUp && key === state.wrapUp.prompt) return wrapUpToolCall(state, state.wrapUp, now);
	if (key !== null && key === state.stoppedPrompt && state.spent) return {
		state,
		effects: refuseStopped(state.spent)
	};
	return checkTime(state, now, "toolCall", key);
}
/**
* Checks the time limit alone: stop when it ran out (the prompt of the event, by default the latest, is the one
* stopped; the model or tool call that `reached` the limit is refused), or let a run with a grace period wrap up; warn
* at 80%, else refresh the status.
*/
function checkTime(state, now, reached, prompt = state.lastPrompt) {
	const budget = state.budget;
	if (!budget || state.spent || budget.pausedAt !== void 0) return {
		state,
		effects: [status(state, now)]
	};
	const decision = decideMidRun(budget, now, shownTurns(state), state.nudged, spendOf(state));
	switch (decision.kind) {
		case "stop":
			if (state.running && graceOf(state, budget) > 0) return startWrapUp(state, budget, decision.summary, prompt, now, reached === "toolCall");
			return hardStop(state, budget, decision.summary, prompt, now, reached === "toolCall" || reached === "modelCall");
		case "nudge": {
			const next = {
				...state,
				nudged: true
			};
			return {
				state: next,
				effects: [nudge(budget, decision.urgency, decision.detail), status(next, now)]
			};
		}
		case "ok": return {
			state,
			effects: [status(state, now)]
		};
	}
}
/**
* The hard stop, once per budget anywhere: tell the user, run the on-stop command, show the spent status, and end the
* run (also a run waiting to be re-run). The prompt that was running or waiting is refused from now on.
*/
function hardStop(state, budget, summary, prompt, now, refuse) {
	const next = {
		...state,
		spent: summary,
		stoppedPrompt: prompt
	};
	const usage = spentUsage(summary, budget);
	const message = spentMessage(summary.usedTurns, summary.elapsedMs, usage);
	const announce = [{
		kind: "notify",
		message: state.running ? message : idleSpentMessage(summary.usedTurns, summary.elapsedMs, usage),
		level: "error"
	}];
	if (budget.onStopCommand !== null) announce.push({
		kind: "runOnStop",
		command: budget.onStopCommand
	});
	const effects = [
		status(next, now),
		once({
			kind: "spent",
			budgetId: outcomeId(budget),
			summary,
			prompt
		}, announce),
		{ kind: "abort" }
	];
	if (refuse) effects.push({
		kind: "refuse",
		reason: message
	});
	return {
		state: next,
		effects
	};
}
/**
* The budget ran out during a run that may wrap up: nothing is aborted yet. The user is told, the budget is spent
* everywhere, and from now on tools are refused while the model writes its final answer; the on-stop command runs when
* the run ends. A tool call that met the limit is the first one refused.
*/
function startWrapUp(state, budget, summary, prompt, now, refuseTool) {
	const graceMs = graceOf(state, budget);
	const until = now + graceMs;
	const wrapUp = {
		prompt,
		until,
		refused: refuseTool,
		callsSinceRefusal: 0,
		outcomeId: outcomeId(budget),
		onStopCommand: budget.onStopCommand
	};
	const next = {
		...state,
		spent: summary,
		stoppedPrompt: prompt,
		wrapUp
	};
	const message = wrapUpMessage(summary.usedTurns, summary.elapsedMs, graceMs, spentUsage(summary, budget));
	const effects = [status(next, now), once({
		kind: "spent",
		budgetId: outcomeId(budget),
		summary: {
			...summary,
			wrapUpUntil: until
		},
		prompt
	}, [{
		kind: "notify",
		message,
		level: "error"
	}])];
	if (refuseTool) effects.push({
		kind: "refuse",
		reason: WRAP_UP_REFUSAL
	});
	return {
		state: next,
		effects
	};
}
/** A model call of the run wrapping up: the one that writes the final answer, unless the wrap-up time is over. */
function wrapUpModelCall(state, wrapUp, now) {
	if (now >= wrapUp.until) return endWrapUp(state, wrapUp, now, "time");
	const calls = wrapUp.refused ? wrapUp.callsSinceRefusal + 1 : 0;
	const next = {
		...state,
		wrapUp: {
			...wrapUp,
			callsSinceRefusal: calls
		}
	};
	return {
		state: next,
		effects: [status(next, now)]
	};
}
/**
* A tool call of the run wrapping up is refused, with a reason the model reads. One that comes after the model was
* refused and called again (it asks for tools again), or after the wrap-up time, ends the run.
*/
function wrapUpToolCall(state, wrapUp, now) {
	if (now >= wrapUp.until) return endWrapUp(state, wrapUp, now, "time");
	if (wrapUp.refused && wrapUp.callsSinceRefusal > 0) return endWrapUp(state, wrapUp, now, "tools");
	const next = {
		...state,
		wrapUp: {
			...wrapUp,
			refused: true
		}
	};
	return {
		state: next,
		effects: [status(next, now), {
			kind: "refuse",
			reason: WRAP_UP_REFUSAL
		}]
	};
}
/** The time check while a run wraps up: the run is stopped once the wrap-up time is over. */
function wrapUpTimeCheck(state, wrapUp, now) {
	if (now >= wrapUp.until) return endWrapUp(state, wrapUp, now, "time");
	return {
		state,
		effects: [status(state, now)]
	};
}
/**
* The run that wrapped up is over: it ended by itself (`cut` null), or it is stopped because the wrap-up time ran out
* or the model asked for tools again. The on-stop command runs now, once anywhere.
*/
function endWrapUp(state, wrapUp, now, cut) {
	const { wrapUp: _ended, ...next } = state;
	const announce = [];
	if (cut !== null) announce.push({
		kind: "notify",
		message: wrapUpCutMessage(cut),
		level: "warning"
	});
	if (wrapUp.onStopCommand !== null) announce.push({
		kind: "runOnStop",
		command: wrapUp.onStopCommand
	});
	const effects = [status(next, now), once({
		kind: "ended",
		budgetId: wrapUp.outcomeId
	}, announce)];
	if (cut !== null) effects.push({ kind: "abort" }, {
		kind: "refuse",
		reason: WRAP_UP_REFUSAL
	});
	return {
		state: next,
		effects
	};
}
/**
* What the model reads in the model call about to start: the wrap-up notice while a spent budget's run wraps up; the
* warning block from 80% of the budget (critical from 95%), as it stands at this call; or, when the user asked that
* the model always know, a line with what is left. Nothing for a call that is refused, or without an active budget.
*/
function withCallContext(result, now) {
	const { state, effects } = result;
	if (effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort" || effect.kind === "ask")) return result;
	const text = callContext(state, now);
	return text === null ? result : {
		state,
		effects: [...effects, {
			kind: "context",
			text
		}]
	};
}
function callContext(state, now) {
	if (state.wrapUp) return WRAP_UP_PROMPT;
	const budget = state.budget;
	if (!budget || state.spent || budget.pausedAt !== void 0) return null;
	const steps = stepsOf(state);
	if (steps && budget.stepLimit !== void 0 && steps.used > steps.allowed) return formatStepsWrapUp(budget.stepLimit);
	const used = shownTurns(state);
	const spend = spendOf(state);
	const ratio = Math.max(worstRatio(budget, now, used, spend), steps ? steps.used / steps.allowed : 0);
	if (ratio >= .8) return formatNudgePrompt(budget, now, used, urgencyFor(ratio), graceOf(state, budget), spend, steps);
	return awarenessOf(state, budget) === "always" ? formatAwareLine(budget, now, used, spend) : null;
}
/** Whether the model is told what is left at every call: the budget's own word, else the session's setting. */
function awarenessOf(state, budget) {
	return budget.awareness ?? state.settings?.awareness ?? "nudge";
}
/** The time a run gets to wrap up at the limit: the budget's own word, else the session's setting, else none. */
function graceOf(state, budget) {
	return budget.graceMs ?? state.settings?.graceMs ?? 0;
}
/** The `awareness` and `grace` settings; one that cannot be read is named in a warning and left out. */
function readSettings(event, effects) {
	const settings = {};
	const { awareness, grace } = event;
	if (awareness) {
		if (AWARENESS_CHOICES.includes(String(awareness.value))) settings.awareness = awareness.value;
		else effects.push(badSetting(awareness.source, awareness.value, "is neither \"nudge\" nor \"always\""));
	}
	if (grace) {
		const ms = typeof grace.value === "string" ? parseTimeToMs(grace.value) : null;
		if (ms !== null && ms >= 1e3 && ms <= 6e5) settings.graceMs = Math.round(ms / 1e3) * 1e3;
		else effects.push(badSetting(grace.source, grace.value, "is not a grace period from 1s to 10m (such as \"30s\")"));
	}
	return settings;
}
function badSetting(source, value, why) {
	return {
		kind: "notify",
		message: badSettingMessage(source, value, why),
		level: "warning"
	};
}
/** Ends and refuses what the stopped prompt asks for, with the stop message. */
function refuseStopped(summary) {
	return [{ kind: "abort" }, {
		kind: "refuse",
		reason: spentMessage(summary.usedTurns, summary.elapsedMs)
	}];
}
function nudge(budget, urgency, detail) {
	return once({
		kind: "nudged",
		budgetId: outcomeId(budget)
	}, [{
		kind: "notify",
		message: nudgeMessage(urgency, detail),
		level: "warning"
	}]);
}
/**
* The ledger name of a budget's stop and warning: its id, then one name per extension, so an extended budget can stop
* and warn again, once each time. Turning a budget off is recorded under its id, for every extension.
*/
function outcomeId(budget) {
	return budget.extensions ? `${budget.id}.e${budget.extensions}` : budget.id;
}
/** What the ledger holds for a budget as it stands now (its current extension). */
function readLedger(ledger, budget) {
	const outcomes = ledger.read(outcomeId(budget));
	return budget.extensions ? {
		...outcomes,
		off: ledger.read(budget.id).off
	} : outcomes;
}
function once(claim, then) {
	return {
		kind: "once",
		claim,
		then
	};
}
function onStopReport(command, outcome) {
	switch (outcome.kind) {
		case "started": return [{
			kind: "notify",
			message: onStopStartedMessage(command),
			level: "info"
		}];
		case "failed":
		case "exited": return [{
			kind: "notify",
			message: onStopProblemMessage(outcome.problem),
			level: "warning"
		}];
	}
}
// src/adapters/node/on-stop-runner.ts
const SHELL = "/bin/sh";
/**
* The arguments before the user's command. `--` ends the shell's options, so a command that begins with `-` or `+`
* (`-x; echo hi`, `--version`) is the command string, run exactly as typed, instead of an option. Checked with dash
* (/bin/sh on Debian) and bash: `sh -c -- '-foo'` runs `-foo` (not found, exit 127) and
* `sh -c -- '-x 2>/dev/null; echo ran'` prints `ran`, while `sh -c '-foo'` reads `-foo` as options (exit 2) and
* `sh -- -c '-foo'` tries to run a script file named `-c` (exit 2 in dash). POSIX sh ends its options at `--` too.
*/
const SHELL_ARGS = ["-c", "--"];
/** Why a start failed: Node's message (`spawn E2BIG`), or whatever was thrown. */
function describeError(error) {
	return error instanceof Error ? error.message : String(error);
}
/**
* Runs the user's command as the single argument after `/bin/sh -c --`, so nothing Timebox builds is interpolated into
* a shell line. The process is detached and unref'd: pi never waits for it, and it survives pi's exit.
*
* Reports exactly one of `started` (at once when Node gave the child a pid, which it does only for a process it
* created; else on the 'spawn' event) or `failed` (spawn threw, as it does synchronously for E2BIG, or an 'error'
* event came before 'spawn', as for ENOENT or EACCES); after `started`, at most one `exited` for a
* non-zero exit or a signal. An 'error' after 'spawn' (Node emits one only for a failed kill, which Timebox never
* sends) is still listened for, so it cannot crash the host, and is not reported.
*/
function createShellRunner(spawnProcess = spawn) {
	return { run(command, report) {
		const shown = quoteInput(command);
		const couldNotStart = (error) => ({
			kind: "failed",
			problem: `could not start ${shown}: ${describeError(error)}`
		});
		let child;
		try {
			child = spawnProcess(SHELL, [...SHELL_ARGS, command], {
				detached: true,
				stdio: "ignore"
			});
		} catch (error) {
			report(couldNotStart(error));
			return;
		}
		let state = "starting";
		const started = () => {
			if (state !== "starting") return;
			state = "started";
			report({ kind: "started" });
		};
		child.once("spawn", started);
		child.on("error", (error) => {
			if (state !== "starting") return;
			state = "settled";
			report(couldNotStart(error));
		});
		child.once("exit", (code, signal) => {
			if (state !== "started") return;
			state = "settled";
			if (code !== null && code !== 0) report({
				kind: "exited",
				problem: `${shown} exited with code ${code}`
			});
			else if (signal !== null) report({
				kind: "exited",
				problem: `${shown} was ended by ${signal}`
			});
		});
		child.unref();
		if (child.pid !== void 0) started();
	} };
}
// src/adapters/claude/transcript-usage.ts
/** The most of the transcript one hook reads: a hook never stalls on a huge file, and the next one goes on from there. */
const MAX_READ_BYTES = 8388608;
const USAGE_FIELDS = [
	"input_tokens",
	"output_tokens",
	"cache_read_input_tokens",
	"cache_creation_input_tokens"
];
function fieldsOf$1(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}
/** The usage of one transcript line: a response's, null for a line that is not an answer, or "unreadable". */
function usageOfLine(raw) {
	let line;
	try {
		line = fieldsOf$1(JSON.parse(raw));
	} catch {
		return null;
	}
	if (line?.type !== "assistant") return null;
	const message = fieldsOf$1(line.message);
	const usage = fieldsOf$1(message?.usage);
	if (typeof message?.id !== "string" || !usage || typeof usage.input_tokens !== "number") return "unreadable";
	const tokens = USAGE_FIELDS.reduce((sum, key) => {
		const value = usage[key];
		return sum + (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);
	}, 0);
	return {
		id: message.id,
		tokens
	};
}
/**
* Reads the transcript at `path` from byte `offset` up to its last whole line, and returns each response whose id is not
* in `seen`, once. A missing or unreadable file reads as nothing new.
*/
function readTranscriptUsage(path, offset, seen) {
	const nothing = {
		responses: [],
		offset,
		unreadable: false
	};
	let fd;
	try {
		fd = openSync(path, "r");
	} catch {
		return nothing;
	}
	try {
		const size = statSync(path).size;
		if (size <= offset) return {
			...nothing,
			offset: Math.min(offset, size)
		};
		const buffer = Buffer.alloc(Math.min(size - offset, MAX_READ_BYTES));
		const read = readSync(fd, buffer, 0, buffer.length, offset);
		const text = buffer.subarray(0, read).toString("utf8");
		const end = text.lastIndexOf("\n");
		if (end < 0) return read === MAX_READ_BYTES ? {
			...nothing,
			offset: offset + read
		} : nothing;
		const found = new Set(seen);
		const responses = [];
		let unreadable = false;
		for (const raw of text.slice(0, end).split("\n")) {
			const usage = usageOfLine(raw);
			if (usage === "unreadable") unreadable = true;
			else if (usage && !found.has(usage.id)) {
				found.add(usage.id);
				responses.push(usage);
			}
		}
		return {
			responses,
			offset: offset + Buffer.byteLength(text.slice(0, end + 1), "utf8"),
			unreadable
		};
	} catch {
		return nothing;
	} finally {
		closeSync(fd);
	}
}
// src/adapters/claude/hooks.ts
/** The environment variable of a default budget for new Claude Code sessions (settable in Claude Code's `env`). */
const DEFAULT_ENV = "TIMEBOX_DEFAULT";
/**
* An answer taken apart for another host's fields: the host-specific part (`hookSpecificOutput`) on its own, and the
* rest with any context kept under the host's own event name. Each host's mapping then renders the refusal its way.
*/
function forHostEvent(output, event) {
	const { hookSpecificOutput, ...rest } = output;
	const specific = hookSpecificOutput ?? {};
	const answer = { ...rest };
	if (typeof specific.additionalContext === "string") answer.hookSpecificOutput = {
		hookEventName: event,
		additionalContext: specific.additionalContext
	};
	return {
		specific,
		answer
	};
}
/**
* `/timebox …` and the namespaced `/timebox:timebox …`, as typed; and `TIMEBOX-CMD …`, what Gemini CLI's `/timebox`
* command expands to before its hooks see it.
*/
const COMMAND_LINE = /^(?:\/timebox(?::timebox)?|TIMEBOX-CMD)(?:\s+([\s\S]*))?$/;
/** How long a hook waits to learn whether the on-stop command started (Node says so within a tick or two). */
const ON_STOP_START_WAIT_MS = 1e3;
/** The arguments of a `/timebox` line, or null when the prompt is not one. */
function timeboxArguments(prompt) {
	const match = COMMAND_LINE.exec(prompt.trim());
	return match ? match[1] ?? "" : null;
}
/**
* The session's state from its log and the ledger. Logs from the first version marked a budget spent or warned with
* `spent` and `nudged` lines keyed by its start time; they still count.
*/
function loadSession(deps, now, options = {}) {
	const history = foldHistory(deps.store.history());
	const event = {
		type: "load",
		history,
		ledger: history.budget ? ledgerView(history.budget, deps) : NOTHING_RECORDED,
		mode: "continue",
		announce: options.announce === true
	};
	const running = options.running === null ? history.lastPrompt : options.running;
	if (typeof running === "string") event.runningSteps = deps.store.stepOf(running);
	if (options.defaultBudget) event.defaultBudget = options.defaultBudget;
	return step(EMPTY_SESSION, options.running === void 0 ? event : {
		...event,
		runningPrompt: options.running
	}, now);
}
function ledgerView(budget, deps) {
	const view = readLedger(deps.ledger, budget);
	if (!budget.id.startsWith("legacy-")) return view;
	const legacy = deps.store.lines().filter((line) => line.budgetStart === budget.startTime);
	const spent = legacy.find((line) => line.kind === "spent");
	return {
		off: view.off,
		nudged: view.nudged || legacy.some((line) => line.kind === "nudged"),
		spent: view.spent ?? (spent ? {
			usedTurns: typeof spent.usedTurns === "number" ? spent.usedTurns : 0,
			elapsedMs: typeof spent.elapsedMs === "number" ? spent.elapsedMs : 0,
			timeRanOut: false,
			prompt: typeof spent.promptId === "string" ? spent.promptId : null
		} : null)
	};
}
/** Answers one hook event. Events Timebox does not use get no answer. */
async function handleHook(hostInput, deps) {
	const now = deps.clock.now();
	const input = deps.unnamedPrompts && hostInput.promptId === null ? namePrompt(hostInput, deps) : hostInput;
	const note = countTranscriptUsage(input, deps, now);
	const daily = await dailyHook(input, deps, now);
	if (daily?.refusal != null) return dailyStop(input, daily, daily.refusal);
	const output = withDaily(await answerHook(input, deps, now), daily, input.event);
	if (note === null) return output;
	const shown = [typeof output?.systemMessage === "string" ? output.systemMessage : null, note];
	return {
		...output,
		systemMessage: shown.filter((text) => text !== null).join("\n")
	};
}
/** A host that names no prompt: a new prompt gets an id now; any other event belongs to the session's latest prompt. */
function namePrompt(input, deps) {
	const promptId = input.event === "UserPromptSubmit" ? `unnamed-${randomUUID()}` : foldHistory(deps.store.history()).lastPrompt;
	return {
		...input,
		promptId
	};
}
/** Said once per session when the transcript shows usage Timebox cannot read: the token limit is not enforced then. */
const TRANSCRIPT_UNREADABLE = "Timebox: Claude Code's transcript shows token usage in a form Timebox cannot read, so a token limit is not enforced until it can.";
/**
* Counts what the model calls used since the last hook, from the transcript, into the session's log. Returns the
* warning to show when the transcript could not be read (once per session), else null.
*/
function countTranscriptUsage(input, deps, now) {
	if (!input.transcriptPath || deps.tokensSeen === false) return null;
	const { store } = deps;
	const progress = store.transcriptProgress();
	const read = readTranscriptUsage(input.transcriptPath, progress.offset, progress.seen);
	for (const response of read.responses) store.appendUsage(response.id, { tokens: response.tokens }, now, read.offset);
	const tokens = read.responses.reduce((sum, response) => sum + response.tokens, 0);
	if (tokens > 0 && deps.daily) deps.daily.ledger.addUse(deps.daily.budgets, { tokens });
	if (read.responses.length === 0 && read.offset > progress.offset) store.appendTranscriptOffset(read.offset);
	if (!read.unreadable || store.lines().some((line) => line.kind === "transcript-unreadable")) return null;
	store.appendLine({
		kind: "transcript-unreadable",
		at: now
	});
	return TRANSCRIPT_UNREADABLE;
}
/**
* Reports the hook's event to the daily budgets: a new prompt (counted or refused), a model call or tool call of the
* running run (stopped once the day is spent), or the end of a run (its agent time). The session's part in the daily
* rules (when its run started, the warnings given, a stop) lives in the session's log between hooks.
*/
async function dailyHook(input, deps, now) {
	const port = deps.daily;
	if (!port || port.budgets.length === 0 || input.promptId === null) return null;
	const promptId = input.promptId;
	const lines = deps.store.lines();
	const history = foldHistory(deps.store.history());
	let event;
	switch (input.event) {
		case "UserPromptSubmit":
			if (input.prompt === null || timeboxArguments(input.prompt) !== null) return null;
			event = promptId === history.lastPrompt ? {
				type: "duringRun",
				modelCall: true
			} : { type: "newPrompt" };
			break;
		case "PreToolUse":
			event = {
				type: "duringRun",
				modelCall: false
			};
			break;
		case "PostToolBatch":
			event = {
				type: "duringRun",
				modelCall: true
			};
			break;
		case "Stop":
			event = { type: "runEnd" };
			break;
		default: return null;
	}
	const started = lines.find((line) => line.kind === "prompt" && line.promptId === promptId);
	const ended = lines.some((line) => line.kind === "daily-ended" && line.promptId === promptId);
	const session = {
		given: lines.flatMap((line) => line.kind === "daily-warned" && typeof line.level === "string" ? [line.level] : []),
		runStartedAt: !ended && typeof started?.at === "number" ? started.at : null,
		stopped: lines.some((line) => line.kind === "daily-stopped" && line.promptId === promptId)
	};
	const result = runDaily(port, session, event, now);
	for (const level of result.session.given) if (!session.given.includes(level)) deps.store.appendLine({
		kind: "daily-warned",
		level,
		at: now
	});
	if (result.session.stopped && !session.stopped) deps.store.appendLine({
		kind: "daily-stopped",
		promptId,
		at: now
	});
	if (event.type === "runEnd" && session.runStartedAt !== null) deps.store.appendLine({
		kind: "daily-ended",
		promptId,
		at: now
	});
	const outcome = await execute(result.effects, deps);
	outcome.context.push(...result.context);
	return outcome;
}
/** Ends what the daily budget refused: the prompt is blocked, the tool denied and the run ended. */
function dailyStop(input, outcome, refusal) {
	if (input.event === "UserPromptSubmit") return {
		decision: "block",
		reason: stopText(outcome, refusal)
	};
	return stopAtTool(input.event, {
		...outcome,
		aborted: true
	}, refusal);
}
/**
* The hook's answer with what the daily budgets said: their notices after the hook's own, and their lines for the model
* after its own (only hooks before a model call carry context). A blocked prompt's answer stays as it is.
*/
function withDaily(output, daily, event) {
	if (!daily || output?.decision === "block") return output;
	const answer = { ...output };
	const own = (key, from) => {
		const value = from?.[key];
		return typeof value === "string" ? [value] : [];
	};
	const notices = [...own("systemMessage", answer), ...daily.notices];
	if (notices.length > 0) answer.systemMessage = notices.join("\n");
	const specific = answer.hookSpecificOutput;
	const context = [...own("additionalContext", specific), ...daily.context];
	if (context.length > 0 && (event === "UserPromptSubmit" || event === "PostToolBatch")) answer.hookSpecificOutput = {
		...specific,
		hookEventName: event,
		additionalContext: context.join("\n\n")
	};
	return Object.keys(answer).length > 0 ? answer : null;
}
async function answerHook(input, deps, now) {
	switch (input.event) {
		case "SessionStart": {
			if (input.source === "compact") return null;
			const text = deps.defaultBudget?.trim();
			const defaultBudget = text ? {
				text,
				source: DEFAULT_ENV,
				newBudgetId: (deps.newBudgetId ?? randomUUID)()
			} : void 0;
			const outcome = await execute(loadSession(deps, now, {
				announce: input.source === "resume",
				...defaultBudget ? { defaultBudget } : {}
			}).effects, deps);
			if (deps.dailyWarning) outcome.notices.push(deps.dailyWarning);
			return outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : null;
		}
		case "UserPromptSubmit": return userPromptSubmit(input, deps, now);
		case "PreToolUse":
		case "PostToolBatch": {
			const { state } = loadSession(deps, now, { running: input.promptId });
			if (!state.budget) return null;
			const promptKey = input.promptId ?? state.lastPrompt;
			const nextCall = input.event === "PostToolBatch" && promptKey === state.lastPrompt;
			if (nextCall && promptKey !== null) deps.store.appendCall(promptKey, now);
			const outcome = await execute(step(state, nextCall ? {
				type: "modelCall",
				prompt: input.promptId,
				...stepOf(promptKey, deps)
			} : {
				type: "toolCall",
				prompt: input.promptId
			}, now).effects, deps);
			if (outcome.refusal !== null) return stopAtTool(input.event, outcome, outcome.refusal);
			return withContext(input.event, outcome);
		}
		case "Stop": {
			if (input.promptId !== null) deps.store.appendLine({
				kind: "ended",
				promptId: input.promptId,
				at: now
			});
			const { state } = loadSession(deps, now, { running: input.promptId });
			if (!state.wrapUp) return null;
			return noticeOnly(await execute(step(state, { type: "runEnd" }, now).effects, deps));
		}
		default: return null;
	}
}
async function userPromptSubmit(input, deps, now) {
	const untold = untoldNotices(deps.store, now);
	const output = await answerPrompt(input, deps, now);
	if (untold.length === 0) return output;
	if (output?.decision === "block") return {
		...output,
		reason: [...untold, output.reason].join("\n")
	};
	const own = typeof output?.systemMessage === "string" ? [output.systemMessage] : [];
	return {
		...output,
		systemMessage: [...untold, ...own].join("\n")
	};
}
async function answerPrompt(input, deps, now) {
	const promptId = input.promptId ?? `unnamed-${randomUUID()}`;
	const { state } = loadSession(deps, now, { running: promptId });
	const args = input.prompt === null ? null : timeboxArguments(input.prompt);
	if (args?.trim().toLowerCase() === "statusline") return {
		decision: "block",
		reason: deps.setupStatusLine ? deps.setupStatusLine() : "Timebox: run the plugin's script with setup-statusline to set up the status line."
	};
	const today = args === null ? null : /^today(?:\s+([\s\S]*))?$/i.exec(args.trim());
	if (today) return {
		decision: "block",
		reason: deps.daily ? todayCommand(deps.daily, today[1] ?? "").message : todayReport([])
	};
	if (args !== null) {
		const event = {
			type: "command",
			args,
			newBudgetId: (deps.newBudgetId ?? randomUUID)(),
			cost: "host cannot see",
			...deps.tokensSeen === false ? { tokensSeen: false } : {}
		};
		if (parseCommand(args).kind === "report") event.report = sessionReport(deps.store.history(), (budget) => ledgerView(budget, deps), now);
		return {
			decision: "block",
			reason: (await execute(step(state, event, now).effects, deps)).notices.join("\n")
		};
	}
	const record = () => {
		if (promptId !== state.lastPrompt) deps.store.appendPrompt(promptId, now);
	};
	if (!state.budget) {
		record();
		return null;
	}
	const outcome = await execute(step(state, {
		type: "modelCall",
		prompt: promptId,
		...stepOf(promptId, deps)
	}, now).effects, deps);
	if (outcome.refusal !== null) return {
		decision: "block",
		reason: stopText(outcome, outcome.refusal)
	};
	record();
	return withContext("UserPromptSubmit", outcome);
}
/** Which model call of its run a PostToolBatch comes before, from the calls the log holds for its prompt. */
function stepOf(promptId, deps) {
	return promptId === null ? {} : { step: deps.store.stepOf(promptId) };
}
/** The hook's answer: the notices for the user, and what the model is to read in its next request. */
function withContext(event, outcome) {
	const output = {};
	if (outcome.notices.length > 0) output.systemMessage = outcome.notices.join("\n");
	if (outcome.context.length > 0) output.hookSpecificOutput = {
		hookEventName: event,
		additionalContext: outcome.context.join("\n\n")
	};
	return Object.keys(output).length > 0 ? output : null;
}
/** How often a watcher looks at the session's log, to stop at the deadline or to leave once it has nothing to do. */
const WATCH_INTERVAL_MS = 1e3;
/**
* One look of the watcher at the session: `done` once there is nothing to watch (no active time budget: off, spent,
* paused, replaced by one without time); else it steps the time check, which stops a budget whose time ran out, once
* anywhere, and runs its on-stop command. What the user was told is kept for the next prompt, the first thing they see.
*/
async function watchOnce(deps, watched, now) {
	const { state } = loadSession(deps, now);
	const budget = state.budget;
	if (!budget || outcomeId(budget) !== watched || state.spent || budget.pausedAt !== void 0) return "done";
	const checked = step(state, { type: "timeCheck" }, now);
	if (!checked.state.spent) return "watching";
	const running = state.lastPrompt !== null && !deps.store.lines().some((line) => line.kind === "ended" && line.promptId === state.lastPrompt);
	const pastDeadline = checked.state.spent.elapsedMs - Number(budget.timeLimitMs);
	if (running && pastDeadline < 6e5) return "watching";
	const outcome = await execute(checked.effects, deps);
	deps.store.appendLine({
		kind: "untold",
		notices: outcome.notices,
		at: now
	});
	return "done";
}
/** What a watcher told nobody yet (the user was idle): shown with the next prompt, once. */
function untoldNotices(store, now) {
	const lines = store.lines();
	const told = lines.filter((line) => line.kind === "told").length;
	const untold = lines.filter((line) => line.kind === "untold").slice(told);
	if (untold.length === 0) return [];
	for (const _ of untold) store.appendLine({
		kind: "told",
		at: now
	});
	return untold.flatMap((line) => Array.isArray(line.notices) ? line.notices.map(String) : []);
}
/** The status line's text: the budget as the rules see it now, read only (nothing is claimed or run). */
function statusLineText(deps, now) {
	const { state } = loadSession(deps, now);
	const checked = step(state, { type: "timeCheck" }, now).state;
	return statusText(checked, now) ?? "";
}
function noticeOnly(outcome) {
	return outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : null;
}
/** What the user reads of a stop: the hard-stop message with the on-stop note from the hook that claimed it, else why. */
function stopText(outcome, refusal) {
	return outcome.notices.length > 0 ? outcome.notices.join("\n") : refusal;
}
/**
* Ends the run at a tool boundary; before a tool, the tool is denied too, with the reason the model reads. A run that is
* wrapping up is not ended: its tool is only denied, and the model goes on to write its final answer.
*/
function stopAtTool(event, outcome, refusal) {
	const stop = outcome.aborted ? {
		continue: false,
		stopReason: stopText(outcome, refusal)
	} : {};
	const notices = !outcome.aborted && outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : {};
	if (event !== "PreToolUse") return {
		...stop,
		...notices
	};
	return {
		...stop,
		...notices,
		hookSpecificOutput: {
			hookEventName: "PreToolUse",
			permissionDecision: "deny",
			permissionDecisionReason: refusal
		}
	};
}
/** Carries out the effects of one hook, in order, and gathers what its answer says. */
async function execute(effects, deps) {
	const outcome = {
		notices: [],
		context: [],
		refusal: null,
		aborted: false
	};
	const run = async (list) => {
		for (const effect of list) switch (effect.kind) {
			case "notify":
				outcome.notices.push(effect.message);
				break;
			case "status": break;
			case "abort":
				outcome.aborted = true;
				break;
			case "append":
				deps.store.append(effect.record);
				if (effect.record.kind === "active" && effect.record.budget.timeLimitMs !== null && effect.record.budget.pausedAt === void 0) deps.startWatcher?.(outcomeId(effect.record.budget));
				break;
			case "context":
				outcome.context.push(effect.text);
				break;
			case "refuse":
				outcome.refusal = effect.reason;
				break;
			case "once":
				if (deps.ledger.claim(effect.claim)) await run(effect.then);
				break;
			case "runOnStop": {
				const report = await startOnStop(effect.command, deps.onStop);
				await run(step(EMPTY_SESSION, {
					type: "onStopReport",
					command: effect.command,
					outcome: report
				}, 0).effects);
				break;
			}
		}
	};
	await run(effects);
	return outcome;
}
/**
* Starts the on-stop command and waits until it started or failed to; a failing exit comes after this hook is gone.
* A runner that throws could not start the command: this hook won the stop, so it is the one to say so.
*/
function startOnStop(command, runner) {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve({ kind: "started" }), ON_STOP_START_WAIT_MS);
		const settle = (outcome) => {
			clearTimeout(timer);
			resolve(outcome);
		};
		try {
			runner.run(command, (outcome) => {
				if (outcome.kind !== "exited") settle(outcome);
			});
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			settle({
				kind: "failed",
				problem: `could not start ${quoteInput(command)}: ${reason}`
			});
		}
	});
}
// src/adapters/codex/mapping.ts
/**
* Codex CLI's events, by the role they play. Codex has no hook before a later model call; the result of a tool call
* comes right before it, so PostToolUse plays that role (a response that asks for several tools counts once per tool).
*/
const ROLES$1 = { PostToolUse: "PostToolBatch" };
/** The budget line as Codex's TUI lets it through: it rejects unknown `/` commands, so `timebox 15m` is typed there. */
const TUI_COMMAND = /^timebox(?=\s|$)/;
/** A Codex CLI hook's input in the roles of the adapter; a `timebox …` line is read as `/timebox …`. */
function fromCodex(input) {
	const prompt = input.prompt !== null && TUI_COMMAND.test(input.prompt.trim()) ? `/${input.prompt.trim()}` : input.prompt;
	return {
		...input,
		event: ROLES$1[input.event] ?? input.event,
		prompt
	};
}
/**
* The adapter's answer as Codex CLI reads it. No Codex hook can end a running turn: before a tool, `continue: false`
* fails the hook and the tool runs, so a stop becomes a refusal of that tool, and so does every later tool of the turn,
* with the reason and what the model is to do now. Codex ends the reason with a full stop of its own. Context goes
* under the Codex event's own name.
*/
function toCodex(output, event) {
	if (output === null) return null;
	const { specific, answer } = forHostEvent(output, event);
	if (event === "PreToolUse" && (specific.permissionDecision === "deny" || answer.continue === false)) {
		const why = String(specific.permissionDecisionReason ?? answer.stopReason);
		const reason = (why.includes("Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.") ? why : `${why} ${WRAP_UP_REFUSAL}`).replace(/\.$/, "");
		if (typeof answer.stopReason === "string") answer.systemMessage = [answer.systemMessage, answer.stopReason].filter((text) => typeof text === "string").join("\n");
		delete answer.continue;
		delete answer.stopReason;
		answer.hookSpecificOutput = {
			hookEventName: event,
			permissionDecision: "deny",
			permissionDecisionReason: reason
		};
	}
	return answer;
}
// src/adapters/gemini/mapping.ts
/**
* Gemini CLI's events, by the role they play. A tool's result (AfterTool) comes right before the next model call, and
* it is where Gemini passes context on to the model (BeforeModel drops it), so it plays that call; a response that asks
* for several tools counts once per tool.
*/
const ROLES = {
	BeforeAgent: "UserPromptSubmit",
	AfterTool: "PostToolBatch",
	BeforeTool: "PreToolUse",
	AfterAgent: "Stop"
};
/** A Gemini CLI hook's input in the roles of the adapter. Gemini names no prompt: the adapter names each one. */
function fromGemini(input) {
	return {
		...input,
		event: ROLES[input.event] ?? input.event,
		promptId: null
	};
}
/**
* The adapter's answer as Gemini CLI reads it: context goes with the Gemini event's own name, and a tool is refused
* with `decision: "deny"` (Gemini CLI has no `permissionDecision`); a stop (`continue: false`) and a blocked prompt
* read the same.
*/
function toGemini(output, event) {
	if (output === null) return null;
	const { specific, answer } = forHostEvent(output, event);
	if (specific.permissionDecision === "deny" && answer.continue !== false) {
		answer.decision = "deny";
		answer.reason = specific.permissionDecisionReason;
	}
	return answer;
}
// src/adapters/node/daily-ledger.ts
/** The folder of the shared state: `$XDG_STATE_HOME/timebox`, else `~/.local/state/timebox`. */
function dailyStateDir(env) {
	const base = env.XDG_STATE_HOME?.trim() ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), ".local", "state");
	return join(base, "timebox");
}
/** The local day of an instant, `YYYY-MM-DD`: a day starts at local midnight. */
function localDay(ms) {
	const date = new Date(ms);
	const pad = (value) => String(value).padStart(2, "0");
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
/** When the local day of an instant began (local midnight), epoch ms. */
function dayStartOf(ms) {
	const date = new Date(ms);
	return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}
/** The folder name of a scope: `user`, or the project's path hashed into a plain name. */
function scopeFolder(scope) {
	return scope === "user" ? "user" : `project-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
}
function numberOr$1(value) {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
const NOTHING_NEW = [];
/** The whole lines appended to `file` since `offset`, and the offset after them: one stat when nothing was added. */
function readOn(file, offset) {
	const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
	if (size <= offset) return {
		lines: NOTHING_NEW,
		offset
	};
	const fd = openSync(file, "r");
	try {
		const buffer = Buffer.alloc(size - offset);
		const read = readSync(fd, buffer, 0, buffer.length, offset);
		const text = buffer.subarray(0, read).toString("utf8");
		const end = text.lastIndexOf("\n");
		if (end < 0) return {
			lines: [],
			offset
		};
		const lines = [];
		for (const raw of text.slice(0, end).split("\n")) try {
			lines.push(JSON.parse(raw));
		} catch {}
		return {
			lines,
			offset: offset + Buffer.byteLength(text.slice(0, end + 1), "utf8")
		};
	} finally {
		closeSync(fd);
	}
}
function fieldsOf(value) {
	return typeof value === "object" && value !== null ? value : {};
}
/** Adds one line of use to what this process knows of the day. */
function takeUse(cache, line) {
	const fields = fieldsOf(line);
	if (typeof fields.session === "string") cache.sessions.add(fields.session);
	cache.agentMs += numberOr$1(fields.agentMs);
	cache.tokens += numberOr$1(fields.tokens);
	cache.cost += numberOr$1(fields.cost);
}
/** The daily ledger in `dir`, for the session `sessionId`, on the host's clock. */
function createDailyLedger(dir, sessionId, clock) {
	const caches = /* @__PURE__ */ new Map();
	const pruned = /* @__PURE__ */ new Set();
	let trouble = null;
	let told = false;
	const guard = (fallback, action) => {
		try {
			return action();
		} catch (error) {
			trouble ??= `Timebox: the daily ledger in ${dir} cannot be used (${String(error)}), so today's budget is not enforced here.`;
			return fallback;
		}
	};
	const cacheOf = (scope) => {
		const day = localDay(clock.now());
		const scopeDir = join(dir, "daily", scopeFolder(scope));
		const key = `${scope}\u0000${day}`;
		let cache = caches.get(key);
		if (!cache) {
			const folder = join(scopeDir, day);
			cache = {
				folder,
				useFile: join(folder, "use.jsonl"),
				adjustFile: join(folder, "adjust.jsonl"),
				useOffset: 0,
				adjustOffset: 0,
				agentMs: 0,
				tokens: 0,
				cost: 0,
				sessions: /* @__PURE__ */ new Set(),
				adjustment: { ...NO_ADJUSTMENT },
				prompts: 0
			};
			mkdirSync(cache.folder, { recursive: true });
			caches.set(key, cache);
			if (!pruned.has(key)) {
				pruned.add(key);
				for (const name of readdirSync(scopeDir)) if (name < day) rmSync(join(scopeDir, name), {
					recursive: true,
					force: true
				});
			}
		}
		return cache;
	};
	const refresh = (cache) => {
		const use = readOn(cache.useFile, cache.useOffset);
		cache.useOffset = use.offset;
		for (const line of use.lines) takeUse(cache, line);
		const adjust = readOn(cache.adjustFile, cache.adjustOffset);
		cache.adjustOffset = adjust.offset;
		for (const line of adjust.lines) {
			const fields = fieldsOf(line);
			const now = cache.adjustment;
			cache.adjustment = {
				addTimeMs: now.addTimeMs + numberOr$1(fields.addTimeMs),
				addPrompts: now.addPrompts + numberOr$1(fields.addTurns),
				addTokens: now.addTokens + numberOr$1(fields.addTokens),
				addCost: now.addCost + numberOr$1(fields.addCost),
				off: now.off || fields.off === true
			};
		}
		while (existsSync(join(cache.folder, `prompt-${cache.prompts + 1}`))) cache.prompts++;
	};
	/**
	* Appends a line of use. When nothing was left unread before it and the file grew by this line alone (no other
	* session wrote beside it), the line counts as read here: the next standing does not read back what this session
	* wrote, and a model call after a prompt or an answer costs a stat of each file and no read.
	*/
	const appendUse = (cache, line) => {
		const text = `${JSON.stringify(line)}\n`;
		const fd = openSync(cache.useFile, "a");
		try {
			const before = fstatSync(fd).size;
			writeSync(fd, text);
			const after = fstatSync(fd).size;
			if (before === cache.useOffset && after === before + Buffer.byteLength(text)) {
				cache.useOffset = after;
				takeUse(cache, line);
			}
		} finally {
			closeSync(fd);
		}
	};
	return {
		standings(budgets) {
			return guard([], () => budgets.map((budget) => {
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
			}));
		},
		countPrompt(budgets, limits) {
			return guard(true, () => {
				for (const [index, budget] of budgets.entries()) {
					const cache = cacheOf(budget.scope);
					const limit = limits[index] ?? null;
					for (;;) {
						const next = cache.prompts + 1;
						if (limit !== null && next > limit) return false;
						const file = join(cache.folder, `prompt-${next}`);
						try {
							writeFileSync(file, `${JSON.stringify({
								session: sessionId,
								at: clock.now()
							})}\n`, { flag: "wx" });
							cache.prompts = next;
							appendUse(cache, { session: sessionId });
							break;
						} catch (error) {
							if (error.code !== "EEXIST") throw error;
							cache.prompts = next;
						}
					}
				}
				return true;
			});
		},
		addUse(budgets, use) {
			guard(void 0, () => {
				for (const budget of budgets) appendUse(cacheOf(budget.scope), {
					session: sessionId,
					...use
				});
			});
		},
		adjust(budget, adjustment) {
			guard(void 0, () => {
				const { addPrompts, ...rest } = adjustment;
				const line = {
					session: sessionId,
					...rest,
					addTurns: addPrompts
				};
				appendFileSync(cacheOf(budget.scope).adjustFile, `${JSON.stringify(line)}\n`, "utf8");
			});
		},
		problem() {
			if (trouble === null || told) return null;
			told = true;
			return trouble;
		}
	};
}
// src/adapters/node/file-ledger.ts
function fileOf(dir, budgetId, kind) {
	if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
	return join(dir, `${budgetId}.${kind}.json`);
}
function isRecord$1(value) {
	return typeof value === "object" && value !== null;
}
/** A claim file's fields, `{}` for one that is damaged (it is a claim all the same), or null when there is none. */
function readJson(file) {
	let text;
	try {
		text = readFileSync(file, "utf8");
	} catch {
		return null;
	}
	try {
		const value = JSON.parse(text);
		return isRecord$1(value) ? value : {};
	} catch {
		return {};
	}
}
function numberOr(value, fallback) {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
/** The ledger kept in `dir` (created on the first claim). */
function createFileLedger(dir, link = linkSync) {
	return {
		claim(claim) {
			const file = fileOf(dir, claim.budgetId, claim.kind);
			mkdirSync(dir, { recursive: true });
			const draft = `${file}.${randomUUID()}.draft`;
			writeFileSync(draft, `${JSON.stringify({
				version: 2,
				...claim
			})}\n`, { flag: "wx" });
			try {
				link(draft, file);
				return true;
			} catch (error) {
				if (error.code === "EEXIST") return false;
				throw error;
			} finally {
				rmSync(draft, { force: true });
			}
		},
		read(budgetId) {
			if (!isBudgetId(budgetId)) return {
				spent: null,
				off: false,
				nudged: false
			};
			const spent = readJson(fileOf(dir, budgetId, "spent"));
			const fields = spent && isRecord$1(spent.summary) ? spent.summary : {};
			return {
				spent: spent ? {
					usedTurns: numberOr(fields.usedTurns, 0),
					elapsedMs: numberOr(fields.elapsedMs, 0),
					timeRanOut: fields.timeRanOut === true,
					...typeof fields.wrapUpUntil === "number" && Number.isFinite(fields.wrapUpUntil) ? { wrapUpUntil: fields.wrapUpUntil } : {},
					...fields.limit === "tokens" || fields.limit === "cost" ? { limit: fields.limit } : {},
					...typeof fields.tokens === "number" && Number.isFinite(fields.tokens) ? { tokens: fields.tokens } : {},
					...typeof fields.cost === "number" && Number.isFinite(fields.cost) ? { cost: fields.cost } : {},
					prompt: typeof spent.prompt === "string" ? spent.prompt : null
				} : null,
				off: readJson(fileOf(dir, budgetId, "off")) !== null,
				nudged: readJson(fileOf(dir, budgetId, "nudged")) !== null
			};
		}
	};
}
// src/adapters/node/session-log.ts
function isLine(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
/**
* A session's log: budget records (`active`, `off`), the prompts counted (`prompt`) and what responses used
* (`usage`, with how far the transcript was read), one JSON object a line.
*/
var SessionLog = class {
	folder;
	file;
	constructor(dataDir, sessionId) {
		this.folder = join(dataDir, "sessions");
		this.file = join(this.folder, `${sessionId}.jsonl`);
	}
	append(record) {
		this.appendLine({ ...record });
	}
	/** Records that a prompt was sent. */
	appendPrompt(promptId, at) {
		this.appendLine({
			kind: "prompt",
			promptId,
			at
		});
	}
	/** Records that a prompt's run made another model call (each PostToolBatch comes right before one). */
	appendCall(promptId, at) {
		this.appendLine({
			kind: "call",
			promptId,
			at
		});
	}
	/** Which model call of its run the prompt is at: the first, plus one for each call recorded after it. */
	stepOf(promptId) {
		return 1 + this.lines().filter((line) => line.kind === "call" && line.promptId === promptId).length;
	}
	/**
	* Records what a response used, and how far the transcript it was read from was read (none for a host that reports
	* usage itself).
	*/
	appendUsage(responseId, used, at, offset) {
		this.appendLine({
			kind: "usage",
			responseId,
			...used,
			at,
			...offset === void 0 ? {} : { offset }
		});
	}
	/** Records how far the transcript was read when nothing new was used. */
	appendTranscriptOffset(offset) {
		this.appendLine({
			kind: "transcript",
			offset
		});
	}
	/** How far the transcript was read, and the responses already counted. */
	transcriptProgress() {
		let offset = 0;
		const seen = /* @__PURE__ */ new Set();
		for (const line of this.lines()) {
			if (typeof line.offset === "number" && line.offset > offset) offset = line.offset;
			if (line.kind === "usage" && typeof line.responseId === "string") seen.add(line.responseId);
		}
		return {
			offset,
			seen
		};
	}
	/**
	* The log as history: budget records, prompts and what responses used, oldest first. A response two hooks counted at
	* once counts once.
	*/
	history() {
		const items = [];
		const counted = /* @__PURE__ */ new Set();
		for (const line of this.lines()) if (line.kind === "prompt" && typeof line.promptId === "string") items.push({
			kind: "prompt",
			key: line.promptId
		});
		else if (line.kind === "active" || line.kind === "off") items.push({
			kind: "record",
			record: line
		});
		else if (line.kind === "usage" && typeof line.responseId === "string" && !counted.has(line.responseId)) {
			counted.add(line.responseId);
			const tokens = typeof line.tokens === "number" ? line.tokens : 0;
			const cost = typeof line.cost === "number" ? line.cost : 0;
			items.push({
				kind: "usage",
				tokens,
				cost,
				...typeof line.at === "number" ? { at: line.at } : {}
			});
		}
		return items;
	}
	/** Every readable line of the log, oldest first; a torn or hand-edited line is skipped. */
	lines() {
		let text;
		try {
			text = readFileSync(this.file, "utf8");
		} catch {
			return [];
		}
		const lines = [];
		for (const raw of text.split("\n")) {
			if (raw.trim().length === 0) continue;
			try {
				const value = JSON.parse(raw);
				if (isLine(value)) lines.push(value);
			} catch {}
		}
		return lines;
	}
	/** Appends one line; a single small append is written whole even when hooks run in parallel. */
	appendLine(line) {
		mkdirSync(this.folder, { recursive: true });
		appendFileSync(this.file, `${JSON.stringify(line)}\n`, {
			encoding: "utf8",
			flag: "a"
		});
	}
};
// src/adapters/claude/hook-input.ts
/** A session id becomes a file name, so only plain characters are accepted. */
const SESSION_ID = /^[A-Za-z0-9._-]{1,200}$/;
/**
* Parses a hook's stdin, or says why it cannot be used. A status line's stdin has no event name: pass the name to use
* instead as `event`.
*/
function parseHookInput(text, event) {
	let value;
	try {
		value = JSON.parse(text);
	} catch {
		return { error: "stdin is not JSON" };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) return { error: "stdin is not a JSON object" };
	const { hook_event_name: named = event, session_id: sessionId, prompt_id: claudePromptId, turn_id: codexTurnId, prompt, source, transcript_path: transcriptPath } = value;
	const promptId = claudePromptId ?? codexTurnId;
	if (typeof named !== "string" || named.length === 0) return { error: "hook_event_name is missing" };
	if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId) || sessionId.startsWith(".")) return { error: "session_id is missing or not a plain id" };
	return {
		event: named,
		sessionId,
		promptId: typeof promptId === "string" && promptId.length > 0 ? promptId : null,
		prompt: typeof prompt === "string" ? prompt : null,
		source: typeof source === "string" ? source : null,
		transcriptPath: typeof transcriptPath === "string" && transcriptPath.length > 0 ? transcriptPath : null
	};
}
// src/adapters/claude/setup.ts
/** The status line command that runs Timebox's script, wrapping `theirs` when there is one. */
function statusLineCommand(script, theirs) {
	const own = `node ${shellQuote(script)} statusline`;
	return theirs === null ? own : `${own} --wrap ${shellQuote(theirs)}`;
}
/** Quotes a word for `/bin/sh`: single quotes, with each single quote closed, escaped and reopened. */
function shellQuote(word) {
	return `'${word.replace(/'/g, `'\\''`)}'`;
}
function isRecord(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
/**
* Merges Timebox's status line into the settings file's text (null: no file yet). Returns the new text, or null to
* change nothing, and what the user is told. Settings that cannot be read are left alone.
*/
function mergeStatusLine(text, script) {
	let settings = {};
	if (text !== null && text.trim().length > 0) try {
		settings = JSON.parse(text);
	} catch {
		return {
			text: null,
			message: "Timebox: the settings file is not valid JSON, so nothing was changed."
		};
	}
	if (!isRecord(settings)) return {
		text: null,
		message: "Timebox: the settings file is not a JSON object, so nothing was changed."
	};
	const current = isRecord(settings.statusLine) ? settings.statusLine : null;
	const theirs = current && typeof current.command === "string" ? current.command : null;
	if (theirs?.includes(" statusline") && theirs.includes("timebox.mjs")) return {
		text: null,
		message: "Timebox's status line is already set up; nothing was changed."
	};
	const statusLine = {
		...current,
		type: "command",
		command: statusLineCommand(script, theirs),
		refreshInterval: 1
	};
	const merged = {
		...settings,
		statusLine
	};
	const message = theirs === null ? "Timebox's status line is set up: it shows the budget of each session." : "Timebox's status line is set up after yours: your status line comes first, then Timebox's.";
	return {
		text: `${JSON.stringify(merged, null, 2)}\n`,
		message
	};
}
/** Sets up the status line in `settingsFile` for the script at `script`, and says what was done. */
function setupStatusLine(settingsFile, script) {
	const merged = mergeStatusLine(existsSync(settingsFile) ? readFileSync(settingsFile, "utf8") : null, script);
	if (merged.text !== null) {
		mkdirSync(dirname(settingsFile), { recursive: true });
		writeFileSync(settingsFile, merged.text);
	}
	return merged.message;
}
/** The prefix of Timebox's data folders under `~/.claude/plugins/data`: `timebox-inline`, `timebox-<marketplace>`. */
const DATA_FOLDER_PREFIX = "timebox-";
/**
* The plugin's data folder for a status line call, which Claude Code does not tell: the one of Timebox's folders under
* `~/.claude/plugins/data` that holds the session's log, else the only one there is; null when there is none.
*/
function findDataDir(home, sessionId) {
	const root = join(home, ".claude", "plugins", "data");
	let folders;
	try {
		folders = readdirSync(root).filter((name) => name.startsWith(DATA_FOLDER_PREFIX));
	} catch {
		return null;
	}
	const chosen = folders.find((name) => existsSync(join(root, name, "sessions", `${sessionId}.jsonl`))) ?? (folders.length === 1 ? folders[0] : void 0);
	return chosen === void 0 ? null : join(root, chosen);
}
// src/adapters/claude/statusline.ts
/** Joins the user's own status line and Timebox's, leaving out whichever is empty. */
function joinStatusLines(theirs, ours) {
	return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}
// src/adapters/claude/cli.ts
/** The hosts `timebox hook --host <name>` serves; Claude Code when no host is named. */
const HOOK_HOSTS = {
	claude: {
		fromHost: (input) => input,
		toHost: (output) => output,
		dataDir: () => null,
		traits: {}
	},
	gemini: {
		fromHost: fromGemini,
		toHost: toGemini,
		dataDir: (_env, home) => join(home, ".gemini", "timebox"),
		traits: {
			unnamedPrompts: true,
			tokensSeen: false
		}
	},
	codex: {
		fromHost: fromCodex,
		toHost: toCodex,
		dataDir: (env, home) => join(env.CODEX_HOME ?? join(home, ".codex"), "timebox"),
		traits: { tokensSeen: false }
	}
};
const USAGE = "usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id>";
const WRAPPED_TIMEOUT_MS = 2e3;
/** The default status line runner: `<shell> -c <command>`, bounded in time; "" when it cannot run. */
function runStatusLineCommand(command, stdin, shell = "/bin/sh") {
	const result = spawnSync(shell, ["-c", command], {
		input: stdin,
		encoding: "utf8",
		timeout: WRAPPED_TIMEOUT_MS
	});
	return typeof result.stdout === "string" ? result.stdout.replace(/\n[\s\S]*$/, "") : "";
}
function option(args, name) {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : void 0;
}
function newId(deps) {
	return deps.newBudgetId ? { newBudgetId: deps.newBudgetId } : {};
}
/** The environment variable of the daily budget every Claude Code session of the user shares with pi's. */
const DAILY_ENV = "TIMEBOX_DAILY";
/** The daily budget from `TIMEBOX_DAILY`, with the ledger pi shares, or why it cannot be read. */
function dailyOf(env, sessionId, clock) {
	const text = env[DAILY_ENV]?.trim();
	if (!text) return {};
	const budget = parseDailyBudget(text, "user", DAILY_ENV);
	if ("warning" in budget) return { dailyWarning: budget.warning };
	return { daily: {
		ledger: createDailyLedger(dailyStateDir(env), sessionId, clock),
		budgets: [budget]
	} };
}
/** `/timebox statusline` in Claude Code: sets up the status line for the plugin's script where Claude Code runs it. */
function statusLineSetupOf(env, home) {
	const root = env.CLAUDE_PLUGIN_ROOT;
	if (!root) return {};
	const settings = join(home, ".claude", "settings.json");
	return { setupStatusLine: () => setupStatusLine(settings, join(root, "bin", "timebox.mjs")) };
}
/**
* `timebox watch`: looks at a session every second until its time budget is spent (then the rules stop it, run its
* on-stop command and keep the notice for the next prompt) or it has nothing to watch any more.
*/
async function watch(rest, env, deps) {
	const dataDir = option(rest, "--data");
	const sessionId = option(rest, "--session");
	const budget = option(rest, "--budget");
	if (!dataDir || !sessionId || !budget) return {
		stdout: "",
		stderr: `timebox: ${USAGE}\n`
	};
	const hookDeps = {
		store: new SessionLog(dataDir, sessionId),
		ledger: createFileLedger(join(dataDir, LEDGER_FOLDER)),
		clock: deps.clock,
		onStop: deps.onStop,
		...dailyOf(env, sessionId, deps.clock)
	};
	try {
		while (await watchOnce(hookDeps, budget, deps.clock.now()) === "watching") await deps.sleep(WATCH_INTERVAL_MS);
		return {
			stdout: "",
			stderr: ""
		};
	} catch (error) {
		return {
			stdout: "",
			stderr: `timebox: the watcher stopped: ${String(error)}\n`
		};
	}
}
/** Runs one invocation: `args` after the program name, the whole stdin, and the environment. */
async function runCli(args, stdin, env, deps) {
	const [mode, ...rest] = args;
	const home = env.HOME ?? homedir();
	if (mode === "setup-statusline") return {
		stdout: `${setupStatusLine(option(rest, "--settings") ?? join(home, ".claude", "settings.json"), deps.script)}\n`,
		stderr: ""
	};
	if (mode === "watch") return watch(rest, env, deps);
	if (mode !== "hook" && mode !== "statusline") return {
		stdout: "",
		stderr: `timebox: ${USAGE}\n`
	};
	const hostName = option(rest, "--host") ?? "claude";
	const host = Object.hasOwn(HOOK_HOSTS, hostName) ? HOOK_HOSTS[hostName] : void 0;
	if (!host) return {
		stdout: "",
		stderr: `timebox: unknown host "${hostName}": ${USAGE}\n`
	};
	const parsed = parseHookInput(stdin, mode === "statusline" ? "statusline" : void 0);
	if ("error" in parsed) return {
		stdout: "",
		stderr: `timebox: ignored this ${mode} call: ${parsed.error}\n`
	};
	const input = host.fromHost(parsed);
	const dataDir = option(rest, "--data") ?? env.CLAUDE_PLUGIN_DATA ?? host.dataDir(env, home) ?? (mode === "statusline" ? findDataDir(home, input.sessionId) : null);
	if (!dataDir) return {
		stdout: "",
		stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n"
	};
	const store = new SessionLog(dataDir, input.sessionId);
	const ledger = createFileLedger(join(dataDir, LEDGER_FOLDER));
	try {
		if (mode === "statusline") {
			const wrapped = option(rest, "--wrap");
			return {
				stdout: `${joinStatusLines(wrapped ? deps.runStatusLine(wrapped, stdin) : "", statusLineText({
					store,
					ledger
				}, deps.clock.now()))}\n`,
				stderr: ""
			};
		}
		const defaults = env["TIMEBOX_DEFAULT"] ? { defaultBudget: env[DEFAULT_ENV] } : {};
		const output = await handleHook(input, {
			store,
			ledger,
			clock: deps.clock,
			onStop: deps.onStop,
			...newId(deps),
			...defaults,
			...dailyOf(env, input.sessionId, deps.clock),
			...hostName === "claude" ? statusLineSetupOf(env, home) : {},
			startWatcher: (budget) => deps.startWatcher(dataDir, input.sessionId, budget),
			...host.traits
		});
		const answer = host.toHost(output, parsed.event);
		return {
			stdout: answer ? `${JSON.stringify(answer)}\n` : "",
			stderr: ""
		};
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const stderr = `timebox: internal error, nothing enforced for this ${input.event}: ${message}\n`;
		if (input.event !== "UserPromptSubmit" || input.prompt === null || timeboxArguments(input.prompt) === null) return {
			stdout: "",
			stderr
		};
		const reply = {
			decision: "block",
			reason: internalErrorMessage("/timebox", error)
		};
		return {
			stdout: `${JSON.stringify(reply)}\n`,
			stderr
		};
	}
}
// src/adapters/claude/main.ts
let stdin = "";
try {
	if (process.argv[2] !== "setup-statusline") stdin = readFileSync(0, "utf8");
} catch {}
const result = await runCli(process.argv.slice(2), stdin, process.env, {
	clock: systemClock,
	onStop: createShellRunner(),
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
		spawn(process.execPath, args, {
			detached: true,
			stdio: "ignore"
		}).on("error", () => {}).unref();
	},
	sleep: (ms) => new Promise((done) => setTimeout(done, ms))
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = 0;
export {};
