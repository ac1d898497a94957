// One hook event onto the session's runtime: the session is loaded from its log, the event plays its role (a prompt, a
// tool, the next model call, the end of a run), the one executor carries the effects out, and what it answers becomes
// the neutral reply a host file writes in its JSON. A subagent's events (where the host names it) are its own: its start
// with its first model call, its tools and later calls under its id, and its end where its parent reads its result.
// No rule lives here.

import { randomUUID } from "node:crypto";
import {
	DEFAULT_ENV,
	foldHistory,
	parseCommand,
	type SessionEvent,
	type SessionState,
	sessionReport,
	writeReportPage,
} from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";
import { type HookDeps, HookRuntime } from "./hook-runtime.ts";
import { type LoadOptions, ledgerView, loadEvent, loadState } from "./load.ts";
import { type HookEvent, type HookReply, silentReply } from "./roles.ts";
import { countUsage } from "./usage.ts";

export type { HookDeps } from "./hook-runtime.ts";

/** `/timebox statusline`: the one word that is the hook adapter's own, not a budget command. */
const STATUS_LINE_WORD = "statusline";

/** Answers one hook event. Events Timebox does not use get no reply. */
export async function handleHook(hostEvent: HookEvent, deps: HookDeps): Promise<HookReply | null> {
	const now = deps.clock.now();
	const event = deps.unnamedPrompts && hostEvent.promptId === null ? namePrompt(hostEvent, deps) : hostEvent;
	const usageNote =
		event.transcriptPath !== null && deps.readUsage
			? countUsage(deps.readUsage, event.transcriptPath, deps.store, deps.daily, now)
			: null;
	const reply = await replyTo(event, deps, now);
	if (usageNote === null) return reply;
	const withNote = reply ?? silentReply();
	withNote.notices.push(usageNote);
	return withNote;
}

/** A host that names no prompt: a new prompt gets an id now; any other event belongs to the session's latest prompt. */
function namePrompt(event: HookEvent, deps: Pick<HookDeps, "store">): HookEvent {
	const promptId = event.role === "prompt" ? `unnamed-${randomUUID()}` : foldHistory(deps.store.history()).lastPrompt;
	return { ...event, promptId };
}

async function replyTo(event: HookEvent, deps: HookDeps, now: number): Promise<HookReply | null> {
	switch (event.role) {
		case "sessionStart":
			return sessionStart(event, deps);
		case "prompt":
			// A subagent's task reaches it as a prompt on some hosts: it is no prompt of the user's, and its first model
			// call was counted at its start.
			return event.agent === null ? prompt(event, deps, now) : null;
		case "beforeTool":
		case "beforeModelCall":
			return event.agent === null ? toolBoundary(event, deps, now) : subagentBoundary(event, event.agent, deps, now);
		case "agentStart":
			return event.agent === null ? null : agentStart(event, event.agent, deps, now);
		case "agentEnd":
			return event.ended === null ? null : agentEnd(event, event.ended, deps, now);
		case "runEnd": {
			// The run ended (a watcher leaves a running run to the hooks); one that was wrapping up after the stop is
			// over, and the on-stop command runs.
			if (event.promptId !== null) deps.store.appendLine({ kind: "ended", promptId: event.promptId, at: now });
			const state = loadState(deps, now, { running: event.promptId });
			return answerEvent(deps, now, event.promptId, state, { type: "runEnd" });
		}
		default:
			return null;
	}
}

async function sessionStart(event: HookEvent, deps: HookDeps): Promise<HookReply | null> {
	if (event.source === "compact") return null;
	const text = deps.defaultBudget?.trim();
	const options: LoadOptions = { announce: event.source === "resume" };
	if (text) options.defaultBudget = { text, source: DEFAULT_ENV, newBudgetId: newBudgetId(deps) };
	const hook = new HookRuntime(deps, null);
	const reply = await hook.reply(hook.runtime.dispatch(loadEvent(deps, options)));
	if (deps.dailyWarning) reply.notices.push(deps.dailyWarning);
	return reply.notices.length > 0 ? reply : null;
}

