// The session's rules at work, as every host runs them: the daily budgets heard before the session's rules, `today`
// answered by the daily rules, failing parts reported while the session goes on, and the one executor's answer.

import { describe, expect, it } from "vitest";
import {
	ADMIN_ONLY,
	type DailyBudget,
	type DailyStanding,
	NO_TEAM,
	PERSONAL_KEPT,
	parseDailyBudget,
	type TeamWrite,
} from "../../src/core/daily/daily.ts";
import { ASK_REFUSED } from "../../src/core/daily/team-text.ts";

import type { TimeboxRecord } from "../../src/core/model/records.ts";
import type { DailyLedger } from "../../src/core/ports.ts";
import { dailyCommandPorts } from "../../src/core/run/daily-command.ts";
import { type Answer, carryOut, noAnswer } from "../../src/core/run/executor.ts";
import { type RuntimePorts, SessionRuntime } from "../../src/core/run/runtime.ts";
import { DEFAULT_TERMS } from "../../src/core/text/host-terms.ts";
import { NO_DAILY_BUDGET } from "../../src/core/text/messages.ts";
import { START } from "../support/budgets.ts";
import { MemoryLedger, RecordingStarter } from "../support/memory-host.ts";

const DAILY = (() => {
	const budget = parseDailyBudget("turns:1", "user", "TIMEBOX_DAILY");
	if ("warning" in budget) throw new Error(budget.warning);
	return budget;
})();

/** A daily ledger in memory that counts prompts against one limit. */
function dailyLedger(overrides: Partial<DailyLedger> = {}): DailyLedger & { prompts: number } {
	const ledger: DailyLedger & { prompts: number } = {
		prompts: 0,
		standings: (): DailyStanding[] => [
			{
				budget: DAILY,
				use: { agentMs: 0, prompts: ledger.prompts, tokens: 0, cost: 0, sessions: 1 },
				adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
				dayStart: START - 3_600_000,
			},
		],
		countPrompt: () => {
			ledger.prompts++;
			return true;
		},
		addUse: () => {},
		adjust: () => undefined,
		problem: () => null,
		...overrides,
	};
	return ledger;
}

function runtime(extra: Partial<RuntimePorts> = {}) {
	const records: TimeboxRecord[] = [];
	const problems: string[] = [];
	const late: Answer[] = [];
	const onStop = new RecordingStarter();
	const ports: RuntimePorts = {
		store: { append: (record) => records.push(record) },
		ledger: new MemoryLedger(),
		clock: { now: () => START },
		onStop,
		setStatus: () => {},
		abortRun: () => {},
		problem: (where, error) => problems.push(`${where}: ${error instanceof Error ? error.message : String(error)}`),
		late: (answer) => late.push(answer),
		...extra,
	};
	return { session: new SessionRuntime(ports), records, problems, late, onStop };
}

const details = { newBudgetId: "b1", report: () => "REPORT" };

describe("commands", () => {
	it("answers `today` with no daily budget by saying so, and changes nothing", () => {
		const host = runtime();
		const answer = host.session.command("today", details);
		expect(answer.notices).toEqual([{ message: NO_DAILY_BUDGET, level: "info" }]);
		expect(host.records).toEqual([]);
	});

	it("has the session's rules alone answer `today` as a session with no daily budget", () => {
		const host = runtime();
		const answer = host.session.dispatch({ type: "command", args: "today", newBudgetId: "b1" });
		expect(answer.notices).toEqual([{ message: NO_DAILY_BUDGET, level: "info" }]);
	});

	it("answers `today` from the daily ledger, and reports a ledger that fails", () => {
		const failing = dailyLedger({
			standings: () => {
				throw new Error("disk gone");
			},
		});
		const host = runtime({ daily: { ledger: failing, budgets: [DAILY] } });
		expect(host.session.command("today", details).notices).toEqual([]);
		expect(host.problems).toEqual(["/timebox today: disk gone"]);
	});

	it("shows the session's report for `report`, and sets the budget without it when the report fails", () => {
		const host = runtime();
		expect(host.session.command("report", details).notices).toEqual([{ message: "REPORT", level: "info" }]);
		const failing = runtime();
		const failingReport = () => {
			throw new Error("history unreadable");
		};
		failing.session.command("report", { ...details, report: failingReport });
		expect(failing.problems).toEqual(["/timebox report: history unreadable"]);
	});

	it("says a token limit cannot be enforced where the host never reports usage", () => {
		const host = runtime();
		const answer = host.session.command("tokens:1000", { ...details, tokensSeen: false });
		expect(answer.notices[0]?.message).toContain("Timebox set: 1k tokens.");
		expect(answer.notices[0]?.message).toMatch(/token/);
		expect(host.records).toHaveLength(1);
	});
});

