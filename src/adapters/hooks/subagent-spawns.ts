// A hook's subagent events, matched to the calls of the subagent tool that started them: a call the rules let start
// (or refuse), the subagent that takes it up at its first model call, its tools and later calls under its id, and its
// end where its parent reads its result. The log carries what one hook leaves the next (log-queues.ts).

import { mergeAnswer, type SessionEvent } from "../../core/index.ts";
import { answerEvent, type HookDeps, HookRuntime } from "./hook-runtime.ts";
import { loadState } from "./load.ts";
import { keepSpawn, owe, owedTo, refusedSpawn, refuseSpawn, ruleIdOf, takeSpawn } from "./log-queues.ts";
import { type HookEvent, type HookReply, silentReply } from "./roles.ts";

/**
 * A call of the subagent tool (named by its id) is the start of a subagent, with the task it gives: the rules may
 * refuse it (the session's budget is spent), and the call is denied with the reason, so no subagent starts. Its budget
 * comes with its first model call (SubagentStart), as the call's own hook reaches only the parent. Returns the reply
 * of a refused start, else null.
 */
export async function spawnStart(
	event: HookEvent,
	parent: string | null,
	deps: HookDeps,
	now: number,
): Promise<HookReply | null> {
	if (event.role !== "beforeTool" || event.spawn === null || event.toolUseId === null) return null;
	const state = loadState(deps, now, { running: event.promptId });
	const reply = await answerEvent(deps, now, event.promptId, state, {
		type: "agentStart",
		agent: event.toolUseId,
		parent,
		agentType: event.spawn.agentType,
		task: event.spawn.task,
		contextAtStart: false,
	});
	return reply.refusal === null ? null : reply;
}

/**
 * After the subagent tool's call: a call the rules let through is kept for the subagent that takes it up; one they
 * refused as a tool (its run is wrapping up) started a subagent that never runs, which ends there.
 */
export async function spawnEnd(
	event: HookEvent,
	reply: HookReply,
	agent: string | null,
	deps: HookDeps,
	now: number,
): Promise<void> {
	if (event.spawn === null) return;
	if (reply.refusal === null) {
		keepSpawn(deps.store, { ...event, spawn: event.spawn }, agent, now);
		return;
	}
	if (event.toolUseId === null) return;
	const state = loadState(deps, now, { running: event.promptId });
	await answerEvent(deps, now, event.promptId, state, { type: "agentEnd", agent: event.toolUseId });
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
	const refused = refusedSpawn(deps.store, hostAgent);
	if (refused !== null) return { ...silentReply(), refusal: refused, stop: true };
	const agent = ruleIdOf(deps.store, hostAgent);
	const spawnRefused = await spawnStart(event, agent, deps, now);
	if (spawnRefused !== null) return spawnRefused;
	const state = loadState(deps, now, { running: event.promptId });
	const sessionEvent: SessionEvent =
		event.role === "beforeModelCall"
			? { type: "modelCall", prompt: event.promptId, agent }
			: { type: "toolCall", prompt: event.promptId, agent };
	const hook = new HookRuntime(deps, event.promptId, state);
	const answer = hook.runtime.handle(sessionEvent);
	hook.saveDaily(now);
	const reply = await hook.reply(answer);
	// The rules refuse what a stopped subagent asks for, with the reason: the host ends it there.
	if (answer.stoppedAgents.includes(agent)) return { ...reply, stop: true };
	await spawnEnd(event, reply, agent, deps, now);
	return event.role === "beforeModelCall" && reply.refusal === null
		? { ...reply, context: [...owedTo(deps.store, agent, now), ...reply.context] }
		: reply;
}

/**
 * A subagent starts (its first model call): what the rules say goes into that first request, its budget among it. One
 * whose call the rules did not hear start (the host named no call) starts here: a host cannot refuse it then, so a
 * refusal is what the subagent reads first, and it is ended at whatever it does next.
 */
export async function agentStart(event: HookEvent, hostAgent: string, deps: HookDeps, now: number): Promise<HookReply> {
	const spawn = takeSpawn(deps.store, hostAgent, event.agentType, now);
	const state = loadState(deps, now, { running: event.promptId });
	const hook = new HookRuntime(deps, event.promptId, state);
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
		refuseSpawn(deps.store, agent, started.refusal, now);
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
	const agent = ruleIdOf(deps.store, ended.agent);
	// What it used, where only its end says (its calls were not seen with their usage), counts before its end, and is
	// kept in the log for the session's later hooks.
	const used = ended.tokens === undefined ? null : await subagentUsage(event, agent, ended.tokens, deps, now);
	const state = loadState(deps, now, { running: event.promptId });
	const parent = state.subagents.runs[agent]?.parent ?? null;
	const ending = await answerEvent(deps, now, event.promptId, state, { type: "agentEnd", agent, result: ended.result });
	const reply = used === null ? ending : { ...ending, notices: [...used.notices, ...ending.notices] };
	if (ended.reachesParent || reply.context.length === 0) return reply;
	// The host puts nothing of this reply into the parent's requests: its next model call reads the line.
	owe(deps.store, parent, reply.context, now);
	return { ...reply, context: [] };
}

/** A subagent's tokens as its end reports them: for it and the session now, and in the log for later hooks. */
async function subagentUsage(event: HookEvent, agent: string, tokens: number, deps: HookDeps, now: number) {
	const state = loadState(deps, now, { running: event.promptId });
	const reply = await answerEvent(deps, now, event.promptId, state, { type: "modelResponse", tokens, cost: 0, agent });
	deps.store.appendUsage(`subagent:${agent}`, { tokens }, now);
	return reply;
}