async function prompt(event: HookEvent, deps: HookDeps, now: number): Promise<HookReply> {
	const untold = untoldNotices(deps.store, now);
	const reply = await answerPrompt(event, deps, now);
	if (untold.length === 0) return reply;
	// What a watcher could tell nobody comes first.
	reply.notices.unshift(...untold);
	return reply;
}

async function answerPrompt(event: HookEvent, deps: HookDeps, now: number): Promise<HookReply> {
	// A prompt, counted once per prompt id: a message typed mid-turn shares the running prompt's id. Versions before
	// prompt ids count every submission.
	const promptId = event.promptId ?? `unnamed-${randomUUID()}`;
	if (event.command !== null) return command(event.command, deps, now, promptId);
	const state = loadState(deps, now, { running: promptId });
	// The prompt's model call comes next: a new prompt is counted, or stopped when the prompts are used up. A message
	// typed mid-turn joins the running prompt's next model call: it is checked on time, and refused once that prompt is
	// stopped.
	const reply = await answerEvent(deps, now, promptId, state, {
		type: "modelCall",
		prompt: promptId,
		step: deps.store.stepOf(promptId),
	});
	// A prompt is recorded once it runs: a refused prompt never reached the model and counts for nothing.
	if (reply.refusal === null && promptId !== state.lastPrompt) deps.store.appendPrompt(promptId, now);
	return reply;
}

/** A `/timebox` line: answered here, and it never reaches the model. */
async function command(args: string, deps: HookDeps, now: number, promptId: string): Promise<HookReply> {
	if (args.trim().toLowerCase() === STATUS_LINE_WORD) {
		const said = deps.setupStatusLine
			? deps.setupStatusLine()
			: "Timebox: run the plugin's script with setup-statusline to set up the status line.";
		return { ...silentReply(), notices: [said], answered: true };
	}
	const page =
		parseCommand(args).kind === "reportPage"
			? await writeReportPage(deps.reportPage, {
					history: () => deps.store.history(),
					ledger: (budget) => ledgerView(budget, deps),
					now,
					terms: deps.terms,
					standings: () => (deps.daily ? deps.daily.ledger.standings(deps.daily.budgets) : []),
				})
			: undefined;
	const hook = new HookRuntime(deps, null, loadState(deps, now, { running: promptId }), deps.daily);
	const answered = hook.runtime.command(args, {
		newBudgetId: newBudgetId(deps),
		// The hooks are told nothing of what a session costs: a cost limit is set, and said to be unenforceable.
		cost: "host cannot see",
		...(deps.readUsage ? {} : { tokensSeen: false as const }),
		report: () => sessionReport(deps.store.history(), (budget) => ledgerView(budget, deps), now, deps.terms),
		...(page === undefined ? {} : { reportPage: page }),
	});
	return { ...(await hook.reply(answered)), answered: true };
}

/**
 * A tool boundary inside the prompt's run. Before a tool: the tool call. Before the next model call of the latest
 * prompt: that model call, which carries what the model is to read.
 */
async function toolBoundary(event: HookEvent, deps: HookDeps, now: number): Promise<HookReply | null> {
	const refused = await spawnStart(event, null, deps, now);
	if (refused !== null) return refused;
	const state = loadState(deps, now, { running: event.promptId });
	const promptKey = event.promptId ?? state.lastPrompt;
	const nextCall = event.role === "beforeModelCall" && promptKey === state.lastPrompt;
	if (nextCall && promptKey !== null && state.standing) deps.store.appendCall(promptKey, now);
	const sessionEvent: SessionEvent = nextCall
		? {
				type: "modelCall",
				prompt: event.promptId,
				...(promptKey === null ? {} : { step: deps.store.stepOf(promptKey) }),
			}
		: { type: "toolCall", prompt: event.promptId };
	const reply = await answerEvent(deps, now, event.promptId, state, sessionEvent);
	await spawnEnd(event, reply, null, deps, now);
	return nextCall && reply.refusal === null
		? { ...reply, context: [...owedTo(deps, null, now), ...reply.context] }
		: reply;
}

