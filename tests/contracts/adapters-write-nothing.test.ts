// The grep that shows no rule, write or text is left in an adapter, kept true: outside the ports' own implementations
// no adapter writes a session's log or store itself, writes a file, starts a process or calls Claude Code's `$.process`
// or `$.store` (every write is an effect the core returns and the one executor carries out through a port), and no
// adapter writes a text of Timebox's (every text lives in src/core/text/).

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { fsImports, writesIn } from "./write-calls.ts";

const ROOT = join(import.meta.dirname, "../..");
/** The adapters; `src/entries/` only picks the real ports and starts a process, and `src/core/` touches nothing. */
const ADAPTERS = join(ROOT, "src/adapters");

/**
 * The ports' own implementations: the files that write a store, a log, a ledger, a file or a process for the executor
 * (or, for a port a host reads, read only).
 */
const PORT_IMPLEMENTATIONS = [
	// Node's ports: the session log, the ledgers' files, the on-stop runner, the status line's command.
	"src/adapters/node/",
	"src/adapters/daily/",
	// Claude Code's hooks module: its store (and its repair), the engine that alone reads `$`, and the ports over `$`:
	// the on-stop command, the daily ledger's files, a team's daily ledger through the hook script, the notices on
	// stderr, the report page.
	"src/adapters/claude/function-hooks/store.ts",
	"src/adapters/claude/function-hooks/store-repair.ts",
	"src/adapters/claude/function-hooks/engine.ts",
	"src/adapters/claude/function-hooks/on-stop.ts",
	"src/adapters/claude/function-hooks/daily.ts",
	"src/adapters/claude/function-hooks/team.ts",
	"src/adapters/claude/function-hooks/ui.ts",
	"src/adapters/claude/function-hooks/report-page.ts",
	// The past sessions of a project (the `projectHistory` port, read only) through the plugin's hook script.
	"src/adapters/claude/function-hooks/suggestion.ts",
	// Claude Code's status line set up in its settings (`/timebox statusline`, the hook adapter's own word).
	"src/adapters/claude/setup.ts",
	"src/adapters/hooks/log-store.ts",
	// The team ledger's outbox: where it keeps what the team's store could not take, inside the daily ledger port.
	"src/adapters/team/outbox.ts",
	// What a hook host's session was told by its daily ledger, kept from one hook process to the next (said once).
	"src/adapters/team/session-told.ts",
	"src/adapters/pi/store.ts",
	// The files a pi subagent's process and its parent share: the session's stop, the subagent's outcome.
	"src/adapters/pi/subagent-files.ts",
	// opencode's status, a file its TUI plugin shows.
	"src/adapters/opencode/ui.ts",
	// The marks of the sessions opencode's TUI shows (the `sessionsShown` port's), which its TUI plugin writes.
	"src/adapters/opencode/opened.ts",
	// The report page's file (`/timebox report page`).
	"src/adapters/report/write-page.ts",
	// The cache of the `projectHistory` port's reader: what each past session used, by its file's time. It holds only
	// what the sessions' own files say, and nothing but that reader reads it.
	"src/adapters/report/past-sessions-cache.ts",
];

