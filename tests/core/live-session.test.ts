// The executor for in-process hosts: it carries out the rulebook's effects through the host's ports, keeps the time
// checks armed at 80%, 95% and 100% with a 1 s refresh, survives failing ports, and is silent once disposed.

import { describe, expect, it } from "vitest";
import { ON_STOP_RECOVERY_MS } from "../../src/core/constants.ts";
import type { HistoryItem } from "../../src/core/model/history.ts";
import type { TimeboxRecord } from "../../src/core/model/records.ts";
import type { NotifyLevel, OnStopOutcome, Scheduler } from "../../src/core/ports.ts";
import { noAnswer } from "../../src/core/run/executor.ts";
import { LiveSession, type LiveSessionPorts } from "../../src/core/run/live-session.ts";
import { EMPTY_SESSION } from "../../src/core/session/index.ts";
import { QUESTION_CLOSED } from "../../src/core/text/questions.ts";
import { MINUTE, START } from "../support/budgets.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryLedger, MemoryUI, RecordingStarter, ScriptedUser } from "../support/memory-host.ts";

const SPENT = "Timebox: budget spent";

/** The stop notice when nothing was running: there was nothing to stop. */
function idleSpentText(usedTurns: number, elapsed: string): string {
	return `Timebox budget spent. Used ${usedTurns} ${usedTurns === 1 ? "turn" : "turns"}, ${elapsed}, while the agent was idle. The chat continues.`;
}

function spentText(usedTurns: number, elapsed: string): string {
	return `Timebox budget spent. Used ${usedTurns} ${usedTurns === 1 ? "turn" : "turns"}, ${elapsed}. The agent stops for this turn. The chat continues.`;
}

function internalError(where: string, message: string): string {
	return `Timebox hit an internal error (${where}): ${message}. Your session goes on; check the budget with /timebox status.`;
}

interface HostOptions {
	history?: HistoryItem[];
	ledger?: MemoryLedger;
	time?: FakeTime;
	scheduler?: Scheduler;
}

function createHost(options: HostOptions = {}) {
	const history: HistoryItem[] = options.history ?? [];
	const time = options.time ?? new FakeTime(START);
	/** How far the wall clock the session reads is off the time the timers run on. */
	let skewMs = 0;
	const ledger = options.ledger ?? new MemoryLedger();
	const ui = new MemoryUI();
	const onStop = new RecordingStarter();
	const user = new ScriptedUser();
	onStop.outcome = null;
	let aborts = 0;
	let nextId = 1;
	const ports: LiveSessionPorts = {
		store: {
			append: (record: TimeboxRecord) => history.push({ kind: "record", record }),
			history: () => [...history],
		},
		ledger,
		ui,
		clock: { now: () => time.now() + skewMs },
		scheduler: options.scheduler ?? time,
		onStop,
		agent: {
			abortCurrentTurn: () => {
				aborts++;
			},
		},
		newBudgetId: () => `budget-${nextId++}`,
		canAsk: () => user.canAsk,
		ask: (question, choices, timeoutMs) => user.ask(question, choices, timeoutMs),
	};
	const session = new LiveSession(ports);
	return {
		session,
		ports,
		user,
		history,
		time,
		ledger,
		ui,
		onStop,
		get aborts() {
			return aborts;
		},
		/** Sets the wall clock back or forward, as an NTP correction does, without moving the timers. */
		skewClock(ms: number) {
			skewMs = ms;
		},
		get records() {
			return history.flatMap((item) => (item.kind === "record" ? [item.record] : []));
		},
		/** Sends one prompt through its run: its model call, the end. */
		runPrompt(key: string) {
			history.push({ kind: "prompt", key });
			const answer = session.dispatch({ type: "modelCall", prompt: key });
			session.dispatch({ type: "runEnd" });
			return answer;
		},
	};
}

/** A scheduler whose cancel does nothing, as when a host's timer callback is already queued when it is cancelled. */
function uncancellable(time: FakeTime): Scheduler {
	return {
		setTimeout: (callback, delayMs) => {
			time.setTimeout(callback, delayMs);
			return () => {};
		},
		setInterval: (callback, intervalMs) => {
			time.setInterval(callback, intervalMs);
			return () => {};
		},
	};
}

