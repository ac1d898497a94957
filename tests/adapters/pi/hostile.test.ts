// Timebox under hostile input, damaged session files and racing events, through the real /timebox handler and pi
// wiring on the fake host. Guards the worst failures: bad input that changes a budget, or a stop that fires twice.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACTIVE_ENTRY_TYPE, OFF_ENTRY_TYPE } from "../../../src/core/constants.ts";
import { parseCommand } from "../../../src/core/grammar/command.ts";
import { USAGE } from "../../../src/core/text/messages.ts";
import { anyString } from "../../support/arbitraries.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

const HOSTILE_INPUTS = [
	"",
	"   ",
	"\t\n",
	"١٥m",
	"１５m",
	"15m turns:3 15m",
	"--",
	"-- cmd",
	"15m --",
	"x".repeat(100_000),
	Array.from({ length: 10_000 }, () => "15m").join(" "),
	`${"9".repeat(400)}m`,
	`turns:${"9".repeat(400)}`,
	"-5m",
	"turns:-1",
	"1e3m",
	"0x10m",
	"NaNm",
	"Infinitym",
	"turns:3.5",
	"15m turn:3",
	"status off",
	"\u0000",
	"15m -- \u0000",
];

describe("/timebox with hostile input", () => {
	it.each(
		HOSTILE_INPUTS.map((input) => [
			input.length > 40 ? `${input.slice(0, 40)}… (${input.length} chars)` : input,
			input,
		]),
	)(
		"answers %j with a budget or a warning and the usage, and leaves an active budget alone when invalid",
		async (_label, input) => {
			const pi = await new FakePi().start();
			await pi.timebox("10m turns:4");
			const entriesBefore = pi.file.entries.length;
			const statusBefore = pi.screen.status;
			await pi.timebox(input);
			const answer = pi.screen.last;
			const kind = parseCommand(input).kind;
			if (kind === "set") {
				expect(answer?.level).toBe("info");
				expect(answer?.message).toMatch(/^Timebox set: /);
				expect(pi.file.entries.length).toBe(entriesBefore + 1);
			} else if (kind === "status") {
				// `status` first short-circuits the rest, and names what it ignored.
				expect(answer?.level).toBe("info");
				expect(answer?.message).toMatch(/^Timebox: .*\nIgnored what followed status: "off"\./s);
				expect(pi.file.entries.length).toBe(entriesBefore);
				expect(pi.screen.status).toBe(statusBefore);
			} else {
				expect(answer?.level).toBe("warning");
				expect(answer?.message.endsWith(`Nothing changed.\n${USAGE}`)).toBe(true);
				// The input is quoted short: what is said besides the usage stays a few lines.
				expect(answer?.message.length).toBeLessThan(USAGE.length + 280);
				expect(pi.file.entries.length).toBe(entriesBefore);
				expect(pi.screen.status).toBe(statusBefore);
			}
		},
	);

	it("never changes the budget or writes a record for any invalid string (property, real handler)", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("10m turns:4");
		const firstRecord = pi.file.custom(ACTIVE_ENTRY_TYPE).at(-1);
		await fc.assert(
			fc.asyncProperty(anyString, async (input) => {
				if (parseCommand(input).kind !== "invalid") return;
				const entries = pi.file.entries.length;
				const status = pi.screen.status;
				await pi.timebox(input);
				expect(pi.screen.last?.level).toBe("warning");
				expect(pi.screen.last?.message).toContain(USAGE);
				expect(pi.file.entries.length).toBe(entries);
				expect(pi.screen.status).toBe(status);
			}),
			{ numRuns: 150 },
		);
		expect(pi.file.custom(ACTIVE_ENTRY_TYPE)).toEqual([firstRecord]);
		expect(pi.screen.status).toBe("Timebox: 10m 0s left (10m budget) | 4 turns left (0/4)");
	});
});

