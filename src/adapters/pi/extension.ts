// Wires pi's events and the /timebox command to a live session of the core rulebook. Registration only: each handler
// translates one pi event into a session event and the answer back into pi's return value.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
	type BudgetLedger,
	type Cancel,
	type Clock,
	COMMAND_NAME,
	type DailyLedger,
	DEFAULT_TERMS,
	type HostTerms,
	LiveSession,
	type OnStopStarter,
	RELOAD_NOTICE_DELAY_MS,
	type Scheduler,
} from "../../core/index.ts";
import { withBudgetNote } from "./budget-note.ts";
import { createTimeboxCommand } from "./command.ts";
import { DEFAULT_FLAG, readDefaultBudget, readSettings } from "./defaults.ts";
import { liveOnlyScheduler } from "./live-scheduler.ts";
import { extensionRunOfCall, promptOfCall, stepOfCall } from "./prompt-key.ts";
import { SessionContext } from "./session-context.ts";
import { PiBudgetStore } from "./store.ts";
import { type FallbackWriter, PiUIBridge } from "./ui-bridge.ts";
import { costReportingOf, usageOf } from "./usage.ts";

/** What the extension takes from the outside world: the real ones in production, fakes in tests. */
export interface TimeboxExtensionDeps {
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopStarter;
	writeFallback: FallbackWriter;
	/** The per-user ledger; asked for each time pi loads the extension, so it follows pi's agent directory. */
	ledger: () => BudgetLedger;
	newBudgetId: () => string;
	/** The environment (PI_TIMEBOX) and the user's settings file, where a default budget may come from. */
	env: NodeJS.ProcessEnv;
	globalSettings: () => string;
	/** The daily ledger every session of the user shares, for the session of this id. */
	dailyLedger?: (sessionId: string) => DailyLedger;
}

