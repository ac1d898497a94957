// The grace period in the rulebook: a budget spent mid-run lets the model wrap up, tools refused, the run stopped
// when the time is over or the model asks for tools again, the on-stop command at the end.

import { describe, expect, it } from "vitest";
import { type Effect, EMPTY_SESSION, isActive, nextTimeCheckIn, transition } from "../../../src/core/session/index.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import {
	call,
	loadEvent,
	once,
	play,
	RUN_END,
	SPENT,
	set,
	stopEffects,
	TIME_CHECK,
	tool,
	withBudget,
} from "../../support/session.ts";

describe("a stop that lets the model wrap up (grace)", () => {
	const graced = budget({ timeLimitMs: 10 * MINUTE, graceMs: 30_000, onStopCommand: "lmk" });
	const DEADLINE = START + 10 * MINUTE;
	const summary = { usedTurns: 0, elapsedMs: 10 * MINUTE, timeRanOut: true };
	const WRAP_UP_STATUS = "Timebox: budget spent | wrapping up";
	const REFUSAL =
		"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";
	const WRAPPING =
		"Timebox budget spent. Used 0 turns, 10m 0s. The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.";
	const WRAP_UP_NOTE = [
		"TIMEBOX: BUDGET SPENT",
		"The budget the user gave this session is spent. Write your final answer now: what was done, and what is left to do.",
		"Call no more tools: they are refused, and the run is stopped if you ask for one again.",
	].join("\n");
	const running = play(withBudget(graced), [call("p1")]);
	const ended = (cut: string | null): Effect =>
		once({ kind: "ended", budgetId: "budget-1", onStopCommand: "lmk" }, [
			...(cut === null
				? []
				: [{ kind: "notify" as const, message: `Timebox stopped the agent: ${cut}.`, level: "warning" as const }]),
			{ kind: "startOnStop", command: "lmk", claim: { budgetId: "budget-1", kind: "ended" } },
		]);

	it("counts the prompt that wraps up against an extension made meanwhile: it was used", () => {
		const threeTurns = play(withBudget({ ...graced, turnLimit: 3 }), [call("p1")]);
		const wrapping = transition(threeTurns, TIME_CHECK, DEADLINE).state;
		const extended = transition(wrapping, set("+10m"), DEADLINE + 1_000);
		// While it runs, the prompt being answered does not count against itself; once it ends, it does.
		expect(extended.effects.at(-1)).toMatchObject({ message: expect.stringContaining("| 3 turns left (0/3)") });
		const over = transition(extended.state, RUN_END, DEADLINE + 2_000);
		expect(over.effects.at(-1)).toEqual({
			kind: "status",
			text: "Timebox: 9m 58s left (20m budget) | 2 turns left (1/3)",
		});
	});

	it("aborts nothing when the time runs out mid-run: the user is told, and the status says it wraps up", () => {
		const result = transition(running, TIME_CHECK, DEADLINE);
		expect(result.state).toMatchObject({
			standing: {
				spent: { ...summary, promptCounted: true },
				stoppedPrompt: "p1",
				wrapUp: {
					prompt: "p1",
					until: DEADLINE + 30_000,
					refused: false,
					callsSinceRefusal: 0,
					outcomeId: "budget-1",
					onStopCommand: "lmk",
				},
			},
		});
		expect(result.effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
			once(
				{
					kind: "spent",
					budgetId: "budget-1",
					summary: { ...summary, promptCounted: true, wrapUpUntil: DEADLINE + 30_000 },
					prompt: "p1",
					// What the run's end starts, kept with the stop for a process that finds the run over and its end unclaimed.
					onStopAtEnd: "lmk",
				},
				[{ kind: "notify", message: WRAPPING, level: "error" }],
			),
		]);
		expect(nextTimeCheckIn(result.state, DEADLINE)).toBe(30_000);
		expect(isActive(result.state)).toBe(true);
	});

	it("refuses the tool call that meets the limit, with the reason the model reads", () => {
		const result = transition(running, tool(), DEADLINE);
		expect(result.state.standing?.wrapUp).toMatchObject({ refused: true });
		expect(result.effects.at(-1)).toEqual({ kind: "refuse", reason: REFUSAL });
		expect(result.effects.some((effect) => effect.kind === "abort")).toBe(false);
	});

	it("gives the next model call the wrap-up note, and lets a text answer end the run normally, then runs on-stop", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const refused = transition(wrapping, tool(), DEADLINE + 1_000);
		expect(refused.effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
			{ kind: "refuse", reason: REFUSAL },
		]);
		const answer = transition(refused.state, call(null), DEADLINE + 2_000);
		expect(answer.effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
			{ kind: "context", text: WRAP_UP_NOTE },
		]);
		const end = transition(answer.state, RUN_END, DEADLINE + 3_000);
		expect(end.effects).toEqual([{ kind: "status", text: SPENT }, ended(null)]);
		expect(end.state.standing?.wrapUp).toBeNull();
		expect(isActive(end.state)).toBe(false);
		expect(nextTimeCheckIn(end.state, DEADLINE + 3_000)).toBeNull();
	});

	it("refuses every tool of one answer, and ends the run when the model asks for tools again after the refusal", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const first = transition(wrapping, tool(), DEADLINE);
		const sameAnswer = transition(first.state, tool(), DEADLINE);
		expect(sameAnswer.effects.at(-1)).toEqual({ kind: "refuse", reason: REFUSAL });
		const again = transition(
			transition(sameAnswer.state, call(null), DEADLINE + 1_000).state,
			tool(),
			DEADLINE + 2_000,
		);
		expect(again.effects).toEqual([
			{ kind: "status", text: SPENT },
			ended("the model asked for tools again"),
			{ kind: "abort" },
			{ kind: "refuse", reason: REFUSAL },
		]);
	});

	it("lets the first call after the limit answer, refuses its tool, and ends the run at the next tool after that", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const answer = transition(wrapping, call(null), DEADLINE + 1_000);
		expect(answer.state.standing?.wrapUp).toMatchObject({ refused: false, callsSinceRefusal: 0 });
		const refused = transition(answer.state, tool(), DEADLINE + 2_000);
		expect(refused.effects.at(-1)).toEqual({ kind: "refuse", reason: REFUSAL });
		const last = transition(refused.state, call(null), DEADLINE + 3_000);
		expect(transition(last.state, tool(), DEADLINE + 4_000).effects).toContainEqual({ kind: "abort" });
	});

	it("runs no command at the end of a wrap-up when the budget has none", () => {
		const quiet = play(withBudget(budget({ timeLimitMs: 10 * MINUTE, graceMs: 30_000 })), [call("p1")]);
		const wrapping = transition(quiet, TIME_CHECK, DEADLINE).state;
		expect(transition(wrapping, RUN_END, DEADLINE + 1_000).effects).toEqual([
			{ kind: "status", text: SPENT },
			once({ kind: "ended", budgetId: "budget-1" }, []),
		]);
	});

	it("stops the run when the wrap-up time is over, by the timer or at the next call", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		expect(transition(wrapping, TIME_CHECK, DEADLINE + 29_999).effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
		]);
		const cut = [
			{ kind: "status", text: SPENT },
			ended("the time to wrap up ran out"),
			{ kind: "abort" },
			{ kind: "refuse", reason: REFUSAL },
		];
		expect(transition(wrapping, TIME_CHECK, DEADLINE + 30_000).effects).toEqual(cut);
		expect(transition(wrapping, call(null), DEADLINE + 30_000).effects).toEqual(cut);
		expect(transition(wrapping, tool(), DEADLINE + 31_000).effects).toEqual(cut);
	});

	it("stops at once as before without a grace period, or when nothing runs", () => {
		const plain = play(withBudget(budget({ timeLimitMs: 10 * MINUTE, onStopCommand: "lmk" })), [call("p1")]);
		expect(transition(plain, TIME_CHECK, DEADLINE).effects).toContainEqual({ kind: "abort" });
		const idle = play(withBudget(graced), [call("p1"), RUN_END]);
		const result = transition(idle, TIME_CHECK, DEADLINE);
		expect(result.state.standing?.wrapUp).toBeNull();
		expect(result.effects).toEqual(stopEffects({ ...summary, usedTurns: 1 }, "p1", "10m 0s", "lmk", false, true));
	});

	it("stops prompt N+1 of turns:N at once: it has no work to wrap up", () => {
		const allUsed = withBudget(budget({ turnLimit: 1, graceMs: 30_000 }), { usedTurns: 1, lastPrompt: "p1" });
		const result = transition(allUsed, call("p2"), START);
		expect(result.state.standing?.wrapUp).toBeNull();
		expect(result.effects).toContainEqual({ kind: "abort" });
	});

	it("ends the wrap-up when a new prompt comes, and lets that prompt run as after any stop", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const next = transition(wrapping, call("p2"), DEADLINE + 1_000);
		expect(next.effects).toEqual([
			{ kind: "status", text: SPENT },
			ended(null),
			{ kind: "status", text: SPENT },
			{ kind: "recordPrompt", prompt: "p2" },
		]);
		expect(next.state).toMatchObject({ lastPrompt: "p2", running: true });
		expect(next.state.standing?.wrapUp).toBeNull();
	});

	it("takes the grace period from the session's setting when the budget has none", () => {
		const fromSetting = play(withBudget(budget({ timeLimitMs: 10 * MINUTE }), { settings: { graceMs: 5_000 } }), [
			call("p1"),
		]);
		expect(transition(fromSetting, TIME_CHECK, DEADLINE).state.standing?.wrapUp?.until).toBe(DEADLINE + 5_000);
	});

	it("drops the wrap-up when the budget is extended: the run goes on under the extension, and on-stop waits", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const extended = transition(wrapping, set("+5m"), DEADLINE + 1_000);
		expect(extended.state.standing?.wrapUp).toBeNull();
		expect(extended.state.standing?.spent).toBeNull();
		expect(transition(extended.state, RUN_END, DEADLINE + 2_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 4m 58s left (15m budget) | no turn limit" },
		]);
	});

	it("ends the wrap-up with a new budget, as a new prompt does: the old on-stop command starts then, once", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const replacing = transition(wrapping, set("5m", "b2"), DEADLINE + 1_000);
		expect(replacing.effects.at(-1)).toEqual(ended(null));
		expect(replacing.effects.filter((effect) => effect.kind === "status")).toHaveLength(1);
		const replaced = replacing.state;
		expect(replaced.standing?.wrapUp).toBeNull();
		expect(transition(replaced, RUN_END, DEADLINE + 2_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 4m 59s left (5m budget) | no turn limit" },
		]);
	});

	it("ends the wrap-up with /timebox off: the on-stop command starts then, once, never left for a later start", () => {
		const wrapping = transition(running, TIME_CHECK, DEADLINE).state;
		const off = transition(wrapping, { type: "command", args: "off", newBudgetId: "b2" }, DEADLINE + 1_000);
		// The command's start is said last: pi, oh-my-pi and opencode show one notice of a level at a time.
		expect(off.effects).toEqual([
			{ kind: "status", text: undefined },
			{ kind: "notify", message: "Timebox off.", level: "info" },
			ended(null),
		]);
		expect(off.state.standing).toBeNull();
		// The run goes on, no longer the budget's: its end starts nothing more.
		expect(transition(off.state, RUN_END, DEADLINE + 2_000).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("picks the wrap-up up again in a hook of the same run, from the ledger (continue mode)", () => {
		const spent = { ...summary, wrapUpUntil: DEADLINE + 30_000, prompt: "p1" };
		const history = { budget: graced, lastPrompt: "p1", usedTurns: 1, lastPromptCounted: true };
		const loaded = transition(
			EMPTY_SESSION,
			loadEvent(history, { mode: "continue", runningPrompt: "p1", ledger: { spent } }),
			DEADLINE + 1_000,
		);
		expect(loaded.state.standing?.wrapUp).toEqual({
			prompt: "p1",
			until: DEADLINE + 30_000,
			refused: false,
			callsSinceRefusal: 0,
			outcomeId: "budget-1",
			onStopCommand: "lmk",
		});
		expect(loaded.effects).toEqual([{ kind: "status", text: WRAP_UP_STATUS }]);
		const other = transition(
			EMPTY_SESSION,
			loadEvent(history, { mode: "continue", runningPrompt: "p2", ledger: { spent } }),
			DEADLINE,
		);
		expect(other.state.standing?.wrapUp).toBeNull();
		const plain = transition(
			EMPTY_SESSION,
			loadEvent(history, { mode: "continue", runningPrompt: "p1", ledger: { spent: { ...summary, prompt: "p1" } } }),
			DEADLINE,
		);
		expect(plain.state.standing?.wrapUp).toBeNull();
	});
});
