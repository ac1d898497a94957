// AgentBridge on pi: ctx.abort() for the hard stop, and the nudge block returned from before_agent_start.

import type { BeforeAgentStartEventResult } from "@mariozechner/pi-coding-agent";
import type { AgentBridge } from "../../core/ports.ts";
import type { SessionContext } from "./session-context.ts";

/** Aborts pi's running agent and collects system-prompt additions for the `before_agent_start` result. */
export class PiAgentBridge implements AgentBridge {
	private pending: string[] = [];

	constructor(private readonly context: SessionContext) {}

	abortCurrentTurn(): void {
		this.context.require().abort();
	}

	appendSystemPrompt(extra: string): void {
		this.pending.push(extra);
	}

	/** The `before_agent_start` result: the chained system prompt plus what was added, or nothing to change. */
	takeSystemPrompt(systemPrompt: string): BeforeAgentStartEventResult | undefined {
		if (this.pending.length === 0) return undefined;
		const result = { systemPrompt: [systemPrompt, ...this.pending].join("\n\n") };
		this.pending = [];
		return result;
	}
}
