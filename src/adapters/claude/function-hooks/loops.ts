// What one Claude Code session remembers of each loop's last step (the main loop's and each subagent's): its tools
// still to end, and the call that follows them.

import type { TurnStepAnswer, TurnStepEvent } from "./engine.ts";

/** A loop's last step: its tools still to end, and the call that follows them. */
export interface Loop {
	toolsLeft: number;
	/** The main loop's next step number. */
	nextStep: number;
	/** A subagent's next call was counted at its last tool's end: its request is only checked. */
	called: boolean;
	/** The main loop's next step was refused when it was counted: its request is not sent. */
	refused: string | null;
}

/** Each loop's last step (the main loop's under null, a subagent's under its key). */
export class Loops {
	private readonly loops = new Map<string | null, Loop>();

	/** A loop's last step, made on first use. */
	of(agent: string | null): Loop {
		let loop = this.loops.get(agent);
		if (!loop) {
			loop = { toolsLeft: 0, nextStep: 1, called: false, refused: null };
			this.loops.set(agent, loop);
		}
		return loop;
	}

	/** A subagent ended: its loop is forgotten. */
	end(agent: string): void {
		this.loops.delete(agent);
	}
}

/** A step answered in place of its request: an empty answer that ends the turn. */
export function noRequest(event: TurnStepEvent): TurnStepAnswer {
	return { turnId: event.turnId, index: event.index, answer: "", toolUses: [], stopReason: "end_turn", usage: null };
}
