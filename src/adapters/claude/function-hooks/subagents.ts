// What one Claude Code session remembers of its subagents: each one's key in the rules (its Agent tool call's id) by
// Claude Code's id of its loop, those the rules stopped, and what their parent is to read of how they ended.

import type { AgentSpawnAnswer, ToolCallAnswer } from "./engine.ts";

export class Subagents {
	/** Each subagent's key in the rules, by Claude Code's id of its loop. */
	private readonly agents = new Map<string, string>();
	/** The keys of the subagents being spawned, whose loop's id is not known yet. */
	private readonly spawning: string[] = [];
	/** The subagents the rules stopped, until they end. */
	readonly stopped = new Set<string>();
	/** What the parent reads with a subagent's answer, by the subagent's key, until its Agent tool call returns. */
	private readonly linesForParent = new Map<string, readonly string[]>();

	/** The key of the subagent an event belongs to, or null for the main loop. */
	agentOf(event: { agentId?: string }): string | null {
		return event.agentId === undefined ? null : this.keyOf(event.agentId);
	}

	/**
	 * A subagent's key by its loop's id. One that starts before its spawn returned is the one being spawned, when only
	 * one is; any other is known by its own id (the rules let an agent they never saw start run, and count its usage).
	 */
	keyOf(agentId: string): string {
		const known = this.agents.get(agentId);
		if (known !== undefined) return known;
		const [only, ...others] = this.spawning;
		if (only === undefined || others.length > 0) return agentId;
		this.agents.set(agentId, only);
		return only;
	}

	/** Runs a subagent's spawn under its key; the loop it starts is known by that key. */
	async spawn(key: string, start: () => Promise<AgentSpawnAnswer>): Promise<AgentSpawnAnswer> {
		this.spawning.push(key);
		try {
			const started = await start();
			if (started.deny === undefined && started.agentId !== undefined) this.agents.set(started.agentId, key);
			return started;
		} finally {
			this.spawning.splice(this.spawning.indexOf(key), 1);
		}
	}

	/** A subagent ended, with what its parent is to read of how. */
	end(agent: string, lines: readonly string[]): void {
		this.stopped.delete(agent);
		if (lines.length > 0) this.linesForParent.set(agent, lines);
	}

	/** An Agent tool call's result, with what the parent is to read of the subagent's end (stopped at its budget). */
	withParentLines(event: { tool_use_id: string }, result: ToolCallAnswer): ToolCallAnswer {
		const lines = this.linesForParent.get(event.tool_use_id);
		if (lines === undefined) return result;
		this.linesForParent.delete(event.tool_use_id);
		return result.deny !== undefined ? result : { ...result, context: [...(result.context ?? []), ...lines] };
	}
}
