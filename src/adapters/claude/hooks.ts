// Claude Code hooks onto the core rulebook: each hook folds the session's log into the session state, reports its
// event to the rules, carries out the effects (append, claim in the ledger, run the on-stop command) and turns the
// rest into the hook's JSON answer. No rule lives here.

import { randomUUID } from "node:crypto";
import {
	type BudgetLedger,
	type Clock,
	type Effect,
	EMPTY_SESSION,
	foldHistory,
	LEGACY_ID_PREFIX,
	type LedgerView,
	NOTHING_RECORDED,
	type OnStopOutcome,
	type OnStopRunner,
	type SessionEvent,
	type SessionState,
	statusText,
	step,
	type TimeboxBudget,
} from "../../core/index.ts";
import type { HookInput } from "./hook-input.ts";
import type { ClaudeSessionStore } from "./session-store.ts";

/** What a hook needs from the outside world. */
export interface HookDeps {
	store: ClaudeSessionStore;
	ledger: BudgetLedger;
	clock: Clock;
	onStop: OnStopRunner;
	newBudgetId?: () => string;
}

/** The JSON a hook prints, or null to print nothing and let Claude Code go on. */
export type HookOutput = Record<string, unknown> | null;

/** `/timebox …` and the namespaced `/timebox:timebox …`, as typed. */
const COMMAND_LINE = /^\/timebox(?::timebox)?(?:\s+([\s\S]*))?$/;

/** How long a hook waits to learn whether the on-stop command started (Node says so within a tick or two). */
const ON_STOP_START_WAIT_MS = 1_000;

/** The arguments of a `/timebox` line, or null when the prompt is not one. */
export function timeboxArguments(prompt: string): string | null {
	const match = COMMAND_LINE.exec(prompt.trim());
	return match ? (match[1] ?? "") : null;
}

/** What the effects of one hook add up to. */
interface Outcome {
	notices: string[];
	context: string[];
	refusal: string | null;
	aborted: boolean;
}

/**
 * The session's state from its log and the ledger. Logs from the first version marked a budget spent or warned with
 * `spent` and `nudged` lines keyed by its start time; they still count.
 */
export function loadSession(deps: Pick<HookDeps, "store" | "ledger">, now: number, announce: boolean) {
	const history = foldHistory(deps.store.history());
	const ledger = history.budget ? ledgerView(history.budget, deps) : NOTHING_RECORDED;
	return step(EMPTY_SESSION, { type: "load", history, ledger, mode: "continue", announce }, now);
}

function ledgerView(budget: TimeboxBudget, deps: Pick<HookDeps, "store" | "ledger">): LedgerView {
	const view = deps.ledger.read(budget.id);
	if (!budget.id.startsWith(LEGACY_ID_PREFIX)) return view;
	const legacy = deps.store.lines().filter((line) => line.budgetStart === budget.startTime);
	const spent = legacy.find((line) => line.kind === "spent");
	return {
		off: view.off,
		nudged: view.nudged || legacy.some((line) => line.kind === "nudged"),
		spent:
			view.spent ??
			(spent
				? {
						usedTurns: typeof spent.usedTurns === "number" ? spent.usedTurns : 0,
						elapsedMs: typeof spent.elapsedMs === "number" ? spent.elapsedMs : 0,
						timeRanOut: false,
						prompt: typeof spent.promptId === "string" ? spent.promptId : null,
					}
				: null),
	};
}

/** Answers one hook event. Events Timebox does not use get no answer. */
export async function handleHook(input: HookInput, deps: HookDeps): Promise<HookOutput> {
	const now = deps.clock.now();
	switch (input.event) {
		case "SessionStart": {
			if (input.source === "compact") return null;
			const loaded = loadSession(deps, now, input.source === "resume");
			const outcome = await execute(loaded.effects, deps);
			return outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : null;
		}
		case "UserPromptSubmit":
			return userPromptSubmit(input, deps, now);
		case "PreToolUse":
		case "PostToolBatch": {
			const { state } = loadSession(deps, now, false);
			if (!state.budget) return null;
			const event: SessionEvent =
				input.event === "PreToolUse"
					? { type: "toolCall", prompt: input.promptId }
					: { type: "modelCall", prompt: input.promptId };
			const outcome = await execute(step(state, event, now).effects, deps);
			return outcome.refusal === null && !outcome.aborted ? noticeOnly(outcome) : stopAtTool(input.event, outcome);
		}
		default:
			return null;
	}
}