describe("the daily budgets beside the session's rules", () => {
	it("refuses the prompt past today's prompts, and its later calls without another word", () => {
		const ledger = dailyLedger();
		const host = runtime({ daily: { ledger, budgets: [DAILY] } });
		expect(host.session.handle({ type: "modelCall", prompt: "p1" }).refusal).toBeNull();
		host.session.handle({ type: "runEnd" });
		const refused = host.session.handle({ type: "modelCall", prompt: "p2" });
		expect(refused.refusal).toMatch(/today's budget is spent/);
		expect(refused.aborted).toBe(true);
		expect(refused.notices).toHaveLength(1);
		const again = host.session.handle({ type: "modelCall", prompt: "p2" });
		expect(again).toEqual({
			notices: [],
			context: [],
			refusal: refused.refusal,
			aborted: true,
			questions: [],
			stoppedAgents: [],
		});
		expect(ledger.prompts).toBe(1);
		// The session's rules never heard of the refused prompt.
		expect(host.session.state.lastPrompt).toBe("p1");
		expect(host.problems).toEqual([]);
	});

	it("counts no prompt for the day at a subagent's model call, whatever prompt the host names", () => {
		const ledger = dailyLedger();
		const host = runtime({ daily: { ledger, budgets: [DAILY] } });
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "agentStart", agent: "a1", parent: null, agentType: "Explore", task: "look" });
		expect(host.session.handle({ type: "modelCall", prompt: "child-1", agent: "a1" }).refusal).toBeNull();
		expect(ledger.prompts).toBe(1);
	});

	it("adds what an answer used to today's use", () => {
		const used: { tokens?: number; cost?: number }[] = [];
		const ledger = dailyLedger({ addUse: (_budgets, use) => used.push(use) });
		const host = runtime({ daily: { ledger, budgets: [DAILY] } });
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "modelResponse", tokens: 1_200, cost: 0.05 });
		expect(used).toEqual([{ tokens: 1_200, cost: 0.05 }]);
		expect(host.problems).toEqual([]);
	});

	it("counts a run's agent time for the day where the session's own rules end it, and says a ledger that fails then", () => {
		let now = START;
		const used: { agentMs?: number }[] = [];
		let failing = false;
		const ledger = dailyLedger({
			addUse: (_budgets, use) => used.push(use),
			standings: () => {
				if (failing) throw new Error("the ledger is gone");
				return dailyLedger().standings([DAILY]);
			},
		});
		const host = runtime({ daily: { ledger, budgets: [DAILY] }, clock: { now: () => now } });
		host.session.command("1m", details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		now += 61_000;
		expect(host.session.handle({ type: "toolCall", prompt: "p1" }).aborted).toBe(true);
		expect(used).toEqual([{ agentMs: 61_000 }]);
		// An end that comes after all adds nothing more.
		host.session.handle({ type: "runEnd" });
		expect(used).toEqual([{ agentMs: 61_000 }]);
		// Where the day cannot be read at that end, the stop holds all the same and the problem is said.
		host.session.command("1m", { ...details, newBudgetId: "b2" });
		host.session.handle({ type: "modelCall", prompt: "p2" });
		now += 61_000;
		failing = true;
		expect(host.session.handle({ type: "toolCall", prompt: "p2" }).aborted).toBe(true);
		expect(host.problems).toEqual(["daily budget: the ledger is gone", "daily budget: the ledger is gone"]);
	});

	it("says how to set a daily budget in the host's words when the ledger has no budget", () => {
		const terms = { name: "Codex", command: "timebox", tokens: false, cost: false, dailySetting: "Set TIMEBOX_DAILY." };
		const host = runtime({ daily: { ledger: dailyLedger(), budgets: [] }, terms });
		expect(host.session.command("today", details).notices).toEqual([
			{ message: "No daily budget is set. Set TIMEBOX_DAILY.", level: "info" },
		]);
	});

	it("lets events the daily budgets do not hear go to the session's rules alone", () => {
		const host = runtime({ daily: { ledger: dailyLedger(), budgets: [DAILY] } });
		const answer = host.session.handle({ type: "declined", message: "kept" });
		expect(answer.notices).toEqual([{ message: "kept", level: "info" }]);
		expect(host.problems).toEqual([]);
	});

	it("refuses a prompt whose last slot another session took, writes each use and adjustment, and passes on a problem", () => {
		const adjusted: unknown[] = [];
		const used: unknown[] = [];
		const ledger = dailyLedger({
			countPrompt: () => false,
			addUse: (_budgets, use) => used.push(use),
			adjust: (_budget, adjustment) => {
				adjusted.push(adjustment);
				return undefined;
			},
			problem: () => "Timebox: the ledger is slow.",
		});
		const host = runtime({ daily: { ledger, budgets: [DAILY] } });
		const refused = host.session.handle({ type: "modelCall", prompt: "p1" });
		expect(refused.refusal).toBe("Timebox: today's budget is spent (1 prompt). It resets at midnight.");
		expect(refused.notices.map((notice) => notice.message)).toEqual([
			"Timebox: the ledger is slow.",
			"Timebox: today's budget is spent (1 prompt). It resets at midnight.",
		]);
		expect(host.session.daily.session.runStartedAt).toBeNull();
		host.session.handle({ type: "modelResponse", tokens: 12, cost: 0.5 });
		expect(used).toEqual([{ tokens: 12, cost: 0.5 }]);
		host.session.command("today +turns:2", details);
		expect(adjusted).toEqual([{ addTimeMs: 0, addPrompts: 2, addTokens: 0, addCost: 0, off: false }]);
	});

	it("says a problem that the refusal says already once: a team's store down in the closed mode", () => {
		const down =
			"Timebox: the team's daily store redis://h:1 cannot be reached (no answer), so new turns are refused until it answers.";
		const closed = dailyLedger({ problem: () => down });
		const standings = closed.standings;
		closed.standings = (budgets) => standings(budgets).map((standing) => ({ ...standing, closed: down }));
		const refused = runtime({ daily: { ledger: closed, budgets: [DAILY] } }).session.handle({
			type: "modelCall",
			prompt: "p1",
		});
		expect(refused.refusal).toBe(down);
		expect(refused.notices).toEqual([{ message: down, level: "error" }]);
	});

	it("leaves a closed day's problem told before the first prompt to that prompt's refusal: said once, as an error", () => {
		const down =
			"Timebox: the team's daily store redis://h:1 cannot be reached (no answer), so new turns are refused until it answers.";
		const told: (string | null)[] = [down];
		const closed = dailyLedger({ problem: () => told.shift() ?? null });
		const standings = closed.standings;
		closed.standings = (budgets) => standings(budgets).map((standing) => ({ ...standing, closed: down }));
		const host = runtime({ daily: { ledger: closed, budgets: [DAILY] } });
		// The status refresh at the session's start reads the day first, and finds the store down.
		expect(host.session.handle({ type: "timeCheck" }).notices).toEqual([]);
		const refused = host.session.handle({ type: "modelCall", prompt: "p1" });
		expect(refused.refusal).toBe(down);
		expect(refused.notices).toEqual([{ message: down, level: "error" }]);
		// Another problem of the same ledger is a warning as before.
		told.push("Timebox: the ledger is slow.");
		expect(host.session.handle({ type: "timeCheck" }).notices).toEqual([
			{ message: "Timebox: the ledger is slow.", level: "warning" },
		]);
	});

	it("writes nothing of today's where no daily budget covers the session", () => {
		const problems: string[] = [];
		const ports = {
			store: { append: () => {} },
			ledger: new MemoryLedger(),
			onStop: new RecordingStarter(),
			setStatus: () => {},
			abortRun: () => {},
			problem: (where: string) => problems.push(where),
		};
		const refused = [{ kind: "refuse" as const, reason: "no" }];
		const answer = carryOut(
			[
				{ kind: "countPrompt", limits: [1], refused },
				{ kind: "addDailyUse", use: { tokens: 1 } },
				{ kind: "adjustDaily", adjustment: { addTimeMs: 0, addPrompts: 1, addTokens: 0, addCost: 0, off: false } },
			],
			ports,
			noAnswer(),
			() => {},
		);
		expect(answer).toEqual(noAnswer());
		expect(problems).toEqual([]);
	});

	it("reports a daily ledger whose standings cannot be read, and the session's rules still decide", () => {
		const ledger = dailyLedger({
			standings: () => {
				throw new Error("disk gone");
			},
		});
		const host = runtime({ daily: { ledger, budgets: [DAILY] } });
		expect(host.session.handle({ type: "modelCall", prompt: "p1" }).refusal).toBeNull();
		expect(host.problems).toEqual(["daily budget: disk gone"]);
	});

	it("reports a daily ledger that throws, and the session's rules still decide", () => {
		const ledger = dailyLedger({
			countPrompt: () => {
				throw new Error("ledger locked");
			},
		});
		const host = runtime({ daily: { ledger, budgets: [DAILY] } });
		expect(host.session.handle({ type: "modelCall", prompt: "p1" }).refusal).toBeNull();
		expect(host.problems).toEqual(["daily budget: ledger locked"]);
		expect(host.session.state.lastPrompt).toBe("p1");
	});
});

