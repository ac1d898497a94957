// The daily budget's rules, pure: reading the setting, what is spent, the warnings once per level, the refusal of a new
// prompt, the stop of a run whose own time spends the day, /timebox today, and the agent time a run adds.

import { describe, expect, it } from "vitest";
import {
	type DailyBudget,
	type DailyStanding,
	dailyTransition,
	NO_ADJUSTMENT,
	NO_DAILY_SESSION,
	PERSONAL_KEPT,
	parseDailyBudget,
	parseToday,
	promptTakenMessage,
	todayCommand,
	todayReport,
} from "../../src/core/daily/daily.ts";
import { dailyWho } from "../../src/core/daily/daily-text.ts";
import type { Effect } from "../../src/core/model/events.ts";
import { START } from "../support/budgets.ts";

const HOUR = 3_600_000;
const budget = (text: string, scope = "user"): DailyBudget => {
	const parsed = parseDailyBudget(text, scope, "timebox.daily in settings.json");
	if ("warning" in parsed) throw new Error(parsed.warning);
	return parsed;
};
const standing = (
	b: DailyBudget,
	use: Partial<DailyStanding["use"]> = {},
	adjustment = NO_ADJUSTMENT,
): DailyStanding => ({
	budget: b,
	use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 1, ...use },
	adjustment,
	dayStart: START - HOUR,
});
/** Whether the effects count the new prompt. */
const counts = (effects: readonly Effect[]) => effects.some((effect) => effect.kind === "countPrompt");
/** The agent time the effects add to today's use. */
const agentMsOf = (effects: readonly Effect[]) =>
	effects.reduce((sum, effect) => sum + (effect.kind === "addDailyUse" ? (effect.use.agentMs ?? 0) : 0), 0);
const messages = (effects: readonly { kind: string; message?: string }[]) =>
	effects.flatMap((effect) => (effect.kind === "notify" && effect.message ? [effect.message] : []));

describe("reading a daily budget", () => {
	it("takes time, prompts (turns:), tokens and cost, and nothing a session budget alone has", () => {
		expect(budget("3h turns:60 $10").limits).toEqual({ timeMs: 3 * HOUR, turns: 60, tokens: null, cost: 10 });
		expect(parseDailyBudget("3h steps:5", "user", "timebox.daily in s.json")).toEqual({
			warning:
				"Timebox: timebox.daily in s.json: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.",
		});
		expect(parseDailyBudget(true, "user", "timebox.daily in s.json")).toEqual({
			warning:
				'Timebox: timebox.daily in s.json: "true" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k or cost:2.50. No daily budget is enforced from it.',
		});
		expect(parseDailyBudget("status", "user", "x")).toEqual({
			warning: 'Timebox: x: "status" is not a budget. No daily budget is enforced from it.',
		});
	});
});

