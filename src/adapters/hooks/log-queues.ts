// The session's log as the three queues a hook keeps between processes, each a line written and a line that takes it:
// what a subagent's parent is still to read (owed, paid), what a watcher told nobody (untold, told), and the calls of
// the subagent tool waiting for the subagent that takes them up (spawn, spawn-taken; spawn-refused for one refused).

import type { SessionLog } from "../node/session-log.ts";
import type { HookEvent } from "./roles.ts";

/** The line an agent is to read with its next model call (its subagent's end, which the host did not put in). */
export function owe(store: SessionLog, to: string | null, lines: string[], now: number): void {
	store.appendLine({ kind: "owed", to, lines, at: now });
}

/** What an agent is still to read of the subagents it started (see agentEnd), given once, with its next model call. */
export function owedTo(store: SessionLog, to: string | null, now: number): string[] {
	const lines = store.lines();
	const paid = lines.filter((line) => line.kind === "paid" && line.to === to).length;
	const owed = lines.flatMap((line) => (line.kind === "owed" && line.to === to ? [line.lines] : [])).slice(paid);
	for (const _ of owed) store.appendLine({ kind: "paid", to, at: now });
	return owed.flat();
}

/** What a watcher could tell nobody (the user was idle): kept for the next prompt. */
export function keepUntold(store: SessionLog, notices: string[], now: number): void {
	store.appendLine({ kind: "untold", notices, at: now });
}

/** What a watcher told nobody yet (the user was idle): shown with the next prompt, once. */
export function untoldNotices(store: SessionLog, now: number): string[] {
	const lines = store.lines();
	const told = lines.filter((line) => line.kind === "told").length;
	const untold = lines.flatMap((line) => (line.kind === "untold" ? [line.notices] : [])).slice(told);
	if (untold.length === 0) return [];
	for (const _ of untold) store.appendLine({ kind: "told", at: now });
	return untold.flat();
}

/** A call of the subagent tool the rules let through: kept for the subagent that takes it up. */
export function keepSpawn(
	store: SessionLog,
	event: HookEvent & { spawn: NonNullable<HookEvent["spawn"]> },
	agent: string | null,
	now: number,
): void {
	store.appendLine({ kind: "spawn", id: event.toolUseId, agent, ...event.spawn, at: now });
}

/**
 * The call of the subagent tool a starting subagent took up: the oldest not taken yet of its type (else of any type).
 * Null where the log holds none (the call came before Timebox had anything to do in the session).
 */
export function takeSpawn(
	store: SessionLog,
	agent: string,
	agentType: string | null,
	now: number,
): { id: string | null; agent: string | null; agentType: string; task: string } | null {
	const lines = store.lines();
	const taken = new Set(lines.flatMap((line) => (line.kind === "spawn-taken" ? [line.index] : [])));
	const open = lines
		.flatMap((line) => (line.kind === "spawn" ? [line] : []))
		.map((line, index) => ({ line, index }))
		.filter(({ index }) => !taken.has(index));
	const found = open.find(({ line }) => line.agentType === agentType) ?? open[0];
	if (!found) return null;
	store.appendLine({ kind: "spawn-taken", index: found.index, agent, at: now });
	return found.line;
}

/** The id the rules know a subagent by: its tool call's, where its start took one up; else the host's own. */
export function ruleIdOf(store: SessionLog, hostAgent: string): string {
	const lines = store.lines();
	const taken = lines.find((line) => line.kind === "spawn-taken" && line.agent === hostAgent);
	if (taken?.kind !== "spawn-taken") return hostAgent;
	const spawn = lines.flatMap((line) => (line.kind === "spawn" ? [line] : []))[taken.index];
	return spawn?.id ?? hostAgent;
}

/** A subagent whose start the rules refused: kept, so that whatever it does next ends it. */
export function refuseSpawn(store: SessionLog, agent: string, reason: string, now: number): void {
	store.appendLine({ kind: "spawn-refused", agent, reason, at: now });
}

/** Why the rules refused a subagent's start, or null for one they let start. */
export function refusedSpawn(store: SessionLog, agent: string): string | null {
	const refused = store.lines().find((line) => line.kind === "spawn-refused" && line.agent === agent);
	return refused?.kind === "spawn-refused" ? refused.reason : null;
}
