// A hook's subagent events, matched to the calls of the subagent tool that started them: a call the rules let start
// (or refuse), the subagent that takes it up at its first model call, its tools and later calls under its id, and its
// end where its parent reads its result. The log carries what one hook leaves the next (the core's sessionLog rules say
// what, the executor writes it). Each hook folds the session once: one runtime hears all the events it plays.

import { type Answer, mergeAnswer, type SessionEvent, sessionLog } from "../../core/index.ts";
import { type HookDeps, HookRuntime, takeFromLog } from "./hook-runtime.ts";
import { type HookEvent, type HookReply, silentReply } from "./roles.ts";

/**
 * A call of the subagent tool (named by its id) is the start of a subagent, with the task it gives: the rules may
 * refuse it (the session's budget is spent), and the call is denied with the reason, so no subagent starts. Its budget
 * comes with its first model call (SubagentStart), as the call's own hook reaches only the parent. Returns the reply
 * of a refused start, else null (the hook goes on with the tool call, on the same runtime).
 */
export async function spawnStart(
	event: HookEvent,
	parent: string | null,
	hook: HookRuntime,
	now: number,
): Promise<HookReply | null> {
	if (event.role !== "beforeTool" || event.spawn === null || event.toolUseId === null) return null;
	const answer = hook.runtime.handle({
		type: "agentStart",
		agent: event.toolUseId,
		parent,
		agentType: event.spawn.agentType,
		task: event.spawn.task,
		contextAtStart: false,
	});
	if (answer.refusal === null) return null;
	hook.saveDaily(now);
	return hook.reply(answer);
}

/**
 * After the subagent tool's call: a call the rules let through is kept for the subagent that takes it up; one they
 * refused as a tool (its run is wrapping up) started a subagent that never runs, which ends there.
 */
export function spawnEnd(event: HookEvent, answer: Answer, agent: string | null, hook: HookRuntime, now: number): void {
	if (event.spawn === null) return;
	if (answer.refusal === null) {
		hook.write(sessionLog.keepSpawn(event.toolUseId, agent, event.spawn, now));
		return;
	}
	if (event.toolUseId !== null) hook.runtime.handle({ type: "agentEnd", agent: event.toolUseId });
}

/**
 * A tool boundary inside a subagent: its tool, or its next model call, which carries what it is to read. A subagent the
 * rules stop is ended there (its parent goes on with what it answered).
 */
export async function subagentBoundary(
	event: HookEvent,
	hostAgent: string,
	deps: HookDeps,
	now: number,
): Promise<HookReply> {
	const refused = sessionLog.refusedSpawn(deps.store.lines(), hostAgent);
	if (refused !== null) return { ...silentReply(), refusal: refused, stop: true };
	const agent = sessionLog.ruleIdOf(deps.store.lines(), hostAgent);
	const hook = HookRuntime.load(deps, event.promptId, now, { running: event.promptId });
	const spawnRefused = await spawnStart(event, agent, hook, now);
	if (spawnRefused !== null) return spawnRefused;
	const sessionEvent: SessionEvent =
		event.role === "beforeModelCall"
			? { type: "modelCall", prompt: event.promptId, agent }
			: toolCallEvent(event, agent, hook, event.promptId, now);
	const answer = hook.runtime.handle(sessionEvent);
	// The rules refuse what a stopped subagent asks for, with the reason: the host ends it there.
	const stopped = answer.stoppedAgents.includes(agent);
	if (!stopped) spawnEnd(event, answer, agent, hook, now);
	hook.saveDaily(now);
	const reply = await hook.reply(answer);
	if (stopped) return { ...reply, stop: true };
	return event.role === "beforeModelCall" && reply.refusal === null
		? { ...reply, context: [...hook.take(sessionLog.owedTo(deps.store.lines(), agent, now)), ...reply.context] }
		: reply;
}