describe("the daily rules", () => {
	const three = budget("turns:3 1h");

	it("names the limits the day reached, each that did, or all where the standing shows none reached", () => {
		const all = budget("1h turns:3 tokens:100 $2");
		const refuse = (use: Partial<DailyStanding["use"]>) =>
			messages(dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(all, use)], START).effects);
		expect(refuse({ prompts: 3 })).toEqual(["Timebox: today's budget is spent (3 prompts). It resets at midnight."]);
		expect(refuse({ tokens: 100, cost: 2.5 })).toEqual([
			"Timebox: today's budget is spent (100 tokens and $2.00). It resets at midnight.",
		]);
		expect(refuse({ agentMs: HOUR })).toEqual([
			"Timebox: today's budget is spent (1h of agent time). It resets at midnight.",
		]);
		// Another session took the last prompt before this one's count: the standing read before shows room.
		const counted = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(all, { prompts: 1 })], START);
		const count = counted.effects.find((effect) => effect.kind === "countPrompt");
		expect(messages(count?.kind === "countPrompt" ? count.refused : [])).toEqual([
			"Timebox: today's budget is spent (3 prompts). It resets at midnight.",
		]);
		// A ledger that refuses the count of a day whose standing reached nothing: every limit is named.
		const hours = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(budget("2h $5"))], START);
		const none = hours.effects.find((effect) => effect.kind === "countPrompt");
		expect(messages(none?.kind === "countPrompt" ? none.refused : [])).toEqual([
			"Timebox: today's budget is spent (2h of agent time and $5.00). It resets at midnight.",
		]);
	});

	it("counts a new prompt while the day has room, and refuses one once it is spent, naming the budget", () => {
		const fresh = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(three, { prompts: 2 })], START);
		expect(fresh).toMatchObject({ session: { runStartedAt: START } });
		expect(counts(fresh.effects)).toBe(true);
		const spent = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(three, { prompts: 3 })], START);
		expect(counts(spent.effects)).toBe(false);
		expect(spent.effects).toEqual([
			{
				kind: "notify",
				message: "Timebox: today's budget is spent (3 prompts). It resets at midnight.",
				level: "error",
			},
			{ kind: "abort" },
			{
				kind: "refuse",
				reason: "Timebox: today's budget is spent (3 prompts). It resets at midnight.",
			},
		]);
	});

	it("stops a run whose own time spends the day, once, with its agent time so far, and adds the rest when it ends", () => {
		const started = dailyTransition(
			NO_DAILY_SESSION,
			{ type: "newPrompt" },
			[standing(three, { agentMs: HOUR - 60_000 })],
			START,
		).session;
		const later = [standing(three, { agentMs: HOUR - 60_000 })];
		expect(dailyTransition(started, { type: "duringRun", modelCall: false }, later, START + 59_000).effects).toEqual(
			[],
		);
		const stopped = dailyTransition(started, { type: "duringRun", modelCall: false }, later, START + 60_000);
		expect(messages(stopped.effects)).toEqual([
			"Timebox: today's budget is spent (1h of agent time). It resets at midnight.",
		]);
		// Counted at the stop: a host that sends no end of a run its hook stopped (Claude Code, Gemini CLI) loses none of it.
		expect(stopped.effects.filter((effect) => effect.kind === "addDailyUse")).toEqual([
			{ kind: "addDailyUse", use: { agentMs: 60_000 }, budgets: [three] },
		]);
		expect(stopped.session).toMatchObject({ runStartedAt: START + 60_000, stopped: true });
		// The day as the ledger holds it from then on: the hour, with the run's time so far.
		const spentDay = [standing(three, { agentMs: HOUR })];
		expect(
			dailyTransition(stopped.session, { type: "duringRun", modelCall: true }, spentDay, START + 61_000).effects.map(
				(effect) => effect.kind,
			),
		).toEqual(["abort", "refuse"]);
		expect(dailyTransition(stopped.session, { type: "runEnd" }, spentDay, START + 62_000)).toMatchObject({
			effects: [{ kind: "addDailyUse", use: { agentMs: 2_000 } }],
			session: { runStartedAt: null, stopped: false },
		});
		expect(dailyTransition(NO_DAILY_SESSION, { type: "runEnd" }, later, START).effects).toEqual([]);
		// pi ends a run before it retries a call: the retried call times the run again, without counting a prompt.
		const retried = dailyTransition(NO_DAILY_SESSION, { type: "duringRun", modelCall: true }, [standing(three)], START);
		expect(retried).toMatchObject({ effects: [{ kind: "reserveDaily" }], session: { runStartedAt: START } });
		expect(
			dailyTransition(NO_DAILY_SESSION, { type: "duringRun", modelCall: false }, later, START).session.runStartedAt,
		).toBeNull();
	});

	it("gives a follow-up's predecessor its time, and counts a run that began yesterday from midnight", () => {
		const first = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(three)], START).session;
		const followUp = dailyTransition(first, { type: "newPrompt" }, [standing(three)], START + 30_000);
		expect(agentMsOf(followUp.effects)).toBe(30_000);
		const yesterday = { ...first, runStartedAt: START - 2 * HOUR };
		expect(agentMsOf(dailyTransition(yesterday, { type: "runEnd" }, [standing(three)], START).effects)).toBe(HOUR);
	});

	it("warns the user once per level at 80% and 95%, and tells the model at every call", () => {
		const at80 = [standing(three, { agentMs: 0.8 * HOUR })];
		const first = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, at80, START);
		expect(messages(first.effects)).toEqual([
			"Timebox: today's budget: 12m 0s of agent time left of 1h and 3 prompts left of 3 — the model is asked to wrap up.",
		]);
		expect(first.context).toEqual([
			"Today's budget (shared by every session): 12m 0s of agent time left of 1h and 3 prompts left of 3. Wrap up what you are doing, and start nothing new.",
		]);
		const again = dailyTransition(first.session, { type: "duringRun", modelCall: true }, at80, START);
		// Each write names the budgets in force it is of: the standings'.
		expect(again.effects).toEqual([{ kind: "reserveDaily", budgets: [three] }]);
		expect(again.context).toHaveLength(1);
		const at95 = dailyTransition(
			again.session,
			{ type: "duringRun", modelCall: true },
			[standing(three, { agentMs: 0.95 * HOUR })],
			START,
		);
		expect(messages(at95.effects)).toHaveLength(1);
	});

	it("refuses a prompt another session took the last slot for, by the budget whose prompts ran out", () => {
		const hours = budget("2h", "project:/p");
		const counted = dailyTransition(
			NO_DAILY_SESSION,
			{ type: "newPrompt" },
			[standing(hours), standing(three, { prompts: 2 })],
			START,
		);
		const count = counted.effects.find((effect) => effect.kind === "countPrompt");
		expect(count).toMatchObject({ limits: [null, 3] });
		expect(messages(count?.kind === "countPrompt" ? count.refused : [])).toEqual([
			"Timebox: today's budget is spent (3 prompts). It resets at midnight.",
		]);
		expect(dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [], START).effects).toEqual([
			{ kind: "countPrompt", limits: [], refused: [], budgets: [] },
			{ kind: "reserveDaily", budgets: [] },
		]);
	});

	it("adds what an answer's model call used, and stops the run when that spends the day", () => {
		const run = { ...NO_DAILY_SESSION, runStartedAt: START };
		const tokens = [standing(budget("tokens:1k"), { tokens: 500 })];
		const answered = dailyTransition(
			run,
			{ type: "duringRun", modelCall: false, used: { tokens: 10, cost: 0 } },
			tokens,
			START,
		);
		const inForce = tokens.map((one) => one.budget);
		expect(answered.effects).toEqual([{ kind: "addDailyUse", use: { tokens: 10, cost: 0 }, budgets: inForce }]);
		const spent = dailyTransition(
			run,
			{ type: "duringRun", modelCall: false, used: { tokens: 600, cost: 0.1 } },
			tokens,
			START,
		);
		expect(spent.effects.map((effect) => effect.kind)).toEqual(["addDailyUse", "notify", "abort", "refuse"]);
		const idle = dailyTransition(
			NO_DAILY_SESSION,
			{ type: "duringRun", modelCall: false, used: { tokens: 1, cost: 0 } },
			tokens,
			START,
		);
		expect(idle.effects).toEqual([{ kind: "addDailyUse", use: { tokens: 1, cost: 0 }, budgets: inForce }]);
	});

	it("adds a run's time so far at each answer, so that other machines see a long run's time before it ends", () => {
		const run = { ...NO_DAILY_SESSION, runStartedAt: START };
		const answered = dailyTransition(
			run,
			{ type: "duringRun", modelCall: false, used: { tokens: 5, cost: 0 } },
			[standing(three)],
			START + 20_000,
		);
		expect(answered.effects).toEqual([
			{ kind: "addDailyUse", use: { tokens: 5, cost: 0, agentMs: 20_000 }, budgets: [three] },
		]);
		expect(answered.session.runStartedAt).toBe(START + 20_000);
		const ended = dailyTransition(answered.session, { type: "runEnd" }, [standing(three)], START + 30_000);
		expect(ended.effects).toEqual([{ kind: "addDailyUse", use: { agentMs: 10_000 }, budgets: [three] }]);
	});

	it("refuses a new prompt, and only a new prompt, while a team's store cannot be reached in the closed mode", () => {
		const closed = { ...standing(three), closed: "Timebox: the store is down; new turns are refused." };
		const refused = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [closed], START);
		expect(messages(refused.effects)).toEqual(["Timebox: the store is down; new turns are refused."]);
		const run = { ...NO_DAILY_SESSION, runStartedAt: START };
		expect(dailyTransition(run, { type: "duringRun", modelCall: true }, [closed], START).effects).toEqual([
			{ kind: "reserveDaily", budgets: [three] },
		]);
	});

	it("names the team, its turns and its midnight when a team's budget is spent", () => {
		const team = { ...budget("turns:200"), team: { name: "platform", zone: "UTC" } };
		const spent = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(team, { prompts: 200 })], START);
		expect(messages(spent.effects)).toEqual([
			"Timebox: the team's budget for today is spent (200 turns). It resets at midnight UTC.",
		]);
		const one = { ...budget("turns:1 2h"), team: { name: "platform", zone: "Europe/Berlin" } };
		expect(
			messages(
				dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(one, { prompts: 1 })], START).effects,
			),
		).toEqual(["Timebox: the team's budget for today is spent (1 turn). It resets at midnight Europe/Berlin."]);
	});

	it("says a team's warning is of the team's budget, to the user and to the model", () => {
		const team = { ...budget("turns:200"), team: { name: "platform", zone: "UTC" } };
		const at80 = dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [standing(team, { prompts: 160 })], START);
		expect(messages(at80.effects)).toEqual([
			"Timebox: the team's budget for today: 40 turns left of 200 — the model is asked to wrap up.",
		]);
		expect(at80.context).toEqual([
			"The team's budget for today (shared by every member): 40 turns left of 200. Wrap up what you are doing, and start nothing new.",
		]);
	});

	it("enforces nothing while a budget is off for the day, and counts what was added today", () => {
		const off = standing(three, { prompts: 9 }, { ...NO_ADJUSTMENT, off: true });
		expect(counts(dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [off], START).effects)).toBe(true);
		const raised = standing(three, { prompts: 3 }, { ...NO_ADJUSTMENT, addPrompts: 2 });
		expect(counts(dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [raised], START).effects)).toBe(true);
		const tokens = standing(budget("tokens:1k $1"), { tokens: 1_000 });
		expect(counts(dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [tokens], START).effects)).toBe(false);
		const cost = standing(budget("tokens:1k $1"), { cost: 1 });
		expect(counts(dailyTransition(NO_DAILY_SESSION, { type: "newPrompt" }, [cost], START).effects)).toBe(false);
	});
});

