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

	notify(message: string, level: NotifyLevel): void {
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

	/** Sets the `timebox` footer status; an unchanged text is not sent again. */
	setStatus(text: string | undefined): void {
		if (text === this.shownStatus) return;
		const ctx = this.context.require();
		if (ctx.hasUI) ctx.ui.setStatus(STATUS_KEY, text);
		this.shownStatus = text;
	}
}
