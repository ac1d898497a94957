// The hooks Timebox registers in Claude Code, one top-level function per engine event (Claude Code refuses a module
// whose helpers defined inside `register` take `$`): each binds the hook's `$`, finds the session and hands it the
// event. A guard that fails refuses what it guards (Claude Code would skip a failing hook and let the action through).

import { GUARD_FAILED_REFUSAL } from "../../../core/index.ts";
import {
	type AgentSpawnAnswer,
	type AgentSpawnEvent,
	type CommandRunAnswer,
	type CommandRunEvent,
	type Dollar,
	engineOf,
	type Next,
	type PromptSubmitAnswer,
	type PromptSubmitEvent,
	type SessionEndEvent,
	type SessionStartEvent,
	type StepNext,
	type ToolCallAnswer,
	type ToolCallEvent,
	type TurnCompleteEvent,
	type TurnStepAnswer,
	type TurnStepEvent,
} from "./engine.ts";
import type { ModuleHost } from "./host.ts";
import { noRequest } from "./loops.ts";

/** The session starts: the classic hooks stand down, and the budget is loaded. */
export async function sessionStart(
	host: ModuleHost,
	$: Dollar,
	event: SessionStartEvent,
	next: Next<SessionStartEvent, unknown>,
): Promise<unknown> {
	const engine = engineOf($);
	host.bind(engine);
	host.headless = !event.isInteractive;
	host.cwd = event.cwd;
	await Promise.all([engine.env.markModuleLoaded(), host.sessionOf(engine)]);
	return next(event);
}

/**
 * Claude Code's own SessionStart, before the settings hooks run (the plugin's classic hooks among them): the variable
 * that makes the classic hooks stand down is set first, so that the classic SessionStart does nothing (it would set a
 * default budget of its own, and start a watcher that runs the on-stop command a second time). The settings hooks run.
 */
export async function classicSessionStart($: Dollar, event: unknown, next: Next<unknown, unknown>): Promise<unknown> {
	await engineOf($).env.markModuleLoaded();
	return next(event);
}

/** A `classic.SessionStart` hook that failed: the settings hooks run all the same (a stand-down is not a guard). */
export function classicSessionStartFailed(
	_engine: unknown,
	event: unknown,
	next: Next<unknown, unknown>,
): Promise<unknown> {
	return next(event);
}

/** `/timebox …`: answered here, shown to the person alone, with no model request. */
export async function timeboxCommand(host: ModuleHost, $: Dollar, event: CommandRunEvent): Promise<CommandRunAnswer> {
	const session = await host.sessionOf(engineOf($));
	return { text: await session.command(event.args), isTextDisplayOnly: true };
}

/** A `/timebox` command that failed: said, with no model request. */
export function commandFailed(): CommandRunAnswer {
	return { text: GUARD_FAILED_REFUSAL, isTextDisplayOnly: true };
}

/** A prompt: counted, refused, or sent with what the model is to read of its budget. */
export async function promptSubmit(
	host: ModuleHost,
	$: Dollar,
	event: PromptSubmitEvent,
	next: Next<PromptSubmitEvent, PromptSubmitAnswer>,
): Promise<PromptSubmitAnswer> {
	const session = await host.sessionOf(engineOf($));
	return session.promptSubmit(event, next);
}

/** A `prompt.submit` guard that failed before it let the prompt through: the prompt is refused. */
export function promptGuardFailed(
	_engine: unknown,
	event: PromptSubmitEvent,
	next: Next<PromptSubmitEvent, PromptSubmitAnswer> & { called: boolean },
): PromptSubmitAnswer | Promise<PromptSubmitAnswer> {
	return next.called ? next(event) : { drop: GUARD_FAILED_REFUSAL };
}

/** A model request: sent, or answered with no request once the run is stopped; what it used is counted after it. */
export async function* turnStep(
	host: ModuleHost,
	$: Dollar,
	event: TurnStepEvent,
	next: StepNext,
): AsyncGenerator<unknown, TurnStepAnswer, undefined> {
	const session = await host.sessionOf(engineOf($));
	if ((await session.beforeStep(event)) !== null) return noRequest(event);
	const response = yield* next(event);
	await session.afterStep(event, response);
	return response;
}

/** A `turn.step` guard that failed before its request: the request is not sent. */
export async function* stepFailed(
	$: Dollar,
	event: TurnStepEvent,
	next: StepNext & { called: boolean },
): AsyncGenerator<unknown, TurnStepAnswer, undefined> {
	if (next.called) return yield* next(event);
	$.ui.log(GUARD_FAILED_REFUSAL);
	return noRequest(event);
}

/** A tool call: refused once the run is stopped, and stopped while it runs when the run ends. */
export async function toolCall(
	host: ModuleHost,
	$: Dollar,
	event: ToolCallEvent,
	next: Next<ToolCallEvent, ToolCallAnswer>,
): Promise<ToolCallAnswer> {
	const session = await host.sessionOf(engineOf($));
	return session.toolCall(event, next);
}

/** A `tool.call` guard that failed before the tool ran: the tool is refused. */
export function toolGuardFailed(
	_engine: unknown,
	event: ToolCallEvent,
	next: Next<ToolCallEvent, ToolCallAnswer> & { called: boolean },
): ToolCallAnswer | Promise<ToolCallAnswer> {
	return next.called ? next(event) : { deny: GUARD_FAILED_REFUSAL };
}

/** A subagent about to start: refused, or started with its budget in its task. */
export async function agentSpawn(
	host: ModuleHost,
	$: Dollar,
	event: AgentSpawnEvent,
	next: Next<AgentSpawnEvent, AgentSpawnAnswer>,
): Promise<AgentSpawnAnswer> {
	const session = await host.sessionOf(engineOf($));
	return session.agentSpawn(event, next);
}

/** An `agent.spawn` guard that failed before the subagent started: the spawn is refused. */
export function spawnGuardFailed(
	_engine: unknown,
	event: AgentSpawnEvent,
	next: Next<AgentSpawnEvent, AgentSpawnAnswer> & { called: boolean },
): AgentSpawnAnswer | Promise<AgentSpawnAnswer> {
	return next.called ? next(event) : { deny: GUARD_FAILED_REFUSAL };
}

/** A turn ended: the main loop's run is over, or a subagent's. */
export async function turnComplete(
	host: ModuleHost,
	$: Dollar,
	event: TurnCompleteEvent,
	next: Next<TurnCompleteEvent, unknown>,
): Promise<unknown> {
	const session = await host.sessionOf(engineOf($));
	await session.turnComplete(event);
	return next(event);
}

/** The session ends: its timers stop and what it changed is written. */
export async function sessionEnd(
	host: ModuleHost,
	$: Dollar,
	event: SessionEndEvent,
	next: Next<SessionEndEvent, unknown>,
): Promise<unknown> {
	host.bind(engineOf($));
	await host.end();
	return next(event);
}
