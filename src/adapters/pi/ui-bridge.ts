// UIBridge on pi: notifications and the footer status; without a UI (print, JSON, SDK) notifications go to stderr.

import { type NotifyLevel, STATUS_KEY, type UIBridge } from "../../core/index.ts";
import type { SessionContext } from "./session-context.ts";

/** Writes one line where a user without pi's UI can read it. */
export type FallbackWriter = (line: string) => void;

/** Shows Timebox's messages through `ctx.ui`, or through the fallback writer when pi runs without a UI. */
export class PiUIBridge implements UIBridge {
	private shownStatus: string | undefined;
	/** Notifications kept while recording (see `record`), to be shown again. */
	private recorded: { message: string; level: NotifyLevel }[] | null = null;

	constructor(
		private readonly context: SessionContext,
		private readonly writeFallback: FallbackWriter,
	) {}

	/** Notifications held back until `release` (see `hold`). */
	private held: { message: string; level: NotifyLevel }[] | null = null;

	notify(message: string, level: NotifyLevel): void {
		if (this.held) {
			this.held.push({ message, level });
			return;
		}
		this.recorded?.push({ message, level });
		const ctx = this.context.require();
		if (ctx.hasUI) ctx.ui.notify(message, level);
		else this.writeFallback(`[timebox] ${level}: ${message}`);
	}

	/** Runs `action` and returns the notifications it showed, so they can be shown again where pi hid them. */
	record(action: () => void): { message: string; level: NotifyLevel }[] {
		this.recorded = [];
		try {
			action();
			return this.recorded;
		} finally {
			this.recorded = null;
		}
	}

	/**
	 * Holds notifications back until `release`: pi shows the prompt a model call belongs to only after the call's
	 * `context` hook, so a refusal said there would stand above the prompt it refuses.
	 */
	hold(): void {
		this.held ??= [];
	}

	/** Shows what was held back, in order. */
	release(): void {
		const held = this.held ?? [];
		this.held = null;
		for (const notice of held) this.notify(notice.message, notice.level);
	}

	/** Sets the `timebox` footer status; an unchanged text is not sent again. */
	setStatus(text: string | undefined): void {
		if (text === this.shownStatus) return;
		const ctx = this.context.require();
		if (ctx.hasUI) ctx.ui.setStatus(STATUS_KEY, text);
		this.shownStatus = text;
	}
}