describe("carrying out the rules", () => {
	it("sets a budget: writes its record, shows the status and confirms it", () => {
		const host = createHost();
		host.session.command("15m turns:3 -- lmk");
		expect(host.records).toEqual([
			{
				kind: "active",
				budget: {
					version: 2,
					id: "budget-1",
					timeLimitMs: 15 * MINUTE,
					turnLimit: 3,
					startTime: START,
					onStopCommand: "lmk",
				},
			},
		]);
		expect(host.ui.status).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)");
		expect(host.ui.notifications).toEqual([
			{ message: "Timebox set: 15m and 3 turns. On stop it runs: lmk", level: "info" },
		]);
		expect(host.session.state.standing?.budget?.id).toBe("budget-1");
	});

	it("gives each new budget a new id", () => {
		const host = createHost();
		host.session.command("15m");
		host.session.command("turns:3");
		expect(host.records).toMatchObject([
			{ kind: "active", budget: { id: "budget-1" } },
			{ kind: "active", budget: { id: "budget-2" } },
		]);
	});

	it("turns a budget off: writes the off record, claims it off in the ledger and clears the status", () => {
		const host = createHost();
		host.session.command("15m");
		host.time.advance(MINUTE);
		host.session.command("off");
		expect(host.records.at(-1)).toEqual({ kind: "off", version: 2, budgetId: "budget-1", disabledAt: START + MINUTE });
		expect(host.ledger.read("budget-1").off).toBe(true);
		expect(host.ui.status).toBeUndefined();
		expect(host.ui.notifications.at(-1)).toEqual({ message: "Timebox off.", level: "info" });
	});

	it("answers a prompt near the end of the budget with the warning block, and warns the user once", () => {
		const host = createHost();
		host.session.command("turns:5");
		for (const key of ["p1", "p2", "p3", "p4"]) host.runPrompt(key);
		const answer = host.session.dispatch({ type: "modelCall", prompt: "p5" });
		expect(answer.refusal).toBeNull();
		expect(answer.context).toHaveLength(1);
		expect(answer.context[0]?.split("\n")[0]).toBe("IMPORTANT TIMEBOX WARNING");
		expect(answer.context[0]).toContain("Turns: this is the last prompt the budget allows (4 of 5 used).");
		expect(host.session.dispatch({ type: "modelCall", prompt: null }).context).toHaveLength(1);
		expect(host.ui.messages("warning")).toEqual(["Timebox: 1 prompt left of 5 — the model is asked to wrap up."]);
	});

	it("answers prompt N+1 of turns:N with the refusal, aborts it and runs the on-stop command once", () => {
		const host = createHost();
		host.session.command("turns:2 -- lmk");
		expect(host.runPrompt("p1").refusal).toBeNull();
		expect(host.runPrompt("p2").refusal).toBeNull();
		expect(host.aborts).toBe(0);
		const stopped = host.runPrompt("p3");
		expect(stopped).toEqual({
			notices: [{ message: spentText(2, "0s"), level: "error" }],
			context: [],
			refusal: spentText(2, "0s"),
			aborted: true,
			questions: [],
			stoppedAgents: [],
		});
		expect(host.aborts).toBe(1);
		expect(host.ui.messages("error")).toEqual([spentText(2, "0s")]);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.ui.status).toBe(SPENT);
		expect(host.session.dispatch({ type: "toolCall", prompt: null })).toEqual({
			notices: [],
			context: [],
			refusal: spentText(2, "0s"),
			aborted: true,
			questions: [],
			stoppedAgents: [],
		});
		expect(host.runPrompt("p4").refusal).toBeNull();
		expect(host.ui.messages("error")).toHaveLength(1);
		expect(host.onStop.commands).toEqual(["lmk"]);
	});

	it.each<[string, OnStopOutcome, string, NotifyLevel]>([
		["started", { kind: "started" }, "Timebox ran the on-stop command: lmk done", "info"],
		[
			"could not start",
			{ kind: "failed", problem: "spawn /bin/sh ENOENT" },
			"Timebox on-stop command failed: spawn /bin/sh ENOENT",
			"warning",
		],
		[
			"exited badly",
			{ kind: "exited", problem: '"lmk done" exited with code 127' },
			'Timebox on-stop command failed: "lmk done" exited with code 127',
			"warning",
		],
	])("tells the user the on-stop command %s", (_name, outcome, message, level) => {
		const host = createHost();
		host.session.command("1s -- lmk done");
		host.time.advance(1_000);
		host.onStop.report(outcome);
		expect(host.ui.notifications.at(-1)).toEqual({ message, level });
	});

	it("reports an on-stop command that starts and later fails as two notices", () => {
		const host = createHost();
		host.session.command("1s -- lmk");
		host.time.advance(1_000);
		host.onStop.report({ kind: "started" });
		host.onStop.report({ kind: "exited", problem: '"lmk" was killed by SIGTERM' });
		expect(host.ui.notifications.slice(-2)).toEqual([
			{ message: "Timebox ran the on-stop command: lmk", level: "info" },
			{ message: 'Timebox on-stop command failed: "lmk" was killed by SIGTERM', level: "warning" },
		]);
	});
});

