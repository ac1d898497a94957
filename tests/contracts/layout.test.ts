// The house's layout rules kept true: no source file is over 300 lines (split by concern before it grows past), and
// every source and test file opens with one comment saying what it is for (after any line a tool reads first).

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const MAX_LINES = 300;

/** Every file under `dir` (relative to the repository), but for folders named in `skip`. */
function filesIn(dir: string, skip: readonly string[] = []): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return skip.includes(entry.name) ? [] : filesIn(path, skip);
		return [path];
	});
}

const code = (path: string) => /\.(ts|tsx|mjs|sh)$/.test(path);

describe("the layout", () => {
	it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
		const long = filesIn("src")
			.filter(code)
			.map((path) => ({ path, lines: readFileSync(join(ROOT, path), "utf8").trimEnd().split("\n").length }))
			.filter(({ lines }) => lines > MAX_LINES)
			.map(({ path, lines }) => `${relative(".", path)}: ${lines} lines`);
		expect(long).toEqual([]);
	});

	it("opens every source and test file with a comment saying what it is for", () => {
		const files = [...filesIn("src"), ...filesIn("tests", ["node_modules"])].filter(code);
		expect(files.length).toBeGreaterThan(200);
		const bare = files.filter((path) => {
			// Past the lines a tool reads first (TypeScript's references, a JSX pragma, a shebang): a line of words.
			const lines = readFileSync(join(ROOT, path), "utf8").split("\n");
			const opening = lines.find((line) => line !== "" && !/^(\/\/\/ <reference |\/\*\* @jsx|#!)/.test(line)) ?? "";
			return !/^(\/\/|#) [A-Za-z`"'(]/.test(opening) || /biome-ignore|eslint-|@ts-/.test(opening);
		});
		expect(bare).toEqual([]);
	});
});