/** Builds the pi extension factory. pi calls it once per session (again after /new, /resume, /fork and /reload). */
export function createTimeboxExtension(deps: TimeboxExtensionDeps): (pi: ExtensionAPI) => void {
	return (pi) => {
		const context = new SessionContext();
		const ui = new PiUIBridge(context, deps.writeFallback);
		const scheduler = liveOnlyScheduler(deps.scheduler, () => context.isLive());
		/** The pending second showing of what was restored; a shut-down instance shows nothing. */
		let restoreNoticeAgain: Cancel | null = null;
		const session = new LiveSession({
			store: new PiBudgetStore(pi, context),
			ledger: deps.ledger(),
			ui,
			clock: deps.clock,
			scheduler,
			...(deps.dailyLedger
				? { daily: lazyDailyLedger(() => context.require().sessionManager.getSessionId(), deps.dailyLedger) }
				: {}),
			onStop: deps.onStop,
			abortRun: () => context.require().abort(),
			newBudgetId: deps.newBudgetId,
			canAsk: () => context.require().hasUI,
			costReporting: () => costReportingOf(context.require().model),
			terms: piTerms(deps.globalSettings()),
			ask: async (question, choices, timeoutMs, signal) => {
				const options = { timeout: timeoutMs, signal };
				const chosen = await context.require().ui.select(question, [...choices], options);
				return chosen === undefined ? undefined : choices.indexOf(chosen);
			},
		});

		pi.registerFlag(DEFAULT_FLAG, {
			type: "string",
			description: 'A budget for new sessions, e.g. --timebox "30m turns:10"',
		});
		// The session loaded (startup, reload, new, resume, fork, clone): restore the budget of its branch, or give a
		// session that never had one the default budget.
		pi.on("session_start", (event, ctx) => {
			context.bind(ctx);
			const sources = {
				flag: pi.getFlag(DEFAULT_FLAG),
				env: deps.env,
				cwd: ctx.cwd,
				globalSettings: deps.globalSettings(),
			};
			const shown = ui.record(() => session.load("restore", true, readDefaultBudget(sources), readSettings(sources)));
			// What was restored names the on-stop command that will run, but pi's UI hides it: its "Reloaded …" line
			// replaces it, and a resumed chat is replayed below it. Show it again once pi has done so.
			const restored = shown.filter((notice) => notice.level === "info");
			if (ctx.hasUI && event.reason !== "new" && restored.length > 0) {
				// pi's reload keeps the old instance's context usable, so only the shutdown below stops this timer.
				restoreNoticeAgain = scheduler.setTimeout(() => {
					restoreNoticeAgain = null;
					for (const notice of restored) ui.notify(notice.message, notice.level);
				}, RELOAD_NOTICE_DELAY_MS);
			}
		});
		// /tree moved to another branch: take that branch's budget and prompts.
		pi.on("session_tree", (_event, ctx) => {
			context.bind(ctx);
			session.load("restore", false);
		});
		// Before every model call (pi awaits this one): count a new prompt, or stop the run before the call is sent; the
		// call carries what the model is to read of its budget, at the end of its messages, never in the session file. A
		// run an extension started is no prompt: the core is told so and counts its calls as steps only.
		pi.on("context", async (event, ctx) => {
			context.bind(ctx);
			const { messages } = event;
			const step = stepOfCall(messages);
			const extensionRun = extensionRunOfCall(messages);
			ui.hold();
			const answer = await session.handle(
				extensionRun === null
					? { type: "modelCall", prompt: promptOfCall(messages), step }
					: { type: "modelCall", prompt: extensionRun, step, startedBy: "extension" },
			);
			// A stopped run's notice is shown once the run has ended, below the prompt it stopped.
			if (!answer.aborted) ui.release();
			return withBudgetNote(event.messages, answer.context, deps.clock.now());
		});
		// A model call was answered: what it used counts, and a budget it used up stops the run before its tools run.
		pi.on("message_end", async (event, ctx) => {
			context.bind(ctx);
			const used = usageOf(event.message);
			if (used) await session.handle({ type: "modelResponse", tokens: used.tokens, cost: used.cost });
		});
		// A tool is about to run: refused once the budget stopped its prompt.
		pi.on("tool_call", async (_event, ctx) => {
			context.bind(ctx);
			const answer = await session.handle({ type: "toolCall", prompt: null });
			return answer.refusal === null ? undefined : { block: true, reason: answer.refusal };
		});
		// The run ended: the answered prompt now shows as used.
		pi.on("agent_end", async (_event, ctx) => {
			context.bind(ctx);
			ui.release();
			await session.handle({ type: "runEnd" });
		});
		// The instance is replaced or pi quits: it never acts again.
		pi.on("session_shutdown", (_event, ctx) => {
			context.bind(ctx);
			try {
				// What a stopped run held back is shown before the instance goes; a context pi made stale shows nothing.
				ui.release();
			} catch {
				// Nothing can be shown on a replaced session: the instance still goes.
			}
			restoreNoticeAgain?.();
			restoreNoticeAgain = null;
			session.dispose();
		});
		pi.registerCommand(
			COMMAND_NAME,
			createTimeboxCommand((args, ctx) => {
				context.bind(ctx);
				return session.command(args);
			}),
		);
	};
}

/** A daily ledger opened at its first use, when the session (and so its id) is known. */
function lazyDailyLedger(sessionId: () => string, open: (sessionId: string) => DailyLedger): DailyLedger {
	let ledger: DailyLedger | null = null;
	const get = (): DailyLedger => {
		ledger ??= open(sessionId());
		return ledger;
	};
	return {
		standings: (budgets) => get().standings(budgets),
		countPrompt: (budgets, limits) => get().countPrompt(budgets, limits),
		addUse: (budgets, use) => get().addUse(budgets, use),
		adjust: (budget, adjustment) => get().adjust(budget, adjustment),
		problem: () => get().problem(),
	};
}

/** pi in its users' words: a daily budget is set in its settings file, or in the project's. */
function piTerms(settingsFile: string): HostTerms {
	return {
		...DEFAULT_TERMS,
		dailySetting: `Set one under the timebox key of ${settingsFile} ("daily": "3h turns:60 cost:10"), or of .pi/settings.json in the project.`,
	};
}
