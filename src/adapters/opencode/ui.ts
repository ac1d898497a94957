// UIBridge on opencode: notifications as toasts in the TUI, or as stderr lines in `opencode run` (its toasts print
// nothing); the status as a small file per session that Timebox's TUI plugin shows beside the prompt.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type NotifyLevel, TOAST_BASE_MS, TOAST_MAX_MS, TOAST_PER_LINE_MS, type UIBridge } from "../../core/index.ts";

/** The folder, under Timebox's opencode data folder, where each session's status text is kept for the TUI. */
export const STATUS_FOLDER = "status";
/** The title of Timebox's toasts. */
export const TOAST_TITLE = "Timebox";

/** The toast call of opencode's client, as far as Timebox uses it. */
export type ShowToast = (toast: {
	title: string;
	message: string;
	variant: "info" | "warning" | "error";
	/** How long it stays up, in ms; opencode's own default when not given. */
	duration?: number;
}) => Promise<unknown>;

/**
 * How long a toast of `message` stays up: opencode's default for one line; for more (a bad word's reply, with the usage
 * of 6 lines) long enough to read them, as the toast cannot be brought back.
 */
export function toastDuration(message: string): number | undefined {
	const lines = message.split("\n").length;
	return lines === 1 ? undefined : Math.min(TOAST_MAX_MS, TOAST_BASE_MS + lines * TOAST_PER_LINE_MS);
}

/** The file that holds a session's status text. */
export function statusFile(dataDir: string, sessionId: string): string {
	return join(dataDir, STATUS_FOLDER, `${encodeURIComponent(sessionId)}.txt`);
}

/** One session's screen: toasts or stderr for notifications, a status file for the TUI. */
export class OpencodeUI implements UIBridge {
	private shownStatus: string | undefined;

	constructor(
		private readonly target: {
			interactive: boolean;
			showToast: ShowToast;
			writeStderr: (line: string) => void;
			dataDir: string;
			sessionId: string;
		},
	) {}

	notify(message: string, level: NotifyLevel): void {
		if (!this.target.interactive) {
			this.target.writeStderr(`[timebox] ${level}: ${message}`);
			return;
		}
		// A toast that cannot be shown is not worth breaking the session over; stderr is hidden behind the TUI.
		const duration = toastDuration(message);
		const toast = { title: TOAST_TITLE, message, variant: level };
		this.target.showToast(duration === undefined ? toast : { ...toast, duration }).catch(() => {});
	}

	/**
	 * Writes the session's status file for the TUI (there is none in `opencode run`); an unchanged text is not written
	 * again, and no text removes the file.
	 */
	setStatus(text: string | undefined): void {
		if (!this.target.interactive || text === this.shownStatus) return;
		this.shownStatus = text;
		const file = statusFile(this.target.dataDir, this.target.sessionId);
		if (text === undefined) {
			rmSync(file, { force: true });
			return;
		}
		mkdirSync(join(this.target.dataDir, STATUS_FOLDER), { recursive: true });
		writeFileSync(file, text);
	}
}
