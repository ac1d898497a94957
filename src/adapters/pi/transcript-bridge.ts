// TranscriptBridge on pi: counts user messages in the session, scanning only entries added since the last count.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { TranscriptBridge } from "../../core/ports.js";
import type { SessionContext } from "./session-context.js";

/**
 * Counts `message` entries with role `user` across the whole session file. Entries are append-only and every append
 * moves the leaf, so an unchanged leaf means an unchanged count, and a changed one needs only the new entries scanned.
 */
export class PiTranscriptBridge implements TranscriptBridge {
	private manager: ExtensionContext["sessionManager"] | undefined;
	private leafId: string | null | undefined;
	private scanned = 0;
	private count = 0;

	constructor(private readonly context: SessionContext) {}

	countUserMessages(): number {
		const manager = this.context.require().sessionManager;
		const leafId = manager.getLeafId();
		if (manager === this.manager && leafId === this.leafId) return this.count;
		const entries = manager.getEntries();
		if (manager !== this.manager || entries.length < this.scanned) {
			this.manager = manager;
			this.scanned = 0;
			this.count = 0;
		}
		for (let index = this.scanned; index < entries.length; index++) {
			const entry = entries[index];
			if (entry?.type === "message" && entry.message.role === "user") this.count++;
		}
		this.scanned = entries.length;
		this.leafId = leafId;
		return this.count;
	}
}
