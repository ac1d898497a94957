// A team's daily budget with its limits in the team's store, pure: which budgets are in force (the store's, a member's
// own as a personal cap beside them, or each machine's own without limits in the store), where each counts, which
// requests a raise answers, and `/timebox team` (show, set, ask, and every bad input with one clear line, nothing
// written).

import { describe, expect, it } from "vitest";
import {
	budgetsInForce,
	byWhereCounted,
	closedTeamStanding,
	countsInStore,
	type DailyBudget,
	type DailyStanding,
	NO_ADJUSTMENT,
	parseDailyBudget,
	parseTeam,
	requestsAnswered,
	type StoredLimits,
	type TeamAsk,
	type TeamView,
	teamCommand,
	teamStandings,
	teamStoreDidNotTake,
	teamStoreNotReached,
	teamWriteRefusal,
} from "../../src/core/daily/daily.ts";
import {
	ADMIN_ONLY,
	ASK_REFUSED,
	describeAdded,
	keptToday,
	NO_TEAM,
	noTeamLimitsHere,
	teamAsked,
	teamAsksFull,
	teamLimitsRemoved,
	teamLimitsSet,
	teamReport,
	teamTime,
} from "../../src/core/daily/team-text.ts";

const HOUR = 3_600_000;
const TEAM = { name: "platform", zone: "UTC" };
const own = (() => {
	const parsed = parseDailyBudget("turns:10", "user", "TIMEBOX_DAILY");
	if ("warning" in parsed) throw new Error(parsed.warning);
	return parsed;
})();
const STORED: StoredLimits = {
	limits: { timeMs: 4 * HOUR, turns: 200, tokens: null, cost: 50 },
	setBy: "admin@hq (codex)",
	setAt: Date.UTC(2026, 4, 2, 9, 14),
};
const USE = {
	agentMs: HOUR,
	prompts: 8,
	tokens: 0,
	cost: 1.5,
	sessions: 3,
	members: [{ name: "ann@m1 (pi)", sessions: 3 }],
};
const READING = {
	use: USE,
	stored: STORED,
	raise: { ...NO_ADJUSTMENT, addPrompts: 20 },
	dayStart: Date.UTC(2026, 4, 2),
};
const ask = (id: string, at: number, adjustment: Partial<TeamAsk["adjustment"]>, why = "a release"): TeamAsk => ({
	id,
	member: "bob@m2 (claude)",
	adjustment: { ...NO_ADJUSTMENT, ...adjustment },
	why,
	at,
});
const machine = (budgets: readonly DailyBudget[]): DailyStanding[] =>
	budgets.map((budget) => ({
		budget,
		use: { agentMs: 0, prompts: 2, tokens: 0, cost: 0, sessions: 1 },
		adjustment: NO_ADJUSTMENT,
		dayStart: 0,
	}));

describe("the daily budgets of a team's session", () => {
	it("are the store's limits, with each of the session's own a personal cap beside them, counted on the machine", () => {
		const [store, mine] = budgetsInForce([own], TEAM, STORED);
		expect(store).toEqual({
			scope: "team",
			source: "set in its store",
			limits: STORED.limits,
			team: TEAM,
			stored: STORED,
		});
		expect(mine).toEqual({ ...own, personal: true });
		expect([store, mine].map((budget) => countsInStore(budget as DailyBudget))).toEqual([true, false]);
		// A member with no daily budget of their own is held to the store's limits alone.
		expect(budgetsInForce([], TEAM, STORED)).toHaveLength(1);
	});

	it("are each machine's own, as the team's, counted in the store, while the store keeps no limits", () => {
		expect(budgetsInForce([own], TEAM, null)).toEqual([{ ...own, team: TEAM }]);
		expect(budgetsInForce([], TEAM, null)).toEqual([]);
	});

	it("stand as the store's use with the admin's raises, and a personal cap as this machine's use", () => {
		const standings = teamStandings([own], TEAM, READING, machine);
		expect(
			standings.map((standing) => [standing.budget.scope, standing.use.prompts, standing.adjustment.addPrompts]),
		).toEqual([
			["team", 8, 20],
			["user", 2, 0],
		]);
		// Without limits in the store, the admin's raises of the day apply to each machine's own limits as the team's.
		const legacy = teamStandings([own], TEAM, { ...READING, stored: null }, machine);
		expect(legacy.map((standing) => [standing.budget.team, standing.adjustment.addPrompts])).toEqual([[TEAM, 20]]);
		// A machine's ledger that cannot be read gives no standing: that cap is left out, never read as the team's use.
		expect(teamStandings([own], TEAM, READING, () => [])).toHaveLength(1);
	});

	it("sorts a call's budgets by where they count, with their limits", () => {
		const [store, mine] = budgetsInForce([own], TEAM, STORED) as [DailyBudget, DailyBudget];
		const legacy = { ...own, team: TEAM };
		const sorted = byWhereCounted([store, mine, legacy], [220, 10]);
		expect(sorted.store).toEqual({ budgets: [store, legacy], limits: [220, null] });
		expect(sorted.machine).toEqual({ budgets: [mine], limits: [10] });
		expect(sorted.own).toEqual({ budgets: [legacy], limits: [null] });
	});

	it("refuse new turns, by a team's standing, while the store cannot be reached in the closed mode", () => {
		const standing = closedTeamStanding(TEAM, "Timebox: the store is down.", 5);
		expect(standing).toMatchObject({ closed: "Timebox: the store is down.", dayStart: 5, budget: { team: TEAM } });
		expect(standing.budget.limits).toEqual({ timeMs: null, turns: null, tokens: null, cost: null });
	});
});