describe("session files with damaged or unusual entries", () => {
	async function reopenWith(entries: { type: string; data: unknown }[], userMessages = 0) {
		const file = new FakeSessionFile();
		for (let i = 0; i < userMessages; i++) file.appendUserMessage(`m${i}`);
		for (const entry of entries) file.appendCustom(entry.type, entry.data);
		const time = new FakeTime();
		const pi = await new FakePi({ file, time }).start();
		return pi;
	}

	const good = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5 });

	it.each([
		["missing fields", {}],
		["wrong types", { ...good, timeLimitMs: "15m", turnLimit: "5" }],
		["null data", null],
		["negative numbers", { ...good, timeLimitMs: -1, startTurn: -3 }],
		["non-finite numbers", { ...good, startTime: "Infinity" }],
		["a number for data", 42],
		["a future format", { version: 2, limits: [{ kind: "time", ms: 900_000 }] }],
	])("skips an entry with %s, says so once, and shows no NaN", async (_name, data) => {
		const pi = await reopenWith([{ type: ACTIVE_ENTRY_TYPE, data }]);
		expect(pi.screen.notifications).toEqual([
			{
				message:
					"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.",
				level: "warning",
			},
		]);
		expect(pi.screen.status).toBeUndefined();
		await pi.timebox("status");
		expect(pi.screen.last?.message).toContain("No active timebox.");
	});

	it("restores a first-version record with extra fields and no onStopCommand, counting from its startTurn", async () => {
		const legacy = {
			timeLimitMs: 15 * MINUTE,
			turnLimit: 5,
			startTime: START,
			startTurn: 0,
			softNudgeSent: false,
			active: true,
		};
		const pi = await reopenWith([{ type: ACTIVE_ENTRY_TYPE, data: { ...legacy, addedLater: true } }], 2);
		expect(pi.screen.last).toEqual({
			message: "Timebox restored: 15m 0s left (15m budget) | 3 turns left (2/5).",
			level: "info",
		});
	});

	it("reads the newest of thousands of records, not the first", async () => {
		const entries = Array.from({ length: 2_000 }, (_, i) => ({
			type: i % 2 === 0 ? ACTIVE_ENTRY_TYPE : OFF_ENTRY_TYPE,
			data: i % 2 === 0 ? { ...good, turnLimit: (i % 7) + 1 } : { disabledAt: i },
		}));
		entries.push({ type: ACTIVE_ENTRY_TYPE, data: { ...good, turnLimit: 9 } });
		const pi = await reopenWith(entries);
		expect(pi.screen.status).toBe("Timebox: 15m 0s left (15m budget) | 9 turns left (0/9)");
		expect(pi.screen.notifications).toHaveLength(1);
	});

	it("does not let a damaged off entry bring a budget back", async () => {
		const pi = await reopenWith([
			{ type: ACTIVE_ENTRY_TYPE, data: good },
			{ type: OFF_ENTRY_TYPE, data: "not an object" },
		]);
		expect(pi.screen.notifications).toEqual([]);
		expect(pi.screen.status).toBeUndefined();
	});
});

describe("races", () => {
	it("fires one hard stop when the refresh and a turn start reach the limit in the same millisecond", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("1m turns:9 -- lmk");
		pi.time.jump(MINUTE - 1);
		await pi.prompt("last minute", {
			llmCalls: 3,
			duringTool: async () => {
				pi.time.advance(1);
				await pi.instance.emit({ type: "turn_start", turnIndex: 7, timestamp: pi.time.now() });
			},
		});
		pi.time.advance(5_000);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("lets /timebox off and a new /timebox right after a hard stop take over cleanly", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("1m -- lmk");
		await pi.prompt("work", {
			llmCalls: 2,
			duringTool: async () => {
				pi.time.advance(MINUTE);
				await pi.timebox("off");
				await pi.timebox("turns:2");
			},
		});
		expect(pi.screen.messages("error")).toHaveLength(1);
		// The prompt that was running when the new budget was set does not count against it.
		expect(pi.screen.status).toBe("Timebox: no time limit | 2 turns left (0/2)");
		pi.time.advance(10 * MINUTE);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
		// The budget was spent, so no longer active: turning it off writes nothing.
		expect(pi.file.custom(OFF_ENTRY_TYPE)).toHaveLength(0);
	});

	it("ends consistent after 1,000 rapid set and off commands: the last one wins", async () => {
		const pi = await new FakePi().start();
		const commands = Array.from({ length: 1_000 }, (_, i) =>
			i % 3 === 2 ? "off" : `${(i % 40) + 1}m turns:${(i % 9) + 1}`,
		);
		await Promise.all([...commands.map((args) => pi.timebox(args)), pi.timebox("7m turns:3")]);
		expect(pi.screen.status).toBe("Timebox: 7m 0s left (7m budget) | 3 turns left (0/3)");
		expect(pi.time.activeIntervals).toBe(1);
		expect(pi.time.activeTimeouts).toBe(1);
		await pi.replaceSession("reload");
		expect(pi.screen.status).toBe("Timebox: 7m 0s left (7m budget) | 3 turns left (0/3)");
	});
});
