// opencode's hooks around a tool call: before it runs (refused once the budget stopped or is wrapping up the run, or
// as a loop; a `task` call starts a subagent first), and the `task` tool's result (the subagent's end).

import type { Hooks } from "./host.ts";
import type { OpencodeSessions } from "./sessions.ts";
import { endSubagent, startSubagent } from "./subagent-runs.ts";
import { TASK_TOOL } from "./subagents.ts";

export function toolHooks(sessions: OpencodeSessions): Pick<Hooks, "tool.execute.before" | "tool.execute.after"> {
	const { tasks } = sessions;
	return {
		// A tool is about to run: refused (the model reads why) once the budget stopped or is wrapping up the run, or as a
		// loop (its tool and arguments compared).
		// A subagent's tool is its own, under its budget and the session's; one the `task` tool starts is a subagent.
		"tool.execute.before": async (tool, output) => {
			const session = sessions.sessionOf(sessions.budgetedSession(tool.sessionID));
			const agent = tasks.agentOf(tool.sessionID);
			// A stopped subagent starts nothing: the rules refuse its tools, with their reason.
			const stopped = tasks.isStopped(agent);
			// A `task` call is the start of a subagent first: the rules refuse it once the session's budget is spent.
			if (tool.tool === TASK_TOOL && !stopped) await startSubagent(sessions, session, tool, output.args);
			const call = { tool: tool.tool, input: output.args };
			const answer = await session.live.handle(
				agent === undefined
					? { type: "toolCall", prompt: null, call }
					: { type: "toolCall", prompt: null, agent, call },
			);
			if (answer.refusal === null) return;
			// The call is refused as a tool (its run is wrapping up): a subagent it started never runs.
			if (tool.tool === TASK_TOOL && !stopped) await endSubagent(sessions, session, tool.callID);
			throw new Error(answer.refusal);
		},
		// The `task` tool's result: the subagent ended, and the line that it stopped at its budget goes with its answer.
		"tool.execute.after": async (tool, output) => {
			if (tool.tool !== TASK_TOOL || tasks.sessionOf(tool.callID) === null) return;
			const session = sessions.sessionOf(sessions.budgetedSession(tool.sessionID));
			const lines = await endSubagent(sessions, session, tool.callID, output.output);
			if (lines.length > 0) output.output = `${output.output}\n\n${lines.join("\n")}`;
		},
	};
}
