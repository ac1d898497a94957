// opencode's events: a subagent's session created, an answer completed (what it used counted; the run's final answer
// ends the run), a retry of a refused call (ended), a session idle or deleted, and the plugin disposed.

import type { answerCounter } from "./answers.ts";
import type { Hooks } from "./host.ts";
import type { OpencodeSessions } from "./sessions.ts";

export function eventHooks(
	sessions: OpencodeSessions,
	answers: ReturnType<typeof answerCounter>,
): Pick<Hooks, "event" | "dispose"> {
	const { tasks } = sessions;
	return {
		event: async ({ event }) => {
			if (event.type === "session.created" && event.properties.info.parentID) {
				const { id, parentID, title } = event.properties.info;
				sessions.subagentCreated(id, parentID);
				tasks.created(id, parentID, title);
			} else if (event.type === "message.updated") {
				await answers.count(event.properties.info);
			} else if (event.type === "session.status" && event.properties.status.type === "retry") {
				sessions.retried(event.properties.sessionID, event.properties.status.message);
			} else if (event.type === "session.idle") {
				await sessions.get(event.properties.sessionID)?.live.handle({ type: "runEnd" });
			} else if (event.type === "session.deleted") {
				sessions.delete(event.properties.info.id);
			}
		},
		dispose: async () => {
			sessions.dispose();
		},
	};
}
