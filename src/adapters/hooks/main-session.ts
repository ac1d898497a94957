// A hook's events of the main session, each top to bottom: its start (the budget loaded, a default set), a prompt (a
// `/timebox` line answered here, or the prompt's first model call, with what a watcher could tell nobody first), a
// tool boundary (a tool, or the next model call with what the model is to read), the end of its run. A call of the
// subagent tool is a subagent's start first (subagent-spawns.ts). Each runs on the hook's one runtime, and folds the
// session once.

import { randomUUID } from "node:crypto";
import {
	DEFAULT_ENV,
	parseCommand,
	readSuggestion,
	resolveDefault,
	type SessionEvent,
	STATUS_LINE_SETUP_HINT,
	sessionLog,
	sessionReport,
	teamOfPage,
	writeReportPage,
} from "../../core/index.ts";
import type { HookRuntime } from "./hook-runtime.ts";
import { newBudgetId } from "./hook-runtime.ts";
import { type LoadOptions, ledgerView, loadEvent } from "./load.ts";
import { type HookEvent, type HookReply, silentReply } from "./roles.ts";
import { spawnEnd, spawnStart, toolCallEvent } from "./subagent-spawns.ts";

/** `/timebox statusline`: the one word that is the hook adapter's own, not a budget command. */
const STATUS_LINE_WORD = "statusline";

export async function sessionStart(event: HookEvent, hook: HookRuntime): Promise<HookReply | null> {
	if (event.source === "compact") return null;
	const reply = await startSession(hook, event.source === "resume");
	reply.notices.push(...(hook.deps.daily?.unreadable ?? []));
	return reply.notices.length > 0 ? reply : null;
}

/**
 * The session's load, carried out: the default budget starts in a session that never had a budget (for `suggested`,
 * the budget suggested from the project's past sessions, or why there is none).
 */
async function startSession(hook: HookRuntime, announce: boolean): Promise<HookReply> {
	const deps = hook.deps;
	const text = deps.defaultBudget?.trim();
	const options: LoadOptions = { announce };
	const given = text ? await resolveDefault({ text, source: DEFAULT_ENV }, deps.projectHistory) : null;
	if (given) options.defaultBudget = { ...given, newBudgetId: newBudgetId(deps) };
	return hook.reply(hook.start(loadEvent(deps, options)));
}

export async function prompt(event: HookEvent, hook: HookRuntime, now: number): Promise<HookReply> {
	const started = await defaultAtFirstPrompt(hook);
	const untold = hook.take(sessionLog.untoldNotices(hook.deps.store.lines(), now));
	const reply = await answerPrompt(event, hook, now);
	// What the default budget's start says, and what a watcher could tell nobody, come first.
	const first = [...started, ...untold];
	if (first.length > 0) reply.notices.unshift(...first);
	return reply;
}

/**
 * A default budget in a session whose log is empty: its start ran no hook script (on Codex the gate leaves a default
 * budget to the session's first prompt, which spares a Node start per session), so the budget starts now, before the
 * prompt is answered, and what its start says comes with the prompt's reply (the reply of the prompt says it).
 */
async function defaultAtFirstPrompt(hook: HookRuntime): Promise<string[]> {
	const deps = hook.deps;
	if (!deps.defaultBudget?.trim() || !deps.store.empty()) return [];
	const { notices } = await startSession(hook, false);
	return notices;
}

async function answerPrompt(event: HookEvent, hook: HookRuntime, now: number): Promise<HookReply> {
	// A prompt, counted once per prompt id: a message typed mid-turn shares the running prompt's id. Versions before
	// prompt ids count every submission.
	const promptId = event.promptId ?? `unnamed-${randomUUID()}`;
	if (event.command !== null) return command(event.command, hook, now, promptId);
	hook.load(now, { running: promptId });
	// The prompt's model call comes next: a new prompt is counted, or stopped when the prompts are used up. A message
	// typed mid-turn joins the running prompt's next model call: it is checked on time, and refused once that prompt is
	// stopped.
	// The rules keep the prompt once it runs (recordPrompt).
	const answer = hook.handle({ type: "modelCall", prompt: promptId, step: hook.deps.store.stepOf(promptId) });
	hook.saveDaily(now);
	return hook.reply(answer);
}

