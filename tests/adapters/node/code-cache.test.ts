// A CommonJS file run with V8's code cache (pi's extension code, the hook script's): run as Node runs a module, its
// cache written once and whole, read back by the next load, the caches of the last versions kept, and a changed file, a
// refused cache or a folder that cannot be written costing only the compilation; and the folder the hook hosts keep it in.

import { createHash } from "node:crypto";
import {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compileEagerly, requireCached, requireCodeBeside } from "../../../src/adapters/node/code-cache.ts";
import { codeCacheFolder } from "../../../src/entries/code-cache-folder.ts";

/** What the test modules export. */
interface Probe {
	answer: (value: number) => number;
	where: { filename: string; dirname: string; thisIsExports: boolean; sep: string; helper: string };
}

/**
 * A module that uses what Node gives a CommonJS module: `require` (of Node's modules and a file beside it), `module`,
 * `exports`, its paths; its first line names its version, as the build writes it.
 */
function moduleText(version: number): string {
	return [`// A test module. Version ${versionOf(version)}.`, bodyText(version)].join("\n");
}

function bodyText(version: number): string {
	return [
		'"use strict";',
		'const { sep } = require("node:path");',
		'const { helper } = require("./helper.cjs");',
		`exports.answer = (value) => value * ${version};`,
		"module.exports.where = { filename: __filename, dirname: __dirname, thisIsExports: this === exports, sep, helper };",
	].join("\n");
}

let dir: string;
let folder: string;
let copies = 0;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-code-cache-"));
	folder = join(dir, "agent", "timebox-code-cache");
});

/**
 * The module of `version`, written in a folder of its own with the file it requires: each load compiles a file at a new
 * path, as a new process does (V8 keeps what this process compiled by source and path, and would answer from that).
 */
function place(version = 2): string {
	const at = join(dir, `copy-${++copies}`);
	mkdirSync(at);
	writeFileSync(join(at, "code.cjs"), moduleText(version));
	writeFileSync(join(at, "helper.cjs"), 'exports.helper = "beside";');
	return join(at, "code.cjs");
}

/** The version the build writes into the entry of the module of `version` and on its first line: its SHA-256. */
function versionOf(version = 2): string {
	return createHash("sha256").update(bodyText(version)).digest("hex").slice(0, 16);
}

/** A day of the clock `load` gives by default: the day the test's files are written. */
const TODAY = Date.UTC(2026, 11, 6, 12);
const DAY_MS = 24 * 3600 * 1000;

function load(version = 2, now = () => TODAY) {
	return requireCached<Probe>(place(version), { folder, version: versionOf(version), now });
}

/** Sets when `file` in the cache folder was last written. */
function writtenAt(file: string, at: number): void {
	utimesSync(join(folder, file), new Date(at), new Date(at));
}

afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** The cache files in the folder (none when there is no folder). */
function caches(): string[] {
	try {
		return readdirSync(folder).sort();
	} catch {
		return [];
	}
}

