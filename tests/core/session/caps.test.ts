// The cap on a model call's answer under a tokens: or cost: budget: the room left less a bound on the call's input, the
// call that cannot hold a minimal answer not sent (the budget spent there, once, with its on-stop command), the same for
// a subagent's budget, and a property: a model that always answers with as many tokens as it may, and reports an input
// within the bound, never takes the budget past its limit.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_ANSWER_TOKENS, NOTE_ALLOWANCE_BYTES } from "../../../src/core/constants.ts";
import type { SpentSummary, TimeboxBudget } from "../../../src/core/model/budget.ts";
import type { ModelRequest } from "../../../src/core/model/events.ts";
import { mergeAnswer, noAnswer } from "../../../src/core/run/executor.ts";
import { type CappedSession, capsInForce, inputBound, roomLeft } from "../../../src/core/session/caps.ts";
import { type Effect, type SessionEvent, type SessionState, transition } from "../../../src/core/session/index.ts";
import { describeTaskBudget } from "../../../src/core/subagents/describe.ts";
import {
	SUBAGENT_WRAP_UP_BLOCK,
	subagentBudgetBlock,
	subagentWarningBlock,
} from "../../../src/core/subagents/messages.ts";
import {
	BUDGET_IN_FORCE_PROMPT,
	formatNudgePrompt,
	formatStepsWrapUp,
	WRAP_UP_PROMPT,
} from "../../../src/core/text/model-notes.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import { contextOf, notices, once, session, withBudget } from "../../support/session.ts";
import { subagentSession } from "../../support/subagents.ts";

/** A request whose latest answer reported 10,000 prompt tokens, with 2,000 bytes added since: bound 16,096 tokens. */
const request = (more: Partial<ModelRequest> = {}): ModelRequest => ({
	answeredInput: 10_000,
	addedBytes: 2_000,
	...more,
});
const BOUND = 10_000 + 2_000 + NOTE_ALLOWANCE_BYTES;
/** Anthropic's Sonnet prices, in dollars per million tokens. */
const PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

const callWith = (prompt: string | null, more: Partial<ModelRequest> = {}): SessionEvent => ({
	type: "modelCall",
	prompt,
	request: request(more),
});
const capOf = (effects: readonly Effect[]): number | undefined =>
	effects.flatMap((effect) => (effect.kind === "capOutput" ? [effect.maxTokens] : [])).at(-1);
const NO_ROOM_SPENT = (usage: string) =>
	`Timebox budget spent. Used 0 turns, 0s, ${usage} (too little left for the next model call). The agent stops for this turn. The chat continues.`;

describe("the bound on a call's input", () => {
	it("is the latest answer's prompt, a token per byte added since, and what Timebox adds itself", () => {
		expect(inputBound(request())).toBe(BOUND);
		expect(inputBound({ addedBytes: 30_000 })).toBe(30_000 + NOTE_ALLOWANCE_BYTES);
	});

	it("counts a figure that is not a count as nothing", () => {
		expect(inputBound({ answeredInput: Number.NaN, addedBytes: -5 })).toBe(NOTE_ALLOWANCE_BYTES);
	});

	it("holds every block Timebox can add to one call at once, with room to spare", () => {
		const all = budget({
			timeLimitMs: 90 * MINUTE,
			turnLimit: 1_000_000,
			tokenLimit: 1_000_000_000,
			costLimit: 10_000,
			stepLimit: 10_000,
		});
		const task = {
			timeLimitMs: 30 * 24 * 60 * MINUTE,
			stepLimit: 10_000,
			tokenLimit: 1_000_000_000,
			costLimit: 10_000,
		};
		const blocks = [
			formatNudgePrompt(
				all,
				START,
				999_999,
				"critical",
				10 * MINUTE,
				{ tokens: 1, cost: 0.01 },
				{
					used: 10_000,
					allowed: 20_000,
				},
			),
			formatStepsWrapUp(10_000),
			WRAP_UP_PROMPT,
			subagentBudgetBlock(describeTaskBudget(task)),
			subagentWarningBlock(true, "29d 23h 59m 59s and 10,000 model calls and 999.9m tokens and $9,999.99"),
			SUBAGENT_WRAP_UP_BLOCK,
			BUDGET_IN_FORCE_PROMPT,
			// Two daily budgets (the user's and the project's), each with its line.
			"Today's budget (shared by every session): 23h 59m 59s of agent time, 999,999 prompts, 999.9m tokens and $9,999.99 left of 24h of agent time, 1,000,000 prompts, 1b tokens and $10,000.00. Wrap up what you are doing, and start nothing new.",
			"Today's budget (shared by every session): 23h 59m 59s of agent time, 999,999 prompts, 999.9m tokens and $9,999.99 left of 24h of agent time, 1,000,000 prompts, 1b tokens and $10,000.00. Wrap up what you are doing, and start nothing new.",
		];
		expect(Buffer.byteLength(blocks.join("\n\n"), "utf8")).toBeLessThan(2_500);
		expect(NOTE_ALLOWANCE_BYTES).toBeGreaterThan(2_500);
	});
});