/**
 * A tool boundary inside a subagent: its tool, or its next model call, which carries what it is to read. A subagent the
 * rules stop is ended there (its parent goes on with what it answered).
 */
async function subagentBoundary(event: HookEvent, hostAgent: string, deps: HookDeps, now: number): Promise<HookReply> {
	const refused = deps.store.lines().find((line) => line.kind === "spawn-refused" && line.agent === hostAgent);
	if (refused?.kind === "spawn-refused") return { ...silentReply(), refusal: refused.reason, stop: true };
	const agent = ruleIdOf(deps, hostAgent);
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
		? { ...reply, context: [...owedTo(deps, agent, now), ...reply.context] }
		: reply;
}

/**
 * A call of the subagent tool (named by its id) is the start of a subagent, with the task it gives: the rules may
 * refuse it (the session's budget is spent), and the call is denied with the reason, so no subagent starts. Its budget
 * comes with its first model call (SubagentStart), as the call's own hook reaches only the parent. Returns the reply
 * of a refused start, else null.
 */
async function spawnStart(
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
async function spawnEnd(
	event: HookEvent,
	reply: HookReply,
	agent: string | null,
	deps: HookDeps,
	now: number,
): Promise<void> {
	if (event.spawn === null) return;
	if (reply.refusal === null) {
		deps.store.appendLine({ kind: "spawn", id: event.toolUseId, agent, ...event.spawn, at: now });
		return;
	}
	if (event.toolUseId === null) return;
	const state = loadState(deps, now, { running: event.promptId });
	await answerEvent(deps, now, event.promptId, state, { type: "agentEnd", agent: event.toolUseId });
}

/** The id the rules know a subagent by: its tool call's, where its start took one up; else the host's own. */
function ruleIdOf(deps: HookDeps, hostAgent: string): string {
	const lines = deps.store.lines();
	const taken = lines.find((line) => line.kind === "spawn-taken" && line.agent === hostAgent);
	if (taken?.kind !== "spawn-taken") return hostAgent;
	const spawn = lines.flatMap((line) => (line.kind === "spawn" ? [line] : []))[taken.index];
	return spawn?.id ?? hostAgent;
}

/**
 * A subagent starts (its first model call): what the rules say goes into that first request, its budget among it. One
 * whose call the rules did not hear start (the host named no call) starts here: a host cannot refuse it then, so a
 * refusal is what the subagent reads first, and it is ended at whatever it does next.
 */
async function agentStart(event: HookEvent, hostAgent: string, deps: HookDeps, now: number): Promise<HookReply> {
	const spawn = takeSpawn(deps, hostAgent, event.agentType, now);
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
		deps.store.appendLine({ kind: "spawn-refused", agent, reason: started.refusal, at: now });
		hook.saveDaily(now);
		const reply = await hook.reply(started);
		return { ...reply, context: [started.refusal, ...reply.context], refusal: null };
	}
	const first = hook.runtime.handle({ type: "modelCall", prompt: event.promptId, agent });
	hook.saveDaily(now);
	return hook.reply({
		...first,
		notices: [...started.notices, ...first.notices],
		context: [...started.context, ...first.context],
		stoppedAgents: [...started.stoppedAgents, ...first.stoppedAgents],
	});
}

