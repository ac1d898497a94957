// What a hook host's session was told, kept in a file from one hook process to the next: a problem is new to the
// session once, the store's failure is carried, the file is written only when it changes, a damaged or unreadable file
// is nothing told, a file that cannot be written is said again, and the files of sessions long untouched are let go.

import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileSessionTold } from "../../../src/adapters/team/session-told.ts";
import { firstTold } from "../../../src/adapters/team/told.ts";
import { SESSION_TOLD_KEPT_MS } from "../../../src/core/index.ts";

let root: string;
let folder: string;
let now: number;
const clock = { now: () => now };
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-told-"));
	folder = join(root, "told");
	now = Date.now();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a session's told file", () => {
	it("takes a problem as new once per session, across the session's processes, and apart from other sessions", () => {
		const told = fileSessionTold(folder, "s1", clock);
		expect(told.said("the store is down")).toBe(false);
		expect(told.first("the store is down")).toBe(true);
		expect(told.said("the store is down")).toBe(true);
		const next = fileSessionTold(folder, "s1", clock);
		expect(next.said("the store is down")).toBe(true);
		expect(next.first("the store is down")).toBe(false);
		expect(next.first("the outbox is full")).toBe(true);
		expect(fileSessionTold(folder, "s1", clock).first("the outbox is full")).toBe(false);
		expect(fileSessionTold(folder, "s2", clock).first("the store is down")).toBe(true);
		expect(JSON.parse(readFileSync(join(folder, "s1.json"), "utf8"))).toEqual({
			said: ["the store is down", "the outbox is full"],
			failed: null,
		});
	});

	it("carries why the store failed and until when, to the session's next process, until it answers", () => {
		const told = fileSessionTold(folder, "s1", clock);
		expect(told.failed()).toBeNull();
		told.keepFailed({ why: "ECONNREFUSED", until: 5_000 });
		expect(fileSessionTold(folder, "s1", clock).failed()).toEqual({ why: "ECONNREFUSED", until: 5_000 });
		const next = fileSessionTold(folder, "s1", clock);
		next.keepFailed(null);
		expect(fileSessionTold(folder, "s1", clock).failed()).toBeNull();
	});

	it("loses nothing another process of the session kept meanwhile: each change is made to the file as it is then", () => {
		const early = fileSessionTold(folder, "s1", clock);
		expect(early.said("the store is down")).toBe(false);
		const late = fileSessionTold(folder, "s1", clock);
		expect(late.first("the store is down")).toBe(true);
		late.keepFailed({ why: "down", until: 5_000 });
		// The early one read the file before: it takes nothing as new that the other kept, and learns it as it writes.
		expect(early.first("the store is down")).toBe(false);
		expect(early.first("the outbox is full")).toBe(true);
		expect(early.failed()).toEqual({ why: "down", until: 5_000 });
		const other = fileSessionTold(folder, "s1", clock);
		expect(other.said("the store is down") && other.said("the outbox is full")).toBe(true);
		// A failure kept meanwhile by another process is not written again.
		const stale = fileSessionTold(folder, "s1", clock);
		stale.failed();
		fileSessionTold(folder, "s1", clock).keepFailed(null);
		utimesSync(join(folder, "s1.json"), 1, 1);
		stale.keepFailed(null);
		expect(statSync(join(folder, "s1.json")).mtimeMs).toBe(1_000);
		expect(stale.failed()).toBeNull();
	});

	it("writes only what changed", () => {
		const told = fileSessionTold(folder, "s1", clock);
		told.keepFailed(null);
		expect(existsSync(join(folder, "s1.json"))).toBe(false);
		told.keepFailed({ why: "down", until: 5_000 });
		const path = join(folder, "s1.json");
		utimesSync(path, 1, 1);
		told.keepFailed({ why: "down", until: 5_000 });
		told.first("said");
		told.first("said");
		expect(statSync(path).mtimeMs).toBeGreaterThan(1_000);
		utimesSync(path, 1, 1);
		told.keepFailed({ why: "down", until: 5_000 });
		told.first("said");
		expect(statSync(path).mtimeMs).toBe(1_000);
		told.keepFailed({ why: "down", until: 6_000 });
		expect(fileSessionTold(folder, "s1", clock).failed()).toEqual({ why: "down", until: 6_000 });
		told.keepFailed({ why: "timed out", until: 6_000 });
		expect(fileSessionTold(folder, "s1", clock).failed()).toEqual({ why: "timed out", until: 6_000 });
	});

	it("reads a damaged file as nothing told, and keeps only what it can read of it", () => {
		mkdirSync(folder);
		const path = join(folder, "s1.json");
		for (const text of [
			"{torn",
			"null",
			"[]",
			"7",
			'{"said":"x","failed":{"why":1,"until":2}}',
			'{"failed":{"why":"x"}}',
		]) {
			writeFileSync(path, text);
			const told = fileSessionTold(folder, "s1", clock);
			expect(told.failed()).toBeNull();
			expect(told.first("x")).toBe(true);
			expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ said: ["x"], failed: null });
		}
		writeFileSync(
			path,
			JSON.stringify({ said: ["a", 3, null], failed: { why: "down", until: Number.MAX_VALUE, extra: 1 } }),
		);
		const told = fileSessionTold(folder, "s1", clock);
		expect(told.first("a")).toBe(false);
		expect(told.failed()).toEqual({ why: "down", until: Number.MAX_VALUE });
		told.first("b");
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
			said: ["a", "b"],
			failed: { why: "down", until: Number.MAX_VALUE },
		});
		writeFileSync(path, JSON.stringify({ said: [], failed: { why: "down", until: null } }));
		expect(fileSessionTold(folder, "s1", clock).failed()).toBeNull();
	});

	it("reads the file once, at its first use: a hook reads what its session was told when it started", () => {
		fileSessionTold(folder, "s1", clock).first("x");
		const told = fileSessionTold(folder, "s1", clock);
		expect(told.said("x")).toBe(true);
		rmSync(join(folder, "s1.json"));
		expect(told.said("x")).toBe(true);
		expect(told.first("x")).toBe(false);
	});

	it("says a problem again where it cannot be kept, rather than fail the hook", () => {
		// A file where the folder should be: nothing can be written in it.
		writeFileSync(folder, "");
		const told = fileSessionTold(folder, "s1", clock);
		expect(told.first("the store is down")).toBe(true);
		told.keepFailed({ why: "down", until: 1 });
		expect(fileSessionTold(folder, "s1", clock).first("the store is down")).toBe(true);
		if (process.getuid?.() === 0) return; // root writes through any permission
		rmSync(folder);
		mkdirSync(folder);
		chmodSync(folder, 0o500);
		expect(fileSessionTold(folder, "s2", clock).first("x")).toBe(true);
		expect(fileSessionTold(folder, "s2", clock).first("x")).toBe(true);
	});

	it("lets go of a file untouched for longer than it keeps it, but not one untouched for exactly that long", () => {
		now = Math.floor(Date.now() / 1000) * 1000;
		fileSessionTold(folder, "edge", clock).first("x");
		fileSessionTold(folder, "past", clock).first("x");
		const at = (ms: number) => ms / 1000;
		utimesSync(join(folder, "edge.json"), at(now - SESSION_TOLD_KEPT_MS), at(now - SESSION_TOLD_KEPT_MS));
		utimesSync(
			join(folder, "past.json"),
			at(now - SESSION_TOLD_KEPT_MS - 1_000),
			at(now - SESSION_TOLD_KEPT_MS - 1_000),
		);
		const told = fileSessionTold(folder, "new", clock);
		told.first("x");
		expect(existsSync(join(folder, "edge.json"))).toBe(true);
		expect(existsSync(join(folder, "past.json"))).toBe(false);
		// Its own file made, the session lets go of nothing more.
		utimesSync(
			join(folder, "edge.json"),
			at(now - SESSION_TOLD_KEPT_MS - 1_000),
			at(now - SESSION_TOLD_KEPT_MS - 1_000),
		);
		told.first("y");
		expect(existsSync(join(folder, "edge.json"))).toBe(true);
	});

	it("lets go of the files of sessions untouched for longer than it keeps them, when a new session's is made", () => {
		fileSessionTold(folder, "old", clock).first("x");
		fileSessionTold(folder, "recent", clock).first("x");
		const day = 24 * 3_600_000;
		utimesSync(
			join(folder, "old.json"),
			(now - SESSION_TOLD_KEPT_MS - day) / 1000,
			(now - SESSION_TOLD_KEPT_MS - day) / 1000,
		);
		utimesSync(
			join(folder, "recent.json"),
			(now - SESSION_TOLD_KEPT_MS + day) / 1000,
			(now - SESSION_TOLD_KEPT_MS + day) / 1000,
		);
		// A session that has its file already lets go of nothing.
		fileSessionTold(folder, "recent", clock).first("y");
		expect(existsSync(join(folder, "old.json"))).toBe(true);
		fileSessionTold(folder, "new", clock).first("x");
		expect(existsSync(join(folder, "old.json"))).toBe(false);
		expect(existsSync(join(folder, "recent.json"))).toBe(true);
		expect(existsSync(join(folder, "new.json"))).toBe(true);
	});
});

describe("the first problem new to a session", () => {
	it("skips the problems said before, and says every one where nothing is kept", () => {
		const problems = () => {
			const queue = ["a", "b", "c"];
			return () => queue.shift() ?? null;
		};
		const said = new Set(["a", "b"]);
		const told = {
			said: (text: string) => said.has(text),
			first: (text: string) => !said.has(text),
			failed: () => null,
			keepFailed: () => {},
		};
		expect(firstTold(problems(), told)).toBe("c");
		said.add("c");
		expect(firstTold(problems(), told)).toBeNull();
		expect(firstTold(problems(), undefined)).toBe("a");
		// Nothing to say asks nothing of what the session was told.
		const asked: string[] = [];
		const counting = { ...told, first: (text: string) => asked.push(text) > 0 };
		expect(firstTold(() => null, counting)).toBeNull();
		expect(asked).toEqual([]);
	});
});
