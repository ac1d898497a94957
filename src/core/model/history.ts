// What a session's history says about its budget: the budget in force, the prompts sent under it, and the latest
// prompt. Every host reads its history into the same items, in order, and folds them here.

import type { FoldedHistory, Spend, SubagentRun, TimeboxBudget } from "./budget.ts";

export type { FoldedHistory } from "./budget.ts";

import { idIndex } from "./id-text.ts";
import { safeAmount } from "./measure.ts";
import { newestId } from "./prompt-run.ts";
import { parseRecord } from "./records.ts";

/**
 * One thing a session's history holds, oldest first: a budget record (raw, validated here), a prompt the user sent, or
 * what a model call used (tokens and US dollars, as the host reported them). The fold reads a prompt's key only where
 * it counts (and the latest prompt's), and a usage item's figures only where they count, so a host may work them out
 * when read.
 */
export type HistoryItem =
	| { kind: "record"; record: unknown }
	| { kind: "prompt"; key: string; at?: number }
	| { kind: "usage"; tokens: number; cost: number; at?: number };

/**
 * What model calls used, in order, as one item: each call's tokens, then its US dollars. How a log's fold gives the usage
 * it added up, without an item per call; folded as the usage items it stands for would be, in the same order.
 */
export interface SpendItem {
	kind: "spend";
	amounts: readonly number[];
}

/**
 * Prompts one after another with no other item between, as one item: their keys as one text (each followed by a line
 * break) and how many there are. How a log's fold gives a run of prompts it read back from a kept summary
 * (`prompt-run.ts`), without an item per prompt; every key in it differs from every prompt's key before it.
 */
export interface PromptsItem {
	kind: "prompts";
	keys: string;
	count: number;
}

/** What the rules fold: a host's history, or a log's fold read as one (`historyOfFold`). */
export type FoldItem = HistoryItem | SpendItem | PromptsItem;

/**
 * Folds a history: the newest usable record decides (an off means no budget), and the prompts after a budget's record
 * count against it. Prompts are told apart by key, so a prompt the host repeats (a re-run, a message joined to a running
 * prompt) counts once. Never throws, whatever the items hold.
 * @example foldHistory([{ kind: "record", record: { kind: "active", budget } }, { kind: "prompt", key: "p1" }]).usedTurns // 1
 */
export function foldHistory(items: readonly FoldItem[]): FoldedHistory {
	let budget: TimeboxBudget | null = null;
	let budgetAt = items.length;
	let legacyStartTurn: number | null = null;
	let turnsBefore = 0;
	let spendBefore: Spend = { tokens: 0, cost: 0 };
	let unusable = 0;
	for (let index = items.length - 1; index >= 0; index--) {
		const item = items[index];
		if (item?.kind !== "record") continue;
		if (isSubagentRecord(item.record)) continue;
		const record = parseRecord(item.record);
		if (!record) {
			unusable++;
			continue;
		}
		if (record.kind === "active") {
			budget = record.budget;
			budgetAt = index;
			legacyStartTurn = record.legacyStartTurn;
			turnsBefore = record.turnsBefore;
			spendBefore = record.spendBefore;
		}
		break;
	}
	// A first-version record counted the prompts sent since the transcript held `startTurn` of them.
	const countFrom = legacyStartTurn === null ? budgetAt : -1;
	const counted = new Set<string>();
	let promptsBefore = 0;
	// The latest prompt, whose key is read once at the end: a host may make a prompt's key only when it is read (pi
	// hashes the prompt's whole text), and only the prompts that count and the latest are read.
	let latest: Extract<HistoryItem, { kind: "prompt" }> | null = null;
	// Or the keys of the run of prompts that came latest, and those of the runs that count: a key after them that one
	// of them holds was counted with its run.
	let latestRun: string | null = null;
	const countedRuns: string[] = [];
	let runsCounted = 0;
	const inCountedRun = (key: string) => countedRuns.some((keys) => idIndex(keys, key) >= 0);
	// Prompts sent while the budget is paused do not count.
	const paused = budget?.pausedAt !== undefined;
	let tokens = spendBefore.tokens;
	let cost = spendBefore.cost;
	let subagentBudgets: Record<string, string> | null | undefined;
	const subagents = new Map<string, SubagentRun>();
	// An indexed loop: at a session's start this runs once per item before the JIT has warmed up, where an iterator's
	// pair per item shows.
	for (let index = 0; index < items.length; index++) {
		const item = items[index] as FoldItem;
		if (item.kind === "record" && isSubagentRecord(item.record)) {
			// A subagent's record that cannot be read is left out: the session's budget stands apart from it.
			const record = parseRecord(item.record);
			if (record?.kind === "subagents") subagentBudgets = record.budgets;
			else if (record?.kind === "subagent") subagents.set(record.agent.id, record.agent);
			continue;
		}
		if (item.kind === "usage") {
			if (index > budgetAt && !paused) {
				tokens += safeAmount(item.tokens);
				cost += safeAmount(item.cost);
			}
			continue;
		}
		if (item.kind === "spend") {
			const { amounts } = item;
			for (let at = 0; index > budgetAt && !paused && at < amounts.length; at += 2) {
				tokens += safeAmount(amounts[at] as number);
				cost += safeAmount(amounts[at + 1] as number);
			}
			continue;
		}
		if (item.kind === "prompts") {
			latestRun = item.keys;
			latest = null;
			if (index < budgetAt) promptsBefore += item.count;
			if (index > countFrom && !paused) {
				countedRuns.push(item.keys);
				runsCounted += item.count;
			}
			continue;
		}
		if (item.kind !== "prompt") continue;
		latest = item;
		latestRun = null;
		if (index < budgetAt) promptsBefore++;
		if (index > countFrom && !paused && (countedRuns.length === 0 || !inCountedRun(item.key))) counted.add(item.key);
	}
	const lastPrompt = latestRun !== null ? newestId(latestRun) : latest === null ? null : latest.key;
	// A record written again for the same budget (a pause, a resume, an extension) carries the prompts used before it.
	const usedTurns = Math.max(0, counted.size + runsCounted - (legacyStartTurn ?? 0)) + turnsBefore;
	// The user-message count when the budget was set: a first-version record wrote it; else the prompts before the
	// record, less those a record written again carries over.
	const startTurn = legacyStartTurn ?? Math.max(0, promptsBefore - turnsBefore);
	return {
		budget: budget ? { ...budget, startTurn } : null,
		usedTurns: budget ? usedTurns : 0,
		spend: budget ? { tokens, cost } : { tokens: 0, cost: 0 },
		lastPrompt,
		lastPromptCounted: usedTurns > 0 && lastPrompt !== null && (counted.has(lastPrompt) || inCountedRun(lastPrompt)),
		newestUnusable: unusable > 0,
		hasRecords: items.some((item) => item.kind === "record" && !isSubagentRecord(item.record)),
		...(subagentBudgets === undefined ? {} : { subagentBudgets }),
		...(subagents.size === 0 ? {} : { subagents: [...subagents.values()] }),
	};
}

/** Whether a record of the history belongs to the subagents (their budget, how one stands), not the session's budget. */
export function isSubagentRecord(record: unknown): boolean {
	if (typeof record !== "object" || record === null || !("kind" in record)) return false;
	return record.kind === "subagents" || record.kind === "subagent";
}
