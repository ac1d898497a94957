// The torn-line rule, one table (tests/support/torn-lines.ts) run on both of its implementations: Node's append and
// the shell's that Claude Code's hooks module runs through `$.process.run`, in a real `sh`. Both must leave the same
// bytes in the file for every case.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WRITE_SCRIPT } from "../../src/adapters/claude/function-hooks/daily.ts";
import { appendLine } from "../../src/adapters/node/append-line.ts";
import { afterAppend, TORN_LINE_CASES, type TornLineCase } from "../support/torn-lines.ts";

let folder: string;
beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-torn-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** The file of a case, written as it stands before the append. */
function fileOf(name: string, one: TornLineCase): string {
	const path = join(folder, `${Object.keys(TORN_LINE_CASES).indexOf(name)}.jsonl`);
	if (one.before !== null) writeFileSync(path, one.before);
	return path;
}

const CASES = Object.entries(TORN_LINE_CASES);

describe("the torn-line rule", () => {
	it.each(CASES)("holds in Node's append (append-line.ts) on %s", (name, one) => {
		const path = fileOf(name, one);
		appendLine(path, one.line);
		expect(readFileSync(path)).toEqual(afterAppend(one));
	});

	it("holds in the shell's append (the hooks module's daily ledger, in sh) on every case, in one run", () => {
		// The script takes its writes three arguments each, as the module hands it a batch.
		const paths = CASES.map(([name, one]) => fileOf(name, one));
		const args = CASES.flatMap(([, one], index) => ["append", paths[index] ?? "", one.line]);
		const ran = spawnSync("sh", ["-c", WRITE_SCRIPT, "sh", ...args], { encoding: "utf8" });
		expect(ran.stderr).toBe("");
		expect(ran.status).toBe(0);
		const after = Object.fromEntries(CASES.map(([name], index) => [name, readFileSync(paths[index] ?? "")]));
		expect(after).toEqual(Object.fromEntries(CASES.map(([name, one]) => [name, afterAppend(one)])));
	});
});
