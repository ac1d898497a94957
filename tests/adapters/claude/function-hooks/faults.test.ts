// A damaged store file of Claude Code's hooks module: what it still holds is kept, a garbled entry skipped, and at the
// session's start the spent budget is kept, the file moved aside and the user told once.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	DAMAGED_SUFFIX,
	damagedPath,
	MOVE_ASIDE_SCRIPT,
	salvage,
} from "../../../../src/adapters/claude/function-hooks/store-repair.ts";
import { STDERR_SCRIPT } from "../../../../src/adapters/claude/function-hooks/ui.ts";
import { GUARD_FAILED_REFUSAL as GUARD_FAILED } from "../../../../src/core/index.ts";
import { FakeClaude, settle } from "./fake-engine.ts";

/** The store's entries as Claude Code writes them: two-space indentation. */
function written(entries: Record<string, unknown>): string {
	return JSON.stringify(entries, null, 2);
}

describe("what a damaged store file still holds", () => {
	const entries = { "session:a": { history: [{ kind: "prompt", key: "p1" }] }, sessions: { a: 1 } };

	it("reads a sound file whole", () => {
		expect(salvage(written(entries))).toEqual({ kept: entries, skipped: 0 });
	});

	it("reads a file with bytes appended up to its last entry", () => {
		expect(salvage(`${written(entries)}\u0000garbage{{{`)).toEqual({ kept: entries, skipped: 0 });
	});

	it("keeps each entry that parses and skips a garbled one", () => {
		const text = written({ ...entries, "session:b": { history: [] } }).replace('"p1"', '"p1');
		expect(salvage(text)).toEqual({ kept: { sessions: { a: 1 }, "session:b": { history: [] } }, skipped: 1 });
	});

	it("keeps nothing of an empty file or of text with no entry", () => {
		expect(salvage("")).toEqual({ kept: {}, skipped: 0 });
		expect(salvage("[1, 2")).toEqual({ kept: {}, skipped: 0 });
		expect(salvage("[1, 2]")).toEqual({ kept: {}, skipped: 0 });
	});

	it("finds the file in Claude Code's error, and nothing in another", () => {
		expect(
			damagedPath(new Error("timebox@inline: store file /h/.claude/plugins/store/timebox_x.json is not JSON")),
		).toBe("/h/.claude/plugins/store/timebox_x.json");
		expect(damagedPath("store unreadable")).toBeNull();
	});
});

/** A Claude Code process whose store file holds `text` and cannot be read until the file is moved aside. */
function damaged(text: string, interactive = false): { claude: FakeClaude; file: string; begin: () => Promise<void> } {
	const folder = mkdtempSync(join(tmpdir(), "timebox-store-"));
	const file = join(folder, "timebox_inline-1.json");
	writeFileSync(file, text);
	const claude = new FakeClaude();
	let broken = true;
	const get = claude.$.store.get;
	claude.$.store.get = async (key: string) => {
		if (broken) throw new Error(`timebox@inline: store file ${file} is not valid JSON`);
		return get(key);
	};
	claude.$.runResults.push(async () => {
		broken = false;
		return { exitCode: 0, stdout: "", stderr: "" };
	});
	return { claude, file, begin: () => claude.start(interactive) };
}

/** A process whose session spent its turns:1 budget, and the store it left. */
async function spentSession(): Promise<Record<string, unknown>> {
	const first = new FakeClaude();
	await first.start();
	await first.command("turns:1");
	expect(await first.prompt("one")).toBeNull();
	await first.step("turn-1", 0);
	await first.turnComplete("turn-1");
	expect(await first.prompt("two")).toContain("Timebox budget spent");
	await first.end();
	return Object.fromEntries(first.$.values);
}

