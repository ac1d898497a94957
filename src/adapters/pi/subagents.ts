// pi's subagents: pi has none of its own, and its subagent example runs each subagent as a `pi` process of its own,
// which loads the user's extensions (Timebox among them) and inherits the parent's environment. The parent names the
// subagent in that environment when its tool call is about to start one: its id, type, task, its budget's words, and
// the file it is to write its outcome to. The child's Timebox then budgets itself as that subagent, and at its end writes
// what its parent is to read and the user to see; the parent reads it into the tool's result. When the session's budget
// is spent while the subagent runs, the parent writes the stop to a file the child looks for before each of its model
// calls and tools (the files are read and written in subagent-files.ts).

import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NotifyLevel, TimeboxRecord } from "../../core/index.ts";

/** The environment variable that tells a pi process it runs a subagent, and which. */
export const SUBAGENT_ENV = "TIMEBOX_SUBAGENT";
/** The tool of pi's subagent example that starts a subagent. */
export const SUBAGENT_TOOL = "subagent";
/** What a subagent says of its source when it shows its budget. */
export const PARENT_SOURCE = "the main agent's subagent budget";

/** A subagent as its parent names it to the process that runs it. */
export interface SubagentIdentity {
	/** Its id: the id of the tool call that started it. */
	agent: string;
	agentType: string;
	task: string;
	/** Its budget's words, or null where no subagent budget is set (it is only counted then). */
	budget: string | null;
	/** The file it writes its outcome to. */
	outcome: string;
	/** The file its parent writes when the session's budget is spent while it runs. */
	stop: string;
}

/** How a subagent ended, as its process tells its parent. */
export interface SubagentOutcome {
	/** The lines its parent reads with its result (that it stopped at its budget); none when it answered within it. */
	lines: string[];
	/** What the user was told of it, for the parent to show. */
	notices: { message: string; level: NotifyLevel }[];
	/** How it stood at its end, kept in the parent's session for its report; null where it had no record. */
	record: Extract<TimeboxRecord, { kind: "subagent" }> | null;
}

/** What a call of the subagent tool asks for, in its single mode (one agent, one task); null for any other call. */
export function spawnRequestOf(tool: string, input: unknown): { agentType: string; task: string } | null {
	if (tool !== SUBAGENT_TOOL || typeof input !== "object" || input === null) return null;
	// The tool's arguments as pi hands them: an object whose fields are read one by one.
	const fields = input as Record<string, unknown>;
	return typeof fields.agent === "string" && typeof fields.task === "string"
		? { agentType: fields.agent, task: fields.task }
		: null;
}

/** The identity for the subagent a tool call starts, with a file of its own for its outcome. */
export function identityFor(
	toolCallId: string,
	request: { agentType: string; task: string },
	budget: string | null,
): SubagentIdentity {
	const base = join(tmpdir(), `timebox-subagent-${process.pid}-${toolCallId.replace(/[^A-Za-z0-9_-]/g, "_")}`);
	const outcome = `${base}.json`;
	return { agent: toolCallId, agentType: request.agentType, task: request.task, budget, outcome, stop: `${base}.stop` };
}

/** The subagent this process runs, from its environment; null for a process that runs none (or a garbled value). */
export function identityOf(env: NodeJS.ProcessEnv): SubagentIdentity | null {
	const text = env[SUBAGENT_ENV];
	if (!text) return null;
	try {
		const value: unknown = JSON.parse(text);
		if (typeof value !== "object" || value === null) return null;
		const fields = value as Record<string, unknown>;
		const { agent, agentType, task, budget, outcome, stop } = fields;
		if (typeof agent !== "string" || typeof agentType !== "string" || typeof task !== "string") return null;
		if (typeof outcome !== "string" || typeof stop !== "string") return null;
		if (budget !== null && typeof budget !== "string") return null;
		return { agent, agentType, task, budget, outcome, stop };
	} catch {
		return null;
	}
}
