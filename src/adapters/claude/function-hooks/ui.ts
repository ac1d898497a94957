// What the person sees of Timebox in Claude Code, through `$`: the status line under the prompt (`$.ui.status`), and
// each notice either in the reply being gathered (a `/timebox` command's text, a refused prompt's reason) or as a dim
// line in the transcript (`$.ui.log`), which the model never reads. In a headless `claude -p` a stop's notice, and a
// warning of the session's load, are also written to Claude Code's stderr: Claude Code prints only `Execution error`
// for a turn a plugin ended, and nothing of the transcript's lines.

import type { NotifyLevel, UIBridge } from "../../../core/index.ts";
import type { Engine } from "./engine.ts";

/**
 * Writes its argument to the standard error of the process that started it (Claude Code), where that can be opened
 * (a terminal, a pipe, a file; not a socket, nor a system with no /proc): else nothing, and still exit 0.
 */
export const STDERR_SCRIPT = `{ printf '%s\\n' "$1" > "/proc/$PPID/fd/2"; } 2>/dev/null; exit 0`;

export class ModuleUI implements UIBridge {
	/** The notices of the stop that ends the running turn, gathered until they are shown, or null. */
	private stopping: string[] | null = null;
	/** Whether the session is a headless `claude -p` (told at `session.start`; until then, taken as not). */
	headless = false;
	/** The notices of the reply being gathered, or null when they go to the transcript. */
	private gathering: string[] | null = null;
	/** The status line this session last sent, null before the first: each `$.ui.status` is a hop to Claude Code. */
	private shown: string | undefined | null = null;

	constructor(private readonly engine: () => Engine) {}

	/** Something whose warnings no reply carries is being carried out. */
	private unreplied = false;

	notify(message: string, level: NotifyLevel): void {
		if (this.gathering) this.gathering.push(message);
		else if (this.unreplied && level !== "info") this.warn(message);
		else {
			this.stopping?.push(message);
			this.engine().ui.log(message);
			// `claude -p` shows no transcript line: a stop's notice that no turn ended here writes (a stop at a model's
			// answer, or one that stops a running tool) goes to stderr, or a headless run would end without a word of it.
			if (this.headless && level === "error" && this.stopping === null) this.toStderr(message);
		}
	}

	/**
	 * Carries out what no reply answers: the session's load, and the word of what became of an on-stop command, which
	 * comes after its event. A warning of theirs (a setting that cannot be read, a command that could not start, or one
	 * started late because the process that stopped the budget ended first) must not go unseen.
	 */
	withoutReply(action: () => void): void {
		this.unreplied = true;
		try {
			action();
		} finally {
			this.unreplied = false;
		}
	}

	/** A notice no reply carries that must not go unseen: in the transcript, and in a headless run on stderr too. */
	warn(message: string): void {
		this.engine().ui.log(message);
		if (this.headless) this.toStderr(message);
	}

	private toStderr(text: string): void {
		this.engine()
			.process.run(["sh", "-c", STDERR_SCRIPT, "sh", text])
			.catch(() => {
				// Nowhere else to write it: the transcript has it.
			});
	}

	/**
	 * The running turn is being ended by a stop: its notices, shown as they come (the rules say them right after the
	 * abort, in the same turn of the event loop), are written to stderr too once they are all said, in a headless run.
	 */
	turnStopped(): void {
		const said: string[] = [];
		this.stopping = said;
		// Claude Code's worker has no queueMicrotask.
		void Promise.resolve().then(() => {
			this.stopping = null;
			if (this.headless && said.length > 0) this.toStderr(said.join("\n"));
		});
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