describe("a CommonJS file run with V8's code cache", () => {
	it("runs the file as Node runs a module, and writes no cache until asked", () => {
		const file = place();
		const loaded = requireCached<Probe>(file, { folder, version: versionOf() });
		expect(loaded.exports.answer(21)).toBe(42);
		expect(loaded.exports.where).toEqual({
			filename: file,
			dirname: dirname(file),
			thisIsExports: true,
			sep: "/",
			helper: "beside",
		});
		expect(loaded.fromCache).toBe(false);
		expect(caches()).toEqual([]);
	});

	it("keeps one cache, whole and once, named by the file's version, Node's version and the architecture", () => {
		const loaded = load();
		loaded.keep();
		const [name, ...others] = caches();
		expect(others).toEqual([]);
		expect(name).toBe(`code.cjs-${versionOf()}-${process.version}-${process.arch}.v8-cache`);
		expect(statSync(join(folder, name ?? "")).size).toBeGreaterThan(0);
		// Once: a second keep writes nothing (the removed cache stays removed).
		rmSync(join(folder, name ?? ""));
		loaded.keep();
		expect(caches()).toEqual([]);
	});

	it("reads the cache back in the next load, which writes nothing", () => {
		load().keep();
		const [name] = caches();
		const written = readFileSync(join(folder, name ?? ""));
		const next = load();
		expect(next.fromCache).toBe(true);
		expect(next.exports.answer(5)).toBe(10);
		next.keep();
		expect(caches()).toEqual([name]);
		expect(readFileSync(join(folder, name ?? ""))).toEqual(written);
	});

	it("compiles a changed file afresh, and keeps the caches of the two versions written last, leaving other files alone", () => {
		const written: string[] = [];
		for (const version of [2, 3, 4]) {
			const before = new Set(caches());
			const module = load(version);
			expect(module.fromCache).toBe(false);
			expect(module.exports.answer(5)).toBe(5 * version);
			module.keep();
			const name = caches().find((file) => !before.has(file)) ?? "";
			written.push(name);
			// Written in that order, a minute apart.
			const at = new Date(Date.UTC(2026, 0, 1, 12, version));
			utimesSync(join(folder, name), at, at);
		}
		writeFileSync(join(folder, "notes.txt"), "not a cache");
		expect(caches()).toEqual([...written, "notes.txt"].sort());
		const fifth = load(5);
		fifth.keep();
		const now = caches();
		expect(now).toHaveLength(4);
		expect(now).toContain("notes.txt");
		expect(now).toEqual(expect.arrayContaining([written[1], written[2]]));
		expect(now).not.toContain(written[0]);
		// Each kept version still reads its own.
		expect(load(3).fromCache).toBe(true);
		expect(load(4).fromCache).toBe(true);
		expect(load(2).fromCache).toBe(false);
	});

	it("leaves the caches another Node wrote, of any version of the file, until not written for 30 days", () => {
		load().keep();
		const [own] = caches();
		const others = ["v99.0.0", "v98.0.0", "v97.0.0"].map((node) =>
			(own ?? "").replace(`-${process.version}-`, `-${node}-`),
		);
		for (const other of others) writeFileSync(join(folder, other), "another Node's cache");
		writtenAt(others[0] ?? "", TODAY - 30 * DAY_MS);
		writtenAt(others[1] ?? "", TODAY - 30 * DAY_MS - 1);
		writtenAt(others[2] ?? "", TODAY);
		load(3).keep();
		load(4).keep();
		load(5).keep();
		const now = caches();
		expect(now).toHaveLength(5);
		expect(now).toEqual(expect.arrayContaining([others[0], others[2]]));
		expect(now).not.toContain(others[1]);
		// Read by no other process: the caches of 32 days ago go at the next write, of another version.
		load(6, () => TODAY + 2 * DAY_MS).keep();
		expect(caches().filter((file) => !file.includes(`-${process.version}-`))).toEqual([others[2]]);
	});

	it("removes the drafts a process killed before its rename left, once it writes its own cache", () => {
		mkdirSync(folder, { recursive: true });
		const draft = `code.cjs-${versionOf(3)}-${process.version}-${process.arch}.v8-cache.4242.draft`;
		writeFileSync(join(folder, draft), "half a cache");
		writeFileSync(join(folder, "notes.draft"), "not ours");
		load().keep();
		expect(caches()).toEqual([`code.cjs-${versionOf()}-${process.version}-${process.arch}.v8-cache`, "notes.draft"]);
	});

	it("reads the version of a file of one line at its end", () => {
		const file = join(dir, "one-line.cjs");
		writeFileSync(file, "exports.answer = (value) => value * 7; // Version 0123456789abcdef.");
		requireCached<Probe>(file, { folder, version: "0123456789abcdef" }).keep();
		expect(caches()).toEqual([`one-line.cjs-0123456789abcdef-${process.version}-${process.arch}.v8-cache`]);
	});

	it("reads the version on the first line alone, even an empty one, never at the file's end", () => {
		const file = join(dir, "late-version.cjs");
		writeFileSync(file, "\nexports.answer = (value) => value * 7; // Version 0123456789abcdef.");
		const loaded = requireCached<Probe>(file, { folder, version: "0123456789abcdef" });
		expect(loaded.exports.answer(2)).toBe(14);
		loaded.keep();
		expect(caches()).toEqual([]);
	});

	it("runs a file of another build compiled afresh, and reads and writes no cache for it", () => {
		load().keep();
		const [name] = caches();
		const written = readFileSync(join(folder, name ?? ""));
		// The entry names version 2; the file beside it is version 3 (an update caught between its two files).
		const other = requireCached<Probe>(place(3), { folder, version: versionOf(2) });
		expect(other.fromCache).toBe(false);
		expect(other.exports.answer(5)).toBe(15);
		other.keep();
		expect(caches()).toEqual([name]);
		expect(readFileSync(join(folder, name ?? ""))).toEqual(written);
	});

	it("compiles the file when V8 refuses the cache, and writes a good one in its place", () => {
		load().keep();
		const [name] = caches();
		writeFileSync(join(folder, name ?? ""), Buffer.from("not V8's code cache"));
		const refused = load();
		expect(refused.fromCache).toBe(false);
		expect(refused.exports.answer(4)).toBe(8);
		refused.keep();
		expect(caches()).toEqual([name]);
		expect(load().fromCache).toBe(true);
	});

	it("runs the file, and throws nothing, where the cache's folder cannot be made", () => {
		mkdirSync(join(dir, "agent"));
		writeFileSync(folder, "a file where the folder would be");
		const loaded = load();
		expect(loaded.exports.answer(1)).toBe(2);
		expect(() => loaded.keep()).not.toThrow();
		expect(readFileSync(folder, "utf8")).toBe("a file where the folder would be");
	});

	it("leaves no draft behind when the cache cannot take its name", () => {
		load().keep();
		const [name = ""] = caches();
		rmSync(join(folder, name));
		// A folder where the cache would go: the draft is written, and cannot be renamed onto it.
		mkdirSync(join(folder, name));
		const loaded = load();
		expect(loaded.fromCache).toBe(false);
		expect(() => loaded.keep()).not.toThrow();
		expect(caches()).toEqual([name]);
		expect(statSync(join(folder, name)).isDirectory()).toBe(true);
	});

	it("runs the code file beside an entry, and the code's own module where there is none (a run from the source)", () => {
		const file = place();
		const entry = pathToFileURL(join(dirname(file), "entry.mjs")).href;
		const source: Probe = {
			answer: () => 0,
			where: { filename: "", dirname: "", thisIsExports: false, sep: "", helper: "" },
		};
		const beside = requireCodeBeside(entry, "code.cjs", source, () => ({ folder, version: versionOf() }));
		expect(beside.exports.answer(21)).toBe(42);
		beside.keep();
		expect(caches()).toHaveLength(1);
		let asked = false;
		const none = requireCodeBeside(entry, "missing.cjs", source, () => {
			asked = true;
			return { folder, version: versionOf() };
		});
		expect(none.exports).toBe(source);
		expect(none.fromCache).toBe(false);
		none.keep();
		expect(caches()).toHaveLength(1);
		expect(asked).toBe(false);
	});

	it("compiles every function at once with eager where there is no cache: the cache it leaves holds them all", () => {
		// The size of the cache of a script with a function never called, compiled as V8 does by default (each source new:
		// V8 answers a source it compiled already from what it kept).
		const lazySize = (mark: string) =>
			new Script(`exports.f = (x) => [x].map((y) => y * 2); // ${mark}`).createCachedData().length;
		const lazy = lazySize("before");
		load().keep();
		const [name = ""] = caches();
		const lazyCache = statSync(join(folder, name)).size;
		rmSync(join(folder, name));
		const eager = requireCached<Probe>(place(), { folder, version: versionOf(), eager: true });
		expect(eager.fromCache).toBe(false);
		eager.keep();
		// The module's `answer`, never called before the cache was written, is in it.
		expect(statSync(join(folder, name)).size).toBeGreaterThan(lazyCache);
		expect(eager.exports.answer(21)).toBe(42);
		// V8 compiles lazily again after it.
		expect(lazySize("after")).toBe(lazy);
		// A load that finds the cache reads it, eager or not.
		const next = requireCached<Probe>(place(), { folder, version: versionOf(), eager: true });
		expect(next.fromCache).toBe(true);
		expect(next.exports.answer(2)).toBe(4);
	});

	it("compiles eagerly with V8's default restored after, even when the compilation throws, and as before where the option cannot be set", () => {
		const set: string[] = [];
		expect(
			compileEagerly(
				() => "compiled",
				(flags) => set.push(flags),
			),
		).toBe("compiled");
		expect(set).toEqual(["--no-lazy", "--lazy"]);
		const failing = () => {
			throw new SyntaxError("bad code");
		};
		expect(() => compileEagerly(failing, (flags) => set.push(flags))).toThrow("bad code");
		expect(set).toEqual(["--no-lazy", "--lazy", "--no-lazy", "--lazy"]);
		let compiled = 0;
		const unsupported = () => {
			throw new Error("not supported here");
		};
		expect(compileEagerly(() => ++compiled, unsupported)).toBe(1);
	});

	it("runs the file with Node's own require, and keeps no cache, with no folder (Bun)", () => {
		const file = place();
		const loaded = requireCached<Probe>(file, { folder: null, version: versionOf() });
		expect(loaded.exports.answer(21)).toBe(42);
		expect(loaded.exports.where.filename).toBe(file);
		expect(loaded.fromCache).toBe(false);
		loaded.keep();
		expect(caches()).toEqual([]);
	});
});

describe("the folder of the hook hosts' code cache (the hook script's and the team batch's)", () => {
	it("is in Timebox's state folder: under XDG_STATE_HOME where it is set, else under the home folder", () => {
		expect(codeCacheFolder({ XDG_STATE_HOME: "/x/state", HOME: "/home/u" })).toBe(
			"/x/state/timebox/timebox-code-cache",
		);
		expect(codeCacheFolder({ HOME: "/home/u" })).toBe("/home/u/.local/state/timebox/timebox-code-cache");
		expect(codeCacheFolder({ HOME: "/home/u", XDG_STATE_HOME: " " })).toBe(
			"/home/u/.local/state/timebox/timebox-code-cache",
		);
	});

	it("takes the user's home folder from the system where HOME is empty", () => {
		expect(codeCacheFolder({ HOME: "" })).toBe(join(homedir(), ".local/state/timebox/timebox-code-cache"));
	});

	it("is none where it would not be an absolute path: the cache would land in the user's project", () => {
		expect(codeCacheFolder({ XDG_STATE_HOME: "state", HOME: "/home/u" })).toBeNull();
		expect(codeCacheFolder({ HOME: "home" })).toBeNull();
	});
});