describe("loading", () => {
	const record = (budget: object): HistoryItem => ({ kind: "record", record: { kind: "active", budget } });
	const tenMinutes = {
		version: 2,
		id: "b7",
		timeLimitMs: 10 * MINUTE,
		turnLimit: 5,
		startTime: START,
		onStopCommand: "lmk",
	};

	it("restores a budget from the history, counts its prompts and arms its timers", () => {
		const host = createHost({ history: [record(tenMinutes), { kind: "prompt", key: "p1" }] });
		host.time.jump(MINUTE);
		host.session.onSessionStart("restore", true);
		expect(host.ui.notifications).toEqual([
			{
				message: "Timebox restored: 9m 0s left (10m budget) | 4 turns left (1/5). On stop it runs: lmk",
				level: "info",
			},
		]);
		expect(host.ui.status).toBe("Timebox: 9m 0s left (10m budget) | 4 turns left (1/5)");
		expect(host.time.activeIntervals).toBe(1);
		expect(host.time.activeTimeouts).toBe(1);
	});

	it("does not restore a budget the ledger has as spent, and never stops it again", () => {
		const ledger = new MemoryLedger();
		ledger.claim({
			kind: "spent",
			budgetId: "b7",
			summary: { usedTurns: 1, elapsedMs: 10 * MINUTE, timeRanOut: true },
			prompt: "p1",
		});
		const host = createHost({ history: [record(tenMinutes), { kind: "prompt", key: "p1" }], ledger });
		host.session.onSessionStart("restore", true);
		expect(host.ui.notifications).toEqual([
			{
				message:
					"Timebox budget of this session was already spent (time ran out), so it was not restored. Its on-stop command is not run on restore: lmk",
				level: "warning",
			},
		]);
		expect(host.ui.status).toBeUndefined();
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
		host.time.advance(60 * MINUTE);
		expect(host.onStop.commands).toEqual([]);
	});

	it("claims a budget whose time ran out while closed as spent, without running its command", () => {
		const host = createHost({ history: [record(tenMinutes)] });
		host.time.jump(11 * MINUTE);
		host.session.onSessionStart("restore", false);
		expect(host.ledger.read("b7").spent).toEqual({
			usedTurns: 0,
			elapsedMs: 11 * MINUTE,
			timeRanOut: true,
			prompt: null,
		});
		expect(host.ui.notifications).toEqual([]);
		expect(host.onStop.commands).toEqual([]);
	});

	it("brings nothing back when the ledger has the budget off", () => {
		const ledger = new MemoryLedger();
		ledger.claim({ kind: "off", budgetId: "b7" });
		const host = createHost({ history: [record(tenMinutes)], ledger });
		host.session.onSessionStart("restore", true);
		expect(host.ui.notifications).toEqual([]);
		expect(host.session.state.standing).toBeNull();
	});

	it("starts clean from an empty history", () => {
		const host = createHost();
		host.session.onSessionStart("restore", true);
		expect(host.ui.statuses).toEqual([undefined]);
		expect(host.session.state.standing).toBeNull();
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
	});

	it("stops a budget once for every session that shares it: one notice and one on-stop run across both", () => {
		const ledger = new MemoryLedger();
		const original = createHost({ ledger });
		original.session.command("1m -- lmk");
		const fork = createHost({ history: [...original.history], ledger });
		fork.session.onSessionStart("continue", false);
		original.time.advance(MINUTE);
		fork.time.advance(MINUTE);
		expect(original.ui.messages("error")).toEqual([idleSpentText(0, "1m 0s")]);
		expect(fork.ui.messages("error")).toEqual([]);
		expect(original.onStop.commands).toEqual(["lmk"]);
		expect(fork.onStop.commands).toEqual([]);
		expect(fork.ui.status).toBe(SPENT);
	});
});

