// opencode's hooks around a model call: the prompt the user sent, a compaction about to run, the call's messages (the
// answers before it counted, a new prompt counted or the call refused, what the model is to read added), and its
// parameters (the cap on its answer written; where a refused call ends, with its reason).

import { COMMAND_ANSWERED_REFUSAL, capsInForce } from "../../core/index.ts";
import type { answerCounter } from "./answers.ts";
import { addBudgetNote, type CallMessage, costReportingOf, dropCommands, isCommandText, modelCallOf } from "./calls.ts";
import type { Hooks } from "./host.ts";
import { refusing } from "./refusing.ts";
import type { OpencodeRequests } from "./request-cap.ts";
import type { OpencodeSessions } from "./sessions.ts";
import { endSubagent, subagentCall } from "./subagent-runs.ts";

/** The agent of opencode's title call, and of its summary when it compacts a session: neither is the user's model. */
export const TITLE_AGENT = "title";
export const COMPACTION_AGENT = "compaction";

export function callHooks(
	sessions: OpencodeSessions,
	requests: OpencodeRequests,
	answers: ReturnType<typeof answerCounter>,
): Pick<
	Hooks,
	"chat.message" | "experimental.session.compacting" | "experimental.chat.messages.transform" | "chat.params"
> {
	const { tasks } = sessions;
	return {
		// A prompt the user sent (a `/timebox` line in `opencode run` too): the only user messages that count as prompts.
		"chat.message": async (message, output) => {
			if (sessions.isSubagent(message.sessionID)) return;
			const session = sessions.sessionOf(message.sessionID);
			if (isCommandText(output.parts)) {
				session.commands.add(output.message.id);
				return;
			}
			const prompt = output.message.id;
			session.sent.add(prompt);
			// A message queued while a run goes on starts no run of its own now: opencode's loop takes it up at its next
			// call, where it is counted (or refused) as before.
			if (session.live.state.running) return;
			// Sent while idle, the prompt's run starts here, as on the hook hosts: opencode's start-up comes before its
			// first model call, and a budget that runs out in between stops this prompt (or lets it wrap up), as it would
			// mid-run. The rules count it and keep it in the session's log (recordPrompt); its first call, step 1 too,
			// does not count again. A refusal is kept for that call, which ends with it in `chat.params`.
			const answer = await refusing(session, () => session.live.handle({ type: "modelCall", prompt, step: 1 }));
			if (answer.refusal !== null) session.refused.set(prompt, answer.refusal);
		},
		// opencode is about to summarise the session: that call is neither a prompt nor a step, and reads no note.
		"experimental.session.compacting": async (compaction) => {
			if (!sessions.isSubagent(compaction.sessionID)) sessions.sessionOf(compaction.sessionID).compacting = true;
		},
		// Before every model call of the agent (the title call has none): count a new prompt, or refuse the call;
		// add what the model is to read of its budget; keep Timebox's command lines out of the request.
		"experimental.chat.messages.transform": async (_input, output) => {
			const messages: CallMessage[] = output.messages;
			const call = modelCallOf(messages);
			dropCommands(messages);
			await answers.unseen(messages);
			if (!call || call.command) return;
			if (sessions.isSubagent(call.sessionId)) return subagentCall(sessions, requests, call, messages);
			const session = sessions.sessionOf(call.sessionId);
			if (session.compacting) {
				session.compacting = false;
				return;
			}
			// A message the user did not send in this process (opencode's "continue", a prompt it sent again after a
			// compaction, a prompt of an earlier process) belongs to the latest prompt, at a step the rules count on.
			// A prompt refused when it was sent sends nothing: `chat.params` ends its call with the reason.
			if (session.refused.has(call.message)) return;
			const sent = session.sent.has(call.message);
			const event = sent ? { prompt: call.message, step: call.step } : { prompt: null };
			const answer = await requests.handled(
				call,
				messages,
				(request) => refusing(session, () => session.live.handle({ type: "modelCall", ...event, ...request })),
				capsInForce(session.live.state),
			);
			if (answer.refusal === null) addBudgetNote(messages, call, answer.context);
			else session.refused.set(call.message, answer.refusal);
		},
		// Each model call, the title call too: a `/timebox` line or a refused prompt ends here, with its reason.
		// A subagent the rules stopped sends no request: its run ends here, and the task's result its parent reads is
		// this error, which says that it stopped at its budget.
		"chat.params": async (call, output) => {
			requests.params(call, output, call.agent !== TITLE_AGENT && call.agent !== COMPACTION_AGENT);
			if (sessions.isSubagent(call.sessionID)) {
				const agent = tasks.agentOf(call.sessionID);
				if (agent === undefined || !tasks.isStopped(agent)) return;
				const lines = await endSubagent(sessions, sessions.sessionOf(sessions.budgetedSession(call.sessionID)), agent);
				throw new Error(lines.join("\n"));
			}
			const session = sessions.sessionOf(call.sessionID);
			if (call.agent !== TITLE_AGENT && call.agent !== COMPACTION_AGENT) session.cost = costReportingOf(call.model);
			if (session.commands.has(call.message.id)) throw new Error(COMMAND_ANSWERED_REFUSAL);
			const refusal = session.refused.get(call.message.id);
			if (refusal !== undefined) throw new Error(refusal);
		},
	};
}
