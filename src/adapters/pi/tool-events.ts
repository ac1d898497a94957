// pi's events of a tool call: before it runs (refused once the budget stopped its prompt, or as a loop; a call of the
// subagent tool names the subagent its process runs as), and its result (what a subagent's process used and said).

import { keepChildRecord, setBudgetFor } from "../../core/index.ts";
import { takeOutcome } from "./subagent-files.ts";
import { identityFor, SUBAGENT_ENV, spawnRequestOf } from "./subagents.ts";
import { usageOfSubagents } from "./usage.ts";
import type { PiWiring } from "./wiring.ts";

export function registerToolEvents(w: PiWiring): void {
	const { pi, deps, context, ui, session, subagents } = w;
	// A tool is about to run: refused once the budget stopped its prompt, or as a loop (its tool and input compared).
	// A call of the subagent tool names the subagent in the environment its process inherits.
	pi.on("tool_call", async (event, ctx) => {
		context.bind(ctx);
		const learning = w.learnStop();
		if (learning !== null) await learning;
		const call = { tool: event.toolName, input: event.input };
		const answer = await session.handle(w.ownAgent({ type: "toolCall", prompt: null, call }));
		if (answer.refusal !== null) return { block: true, reason: answer.refusal };
		const request = spawnRequestOf(event.toolName, event.input);
		if (request === null) return undefined;
		const identity = identityFor(
			event.toolCallId,
			request,
			setBudgetFor(session.state.subagents, request.agentType)?.words ?? null,
		);
		subagents.started(event.toolCallId, identity);
		deps.env[SUBAGENT_ENV] = JSON.stringify(identity);
		return undefined;
	});
	// The subagent tool's result: what its process used counts here, what it said is shown, how it stood is kept for
	// the report, and the line that it stopped at its budget goes with its answer.
	pi.on("tool_result", async (event, ctx) => {
		context.bind(ctx);
		const identity = subagents.ended(event.toolCallId);
		if (identity === undefined) return undefined;
		if (deps.env[SUBAGENT_ENV] === JSON.stringify(identity)) delete deps.env[SUBAGENT_ENV];
		const used = usageOfSubagents(event.details);
		if (used) await session.handle(w.ownAgent({ type: "modelResponse", tokens: used.tokens, cost: used.cost }));
		const outcome = takeOutcome(identity.outcome);
		if (outcome === null) return undefined;
		for (const notice of outcome.notices) ui.notify(notice.message, notice.level);
		session.write(keepChildRecord(outcome.record));
		if (outcome.lines.length === 0) return undefined;
		return { content: [...event.content, { type: "text" as const, text: outcome.lines.join("\n") }] };
	});
}
