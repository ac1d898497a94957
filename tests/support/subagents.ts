// A session runtime with subagents on a fake clock, for the subagent rules' tests: events in, answers and records out.

import { foldHistory } from "../../src/core/model/history.ts";
import type { Answer } from "../../src/core/run/executor.ts";
import { SessionRuntime } from "../../src/core/run/runtime.ts";
import {
	EMPTY_SESSION,
	NOTHING_RECORDED,
	readLedger,
	type SessionEvent,
	type SessionState,
	transition,
} from "../../src/core/session/index.ts";
import { START } from "./budgets.ts";
import { MemoryLedger, MemoryStore, RecordingStarter } from "./memory-host.ts";

/** What a subagent harness is set up with: the settings of its load. */
export interface SubagentSetup {
	subagents?: unknown;
	source?: string;
	grace?: string;
	/** A session budget set before anything else, as `/timebox <words>`. */
	session?: string;
}

/** The session's runtime over memory ports and a clock the test moves. */
export function subagentSession(setup: SubagentSetup = {}) {
	const clock = { at: START, now: () => clock.at };
	const store = new MemoryStore();
	const ledger = new MemoryLedger();
	const onStop = new RecordingStarter();
	const problems: string[] = [];
	let ids = 0;
	const make = (state?: SessionState) =>
		new SessionRuntime(
			{
				store,
				ledger,
				clock,
				onStop,
				setStatus: () => {},
				abortRun: () => {},
				problem: (where, error) => problems.push(`${where}: ${String(error)}`),
				late: () => {},
			},
			state,
		);
	let runtime = make();
	const loadEvent = (): SessionEvent => {
		const history = foldHistory(store.history());
		const event: SessionEvent = {
			type: "load",
			history,
			ledger: history.budget ? readLedger(ledger, history.budget) : NOTHING_RECORDED,
			mode: "continue",
			announce: true,
		};
		if (setup.subagents !== undefined) event.subagents = { value: setup.subagents, source: setup.source ?? "settings" };
		if (setup.grace !== undefined) event.grace = { value: setup.grace, source: "settings" };
		return event;
	};
	const load = (): Answer => runtime.dispatch(loadEvent());
	const loaded = load();
	const command = (args: string) => runtime.command(args, { newBudgetId: `budget-${++ids}`, report: () => "" });
	if (setup.session !== undefined) command(setup.session);
	return {
		loaded,
		store,
		ledger,
		onStop,
		problems,
		get runtime() {
			return runtime;
		},
		get state() {
			return runtime.state;
		},
		advance(ms: number) {
			clock.at += ms;
		},
		now: () => clock.at,
		command,
		handle: (event: SessionEvent) => runtime.handle(event),
		start: (agent: string, more: Partial<Extract<SessionEvent, { type: "agentStart" }>> = {}) =>
			runtime.handle({
				type: "agentStart",
				agent,
				parent: null,
				agentType: "Explore",
				task: "find the flaky test",
				...more,
			}),
		call: (agent?: string) => runtime.handle({ type: "modelCall", prompt: null, ...(agent ? { agent } : {}) }),
		tool: (agent?: string) => runtime.handle({ type: "toolCall", prompt: null, ...(agent ? { agent } : {}) }),
		used: (tokens: number, cost: number, agent?: string) =>
			runtime.handle({ type: "modelResponse", tokens, cost, ...(agent ? { agent } : {}) }),
		end: (agent: string) => runtime.handle({ type: "agentEnd", agent }),
		timeCheck: () => runtime.handle({ type: "timeCheck" }),
		/** A new runtime loaded from the same store, as a host that reloads at every hook makes one. */
		reload() {
			runtime = make();
			return load();
		},
		/** A runtime made from the state the session's rules alone load, as a hook host makes one for each hook. */
		reloadAsHook() {
			runtime = make(transition(EMPTY_SESSION, loadEvent(), clock.at).state);
		},
		/** The records about subagents written so far. */
		subagentRecords: () =>
			store.records.filter(
				(record): record is { kind: "subagent"; agent: { id: string; ended: string | null; closed: boolean } } =>
					typeof record === "object" && record !== null && "kind" in record && record.kind === "subagent",
			),
	};
}

/** The notices of an answer, as the user reads them. */
export function said(answer: Answer): string[] {
	return answer.notices.map((notice) => `${notice.level}: ${notice.message}`);
}
