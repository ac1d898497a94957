// What the loop guard says: to the model, why a repeated call is refused and why its run stopped; to the person, the
// one line of each; and the guard in a budget's description and status.

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`. */
export function ordinal(count: number): string {
	const tens = count % 100;
	const suffix =
		tens >= 11 && tens <= 13
			? "th"
			: count % 10 === 1
				? "st"
				: count % 10 === 2
					? "nd"
					: count % 10 === 3
						? "rd"
						: "th";
	return `${count}${suffix}`;
}

/** A call as the texts name it: `bash (npm test)`, or the tool alone when its input shows nothing. */
function named(tool: string, view: string): string {
	return view.length > 0 ? `${tool} (${view})` : tool;
}

/** Whose calls count together: a prompt's run, or a subagent's task. */
export type LoopScope = "run" | "task";

/** Why the Nth identical call is refused: the model reads it in the call's result. */
export function loopRefusal(tool: string, view: string, count: number, scope: LoopScope = "run"): string {
	const shown = view.length > 0 ? ` (${view})` : "";
	return `Timebox: this is the ${ordinal(count)} identical ${tool} call in this ${scope}${shown}; its result will not change. Change your approach or finish with what you have.`;
}

/** The person's line when the Nth identical call is refused. */
export function loopRefusedMessage(tool: string, view: string, count: number): string {
	return `Timebox refused a repeated call: ${named(tool, view)}, the ${ordinal(count)} identical one in this run.`;
}

/** The person's line when a subagent's Nth identical call is refused. */
export function subagentLoopRefusedMessage(agent: string, tool: string, view: string, count: number): string {
	return `Timebox refused a repeated call of ${agent}: ${named(tool, view)}, the ${ordinal(count)} identical one in its task.`;
}

/** The person is told the run stopped: the model asked for the refused call once more. */
export function loopStoppedMessage(tool: string, view: string, count: number): string {
	return `Timebox stopped a loop: ${named(tool, view)} asked for ${count} times in this run.`;
}

/**
 * The end of a refusal that stops a run (the loop guard's, the spent budget's wrap-up): where the host cannot end the
 * run, the model reads what to do now.
 */
export const FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";

/** Why the call that stops the run is refused (a host that cannot end a run lets the model read it). */
export function loopStopRefusal(tool: string, view: string, count: number): string {
	return `${loopStoppedMessage(tool, view, count)} ${FINISH_NOW}`;
}

/** Why anything more of a run the loop guard stopped is refused. */
export const LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;

/** Why a subagent's call that concludes it is refused: it asked once more for a call refused as a loop. */
export function subagentLoopRefusal(tool: string, view: string, count: number): string {
	return `Timebox stopped a loop: ${named(tool, view)} asked for ${count} times in this task. Write your final answer now, with what you found and what is left undone. Call no more tools.`;
}

/** Why a subagent's call is refused once its task was stopped as a loop (the subagent concludes now). */
export const SUBAGENT_LOOP_STOPPED_REFUSAL =
	"Timebox stopped a loop in this task: a call refused as a loop was asked for again. Write your final answer now, with what you found and what is left undone. Call no more tools.";

/** A budget's loop guard in words: `a loop guard (the 3rd identical tool call of a run is refused)`. */
export function loopGuardPhrase(limit: number): string {
	return `a loop guard (the ${ordinal(limit)} identical tool call of a run is refused)`;
}

/** The loop guard in the status: `loop guard at 3`. */
export function loopGuardStatus(limit: number): string {
	return `loop guard at ${limit}`;
}
