// BudgetStore, SessionStore and TranscriptBridge on pi: records are custom session entries, written with
// pi.appendEntry; the history, the records and the user messages are the session's current branch, so forks, clones and
// /tree branches each see the budget and prompts of their own path.

import type { ExtensionAPI, SessionEntry, SessionManager } from "@mariozechner/pi-coding-agent";
import {
	ACTIVE_ENTRY_TYPE,
	type BudgetRecordData,
	type BudgetStore,
	type HistoryItem,
	OFF_ENTRY_TYPE,
	RECORD_VERSION,
	type SessionStore,
	SUBAGENT_ENTRY_TYPE,
	SUBAGENTS_ENTRY_TYPE,
	type TimeboxBudget,
	type TimeboxRecord,
	type TranscriptBridge,
} from "../../core/index.ts";
import { type MessageLike, promptKey } from "./prompt-key.ts";
import type { SessionContext } from "./session-context.ts";
import { costOf, tokensOf } from "./usage.ts";

function fieldsOf(data: unknown): Record<string, unknown> {
	return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}

type UsageItem = Extract<HistoryItem, { kind: "usage" }>;

/** What a custom session entry is to Timebox: one of its budget records, or nothing. */
function recordItem(entry: Extract<SessionEntry, { type: "custom" }>): HistoryItem | null {
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
export class PiBudgetStore implements BudgetStore, SessionStore, TranscriptBridge {
	constructor(
		private readonly pi: Pick<ExtensionAPI, "appendEntry">,
		private readonly context: SessionContext,
	) {}

	appendActive(budget: TimeboxBudget | BudgetRecordData): void {
		this.pi.appendEntry(ACTIVE_ENTRY_TYPE, budget);
	}

	appendOff(disabledAt: number, budgetId?: string): void {
		const named = budgetId === undefined ? {} : { version: RECORD_VERSION, budgetId };
		this.pi.appendEntry(OFF_ENTRY_TYPE, { ...named, disabledAt });
	}

	/** The `timebox-active` and `timebox-off` entries of the branch, oldest first, as written (restore checks them). */
	loadRecords(): TimeboxRecord[] {
		return this.history().flatMap((item) => {
			if (item.kind !== "record") return [];
			const record = item.record as TimeboxRecord; // As the file holds it: restore validates every field.
			return record.kind === "active" || record.kind === "off" ? [record] : [];
		});
	}

	/** The user messages of the branch: the session's turns. */
	countUserMessages(): number {
		let turns = 0;
		for (const item of this.history()) if (item.kind === "prompt") turns++;
		return turns;
	}

	append(record: TimeboxRecord): void {
		switch (record.kind) {
			case "active":
				this.appendActive(record.budget);
				return;
			case "off":
				this.appendOff(record.disabledAt, record.budgetId);
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
		const line = historyOf(entriesOf(manager), leafId);
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
 * The session's entries in the order pi holds them. pi's `getEntries()` copies them all (leaving the header out), which
 * at a session's start is a fifth of Timebox's time at 100,000 entries; where pi keeps them in the array its session
 * manager names `fileEntries` (pi 0.73 and 1.x do), that array is read in place instead, header and all: `historyOf`
 * skips the header and checks every link of the line, so an array that is not the session's line reads as none, and
 * the branch is walked by id. A pi that keeps them elsewhere (oh-my-pi keeps them private) gets its own copy.
 */
function entriesOf(manager: Pick<SessionManager, "getEntries">): readonly SessionEntry[] {
	// A field of pi's session manager, read only where it is an array (a host boundary: its type names no such field).
	const held = (manager as { fileEntries?: unknown }).fileEntries;
	return Array.isArray(held) ? (held as SessionEntry[]) : manager.getEntries();
}

/**
 * The history of `entries`, oldest first; with a `leafId`, null unless they are one line from the root to that leaf.
 * What the model calls between two other items used is one usage item (their sum, at the first call's time): a
 * prompt's run makes several calls, and the fold only adds them up. A prompt's key (a hash over its whole text) is made
 * when read: the fold reads it only where it counts (after the budget's record, and the latest prompt).
 */
export function historyOf(entries: readonly SessionEntry[], leafId: string): HistoryItem[] | null;
export function historyOf(entries: readonly SessionEntry[]): HistoryItem[];
export function historyOf(entries: readonly SessionEntry[], leafId: string | null = null): HistoryItem[] | null {
	const items: HistoryItem[] = [];
	let usage: UsageItem | null = null;
	let parentId: string | null = null;
	// An indexed loop, and an answer's usage added where it is read: at a session's start this runs once per entry
	// before the JIT has warmed up, where each iterator step and object made per entry shows.
	for (let index = 0; index < entries.length; index++) {
		const entry = entries[index] as SessionEntry | { type: "session" };
		// The session file's header, where pi's own array holds it (entriesOf): no entry of the session.
		if (entry.type === "session") continue;
		if (leafId !== null && entry.parentId !== parentId) return null;
		parentId = entry.id;
		let item: HistoryItem | null = null;
		if (entry.type === "message") {
			const message = entry.message;
			if (message.role === "assistant") {
				// What a model call used: added to the usage item of the calls since the last other item.
				const tokens = tokensOf(message.usage);
				const cost = costOf(message.usage);
				if (usage !== null) {
					usage.tokens += tokens;
					usage.cost += cost;
					continue;
				}
				usage =
					typeof message.timestamp === "number"
						? { kind: "usage", tokens, cost, at: message.timestamp }
						: { kind: "usage", tokens, cost };
				items.push(usage);
				continue;
			}
			if (message.role !== "user") continue;
			item = promptItem(message);
		} else if (entry.type === "custom") {
			item = recordItem(entry);
			if (item === null) continue;
		} else continue;
		usage = null;
		items.push(item);
	}
	return leafId === null || parentId === leafId ? items : null;
}

/** A user message as a prompt of the history, its key made when it is first read. */
function promptItem(message: MessageLike & { timestamp: number }): HistoryItem {
	let key: string | null = null;
	return {
		kind: "prompt",
		at: message.timestamp,
		get key(): string {
			key ??= promptKey(message);
			return key;
		},
	};
}

/**
 * The store of a subagent's own process: the session's, and how the subagent stands (its `subagent` records), kept to
 * tell its parent at its end (`keep`).
 */
export function subagentProcessStore(
	store: PiBudgetStore,
	keep: (record: Extract<TimeboxRecord, { kind: "subagent" }>) => void,
): SessionStore {
	return {
		append: (record) => {
			if (record.kind === "subagent") keep(record);
			store.append(record);
		},
		history: () => store.history(),
	};
}