/** A subagent's result reaches its parent: the rules hear its end, and the line its parent is to read goes with it. */
async function agentEnd(
	event: HookEvent,
	ended: { agent: string; result: string; tokens?: number; reachesParent: boolean },
	deps: HookDeps,
	now: number,
): Promise<HookReply> {
	const agent = ruleIdOf(deps, ended.agent);
	// What it used, where only its end says (its calls were not seen with their usage), counts before its end, and is
	// kept in the log for the session's later hooks.
	const used = ended.tokens === undefined ? null : await subagentUsage(event, agent, ended.tokens, deps, now);
	const state = loadState(deps, now, { running: event.promptId });
	const parent = state.subagents.runs[agent]?.parent ?? null;
	const ending = await answerEvent(deps, now, event.promptId, state, { type: "agentEnd", agent, result: ended.result });
	const reply = used === null ? ending : { ...ending, notices: [...used.notices, ...ending.notices] };
	if (ended.reachesParent || reply.context.length === 0) return reply;
	// The host puts nothing of this reply into the parent's requests: its next model call reads the line.
	deps.store.appendLine({ kind: "owed", to: parent, lines: reply.context, at: now });
	return { ...reply, context: [] };
}

/** A subagent's tokens as its end reports them: for it and the session now, and in the log for later hooks. */
async function subagentUsage(event: HookEvent, agent: string, tokens: number, deps: HookDeps, now: number) {
	const state = loadState(deps, now, { running: event.promptId });
	const reply = await answerEvent(deps, now, event.promptId, state, { type: "modelResponse", tokens, cost: 0, agent });
	deps.store.appendUsage(`subagent:${agent}`, { tokens }, now);
	return reply;
}

/** What an agent is still to read of the subagents it started (see agentEnd), given once, with its next model call. */
function owedTo(deps: HookDeps, to: string | null, now: number): string[] {
	const lines = deps.store.lines();
	const paid = lines.filter((line) => line.kind === "paid" && line.to === to).length;
	const owed = lines.flatMap((line) => (line.kind === "owed" && line.to === to ? [line.lines] : [])).slice(paid);
	for (const _ of owed) deps.store.appendLine({ kind: "paid", to, at: now });
	return owed.flat();
}

/**
 * The call of the subagent tool a starting subagent took up: the oldest not taken yet of its type (else of any type).
 * Null where the log holds none (the call came before Timebox had anything to do in the session).
 */
function takeSpawn(
	deps: HookDeps,
	agent: string,
	agentType: string | null,
	now: number,
): { id: string | null; agent: string | null; agentType: string; task: string } | null {
	const lines = deps.store.lines();
	const taken = new Set(lines.flatMap((line) => (line.kind === "spawn-taken" ? [line.index] : [])));
	const open = lines
		.flatMap((line) => (line.kind === "spawn" ? [line] : []))
		.map((line, index) => ({ line, index }))
		.filter(({ index }) => !taken.has(index));
	const found = open.find(({ line }) => line.agentType === agentType) ?? open[0];
	if (!found) return null;
	deps.store.appendLine({ kind: "spawn-taken", index: found.index, agent, at: now });
	return found.line;
}

/**
 * Feeds one event of a prompt's run (null: of no named prompt, which the daily budgets do not hear) to the daily budgets
 * and the session's rules, and replies with what they say.
 */
export async function answerEvent(
	deps: HookDeps,
	now: number,
	promptId: string | null,
	state: SessionState,
	event: SessionEvent,
): Promise<HookReply> {
	const hook = new HookRuntime(deps, promptId, state);
	const answer = hook.runtime.handle(event);
	hook.saveDaily(now);
	return hook.reply(answer);
}

function newBudgetId(deps: Pick<HookDeps, "newBudgetId">): string {
	return (deps.newBudgetId ?? randomUUID)();
}

/** What a watcher told nobody yet (the user was idle): shown with the next prompt, once. */
function untoldNotices(store: SessionLog, now: number): string[] {
	const lines = store.lines();
	const told = lines.filter((line) => line.kind === "told").length;
	const untold = lines.flatMap((line) => (line.kind === "untold" ? [line.notices] : [])).slice(told);
	if (untold.length === 0) return [];
	for (const _ of untold) store.appendLine({ kind: "told", at: now });
	return untold.flat();
}
