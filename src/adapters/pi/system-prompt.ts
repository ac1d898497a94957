// The before_agent_start answer on pi: the chained system prompt with Timebox's blocks after it, each a section of its own.

import type { BeforeAgentStartEventResult } from "@mariozechner/pi-coding-agent";

/** The result that adds `blocks` to `systemPrompt`, or nothing to change. */
export function withBlocks(systemPrompt: string, blocks: readonly string[]): BeforeAgentStartEventResult | undefined {
	if (blocks.length === 0) return undefined;
	return { systemPrompt: [systemPrompt, ...blocks].join("\n\n") };
}