describe("a raise of the team's day", () => {
	it("answers each open request it adds at least as much as, in every amount asked; the day off answers all", () => {
		const asks = [
			ask("a", 1, { addTimeMs: 30 * 60_000 }),
			ask("b", 2, { addPrompts: 20 }),
			ask("c", 3, { addTimeMs: 60 * 60_000, addCost: 5 }),
			ask("d", 4, { addTokens: 1_000 }),
		];
		expect(requestsAnswered(asks, { ...NO_ADJUSTMENT, addTimeMs: HOUR })).toEqual(["a"]);
		expect(requestsAnswered(asks, { ...NO_ADJUSTMENT, addTimeMs: HOUR, addCost: 5, addPrompts: 20 })).toEqual([
			"a",
			"b",
			"c",
		]);
		expect(requestsAnswered(asks, { ...NO_ADJUSTMENT, addTokens: 2_000 })).toEqual(["d"]);
		expect(requestsAnswered(asks, { ...NO_ADJUSTMENT, off: true })).toEqual(["a", "b", "c", "d"]);
	});
});

describe("/timebox team", () => {
	it("reads nothing, set <limits>, set off, or ask +amounts <why>, and refuses anything else naming the word", () => {
		expect(parseTeam("  ")).toEqual({ kind: "show" });
		expect(parseTeam("set 4h turns:200 $50")).toEqual({
			kind: "set",
			limits: { timeMs: 4 * HOUR, turns: 200, tokens: null, cost: 50 },
		});
		expect(parseTeam("SET turns: 5")).toEqual({
			kind: "set",
			limits: { timeMs: null, turns: 5, tokens: null, cost: null },
		});
		expect(parseTeam("set Off")).toEqual({ kind: "unset" });
		expect(parseTeam("set")).toEqual({
			kind: "invalid",
			reason: "team set takes the team's limits, a time (4h), turns:200, tokens:2m and cost ($50), or off.",
		});
		expect(parseTeam("set 4h steps:30")).toEqual({
			kind: "invalid",
			reason: '"steps:30" is no daily budget word: team set takes a time (4h), turns:200, tokens:2m and cost ($50).',
		});
		// A word of a session's budget is refused, never dropped: the team would keep fewer limits than typed.
		for (const word of ["aware", "grace:30s", "loop:3", "LOOP:5", "loop:x", "steps:0", "grace:"]) {
			for (const words of [word, `4h ${word}`, `${word} turns:200`]) {
				expect(parseTeam(`set ${words}`)).toEqual({
					kind: "invalid",
					reason: `"${word}" is no daily budget word: team set takes a time (4h), turns:200, tokens:2m and cost ($50).`,
				});
			}
		}
		// A word no budget knows is answered with the words team set takes, not a session's.
		expect(parseTeam("set 4h turn:3")).toEqual({
			kind: "invalid",
			reason: '"turn:3" is not a budget word: team set takes a time (4h), turns:200, tokens:2m and cost ($50).',
		});
		expect(parseTeam("set bogus")).toEqual({
			kind: "invalid",
			reason: '"bogus" is not a budget word: team set takes a time (4h), turns:200, tokens:2m and cost ($50).',
		});
		expect(parseTeam("set off 4h")).toMatchObject({
			kind: "invalid",
			reason: expect.stringMatching(/^"off" is not a budget word: team set takes a time/),
		});
		expect(parseTeam("set +30m")).toEqual({
			kind: "invalid",
			reason:
				'"+30m" is no daily budget word: team set takes a time (4h), turns:200, tokens:2m and cost ($50). To raise today\'s budget: /timebox today +30m.',
		});
		expect(parseTeam("ask +30m +turns:5 a release to finish")).toEqual({
			kind: "ask",
			adjustment: { ...NO_ADJUSTMENT, addTimeMs: 30 * 60_000, addPrompts: 5 },
			grant: "+30m +turns:5",
			why: "a release to finish",
		});
		expect(parseTeam("ask +$5")).toMatchObject({ kind: "ask", why: "", grant: "+$5" });
		expect(parseTeam(`ask +1h ${"x".repeat(300)}`)).toMatchObject({ why: "x".repeat(200) });
		const noAmount = "team ask takes what to add first (+30m, +turns:20, +$5), then why.";
		expect(parseTeam("ask")).toEqual({ kind: "invalid", reason: noAmount });
		expect(parseTeam("ask a release")).toEqual({ kind: "invalid", reason: noAmount });
		expect(parseTeam("ask +lots now")).toEqual({
			kind: "invalid",
			reason: `"+lots" is not an amount to add: ${noAmount}`,
		});
		expect(parseTeam("raise +30m")).toEqual({
			kind: "invalid",
			reason: "After /timebox team: nothing, set <limits> (set 4h turns:200 $50), set off, or ask +30m <why>.",
		});
	});

	const reads = (view: TeamView = { stored: STORED, asks: [] }) => ({
		view: () => view,
		standings: () => teamStandings([], TEAM, READING, machine),
	});

	it("says that no team is set, or why the team set cannot be used, and writes nothing", () => {
		expect(teamCommand(undefined, "set 4h", reads())).toEqual({ message: NO_TEAM, level: "info", effects: [] });
		expect(teamCommand({ unusable: "Timebox: TIMEBOX_TEAM is bad." }, "", reads())).toEqual({
			message: "Timebox: TIMEBOX_TEAM is bad.",
			level: "warning",
			effects: [],
		});
		expect(teamCommand(TEAM, "set", reads())).toMatchObject({ level: "warning", effects: [] });
		expect(teamCommand(TEAM, "ask", reads()).message).toMatch(/^Timebox: team ask takes .* Nothing changed\.$/);
	});

	it("shows the limits, who set them and when, today's use and the open requests, oldest first", () => {
		const asks = [
			ask("late", Date.UTC(2026, 4, 2, 14, 2), { addPrompts: 20 }, ""),
			ask("early", Date.UTC(2026, 4, 2, 10), { addTimeMs: 30 * 60_000 }),
		];
		const shown = teamCommand(TEAM, "", reads({ stored: STORED, asks }));
		expect(shown.message?.split("\n")).toEqual([
			"Timebox team platform: 4h of agent time and 200 turns and $50.00 a day, set by admin@hq (codex) on 2026-05-02 09:14 UTC.",
			"The team platform (set in its store): 1h 0m of 4h of agent time used, 3h 0m left; 8 of 220 turns used, 212 left; $1.50 of $50.00 used, $48.50 left. Used by 3 sessions. By ann@m1 (pi) 3 sessions. It resets at midnight UTC.",
			"Open requests (2):",
			'- bob@m2 (claude) at 10:00 UTC asks for 30m of agent time: "a release"',
			"- bob@m2 (claude) at 14:02 UTC asks for 20 turns",
		]);
		// Only the team's standings are its day: a member's own cap beside them is not listed.
		const mine = {
			budget: {
				scope: "user",
				source: "TIMEBOX_DAILY",
				limits: { timeMs: null, turns: 1, tokens: null, cost: null },
				personal: true as const,
			},
			use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 },
			adjustment: NO_ADJUSTMENT,
			dayStart: 0,
		};
		expect(teamReport(TEAM, { stored: null, asks: [] }, [mine]).split("\n")[1]).toBe(
			"No daily budget of the team covers this session today.",
		);
		const none = teamReport(TEAM, { stored: null, asks: [] }, []);
		expect(none.split("\n")).toEqual([
			"Timebox team platform: its store keeps no limits, so each machine's own daily budget (TIMEBOX_DAILY) is the team's. An admin sets them with /timebox team set 4h turns:200 $50.",
			"No daily budget of the team covers this session today.",
			"No open requests.",
		]);
		// A day that could not be read is said so, never shown as an empty one (the standings are this machine's).
		const unread = teamCommand(TEAM, "", {
			...reads({ stored: STORED, asks: [] }),
			dayUnread: () => "the team's daily store redis://x would not let this user read today's use (ERR no TIME)",
		});
		expect(unread).toEqual({
			message: [
				"Timebox team platform: 4h of agent time and 200 turns and $50.00 a day, set by admin@hq (codex) on 2026-05-02 09:14 UTC.",
				"The team's daily store redis://x would not let this user read today's use (ERR no TIME), so the team's standing today is not known.",
				"No open requests.",
			].join("\n"),
			level: "warning",
			effects: [],
		});
		expect(teamCommand(TEAM, "", { ...reads(), dayUnread: () => null }).level).toBe("info");
		expect(teamCommand(TEAM, "", { view: () => ({ unreadable: "Timebox: down." }), standings: () => [] })).toEqual({
			message: "Timebox: down.",
			level: "warning",
			effects: [],
		});
	});

	it("sets and removes the limits, and records a request, each said once the store took it", () => {
		const set = teamCommand(TEAM, "set 4h turns:200", reads());
		expect(set).toEqual({
			message: null,
			level: "info",
			effects: [
				{
					kind: "setTeamLimits",
					limits: { timeMs: 4 * HOUR, turns: 200, tokens: null, cost: null },
					done: [
						{
							kind: "notify",
							level: "info",
							// Today's raise (READING's) outlasts the new limits until midnight: the admin is told.
							message:
								"Timebox: the team platform's limits are now 4h of agent time and 200 turns a day, in its store, for every member from their next check.\nToday's raise of 20 turns still holds on top of them until midnight.",
						},
					],
				},
			],
		});
		// Nothing of today outlasts them where the day has no raise; a day turned off is said as such.
		const day = (raise: typeof NO_ADJUSTMENT) => ({
			view: () => ({ stored: STORED, asks: [] }),
			standings: () => teamStandings([], TEAM, { ...READING, raise }, machine),
		});
		const said = (words: string, raise: typeof NO_ADJUSTMENT) => {
			const effect = teamCommand(TEAM, words, day(raise)).effects[0];
			return effect?.kind === "setTeamLimits" ? effect.done[0] : null;
		};
		expect(said("set turns:5", NO_ADJUSTMENT)).toMatchObject({
			message: expect.stringMatching(/next check\.$/),
		});
		expect(said("set turns:5", { ...NO_ADJUSTMENT, off: true, addPrompts: 3 })).toMatchObject({
			message: expect.stringMatching(
				/next check\.\nThe team's day is off until midnight \(\/timebox today off\): they count from tomorrow\.$/,
			),
		});
		expect(
			teamCommand(TEAM, "set turns:5", { view: () => ({ stored: null, asks: [] }), standings: () => [] }).effects[0],
		).toMatchObject({ done: [{ message: expect.stringMatching(/next check\.$/) }] });
		// A word given twice is never dropped unsaid: the later one is taken, and the reply says so, as a session's does.
		const twice = teamCommand(TEAM, "set 4h turns:200 8h turns:300 $50 $60", reads()).effects[0];
		expect(twice).toMatchObject({
			kind: "setTeamLimits",
			limits: { timeMs: 8 * HOUR, turns: 300, tokens: null, cost: 60 },
		});
		expect(twice?.kind === "setTeamLimits" && twice.done[0]).toEqual({
			kind: "notify",
			level: "info",
			message: [
				"Timebox: the team platform's limits are now 8h of agent time and 300 turns and $60.00 a day, in its store, for every member from their next check.",
				"8h replaces 4h; for the sum, write 4h8h as one word.",
				"turns:300 replaces turns:200.",
				"$60 replaces $50.",
				"Today's raise of 20 turns still holds on top of them until midnight.",
			].join("\n"),
		});
		expect(teamCommand(TEAM, "set 4h 4h", reads()).effects[0]).toMatchObject({
			done: [
				{
					message: expect.stringMatching(
						/a day, in its store, for every member from their next check\.\n4h replaces 4h;/,
					),
				},
			],
		});
		const removing = [
			{
				kind: "setTeamLimits",
				limits: null,
				done: [{ kind: "notify", level: "info", message: teamLimitsRemoved(TEAM) }],
			},
		];
		expect(teamCommand(TEAM, "set off", reads()).effects).toEqual(removing);
		// A store read to keep no limits: written all the same (a member is refused as for any change), and said to have
		// had none to remove.
		expect(teamCommand(TEAM, "set off", reads({ stored: null, asks: [] })).effects).toEqual([
			{
				...removing[0],
				done: [
					{
						kind: "notify",
						level: "info",
						message:
							"Timebox: the team platform's store keeps no limits, so there were none to remove: each machine's own daily budget (TIMEBOX_DAILY) is the team's.",
					},
				],
			},
		]);
		// A store that could not be read: the write's answer says what became of it.
		expect(teamCommand(TEAM, "set off", { ...reads(), view: () => ({ unreadable: "no store" }) }).effects).toEqual(
			removing,
		);
		const asked = teamCommand(TEAM, "ask +30m a release", reads());
		expect(asked.effects).toEqual([
			{
				kind: "askTeam",
				adjustment: { ...NO_ADJUSTMENT, addTimeMs: 30 * 60_000 },
				why: "a release",
				done: [
					{
						kind: "notify",
						level: "info",
						message:
							'Timebox: asked the team platform\'s admin for 30m of agent time ("a release"). The admin sees it in /timebox team, and grants it with /timebox today +30m.',
					},
				],
			},
		]);
	});
});