describe("the room a call has", () => {
	it.each<
		[string, { tokenLimit?: number; costLimit?: number }, { tokens: number; cost: number }, ModelRequest, unknown]
	>([
		[
			"the tokens left less the bound",
			{ tokenLimit: 100_000 },
			{ tokens: 50_000, cost: 0 },
			request(),
			{ tokens: 33_904, limit: "tokens" },
		],
		[
			"the dollars left less the input at the dearest input price, at the output price",
			{ costLimit: 1 },
			{ tokens: 0, cost: 0.4 },
			request({ prices: PRICES }),
			{ tokens: 35_975, limit: "cost" },
		],
		[
			"the smaller of the two",
			{ tokenLimit: 30_000, costLimit: 1 },
			{ tokens: 0, cost: 0.4 },
			request({ prices: PRICES }),
			{ tokens: 13_904, limit: "tokens" },
		],
		["none without a limit", {}, { tokens: 0, cost: 0 }, request({ prices: PRICES }), null],
		["none for a cost limit without prices", { costLimit: 1 }, { tokens: 0, cost: 0 }, request(), null],
		[
			"none for a model priced at nothing",
			{ costLimit: 1 },
			{ tokens: 0, cost: 0 },
			request({ prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }),
			null,
		],
		[
			"no bound on a model whose answers cost nothing",
			{ costLimit: 1 },
			{ tokens: 0, cost: 0.5 },
			request({ prices: { ...PRICES, output: 0 } }),
			{ tokens: Number.MAX_SAFE_INTEGER, limit: "cost" },
		],
		[
			"none left once the input alone would pass the cost",
			{ costLimit: 1 },
			{ tokens: 0, cost: 0.99 },
			request({ prices: PRICES }),
			{ tokens: -1, limit: "cost" },
		],
		[
			"less than none past the tokens",
			{ tokenLimit: 10_000 },
			{ tokens: 0, cost: 0 },
			request(),
			{ tokens: -6_096, limit: "tokens" },
		],
	])("%s", (_name, limits, spend, req, room) => {
		expect(roomLeft(limits, spend, req)).toEqual(room);
	});
});

