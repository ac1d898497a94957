// What a host says when its own machinery, not a budget's rule, refuses: a tool ended by a stop while it ran, a prompt
// whose place in the day's budget another session took, a guard that could not check, a `/timebox` line answered
// before any model call. The hosts' adapters carry these out; the texts live here, with the rules' own.

/** What the model reads of a tool stopped while it ran (the person reads the stop's own notice). */
export const TOOL_STOPPED_REFUSAL =
	"Timebox stopped this tool: the session's budget ran out while it ran. Run no more tools.";

/** A prompt whose place in the day's budget another session took while it was counted: it is not sent. */
export const DAILY_TAKEN_REFUSAL =
	"Timebox: another session took today's last prompt just now, so this prompt was not sent.";

/** What a guard that failed says when it refuses: a guard that fails refuses. */
export const GUARD_FAILED_REFUSAL = "Timebox could not check its budget here, so it refused (see the debug log).";

/** What a host that shows a refused call as an error shows at the end of a `/timebox` line Timebox answered itself. */
export const COMMAND_ANSWERED_REFUSAL =
	"Timebox answered /timebox itself (see above), so nothing was sent to the model; opencode shows that as an error.";

/** What ends a `/timebox` line in a TUI after Timebox answered it in a toast (the host logs it only). */
export const COMMAND_DONE_REFUSAL = "Timebox answered /timebox itself: nothing is sent to the model.";