describe("the question at the limit under a daily budget", () => {
	/** A session whose budget of one turn asks at its limit, under a daily budget of `dailyTurns` prompts. */
	function askingAtTheLimit(dailyTurns: number, words = "turns:1", later = 0, fails = (_reading: number) => false) {
		const budget = parseDailyBudget(`turns:${dailyTurns}`, "user", "TIMEBOX_DAILY");
		if ("warning" in budget) throw new Error(budget.warning);
		const ledger = dailyLedger();
		let readings = 0;
		ledger.standings = () => {
			if (fails(++readings)) throw new Error("disk gone");
			return [
				{
					budget,
					use: { agentMs: 0, prompts: ledger.prompts, tokens: 0, cost: 0, sessions: 1 },
					adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
					dayStart: START - 3_600_000,
				},
			];
		};
		let now = START;
		const host = runtime({ daily: { ledger, budgets: [budget] }, clock: { now: () => now } });
		host.session.state = { ...host.session.state, askAtLimit: true };
		host.session.command(words, details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "runEnd" });
		now += later;
		const asked = host.session.handle({ type: "modelCall", prompt: "p2" });
		const choose = (label: string) => {
			const choice = asked.questions[0]?.choices.find((option) => option.label === label);
			if (choice === undefined) throw new Error(`no choice ${label}`);
			return host.session.handle(choice.answer);
		};
		return { host, ledger, asked, choose };
	}

	it("counts the prompt for the day only once the user lets it go on, never while asking nor when stopped there", () => {
		const stopped = askingAtTheLimit(5);
		expect(stopped.asked.questions).toHaveLength(1);
		expect(stopped.ledger.prompts).toBe(1);
		expect(stopped.asked.refusal).toBeNull();
		const stop = stopped.choose("Stop now");
		expect(stop.refusal).toMatch(/^Timebox budget spent\. Used 1 turn/);
		expect(stopped.ledger.prompts).toBe(1);
		const goOn = askingAtTheLimit(5);
		const more = goOn.choose("+1 prompt");
		expect(more.refusal).toBeNull();
		expect(goOn.ledger.prompts).toBe(2);
		expect(goOn.host.session.state.lastPrompt).toBe("p2");
	});

	it("counts the prompt once, when it runs, after room of the other kind asked again: never at that first answer", () => {
		// A budget of 1 turn and 1 minute, both used up: more time alone leaves the turn limit met, and the question again.
		const reasked = (dailyTurns: number) => {
			const setup = askingAtTheLimit(dailyTurns, "1m turns:1", 2 * 60_000);
			expect(setup.asked.questions).toHaveLength(1);
			const again = setup.choose("+5 minutes");
			expect(again.questions).toHaveLength(1);
			expect(again.refusal).toBeNull();
			expect(setup.ledger.prompts).toBe(1);
			const next = (label: string) => {
				const choice = again.questions[0]?.choices.find((option) => option.label === label);
				if (choice === undefined) throw new Error(`no choice ${label}`);
				return setup.host.session.handle(choice.answer);
			};
			return { ...setup, next };
		};
		const more = reasked(5);
		expect(more.next("+1 prompt").refusal).toBeNull();
		expect(more.ledger.prompts).toBe(2);
		const stopped = reasked(5);
		expect(stopped.next("Stop now").refusal).toMatch(/^Timebox budget spent/);
		expect(stopped.ledger.prompts).toBe(1);
		// The day's last prompt is the user's: it runs.
		const last = reasked(2);
		expect(last.next("+1 prompt").refusal).toBeNull();
		expect(last.ledger.prompts).toBe(2);
	});

	it("tells the day nothing again at an answer to a question a run's own call or a tool met: it heard them as they came", () => {
		let now = START;
		let reserved = 0;
		const budget = parseDailyBudget("turns:5", "user", "TIMEBOX_DAILY");
		if ("warning" in budget) throw new Error(budget.warning);
		const ledger = dailyLedger({ reserve: () => void reserved++ });
		ledger.standings = () => [
			{
				budget,
				use: { agentMs: 0, prompts: ledger.prompts, tokens: 0, cost: 0, sessions: 1 },
				adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
				dayStart: START - 3_600_000,
			},
		];
		const host = runtime({ daily: { ledger, budgets: [budget] }, clock: { now: () => now } });
		host.session.state = { ...host.session.state, askAtLimit: true };
		host.session.command("1m", details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		now += 2 * 60_000;
		const asked = host.session.handle({ type: "modelCall", prompt: "p1" });
		expect(asked.questions).toHaveLength(1);
		expect([ledger.prompts, reserved]).toEqual([1, 2]);
		const choice = asked.questions[0]?.choices.find((option) => option.label === "+5 minutes");
		if (choice === undefined) throw new Error("no choice");
		expect(host.session.handle(choice.answer).refusal).toBeNull();
		expect([ledger.prompts, reserved]).toEqual([1, 2]);
	});

	it("counts the prompt first, as any, where it cannot tell whether the question holds it (the day unread a moment)", () => {
		const { ledger, asked } = askingAtTheLimit(5, "turns:1", 0, (reading) => reading === 3);
		expect(asked.questions).toHaveLength(1);
		expect(ledger.prompts).toBe(2);
	});

	it("asks nothing when the day is spent already: the day refuses the prompt, as it refuses any", () => {
		const { asked, ledger, host } = askingAtTheLimit(1);
		expect(asked.questions).toEqual([]);
		expect(asked.refusal).toBe("Timebox: today's budget is spent (1 prompt). It resets at midnight.");
		expect(ledger.prompts).toBe(1);
		expect(host.session.state.standing?.spent ?? null).toBeNull();
	});

	it("gives the room the user chose but refuses the prompt when the day is spent by then, counting nothing more", () => {
		const { host, ledger, asked, choose } = askingAtTheLimit(2);
		expect(asked.questions).toHaveLength(1);
		// Another session takes the day's last prompt while the question is open.
		ledger.prompts++;
		const more = choose("+1 prompt");
		expect(more.refusal).toBe("Timebox: today's budget is spent (2 prompts). It resets at midnight.");
		expect(more.aborted).toBe(true);
		expect(ledger.prompts).toBe(2);
		expect(host.session.state.lastPrompt).toBe("p1");
		expect(host.session.state.standing?.budget.turnLimit).toBe(2);
		expect(host.session.state.standing?.spent ?? null).toBeNull();
		// Its later calls end the same way, without another word.
		expect(host.session.handle({ type: "modelCall", prompt: "p2" }).notices).toEqual([]);
	});
});

