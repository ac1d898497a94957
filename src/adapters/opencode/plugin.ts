// Wires opencode's hooks and events to one live session of the core rulebook per opencode session. Registration and
// translation only (the hooks in files beside it, by what they see): each hook turns one opencode event into a session
// event, and the answer into what opencode takes (a thrown error refuses a model call or a tool call; a note part
// reaches the model; `session.abort` ends a run). Subagents (the `task` tool's child sessions) are reported by the id
// of the `task` call that started them: their model calls, tools and usage under that id, their end with the line
// their parent reads added to the task's result.

import { LEDGER_FOLDER, resolveDefault } from "../../core/index.ts";
import { answerCounter } from "./answers.ts";
import { callHooks } from "./call-hooks.ts";
import { commandHooks } from "./command-hooks.ts";
import { eventHooks } from "./event-hooks.ts";
import type { Hooks, PluginInput } from "./host.ts";
import type { TimeboxPluginDeps } from "./plugin-deps.ts";
import { OpencodeRequests, providersLookup } from "./request-cap.ts";
import { OpencodeSessions } from "./sessions.ts";
import { defaultBudgetOf, settingsOf } from "./settings.ts";
import { toolHooks } from "./tool-hooks.ts";

export { COMPACTION_AGENT, TITLE_AGENT } from "./call-hooks.ts";
export { COMMAND_DESCRIPTION } from "./command-hooks.ts";
export type { TimeboxPluginDeps } from "./plugin-deps.ts";

/** Builds the server plugin: opencode calls it once per process with its client and the plugin's options. */
export function createTimeboxPlugin(deps: TimeboxPluginDeps) {
	return async (
		input: Pick<PluginInput, "client"> & Partial<Pick<PluginInput, "directory">>,
		options: Record<string, unknown> = {},
	): Promise<Hooks> => {
		const { client } = input;
		/** The folder opencode works in: the project whose past sessions a suggested budget is made of. */
		const project = input.directory ?? null;
		const read = deps.projectHistory;
		const history = read && project !== null ? (current: string | null) => () => read(project, current) : null;
		const ledger = deps.ledger(`${deps.dataDir}/${LEDGER_FOLDER}`);
		/** Each model call's size, and the cap the rules set on its answer (written at `chat.params`). */
		const requests = new OpencodeRequests(providersLookup(() => client.config.providers()));
		// A default of `suggested` is read once, as the plugin starts: every session of the process gets that budget.
		const defaultBudget = await resolveDefault(defaultBudgetOf(deps.env, options), history?.(null));
		const settings = settingsOf(deps.env, options);
		const sessions = new OpencodeSessions({ deps, client, options, project, history, ledger, defaultBudget, settings });
		/** Each answer opencode completed, counted once where it is first seen. */
		const answers = answerCounter({
			sessionOf: (id) => sessions.sessionOf(sessions.budgetedSession(id)),
			agentOf: (id) => sessions.tasks.agentOf(id),
			isSubagent: (id) => sessions.isSubagent(id),
			requests,
		});
		return {
			...requests.hooks,
			...commandHooks(sessions, deps.interactive),
			...callHooks(sessions, requests, answers),
			...toolHooks(sessions),
			...eventHooks(sessions, answers),
		};
	};
}