describe("a prompt counted ahead that the ledger gave back", () => {
	it("is refused by the first budget with a prompt limit in force, as read after; by the first budget else", () => {
		const team = { ...budget("turns:2"), team: { name: "platform", zone: "UTC" } };
		const project = budget("turns:5", "project:/work");
		const off = { ...NO_ADJUSTMENT, off: true };
		expect(promptTakenMessage([standing(project, { prompts: 1 }, off), standing(team, { prompts: 2 })])).toBe(
			"Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.",
		);
		// Another session took the last prompt though the day read after does not show it yet: the first budget says so.
		expect(promptTakenMessage([standing(project, { prompts: 1 })])).toBe(
			"Timebox: today's budget is spent (5 prompts). It resets at midnight.",
		);
		expect(promptTakenMessage([])).toBeNull();
	});
});

describe("/timebox today", () => {
	it("reads nothing, off, or what to add, and refuses anything else", () => {
		expect(parseToday("")).toEqual({ kind: "show" });
		expect(parseToday("OFF")).toEqual({ kind: "off" });
		expect(parseToday("+30m +turns:5 +$2 +tokens:1k")).toEqual({
			kind: "add",
			adjustment: { addTimeMs: 30 * 60_000, addPrompts: 5, addTokens: 1_000, addCost: 2, off: false },
			added: "30m of agent time and 5 prompts and 1k tokens and $2.00",
		});
		expect(parseToday("+30m +5")).toMatchObject({ kind: "add" });
		expect(parseToday("15m")).toEqual({
			kind: "invalid",
			reason: "After /timebox today: nothing, off, or what to add (+30m, +turns:5, +$2).",
		});
	});

	it("shows a team's use, who used it by sessions, and when its day resets", () => {
		const team = { ...budget("turns:8"), team: { name: "platform", zone: "UTC" } };
		const members = [
			{ name: "ann@m1 (pi)", sessions: 2 },
			{ name: "bob@m2 (codex)", sessions: 1 },
		];
		expect(todayReport([standing(team, { prompts: 8, sessions: 3, members })]).split("\n")).toEqual([
			"Timebox today: 1 daily budget.",
			"The team platform (timebox.daily in settings.json): 8 of 8 turns used, 0 left. Used by 3 sessions. By ann@m1 (pi) 2 sessions, bob@m2 (codex) 1 session. It resets at midnight UTC.",
		]);
		const off = standing(team, { sessions: 0 }, { ...NO_ADJUSTMENT, off: true });
		expect(todayReport([off]).split("\n")[1]).toBe(
			"The team platform (timebox.daily in settings.json): 0 of 8 turns used, 8 left. Used by no session yet. Off until midnight. It resets at midnight UTC.",
		);
		// The report page names who shares the budget the same way.
		expect(dailyWho(off)).toBe("The team platform (timebox.daily in settings.json)");
		expect(dailyWho(standing(budget("turns:8"), { sessions: 0 }))).toBe(
			"Every session (timebox.daily in settings.json)",
		);
	});

	it("shows each limited dimension as used of limit and what is left, no other, and how many sessions used it", () => {
		expect(todayReport([])).toBe(
			'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of pi\'s settings.json.',
		);
		expect(todayReport([standing(budget("turns:3"), { prompts: 2, sessions: 2 })]).split("\n")).toEqual([
			"Timebox today: 1 daily budget.",
			"Every session (timebox.daily in settings.json): 2 of 3 prompts used, 1 left. Used by 2 sessions.",
		]);
		const report = todayReport([
			standing(budget("3h turns:60 tokens:1m $10"), {
				agentMs: HOUR,
				prompts: 12,
				tokens: 150_000,
				cost: 1.5,
				sessions: 2,
			}),
			standing(budget("turns:1", "project:/p"), { prompts: 1 }, { ...NO_ADJUSTMENT, off: true }),
			standing(budget("10m $1", "project:/q"), { agentMs: 11 * 60_000, cost: 0.25, sessions: 0 }),
			standing(budget("turns:3"), { prompts: 4 }, { ...NO_ADJUSTMENT, addPrompts: 2 }),
		]);
		expect(report.split("\n")).toEqual([
			"Timebox today: 4 daily budgets.",
			"Every session (timebox.daily in settings.json): 1h 0m of 3h of agent time used, 2h 0m left; 12 of 60 prompts used, 48 left; 150k of 1m tokens used, 850k left; $1.50 of $10.00 used, $8.50 left. Used by 2 sessions.",
			"This project (timebox.daily in settings.json): 1 of 1 prompt used, 0 left. Used by 1 session. Off until midnight.",
			"This project (timebox.daily in settings.json): 11m 0s of 10m of agent time used, 0s left; $0.25 of $1.00 used, $0.75 left. Used by no session yet.",
			"Every session (timebox.daily in settings.json): 4 of 5 prompts used, 1 left. Used by 1 session.",
		]);
	});
});

