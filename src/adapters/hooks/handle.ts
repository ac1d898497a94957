// One hook event onto the session's runtime, by the role it plays: the main session's events (main-session.ts) or a
// subagent's (subagent-spawns.ts), answered by the runtime and the one executor, and made the neutral reply a host file
// writes in its JSON. A hook makes one runtime and folds the session's log once; what Claude Code's transcript says the
// model calls used is counted first, through that runtime, so that the fold holds it. No rule lives here.

import { randomUUID } from "node:crypto";
import { sessionLog } from "../../core/index.ts";
import type { ReadAheadDailyLedger } from "../team/read-ahead.ts";
import { type HookDeps, HookRuntime } from "./hook-runtime.ts";
import { prompt, runEnd, sessionStart, toolBoundary } from "./main-session.ts";
import { modelRequest } from "./model-request.ts";
import { type HookEvent, type HookReply, silentReply } from "./roles.ts";
import { agentEnd, agentStart, subagentBoundary } from "./subagent-spawns.ts";
import { countUsage } from "./usage.ts";

export type { HookDeps } from "./hook-runtime.ts";

/** Answers one hook event. Events Timebox does not use get no reply. */
export async function handleHook(hostEvent: HookEvent, deps: HookDeps): Promise<HookReply | null> {
	const now = deps.clock.now();
	const hook = HookRuntime.of(deps);
	// The log, read first: a hook that read far past its kept summary (or found none) keeps a new one for the next hooks,
	// before it writes anything.
	hook.write(sessionLog.keepFold(deps.store.foldRead()));
	const event = deps.unnamedPrompts && hostEvent.promptId === null ? namePrompt(hostEvent, deps) : hostEvent;
	const counted =
		event.transcriptPath !== null && deps.readUsage
			? countUsage(deps.readUsage, event.transcriptPath, deps.store, now)
			: null;
	if (counted !== null) hook.write(counted.effects);
	const usageNote = counted?.notice ?? null;
	let reply = await replyTo(event, hook, now);
	if (usageNote !== null) {
		reply ??= silentReply();
		reply.notices.push(usageNote);
	}
	return settleDay(reply, hook, readAheadOf(deps));
}

/** The daily ledger of a hook where it is read ahead (a team's); null where it is called as it goes. */
export function readAheadOf(deps: Pick<HookDeps, "daily">): ReadAheadDailyLedger | null {
	const ledger = deps.daily?.ledger;
	return ledger !== undefined && "settle" in ledger ? (ledger as ReadAheadDailyLedger) : null;
}

/**
 * A hook's reply once what its event wrote to the team's day was sent: a prompt the store refused there (another
 * machine took the day's last turn since the day was read) is refused, in the team's words, and the rules, which
 * counted it, are told that it never ran.
 */
async function settleDay(
	reply: HookReply | null,
	hook: HookRuntime,
	ledger: ReadAheadDailyLedger | null,
): Promise<HookReply | null> {
	if (ledger === null || (await ledger.settle()) || reply === null) return reply;
	// Only a new prompt's count can be taken, and the rules counted it as their latest.
	hook.handle({ type: "promptRefused" });
	const refusal = ledger.takenRefusal();
	// What the prompt's answer said comes first (a problem it took, a stop the watcher kept): it is said nowhere else.
	return { notices: [...reply.notices, refusal], context: [], refusal, stop: true, answered: reply.answered };
}

/** A host that names no prompt: a new prompt gets an id now; any other event belongs to the session's latest prompt. */
function namePrompt(event: HookEvent, deps: Pick<HookDeps, "store">): HookEvent {
	const promptId = event.role === "prompt" ? `unnamed-${randomUUID()}` : sessionLog.latestPrompt(deps.store.lines());
	return { ...event, promptId };
}

async function replyTo(event: HookEvent, hook: HookRuntime, now: number): Promise<HookReply | null> {
	switch (event.role) {
		case "sessionStart":
			return sessionStart(event, hook);
		case "prompt":
			// A subagent's task reaches it as a prompt on some hosts: it is no prompt of the user's, and its first model
			// call was counted at its start.
			return event.agent === null ? prompt(event, hook, now) : null;
		case "beforeTool":
		case "beforeModelCall":
			return event.agent === null ? toolBoundary(event, hook, now) : subagentBoundary(event, event.agent, hook, now);
		case "agentStart":
			return event.agent === null ? null : agentStart(event, event.agent, hook, now);
		case "agentEnd":
			return event.ended === null ? null : agentEnd(event, event.ended, hook, now);
		case "modelRequest":
			// Only Gemini CLI's hooks may change a request, and they see no subagent's.
			return hook.deps.transcriptSize ? modelRequest(event, hook, now, hook.deps.transcriptSize) : null;
		case "runEnd":
			return runEnd(event, hook, now);
		default:
			return null;
	}
}
