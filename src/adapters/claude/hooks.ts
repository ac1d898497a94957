// What each Claude Code hook does with a session's budget: /timebox commands, counting prompts, the nudge, and the
// hard stop at a prompt or a tool boundary. Each call reads the session's log, decides with the core, and answers.

import { randomUUID } from "node:crypto";
import type { Decision, TimeboxBudget } from "../../core/budget.ts";
import { planCommand } from "../../core/command-plan.ts";
import { decide, urgencyFor } from "../../core/decide.ts";
import { formatNudgePrompt, formatStatus } from "../../core/format.ts";
import { worstRatio } from "../../core/measure.ts";
import {
	nudgeMessage,
	onStopProblemMessage,
	onStopStartedMessage,
	restoredMessage,
	spentMessage,
	UNUSABLE_RECORD,
} from "../../core/messages.ts";
import { parseCommand } from "../../core/parse.ts";
import { turnsUsedSince } from "../../core/persist.ts";
import type { Clock, OnStopRunner } from "../../core/ports.ts";
import type { HookInput } from "./hook-input.ts";
import { type ClaudeSessionState, readSessionState } from "./session-state.ts";
import type { ClaudeSessionStore } from "./session-store.ts";

/** What a hook needs from the outside world. */
export interface HookDeps {
	store: ClaudeSessionStore;
	clock: Clock;
	onStop: OnStopRunner;
}

/** The JSON a hook prints, or null to print nothing and let Claude Code go on. */
export type HookOutput = Record<string, unknown> | null;

/** `/timebox …` and the namespaced `/timebox:timebox …`, as typed. */
const COMMAND_LINE = /^\/timebox(?::timebox)?(?:\s+([\s\S]*))?$/;

/** The arguments of a `/timebox` line, or null when the prompt is not one. */
export function timeboxArguments(prompt: string): string | null {
	const match = COMMAND_LINE.exec(prompt.trim());
	return match ? (match[1] ?? "") : null;
}

/** Answers one hook event. Events Timebox does not use get no answer. */
export function handleHook(input: HookInput, deps: HookDeps): HookOutput {
	switch (input.event) {
		case "SessionStart":
			return sessionStart(input, deps);
		case "UserPromptSubmit":
			return userPromptSubmit(input, deps);
		case "PreToolUse":
		case "PostToolBatch":
			return toolBoundary(input, deps);
		default:
			return null;
	}
}

function sessionStart(input: HookInput, deps: HookDeps): HookOutput {
	if (input.source === "compact") return null;
	const state = readSessionState(deps.store.lines());
	const messages: string[] = [];
	if (state.newestUnusable) messages.push(UNUSABLE_RECORD);
	if (state.budget && !state.spent) {
		const status = formatStatus(state.budget, deps.clock.now(), usedTurns(state.budget, state, null));
		messages.push(restoredMessage(status, state.budget.onStopCommand));
	}
	return messages.length > 0 ? { systemMessage: messages.join("\n") } : null;
}

function userPromptSubmit(input: HookInput, deps: HookDeps): HookOutput {
	const state = readSessionState(deps.store.lines());
	const now = deps.clock.now();
	const args = input.prompt === null ? null : timeboxArguments(input.prompt);
	if (args !== null) return runCommand(args, state, deps, now);

	// A prompt: counted once per prompt id (a message typed mid-turn shares the running prompt's id). Versions before
	// prompt ids count every submission.
	const promptId = input.promptId ?? `unnamed-${randomUUID()}`;
	if (!state.promptIds.includes(promptId)) deps.store.append({ kind: "prompt", promptId, at: now });
	const budget = state.budget;
	if (!budget || state.spent) return null;
	const used = usedTurns(budget, state, promptId);
	const decision = decide(budget, now, used);
	switch (decision.kind) {
		case "stop":
			return { decision: "block", reason: hardStop(budget, decision, promptId, deps) };
		case "nudge": {
			const output = nudgeContext(budget, now, used);
			if (deps.store.claim(`nudge-${budget.startTime}`)) {
				deps.store.append({ kind: "nudged", budgetStart: budget.startTime });
				output.systemMessage = nudgeMessage(decision.urgency, decision.detail);
			}
			return output;
		}
		case "ok":
			return budget.softNudgeSent ? nudgeContext(budget, now, used) : null;
	}
}

function runCommand(args: string, state: ClaudeSessionState, deps: HookDeps, now: number): HookOutput {
	const plan = planCommand(parseCommand(args), {
		budget: state.budget,
		spent: state.spent,
		usedTurns: state.budget ? usedTurns(state.budget, state, null) : 0,
		userMessages: state.promptIds.length,
		now,
	});
	if (plan.change === "set") deps.store.appendActive(plan.budget);
	if (plan.change === "off") deps.store.appendOff(plan.disabledAt);
	return { decision: "block", reason: plan.reply.message };
}

/** Time is checked at every tool boundary; a stopped prompt's later tool calls are refused too. */
function toolBoundary(input: HookInput, deps: HookDeps): HookOutput {
	const state = readSessionState(deps.store.lines());
	const budget = state.budget;
	if (!budget) return null;
	if (state.spent) {
		const sameRun = state.spent.promptId !== null && state.spent.promptId === input.promptId;
		return sameRun ? stopAtTool(input.event, spentMessage(state.spent.usedTurns, state.spent.elapsedMs)) : null;
	}
	const now = deps.clock.now();
	const decision = decide(
		{ ...budget, turnLimit: null, softNudgeSent: true },
		now,
		usedTurns(budget, state, input.promptId),
	);
	if (decision.kind !== "stop") return null;
	return stopAtTool(input.event, hardStop(budget, decision, input.promptId, deps));
}

function stopAtTool(event: string, message: string): HookOutput {
	if (event !== "PreToolUse") return { continue: false, stopReason: message };
	return {
		continue: false,
		stopReason: message,
		hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: message },
	};
}

/** Records the stop once (parallel hooks race for the claim), starts the on-stop command once, and says so. */
function hardStop(
	budget: TimeboxBudget,
	decision: Extract<Decision, { kind: "stop" }>,
	promptId: string | null,
	deps: HookDeps,
): string {
	const message = spentMessage(decision.usedTurns, decision.elapsedMs);
	if (!deps.store.claim(`spent-${budget.startTime}`)) return message;
	deps.store.append({
		kind: "spent",
		budgetStart: budget.startTime,
		promptId,
		usedTurns: decision.usedTurns,
		elapsedMs: decision.elapsedMs,
	});
	const command = decision.onStopCommand;
	if (command === null) return message;
	// A failure to start shows at once; a failing exit comes after this hook is gone and is not seen.
	let problem: string | null = null;
	deps.onStop.run(command, (reported) => {
		problem ??= reported;
	});
	return `${message}\n${problem === null ? onStopStartedMessage(command) : onStopProblemMessage(problem)}`;
}

function nudgeContext(budget: TimeboxBudget, now: number, used: number): Record<string, unknown> {
	const block = formatNudgePrompt(budget, now, used, urgencyFor(worstRatio(budget, now, used)));
	return { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: block } };
}

/** Prompts used of the budget, not counting `currentPromptId` (the prompt being answered). */
function usedTurns(budget: TimeboxBudget, state: ClaudeSessionState, currentPromptId: string | null): number {
	return turnsUsedSince(budget, state.promptIds.filter((id) => id !== currentPromptId).length);
}