describe("the on-stop command", () => {
	it("says an on-stop command that could not start, when its runner throws", () => {
		const host = runtime();
		host.onStop.start = () => {
			throw new Error("spawn EACCES");
		};
		host.session.command("turns:1 -- lmk", details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "runEnd" });
		const stopped = host.session.handle({ type: "modelCall", prompt: "p2" });
		expect(stopped.notices.map((notice) => notice.message).join("\n")).toContain(
			'Timebox on-stop command failed: could not start "lmk": spawn EACCES',
		);
	});

	it("says what a runner threw that is not an error", () => {
		const host = runtime();
		host.onStop.start = () => {
			throw "no shell";
		};
		host.session.command("turns:1 -- lmk", details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "runEnd" });
		const stopped = host.session.handle({ type: "modelCall", prompt: "p2" });
		expect(stopped.notices.at(-1)?.message).toBe('Timebox on-stop command failed: could not start "lmk": no shell');
	});

	it("starts the command behind the start mark the ledger names for the claim, so a second start runs nothing", () => {
		const ledger = new MemoryLedger();
		const host = runtime({ ledger });
		host.session.command("turns:1 -- lmk", details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "runEnd" });
		host.session.handle({ type: "modelCall", prompt: "p2" });
		const mark = ledger.startMark({ budgetId: "b1", kind: "spent" });
		expect(host.onStop.marks).toEqual([mark]);
		expect(ledger.read("b1").onStop).toMatchObject({ command: "lmk", started: true, recovered: false });
		// Another start of the same claim's command (a recovery racing it) finds the mark taken.
		host.onStop.start("lmk", () => {}, { mark });
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.onStop.skipped).toEqual(["lmk"]);
	});

	it("starts the command with no mark where the ledger keeps none, or cannot name one (and says why)", () => {
		const memory = new MemoryLedger();
		const plain = runtime({ ledger: { claim: (claim) => memory.claim(claim) } });
		const unnamed = runtime({
			ledger: {
				claim: (claim) => memory.claim({ ...claim, budgetId: `other-${claim.budgetId}` }),
				startMark: () => {
					throw new Error("not a budget id");
				},
			},
		});
		for (const host of [plain, unnamed]) {
			host.session.command("turns:1 -- lmk", details);
			host.session.handle({ type: "modelCall", prompt: "p1" });
			host.session.handle({ type: "runEnd" });
			host.session.handle({ type: "modelCall", prompt: "p2" });
			expect(host.onStop.commands).toEqual(["lmk"]);
			expect(host.onStop.marks).toEqual([undefined]);
		}
		expect(plain.problems).toEqual([]);
		expect(unnamed.problems).toEqual(["ledger: not a budget id"]);
	});

	it("hands a report that comes later to the host as an answer of its own", () => {
		const host = runtime();
		host.onStop.outcome = null;
		host.session.command("turns:1 -- lmk", details);
		host.session.handle({ type: "modelCall", prompt: "p1" });
		host.session.handle({ type: "runEnd" });
		host.session.handle({ type: "modelCall", prompt: "p2" });
		host.onStop.report({ kind: "started" });
		expect(host.late.map((answer) => answer.notices)).toEqual([
			[{ message: "Timebox ran the on-stop command: lmk", level: "info" }],
		]);
	});
});