describe("a model call under a tokens: budget", () => {
	const tokens = (
		spent: number,
		more: Partial<Parameters<typeof withBudget>[1]> = {},
		terms: Partial<TimeboxBudget> = {},
	) =>
		withBudget(budget({ tokenLimit: 100_000, onStopCommand: "lmk", ...terms }), {
			spend: { tokens: spent, cost: 0 },
			lastPrompt: "p1",
			running: true,
			...more,
		});

	it("is capped at what is left of the tokens, less the bound on its input", () => {
		expect(capOf(transition(tokens(50_000), callWith("p1"), START).effects)).toBe(33_904);
	});

	it("is capped on a new prompt's first call too, which counts", () => {
		const result = transition(tokens(50_000), callWith("p2"), START);
		expect(capOf(result.effects)).toBe(33_904);
		expect(result.state.standing?.usedTurns).toBe(1);
		expect(result.effects).toContainEqual({ kind: "recordPrompt", prompt: "p2" });
	});

	it("goes with a minimal answer's room exactly", () => {
		const spent = 100_000 - BOUND - MIN_ANSWER_TOKENS;
		expect(capOf(transition(tokens(spent), callWith("p1"), START).effects)).toBe(MIN_ANSWER_TOKENS);
	});

	it("is not sent with one token less: the budget is spent there, once, with its on-stop command", () => {
		const spent = 100_000 - BOUND - MIN_ANSWER_TOKENS + 1;
		const result = transition(tokens(spent), callWith("p1"), START);
		const message = NO_ROOM_SPENT("81,857 of 100,000 tokens");
		const summary: SpentSummary = {
			usedTurns: 0,
			elapsedMs: 0,
			timeRanOut: false,
			limit: "tokens",
			tokens: spent,
			noRoom: true,
		};
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: budget spent" },
			once({ kind: "spent", budgetId: "budget-1", summary, prompt: "p1", onStopCommand: "lmk" }, [
				{ kind: "notify", message, level: "error" },
				{ kind: "startOnStop", command: "lmk", claim: { budgetId: "budget-1", kind: "spent" } },
			]),
			{ kind: "abort" },
			{ kind: "refuse", reason: message },
		]);
		expect(result.state.standing?.spent).toEqual(summary);
	});

	it("stops a new prompt that cannot fit before it counts, and keeps it out of the history", () => {
		const result = transition(tokens(90_000), callWith("p2"), START);
		expect(notices(result.effects)).toEqual([NO_ROOM_SPENT("90,000 of 100,000 tokens")]);
		expect(result.effects).not.toContainEqual({ kind: "recordPrompt", prompt: "p2" });
		expect(result.state.standing?.usedTurns).toBe(0);
		expect(capOf(result.effects)).toBeUndefined();
	});

	it("stops a run an extension started that cannot fit", () => {
		const event: SessionEvent = { ...callWith("ext"), startedBy: "extension" } as SessionEvent;
		expect(notices(transition(tokens(90_000), event, START).effects)).toEqual([
			NO_ROOM_SPENT("90,000 of 100,000 tokens"),
		]);
	});

	it("with a grace period, wraps up in that call at a minimal answer", () => {
		const result = transition(tokens(90_000, {}, { graceMs: 30_000 }), callWith("p1"), START);
		expect(notices(result.effects)).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, 90,000 of 100,000 tokens (too little left for the next model call). The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.",
		]);
		expect(contextOf(result.effects).map((block) => block.text)).toEqual([WRAP_UP_PROMPT]);
		expect(capOf(result.effects)).toBe(MIN_ANSWER_TOKENS);
		const next = transition(result.state, callWith("p1"), START + 1_000);
		expect(capOf(next.effects)).toBe(MIN_ANSWER_TOKENS);
	});

	it("is not capped in a wrap-up that time started: only tokens and cost are capped", () => {
		const timed = tokens(0, {}, { timeLimitMs: MINUTE, graceMs: 30_000 });
		const wrapping = transition(timed, callWith("p1"), START + MINUTE);
		expect(contextOf(wrapping.effects).map((block) => block.text)).toEqual([WRAP_UP_PROMPT]);
		expect(capOf(wrapping.effects)).toBeUndefined();
	});

	it("is not capped where the host tells nothing of the request: the stop comes after the answer, as before", () => {
		const result = transition(tokens(90_000), { type: "modelCall", prompt: "p1" }, START);
		expect(capOf(result.effects)).toBeUndefined();
		expect(result.state.standing?.spent).toBeNull();
	});

	it.each<[string, SessionState]>([
		["without a budget", session({ lastPrompt: "p1", running: true })],
		[
			"under a budget of time and prompts",
			withBudget(budget({ timeLimitMs: MINUTE, turnLimit: 3 }), { lastPrompt: "p1" }),
		],
		["while paused", tokens(50_000, {}, { pausedAt: START })],
		["once spent", tokens(50_000, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true }, stoppedPrompt: "p0" })],
	])("is not capped %s", (_name, state) => {
		expect(capOf(transition(state, callWith("p1"), START).effects)).toBeUndefined();
	});

	it("is not capped when it is refused: the prompts are used up", () => {
		const used = withBudget(budget({ turnLimit: 1, tokenLimit: 100_000 }), { usedTurns: 1, lastPrompt: "p1" });
		const result = transition(used, callWith("p2"), START);
		expect(result.effects).toContainEqual({ kind: "abort" });
		expect(capOf(result.effects)).toBeUndefined();
	});
});

