// The tools still running in one Claude Code session, each with the loop it runs in: a tool's run settles as stopped
// the moment the rules end the run, or the subagent it runs in.

import type { ToolCallAnswer } from "./engine.ts";

/** The marker a tool's race settles to when the rules stopped the run while it ran. */
export const STOPPED = Symbol("stopped");

export class RunningTools {
	/** Settles each running tool's race as stopped, with the subagent it runs in (null: the main loop). */
	private readonly stoppers = new Map<() => void, string | null>();

	/** The tool's answer, or STOPPED when the run, or the subagent it runs in, is ended while it runs. */
	run(pending: Promise<ToolCallAnswer>, agent: string | null): Promise<ToolCallAnswer | typeof STOPPED> {
		return new Promise((resolve, reject) => {
			const stop = () => resolve(STOPPED);
			this.stoppers.set(stop, agent);
			pending.then(resolve, reject).finally(() => this.stoppers.delete(stop));
		});
	}

	/** Stops the tools running in a subagent. */
	stopIn(agent: string): void {
		for (const [stop, runningIn] of [...this.stoppers]) if (runningIn === agent) stop();
	}

	/** Stops every running tool: false when none was running. */
	stopAll(): boolean {
		if (this.stoppers.size === 0) return false;
		for (const stop of [...this.stoppers.keys()]) stop();
		this.stoppers.clear();
		return true;
	}
}
