// BudgetStore on pi: records are custom session entries, written with pi.appendEntry and read from the session.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { TimeboxBudget } from "../../core/budget.ts";
import { ACTIVE_ENTRY_TYPE, OFF_ENTRY_TYPE } from "../../core/constants.ts";
import type { BudgetStore } from "../../core/ports.ts";
import type { SessionContext } from "./session-context.ts";

function disabledAtOf(data: unknown): unknown {
	return typeof data === "object" && data !== null ? (data as { disabledAt?: unknown }).disabledAt : undefined;
}

/** Keeps budget records as `timebox-active` / `timebox-off` entries of the session file. */
export class PiBudgetStore implements BudgetStore {
	constructor(
		private readonly pi: Pick<ExtensionAPI, "appendEntry">,
		private readonly context: SessionContext,
	) {}

	appendActive(budget: TimeboxBudget): void {
		this.pi.appendEntry(ACTIVE_ENTRY_TYPE, budget);
	}

	appendOff(disabledAt: number): void {
		this.pi.appendEntry(OFF_ENTRY_TYPE, { disabledAt });
	}

	/** The session's Timebox entries, oldest first, as records for `restore` to validate. */
	loadRecords(): unknown[] {
		const records: unknown[] = [];
		for (const entry of this.context.require().sessionManager.getEntries()) {
			if (entry.type !== "custom") continue;
			if (entry.customType === ACTIVE_ENTRY_TYPE) records.push({ kind: "active", budget: entry.data });
			else if (entry.customType === OFF_ENTRY_TYPE) records.push({ kind: "off", disabledAt: disabledAtOf(entry.data) });
		}
		return records;
	}
}
