// The daily ledger in Claude Code's hooks module, on the real files every host shares: read through `$.fs` before an
// event, written by one `sh` after it, each prompt file created exclusively; what another session took meanwhile, and
// what cannot be read or written.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dailyDir, MirroredFiles, ModuleDailyLedger } from "../../../../src/adapters/claude/function-hooks/daily.ts";
import { type Engine, engineOf } from "../../../../src/adapters/claude/function-hooks/engine.ts";
import { createDailyLedger, localDay } from "../../../../src/adapters/node/daily-ledger.ts";
import type { DailyBudget } from "../../../../src/core/index.ts";
import { FakeTime } from "../../../support/fake-time.ts";
import { FakeDollar } from "./fake-engine.ts";

const BUDGET: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 2, tokens: null, cost: null },
};

function ledger(engine?: (dollar: FakeDollar) => Engine) {
	const dir = mkdtempSync(join(tmpdir(), "timebox-module-daily-"));
	const time = new FakeTime();
	const $ = new FakeDollar(time);
	const real = engineOf($);
	const daily = new ModuleDailyLedger(() => engine?.($) ?? real, dir, "claude-session", time);
	const today = join(dir, "daily", "user", localDay(time.now()));
	return { daily, dir, time, $, today };
}

describe("the daily ledger's folder", () => {
	it("is $XDG_STATE_HOME/timebox, else ~/.local/state/timebox, as on every host", () => {
		expect(dailyDir("/state", "/home/me")).toBe("/state/timebox");
		expect(dailyDir(" ", "/home/me")).toBe("/home/me/.local/state/timebox");
		expect(dailyDir(undefined, undefined)).toBeNull();
		expect(dailyDir("/state", undefined)).toBe("/state/timebox");
	});
});

describe("the daily ledger on Claude Code's `$`", () => {
	it("counts prompts, use and additions in the files the Node hosts read, and prunes old days", async () => {
		const { daily, dir, time, today } = ledger();
		const old = join(dir, "daily", "user", "2000-01-01");
		mkdirSync(old, { recursive: true });
		await daily.refresh();
		expect(daily.standings([BUDGET])[0]?.use.prompts).toBe(0);
		expect(daily.countPrompt([BUDGET], [2])).toBe(true);
		daily.addUse([BUDGET], { tokens: 120, cost: 0.5 });
		daily.adjust(BUDGET, { addTimeMs: 0, addPrompts: 1, addTokens: 0, addCost: 0, off: false });
		expect(await daily.settle()).toBe(true);
		expect(existsSync(old)).toBe(false);
		expect(readFileSync(join(today, "prompt-1"), "utf8")).toContain('"session":"claude-session"');

		const node = createDailyLedger(dir, "pi-session", time);
		const seen = node.standings([BUDGET])[0];
		expect(seen?.use).toMatchObject({ prompts: 1, tokens: 120, cost: 0.5, sessions: 1 });
		expect(seen?.adjustment.addPrompts).toBe(1);

		await daily.refresh();
		expect(daily.standings([BUDGET])[0]?.use).toMatchObject({ prompts: 1, tokens: 120 });
		expect(await daily.settle()).toBe(true);
	});

	it("takes the next number when another session took a prompt file it had not read yet", async () => {
		const { daily, today } = ledger();
		await daily.refresh();
		daily.standings([BUDGET]);
		mkdirSync(today, { recursive: true });
		writeFileSync(join(today, "prompt-1"), "{}\n");
		expect(daily.countPrompt([BUDGET], [2])).toBe(true);
		expect(await daily.settle()).toBe(true);
		expect(readFileSync(join(today, "prompt-2"), "utf8")).toContain("claude-session");
		expect(readFileSync(join(today, "prompt-1"), "utf8")).toBe("{}\n");
	});

	it("gives up a prompt file that stays taken, and says why a ledger cannot be used, once", async () => {
		const lost: Engine[] = [];
		const { daily } = ledger(($) => {
			const real = engineOf($);
			const engine: Engine = {
				...real,
				process: {
					run: async (argv) => ({
						exitCode: 0,
						stdout: `${argv
							.slice(5)
							.filter((_, n) => n % 3 === 0)
							.join("\n")}\n`,
						stderr: "",
					}),
				},
			};
			lost.push(engine);
			return engine;
		});
		await daily.refresh();
		expect(daily.countPrompt([BUDGET], [null])).toBe(true);
		expect(await daily.settle()).toBe(false);
		expect(daily.problem()).toBeNull();
	});

	it("says once that its files cannot be written", async () => {
		const { daily } = ledger(($) => ({
			...engineOf($),
			process: { run: async () => ({ exitCode: 1, stdout: "", stderr: "sh: permission denied" }) },
		}));
		await daily.refresh();
		daily.countPrompt([BUDGET], [2]);
		expect(await daily.settle()).toBe(true);
		expect(daily.problem()).toContain(
			"cannot be used (the daily ledger's files could not be written: sh: permission denied), so today's budget",
		);
		daily.countPrompt([BUDGET], [2]);
		expect(await daily.settle()).toBe(true);
		expect(daily.problem()).toBeNull();
	});

	it("says that its files cannot be read, and reads a folder it cannot list as empty", async () => {
		const { daily, today } = ledger(($) => {
			const real = engineOf($);
			return { ...real, fs: { read: () => Promise.reject("no access"), list: real.fs.list } };
		});
		mkdirSync(today, { recursive: true });
		writeFileSync(join(today, "use.jsonl"), '{"session":"pi","tokens":5}\n');
		await daily.refresh();
		expect(daily.problem()).toContain("cannot be used (no access)");
		const unlisted = ledger(($) => ({ ...engineOf($), fs: { ...engineOf($).fs, list: () => Promise.reject("gone") } }));
		await unlisted.daily.refresh();
		expect(unlisted.daily.standings([BUDGET])[0]?.use.prompts).toBe(0);
		expect(unlisted.daily.problem()).toBeNull();
	});
});

describe("the mirror of the day's files", () => {
	it("knows nothing of a folder or a file it never read", () => {
		const files = new MirroredFiles(() => engineOf(new FakeDollar(new FakeTime())));
		expect(files.exists("/nowhere/prompt-1")).toBe(false);
		expect(files.size("/nowhere/use.jsonl")).toBe(0);
		expect(files.read("/nowhere/use.jsonl", 0, 10)).toBe("");
		expect(files.list("/nowhere")).toEqual([]);
		expect(files.createExclusive("/nowhere/prompt-1", "{}")).toBe(true);
		expect(files.createExclusive("/nowhere/prompt-1", "{}")).toBe(false);
	});
});