/** A direct write to a session's log or store. */
const WRITE = /\bappendLine\(|\bappendCall\(|\bappendUsage\(|\.append\(/;

/** A string that starts with Timebox's name and says more: a text for the user, which belongs in src/core/text/. */
const TEXT = /["'`]Timebox(?!["'`])/;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") || entry.name.endsWith(".tsx") ? [path] : [];
	});
}

/** Whether a line is a comment (a line of code that names a write or a text in words is no write). */
function isComment(line: string): boolean {
	const code = line.trim();
	return code.startsWith("//") || code.startsWith("*") || code.startsWith("/*");
}

/** Every `file:line: code` of `src/adapters` (outside `allowed`) where `matches` finds code, given the file's text. */
function grepWith(matches: (text: string) => (line: string) => boolean, allowed: readonly string[] = []): string[] {
	return sourceFiles(ADAPTERS).flatMap((path) => {
		const file = relative(ROOT, path);
		if (allowed.some((prefix) => file.startsWith(prefix))) return [];
		const text = readFileSync(path, "utf8");
		const test = matches(text);
		return text
			.split("\n")
			.flatMap((line, index) => (!isComment(line) && test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
	});
}

/** Every `file:line: code` of `src/adapters` (outside `allowed`) where `pattern` matches code. */
function grep(pattern: RegExp, allowed: readonly string[] = []): string[] {
	return grepWith(() => (line) => pattern.test(line), allowed);
}

/** Whether a line of a file whose text is `text` writes (see write-calls.ts). */
function writes(text: string): (line: string) => boolean {
	const imports = fsImports(text);
	return (line) => writesIn(line, imports);
}

describe("the adapters write nothing and say nothing of their own", () => {
	it("writes no log or store line outside the ports' implementations: every write is an effect", () => {
		expect(grep(WRITE, PORT_IMPLEMENTATIONS)).toEqual([]);
	});

	it("writes no file, starts no process and calls no `$.process` or `$.store` outside the ports' implementations", () => {
		expect(grepWith(writes, PORT_IMPLEMENTATIONS)).toEqual([]);
	});

	it("holds no text of Timebox's: the texts live in src/core/text/ (a title that is the name alone aside)", () => {
		expect(grep(TEXT)).toEqual([]);
	});

	it("names ports' implementations that exist, so that none lets a renamed file through unseen", () => {
		const files = sourceFiles(ADAPTERS).map((path) => relative(ROOT, path));
		for (const prefix of PORT_IMPLEMENTATIONS) expect(files.some((file) => file.startsWith(prefix))).toBe(true);
	});

	it.each([
		['deps.store.appendLine({ kind: "ended", promptId, at: now });', WRITE],
		["store.appendCall(promptKey, now);", WRITE],
		["this.deps.store.appendUsage(tokens, cost);", WRITE],
		["if (record !== null) piStore.append(record);", WRITE],
		['const said = "Timebox: run the script.";', TEXT],
		["return `Timebox report page: ` + link;", TEXT],
	])("finds %s", (line, pattern) => {
		expect(pattern.test(line)).toBe(true);
	});

	it.each([
		['import { writeFileSync } from "node:fs";\nwriteFileSync(path, text);', 2],
		['import { appendFileSync as add } from "node:fs";\nadd(path, line);', 2],
		['import {\n\tmkdirSync,\n\treadFileSync,\n} from "node:fs";\nmkdirSync(folder, { recursive: true });', 5],
		['import { renameSync, linkSync, rmSync } from "node:fs";\nrenameSync(a, b); ', 2],
		['import { linkSync } from "node:fs";\nlinkSync(draft, claim);', 2],
		['import { rmSync } from "node:fs";\nrmSync(path, { force: true });', 2],
		['import { openSync } from "node:fs";\nconst fd = openSync(path, "a+");', 2],
		['import { openSync } from "node:fs";\nconst fd = openSync(path, O_WRONLY | O_CREAT);', 2],
		['import { writeFile } from "node:fs/promises";\nawait writeFile(path, text);', 2],
		['import { open } from "node:fs/promises";\nconst handle = await open(path, "w");', 2],
		['import * as fs from "node:fs";\nfs.writeFileSync(path, text);', 2],
		['import fs from "node:fs";\nawait fs.promises.rm(path);', 2],
		['import { promises as files } from "node:fs";\nawait files.mkdir(folder);', 2],
		['import { spawn } from "node:child_process";', 1],
		['const { spawnSync } = await import("child_process");', 1],
		['const fs = await import("node:fs");', 1],
		["await $.process.run(argv);", 1],
		["await $.store.set(key, value);", 1],
		['await this.engine().process.run(["sh", "-c", script]);', 1],
		["const store = engine().store;", 1],
		["engine()\n\t.process.run(argv)", 2],
	])("finds the write in %s", (code, line) => {
		const test = writes(code);
		expect(
			code
				.split("\n")
				.map((text, index) => (test(text) ? index + 1 : 0))
				.filter((at) => at > 0),
		).toEqual([line]);
	});

	it.each([
		'import { readFileSync } from "node:fs";\nconst text = readFileSync(path, "utf8");',
		'import { openSync, readSync } from "node:fs";\nconst fd = openSync(path, "r");\nreadSync(fd, buffer);',
		'import { openSync } from "node:fs";\nconst fd = openSync(path);',
		'import { open } from "node:fs/promises";\nconst handle = await open(path, "r");',
		'import { existsSync, statSync } from "node:fs";\nif (existsSync(path)) statSync(path);',
		"this.write(effects); hook.write(lines); store.rm(key); log.link(line);",
		"const writeFile = (path) => path; writeFile(path);",
	])("lets %s be", (code) => {
		const test = writes(code);
		expect(code.split("\n").filter((line) => test(line))).toEqual([]);
	});

	it.each([
		['export const TOAST_TITLE = "Timebox";', TEXT],
		["/** Records what a response used (appendUsage(id, used)). */", WRITE],
		["sessionLog.owe(parent, lines, now)", WRITE],
	])("lets %s be", (line, pattern) => {
		expect(!isComment(line) && pattern.test(line)).toBe(false);
	});
});