describe("a request about to be sent, where the host shows it only then", () => {
	const tokens = (
		spent: number,
		more: Partial<Parameters<typeof withBudget>[1]> = {},
		terms: Partial<TimeboxBudget> = {},
	) =>
		withBudget(budget({ tokenLimit: 100_000, ...terms }), {
			spend: { tokens: spent, cost: 0 },
			lastPrompt: "p1",
			running: true,
			...more,
		});
	const sent: SessionEvent = { type: "modelRequest", request: request() };

	it("is capped at what is left, less the bound on its input, and counts nothing again", () => {
		const result = transition(tokens(50_000, { usedTurns: 1 }), sent, START);
		expect(capOf(result.effects)).toBe(33_904);
		expect(result.state.standing?.usedTurns).toBe(1);
		expect(result.effects.map((effect) => effect.kind)).not.toContain("recordPrompt");
	});

	it("is not sent when not even a minimal answer fits: the budget is spent there", () => {
		const result = transition(tokens(90_000), sent, START);
		expect(notices(result.effects)).toEqual([NO_ROOM_SPENT("90,000 of 100,000 tokens")]);
		expect(result.effects).toContainEqual({ kind: "abort" });
		expect(capOf(result.effects)).toBeUndefined();
	});

	it("in a wrap-up the tokens started, is capped at a minimal answer; after a stop, is refused again", () => {
		const wrapping = transition(tokens(90_000, {}, { graceMs: 30_000 }), callWith("p1"), START).state;
		expect(transition(wrapping, sent, START + 1_000).effects).toEqual([
			{ kind: "capOutput", maxTokens: MIN_ANSWER_TOKENS },
		]);
		const stopped = transition(tokens(90_000), sent, START).state;
		const again = transition(stopped, sent, START + 1_000).effects;
		expect(again).toEqual([
			{ kind: "abort" },
			{
				kind: "refuse",
				reason: "Timebox budget spent. Used 0 turns, 0s. The agent stops for this turn. The chat continues.",
			},
		]);
	});

	it("waits, unchecked, while the limit question is open", () => {
		const asking = { ...tokens(90_000), asking: true };
		expect(transition(asking, sent, START).effects.map((effect) => effect.kind)).toEqual(["status"]);
	});
});

describe("a model call under a cost: budget", () => {
	const dollars = (spent: number) =>
		withBudget(budget({ costLimit: 1 }), { spend: { tokens: 0, cost: spent }, lastPrompt: "p1", running: true });

	it("is capped at the dollars left at the model's prices", () => {
		expect(capOf(transition(dollars(0.4), callWith("p1", { prices: PRICES }), START).effects)).toBe(35_975);
	});

	it("is not sent when the dollars left cannot pay its input and a minimal answer", () => {
		const result = transition(dollars(0.95), callWith("p1", { prices: PRICES }), START);
		expect(notices(result.effects)).toEqual([NO_ROOM_SPENT("$0.95 of $1.00")]);
		expect(result.state.standing?.spent?.limit).toBe("cost");
	});

	it("is not capped for a model that reports no prices", () => {
		expect(capOf(transition(dollars(0.9), callWith("p1"), START).effects)).toBeUndefined();
	});
});

