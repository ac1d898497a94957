// Timebox for Claude Code, bundled by npm run build:claude from src/adapters/claude/. Do not edit.
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
// src/adapters/node/node-time.ts
const systemClock = { now: () => Date.now() };
/** The largest turn budget. */
const MAX_TURN_LIMIT = 1e6;
/** Arguments that are sub-commands rather than budgets. */
const OFF_WORDS = [
	"off",
	"disable",
	"cancel"
];
// src/core/parse.ts
const TIME_TOKEN = /^(\d+(?:\.\d+)?)\s*([smh])?$/i;
const TURNS_TOKEN = /^turns:\s*(\d+)$/i;
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
* Parses a time token; a bare number means minutes. Returns null when the token is not a time.
* @example parseTimeToMs("15m") // 900_000
* @example parseTimeToMs("90") // 5_400_000
*/
function parseTimeToMs(token) {
	const match = TIME_TOKEN.exec(token.trim());
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
	return budgetText.replace(/\bturns:\s+(?=\d)/gi, "turns:").replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}
function invalid(reason) {
	return {
		kind: "invalid",
		reason
	};
}
function isSubCommand(word) {
	const lower = word.toLowerCase();
	return lower === "status" || OFF_WORDS.includes(lower);
}
/**
* Parses the text after `/timebox`. Never throws: anything it cannot read is `invalid` with a reason naming the problem.
* @example parseCommand("15m turns:3 -- say done") // { kind: "set", timeLimitMs: 900_000, turnLimit: 3, onStopCommand: "say done" }
*/
function parseCommand(input) {
	const text = typeof input === "string" ? input : "";
	const delimiter = STOP_COMMAND_DELIMITER.exec(text);
	const budgetText = delimiter ? text.slice(0, delimiter.index) : text;
	const stopCommand = delimiter ? text.slice(delimiter.index + delimiter[0].length).trim() : "";
	const tokens = joinSplitTokens(budgetText).split(/\s+/).filter((token) => token.length > 0);
	const subCommand = tokens.find(isSubCommand);
	if (subCommand !== void 0) {
		if (tokens.length > 1 || delimiter) return invalid(`${quoteInput(subCommand)} takes nothing else with it.`);
		return subCommand.toLowerCase() === "status" ? { kind: "status" } : { kind: "off" };
	}
	let timeLimitMs = null;
	let turnLimit = null;
	for (const token of tokens) {
		const turns = parseTurns(token);
		if (turns !== null) {
			if (turns < 1 || turns > 1e6) return invalid(`${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.`);
			turnLimit = turns;
			continue;
		}
		const ms = parseTimeToMs(token);
		if (ms !== null) {
			const wholeSeconds = Math.round(ms / SECOND_MS$1) * SECOND_MS$1;
			if (wholeSeconds < 1e3 || wholeSeconds > 2592e6) return invalid(`${quoteInput(token)} is out of range: a time budget is 1s to 30 days.`);
			timeLimitMs = wholeSeconds;
			continue;
		}
		return invalid(`${quoteInput(token)} is neither a time (30s, 15m, 2h) nor a turn count (turns:5).`);
	}
	if (timeLimitMs === null && turnLimit === null) return invalid(stopCommand ? "A command after -- needs a budget before it." : "No budget given.");
	return {
		kind: "set",
		timeLimitMs,
		turnLimit,
		onStopCommand: stopCommand.length > 0 ? stopCommand : null
	};
}
// src/adapters/node/on-stop-runner.ts
const SHELL = "/bin/sh";
/**
* Runs the user's command as the single argument of `/bin/sh -c`, so nothing Timebox builds is interpolated into a
* shell line. The process is detached and unref'd: pi never waits for it, and it survives pi's exit. A failure to start
* it, or a non-zero exit seen while pi still runs, is reported.
*/
function createShellRunner(spawnProcess = spawn) {
	return { run(command, report) {
		const shown = quoteInput(command);
		let child;
		try {
			child = spawnProcess(SHELL, ["-c", command], {
				detached: true,
				stdio: "ignore"
			});
		} catch (error) {
			report(`could not start ${shown}: ${error instanceof Error ? error.message : String(error)}`);
			return;
		}
		child.once("error", (error) => report(`could not start ${shown}: ${error.message}`));
		child.once("exit", (code, signal) => {
			if (code !== null && code !== 0) report(`${shown} exited with code ${code}`);
			else if (signal !== null) report(`${shown} was ended by ${signal}`);
		});
		child.unref();
	} };
}
// src/core/measure.ts
/** Milliseconds since the budget started, never negative (a clock that went back counts as no time spent). */
function elapsedMs(budget, now) {
	const elapsed = now - budget.startTime;
	return Number.isFinite(elapsed) ? Math.max(0, elapsed) : 0;
}
/** A used-turn count made safe to show and compare: a whole number, never negative. */
function safeTurns(usedTurns) {
	return Number.isFinite(usedTurns) ? Math.max(0, Math.floor(usedTurns)) : 0;
}
/** The used share of the budget's worst dimension; a dimension without a limit is ignored. */
function worstRatio(budget, now, usedTurns) {
	const timeRatio = budget.timeLimitMs === null ? 0 : elapsedMs(budget, now) / budget.timeLimitMs;
	const turnRatio = budget.turnLimit === null ? 0 : safeTurns(usedTurns) / budget.turnLimit;
	return Math.max(timeRatio, turnRatio);
}
// src/core/format.ts
const SECOND_MS = 1e3;
/** Shown in the status bar once the budget is spent. */
const SPENT_STATUS = "Timebox: budget spent";
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
/** `15m and 3 turns`, `15m`, `1 turn`: what a budget allows, for notifications. */
function describeBudget(limits) {
	const parts = [];
	if (limits.timeLimitMs !== null) parts.push(formatBudgetLabel(limits.timeLimitMs));
	if (limits.turnLimit !== null) parts.push(pluralTurns(limits.turnLimit));
	return parts.join(" and ");
}
/** Time left as people read it, rounded up to the second so the countdown reads 0s only when the time is up. */
function formatTimeLeft(budget, limitMs, now) {
	return formatTime(Math.ceil(Math.max(0, limitMs - elapsedMs(budget, now)) / SECOND_MS) * SECOND_MS);
}
/** `12m 34s left (15m budget) | 3 turns left (2/5)`: what remains of each dimension. */
function formatRemaining(budget, now, usedTurns) {
	const timePart = budget.timeLimitMs === null ? "no time limit" : `${formatTimeLeft(budget, budget.timeLimitMs, now)} left (${formatBudgetLabel(budget.timeLimitMs)} budget)`;
	const used = safeTurns(usedTurns);
	return `${timePart} | ${budget.turnLimit === null ? "no turn limit" : `${pluralTurns(Math.max(0, budget.turnLimit - used))} left (${used}/${budget.turnLimit})`}`;
}
/** The status bar text: `Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)`, or the spent marker. */
function formatStatus(budget, now, usedTurns) {
	return budget.active ? `Timebox: ${formatRemaining(budget, now, usedTurns)}` : SPENT_STATUS;
}
/** The block added to the system prompt once the budget is nearly spent (spec §7.3). */
function formatNudgePrompt(budget, now, usedTurns, urgency) {
	const lines = [`${urgency === "critical" ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`];
	lines.push("The user gave this session a budget and it is nearly spent.");
	if (budget.timeLimitMs !== null) lines.push(`Time left: ${formatTimeLeft(budget, budget.timeLimitMs, now)} of ${formatBudgetLabel(budget.timeLimitMs)}.`);
	if (budget.turnLimit !== null) {
		const used = safeTurns(usedTurns);
		const left = Math.max(0, budget.turnLimit - used);
		lines.push(left <= 1 ? `Turns: this is the last prompt the budget allows (${used} of ${budget.turnLimit} used).` : `Turns left: ${left} prompts, this one included (${used} of ${budget.turnLimit} used).`);
	}
	lines.push("Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.", "When the budget runs out, Timebox stops you mid-step.");
	return lines.join("\n");
}
// src/core/messages.ts
/** The usage hint shown with every invalid input. */
const USAGE$1 = [
	"Usage: /timebox <budget> [-- <command>] | status | off",
	"  budget: a time (30s, 15m, 2h, 1.5h; a bare number is minutes) and/or turns:<n> (prompts you send)",
	"  e.g. /timebox 15m turns:3    /timebox turns:5 -- notify-send \"Timebox done\""
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
/** `/timebox status` with no budget. */
function noBudgetStatusMessage() {
	return `${NO_ACTIVE_TIMEBOX}\n${USAGE$1}`;
}
/** A new budget is in force. */
function budgetSetMessage(limits, replacedActive) {
	const replaced = replacedActive ? " It replaces the previous budget." : "";
	return `Timebox set: ${describeBudget(limits)}.${replaced}${onStopNote(limits.onStopCommand)}`;
}
/** `/timebox status` while a budget is active: the status text and the on-stop command. */
function activeStatusMessage(statusText, onStopCommand) {
	return `${statusText}${onStopCommand === null ? "" : `\nOn stop it runs: ${onStopCommand}`}`;
}
/** The hard-stop notification (spec §7.3). */
function spentMessage(usedTurns, elapsedMs) {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}. The agent stops for this turn. The chat continues.`;
}
/** `/timebox status` after the hard stop. */
function spentStatusMessage(usedTurns, elapsedMs) {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}. Set a new budget with /timebox <budget>, or clear this one with /timebox off.`;
}
/** The soft nudge the user sees at 80% (critical from 95%). */
function nudgeMessage(urgency, detail) {
	return `${urgency === "critical" ? "Timebox critical" : "Timebox warning"}: ${detail}. The agent is now asked to wrap up.`;
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
/** An unexpected error inside Timebox, reported once per place. */
function internalErrorMessage(where, error) {
	return `Timebox hit an internal error (${where}): ${error instanceof Error ? error.message : String(error)}. Your session goes on; check the budget with /timebox status.`;
}
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
	const { hook_event_name: named = event, session_id: sessionId, prompt_id: promptId, prompt, source } = value;
	if (typeof named !== "string" || named.length === 0) return { error: "hook_event_name is missing" };
	if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId) || sessionId.startsWith(".")) return { error: "session_id is missing or not a plain id" };
	return {
		event: named,
		sessionId,
		promptId: typeof promptId === "string" && promptId.length > 0 ? promptId : null,
		prompt: typeof prompt === "string" ? prompt : null,
		source: typeof source === "string" ? source : null
	};
}
// src/core/command-plan.ts
/** Plans a parsed `/timebox` command against the session's budget. Pure: the caller writes and adopts the change. */
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
				disabledAt: view.now,
				reply: {
					message: TIMEBOX_OFF,
					level: "info"
				}
			};
		case "set": return {
			change: "set",
			budget: {
				timeLimitMs: command.timeLimitMs,
				turnLimit: command.turnLimit,
				startTime: view.now,
				startTurn: view.userMessages,
				softNudgeSent: false,
				active: true,
				onStopCommand: command.onStopCommand
			},
			reply: {
				message: budgetSetMessage(command, view.budget?.active === true),
				level: "info"
			}
		};
	}
}
function statusMessage(view) {
	if (!view.budget) return noBudgetStatusMessage();
	if (view.spent) return spentStatusMessage(view.spent.usedTurns, view.spent.elapsedMs);
	return activeStatusMessage(formatStatus(view.budget, view.now, view.usedTurns), view.budget.onStopCommand);
}
// src/core/decide.ts
/** The urgency of a nudge at this used share of the budget. */
function urgencyFor(ratio) {
	return ratio >= .95 ? "critical" : "warning";
}
/**
* Decides what the budget calls for: `stop` once either limit is reached, a one-shot `nudge` once either dimension
* passes 80% (critical from 95%), else `ok`. Whether the budget is still active is the caller's concern.
* @example decide(fifteenMinutes, start + 12 * 60_000, 0) // { kind: "nudge", urgency: "warning", detail: "3m 0s left (15m budget) | no turn limit" }
*/
function decide(budget, now, usedTurns) {
	const elapsed = elapsedMs(budget, now);
	const used = safeTurns(usedTurns);
	const timeSpent = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
	const turnsSpent = budget.turnLimit !== null && used >= budget.turnLimit;
	if (timeSpent || turnsSpent) return {
		kind: "stop",
		usedTurns: used,
		elapsedMs: elapsed,
		onStopCommand: budget.onStopCommand
	};
	const ratio = worstRatio(budget, now, used);
	if (!budget.softNudgeSent && ratio >= .8) return {
		kind: "nudge",
		urgency: urgencyFor(ratio),
		detail: formatRemaining(budget, now, used)
	};
	return { kind: "ok" };
}
// src/core/persist.ts
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
/**
* Reads a persisted budget, or null when it is unusable. Extra fields are ignored; a missing `onStopCommand` (a legacy
* record) reads as null; `softNudgeSent` and `active` are not trusted but re-derived by `restore`.
*/
function parseBudget(value) {
	if (!isFields(value)) return null;
	const { timeLimitMs, turnLimit, startTime, startTurn, onStopCommand } = value;
	if (!isTimeLimit(timeLimitMs) || !isTurnLimit(turnLimit)) return null;
	if (timeLimitMs === null && turnLimit === null) return null;
	if (!isFiniteNumber(startTime) || !Number.isInteger(startTurn) || startTurn < 0) return null;
	if (onStopCommand !== void 0 && onStopCommand !== null && typeof onStopCommand !== "string") return null;
	return {
		timeLimitMs,
		turnLimit,
		startTime,
		startTurn,
		softNudgeSent: false,
		active: true,
		onStopCommand: onStopCommand ? onStopCommand : null
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
		disabledAt: isFiniteNumber(value.disabledAt) ? value.disabledAt : 0
	};
	if (value.kind !== "active") return null;
	const budget = parseBudget(value.budget);
	return budget ? {
		kind: "active",
		budget
	} : null;
}
/** Scans records newest first for the first usable one. */
function latestRecord(records) {
	const list = Array.isArray(records) ? records : [];
	for (let index = list.length - 1; index >= 0; index--) {
		const record = parseRecord(list[index]);
		if (record) return {
			record,
			newestUnusable: index < list.length - 1
		};
	}
	return {
		record: null,
		newestUnusable: list.length > 0
	};
}
/** Turns used of a persisted budget, given the transcript's user-message count now. */
function turnsUsedSince(budget, userMessageCount) {
	const used = userMessageCount - budget.startTurn;
	return Number.isFinite(used) ? Math.max(0, used) : 0;
}
// src/adapters/claude/session-state.ts
function isLine(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
function numberOr(value, fallback) {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
/** Derives the session's state from its log lines. Never throws, whatever the lines hold. */
function readSessionState(lines) {
	const entries = lines.filter(isLine);
	const { record, newestUnusable } = latestRecord(entries.filter((line) => line.kind === "active" || line.kind === "off"));
	const budget = record?.kind === "active" ? record.budget : null;
	const promptIds = [];
	const seen = /* @__PURE__ */ new Set();
	let spent = null;
	let nudged = false;
	for (const line of entries) {
		if (line.kind === "prompt" && typeof line.promptId === "string" && !seen.has(line.promptId)) {
			seen.add(line.promptId);
			promptIds.push(line.promptId);
		}
		if (!budget || line.budgetStart !== budget.startTime) continue;
		if (line.kind === "nudged") nudged = true;
		if (line.kind === "spent" && !spent) spent = {
			promptId: typeof line.promptId === "string" ? line.promptId : null,
			usedTurns: numberOr(line.usedTurns, 0),
			elapsedMs: numberOr(line.elapsedMs, 0)
		};
	}
	return {
		budget: budget ? {
			...budget,
			softNudgeSent: nudged,
			active: spent === null
		} : null,
		newestUnusable,
		promptIds,
		spent,
		nudged
	};
}
// src/adapters/claude/hooks.ts
/** `/timebox …` and the namespaced `/timebox:timebox …`, as typed. */
const COMMAND_LINE = /^\/timebox(?::timebox)?(?:\s+([\s\S]*))?$/;
/** The arguments of a `/timebox` line, or null when the prompt is not one. */
function timeboxArguments(prompt) {
	const match = COMMAND_LINE.exec(prompt.trim());
	return match ? match[1] ?? "" : null;
}
/** Answers one hook event. Events Timebox does not use get no answer. */
function handleHook(input, deps) {
	switch (input.event) {
		case "SessionStart": return sessionStart(input, deps);
		case "UserPromptSubmit": return userPromptSubmit(input, deps);
		case "PreToolUse":
		case "PostToolBatch": return toolBoundary(input, deps);
		default: return null;
	}
}
function sessionStart(input, deps) {
	if (input.source === "compact") return null;
	const state = readSessionState(deps.store.lines());
	const messages = [];
	if (state.newestUnusable) messages.push(UNUSABLE_RECORD);
	if (state.budget && !state.spent) {
		const status = formatStatus(state.budget, deps.clock.now(), usedTurns(state.budget, state, null));
		messages.push(restoredMessage(status, state.budget.onStopCommand));
	}
	return messages.length > 0 ? { systemMessage: messages.join("\n") } : null;
}
function userPromptSubmit(input, deps) {
	const state = readSessionState(deps.store.lines());
	const now = deps.clock.now();
	const args = input.prompt === null ? null : timeboxArguments(input.prompt);
	if (args !== null) return runCommand(args, state, deps, now);
	const promptId = input.promptId ?? `unnamed-${randomUUID()}`;
	if (!state.promptIds.includes(promptId)) deps.store.append({
		kind: "prompt",
		promptId,
		at: now
	});
	const budget = state.budget;
	if (!budget || state.spent) return null;
	const used = usedTurns(budget, state, promptId);
	const decision = decide(budget, now, used);
	switch (decision.kind) {
		case "stop": return {
			decision: "block",
			reason: hardStop(budget, decision, promptId, deps)
		};
		case "nudge": {
			const output = nudgeContext(budget, now, used);
			if (deps.store.claim(`nudge-${budget.startTime}`)) {
				deps.store.append({
					kind: "nudged",
					budgetStart: budget.startTime
				});
				output.systemMessage = nudgeMessage(decision.urgency, decision.detail);
			}
			return output;
		}
		case "ok": return budget.softNudgeSent ? nudgeContext(budget, now, used) : null;
	}
}
function runCommand(args, state, deps, now) {
	const plan = planCommand(parseCommand(args), {
		budget: state.budget,
		spent: state.spent,
		usedTurns: state.budget ? usedTurns(state.budget, state, null) : 0,
		userMessages: state.promptIds.length,
		now
	});
	if (plan.change === "set") deps.store.appendActive(plan.budget);
	if (plan.change === "off") deps.store.appendOff(plan.disabledAt);
	return {
		decision: "block",
		reason: plan.reply.message
	};
}
/** Time is checked at every tool boundary; a stopped prompt's later tool calls are refused too. */
function toolBoundary(input, deps) {
	const state = readSessionState(deps.store.lines());
	const budget = state.budget;
	if (!budget) return null;
	if (state.spent) return state.spent.promptId !== null && state.spent.promptId === input.promptId ? stopAtTool(input.event, spentMessage(state.spent.usedTurns, state.spent.elapsedMs)) : null;
	const now = deps.clock.now();
	const decision = decide({
		...budget,
		turnLimit: null,
		softNudgeSent: true
	}, now, usedTurns(budget, state, input.promptId));
	if (decision.kind !== "stop") return null;
	return stopAtTool(input.event, hardStop(budget, decision, input.promptId, deps));
}
function stopAtTool(event, message) {
	if (event !== "PreToolUse") return {
		continue: false,
		stopReason: message
	};
	return {
		continue: false,
		stopReason: message,
		hookSpecificOutput: {
			hookEventName: "PreToolUse",
			permissionDecision: "deny",
			permissionDecisionReason: message
		}
	};
}
/** Records the stop once (parallel hooks race for the claim), starts the on-stop command once, and says so. */
function hardStop(budget, decision, promptId, deps) {
	const message = spentMessage(decision.usedTurns, decision.elapsedMs);
	if (!deps.store.claim(`spent-${budget.startTime}`)) return message;
	deps.store.append({
		kind: "spent",
		budgetStart: budget.startTime,
		promptId,
		usedTurns: decision.usedTurns,
		elapsedMs: decision.elapsedMs
	});
	const command = decision.onStopCommand;
	if (command === null) return message;
	let problem = null;
	deps.onStop.run(command, (reported) => {
		problem ??= reported;
	});
	return `${message}\n${problem === null ? onStopStartedMessage(command) : onStopProblemMessage(problem)}`;
}
function nudgeContext(budget, now, used) {
	return { hookSpecificOutput: {
		hookEventName: "UserPromptSubmit",
		additionalContext: formatNudgePrompt(budget, now, used, urgencyFor(worstRatio(budget, now, used)))
	} };
}
/** Prompts used of the budget, not counting `currentPromptId` (the prompt being answered). */
function usedTurns(budget, state, currentPromptId) {
	return turnsUsedSince(budget, state.promptIds.filter((id) => id !== currentPromptId).length);
}
// src/adapters/claude/session-store.ts
/** A session's log: core records (`active`, `off`) beside the adapter's own (`prompt`, `spent`, `nudged`). */
var ClaudeSessionStore = class {
	sessionId;
	folder;
	file;
	constructor(dataDir, sessionId) {
		this.sessionId = sessionId;
		this.folder = join(dataDir, "sessions");
		this.file = join(this.folder, `${sessionId}.jsonl`);
	}
	appendActive(budget) {
		this.append({
			kind: "active",
			budget
		});
	}
	appendOff(disabledAt) {
		this.append({
			kind: "off",
			disabledAt
		});
	}
	/** The core's records (`active` and `off` lines), oldest first, for `restore`-style reading. */
	loadRecords() {
		return this.lines().filter((line) => {
			const kind = line?.kind;
			return kind === "active" || kind === "off";
		});
	}
	/** Appends one line; a single small append is written whole even when hooks run in parallel. */
	append(line) {
		mkdirSync(this.folder, { recursive: true });
		appendFileSync(this.file, `${JSON.stringify(line)}\n`, {
			encoding: "utf8",
			flag: "a"
		});
	}
	/** Every readable line of the log, oldest first; a damaged line is skipped. */
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
				lines.push(JSON.parse(raw));
			} catch {}
		}
		return lines;
	}
	/** Claims `key` for this session: true for exactly one caller, however many hooks race for it. */
	claim(key) {
		mkdirSync(this.folder, { recursive: true });
		try {
			closeSync(openSync(join(this.folder, `${this.sessionId}.${key}.claim`), "wx"));
			return true;
		} catch {
			return false;
		}
	}
};
// src/adapters/claude/statusline.ts
/**
* The status text of a session, or "" without a budget. Claude Code does not tell a status line whether a prompt is
* being answered, so every prompt counted so far counts here, the one running included.
*/
function statusLineText(lines, now) {
	const state = readSessionState(lines);
	if (!state.budget) return "";
	return formatStatus(state.budget, now, turnsUsedSince(state.budget, state.promptIds.length));
}
/** Joins the user's own status line and Timebox's, leaving out whichever is empty. */
function joinStatusLines(theirs, ours) {
	return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}
