// Wires pi's events and the /timebox command to the core controller. Registration only: no behaviour lives here.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { COMMAND_NAME } from "../../core/constants.ts";
import { TimeboxController } from "../../core/controller.ts";
import type { Clock, OnStopRunner, Scheduler } from "../../core/ports.ts";
import { PiAgentBridge } from "./agent-bridge.ts";
import { createTimeboxCommand } from "./command.ts";
import { liveOnlyScheduler } from "./live-scheduler.ts";
import { SessionContext } from "./session-context.ts";
import { PiBudgetStore } from "./store.ts";
import { PiTranscriptBridge } from "./transcript-bridge.ts";
import { type FallbackWriter, PiUIBridge } from "./ui-bridge.ts";

/** What the extension takes from the outside world: the real ones in production, fakes in tests. */
export interface TimeboxExtensionDeps {
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopRunner;
	writeFallback: FallbackWriter;
}

/** Builds the pi extension factory. pi calls it once per session (again after /new, /resume, /fork and /reload). */
export function createTimeboxExtension(deps: TimeboxExtensionDeps): (pi: ExtensionAPI) => void {
	return (pi) => {
		const context = new SessionContext();
		const agent = new PiAgentBridge(context);
		const transcript = new PiTranscriptBridge(context);
		const controller = new TimeboxController({
			store: new PiBudgetStore(pi, context),
			ui: new PiUIBridge(context, deps.writeFallback),
			transcript,
			agent,
			clock: deps.clock,
			scheduler: liveOnlyScheduler(deps.scheduler, () => context.isLive()),
			onStop: deps.onStop,
		});

		// The session loaded: restore its budget.
		pi.on("session_start", async (_event, ctx) => {
			context.bind(ctx);
			await controller.sessionStart();
		});
		// A prompt is about to run: count turns, nudge if due, and hand pi the system prompt with the warning block.
		pi.on("before_agent_start", (event, ctx) => {
			context.bind(ctx);
			controller.agentStart();
			return agent.takeSystemPrompt(event.systemPrompt);
		});
		// Each LLM call: enforce the budget; the first call of a run is where a spent turn budget stops the prompt.
		pi.on("turn_start", (event, ctx) => {
			context.bind(ctx);
			controller.turnStart(event.turnIndex === 0);
		});
		// The run ended: the answered prompt now counts.
		pi.on("agent_end", (_event, ctx) => {
			context.bind(ctx);
			controller.agentEnd();
		});
		// /tree moved the leaf without appending: the next turn count rescans the session.
		pi.on("session_tree", () => {
			transcript.invalidate();
		});
		// The session ends or is replaced: stop the timers.
		pi.on("session_shutdown", (_event, ctx) => {
			context.bind(ctx);
			controller.shutdown();
		});
		pi.registerCommand(COMMAND_NAME, createTimeboxCommand(controller, context));
	};
}
