// Wires pi's events and the /timebox command to the core controller. Registration only: no behaviour lives here.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { COMMAND_NAME } from "../../core/constants.js";
import { TimeboxController } from "../../core/controller.js";
import type { Clock, OnStopRunner, Scheduler } from "../../core/ports.js";
import { PiAgentBridge } from "./agent-bridge.js";
import { createTimeboxCommand } from "./command.js";
import { liveOnlyScheduler } from "./live-scheduler.js";
import { SessionContext } from "./session-context.js";
import { PiBudgetStore } from "./store.js";
import { PiTranscriptBridge } from "./transcript-bridge.js";
import { type FallbackWriter, PiUIBridge } from "./ui-bridge.js";

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
		const controller = new TimeboxController({
			store: new PiBudgetStore(pi, context),
			ui: new PiUIBridge(context, deps.writeFallback),
			transcript: new PiTranscriptBridge(context),
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
		// The session ends or is replaced: stop the timers.
		pi.on("session_shutdown", (_event, ctx) => {
			context.bind(ctx);
			controller.shutdown();
		});
		pi.registerCommand(COMMAND_NAME, createTimeboxCommand(controller, context));
	};
}
