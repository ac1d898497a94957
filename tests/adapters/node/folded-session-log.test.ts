// A hook's session log read folded (folded-session-log.ts), from the kept summary of its first lines where that holds
// (log-summary.ts): at any split of any log, torn last line or not, every reading a hook makes of it is the one a whole
// read gives; a hook with a valid summary reads only the lines after it; and on any doubt (a summary stale, of a log
// cut short or rewritten or replaced, of another version, that is not JSON, cut short itself) the log is read whole.

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeAppendFiles } from "../../../src/adapters/node/append-line.ts";
import { FoldedSessionLog } from "../../../src/adapters/node/folded-session-log.ts";
import { type LogFiles, nodeLogFiles, SUMMARY_SUFFIX } from "../../../src/adapters/node/log-summary.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import { emptyLogFold, foldHistory, LOG_FOLD_CHECK_BYTES, type LogLine, sessionLog } from "../../../src/core/index.ts";
import { budgetRecord } from "../../../src/core/model/records.ts";
import { budget, START } from "../../support/budgets.ts";
import { countingLogFiles } from "../../support/counting-log-files.ts";
import { AGENT_IDS, expandKept, GUARDED, PROMPT_IDS, splitLog } from "../../support/log-lines.ts";

const { linesOfKind } = sessionLog;

const SESSION = "s1";
const CLOCK = { now: () => START };
const ADDED_UP = new Set(["call", "usage", "ended", "transcript"]);

let folder: string;
let log: string;
let summary: string;
beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-folded-log-"));
	mkdirSync(join(folder, "sessions"));
	log = join(folder, "sessions", `${SESSION}.jsonl`);
	summary = join(folder, "sessions", `${SESSION}${SUMMARY_SUFFIX}`);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function folded(files: LogFiles = nodeLogFiles): FoldedSessionLog {
	return new FoldedSessionLog(folder, SESSION, CLOCK, nodeAppendFiles, files);
}

/** Reads the log folded, and keeps its summary whatever the rules' threshold (a test's logs are short). */
function keepSummary(): void {
	const reader = folded();
	const read = reader.foldRead();
	if (read !== null) reader.keepFold(read.fold);
}

const text = (lines: readonly LogLine[]): string => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

/** Every reading a hook makes of its log, from the folded log and from a whole read, is the same. */
function expectSameReadings(reader: SessionLog, whole: SessionLog): void {
	const all = whole.lines();
	const lines = reader.lines();
	// A run of prompts read back from a summary stands for the prompt lines it holds.
	expect(expandKept(lines)).toEqual(expandKept(all).filter((line) => !ADDED_UP.has(line.kind)));
	expect(reader.foldedHistory()).toEqual(foldHistory(whole.history()));
	// The responses seen (a set: in no order that means anything), and each of them (and no other id) found as seen.
	const progress = reader.transcriptProgress();
	const wholeProgress = whole.transcriptProgress();
	expect({ ...progress, seen: [...progress.seen].sort() }).toEqual({
		...wholeProgress,
		seen: [...wholeProgress.seen].sort(),
	});
	for (const id of [...wholeProgress.seen, "r-none", ""])
		expect(progress.seen.has(id)).toBe(wholeProgress.seen.has(id));
	expect(reader.latestPrompt()).toEqual(whole.latestPrompt());
	expect(reader.empty()).toBe(whole.empty());
	expect(reader.project()).toBe(whole.project());
	expect(sessionLog.latestPrompt(lines)).toBe(sessionLog.latestPrompt(all));
	expect(sessionLog.untoldNotices(lines, START)).toEqual(sessionLog.untoldNotices(all, START));
	const found = { responses: [], offset: 5, unreadable: true };
	expect(sessionLog.transcriptUsage(found, 0, lines, START)).toEqual(sessionLog.transcriptUsage(found, 0, all, START));
	const claim = { kind: "nudged" as const, budgetId: "budget-1" };
	expect(sessionLog.claimKept(claim, lines, START)).toEqual(sessionLog.claimKept(claim, all, START));
	for (const id of PROMPT_IDS) {
		expect(reader.stepOf(id)).toBe(whole.stepOf(id));
		expect(reader.runEnded(id)).toBe(whole.runEnded(id));
		expect(sessionLog.dailyPartOf(lines, id)).toEqual(sessionLog.dailyPartOf(all, id));
		const call = { tool: "read", input: { path: id } };
		expect(sessionLog.loopCalls(lines, GUARDED, id, null, call, START)).toEqual(
			sessionLog.loopCalls(all, GUARDED, id, null, call, START),
		);
	}
	for (const agent of [...AGENT_IDS, null]) {
		expect(sessionLog.owedTo(lines, agent, START)).toEqual(sessionLog.owedTo(all, agent, START));
		if (agent === null) continue;
		expect(sessionLog.takeSpawn(lines, agent, "t2", START)).toEqual(sessionLog.takeSpawn(all, agent, "t2", START));
		expect(sessionLog.ruleIdOf(lines, agent)).toBe(sessionLog.ruleIdOf(all, agent));
		expect(sessionLog.refusedSpawn(lines, agent)).toBe(sessionLog.refusedSpawn(all, agent));
	}
}

