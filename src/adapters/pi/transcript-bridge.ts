// TranscriptBridge on pi: counts user messages in the session, visiting only the entries added since the last count.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { TranscriptBridge } from "../../core/ports.ts";
import type { SessionContext } from "./session-context.ts";

type SessionManager = ExtensionContext["sessionManager"];
type Entry = ReturnType<SessionManager["getEntries"]>[number];

function isUserMessage(entry: Entry): boolean {
	return entry.type === "message" && entry.message.role === "user";
}

/**
 * Counts `message` entries with role `user` across the whole session file. Entries are only ever appended at the
 * leaf, so the entries added since the last count are the leaf's ancestors up to the leaf counted then: walking that
 * path back costs what was added, not the session's length (`getEntries()` copies every entry). After a `/tree`
 * navigation (`invalidate`), a new session manager, or a leaf whose path does not reach the last one, everything is
 * counted again.
 */
export class PiTranscriptBridge implements TranscriptBridge {
	private manager: SessionManager | undefined;
	private countedLeafId: string | null = null;
	private count = 0;

	constructor(private readonly context: SessionContext) {}

	/** Forgets the count: the next one scans the whole session (the leaf moved without an append). */
	invalidate(): void {
		this.manager = undefined;
	}

	countUserMessages(): number {
		const manager = this.context.require().sessionManager;
		const leafId = manager.getLeafId();
		if (manager === this.manager) {
			const added = this.countAddedSince(manager, leafId);
			if (added !== null) {
				this.count += added;
				this.countedLeafId = leafId;
				return this.count;
			}
		}
		this.manager = manager;
		this.count = manager.getEntries().filter(isUserMessage).length;
		this.countedLeafId = leafId;
		return this.count;
	}

	/** User messages on the path from `leafId` back to the last counted leaf, or null when that leaf is not on it. */
	private countAddedSince(manager: SessionManager, leafId: string | null): number | null {
		let added = 0;
		let id = leafId;
		while (id !== this.countedLeafId) {
			if (id === null) return null;
			const entry = manager.getEntry(id);
			if (!entry) return null;
			if (isUserMessage(entry)) added++;
			id = entry.parentId;
		}
		return added;
	}
}