describe("an on-stop command whose process was killed before it started it", () => {
	const LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";

	it("is started once by the next process that loads the session, which says so once", () => {
		const ledger = new MemoryLedger();
		const killed = createHost({ ledger });
		killed.session.command("turns:1 -- lmk");
		killed.runPrompt("p1");
		// The stop's claim is made; the process is killed before its start gets anywhere.
		killed.onStop.killNext = () => {};
		killed.runPrompt("p2");
		expect(killed.onStop.commands).toEqual([]);
		expect(ledger.read("budget-1").onStop).toMatchObject({ command: "lmk", started: false, claimantAlive: true });
		// pi starts again: another process, on the same session and ledger.
		ledger.process = 2;
		const next = createHost({ history: [...killed.history], ledger });
		next.session.onSessionStart("restore", true);
		expect(next.onStop.commands).toEqual(["lmk"]);
		// It is said to have run late once its starter says it started, not before.
		expect(next.ui.messages("warning")).not.toContain(LATE);
		next.onStop.report({ kind: "started" });
		expect(next.ui.messages("info")).toContain("Timebox ran the on-stop command: lmk");
		expect(next.ui.messages("warning").filter((message) => message === LATE)).toHaveLength(1);
		// Every later load, in this process or another, leaves it be.
		next.session.onSessionStart("restore", true);
		ledger.process = 3;
		const third = createHost({ history: [...killed.history], ledger });
		third.session.onSessionStart("restore", true);
		expect([...next.onStop.commands, ...third.onStop.commands]).toEqual(["lmk"]);
		expect(third.ui.messages("warning")).not.toContain(LATE);
	});

	it("is left to its claimant while that process runs and the claim is young, and started once past the bound", () => {
		const time = new FakeTime(START);
		const ledger = new MemoryLedger(() => time.now());
		const claimant = createHost({ ledger, time });
		claimant.session.command("turns:1 -- lmk");
		claimant.runPrompt("p1");
		claimant.onStop.killNext = () => {};
		claimant.runPrompt("p2");
		const fork = createHost({ history: [...claimant.history], ledger, time });
		fork.session.onSessionStart("continue", false);
		expect(fork.onStop.commands).toEqual([]);
		time.advance(ON_STOP_RECOVERY_MS);
		const later = createHost({ history: [...claimant.history], ledger, time });
		later.session.onSessionStart("continue", false);
		expect(later.onStop.commands).toEqual(["lmk"]);
	});
});