describe("a hook's session log, folded", () => {
	it("reads as the whole log does, from a summary kept at any split, with a torn last line or a damaged one", () => {
		fc.assert(
			fc.property(
				splitLog,
				fc.constantFrom("", "not json\n", '{"kind":"prompt","prom', '{"kind":"told","at":1}'),
				([lines, at], odd) => {
					rmSync(summary, { force: true });
					writeFileSync(log, text(lines.slice(0, at)));
					keepSummary();
					appendFileSync(log, text(lines.slice(at)) + odd);
					const files = countingLogFiles();
					const reader = folded(files);
					expectSameReadings(reader, new SessionLog(folder, SESSION, CLOCK));
					// Read from the summary: the lines after it, and the bytes a summary checks before it.
					const after = Buffer.byteLength(text(lines.slice(at)) + odd);
					expect(files.bytes).toBeLessThanOrEqual(after + 3 * LOG_FOLD_CHECK_BYTES);
					// A line it writes (after the torn one, on a line of its own) is read as a whole read reads it.
					reader.appendLine({ kind: "call", promptId: "p1", at: START });
					reader.appendLine({ kind: "prompt", promptId: "p9", at: START });
					expectSameReadings(reader, new SessionLog(folder, SESSION, CLOCK));
					expectSameReadings(folded(), new SessionLog(folder, SESSION, CLOCK));
				},
			),
			{ numRuns: 25 },
		);
	});

	it("of 10,000 lines with a valid summary, reads only the lines after it", () => {
		const lines: LogLine[] = [{ kind: "active", budget: budgetRecord(budget({ turnLimit: 100_000 })) }];
		for (let prompt = 0; lines.length < 10_000; prompt++) {
			const promptId = `past-${prompt}`;
			lines.push(
				{ kind: "prompt", promptId, at: START },
				{ kind: "call", promptId, at: START },
				{ kind: "usage", responseId: `${promptId}-r`, tokens: 1_200, at: START },
				{ kind: "ended", promptId, at: START },
			);
		}
		writeFileSync(log, text(lines));
		const first = countingLogFiles();
		const reader = folded(first);
		expect(reader.foldRead()?.bytes).toBe(readFileSync(log).length);
		expect(first.bytes).toBe(readFileSync(log).length);
		reader.keepFold(reader.foldRead()?.fold ?? emptyLogFold());
		appendFileSync(log, text([{ kind: "prompt", promptId: "new", at: START }]));
		const next = countingLogFiles();
		const hook = folded(next);
		expect(hook.foldedHistory().usedTurns).toBe(2_501);
		expect(hook.stepOf("past-7")).toBe(2);
		expect(hook.foldRead()?.bytes).toBe(Buffer.byteLength(text([{ kind: "prompt", promptId: "new", at: START }])));
		expect(next.bytes).toBeLessThan(1_000);
		expectSameReadings(hook, new SessionLog(folder, SESSION, CLOCK));
	});

	const LINES: LogLine[] = [
		{ kind: "active", budget: budgetRecord(budget({ turnLimit: 5 })) },
		{ kind: "prompt", promptId: "p1", at: START },
		{ kind: "call", promptId: "p1", at: START },
		{ kind: "prompt", promptId: "p2", at: START },
	];

	/**
	 * The bytes read past the kept summary by a read after `change`, from a summary kept of LINES (the whole log where it
	 * is not used), checking that it reads as a whole read does.
	 */
	function readAfter(change: () => void): number | undefined {
		writeFileSync(log, text(LINES));
		keepSummary();
		change();
		const reader = folded();
		expectSameReadings(reader, new SessionLog(folder, SESSION, CLOCK));
		return reader.foldRead()?.bytes;
	}

	const size = () => readFileSync(log).length;
	const header = () => JSON.parse(readFileSync(summary, "utf8").split("\n")[0] ?? "");
	const withHeader = (fields: object) => {
		const [first, body] = readFileSync(summary, "utf8").split("\n");
		writeFileSync(summary, `${JSON.stringify({ ...JSON.parse(first ?? ""), ...fields })}\n${body}`);
	};

	it.each<[string, LogLine]>([
		["a line it keeps", { kind: "told", at: START }],
		["what a response used", { kind: "usage", responseId: "r-torn", tokens: 7, cost: 0.25, at: START }],
	])("keeps no torn last line in a summary (%s): once the line is whole, it is read once", (_name, line) => {
		writeFileSync(log, `${text(LINES)}${JSON.stringify(line)}`);
		// The torn line is read as a whole read reads it, and the summary kept of that read ends before it.
		keepSummary();
		appendFileSync(log, `\n${text([{ kind: "prompt", promptId: "p3", at: START }])}`);
		const reader = folded();
		expectSameReadings(reader, new SessionLog(folder, SESSION, CLOCK));
		expect(linesOfKind(reader.lines(), "told").length + reader.foldedHistory().spend.tokens).toBe(
			line.kind === "told" ? 1 : 7,
		);
	});

	it("reads only what was added since a valid summary", () => {
		const added = text([{ kind: "prompt", promptId: "p3", at: START }]);
		expect(readAfter(() => appendFileSync(log, added))).toBe(added.length);
		expect(readAfter(() => {})).toBe(0);
	});

	it.each<[string, () => void]>([
		["the log cut short (the summary past its end)", () => writeFileSync(log, text(LINES.slice(0, 2)))],
		[
			"the log rewritten to the same length (its last line changed)",
			() => writeFileSync(log, text(LINES).replace('"p2"', '"p7"')),
		],
		[
			"the log rewritten to the same length (its first line changed)",
			() => writeFileSync(log, text(LINES).replace('"turnLimit":5', '"turnLimit":6')),
		],
		[
			"the log replaced by another file",
			() => {
				rmSync(log);
				writeFileSync(log, text(LINES));
			},
		],
		["a summary that is not JSON", () => writeFileSync(summary, "{not json")],
		[
			"a summary whose fold is not JSON",
			() => {
				const [first, body] = readFileSync(summary, "utf8").split("\n");
				writeFileSync(summary, `${first}\n${"{".repeat(body?.length ?? 0)}`);
			},
		],
		["a summary of another version", () => withHeader({ version: 0 })],
		["a summary with no header fields", () => withHeader({ head: 3 })],
		["a header that is no object", () => writeFileSync(summary, "7\n{}")],
		["a summary cut short", () => writeFileSync(summary, readFileSync(summary, "utf8").slice(0, -3))],
		["a summary with no fold", () => writeFileSync(summary, readFileSync(summary, "utf8").split("\n")[0] ?? "")],
		["a summary whose offset is not a line's end", () => withHeader({ offset: header().offset - 1 })],
		["a summary at offset 0", () => withHeader({ offset: 0 })],
		["a summary at a negative offset", () => withHeader({ offset: -5 })],
		["a summary at an offset that is no whole number", () => withHeader({ offset: header().offset - 0.5 })],
		["a summary whose offset is a text", () => withHeader({ offset: String(header().offset) })],
		["a summary past the log's end", () => withHeader({ offset: size() + 10 })],
		["a summary whose fold is longer than its header says", () => withHeader({ length: header().length - 1 })],
		["a header that is null", () => writeFileSync(summary, "null\n{}")],
		["a header that is a list", () => writeFileSync(summary, "[1,2,3]\n{}")],
		["a header whose inode is a text", () => withHeader({ ino: String(header().ino) })],
		[
			"a summary whose offset is inside a line, its bytes before it as they are",
			() => {
				const offset = header().offset - 2;
				const bytes = readFileSync(log);
				const back = bytes.subarray(Math.max(0, offset - LOG_FOLD_CHECK_BYTES), offset).toString("base64");
				withHeader({
					offset,
					back,
					head: bytes.subarray(0, Math.min(LOG_FOLD_CHECK_BYTES, offset)).toString("base64"),
				});
			},
		],
		["a summary whose first bytes differ", () => withHeader({ head: Buffer.from("x").toString("base64") })],
		[
			"a summary whose fold is not one",
			() => {
				const [first] = readFileSync(summary, "utf8").split("\n");
				const body = JSON.stringify({ kept: 3 });
				writeFileSync(summary, `${JSON.stringify({ ...JSON.parse(first ?? ""), length: body.length })}\n${body}`);
			},
		],
		...(
			[
				["a dropped prompt with no id", { kind: "prompt-dropped", at: START }],
				["a prompt with a working folder and no id", { kind: "prompt", cwd: "/a", at: START }],
				["a claim with no claim", { kind: "claim", at: START }],
			] as const
		).map(([what, line]): [string, () => void] => [
			`a summary that keeps a line the log could not hold (${what})`,
			() => {
				const [first, body] = readFileSync(summary, "utf8").split("\n");
				const fold = JSON.parse(body ?? "");
				const changed = JSON.stringify({ ...fold, kept: [...fold.kept, line] });
				writeFileSync(summary, `${JSON.stringify({ ...JSON.parse(first ?? ""), length: changed.length })}\n${changed}`);
			},
		]),
	])("reads the whole log for %s", (_name, change) => {
		expect(readAfter(change)).toBe(size());
	});

	it("keeps no summary of a fold it did not read as it is, and none it cannot write", () => {
		writeFileSync(log, text(LINES));
		const reader = folded();
		const read = reader.foldRead();
		reader.keepFold(emptyLogFold());
		expect(() => readFileSync(summary)).toThrow();
		// Once it wrote a line, its fold is no summary of the file's first lines.
		reader.appendLine({ kind: "told", at: START });
		expect(reader.foldRead()).toBeNull();
		reader.keepFold(read?.fold ?? emptyLogFold());
		expect(() => readFileSync(summary)).toThrow();
		const failing = folded({
			...nodeLogFiles,
			replace: () => {
				throw new Error("disk full");
			},
		});
		failing.keepFold(failing.foldRead()?.fold ?? emptyLogFold());
		expect(() => readFileSync(summary)).toThrow();
	});

	it("reads no log as empty, keeps nothing of it, and writes a line to it as the first", () => {
		const reader = folded();
		const plain = new SessionLog(folder, SESSION, CLOCK);
		expect(reader.foldRead()).toBeNull();
		expect(reader.empty()).toBe(true);
		// Either log says the file was not there when read (a watcher leaves a session whose log stays gone).
		expect(reader.missing()).toBe(true);
		expect(plain.lines()).toEqual([]);
		expect(plain.missing()).toBe(true);
		reader.appendLine({ kind: "prompt", promptId: "p1", at: START });
		plain.reread();
		expect(plain.lines()).toHaveLength(1);
		expect(plain.missing()).toBe(false);
		expect(reader.lines()).toEqual([{ kind: "prompt", promptId: "p1", at: START }]);
		reader.reread();
		expect(reader.foldRead()?.bytes).toBe(size());
		expect(reader.missing()).toBe(false);
		// A line written before any read is read with the rest.
		const writer = folded();
		writer.appendLine({ kind: "prompt", promptId: "p2", at: START });
		expect(writer.lines().map((line) => line.kind === "prompt" && line.promptId)).toEqual(["p1", "p2"]);
	});

	it("reads the whole log again for a report's history, and fails naming a log it cannot read", () => {
		writeFileSync(log, text(LINES));
		const reader = folded();
		reader.lines();
		appendFileSync(log, text([{ kind: "usage", responseId: "r1", tokens: 3, at: START }]));
		expect(reader.history().at(-1)).toEqual({ kind: "usage", tokens: 3, cost: 0, at: START });
		rmSync(log);
		mkdirSync(log);
		expect(() => folded().lines()).toThrow(log);
		const refused = folded({
			...nodeLogFiles,
			open: () => {
				throw new Error("EACCES");
			},
		});
		expect(() => refused.lines()).toThrow(log);
	});

	it("writes a summary whole or not at all, leaving no draft behind", () => {
		expect(() => nodeLogFiles.replace(join(folder, "missing", "x.json"), "{}")).toThrow();
		nodeLogFiles.replace(summary, "one");
		nodeLogFiles.replace(summary, "two");
		expect(readFileSync(summary, "utf8")).toBe("two");
		expect(nodeLogFiles.readText(join(folder, "none"))).toBeNull();
		expect(nodeLogFiles.open(join(folder, "none", "log"))).toBeNull();
		expect(() => nodeLogFiles.open(join(folder, "x".repeat(5_000)))).toThrow(/ENAMETOOLONG/);
		// A log that is shorter than it was said to be gives what it holds.
		writeFileSync(log, "0123456789");
		const fd = nodeLogFiles.open(log) ?? -1;
		expect(nodeLogFiles.read(fd, 100, 4).toString()).toBe("456789");
		nodeLogFiles.close(fd);
	});

	it("lets two hooks that keep a summary at once keep either: each is true of the log's start", () => {
		writeFileSync(log, text(LINES.slice(0, 2)));
		const early = folded();
		const earlyRead = early.foldRead();
		appendFileSync(log, text(LINES.slice(2)));
		keepSummary();
		// The hook that read less keeps its summary last: the next reads on from there.
		early.keepFold(earlyRead?.fold ?? emptyLogFold());
		expect(header().offset).toBe(Buffer.byteLength(text(LINES.slice(0, 2))));
		expectSameReadings(folded(), new SessionLog(folder, SESSION, CLOCK));
	});

	it("keeps no summary on the plain log, which keeps none", () => {
		const plain = new SessionLog(folder, SESSION, CLOCK, true);
		plain.keepFold(emptyLogFold());
		expect(plain.empty()).toBe(true);
		writeFileSync(log, text(LINES));
		plain.reread();
		expect(plain.empty()).toBe(false);
		expect(plain.foldRead()).toBeNull();
		expect(() => readFileSync(summary)).toThrow();
	});
});