describe("a subagent's model call", () => {
	const agentCall = (agent: string, more: Partial<ModelRequest> = {}): SessionEvent => ({
		type: "modelCall",
		prompt: null,
		agent,
		request: request(more),
	});

	it("is capped at the smaller of the session's room and its own", () => {
		const both = subagentSession({ session: "tokens:100k", subagents: "tokens:20k" });
		both.start("a1");
		expect(both.handle(agentCall("a1")).maxOutputTokens).toBe(20_000 - BOUND);
		const sessionOnly = subagentSession({ session: "tokens:20k" });
		sessionOnly.start("a1");
		expect(sessionOnly.handle(agentCall("a1")).maxOutputTokens).toBe(20_000 - BOUND);
	});

	it("concludes when its own budget has no room for the call, at a minimal answer", () => {
		const session = subagentSession({ session: "tokens:100k", subagents: "tokens:20k" });
		session.start("a1");
		session.used(3_000, 0, "a1");
		const answer = session.handle(agentCall("a1"));
		expect(answer.context).toEqual([SUBAGENT_WRAP_UP_BLOCK]);
		expect(answer.refusal).toBeNull();
		expect(answer.maxOutputTokens).toBe(MIN_ANSWER_TOKENS);
		expect(session.state.subagents.runs.a1?.spent?.limit).toBe("tokens");
	});

	it("spends the session's budget when the session has no room for it: the call is refused, the subagent stopped", () => {
		const session = subagentSession({ session: "tokens:20k" });
		session.call();
		session.start("a1");
		session.used(2_000, 0, "a1");
		const answer = session.handle(agentCall("a1"));
		expect(answer.notices.map((notice) => notice.message)).toContain(NO_ROOM_SPENT("2,000 of 20,000 tokens"));
		expect(answer.stoppedAgents).toEqual(["a1"]);
		expect(answer.refusal).not.toBeNull();
		expect(answer.maxOutputTokens).toBeUndefined();
		expect(session.state.standing?.spent?.noRoom).toBe(true);
	});

	it("is not capped without a budget of tokens or cost, or where the host tells nothing of it", () => {
		const session = subagentSession({ session: "30m", subagents: "5m" });
		session.start("a1");
		expect(session.handle(agentCall("a1")).maxOutputTokens).toBeUndefined();
		const told = subagentSession({ session: "tokens:100k" });
		told.start("a1");
		expect(told.call("a1").maxOutputTokens).toBeUndefined();
	});
});

describe("a call in flight", () => {
	const agentCall = (agent: string): SessionEvent => ({ type: "modelCall", prompt: null, agent, request: request() });

	it("holds back the most it may use from a subagent's call made while it is open, until its answer comes", async () => {
		const session = subagentSession({ session: "tokens:100k" });
		// The main agent's call goes, capped at 100k less its bound: open while the subagent it starts works.
		const main = session.handle(callWith("p1"));
		expect(main.maxOutputTokens).toBe(100_000 - BOUND);
		expect(session.state.standing?.inFlight).toEqual({ "": { tokens: 100_000, cost: 0 } });
		session.start("a1");
		// Nothing is left beside it: the subagent's call cannot fit, and the session's budget is spent there.
		const refused = session.handle(agentCall("a1"));
		expect(refused.refusal).not.toBeNull();
		expect(refused.notices.map((notice) => notice.message)[0]).toContain("0 of 100,000 tokens (too little left");
	});

	it("holds nothing back once its answer came, and nothing once its run ended", () => {
		const session = subagentSession({ session: "tokens:100k" });
		session.handle(callWith("p1"));
		session.handle({ type: "modelResponse", tokens: 20_000, cost: 0 });
		expect(session.state.standing?.inFlight).toEqual({});
		session.start("a1");
		const capped = session.handle(agentCall("a1"));
		expect(capped.maxOutputTokens).toBe(100_000 - 20_000 - BOUND);
		// The subagent's own call is its own to replace, never held against itself.
		expect(session.handle(agentCall("a1")).maxOutputTokens).toBe(100_000 - 20_000 - BOUND);
		session.handle({ type: "runEnd" });
		expect(session.state.standing?.inFlight).toBeUndefined();
		session.handle({ type: "runEnd" });
		expect(session.state.standing?.inFlight).toBeUndefined();
	});

	it("holds back its cost at the dearest prices", () => {
		const session = subagentSession({ session: "$1" });
		session.handle(callWith("p1", { prices: PRICES }));
		const most = session.state.standing?.inFlight?.[""];
		const cap = Math.floor(((1 - (BOUND * 3.75) / 1e6) * 1e6) / 15 - 1e-6);
		expect(most?.tokens).toBe(BOUND + cap);
		expect(most?.cost).toBeCloseTo((BOUND * 3.75 + cap * 15) / 1e6, 9);
		expect(most?.cost).toBeLessThanOrEqual(1);
	});
});