describe("timers", () => {
	it("arms the check at 80% with the 1 s refresh, then at 95% and 100%, and cancels both once spent", () => {
		const host = createHost();
		host.session.command("10m -- lmk");
		expect(host.time.requestedDelays).toEqual([1_000, 8 * MINUTE]);
		host.time.advance(8 * MINUTE - 1);
		expect(host.ui.messages("warning")).toEqual([]);
		host.time.advance(1);
		expect(host.ui.messages("warning")).toEqual([
			"Timebox: 2m 0s left of 10m — the model will be told at its next call to wrap up.",
		]);
		expect(host.time.requestedDelays).toEqual([1_000, 8 * MINUTE, 1.5 * MINUTE]);
		host.time.advance(1.5 * MINUTE);
		expect(host.session.dispatch({ type: "modelCall", prompt: null }).context[0]?.split("\n")[0]).toBe(
			"CRITICAL TIMEBOX WARNING",
		);
		host.session.dispatch({ type: "runEnd" });
		expect(host.time.requestedDelays).toEqual([1_000, 8 * MINUTE, 1.5 * MINUTE, 0.5 * MINUTE]);
		host.time.advance(0.5 * MINUTE - 1);
		expect(host.ui.messages("error")).toEqual([]);
		host.time.advance(1);
		expect(host.ui.messages("error")).toEqual([idleSpentText(1, "10m 0s")]);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.ui.status).toBe(SPENT);
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
	});

	it("checks at a point between two refreshes on time", () => {
		const host = createHost();
		host.session.command("2s");
		host.time.advance(1_599);
		expect(host.ui.messages("warning")).toEqual([]);
		host.time.advance(1);
		expect(host.ui.messages("warning")).toEqual([
			"Timebox: 1s left of 2s — the model will be told at its next call to wrap up.",
		]);
	});

	it("refreshes the status every second", () => {
		const host = createHost();
		host.session.command("1m");
		host.time.advance(3_000);
		expect(host.ui.statuses).toEqual([
			"Timebox: 1m 0s left (1m budget) | no turn limit",
			"Timebox: 59s left (1m budget) | no turn limit",
			"Timebox: 58s left (1m budget) | no turn limit",
			"Timebox: 57s left (1m budget) | no turn limit",
		]);
	});

	it("checks again when a checkpoint timer fires before the wall clock reaches its point", () => {
		const host = createHost();
		host.session.command("10s");
		host.skewClock(-500);
		host.time.advance(8_499);
		expect(host.ui.messages("warning")).toEqual([]);
		host.time.advance(1);
		expect(host.ui.messages("warning")).toEqual([
			"Timebox: 2s left of 10s — the model will be told at its next call to wrap up.",
		]);
	});

	it("stops at the first check after a sleep that jumped the clock past the limit", () => {
		const host = createHost();
		host.session.command("5m turns:9 -- lmk");
		host.time.jump(6 * MINUTE);
		host.time.advance(1);
		expect(host.ui.messages("error")).toEqual([idleSpentText(0, "6m 0s")]);
		expect(host.onStop.commands).toEqual(["lmk"]);
	});

	it("arms the first check of the longest budget within what a timer holds, and warns at 80%", () => {
		const host = createHost();
		host.session.command("720h");
		expect(host.time.requestedDelays).toEqual([1_000, 576 * 60 * MINUTE]);
		host.time.jump(576 * 60 * MINUTE - 1_000);
		host.time.advance(1_000);
		expect(host.ui.messages("warning")).toHaveLength(1);
	});

	it("keeps one refresh and no time check for a turn budget", () => {
		const host = createHost();
		host.session.command("turns:3");
		expect(host.time.activeIntervals).toBe(1);
		expect(host.time.activeTimeouts).toBe(0);
	});

	it("cancels the time check when a turn budget replaces a time budget, keeping one refresh", () => {
		const host = createHost();
		host.session.command("10m");
		host.session.command("turns:3");
		expect(host.time.activeIntervals).toBe(1);
		expect(host.time.activeTimeouts).toBe(0);
		host.time.advance(10 * MINUTE);
		expect(host.ui.messages("warning")).toEqual([]);
	});

	it("keeps exactly one refresh and one time check however often a budget is set or loaded", () => {
		const host = createHost();
		host.session.command("15m");
		host.session.command("20m");
		host.session.onSessionStart("restore", false);
		host.session.onSessionStart("continue", false);
		host.session.command("5m turns:3");
		expect(host.time.activeIntervals).toBe(1);
		expect(host.time.activeTimeouts).toBe(1);
	});

	it("cancels every timer when the budget is turned off", () => {
		const host = createHost();
		host.session.command("10m");
		host.session.command("off");
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
		host.time.advance(60 * MINUTE);
		expect(host.ui.notifications).toEqual([
			{ message: "Timebox set: 10m.", level: "info" },
			{ message: "Timebox off.", level: "info" },
		]);
	});
});

