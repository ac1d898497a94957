// The grep that shows no rule, write or text is left in an adapter, kept true: outside the ports' own implementations
// no adapter writes a session's log or store itself (every write is an effect the core returns and the one executor
// carries out), and no adapter writes a text of Timebox's (every text lives in src/core/text/).

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const ADAPTERS = join(ROOT, "src/adapters");

/** The ports' own implementations: the files that write a store, a log or a ledger for the executor. */
const PORT_IMPLEMENTATIONS = [
	"src/adapters/node/",
	"src/adapters/daily/",
	"src/adapters/claude/function-hooks/store.ts",
	"src/adapters/hooks/log-store.ts",
	// The team ledger's outbox: where it keeps what the team's store could not take, inside the daily ledger port.
	"src/adapters/team/outbox.ts",
	"src/adapters/pi/store.ts",
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

/** Every `file:line: code` of `src/adapters` (outside `allowed`) where `pattern` matches code. */
function grep(pattern: RegExp, allowed: readonly string[] = []): string[] {
	return sourceFiles(ADAPTERS).flatMap((path) => {
		const file = relative(ROOT, path);
		if (allowed.some((prefix) => file.startsWith(prefix))) return [];
		return readFileSync(path, "utf8")
			.split("\n")
			.flatMap((line, index) =>
				!isComment(line) && pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
			);
	});
}

describe("the adapters write nothing and say nothing of their own", () => {
	it("writes no log or store line outside the ports' implementations: every write is an effect", () => {
		expect(grep(WRITE, PORT_IMPLEMENTATIONS)).toEqual([]);
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
		['export const TOAST_TITLE = "Timebox";', TEXT],
		["/** Records what a response used (appendUsage(id, used)). */", WRITE],
		["sessionLog.owe(parent, lines, now)", WRITE],
	])("lets %s be", (line, pattern) => {
		expect(!isComment(line) && pattern.test(line)).toBe(false);
	});
});
