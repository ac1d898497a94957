// BudgetStore on pi: records are custom session entries, written with pi.appendEntry; the history is the session's
// current branch, so forks, clones and /tree branches each see the budget and prompts of their own path.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
	ACTIVE_ENTRY_TYPE,
	type BudgetStore,
	type HistoryItem,
	OFF_ENTRY_TYPE,
	type TimeboxRecord,
} from "../../core/index.ts";
import { type MessageLike, promptKey } from "./prompt-key.ts";
import type { SessionContext } from "./session-context.ts";

function fieldsOf(data: unknown): Record<string, unknown> {
	return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}

/** Keeps budget records as `timebox-active` / `timebox-off` entries of the session file. */
export class PiBudgetStore implements BudgetStore {
	constructor(
		private readonly pi: Pick<ExtensionAPI, "appendEntry">,
		private readonly context: SessionContext,
	) {}

	append(record: TimeboxRecord): void {
		if (record.kind === "active") this.pi.appendEntry(ACTIVE_ENTRY_TYPE, record.budget);
		else
			this.pi.appendEntry(OFF_ENTRY_TYPE, {
				version: record.version,
				budgetId: record.budgetId,
				disabledAt: record.disabledAt,
			});
	}

	/** The branch from the root to the leaf: Timebox entries as records, user messages as prompts. */
	history(): HistoryItem[] {
		const items: HistoryItem[] = [];
		for (const entry of this.context.require().sessionManager.getBranch()) {
			if (entry.type === "message" && entry.message.role === "user") {
				items.push({ kind: "prompt", key: promptKey(entry.message as MessageLike) });
			} else if (entry.type === "custom" && entry.customType === ACTIVE_ENTRY_TYPE) {
				items.push({ kind: "record", record: { kind: "active", budget: entry.data } });
			} else if (entry.type === "custom" && entry.customType === OFF_ENTRY_TYPE) {
				items.push({ kind: "record", record: { ...fieldsOf(entry.data), kind: "off" } });
			}
		}
		return items;
	}
}
