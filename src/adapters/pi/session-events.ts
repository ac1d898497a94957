// pi's session events: a session loaded (its budget restored, or the default budget given), moved to another branch
// of its tree, or shut down.

import {
	isSuggestedDefault,
	RELOAD_NOTICE_DELAY_MS,
	type ResolvedDefault,
	resolveDefault,
	type SettingSources,
	saysOnStopStarted,
} from "../../core/index.ts";
import { DEFAULT_FLAG, readDefaultBudget, readSettings } from "./defaults.ts";
import { readWith } from "./session-ports.ts";
import { PARENT_SOURCE } from "./subagents.ts";
import type { PiWiring } from "./wiring.ts";

export function registerSessionEvents(w: PiWiring): void {
	const { pi, deps, context, ui, self, session } = w;
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
		// A subagent's process takes no default budget: its budget is the one its parent named. A default of `suggested`
		// is the budget suggested from the project's past sessions, read first (pi awaits the session's start).
		const given = self === null ? readDefaultBudget(sources) : null;
		if (given !== null && isSuggestedDefault(given.text)) {
			const read = deps.projectHistory && readWith(deps.projectHistory, context);
			return resolveDefault(given, read).then((resolved) => start(event, ctx, resolved, readSettings(sources)));
		}
		start(event, ctx, given, readSettings(sources));
	});
	/** The session's start, once its default budget is known. */
	const start = (
		event: { reason: string },
		ctx: { hasUI: boolean },
		given: ResolvedDefault | null,
		settings: SettingSources,
	): void => {
		const shown = ui.record(() =>
			self === null
				? session.onSessionStart("restore", true, given, settings)
				: session.onSessionStart("restore", false, null, {
						...settings,
						subagents: self.budget === null ? null : { value: self.budget, source: PARENT_SOURCE },
					}),
		);
		try {
			w.daily?.open();
		} catch (error) {
			// The rules' first daily event tries again, and says nothing more of it.
			session.notifyProblem("daily budget", error);
		}
		if (self !== null) {
			void session.handle({
				type: "agentStart",
				agent: self.agent,
				parent: null,
				agentType: self.agentType,
				task: self.task,
				contextAtStart: false,
			});
		}
		// What was restored names the on-stop command that will run, but pi's UI hides it: its "Reloaded …" line
		// replaces it, and a resumed chat is replayed below it. Show it again once pi has done so.
		// Only what was restored: an on-stop command started late at this load was started once, and is said once.
		const restored = shown.filter((notice) => notice.level === "info" && !saysOnStopStarted(notice.message));
		if (ctx.hasUI && event.reason !== "new" && restored.length > 0) {
			// pi's reload keeps the old instance's context usable, so only the shutdown below stops this timer.
			w.restoreNoticeAgain = w.scheduler.setTimeout(() => {
				w.restoreNoticeAgain = null;
				for (const notice of restored) ui.notify(notice.message, notice.level);
			}, RELOAD_NOTICE_DELAY_MS);
		}
	};
	// /tree moved to another branch: take that branch's budget and prompts.
	pi.on("session_tree", (_event, ctx) => {
		context.bind(ctx);
		session.onSessionStart("restore", false);
	});
	// The instance is replaced or pi quits: it never acts again. Its run, if one is under way, ends here for it: pi
	// disposes the session after this event, which aborts its agent and sends this instance no end of the run (oh-my-pi
	// sends the event, naming no reason, only when it disposes the session); the instance that follows a reload
	// restores a spent budget, not the time to wrap up.
	pi.on("session_shutdown", (_event, ctx) => {
		context.bind(ctx);
		try {
			// What a stopped run held back is shown before the instance goes; a context pi made stale shows nothing.
			ui.release();
		} catch {
			// Nothing can be shown on a replaced session: the instance still goes.
		}
		w.restoreNoticeAgain?.();
		w.restoreNoticeAgain = null;
		session.onShutdown();
	});
}