/**
 * A tool call of the main agent (`agent` null) or a subagent, with its tool and input; under a loop guard, with the
 * keys of the calls its run asked for before, from the log (which keeps this one for the next hooks).
 */
export function toolCallEvent(
	event: HookEvent,
	agent: string | null,
	hook: HookRuntime,
	promptId: string | null,
	now: number,
): SessionEvent {
	const call = event.call;
	const own = agent === null ? {} : { agent };
	if (call === null) return { type: "toolCall", prompt: event.promptId, ...own };
	const lines = hook.deps.store.lines();
	const earlier = hook.take(sessionLog.loopCalls(lines, hook.runtime.state, promptId, agent, call, now));
	return { type: "toolCall", prompt: event.promptId, ...own, call, ...(earlier === undefined ? {} : { earlier }) };
}

/**
 * A subagent starts (its first model call): what the rules say goes into that first request, its budget among it. One
 * whose call the rules did not hear start (the host named no call) starts here: a host cannot refuse it then, so a
 * refusal is what the subagent reads first, and it is ended at whatever it does next.
 */
export async function agentStart(event: HookEvent, hostAgent: string, deps: HookDeps, now: number): Promise<HookReply> {
	const spawn = takeFromLog(deps, sessionLog.takeSpawn(deps.store.lines(), hostAgent, event.agentType, now));
	const hook = HookRuntime.load(deps, event.promptId, now, { running: event.promptId });
	if (spawn?.id) {
		const first = hook.runtime.handle({ type: "modelCall", prompt: event.promptId, agent: spawn.id });
		hook.saveDaily(now);
		return hook.reply(first);
	}
	const agent = hostAgent;
	const started = hook.runtime.handle({
		type: "agentStart",
		agent,
		parent: spawn?.agent ?? null,
		agentType: event.agentType ?? spawn?.agentType ?? "",
		task: spawn?.task ?? "",
	});
	if (started.refusal !== null) {
		hook.write(sessionLog.refuseSpawn(agent, started.refusal, now));
		hook.saveDaily(now);
		const reply = await hook.reply(started);
		return { ...reply, context: [started.refusal, ...reply.context], refusal: null };
	}
	const first = hook.runtime.handle({ type: "modelCall", prompt: event.promptId, agent });
	hook.saveDaily(now);
	return hook.reply(mergeAnswer(started, first));
}

/** A subagent's result reaches its parent: the rules hear its end, and the line its parent is to read goes with it. */
export async function agentEnd(
	event: HookEvent,
	ended: { agent: string; result: string; tokens?: number; reachesParent: boolean },
	deps: HookDeps,
	now: number,
): Promise<HookReply> {
	const agent = sessionLog.ruleIdOf(deps.store.lines(), ended.agent);
	const hook = HookRuntime.load(deps, event.promptId, now, { running: event.promptId });
	// What it used, where only its end says (its calls were not seen with their usage), counts before its end, and is
	// kept in the log for the session's later hooks.
	const used = ended.tokens === undefined ? null : subagentUsage(hook, agent, ended.tokens);
	const parent = hook.runtime.state.subagents.runs[agent]?.parent ?? null;
	const ending = hook.runtime.handle({ type: "agentEnd", agent, result: ended.result });
	hook.saveDaily(now);
	const reply = await hook.reply(used === null ? ending : mergeAnswer(used, ending));
	if (ended.reachesParent || reply.context.length === 0) return reply;
	// The host puts nothing of this reply into the parent's requests: its next model call reads the line.
	hook.write(sessionLog.owe(parent, reply.context, now));
	return { ...reply, context: [] };
}

/**
 * A subagent's tokens as its end reports them: for it and the session now, and kept by the rules for later hooks (a
 * hook host sees no cost).
 */
function subagentUsage(hook: HookRuntime, agent: string, tokens: number): Answer {
	return hook.runtime.handle({
		type: "modelResponse",
		tokens,
		cost: 0,
		agent,
		responseId: `subagent:${agent}`,
		costSeen: false,
	});
}
