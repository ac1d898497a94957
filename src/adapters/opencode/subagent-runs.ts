// A subagent's run as opencode's hooks see it: the `task` tool starting it (its budget given, or refused), its
// session's model calls counted under it, and its end, with the lines its parent is to read.

import { capsInForce } from "../../core/index.ts";
import { addBudgetNote, type CallMessage, type ModelCall } from "./calls.ts";
import { refusing } from "./refusing.ts";
import type { OpencodeRequests } from "./request-cap.ts";
import type { OpencodeSession, OpencodeSessions } from "./sessions.ts";
import { taskRequestOf } from "./subagents.ts";

/** A subagent ended: the rules hear it once, and the lines its parent is to read of it come back. */
export async function endSubagent(
	sessions: OpencodeSessions,
	session: OpencodeSession,
	agent: string,
	result?: string,
): Promise<string[]> {
	sessions.tasks.ended(agent);
	const answer = await session.live.handle(
		result === undefined ? { type: "agentEnd", agent } : { type: "agentEnd", agent, result },
	);
	return answer.context;
}

/** The `task` tool is about to start a subagent: the rules give it its budget, or refuse it (the model reads why). */
export async function startSubagent(
	sessions: OpencodeSessions,
	session: OpencodeSession,
	tool: { sessionID: string; callID: string },
	args: unknown,
): Promise<void> {
	const { tasks } = sessions;
	const request = taskRequestOf(args);
	const answer = await refusing(session, () =>
		session.live.handle({
			type: "agentStart",
			agent: tool.callID,
			parent: tasks.agentOf(tool.sessionID) ?? null,
			agentType: request.agentType,
			task: request.task,
		}),
	);
	if (answer.refusal !== null) throw new Error(answer.refusal);
	tasks.started(tool.callID, tool.sessionID, request.description, answer.context);
}

/** A model call of a subagent's session: counted under the subagent, with what it is to read. */
export async function subagentCall(
	sessions: OpencodeSessions,
	requests: OpencodeRequests,
	call: ModelCall,
	messages: CallMessage[],
): Promise<void> {
	const { tasks } = sessions;
	const agent = tasks.agentOf(call.sessionId);
	if (agent === undefined || tasks.isStopped(agent)) return;
	const session = sessions.sessionOf(sessions.budgetedSession(call.sessionId));
	const answer = await requests.handled(
		call,
		messages,
		(request) => refusing(session, () => session.live.handle({ type: "modelCall", prompt: null, agent, ...request })),
		capsInForce(session.live.state),
	);
	// A refused call is a stopped subagent's (the rules stopped it through stopAgent): chat.params ends it.
	if (answer.refusal === null) addBudgetNote(messages, call, [...tasks.takeContext(agent), ...answer.context]);
}
