// Timebox's hooks for Claude Code's hooks module (its entry is src/entries/claude-module.ts): `registerWith(on, deps)`
// adds one hook per engine event, each a one-line call of its function in hooks.ts, and gives every guard a `.catch`
// that refuses, so that a guard that fails never lets the action through.

import type {
	AgentSpawnAnswer,
	AgentSpawnEvent,
	CommandRunEvent,
	Dollar,
	Next,
	On,
	PromptSubmitAnswer,
	PromptSubmitEvent,
	SessionEndEvent,
	SessionStartEvent,
	StepNext,
	ToolCallAnswer,
	ToolCallEvent,
	TurnCompleteEvent,
	TurnStepEvent,
} from "./engine.ts";
import {
	agentSpawn,
	classicSessionStart,
	classicSessionStartFailed,
	commandFailed,
	promptGuardFailed,
	promptSubmit,
	sessionEnd,
	sessionStart,
	spawnGuardFailed,
	stepFailed,
	timeboxCommand,
	toolCall,
	toolGuardFailed,
	turnComplete,
	turnStep,
} from "./hooks.ts";
import { type HostDeps, ModuleHost } from "./host.ts";

/** Registers the hooks of one Timebox host on `on`. */
export function registerWith(on: On, deps: HostDeps): ModuleHost {
	const host = new ModuleHost(deps);
	on("session.start", ($: Dollar, e: SessionStartEvent, next: Next<SessionStartEvent, unknown>) =>
		sessionStart(host, $, e, next),
	);
	on("classic.SessionStart", ($: Dollar, e: unknown, next: Next<unknown, unknown>) =>
		classicSessionStart($, e, next),
	).catch(classicSessionStartFailed);
	on("command.run", { command: ["timebox", "timebox:timebox"] }, ($: Dollar, e: CommandRunEvent) =>
		timeboxCommand(host, $, e),
	).catch(() => commandFailed());
	on("prompt.submit", ($: Dollar, e: PromptSubmitEvent, next: Next<PromptSubmitEvent, PromptSubmitAnswer>) =>
		promptSubmit(host, $, e, next),
	).catch(promptGuardFailed);
	on("turn.step", async function* ($: Dollar, e: TurnStepEvent, next: StepNext) {
		return yield* turnStep(host, $, e, next);
	}).catch(async function* ($: Dollar, e: TurnStepEvent, next: StepNext & { called: boolean }) {
		return yield* stepFailed($, e, next);
	});
	on("tool.call", ($: Dollar, e: ToolCallEvent, next: Next<ToolCallEvent, ToolCallAnswer>) =>
		toolCall(host, $, e, next),
	).catch(toolGuardFailed);
	on("agent.spawn", ($: Dollar, e: AgentSpawnEvent, next: Next<AgentSpawnEvent, AgentSpawnAnswer>) =>
		agentSpawn(host, $, e, next),
	).catch(spawnGuardFailed);
	on("turn.complete", ($: Dollar, e: TurnCompleteEvent, next: Next<TurnCompleteEvent, unknown>) =>
		turnComplete(host, $, e, next),
	);
	on("session.end", ($: Dollar, e: SessionEndEvent, next: Next<SessionEndEvent, unknown>) =>
		sessionEnd(host, $, e, next),
	);
	return host;
}
