// pi's events of a prompt's run: a turn begins, the agent is about to start (the budget's line in its system prompt),
// and the run ends (a subagent's process tells its parent how it ended).

import { writeOutcome } from "./subagent-files.ts";
import type { PiWiring } from "./wiring.ts";

export function registerTurnEvents(w: PiWiring): void {
	const { pi, context, ui, self, told, session } = w;
	// A turn begins: the budget is checked (time, tokens, cost) and its status refreshed. Turns are counted, and a spent
	// budget's stop comes, at the turn's model call (`context`), which knows the prompt it belongs to.
	pi.on("turn_start", async (_event, ctx) => {
		context.bind(ctx);
		await session.onTurnStart();
	});
	// The agent is about to start: while a budget is in force its system prompt says so, in words that stay the same
	// while it is (what is left comes at the end of each call's messages), so the prompt cache holds. The text goes
	// after the prompt this start builds (the event's): `ctx.getSystemPrompt()` still holds the previous start's
	// addition, so adding to it would pile the text up start after start.
	pi.on("before_agent_start", (event, ctx) => {
		context.bind(ctx);
		w.systemPromptExtra = "";
		session.onAgentStart();
		return w.systemPromptExtra === "" ? undefined : { systemPrompt: event.systemPrompt + w.systemPromptExtra };
	});
	// The run ended: the answered prompt now shows as used.
	pi.on("agent_end", async (_event, ctx) => {
		context.bind(ctx);
		ui.release();
		if (self === null) {
			await session.handle({ type: "runEnd" });
			return;
		}
		// A subagent's run is its whole task: its end, and what its parent is to read of it.
		const answer = await session.handle({ type: "agentEnd", agent: self.agent });
		writeOutcome(self.outcome, { ...told, lines: answer.context });
	});
}
