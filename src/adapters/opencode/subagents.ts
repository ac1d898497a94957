// opencode's subagents as Timebox sees them: each call of the `task` tool starts one, named by the call's id, in a child
// session opencode creates right after; this pairs the two, keeps the block with its budget for its first request, and
// remembers which subagents were stopped and what their parents must still read. Bookkeeping only: the rules decide.

/** opencode's tool that starts a subagent. */
export const TASK_TOOL = "task";

/** What a `task` call asks for: the subagent's type and its task (its description, else its prompt). */
export interface TaskRequest {
	agentType: string;
	task: string;
	/** The child session's title starts with it ("<description> (@<type> subagent)"). */
	description: string;
}

/** Reads a `task` call's arguments; opencode checks them before the tool runs, so a missing one is only a blank. */
export function taskRequestOf(args: unknown): TaskRequest {
	const fields = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
	const text = (key: string): string => (typeof fields[key] === "string" ? (fields[key] as string) : "");
	const description = text("description");
	return { agentType: text("subagent_type") || "general", task: description || text("prompt"), description };
}

/** One subagent Timebox budgets. */
interface Subagent {
	/** The id of the `task` call that started it: the subagent's id for the rules. */
	agent: string;
	/** The session whose `task` call started it. */
	parentSession: string;
	description: string;
	/** Its child session, once opencode created it. */
	session: string | null;
	/** What its first request is to read (the block with its budget), until that request takes it. */
	context: string[];
	/** The rules stopped it: its calls send no request from then on, and the rules refuse its tools. */
	stopped: boolean;
}

export class SubagentTasks {
	private readonly byAgent = new Map<string, Subagent>();
	private readonly bySession = new Map<string, Subagent>();

	/** A `task` call the rules let start: its child session comes next. */
	started(agent: string, parentSession: string, description: string, context: readonly string[]): void {
		this.byAgent.set(agent, {
			agent,
			parentSession,
			description,
			session: null,
			context: [...context],
			stopped: false,
		});
	}

	/**
	 * opencode created a child session of `parentSession`: the subagent it runs is the oldest of that session's `task`
	 * calls without one whose description opens the title (else the oldest without one). Returns its id, or null where
	 * no `task` call Timebox saw started it.
	 */
	created(session: string, parentSession: string, title: string): string | null {
		const waiting = [...this.byAgent.values()].filter(
			(subagent) => subagent.parentSession === parentSession && subagent.session === null,
		);
		const subagent =
			waiting.find((candidate) => candidate.description !== "" && title.startsWith(candidate.description)) ??
			waiting[0];
		if (!subagent) return null;
		subagent.session = session;
		this.bySession.set(session, subagent);
		return subagent.agent;
	}

	/** The subagent a child session runs, or undefined for a session that runs none Timebox budgets. */
	agentOf(session: string): string | undefined {
		return this.bySession.get(session)?.agent;
	}

	/** The child session a subagent runs in, or null before opencode created it. */
	sessionOf(agent: string): string | null {
		return this.byAgent.get(agent)?.session ?? null;
	}

	/** The block a subagent's first request reads, given once. */
	takeContext(agent: string): string[] {
		const subagent = this.byAgent.get(agent);
		if (!subagent) return [];
		const context = subagent.context;
		subagent.context = [];
		return context;
	}

	/** The rules stopped a subagent: it sends no request from now on. */
	stop(agent: string): void {
		const subagent = this.byAgent.get(agent);
		if (subagent) subagent.stopped = true;
	}

	/** Whether the rules stopped a subagent (false while it runs, or for one Timebox does not budget). */
	isStopped(agent: string | undefined): boolean {
		return agent !== undefined && this.byAgent.get(agent)?.stopped === true;
	}

	/** The subagent ended: it is forgotten. Returns the session that started it, or null for one unknown. */
	ended(agent: string): string | null {
		const subagent = this.byAgent.get(agent);
		if (!subagent) return null;
		this.byAgent.delete(agent);
		if (subagent.session !== null) this.bySession.delete(subagent.session);
		return subagent.parentSession;
	}
}