describe("disposal", () => {
	it("ignores every event once disposed, clearing the status and every timer", () => {
		const host = createHost();
		host.session.command("1m turns:1 -- lmk");
		host.session.onShutdown();
		expect(host.ui.status).toBeUndefined();
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
		const seenBefore = host.ui.notifications.length;
		const statusesBefore = host.ui.statuses.length;
		host.time.advance(2 * MINUTE);
		host.session.onSessionStart("restore", true);
		expect(host.runPrompt("p1")).toEqual(noAnswer());
		expect(host.runPrompt("p2")).toEqual(noAnswer());
		expect(host.session.dispatch({ type: "toolCall", prompt: null })).toEqual(noAnswer());
		expect(host.ui.notifications).toHaveLength(seenBefore);
		expect(host.ui.statuses).toHaveLength(statusesBefore);
		expect(host.records).toHaveLength(1);
		expect(host.onStop.commands).toEqual([]);
		expect(host.aborts).toBe(0);
	});

	it("ends the run under way at shutdown: a wrap-up's on-stop command starts then, once", () => {
		const host = createHost();
		host.session.command("1m grace:30s -- lmk");
		host.history.push({ kind: "prompt", key: "p1" });
		host.session.dispatch({ type: "modelCall", prompt: "p1" });
		host.time.advance(MINUTE);
		expect(host.ui.status).toBe("Timebox: budget spent | wrapping up");
		expect(host.onStop.commands).toEqual([]);
		// The host quits with the tool still running, and sends no end of the run.
		host.session.onShutdown();
		expect(host.onStop.commands).toEqual(["lmk"]);
		const statuses = host.ui.statuses.length;
		host.session.onShutdown();
		host.time.advance(MINUTE);
		expect(host.ui.statuses).toHaveLength(statuses);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.ui.status).toBeUndefined();
	});

	it("answers a command that reaches a disposed session: nothing changed, type it again", () => {
		const host = createHost();
		host.session.command("15m");
		host.session.onShutdown();
		host.session.command("off");
		host.session.command("turns:3");
		expect(host.ui.notifications.slice(1)).toEqual([
			{
				message:
					"Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.",
				level: "warning",
			},
			{
				message:
					"Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.",
				level: "warning",
			},
		]);
		expect(host.records).toHaveLength(1);
		expect(host.ui.status).toBeUndefined();
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
	});

	it("lets a timer that fires after disposal do nothing", () => {
		const time = new FakeTime(START);
		const host = createHost({ time, scheduler: uncancellable(time) });
		host.session.command("10s -- lmk");
		host.session.onShutdown();
		const statusesBefore = host.ui.statuses.length;
		time.advance(20_000);
		expect(host.ui.statuses).toHaveLength(statusesBefore);
		expect(host.ui.messages("warning")).toEqual([]);
		expect(host.ui.messages("error")).toEqual([]);
		expect(host.onStop.commands).toEqual([]);
	});
});

