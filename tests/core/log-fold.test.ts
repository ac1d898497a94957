// The fold of a session's log (model/log-fold.ts): kept as JSON and read back it is the same fold, and a fold of the
// log's first lines read back and folded on over the rest is the fold of the whole log, at any split; a JSON value that
// is not a fold this version wrote is read as none.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyOf } from "../../src/adapters/node/log-lines.ts";
import {
	dropPromptItem,
	emptyLogFold,
	type FoldItem,
	foldHistory,
	foldLine,
	type HistoryItem,
	historyOfFold,
	type LogFold,
	type LogLine,
	restoreLogFold,
	serialiseLogFold,
	sessionLog,
	stepOfFold,
} from "../../src/core/index.ts";
import { START } from "../support/budgets.ts";
import { expandKept, GUARDED, PROMPT_IDS, splitLog } from "../support/log-lines.ts";

function foldOf(lines: readonly LogLine[], from = emptyLogFold()): LogFold {
	for (const line of lines) foldLine(from, line);
	return from;
}

/** A fold with its ids as sorted lists (sets, in no order that means anything): two folds that hold the same are equal. */
function plainFold(fold: LogFold) {
	// A run of prompts read back from a summary stands for its prompt lines; where the record is among them follows.
	const kept = expandKept(fold.kept);
	const recordAt = fold.recordAt < 0 ? -1 : expandKept(fold.kept.slice(0, fold.recordAt)).length;
	return {
		...fold,
		kept,
		recordAt,
		calls: [...fold.calls].sort(),
		ended: [...fold.ended].sort(),
		responses: [...fold.responses].sort(),
	};
}

/** The fold kept as a summary's text and read back. */
function keptAndRead(fold: LogFold): LogFold {
	const restored = restoreLogFold(JSON.parse(JSON.stringify(serialiseLogFold(fold))));
	if (restored === null) throw new Error("a fold this version wrote was not read back");
	return restored;
}