describe("the agent time left of a day", () => {
	it("is counted up to the whole second, as a session's time left is, so a moment used leaves the whole day", () => {
		expect(todayReport([standing(budget("4h"), { agentMs: 500, sessions: 1 })]).split("\n")[1]).toBe(
			"Every session (timebox.daily in settings.json): 0s of 4h of agent time used, 4h 0m left. Used by 1 session.",
		);
		expect(todayReport([standing(budget("4h"), { agentMs: 30_500, sessions: 1 })]).split("\n")[1]).toBe(
			"Every session (timebox.daily in settings.json): 30s of 4h of agent time used, 3h 59m left. Used by 1 session.",
		);
		expect(todayReport([standing(budget("1m"), { agentMs: 59_001, sessions: 1 })]).split("\n")[1]).toBe(
			"Every session (timebox.daily in settings.json): 59s of 1m of agent time used, 1s left. Used by 1 session.",
		);
	});
});

describe("/timebox today against today's standings", () => {
	const tokens = budget("tokens:1k $1");

	it("names what is left of tokens and cost in the warning", () => {
		const result = dailyTransition(
			NO_DAILY_SESSION,
			{ type: "newPrompt" },
			[standing(tokens, { tokens: 850, cost: 0.85 })],
			START,
		);
		expect(messages(result.effects)).toEqual([
			"Timebox: today's budget: 150 tokens left of 1k and $0.15 left of $1.00 — the model is asked to wrap up.",
		]);
	});

	it("shows, turns off or raises every budget, writing only the change, and refuses other words", () => {
		const standings = [standing(budget("turns:3"), { prompts: 3 }, { ...NO_ADJUSTMENT, addPrompts: 1 })];
		expect(todayCommand(standings, "")).toMatchObject({ level: "info", effects: [] });
		expect(todayCommand([], "+5m")).toMatchObject({ message: todayReport([]), effects: [] });
		expect(todayCommand(standings, "15m")).toMatchObject({ level: "warning", effects: [] });
		const budgets = standings.map((standing) => standing.budget);
		expect(todayCommand(standings, "off")).toEqual({
			message: null,
			level: "info",
			effects: [
				{
					kind: "adjustDaily",
					adjustment: { ...NO_ADJUSTMENT, off: true },
					budgets,
					done: [
						{
							kind: "notify",
							message: "Timebox: today's budget is off until midnight, in every session it covers.",
							level: "info",
						},
					],
				},
			],
		});
		const raised = todayCommand(standings, "+turns:2 +5m +tokens:1k +$1");
		expect(raised.message).toBeNull();
		const [effect] = raised.effects;
		expect(effect).toMatchObject({
			kind: "adjustDaily",
			adjustment: { addTimeMs: 300_000, addPrompts: 2, addTokens: 1_000, addCost: 1, off: false },
			budgets,
		});
		const done = effect?.kind === "adjustDaily" ? effect.done?.[0] : undefined;
		expect(done?.kind === "notify" ? done.message.split("\n") : []).toEqual([
			"Timebox: today's budget raised by 5m of agent time and 2 prompts and 1k tokens and $1.00 for the rest of the day.",
			"Timebox today: 1 daily budget.",
			"Every session (timebox.daily in settings.json): 3 of 6 prompts used, 3 left. Used by 1 session.",
		]);
	});

	it("raises a team's day by each amount on what it was raised before, and never a member's own cap beside it", () => {
		const team = { ...budget("1h turns:3 tokens:2k $2"), team: { name: "platform", zone: "UTC" } };
		const own = { ...budget("turns:1"), personal: true as const };
		const before = { addTimeMs: HOUR / 2, addPrompts: 1, addTokens: 1_000, addCost: 1, off: false };
		const standings = [standing(team, { prompts: 2 }, before), standing(own, { prompts: 1 })];
		const raised = todayCommand(standings, "+turns:2 +5m +tokens:1k +$1").effects[0];
		expect(raised?.kind === "adjustDaily" ? raised.budgets : []).toEqual([team]);
		const done = raised?.kind === "adjustDaily" ? raised.done?.[0] : undefined;
		expect(done?.kind === "notify" ? done.message.split("\n") : []).toEqual([
			"Timebox: today's budget raised by 5m of agent time and 2 prompts and 1k tokens and $1.00 for the rest of the day.",
			"Timebox today: 2 daily budgets.",
			"The team platform (timebox.daily in settings.json): 0s of 1h 35m of agent time used, 1h 35m left; 2 of 6 turns used, 4 left; 0 of 4k tokens used, 4k left; $0.00 of $4.00 used, $4.00 left. Used by 1 session. It resets at midnight UTC.",
			"Every session (timebox.daily in settings.json): 1 of 1 prompt used, 0 left. Used by 1 session.",
			PERSONAL_KEPT,
		]);
		const off = todayCommand(standings, "off").effects[0];
		expect(off?.kind === "adjustDaily" ? [off.budgets, off.done] : []).toEqual([
			[team],
			[
				{
					kind: "notify",
					level: "info",
					message: `Timebox: today's budget is off until midnight, in every session it covers.\n${PERSONAL_KEPT}`,
				},
			],
		]);
		// A day turned off before stays off in the report of a raise.
		const wasOff = todayCommand([standing(team, {}, { ...before, off: true })], "+turns:1").effects[0];
		const report = wasOff?.kind === "adjustDaily" ? wasOff.done?.[0] : undefined;
		expect(report?.kind === "notify" ? report.message : "").toContain("Off until midnight.");
		// Words that are only spaces ask for the day, as none do.
		expect(todayCommand([standing(own)], "   ")).toEqual(todayCommand([standing(own)], ""));
	});
});