describe("what the team's texts say", () => {
	it("says why a write was not done: the admin's alone, a request refused, or the store's own words", () => {
		expect(teamWriteRefusal("done", false)).toBeNull();
		expect(teamWriteRefusal("refused", false)).toBe(
			"Timebox: only the team's admin can change its budget (the store refused this user). Ask with /timebox team ask +30m <why>.",
		);
		expect(teamWriteRefusal("refused", true)).toBe(ASK_REFUSED);
		expect(teamWriteRefusal({ failed: "Timebox: no." }, true)).toBe("Timebox: no.");
		expect(ADMIN_ONLY).toContain("/timebox team ask +30m <why>");
		expect(teamStoreDidNotTake("redis://bot@h:1", "ERR unknown command")).toBe(
			"Timebox: the team's daily store redis://bot@h:1 did not take it (ERR unknown command). Nothing changed.",
		);
		expect(teamStoreNotReached("redis://h:1", "timeout", false)).toBe(
			"Timebox: the team's daily store redis://h:1 cannot be reached (timeout), so nothing changed.",
		);
		expect(teamStoreNotReached("redis://h:1", "timeout", true)).toBe(
			"Timebox: the team's daily store redis://h:1 cannot be reached (timeout), so the team cannot be shown.",
		);
		expect(teamAsksFull(100)).toBe(
			"Timebox: the team's day holds 100 open requests already, so this one was not recorded. Ask the admin directly.",
		);
	});

	it("names amounts, instants, the replies, and a team with no limits anywhere", () => {
		expect(describeAdded({ ...NO_ADJUSTMENT, addTokens: 2_000, addCost: 5 })).toBe("2k tokens and $5.00");
		expect(teamTime(Date.UTC(2026, 0, 5, 7, 3, 59))).toBe("2026-01-05 07:03 UTC");
		expect(teamLimitsSet(TEAM, { limits: { timeMs: null, turns: null, tokens: 2e6, cost: null } })).toContain(
			"are now 2m tokens a day",
		);
		expect(teamAsked(TEAM, { ...NO_ADJUSTMENT, addPrompts: 5 }, "", "+turns:5")).toBe(
			"Timebox: asked the team platform's admin for 5 turns. The admin sees it in /timebox team, and grants it with /timebox today +turns:5.",
		);
		expect(noTeamLimitsHere(TEAM)).toBe("The team platform's store keeps no limits either: /timebox team shows it.");
	});
});

describe("what of today new limits leave in force", () => {
	const standing = (budget: Partial<DailyBudget>, raise: Partial<typeof NO_ADJUSTMENT>): DailyStanding => ({
		budget: { ...own, ...budget },
		use: USE,
		adjustment: { ...NO_ADJUSTMENT, ...raise },
		dayStart: 0,
	});

	it("is the team's day's raise alone: not a member's own cap beside it, nor a machine's own day", () => {
		const personal = standing({ team: TEAM, personal: true }, { addPrompts: 3 });
		const machine = standing({}, { addPrompts: 4, off: true });
		expect(keptToday([personal, machine, standing({ team: TEAM }, {})])).toEqual([]);
		expect(keptToday([personal, machine, standing({ team: TEAM }, { addPrompts: 2 })])).toEqual([
			"Today's raise of 2 turns still holds on top of them until midnight.",
		]);
		expect(keptToday([personal, machine])).toEqual([]);
	});
});