/** A `/timebox` line: answered here, and it never reaches the model. */
async function command(args: string, hook: HookRuntime, now: number, promptId: string): Promise<HookReply> {
	const deps = hook.deps;
	if (args.trim().toLowerCase() === STATUS_LINE_WORD) {
		const said = deps.setupStatusLine ? deps.setupStatusLine() : STATUS_LINE_SETUP_HINT;
		return { ...silentReply(), notices: [said], answered: true };
	}
	const kind = parseCommand(args).kind;
	const suggestion = kind === "suggest" ? await readSuggestion(deps.projectHistory) : undefined;
	const page =
		kind === "reportPage"
			? await writeReportPage(deps.reportPage, {
					history: () => deps.store.history(),
					ledger: (budget) => ledgerView(budget, deps),
					now,
					terms: deps.terms,
					standings: () => (deps.daily ? deps.daily.ledger.standings(deps.daily.budgets) : []),
					team: () => teamOfPage(deps.daily?.ledger),
				})
			: undefined;
	hook.load(now, { running: promptId });
	const answered = hook.runtime.command(args, {
		newBudgetId: newBudgetId(deps),
		// The hooks are told nothing of what a session costs: a cost limit is set, and said to be unenforceable.
		cost: "host cannot see",
		...(deps.readUsage ? {} : { tokensSeen: false as const }),
		report: () => sessionReport(deps.store.history(), (budget) => ledgerView(budget, deps), now, deps.terms),
		...(page === undefined ? {} : { reportPage: page }),
		...(suggestion === undefined ? {} : { suggestion }),
	});
	return { ...(await hook.reply(answered)), answered: true };
}

/**
 * A tool boundary inside the prompt's run. Before a tool: the tool call. Before the next model call of the latest
 * prompt: that model call, which carries what the model is to read.
 */
export async function toolBoundary(event: HookEvent, hook: HookRuntime, now: number): Promise<HookReply | null> {
	const deps = hook.deps;
	// The session, folded once for the hook: a call of the subagent tool is a subagent's start first, on the same runtime.
	const state = hook.load(now, { running: event.promptId });
	const refused = await spawnStart(event, null, hook, now);
	if (refused !== null) return refused;
	const promptKey = event.promptId ?? state.lastPrompt;
	const nextCall = event.role === "beforeModelCall" && promptKey === state.lastPrompt;
	if (nextCall) hook.write(sessionLog.nextCallLines(state, promptKey, now));
	const sessionEvent: SessionEvent = nextCall
		? {
				type: "modelCall",
				prompt: event.promptId,
				...(promptKey === null ? {} : { step: deps.store.stepOf(promptKey) }),
			}
		: toolCallEvent(event, null, hook, promptKey, now);
	const answer = hook.handle(sessionEvent);
	spawnEnd(event, answer, null, hook, now);
	hook.saveDaily(now);
	const reply = await hook.reply(answer);
	return nextCall && reply.refusal === null
		? { ...reply, context: [...hook.take(sessionLog.owedTo(deps.store.lines(), null, now)), ...reply.context] }
		: reply;
}

/** The run ended (a watcher leaves a running run to the hooks); one that was wrapping up after the stop is over, and
 * the on-stop command runs. */
export async function runEnd(event: HookEvent, hook: HookRuntime, now: number): Promise<HookReply> {
	hook.write(sessionLog.runEndedLines(event.promptId, now));
	hook.load(now, { running: event.promptId });
	const answer = hook.handle({ type: "runEnd" });
	hook.saveDaily(now);
	return hook.reply(answer);
}