describe("a host's terms", () => {
	const codex = {
		name: "Codex",
		command: "timebox",
		tokens: false,
		cost: false,
		dailySetting: "Set TIMEBOX_DAILY.",
	};

	it("shows no figure the host cannot measure in a status, and names the command as the host takes it", () => {
		const host = runtime({ terms: codex });
		host.session.command("10m cost:2.50 tokens:200k", details);
		const status = host.session.command("status", details).notices[0]?.message ?? "";
		expect(status).toContain("$2.50 limit (cost not tracked in Codex)");
		expect(status).toContain("200k token limit (tokens not tracked in Codex)");
		expect(status).not.toContain("$0.00");
		expect(host.session.command("15x", details).notices[0]?.message).toContain("e.g. timebox 15m turns:3");
	});

	it("names the way Timebox runs in a host that has several, in the status alone", () => {
		const host = runtime({ terms: { ...codex, mode: "function hooks" } });
		expect(host.session.command("status", details).notices[0]?.message).toBe(
			"No active timebox.\nSet one with timebox 15m turns:3.\nTimebox runs on Codex's function hooks.",
		);
		host.session.command("10m", details);
		expect(host.session.command("status", details).notices[0]?.message).toMatch(
			/\nTimebox runs on Codex's function hooks\.$/,
		);
		expect(host.session.command("report", details).notices[0]?.message).not.toContain("function hooks");
		expect(runtime({ terms: codex }).session.command("status", details).notices[0]?.message).toBe(
			"No active timebox.\nSet one with timebox 15m turns:3.",
		);
	});

	it("keeps a path that ends in /timebox as it is", () => {
		const host = runtime({ terms: codex });
		const set = host.session.command("turns:1 -- ~/.local/state/timebox/notify.sh", details).notices[0]?.message;
		expect(set).toBe("Timebox set: 1 turn. On stop it runs: ~/.local/state/timebox/notify.sh");
	});
});

