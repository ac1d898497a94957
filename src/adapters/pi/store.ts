// BudgetStore on pi: records are custom session entries, written with pi.appendEntry; the history is the session's
// current branch, so forks, clones and /tree branches each see the budget and prompts of their own path.

import type { ExtensionAPI, SessionEntry } from "@mariozechner/pi-coding-agent";
import {
	ACTIVE_ENTRY_TYPE,
	type BudgetStore,
	type HistoryItem,
	OFF_ENTRY_TYPE,
	SUBAGENT_ENTRY_TYPE,
	SUBAGENTS_ENTRY_TYPE,
	type TimeboxRecord,
} from "../../core/index.ts";
import { promptKey } from "./prompt-key.ts";
import type { SessionContext } from "./session-context.ts";
import { usageOf } from "./usage.ts";

function fieldsOf(data: unknown): Record<string, unknown> {
	return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}

type UsageItem = Extract<HistoryItem, { kind: "usage" }>;

/** What one session entry is to Timebox: a budget record, a prompt, what a model call used, or nothing. */
function historyItem(entry: SessionEntry): HistoryItem | null {
	if (entry.type === "message" && entry.message.role === "user")
		return { kind: "prompt", key: promptKey(entry.message), at: entry.message.timestamp };
	if (entry.type === "message") {
		const used = usageOf(entry.message);
		return used ? { kind: "usage", ...used } : null;
	}
	if (entry.type !== "custom") return null;
	if (entry.customType === ACTIVE_ENTRY_TYPE) return { kind: "record", record: { kind: "active", budget: entry.data } };
	if (entry.customType === OFF_ENTRY_TYPE) return { kind: "record", record: { ...fieldsOf(entry.data), kind: "off" } };
	if (entry.customType === SUBAGENTS_ENTRY_TYPE) {
		return { kind: "record", record: { ...fieldsOf(entry.data), kind: "subagents" } };
	}
	if (entry.customType === SUBAGENT_ENTRY_TYPE) {
		return { kind: "record", record: { ...fieldsOf(entry.data), kind: "subagent" } };
	}
	return null;
}

/** Keeps budget records as `timebox-active` / `timebox-off` entries of the session file. */
export class PiBudgetStore implements BudgetStore {
	constructor(
		private readonly pi: Pick<ExtensionAPI, "appendEntry">,
		private readonly context: SessionContext,
	) {}

	append(record: TimeboxRecord): void {
		switch (record.kind) {
			case "active":
				this.pi.appendEntry(ACTIVE_ENTRY_TYPE, record.budget);
				return;
			case "off":
				this.pi.appendEntry(OFF_ENTRY_TYPE, {
					version: record.version,
					budgetId: record.budgetId,
					disabledAt: record.disabledAt,
				});
				return;
			case "subagents":
				this.pi.appendEntry(SUBAGENTS_ENTRY_TYPE, { version: record.version, budgets: record.budgets, at: record.at });
				return;
			case "subagent":
				this.pi.appendEntry(SUBAGENT_ENTRY_TYPE, { version: record.version, agent: record.agent });
				return;
		}
	}

	/**
	 * The branch from the root to the leaf, oldest first: Timebox entries as records, user messages as prompts, assistant
	 * messages as what their model calls used. A session that never branched (most do not) is its entries in file order,
	 * each the parent of the next and the last the leaf: read in one pass, in the order memory holds them, checking each
	 * link. Otherwise the path is walked from the leaf by id, an entry lookup per entry (a few times slower at 100,000
	 * entries, but still linear: pi's `getBranch` grows its array from the front, which costs the square of it, about
	 * 0.9 s at 100,000 entries).
	 */
	history(): HistoryItem[] {
		const manager = this.context.require().sessionManager;
		const leafId = manager.getLeafId();
		if (leafId === null) return [];
		const line = historyOf(manager.getEntries(), leafId);
		if (line !== null) return line;
		const path: SessionEntry[] = [];
		for (let id: string | null = leafId; id !== null; ) {
			const entry = manager.getEntry(id);
			if (!entry) break;
			path.push(entry);
			id = entry.parentId;
		}
		return historyOf(path.reverse());
	}
}

/**
 * The history of `entries`, oldest first; with a `leafId`, null unless they are one line from the root to that leaf.
 * What the model calls between two other items used is one usage item (their sum, at the first call's time): a
 * prompt's run makes several calls, and the fold only adds them up.
 */
export function historyOf(entries: readonly SessionEntry[], leafId: string): HistoryItem[] | null;
export function historyOf(entries: readonly SessionEntry[]): HistoryItem[];
export function historyOf(entries: readonly SessionEntry[], leafId: string | null = null): HistoryItem[] | null {
	const items: HistoryItem[] = [];
	let usage: UsageItem | null = null;
	let parentId: string | null = null;
	for (const entry of entries) {
		if (leafId !== null && entry.parentId !== parentId) return null;
		parentId = entry.id;
		const item = historyItem(entry);
		if (item === null) continue;
		if (item.kind !== "usage") {
			usage = null;
			items.push(item);
		} else if (usage === null) {
			usage = item;
			items.push(item);
		} else {
			usage.tokens += item.tokens;
			usage.cost += item.cost;
		}
	}
	return leafId === null || parentId === leafId ? items : null;
}
