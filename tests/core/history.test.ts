// How a session's history folds into its budget: the newest usable record decides, an off means no budget, prompts
// after the budget's record count once per key, and unreadable records are skipped and flagged.

import { describe, expect, it } from "vitest";
import type { TimeboxBudget } from "../../src/core/model/budget.ts";
import { foldHistory, type HistoryItem } from "../../src/core/model/history.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const first = budget({ id: "first", timeLimitMs: 15 * MINUTE });
const second = budget({ id: "second", turnLimit: 5, startTime: START + MINUTE });

const active = (b: TimeboxBudget): HistoryItem => ({
	kind: "record",
	record: { kind: "active", budget: { version: 2, ...b } },
});
/** A budget record as the first version wrote it: no version, no id, and the transcript's prompt count at the start. */
const firstVersion = (startTurn: unknown): HistoryItem => ({
	kind: "record",
	record: { kind: "active", budget: { timeLimitMs: null, turnLimit: 5, startTime: START, startTurn, active: true } },
});
const off = (budgetId = "first"): HistoryItem => ({
	kind: "record",
	record: { kind: "off", version: 2, budgetId, disabledAt: START },
});
const damaged: HistoryItem = { kind: "record", record: { kind: "active", budget: { turnLimit: "five" } } };
const prompt = (key: string): HistoryItem => ({ kind: "prompt", key });

describe("foldHistory", () => {
	it("finds nothing in an empty history", () => {
		expect(foldHistory([])).toEqual({
			budget: null,
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: null,
			lastPromptCounted: false,
			newestUnusable: false,
			hasRecords: false,
		});
	});

	it("finds no budget in a history of prompts, and the latest prompt", () => {
		expect(foldHistory([prompt("p1"), prompt("p2")])).toEqual({
			budget: null,
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: "p2",
			lastPromptCounted: false,
			newestUnusable: false,
			hasRecords: false,
		});
	});

	it("counts the prompts sent after the budget's record, not those before it", () => {
		expect(foldHistory([prompt("p1"), active(second), prompt("p2"), prompt("p3")])).toEqual({
			budget: { ...second, startTurn: 1 },
			usedTurns: 2,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: "p3",
			lastPromptCounted: true,
			newestUnusable: false,
			hasRecords: true,
		});
	});

	it("counts a prompt the history repeats once", () => {
		expect(foldHistory([active(second), prompt("p1"), prompt("p1"), prompt("p2"), prompt("p1")])).toMatchObject({
			usedTurns: 2,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: "p1",
		});
	});

	it("takes the latest prompt from before the record when none came after it, and does not count it", () => {
		expect(foldHistory([prompt("p1"), active(second)])).toMatchObject({
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: "p1",
			lastPromptCounted: false,
		});
	});

	it("does not count a latest prompt that a first-version record's startTurn already covered", () => {
		const legacy = { kind: "active", budget: { timeLimitMs: null, turnLimit: 3, startTime: 5, startTurn: 1 } };
		expect(foldHistory([prompt("p1"), { kind: "record", record: legacy }])).toMatchObject({
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: "p1",
			lastPromptCounted: false,
		});
	});

	it("lets the newest budget record win, counting only the prompts after it", () => {
		expect(foldHistory([active(first), prompt("p1"), active(second), prompt("p2")])).toMatchObject({
			budget: { ...second, startTurn: 1 },
			usedTurns: 1,
			spend: { tokens: 0, cost: 0 },
		});
	});

	it.each([
		["an off after the budget", [active(first), prompt("p1"), off()]],
		["an off naming no budget", [active(first), { kind: "record", record: { kind: "off" } } satisfies HistoryItem]],
		["an off followed by prompts", [active(first), off(), prompt("p1")]],
		["an off after a damaged record", [active(first), off(), damaged]],
	])("has no budget after %s", (_name, items) => {
		expect(foldHistory(items)).toMatchObject({ budget: null, usedTurns: 0 });
	});

	it("restores a budget set again after an off", () => {
		expect(foldHistory([active(first), off(), active(second), prompt("p1")])).toMatchObject({
			budget: second,
			usedTurns: 1,
			spend: { tokens: 0, cost: 0 },
		});
	});

	it("skips an unreadable newest record, flags it, and falls back to the one before", () => {
		expect(foldHistory([active(first), prompt("p1"), damaged, prompt("p2")])).toEqual({
			budget: first,
			usedTurns: 2,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: "p2",
			lastPromptCounted: true,
			newestUnusable: true,
			hasRecords: true,
		});
	});

	it("flags an unreadable newest record even when nothing usable is left", () => {
		expect(foldHistory([damaged, { kind: "record", record: null }])).toEqual({
			budget: null,
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: null,
			lastPromptCounted: false,
			newestUnusable: true,
			hasRecords: true,
		});
	});

	it("does not flag an unreadable record older than the newest usable one", () => {
		expect(foldHistory([damaged, active(first)])).toMatchObject({ budget: first, newestUnusable: false });
	});

	it("reads a first-version record, naming it by its start time", () => {
		expect(foldHistory([firstVersion(0)]).budget).toEqual(budget({ id: `legacy-${START}`, turnLimit: 5 }));
	});

	it.each([
		[
			"counts the prompts sent since the transcript held its start count",
			[prompt("p1"), prompt("p2"), firstVersion(2), prompt("p3"), prompt("p4")],
			2,
		],
		["counts every prompt from a start count of zero", [prompt("p1"), firstVersion(0), prompt("p2")], 2],
		["counts a repeated prompt once", [prompt("p1"), firstVersion(1), prompt("p2"), prompt("p2")], 1],
		["never counts below zero", [firstVersion(4), prompt("p1")], 0],
		[
			"counts from the record when the start count is missing",
			[prompt("p1"), firstVersion(undefined), prompt("p2")],
			1,
		],
		["counts from the record when the start count is negative", [prompt("p1"), firstVersion(-1), prompt("p2")], 1],
		["counts from the record when the start count is fractional", [prompt("p1"), firstVersion(1.5), prompt("p2")], 1],
	])("for a first-version record, %s", (_name, items, usedTurns) => {
		expect(foldHistory(items).usedTurns).toBe(usedTurns);
	});

	it("ignores a start count in a record of the current version", () => {
		const withStartTurn: HistoryItem = {
			kind: "record",
			record: { kind: "active", budget: { version: 2, ...second, startTurn: 0 } },
		};
		expect(foldHistory([prompt("p1"), withStartTurn, prompt("p2")]).usedTurns).toBe(1);
	});

	it("counts no prompts against a first-version budget turned off", () => {
		expect(foldHistory([prompt("p1"), firstVersion(0), off(), prompt("p2")])).toMatchObject({
			budget: null,
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
		});
	});
});
