// The session rules as behaviour sentences, run on every host driver: the in-memory host, the fake pi, the fake
// opencode, and the hook adapter as Claude Code, Gemini CLI and Codex CLI in process. A rule that holds on one host and
// not another is a rule written twice.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DRIVERS, type HostDriver } from "./drivers.ts";

const MINUTE = 60_000;
const SPENT =
	/^Timebox budget spent\. Used (\d+) turns?, [\dhms ]+\. The agent stops for this turn\. The chat continues\.$/;

function spentNotices(host: HostDriver): string[] {
	return host.notices().flatMap((notice) => (SPENT.test(notice.message) ? [notice.message] : []));
}

let host: HostDriver;

afterEach(() => host.dispose());

/** Each driver with its name, asked of a driver made for the purpose and disposed of (a driver may hold a folder). */
const NAMED_DRIVERS = DRIVERS.map((make) => {
	const driver = make();
	driver.dispose();
	return [driver.name, make] as const;
});

describe.each(NAMED_DRIVERS)("on the %s", (_name, make) => {
	it("answers the two prompts of turns:2, stops the third and runs the on-stop command once", async () => {
		host = make();
		await host.command("turns:2 -- say done");
		expect((await host.prompt({ toolCalls: 2 })).stopped).toBe(false);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect(spentNotices(host)).toEqual([]);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(true);
		expect(spentNotices(host)).toHaveLength(1);
		expect(spentNotices(host)[0]?.match(SPENT)?.[1]).toBe("2");
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("stops at the limit and runs the on-stop command once even when the outcome ledger cannot be written", async () => {
		host = make({ brokenLedger: true });
		await host.command("turns:1 -- say done");
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(true);
		expect(spentNotices(host)).toHaveLength(1);
		expect(host.notices().some((notice) => notice.message.startsWith("Timebox hit an internal error (ledger)"))).toBe(
			true,
		);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("runs the on-stop command once, late, when the process that stopped the budget was killed before it started it", async () => {
		const late = () =>
			host
				.notices()
				.filter(
					(notice) =>
						notice.message ===
						"Timebox ran the on-stop command late: the process that stopped the budget ended before it could.",
				);
		host = make({ killedAtStop: true });
		await host.command("turns:1 -- say done");
		await host.prompt();
		expect((await host.prompt()).stopped).toBe(true);
		expect(host.onStopRuns()).toEqual([]);
		// The host started again, and the chat goes on: at the session's load (its next hook, or opencode's first event
		// of the session) the command starts, and the user is told.
		const beforeReopen = host.notices().length;
		await host.reopen();
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect(host.onStopRuns()).toEqual(["say done"]);
		expect(late()).toHaveLength(1);
		// Started once, said once: pi's TUI shows the load's notices again after its replay of the chat, not this one.
		host.advance(2_000);
		const shown = host.notices().slice(beforeReopen);
		expect(shown.filter((notice) => notice.message === "Timebox ran the on-stop command: say done")).toHaveLength(1);
		// Never again, at any later event or load.
		await host.reopen();
		await host.prompt();
		expect(host.onStopRuns()).toEqual(["say done"]);
		expect(late()).toHaveLength(1);
		expect(spentNotices(host)).toHaveLength(1);
	});

	it("lets the chat go on after the stop: the next prompt is answered and nothing runs again", async () => {
		host = make();
		await host.command("turns:1 -- say done");
		await host.prompt();
		expect((await host.prompt()).stopped).toBe(true);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect(spentNotices(host)).toHaveLength(1);
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("stops a run at its next step once the time is up, and runs the on-stop command once", async () => {
		host = make();
		await host.command("15m -- say done");
		const run = await host.prompt({ toolCalls: 3, duringTool: (index) => index === 0 && host.advance(16 * MINUTE) });
		expect(run.stopped).toBe(true);
		expect(spentNotices(host)).toHaveLength(1);
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("gives the fifth prompt of turns:5 the warning block, and the four before it none", async () => {
		host = make();
		await host.command("turns:5");
		for (let prompt = 1; prompt <= 4; prompt++) expect((await host.prompt()).context).toEqual([]);
		const fifth = await host.prompt();
		expect(fifth.stopped).toBe(false);
		expect(fifth.context).toHaveLength(1);
		expect(fifth.context[0]).toContain("IMPORTANT TIMEBOX WARNING");
		expect(fifth.context[0]).toContain("Turns: this is the last prompt the budget allows (4 of 5 used).");
		expect(host.notices().map((notice) => notice.message)).toContain(
			"Timebox: 1 prompt left of 5 — the model is asked to wrap up.",
		);
	});

	it("keeps a spent budget spent when the session is opened again, and never runs its command again", async () => {
		host = make();
		await host.command("turns:1 -- say done");
		await host.prompt();
		await host.prompt();
		await host.reopen();
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(false);
		expect(spentNotices(host)).toHaveLength(1);
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("keeps a budget turned off off when the session is opened again", async () => {
		host = make();
		await host.command("turns:1 -- say done");
		await host.command("off");
		await host.reopen();
		for (let prompt = 1; prompt <= 3; prompt++) expect((await host.prompt()).stopped).toBe(false);
		expect(host.onStopRuns()).toEqual([]);
	});

	it("carries a running budget over a reopen with the prompts already used", async () => {
		host = make();
		await host.command("turns:3 -- say done");
		await host.prompt();
		await host.reopen();
		// A host may restore the budget when the session opens, or at its first event (opencode): by then it says so.
		expect((await host.prompt()).stopped).toBe(false);
		expect(host.notices().map((notice) => notice.message)).toContain(
			"Timebox restored: no time limit | 2 turns left (1/3). On stop it runs: say done",
		);
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(true);
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("never confuses two budgets: a new budget after a spent one is enforced and runs its own command", async () => {
		host = make();
		await host.command("turns:1 -- first");
		await host.prompt();
		await host.prompt();
		await host.command("turns:1 -- second");
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(true);
		expect(host.onStopRuns()).toEqual(["first", "second"]);
	});
});

describe.each(NAMED_DRIVERS)("extend and pause on the %s", (_name, make) => {
	function said(text: string): boolean {
		return host.notices().some((notice) => notice.message.includes(text));
	}

	it("makes a spent budget active again when extended, and stops it again, once", async () => {
		host = make();
		await host.command("turns:1 -- say done");
		await host.prompt();
		expect((await host.prompt()).stopped).toBe(true);
		await host.command("+turns:1");
		expect(said("Timebox extended by 1 turn. Timebox: no time limit | 1 turn left (1/2)")).toBe(true);
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(true);
		expect(spentNotices(host)).toHaveLength(2);
		expect(host.onStopRuns()).toEqual(["say done", "say done"]);
	});

	it.each([false, true])(
		"counts no prompt answered after the stop against the extension (reopened before it: %s)",
		async (reopened) => {
			host = make();
			await host.command("turns:1 -- say done");
			await host.prompt();
			expect((await host.prompt()).stopped).toBe(true);
			// The chat goes on without a budget: these prompts are no budget's.
			expect((await host.prompt()).stopped).toBe(false);
			expect((await host.prompt()).stopped).toBe(false);
			if (reopened) await host.reopen();
			await host.command("+turns:1");
			if (reopened && !said("Timebox extended")) {
				// A host whose restore leaves a spent budget behind has nothing to extend after a reopen (pi).
				expect(said("No active timebox: nothing to extend.")).toBe(true);
				return;
			}
			expect(said("Timebox extended by 1 turn. Timebox: no time limit | 1 turn left (1/2)")).toBe(true);
			expect((await host.prompt()).stopped).toBe(false);
			expect((await host.prompt()).stopped).toBe(true);
			expect(spentNotices(host).map((notice) => notice.match(SPENT)?.[1])).toEqual(["1", "2"]);
			expect(host.onStopRuns()).toEqual(["say done", "say done"]);
		},
	);

	it("counts the prompt a time stop ended mid-run against the extension: it was used", async () => {
		host = make();
		await host.command("10m turns:3 -- say done");
		await host.prompt();
		const stopped = await host.prompt({
			toolCalls: 2,
			duringTool: (index) => {
				if (index === 0) host.advance(11 * MINUTE);
			},
		});
		expect(stopped.stopped).toBe(true);
		await host.command("+10m");
		expect(said("| 1 turn left (2/3)")).toBe(true);
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(true);
		expect(host.onStopRuns()).toEqual(["say done", "say done"]);
	});

	it("replaces an active budget (asking first where a UI can ask), and says so", async () => {
		host = make();
		await host.command("turns:1 -- first");
		await host.command("turns:2 -- second");
		expect(said("Timebox set: 2 turns. It replaces the previous budget. On stop it runs: second")).toBe(true);
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(true);
		expect(host.onStopRuns()).toEqual(["second"]);
	});

	it("says there is nothing to extend without a budget, and changes nothing", async () => {
		host = make();
		await host.command("extend 10m");
		expect(said("No active timebox: nothing to extend.")).toBe(true);
		expect((await host.prompt()).stopped).toBe(false);
	});

	it("never stops a paused budget and does not count its prompts; resume goes on from where it was", async () => {
		host = make();
		await host.command("turns:1 -- say done");
		await host.command("pause");
		expect(said("Timebox paused")).toBe(true);
		for (let prompt = 1; prompt <= 3; prompt++) expect((await host.prompt()).stopped).toBe(false);
		await host.command("resume");
		expect(said("Timebox resumed. Timebox: no time limit | 1 turn left (0/1)")).toBe(true);
		expect((await host.prompt()).stopped).toBe(false);
		expect((await host.prompt()).stopped).toBe(true);
		expect(host.onStopRuns()).toEqual(["say done"]);
	});

	it("keeps the time left while paused, across a reopen hours later", async () => {
		host = make();
		await host.command("10m -- say done");
		host.advance(MINUTE);
		await host.command("pause");
		await host.reopen();
		host.advance(180 * MINUTE);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect(said("Timebox restored: paused | 9m 0s left (10m budget) | no turn limit.")).toBe(true);
		await host.command("resume");
		expect(said("Timebox resumed. Timebox: 9m 0s left (10m budget) | no turn limit")).toBe(true);
		expect(spentNotices(host)).toEqual([]);
		expect(host.onStopRuns()).toEqual([]);
	});
});

describe.each(NAMED_DRIVERS)("steps and the daily budget on the %s", (_name, make) => {
	it("ends a prompt's loop at its wrap-up call under steps:2, and gives the next prompt fresh steps", async () => {
		host = make();
		await host.command("steps:2 -- say done");
		expect((await host.prompt({ toolCalls: 4 })).stopped).toBe(true);
		expect(host.notices().map((notice) => notice.message)).toContain(
			"Timebox: this prompt used its 2 steps; the model was asked to finish.",
		);
		expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
		expect(host.onStopRuns()).toEqual([]);
	});

	it("shares a daily turns:2 between two sessions: two prompts in all, the third refused in either", async () => {
		const dir = mkdtempSync(join(tmpdir(), "timebox-scenario-daily-"));
		try {
			const first = make({ daily: { text: "turns:2", dir } });
			const second = make({ daily: { text: "turns:2", dir } });
			host = first;
			expect((await first.prompt()).stopped).toBe(false);
			expect((await second.prompt({ toolCalls: 1 })).stopped).toBe(false);
			expect((await first.prompt()).stopped).toBe(true);
			expect((await second.prompt()).stopped).toBe(true);
			const refusals = [...first.notices(), ...second.notices()].filter(
				(notice) => notice.message === "Timebox: today's budget is spent (2 prompts). It resets at midnight.",
			);
			expect(refusals).toHaveLength(2);
			second.dispose();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("does not count for the day a prompt the session's own budget refuses: the day's prompts all reach the model", async () => {
		const dir = mkdtempSync(join(tmpdir(), "timebox-scenario-daily-"));
		try {
			host = make({ daily: { text: "turns:2", dir } });
			await host.command("turns:1");
			expect((await host.prompt()).stopped).toBe(false);
			// The session's budget refuses the second prompt: it never runs, so the day keeps its second prompt.
			expect((await host.prompt()).stopped).toBe(true);
			expect(spentNotices(host)).toHaveLength(1);
			expect((await host.prompt({ toolCalls: 1 })).stopped).toBe(false);
			expect((await host.prompt()).stopped).toBe(true);
			expect(
				host
					.notices()
					.filter(
						(notice) => notice.message === "Timebox: today's budget is spent (2 prompts). It resets at midnight.",
					),
			).toHaveLength(1);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("stops the session's budget with its on-stop command when the day is spent too: the day's refusal does not hide it", async () => {
		const dir = mkdtempSync(join(tmpdir(), "timebox-scenario-daily-"));
		try {
			host = make({ daily: { text: "turns:1", dir } });
			await host.command("turns:1 -- say done");
			expect((await host.prompt()).stopped).toBe(false);
			expect((await host.prompt()).stopped).toBe(true);
			expect(spentNotices(host)).toHaveLength(1);
			expect(host.onStopRuns()).toEqual(["say done"]);
			// With the session's budget spent, the next prompt is the day's to refuse.
			expect((await host.prompt()).stopped).toBe(true);
			expect(
				host
					.notices()
					.filter((notice) => notice.message === "Timebox: today's budget is spent (1 prompt). It resets at midnight."),
			).toHaveLength(1);
			expect(host.onStopRuns()).toEqual(["say done"]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe.each(NAMED_DRIVERS)("the loop guard on the %s", (_name, make) => {
	const A = { tool: "bash", input: { command: "npm test" } };
	// The same tool as A with another input: a host whose input went missing would take the two for one call.
	const B = { tool: "bash", input: { command: "npm run lint" } };
	const REFUSED = (tool: string, view: string) =>
		`Timebox: this is the 3rd identical ${tool} call in this run (${view}); its result will not change. Change your approach or finish with what you have`;
	const told = (text: string) => host.notices().filter((notice) => notice.message === text).length;

	it("refuses the 3rd identical call of loop:3 with why, stops the run at the 4th, and keeps the budget", async () => {
		host = make();
		await host.command("30m loop:3 -- say done");
		const run = await host.prompt({ tools: [A, A, A, A, B] });
		expect(run.stopped).toBe(true);
		expect(run.toolsRun).toBe(2);
		// The model reads why at the 3rd (Codex ends the reason with a full stop of its own); on Codex, which cannot end a
		// run, the 4th and every tool after it are refused instead.
		expect(run.refusals[0]?.replace(/\.$/, "")).toBe(REFUSED("bash", "npm test"));
		expect(told("Timebox refused a repeated call: bash (npm test), the 3rd identical one in this run.")).toBe(1);
		expect(told("Timebox stopped a loop: bash (npm test) asked for 4 times in this run.")).toBe(1);
		expect(host.onStopRuns()).toEqual([]);
		expect(spentNotices(host)).toEqual([]);
		// The budget stays in force, and a new prompt starts the count again.
		const next = await host.prompt({ tools: [A, A] });
		expect(next).toMatchObject({ stopped: false, toolsRun: 2, refusals: [] });
		await host.command("status");
		expect(host.notices().some((notice) => notice.message.includes("| loop guard at 3"))).toBe(true);
	});

	it("counts calls that are not one after the other: A B A B refuses each at its 3rd, and stops at the next", async () => {
		host = make();
		await host.command("loop:3");
		const run = await host.prompt({ tools: [A, B, A, B, A, B, A] });
		expect(run.toolsRun).toBe(4);
		expect(run.refusals.slice(0, 2).map((refusal) => refusal.replace(/\.$/, ""))).toEqual([
			REFUSED("bash", "npm test"),
			REFUSED("bash", "npm run lint"),
		]);
		expect(run.stopped).toBe(true);
		expect(told("Timebox stopped a loop: bash (npm test) asked for 4 times in this run.")).toBe(1);
		expect(host.onStopRuns()).toEqual([]);
	});
});