describe("a damaged store file, at the session's start", () => {
	it("keeps the spent budget, moves the file aside, and says so once on stderr and in the transcript", async () => {
		const { claude, file, begin } = damaged(`${written(await spentSession())}\ngarbage`);
		await begin();
		expect(claude.$.ran[0]).toEqual(["sh", "-c", MOVE_ASIDE_SCRIPT, "sh", file, DAMAGED_SUFFIX]);
		const notice = `Timebox found its store ${file} damaged: it kept the 1 session(s) it could read, moved the damaged file to ${file}${DAMAGED_SUFFIX}, and goes on.`;
		expect(claude.$.logged.filter((line) => line.includes("damaged"))).toEqual([notice]);
		expect(claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT)).toEqual([
			["sh", "-c", STDERR_SCRIPT, "sh", notice],
		]);
		expect(await claude.command("status")).toContain("Timebox budget spent. Used 1 turn");
		expect(await claude.command("off")).toContain("Timebox off.");
		expect(await claude.command("10m")).toContain("Timebox set: 10m.");
		expect(claude.$.logged.filter((line) => line.includes("damaged"))).toHaveLength(1);
	});

	it("says it in the transcript alone in the TUI, and counts what it skipped", async () => {
		const { claude, begin } = damaged('{\n  "session:x": {"history": [\n}', true);
		await begin();
		expect(claude.$.logged.some((line) => line.includes("kept the 0 session(s) it could read, skipped 1"))).toBe(true);
		expect(claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT)).toEqual([]);
	});

	it("keeps nothing of a file that is gone by the time it is read", async () => {
		const { claude, file, begin } = damaged("");
		await import("node:fs").then(({ rmSync }) => rmSync(file));
		await begin();
		expect(claude.$.logged.some((line) => line.includes("kept the 0 session(s) it could read,"))).toBe(true);
	});

	it("refuses, as with any store it cannot read, when the file cannot be moved aside", async () => {
		const { claude, begin } = damaged("garbage");
		claude.$.runResults.splice(0, 1, async () => ({ exitCode: 1, stdout: "", stderr: "mv: Permission denied\n" }));
		await expect(begin()).rejects.toThrow("could not move");
		expect(await claude.caught("prompt.submit")(claude.$, { text: "hi" }, async () => ({ text: "hi" }))).toEqual({
			drop: GUARD_FAILED,
		});
	});

	it("refuses when the store fails for another reason", async () => {
		const claude = new FakeClaude();
		claude.$.storeFails = true;
		await expect(claude.start()).rejects.toThrow("store unreadable");
		expect(claude.$.ran).toEqual([]);
	});
});

describe("a stop that ends a running turn", () => {
	it("is written to stderr in a headless run, once, with every notice of the stop", async () => {
		const claude = new FakeClaude();
		await claude.start(false);
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		claude.time.advance(2_000);
		await settle();
		expect(claude.$.aborted).toEqual(["turn-1"]);
		const written = claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT);
		expect(written).toHaveLength(1);
		expect(written[0]?.[4]).toMatch(/^Timebox budget spent\. Used 0 turns, 2s\./);
		expect(claude.$.logged.some((line) => line.startsWith("Timebox budget spent"))).toBe(true);
	});

	it("is written to stderr in a headless run where it stops a running tool instead, once", async () => {
		const claude = new FakeClaude();
		await claude.start(false);
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		const running = claude.tool(() => new Promise(() => {}));
		await settle();
		claude.time.advance(2_000);
		expect((await running).deny).toContain("the session's budget ran out while it ran");
		await settle();
		expect(claude.$.aborted).toEqual([]);
		const written = claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT);
		expect(written.map((argv) => argv[4])).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 2s\./),
		]);
		// A warning is the transcript's alone: only a stop must not go unseen.
		await claude.command("10m");
		expect(await claude.prompt("two")).toBeNull();
		claude.time.advance(8 * 60_000);
		await settle();
		expect(claude.$.logged.some((line) => line.includes("the model is asked to wrap up"))).toBe(true);
		expect(claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT)).toHaveLength(1);
	});

	it("is left to the transcript in the TUI", async () => {
		const claude = new FakeClaude();
		await claude.start(true);
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		claude.time.advance(2_000);
		await settle();
		expect(claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT)).toEqual([]);
		expect(claude.$.logged.some((line) => line.startsWith("Timebox budget spent"))).toBe(true);
	});

	it("goes on when stderr cannot be written", async () => {
		const claude = new FakeClaude();
		await claude.start(false);
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		// Neither the on-stop command (none is set) nor the write to stderr can start a process.
		claude.$.runResults.push(() => Promise.reject(new Error("no process")));
		claude.time.advance(2_000);
		await settle();
		expect(claude.$.logged.some((line) => line.startsWith("Timebox budget spent"))).toBe(true);
	});
});