describe("failing ports", () => {
	it("takes a dialog that fails as no answer: the budget stops, and the failure is reported once", async () => {
		const host = createHost();
		host.user.canAsk = true;
		host.ports.ask = () => Promise.reject(new Error("dialog gone"));
		host.session.onSessionStart("restore", false, null, { onLimit: { value: "ask", source: "settings" } });
		await host.session.command("turns:1 -- lmk");
		host.runPrompt("p1");
		await host.session.handle({ type: "modelCall", prompt: "p2" });
		expect(host.ui.messages("error")).toEqual([internalError("question", "dialog gone"), spentText(1, "0s")]);
		expect(host.onStop.commands).toEqual(["lmk"]);
	});

	it("answers a tool call with the refusal when the user stops at the limit the tool reached", async () => {
		const host = createHost();
		host.user.canAsk = true;
		host.user.answers.push(0);
		host.session.onSessionStart("restore", false, null, { onLimit: { value: "ask", source: "settings" } });
		await host.session.command("1m -- lmk");
		host.session.dispatch({ type: "modelCall", prompt: "p1" });
		host.time.jump(2 * MINUTE);
		const answer = await host.session.handle({ type: "toolCall", prompt: null });
		expect(answer).toEqual({
			notices: [{ message: spentText(0, "2m 0s"), level: "error" }],
			context: [],
			refusal: spentText(0, "2m 0s"),
			aborted: true,
			questions: [],
			stoppedAgents: [],
		});
		expect(host.user.questions.map((question) => question.choices)).toEqual([["Stop now", "+5 minutes", "+1 prompt"]]);
		expect(host.onStop.commands).toEqual(["lmk"]);
	});

	it("holds every event that comes while a question is open until it is answered", async () => {
		const host = createHost();
		host.user.canAsk = true;
		let answer: (index: number | undefined) => void = () => {};
		host.ports.ask = () => new Promise((resolve) => (answer = resolve));
		await host.session.command("turns:3");
		const replacing = host.session.command("turns:1");
		const prompt = host.session.handle({ type: "modelCall", prompt: "p1" });
		expect(host.session.state.standing?.budget?.turnLimit).toBe(3);
		expect(host.session.state.standing?.usedTurns).toBe(0);
		answer(0);
		await replacing;
		expect(await prompt).toEqual(noAnswer());
		// The prompt came while the question was open: it counts under the budget the answer left.
		expect(host.session.state).toMatchObject({ lastPrompt: "p1", standing: { usedTurns: 1 } });
		expect(host.session.state.standing?.budget?.turnLimit).toBe(1);
	});

	it("has a model call's request measured under a budget of tokens or cost, or while a question may set one", async () => {
		const host = createHost();
		host.user.canAsk = true;
		let answer: (index: number | undefined) => void = () => {};
		host.ports.ask = () => new Promise((resolve) => (answer = resolve));
		await host.session.command("30m turns:3");
		expect(host.session.needsRequest()).toBe(false);
		const replacing = host.session.command("tokens:50k");
		// The call that waits for the answer is let go under the budget it leaves: its request is measured.
		expect(host.session.needsRequest()).toBe(true);
		answer(0);
		await replacing;
		expect(host.session.state.standing?.budget.tokenLimit).toBe(50_000);
		expect(host.session.needsRequest()).toBe(true);
	});

	it("fires the time limit on time while a question is open, and closes the question the stop made moot", async () => {
		const host = createHost();
		host.user.canAsk = true;
		let closed = false;
		host.ports.ask = (_question, _choices, timeoutMs, signal) => {
			expect(timeoutMs).toBe(30_000);
			return new Promise((resolve) =>
				signal.addEventListener("abort", () => {
					closed = true;
					resolve(undefined);
				}),
			);
		};
		await host.session.command("3s -- lmk");
		host.session.dispatch({ type: "modelCall", prompt: "p1" });
		const replacing = host.session.command("10m");
		host.time.advance(3_000);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.aborts).toBe(1);
		expect(host.ui.messages("error")).toEqual([spentText(0, "3s")]);
		await replacing;
		expect(closed).toBe(true);
		expect(host.ui.messages("info").at(-1)).toBe(QUESTION_CLOSED);
		expect(host.session.state.standing?.budget.timeLimitMs).toBe(3_000);
	});

	it("does nothing of what waited for a question once the instance is disposed, and shows no later report", async () => {
		const host = createHost();
		host.user.canAsk = true;
		let answer: (index: number | undefined) => void = () => {};
		host.ports.ask = () => new Promise((resolve) => (answer = resolve));
		await host.session.command("10s -- lmk");
		const replacing = host.session.command("turns:1");
		const waitingCommand = host.session.command("turns:5");
		const waitingCall = host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.onShutdown();
		answer(0);
		await replacing;
		await waitingCommand;
		expect(await waitingCall).toEqual(noAnswer());
		// The shutdown cleared the session's state, and nothing that waited changed it afterwards.
		expect(host.session.state).toEqual(EMPTY_SESSION);
		expect(host.ui.messages()).toEqual(["Timebox set: 10s. On stop it runs: lmk"]);
	});

	it("shows nothing of an on-stop report that comes after the instance is disposed", async () => {
		const host = createHost();
		await host.session.command("1m -- lmk");
		host.time.advance(MINUTE);
		expect(host.onStop.commands).toEqual(["lmk"]);
		const before = host.ui.notifications.length;
		host.session.onShutdown();
		host.onStop.report({ kind: "exited", problem: "exit code 1" });
		expect(host.ui.notifications).toHaveLength(before);
	});

	it("takes a dialog that fails once the stop closed it as closed, and reports the failure", async () => {
		const host = createHost();
		host.user.canAsk = true;
		host.ports.ask = (_question, _choices, _timeoutMs, signal) =>
			new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("dialog gone"))));
		await host.session.command("3s");
		const replacing = host.session.command("10m");
		host.time.advance(3_000);
		await replacing;
		expect(host.ui.messages("info").at(-1)).toBe(QUESTION_CLOSED);
		expect(host.ui.messages("error")).toContain(internalError("question", "dialog gone"));
	});

	it("fires the stop when the ledger cannot be written, and reports one internal error", () => {
		const ledger = new MemoryLedger();
		ledger.claim = () => {
			throw new Error("ledger folder read-only");
		};
		const host = createHost({ ledger });
		host.session.command("10m -- lmk");
		host.time.advance(8 * MINUTE);
		host.time.advance(2 * MINUTE);
		expect(host.ui.messages("warning")).toEqual([
			"Timebox: 2m 0s left of 10m — the model will be told at its next call to wrap up.",
		]);
		expect(host.ui.messages("error")).toEqual([
			internalError("ledger", "ledger folder read-only"),
			idleSpentText(0, "10m 0s"),
		]);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.ui.status).toBe(SPENT);
	});

	it("reports an effect that throws once per place, and carries out the rest", () => {
		const host = createHost();
		host.ui.setStatus = () => {
			throw new Error("status bar gone");
		};
		host.session.command("turns:1 -- lmk");
		host.runPrompt("p1");
		host.runPrompt("p2");
		expect(host.ui.notifications).toEqual([
			{ message: internalError("status", "status bar gone"), level: "error" },
			{ message: "Timebox set: 1 turn. On stop it runs: lmk", level: "info" },
			{ message: spentText(1, "0s"), level: "error" },
		]);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.aborts).toBe(1);
	});

	it("reports a status bar that fails while the session shuts down, naming the shutdown", () => {
		const host = createHost();
		host.session.command("turns:1");
		host.ui.setStatus = () => {
			throw new Error("status bar gone");
		};
		host.session.onShutdown();
		expect(host.ui.notifications.at(-1)).toEqual({
			message: internalError("session shutdown", "status bar gone"),
			level: "error",
		});
	});

	it("reports a record that cannot be written, and still confirms the budget", () => {
		const host = createHost();
		host.ports.store.append = () => {
			throw new Error("disk full");
		};
		host.session.command("turns:2");
		expect(host.ui.notifications).toEqual([
			{ message: internalError("append", "disk full"), level: "error" },
			{ message: "Timebox set: 2 turns.", level: "info" },
		]);
		expect(host.ui.status).toBe("Timebox: no time limit | 2 turns left (0/2)");
	});

	it("starts clean when the history cannot be read, and reports it once", () => {
		const host = createHost();
		host.ports.store.history = () => {
			throw new Error("session file unreadable");
		};
		host.session.onSessionStart("restore", true);
		host.session.onSessionStart("restore", true);
		expect(host.ui.notifications).toEqual([
			{ message: internalError("session start", "session file unreadable"), level: "error" },
		]);
		expect(host.session.state.standing).toBeNull();
	});

	it("changes nothing when no budget id can be made, and reports it", () => {
		const host = createHost();
		host.ports.newBudgetId = () => {
			throw new Error("no randomness");
		};
		host.session.command("15m");
		expect(host.ui.notifications).toEqual([{ message: internalError("/timebox", "no randomness"), level: "error" }]);
		expect(host.records).toEqual([]);
		expect(host.session.state.standing).toBeNull();
	});

	it("reports a failing clock at the event it broke, and keeps the state", () => {
		const host = createHost();
		host.session.command("turns:3");
		host.ports.clock.now = () => {
			throw new Error("clock gone");
		};
		const answer = host.session.dispatch({ type: "modelCall", prompt: "p1" });
		expect(answer).toEqual(noAnswer());
		expect(host.ui.notifications).toContainEqual({
			message: internalError("modelCall", "clock gone"),
			level: "error",
		});
		expect(host.session.state.standing?.usedTurns).toBe(0);
	});

	it("survives a UI that throws on every call: the stop still aborts and runs its command", () => {
		const host = createHost();
		host.session.command("1s -- lmk");
		host.ui.notify = () => {
			throw new Error("ui gone");
		};
		host.ui.setStatus = () => {
			throw new Error("ui gone");
		};
		host.session.dispatch({ type: "modelCall", prompt: "p1" });
		host.time.advance(1_000);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.aborts).toBe(1);
		expect(host.session.state.standing?.spent).toEqual({
			usedTurns: 0,
			elapsedMs: 1_000,
			timeRanOut: true,
			promptCounted: true,
		});
		expect(() => host.session.onShutdown()).not.toThrow();
	});
});