describe("the answer's cap", () => {
	it("keeps the lower of two caps when answers merge, and none when neither has one", () => {
		const capped = { ...noAnswer(), maxOutputTokens: 5_000 };
		expect(mergeAnswer(noAnswer(), capped).maxOutputTokens).toBe(5_000);
		expect(mergeAnswer({ ...noAnswer(), maxOutputTokens: 3_000 }, capped).maxOutputTokens).toBe(3_000);
		expect(mergeAnswer(capped, noAnswer()).maxOutputTokens).toBe(5_000);
		expect(mergeAnswer(noAnswer(), noAnswer()).maxOutputTokens).toBeUndefined();
	});
});

describe("a model that always answers with as many tokens as it may", () => {
	it("never takes a tokens: or cost: budget past its limit, and the budget ends spent without room", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 20_000, max: 2_000_000 }),
				fc.option(fc.double({ min: 0.05, max: 50, noNaN: true }), { nil: undefined }),
				fc.array(
					fc.record({ added: fc.integer({ min: 0, max: 40_000 }), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
					{
						minLength: 1,
						maxLength: 60,
					},
				),
				(tokenLimit, costLimit, calls) => {
					const terms = costLimit === undefined ? { tokenLimit } : { tokenLimit, costLimit };
					let state = withBudget(budget(terms), { lastPrompt: "p1", running: true });
					let prompt = 0;
					for (const { added, share } of calls) {
						const req: ModelRequest = { answeredInput: prompt, addedBytes: added, prices: PRICES };
						const result = transition(state, { type: "modelCall", prompt: "p1", request: req }, START);
						state = result.state;
						if (state.standing?.spent) return state.standing.spent.noRoom === true;
						const cap = capOf(result.effects);
						if (cap === undefined) return false;
						// The input within its bound (a tokenizer makes at most a token per byte), the answer as long as allowed.
						const input = Math.floor((prompt + added) * share + prompt * (1 - share));
						const cost = (Math.max(input, 0) * PRICES.cacheWrite + cap * PRICES.output) / 1_000_000;
						state = transition(state, { type: "modelResponse", tokens: input + cap, cost }, START).state;
						const spend = state.standing?.spend ?? { tokens: 0, cost: 0 };
						if (spend.tokens > tokenLimit) return false;
						if (costLimit !== undefined && spend.cost > costLimit) return false;
						prompt = input;
					}
					return true;
				},
			),
		);
	});
});

describe("whether a model call's request matters to the rules (capsInForce)", () => {
	const session = (
		budget: CappedSession["standing"],
		byType: Record<string, { budget: { tokenLimit?: number; costLimit?: number } }> | null = null,
		runs: CappedSession["subagents"]["runs"] = {},
	): CappedSession => ({ standing: budget, subagents: { budgets: byType === null ? null : { byType }, runs } });

	it.each([
		["no budget at all", session(null), false],
		["a budget of time and turns only", session({ budget: {} }), false],
		["a session budget of tokens", session({ budget: { tokenLimit: 1000 } }), true],
		["a session budget of cost", session({ budget: { costLimit: 2 } }), true],
		["a subagent budget of time only, set for new subagents", session(null, { "*": { budget: {} } }), false],
		["a subagent budget of tokens, set for one type", session(null, { explore: { budget: { tokenLimit: 50 } } }), true],
		["a running subagent with a budget of cost", session(null, null, { a1: { budget: { costLimit: 1 } } }), true],
		["a running subagent with no budget", session(null, null, { a1: { budget: null } }), false],
	])("%s", (_name, state, expected) => {
		expect(capsInForce(state)).toBe(expected);
	});
});