describe("a log's fold", () => {
	it("reads back from its JSON as the same fold", () => {
		fc.assert(
			fc.property(splitLog, ([lines]) => {
				const fold = foldOf(lines);
				expect(plainFold(keptAndRead(fold))).toEqual(plainFold(fold));
			}),
			{ numRuns: 150 },
		);
	});

	it("of the first lines, kept, read back and folded on over the rest, is the fold of the whole log", () => {
		fc.assert(
			fc.property(splitLog, ([lines, at]) => {
				const whole = foldOf(lines);
				const resumed = foldOf(lines.slice(at), keptAndRead(foldOf(lines.slice(0, at))));
				expect(plainFold(resumed)).toEqual(plainFold(whole));
				for (const id of PROMPT_IDS) expect(resumed.ended.has(id)).toBe(whole.ended.has(id));
				expect(foldHistory(historyOfFold(resumed))).toEqual(foldHistory(historyOfFold(whole)));
				for (const id of PROMPT_IDS) expect(stepOfFold(resumed, id)).toBe(stepOfFold(whole, id));
			}),
			{ numRuns: 150 },
		);
	});

	it("kept again and again, at any splits, is read as the whole log: its history and the readings of its lines", () => {
		fc.assert(
			fc.property(splitLog, fc.array(fc.nat(60), { maxLength: 3 }), ([lines], cuts) => {
				// Each summary is read back and folded on to the next cut, where it is kept again (its runs joined on).
				let resumed = emptyLogFold();
				let from = 0;
				for (const cut of [...cuts.map((at) => Math.min(at, lines.length))].sort((a, b) => a - b)) {
					resumed = keptAndRead(foldOf(lines.slice(from, cut), resumed));
					from = cut;
				}
				resumed = foldOf(lines.slice(from), resumed);
				const whole = foldOf(lines);
				expect(plainFold(resumed)).toEqual(plainFold(whole));
				expect(foldHistory(historyOfFold(resumed))).toEqual(foldHistory(historyOf(lines)));
				expect(sessionLog.latestPrompt(resumed.kept)).toBe(sessionLog.latestPrompt(lines));
				for (const id of PROMPT_IDS) {
					expect(sessionLog.dailyPartOf(resumed.kept, id)).toEqual(sessionLog.dailyPartOf(lines, id));
					// A loop guard's calls of the run of `id` are read back to its prompt, in a run of prompts too.
					const call = { tool: "read", input: { path: id } };
					expect(sessionLog.loopCalls(resumed.kept, GUARDED, id, null, call, START)).toEqual(
						sessionLog.loopCalls(lines, GUARDED, id, null, call, START),
					);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("keeps prompts one after another as one run in a summary, and reads the run as the prompts it stands for", () => {
		const lines: LogLine[] = [
			{ kind: "tool", promptId: "p2", agent: null, key: "k-before", at: START },
			{ kind: "active", budget: { version: 2, id: "b", timeLimitMs: null, turnLimit: 9, startTime: START } },
			{ kind: "prompt", promptId: "p1", at: START + 1 },
			{ kind: "call", promptId: "p1", at: START + 1 },
			{ kind: "prompt", promptId: "p2", at: START + 2 },
			{ kind: "prompt", promptId: "p3", at: START + 3 },
			{ kind: "prompt-dropped", promptId: "p3", at: START + 4 },
		];
		const json = serialiseLogFold(foldOf(lines));
		expect(json.kept[2]).toEqual({ kind: "prompts", ids: "p1\np2\np3\n", at: [START + 1, START + 2, START + 3] });
		const read = keptAndRead(foldOf(lines));
		expect(read.kept.map((line) => line.kind)).toEqual(["tool", "active", "prompts", "prompt-dropped"]);
		// The newest prompt that ran, when one was sent, and no tool call of the run before its prompt.
		expect(sessionLog.latestPrompt(read.kept)).toBe("p2");
		expect(sessionLog.dailyPartOf(read.kept, "p2").session.runStartedAt).toBe(START + 2);
		const call = { tool: "read", input: { path: "x" } };
		expect(sessionLog.loopCalls(read.kept, GUARDED, "p2", null, call, START).value).toEqual([]);
		expect(foldHistory(historyOfFold(read))).toMatchObject({ usedTurns: 2, lastPrompt: "p2", lastPromptCounted: true });
		// A prompt of an id the run holds counts no more; a new one does.
		const on = foldOf(
			[
				{ kind: "prompt", promptId: "p1", at: START + 5 },
				{ kind: "prompt", promptId: "p4", at: START + 6 },
			],
			read,
		);
		expect(foldHistory(historyOfFold(on))).toMatchObject({ usedTurns: 3, lastPrompt: "p4" });
		// Every prompt of the run dropped: none of it counts.
		const dropped = foldOf(
			[
				{ kind: "prompt-dropped", promptId: "p2", at: START + 5 },
				{ kind: "prompt-dropped", promptId: "p1", at: START + 5 },
			],
			keptAndRead(foldOf(lines)),
		);
		expect(foldHistory(historyOfFold(dropped))).toMatchObject({ usedTurns: 0, lastPrompt: null });
	});

	it("reads a run's first prompt, and an empty id in it, as the prompts they are", () => {
		const lines: LogLine[] = [
			{ kind: "tool", promptId: "", agent: null, key: "k-before", at: START },
			{ kind: "prompt", promptId: "", at: START + 1 },
			{ kind: "prompt", promptId: "b", at: START + 2 },
			{ kind: "prompt-dropped", promptId: "b", at: START + 3 },
		];
		const read = keptAndRead(foldOf(lines));
		expect(read.kept[1]).toMatchObject({ kind: "prompts", ids: "\nb\n" });
		expect(sessionLog.latestPrompt(read.kept)).toBe("");
		const call = { tool: "read", input: { path: "x" } };
		expect(sessionLog.loopCalls(read.kept, GUARDED, "", null, call, START).value).toEqual([]);
		// Kept again after a prompt of the empty id: the run's ids are known, so that prompt joins no run.
		const again = keptAndRead(
			foldOf(
				[
					{ kind: "prompt", promptId: "", at: START + 4 },
					{ kind: "prompt", promptId: "c", at: START + 5 },
				],
				read,
			),
		);
		expect(foldHistory(historyOfFold(again))).toEqual(
			foldHistory(
				historyOf([
					...lines,
					{ kind: "prompt", promptId: "", at: START + 4 },
					{ kind: "prompt", promptId: "c", at: START + 5 },
				]),
			),
		);
	});

	it("counts a prompt of an id any earlier run holds once, with two runs counted", () => {
		const lines: LogLine[] = [
			{ kind: "active", budget: { version: 2, id: "b", timeLimitMs: null, turnLimit: 9, startTime: START } },
			{ kind: "prompt", promptId: "a", at: START + 1 },
			{ kind: "prompt", promptId: "b", at: START + 2 },
			{ kind: "told", at: START + 3 },
			{ kind: "prompt", promptId: "c", at: START + 4 },
			{ kind: "prompt", promptId: "d", at: START + 5 },
		];
		const read = keptAndRead(foldOf(lines));
		expect(read.kept.map((line) => line.kind)).toEqual(["active", "prompts", "told", "prompts"]);
		const on = foldOf([{ kind: "prompt", promptId: "a", at: START + 6 }], read);
		expect(foldHistory(historyOfFold(on))).toMatchObject({ usedTurns: 4, lastPrompt: "a", lastPromptCounted: true });
	});

	it("kept again after prompts of ids a run read back holds, counts each id once", () => {
		const first: LogLine[] = [
			{ kind: "active", budget: { version: 2, id: "b", timeLimitMs: null, turnLimit: 9, startTime: START } },
			{ kind: "prompt", promptId: "p1", at: START + 1 },
			{ kind: "prompt", promptId: "p2", at: START + 2 },
		];
		const then: LogLine[] = [
			{ kind: "prompt", promptId: "p1", at: START + 3 },
			{ kind: "prompt", promptId: "p3", at: START + 4 },
		];
		const again = keptAndRead(foldOf(then, keptAndRead(foldOf(first))));
		expect(foldHistory(historyOfFold(again))).toMatchObject({ usedTurns: 3, lastPrompt: "p3" });
		expect(foldHistory(historyOfFold(again))).toEqual(foldHistory(historyOf([...first, ...then])));
	});

	it("folds a run of prompts beside items that hold no key without throwing, as the rules' fold never does", () => {
		const noKey = { kind: "prompt", key: undefined } as unknown as HistoryItem;
		const items: FoldItem[] = [
			{
				kind: "record",
				record: { kind: "active", budget: { version: 2, id: "b", timeLimitMs: null, turnLimit: 9, startTime: START } },
			},
			{ kind: "prompts", keys: "a\nb\n", count: 2 },
			noKey,
		];
		expect(foldHistory(items)).toMatchObject({ usedTurns: 3 });
		expect(() => dropPromptItem(items, undefined as unknown as string)).not.toThrow();
		expect(() => foldHistory(items)).not.toThrow();
	});

	it("adds up calls, usage, runs' ends and transcript reads, and keeps every other line in order", () => {
		const lines: LogLine[] = [
			{ kind: "prompt", promptId: "p1", at: START },
			{ kind: "usage", responseId: "r0", tokens: 7, at: START },
			{ kind: "active", budget: { version: 2, id: "b", timeLimitMs: null, turnLimit: 3, startTime: START } },
			{ kind: "call", promptId: "p1", at: START },
			{ kind: "call", promptId: "p1", at: START },
			{ kind: "usage", responseId: "r1", tokens: 10, cost: 0.5, offset: 40, prompt: { input: 3, from: 9 } },
			{ kind: "usage", responseId: "r1", tokens: 10, offset: 50 },
			{ kind: "usage", responseId: "r2", tokens: 5 },
			{ kind: "transcript", offset: 45 },
			{ kind: "ended", promptId: "p1", at: START },
			{ kind: "told", at: START },
		];
		const fold = foldOf(lines);
		expect(fold.kept.map((line) => line.kind)).toEqual(["prompt", "active", "told"]);
		expect(fold).toMatchObject({ lines: 11, offset: 50, usagePrompt: { input: 3, from: 9 }, recordAt: 1 });
		expect(fold.spend).toEqual([10, 0.5, 5, 0]);
		expect([...fold.responses]).toEqual(["r0", "r1", "r2"]);
		expect([...fold.ended]).toEqual(["p1"]);
		expect([stepOfFold(fold, "p1"), stepOfFold(fold, "p2")]).toEqual([3, 1]);
		expect(historyOfFold(fold)).toEqual([
			{ kind: "prompt", key: "p1" },
			{ kind: "record", record: lines[2] },
			{ kind: "spend", amounts: [10, 0.5, 5, 0] },
		]);
		// Folded as the usage items it stands for, in order.
		expect(foldHistory(historyOfFold(fold))).toEqual(
			foldHistory([
				{ kind: "prompt", key: "p1", at: START },
				{ kind: "record", record: lines[2] },
				{ kind: "usage", tokens: 10, cost: 0.5 },
				{ kind: "usage", tokens: 5, cost: 0 },
			]),
		);
		expect(serialiseLogFold(fold).kept[0]).toEqual(["p1", START]);
	});

	it("reads a prompt the log says never ran as no prompt: the newest of its id, none for an id it never kept", () => {
		const lines: LogLine[] = [
			{ kind: "prompt", promptId: "p1", at: START },
			{ kind: "active", budget: { version: 2, id: "b", timeLimitMs: null, turnLimit: 3, startTime: START } },
			{ kind: "prompt", promptId: "p1", at: START + 1 },
			{ kind: "prompt", promptId: "p2", at: START + 2 },
			{ kind: "prompt-dropped", promptId: "p1", at: START + 3 },
			{ kind: "prompt-dropped", promptId: "p3", at: START + 3 },
		];
		const fold = foldOf(lines);
		// The p1 before the record stays, the one after it goes.
		expect(historyOfFold(fold)).toEqual([
			{ kind: "prompt", key: "p1" },
			{ kind: "record", record: lines[1] },
			{ kind: "prompt", key: "p2" },
		]);
		expect(foldHistory(historyOfFold(keptAndRead(fold)))).toMatchObject({ usedTurns: 1 });
	});

	const good = serialiseLogFold(
		foldOf([
			{ kind: "prompt", promptId: "p1", at: START, cwd: "/a" },
			{ kind: "prompt", promptId: "p2", at: START },
			{ kind: "call", promptId: "p1", at: START },
		]),
	);
	it.each<[string, unknown]>([
		["no object", "fold"],
		["null", null],
		["kept lines that are no list", { ...good, kept: "lines" }],
		["a kept line of a kind the fold adds up", { ...good, kept: [{ kind: "call", promptId: "p1", at: 1 }] }],
		["a kept line that is no object", { ...good, kept: [7] }],
		["a kept line with no kind", { ...good, kept: [null] }],
		["a prompt's pair that is not one", { ...good, kept: [["p1"]] }],
		["a prompt's pair with no id", { ...good, kept: [[1, 2]] }],
		["a prompt's pair with no time", { ...good, kept: [["p1", "now"]] }],
		["no count of lines", { ...good, lines: "3" }],
		["no offset", { ...good, offset: null }],
		["no record's place", { ...good, recordAt: undefined }],
		["a record's place before the lines", { ...good, recordAt: -2 }],
		["a record's place past them", { ...good, recordAt: 2 }],
		["a record's place between two", { ...good, recordAt: 0.5 }],
		["calls that are no list", { ...good, calls: {} }],
		["calls with an id left alone", { ...good, calls: ["p1"] }],
		["calls with a count that is none", { ...good, calls: ["p1", "2"] }],
		["calls with an id that is none", { ...good, calls: [1, 2] }],
		["ends that are no list", { ...good, ended: "p1" }],
		["an end that is no id", { ...good, ended: [1] }],
		["responses that are no list", { ...good, responses: null }],
		["a response that is no id", { ...good, responses: [{}] }],
		["spend that is no list", { ...good, spend: 3 }],
		["spend with a cost left out", { ...good, spend: [3] }],
		["spend that is no number", { ...good, spend: ["3", 0] }],
		["calls that are null", { ...good, calls: null }],
		["ends that are null", { ...good, ended: null }],
		["a run of prompts whose ids end no line", { ...good, kept: [{ kind: "prompts", ids: "a\nb", at: [1, 2] }] }],
		["a run of prompts with a time too few", { ...good, kept: [{ kind: "prompts", ids: "a\nb\n", at: [1] }] }],
		["a run of prompts with no times", { ...good, kept: [{ kind: "prompts", ids: "a\nb\n" }] }],
		["a run of one prompt", { ...good, kept: [{ kind: "prompts", ids: "a\n", at: [1] }] }],
		["a run of prompts at times that are none", { ...good, kept: [{ kind: "prompts", ids: "a\nb\n", at: [1, "2"] }] }],
		["a run of prompts with no ids", { ...good, kept: [{ kind: "prompts", at: [1, 2] }] }],
		["ends whose text ends no line", { ...good, ended: { text: "p1", odd: [] } }],
		["an end kept apart that could stand in the text", { ...good, ended: { text: "", odd: ["p1"] } }],
		["responses with no list of those kept apart", { ...good, responses: { text: "" } }],
		["calls whose text is no ids and counts", { ...good, calls: { text: "p1\n", odd: [] } }],
		["calls with a count that is not whole", { ...good, calls: { text: "p1\t1.5\n", odd: [] } }],
		["a call kept apart whose id could stand in the text", { ...good, calls: { text: "", odd: ["p1", 1] } }],
		["a call kept apart with no count", { ...good, calls: { text: "", odd: ["p\n1"] } }],
		["a call kept apart whose count is no number", { ...good, calls: { text: "", odd: ["p\t1", "1"] } }],
		["a transcript prompt that is no object", { ...good, usagePrompt: 3 }],
		["a transcript prompt with no input", { ...good, usagePrompt: { from: 3 } }],
	])("is none for %s", (_name, value) => {
		expect(restoreLogFold(value)).toBeNull();
	});

	it("reads the good one back", () => {
		expect(restoreLogFold({ ...good, usagePrompt: { input: 1, from: 2 } })).toMatchObject({
			kept: [
				{ kind: "prompt", promptId: "p1", at: START, cwd: "/a" },
				{ kind: "prompt", promptId: "p2", at: START },
			],
			usagePrompt: { input: 1, from: 2 },
		});
	});
});
