// Holds the pi context of the latest event, so bridges and timers act on the live session.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";

/** The context pi passed with the most recent event or command of this extension instance. */
export class SessionContext {
	private context: ExtensionContext | undefined;

	/** Remembers the context of the event being handled. */
	bind(context: ExtensionContext): void {
		this.context = context;
	}

	/** Whether the session is still alive: pi makes every member of a context throw once its session is replaced or disposed. */
	isLive(): boolean {
		if (!this.context) return false;
		try {
			return typeof this.context.hasUI === "boolean";
		} catch {
			return false;
		}
	}

	/** The latest context; throws before the first event, which no Timebox path reaches. */
	require(): ExtensionContext {
		if (!this.context) throw new Error("no pi session context yet");
		return this.context;
	}
}