describe("a team's store through the runtime", () => {
	const TEAM = { name: "platform", zone: "UTC" };
	const STORED = { limits: { timeMs: null, turns: 2, tokens: null, cost: null }, setBy: "admin@hq (pi)", setAt: 0 };
	/** A team's ledger whose store keeps `turns:2`, and answers each write with `write`. */
	function teamLedger(write: TeamWrite = "done"): DailyLedger & { writes: string[] } {
		const writes: string[] = [];
		const store: DailyBudget = {
			scope: "team",
			source: "set in its store",
			limits: STORED.limits,
			team: TEAM,
			stored: STORED,
		};
		return {
			writes,
			team: TEAM,
			standings: (budgets) => [
				{
					budget: store,
					use: { agentMs: 0, prompts: 1, tokens: 0, cost: 0, sessions: 1 },
					adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
					dayStart: START - 3_600_000,
				},
				...budgets.map((budget) => ({
					budget: { ...budget, personal: true as const },
					use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 },
					adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
					dayStart: START - 3_600_000,
				})),
			],
			countPrompt: (budgets) => {
				writes.push(`count ${budgets.map((budget) => budget.scope).join(",")}`);
				return true;
			},
			addUse: () => {},
			adjust: (budget) => {
				writes.push(`adjust ${budget.scope}`);
				return budget.stored ? write : undefined;
			},
			problem: () => null,
			teamView: () => ({ stored: STORED, asks: [] }),
			setTeamLimits: (limits) => {
				writes.push(`limits ${JSON.stringify(limits)}`);
				return write;
			},
			askTeam: (adjustment, why) => {
				writes.push(`ask ${adjustment.addTimeMs} ${why}`);
				return write;
			},
		};
	}
	const said = (answer: Answer) => answer.notices.map((notice) => notice.message);

	it("holds a session with no daily budget of its own to the store's limits, and counts its turns there", () => {
		const ledger = teamLedger();
		const host = runtime({ daily: { ledger, budgets: [] } });
		expect(host.session.handle({ type: "modelCall", prompt: "p1" }).refusal).toBeNull();
		expect(ledger.writes).toEqual(["count team"]);
		expect(host.session.dailyTimed).toBe(false);
		expect(said(host.session.command("today", details))[0]).toContain(
			"The team platform (set in its store): 1 of 2 turns used",
		);
	});

	it("raises the team's day for the admin, not the admin's own cap; refuses a member's raise, changing nothing after it", () => {
		const admin = teamLedger();
		const host = runtime({ daily: { ledger: admin, budgets: [DAILY] } });
		const raised = said(host.session.command("today +turns:1", details))[0];
		expect(raised).toMatch(/^Timebox: today's budget raised by 1 prompt/);
		expect(raised?.endsWith(`\n${PERSONAL_KEPT}`)).toBe(true);
		expect(admin.writes).toEqual(["adjust team"]);
		expect(said(host.session.command("today off", details))).toEqual([
			`Timebox: today's budget is off until midnight, in every session it covers.\n${PERSONAL_KEPT}`,
		]);
		expect(admin.writes).toEqual(["adjust team", "adjust team"]);
		const member = teamLedger("refused");
		const refused = runtime({ daily: { ledger: member, budgets: [DAILY] } }).session.command("today off", details);
		expect(refused.notices).toEqual([{ message: ADMIN_ONLY, level: "warning" }]);
		expect(member.writes).toEqual(["adjust team"]);
		const failed = teamLedger({ failed: "Timebox: the store did not take it." });
		const notTaken = runtime({ daily: { ledger: failed, budgets: [] } }).session.command("today +1h", details);
		expect(said(notTaken)).toEqual(["Timebox: the store did not take it."]);
	});

	it("sets the limits and records a request where the store takes them, and says why not where it does not", () => {
		const admin = teamLedger();
		const host = runtime({ daily: { ledger: admin, budgets: [] } });
		expect(said(host.session.command("team set turns:3", details))[0]).toContain("limits are now 3 turns a day");
		expect(said(host.session.command("team ask +30m release", details))[0]).toMatch(
			/^Timebox: asked the team platform's admin/,
		);
		expect(said(host.session.command("team", details))[0]).toMatch(
			/^Timebox team platform: 2 turns a day, set by admin@hq/,
		);
		expect(admin.writes).toEqual(['limits {"timeMs":null,"turns":3,"tokens":null,"cost":null}', "ask 1800000 release"]);
		const member = teamLedger("refused");
		const refused = runtime({
			daily: { ledger: member, budgets: [] },
			terms: { ...DEFAULT_TERMS, command: "timebox" },
		});
		expect(said(refused.session.command("team set off", details))).toEqual([
			"Timebox: only the team's admin can change its budget (the store refused this user). Ask with timebox team ask +30m <why>.",
		]);
		expect(said(refused.session.command("team ask +1h", details))).toEqual([ASK_REFUSED]);
	});

	it("says no team is set, or that neither the team's store nor this machine sets a daily budget", () => {
		expect(said(runtime().session.command("team", details))).toEqual([NO_TEAM]);
		expect(said(runtime().session.dispatch({ type: "command", args: "team", newBudgetId: "b" }))).toEqual([NO_TEAM]);
		const plain = runtime({ daily: { ledger: dailyLedger(), budgets: [DAILY] } });
		expect(said(plain.session.command("team set 4h", details))).toEqual([NO_TEAM]);
		const empty = teamLedger();
		empty.standings = () => [];
		const none = runtime({ daily: { ledger: empty, budgets: [] } }).session.command("today", details);
		expect(said(none)).toEqual([
			`${NO_DAILY_BUDGET} The team platform's store keeps no limits either: /timebox team shows it.`,
		]);
		// A daily budget set that cannot be read is named instead, as a warning: it is set, and counts for nothing.
		const unreadable = ["Timebox: TIMEBOX_DAILY: bad."];
		const typo = runtime({ daily: { ledger: empty, budgets: [], unreadable } }).session.command("today", details);
		expect(typo.notices).toEqual([
			{
				message:
					"Timebox: TIMEBOX_DAILY: bad. The team platform's store keeps no limits either: /timebox team shows it.",
				level: "warning",
			},
		]);
		// Each on its own line (pi reads a user's and a project's).
		const two = { ledger: dailyLedger(), budgets: [], unreadable: ["Timebox: user: bad.", "Timebox: project: bad."] };
		expect(said(runtime({ daily: two }).session.command("today", details))).toEqual([
			"Timebox: user: bad.\nTimebox: project: bad.",
		]);
		const team = teamLedger();
		const beside = runtime({ daily: { ledger: team, budgets: [], unreadable } }).session;
		expect(said(beside.command("today", details))[0]).toMatch(/^Timebox today: .*\nTimebox: TIMEBOX_DAILY: bad\.$/s);
		// Only where the day is shown: a change of it says what it changed.
		expect(said(beside.command("today +1h", details)).join("\n")).not.toContain("TIMEBOX_DAILY");
		const unusable = dailyLedger({ team: { unusable: "Timebox: TIMEBOX_TEAM is bad." }, standings: () => [] });
		const bad = runtime({ daily: { ledger: unusable, budgets: [] } });
		// A ledger that shows no standing of the budgets it was given has no day to show.
		const blank = runtime({ daily: { ledger: dailyLedger({ standings: () => [] }), budgets: [DAILY] } });
		expect(said(blank.session.command("today", details))).toEqual([NO_DAILY_BUDGET]);
		// No day of its own to show: what is wrong with the team, not how to set a budget of its own; and a daily budget
		// set that cannot be read, named too.
		expect(bad.session.command("today", details).notices).toEqual([
			{ message: "Timebox: TIMEBOX_TEAM is bad.", level: "warning" },
		]);
		const both = runtime({ daily: { ledger: unusable, budgets: [], unreadable } }).session.command("today", details);
		expect(both.notices).toEqual([
			{ message: "Timebox: TIMEBOX_TEAM is bad.\nTimebox: TIMEBOX_DAILY: bad.", level: "warning" },
		]);
		expect(bad.session.command("team", details).notices).toEqual([
			{ message: "Timebox: TIMEBOX_TEAM is bad.", level: "warning" },
		]);
		// A ledger with a team but nothing of the store to show says no team is shown.
		const bare = teamLedger();
		bare.teamView = undefined;
		expect(said(runtime({ daily: { ledger: bare, budgets: [] } }).session.command("team", details))).toEqual([NO_TEAM]);
	});

	it("says a team set wrongly once: by the answer of /timebox team or today, and not again at the next prompt", () => {
		const BAD = "Timebox: TIMEBOX_TEAM is bad.";
		/** A ledger that says the team's warning once, then the problems after it, as a team set wrongly does. */
		const wrongly = (after: string[] = []) => {
			const problems = [BAD, ...after];
			return dailyLedger({ team: { unusable: BAD }, standings: () => [], problem: () => problems.shift() ?? null });
		};
		for (const command of ["team", "today", "team set off"]) {
			const host = runtime({ daily: { ledger: wrongly(), budgets: [] } }).session;
			expect(host.command(command, details).notices).toEqual([{ message: BAD, level: "warning" }]);
			expect(host.handle({ type: "modelCall", prompt: "p1" }).notices).toEqual([]);
		}
		// Said already (at an event before): the answer says it again, as asked, and what came after it comes first.
		const told = wrongly(["Timebox: the ledger is unreadable."]);
		const host = runtime({ daily: { ledger: told, budgets: [] } }).session;
		expect(host.handle({ type: "modelCall", prompt: "p1" }).notices).toEqual([{ message: BAD, level: "warning" }]);
		expect(host.command("team", details).notices).toEqual([
			{ message: "Timebox: the ledger is unreadable.", level: "warning" },
			{ message: BAD, level: "warning" },
		]);
		// An answer that does not say it leaves it to the next event.
		const typo = runtime({ daily: { ledger: wrongly(), budgets: [] } }).session;
		expect(said(typo.command("today +1x", details))[0]).toMatch(/^Timebox: After \/timebox today: /);
		expect(typo.handle({ type: "modelCall", prompt: "p1" }).notices).toEqual([{ message: BAD, level: "warning" }]);
	});

	it("writes on the port's own budgets an effect that names none", () => {
		const written: string[] = [];
		const ledger = dailyLedger({
			countPrompt: (budgets) => written.push(`count ${budgets.length}`) > 0,
			reserve: (budgets) => void written.push(`reserve ${budgets.length}`),
			addUse: (budgets) => void written.push(`use ${budgets.length}`),
			adjust: () => void written.push("adjust"),
		});
		const ports = dailyCommandPorts({ ledger, budgets: [DAILY] }, () => {});
		const adjustment = { addTimeMs: 1, addPrompts: 0, addTokens: 0, addCost: 0, off: false };
		const answer = carryOut(
			[
				{ kind: "countPrompt", limits: [1], refused: [] },
				{ kind: "reserveDaily" },
				{ kind: "addDailyUse", use: { tokens: 1 } },
				{ kind: "adjustDaily", adjustment },
			],
			ports,
			noAnswer(),
			() => {},
		);
		expect(written).toEqual(["count 1", "reserve 1", "use 1", "adjust"]);
		expect(answer).toEqual(noAnswer());
	});

	it("writes the store's limits and requests nowhere without a team's store, and keeps a time limit's run checked", () => {
		const problems: string[] = [];
		const ports = dailyCommandPorts({ ledger: dailyLedger(), budgets: [DAILY] }, (where) => problems.push(where));
		const answer = carryOut(
			[
				{ kind: "setTeamLimits", limits: null, done: [{ kind: "notify", message: "set", level: "info" }] },
				{
					kind: "askTeam",
					adjustment: { addTimeMs: 1, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
					why: "",
					done: [],
				},
			],
			ports,
			noAnswer(),
			() => {},
		);
		expect(said(answer)).toEqual([NO_TEAM, NO_TEAM]);
		expect(ports.ledger.claim({ budgetId: "b", kind: "off" })).toBe(true);
		ports.store.append({ kind: "off", disabledAt: 1 });
		ports.setStatus("x");
		ports.abortRun();
		ports.onStop.start("x", () => {});
		expect(problems).toEqual([]);
		const timed = dailyLedger({
			standings: () => [
				{
					budget: { ...DAILY, limits: { ...DAILY.limits, timeMs: 60_000 } },
					use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 },
					adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
					dayStart: 0,
				},
			],
		});
		const host = runtime({ daily: { ledger: timed, budgets: [] } });
		host.session.handle({ type: "modelCall", prompt: "p1" });
		// No budget of the session's own, no team: the daily rules hear nothing.
		expect(host.session.dailyTimed).toBe(false);
		const teamTimed = runtime({ daily: { ledger: { ...timed, team: { name: "t", zone: "UTC" } }, budgets: [] } });
		teamTimed.session.handle({ type: "modelCall", prompt: "p1" });
		expect(teamTimed.session.dailyTimed).toBe(true);
	});
});
