// What the person sees of Timebox in Claude Code, through `$`: the status line under the prompt (`$.ui.status`), and
// each notice either in the reply being gathered (a `/timebox` command's text, a refused prompt's reason) or as a dim
// line in the transcript (`$.ui.log`), which the model never reads.

import type { NotifyLevel, UIBridge } from "../../../core/index.ts";
import type { Engine } from "./engine.ts";

export class ModuleUI implements UIBridge {
	/** The notices of the reply being gathered, or null when they go to the transcript. */
	private gathering: string[] | null = null;
	/** The status line this session last sent, null before the first: each `$.ui.status` is a hop to Claude Code. */
	private shown: string | undefined | null = null;

	constructor(private readonly engine: () => Engine) {}

	notify(message: string, _level: NotifyLevel): void {
		if (this.gathering) this.gathering.push(message);
		else this.engine().ui.log(message);
	}

	/** Sends the status line when it changed: with nothing in force every event would clear a line already clear. */
	setStatus(text: string | undefined): void {
		if (text === this.shown) return;
		this.shown = text;
		this.engine().ui.status(text);
	}

	/** Runs `action` (the live session's, which never throws) with its notices kept for its reply instead of shown. */
	async gather<T>(action: () => Promise<T>): Promise<{ value: T; said: string[] }> {
		const outer = this.gathering;
		const said: string[] = [];
		this.gathering = said;
		try {
			return { value: await action(), said };
		} finally {
			this.gathering = outer;
		}
	}

	/** Shows notices that no reply carries. */
	tell(notices: readonly string[]): void {
		for (const notice of notices) this.notify(notice, "info");
	}
}