// src/adapters/claude/cli.ts
const USAGE = "usage: timebox hook | timebox statusline [--data <folder>] [--wrap <command>]";
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
/** Runs one invocation: `args` after the program name, the whole stdin, and the environment. */
function runCli(args, stdin, env, deps) {
	const [mode, ...rest] = args;
	if (mode !== "hook" && mode !== "statusline") return {
		stdout: "",
		stderr: `timebox: ${USAGE}\n`
	};
	const input = parseHookInput(stdin, mode === "statusline" ? "statusline" : void 0);
	if ("error" in input) return {
		stdout: "",
		stderr: `timebox: ignored this ${mode} call: ${input.error}\n`
	};
	const dataDir = option(rest, "--data") ?? env.CLAUDE_PLUGIN_DATA;
	if (!dataDir) return {
		stdout: "",
		stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n"
	};
	const store = new ClaudeSessionStore(dataDir, input.sessionId);
	try {
		if (mode === "statusline") {
			const wrapped = option(rest, "--wrap");
			return {
				stdout: `${joinStatusLines(wrapped ? deps.runStatusLine(wrapped, stdin) : "", statusLineText(store.lines(), deps.clock.now()))}\n`,
				stderr: ""
			};
		}
		const output = handleHook(input, {
			store,
			clock: deps.clock,
			onStop: deps.onStop
		});
		return {
			stdout: output ? `${JSON.stringify(output)}\n` : "",
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
	stdin = readFileSync(0, "utf8");
} catch {}
const result = runCli(process.argv.slice(2), stdin, process.env, {
	clock: systemClock,
	onStop: createShellRunner(),
	runStatusLine: runStatusLineCommand
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = 0;
export {};
