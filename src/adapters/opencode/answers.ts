// An answer opencode completed, counted once when it is first seen: as `message.updated` reports it, or among the
// messages of the next call, which opencode can start before the plugin hears the update. The rules keep what it used
// in the session's log (recordUsage), by its id; the run's final answer ends the run.

import type { Message } from "@opencode-ai/sdk";
import type { LiveSession } from "../../core/index.ts";
import { type CallMessage, endsRun, unseenAnswers, usageOf } from "./calls.ts";
import type { OpencodeRequests } from "./request-cap.ts";

/** What the counter needs of the plugin. */
export interface AnswerPorts {
	/** The budgeted session an opencode session's answers count in, with the responses it counted. */
	sessionOf(sessionId: string): { live: LiveSession; answered: Set<string> };
	/** The subagent an opencode session runs, if it runs one. */
	agentOf(sessionId: string): string | undefined;
	isSubagent(sessionId: string): boolean;
	requests: OpencodeRequests;
}

export function answerCounter(ports: AnswerPorts) {
	const count = async (info: Message): Promise<void> => {
		const used = usageOf(info);
		const session = used ? ports.sessionOf(info.sessionID) : null;
		if (!used || !session || session.answered.has(info.id)) return;
		session.answered.add(info.id);
		ports.requests.answered(info);
		const response = { type: "modelResponse" as const, ...used, responseId: info.id };
		const agent = ports.agentOf(info.sessionID);
		await session.live.handle(agent === undefined ? response : { ...response, agent });
		// The run's final answer is complete: the prompt now shows as used, as pi shows it at its run's end. opencode says
		// the session is idle only once all its work after the answer is done, which can be seconds later; that idle ends
		// the run again, which changes nothing more.
		if (!ports.isSubagent(info.sessionID) && endsRun(info)) await session.live.handle({ type: "runEnd" });
	};
	return {
		count,
		/** The answers among a call's messages not counted yet, counted now. */
		unseen: async (messages: readonly CallMessage[]): Promise<void> => {
			const counted = (info: Message) => ports.sessionOf(info.sessionID).answered.has(info.id);
			for (const info of unseenAnswers(messages, counted)) await count(info);
		},
	};
}