async function userPromptSubmit(input: HookInput, deps: HookDeps, now: number): Promise<HookOutput> {
	const { state } = loadSession(deps, now, false);
	const args = input.prompt === null ? null : timeboxArguments(input.prompt);
	if (args !== null) {
		const newBudgetId = (deps.newBudgetId ?? randomUUID)();
		const outcome = await execute(step(state, { type: "command", args, newBudgetId }, now).effects, deps);
		return { decision: "block", reason: outcome.notices.join("\n") };
	}
	// A prompt, counted once per prompt id: a message typed mid-turn shares the running prompt's id. Versions before
	// prompt ids count every submission.
	const promptId = input.promptId ?? `unnamed-${randomUUID()}`;
	if (promptId !== state.lastPrompt) deps.store.appendPrompt(promptId, now);
	if (!state.budget) return null;
	const submitted = step(state, { type: "promptSubmitted" }, now);
	const called = step(submitted.state, { type: "modelCall", prompt: promptId }, now);
	const outcome = await execute([...submitted.effects, ...called.effects], deps);
	if (outcome.refusal !== null) return { decision: "block", reason: stopText(outcome) };
	const output: Record<string, unknown> = {};
	if (outcome.notices.length > 0) output.systemMessage = outcome.notices.join("\n");
	if (outcome.context.length > 0) {
		output.hookSpecificOutput = { hookEventName: "UserPromptSubmit", additionalContext: outcome.context.join("\n\n") };
	}
	return Object.keys(output).length > 0 ? output : null;
}

/** The status line's text: the budget as the rules see it now, read only (nothing is claimed or run). */
export function statusLineText(deps: Pick<HookDeps, "store" | "ledger">, now: number): string {
	const { state } = loadSession(deps, now, false);
	const checked: SessionState = step(state, { type: "timeCheck" }, now).state;
	return statusText(checked, now) ?? "";
}

function noticeOnly(outcome: Outcome): HookOutput {
	return outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : null;
}

function stopText(outcome: Outcome): string {
	return outcome.notices.length > 0 ? outcome.notices.join("\n") : (outcome.refusal ?? "");
}

function stopAtTool(event: string, outcome: Outcome): HookOutput {
	const message = stopText(outcome);
	if (event !== "PreToolUse") return { continue: false, stopReason: message };
	return {
		continue: false,
		stopReason: message,
		hookSpecificOutput: {
			hookEventName: "PreToolUse",
			permissionDecision: "deny",
			permissionDecisionReason: outcome.refusal ?? message,
		},
	};
}

/** Carries out the effects of one hook, in order, and gathers what its answer says. */
async function execute(effects: readonly Effect[], deps: HookDeps): Promise<Outcome> {
	const outcome: Outcome = { notices: [], context: [], refusal: null, aborted: false };
	const run = async (list: readonly Effect[]): Promise<void> => {
		for (const effect of list) {
			switch (effect.kind) {
				case "notify":
					outcome.notices.push(effect.message);
					break;
				case "status":
					break;
				case "append":
					deps.store.append(effect.record);
					break;
				case "context":
					outcome.context.push(effect.text);
					break;
				case "abort":
					outcome.aborted = true;
					break;
				case "refuse":
					outcome.refusal = effect.reason;
					break;
				case "once":
					if (deps.ledger.claim(effect.claim)) await run(effect.then);
					break;
				case "runOnStop": {
					const report = await startOnStop(effect.command, deps.onStop);
					await run(step(EMPTY_SESSION, { type: "onStopReport", command: effect.command, outcome: report }, 0).effects);
					break;
				}
			}
		}
	};
	await run(effects);
	return outcome;
}

/** Starts the on-stop command and waits until it started or failed to; a failing exit comes after this hook is gone. */
function startOnStop(command: string, runner: OnStopRunner): Promise<OnStopOutcome> {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve({ kind: "started" }), ON_STOP_START_WAIT_MS);
		runner.run(command, (outcome) => {
			if (outcome.kind === "exited") return;
			clearTimeout(timer);
			resolve(outcome);
		});
	});
}
