// The session log's three queues on the hook hosts, each a line kept and a line that marks it taken: owed and paid
// lines for a subagent's parent, untold and told notices of the watcher, spawned and taken calls of the subagent tool.
// Each reading is of the lines as read; each write is a `logLine` effect.

import type { Effect, LogLine } from "../model/events.ts";
import type { KeptLine } from "../model/log-line.ts";
import { linesOfKind, type Taken, write } from "./kept-lines.ts";

/** The lines an agent is to read with its next model call (its subagent's end, which the host did not put in). */
export function owe(to: string | null, lines: string[], now: number): Effect[] {
	return [write({ kind: "owed", to, lines, at: now })];
}

/** What an agent is still to read of the subagents it started, given once: taken with its next model call. */
export function owedTo(lines: readonly KeptLine[], to: string | null, now: number): Taken<string[]> {
	// One pass over the lines (a hook reads its whole log): the owed lines to `to`, and how many of them were paid.
	let paid = 0;
	const owedLines: string[][] = [];
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] as KeptLine;
		if (line.kind === "paid" && line.to === to) paid++;
		else if (line.kind === "owed" && line.to === to) owedLines.push(line.lines);
	}
	const owed = owedLines.slice(paid);
	return { value: owed.flat(), effects: owed.map(() => write({ kind: "paid", to, at: now })) };
}

/** What a watcher could tell nobody (the user was idle): kept for the next prompt. */
export function keepUntold(notices: string[], now: number): Effect[] {
	return [write({ kind: "untold", notices, at: now })];
}

/** What a watcher told nobody yet (the user was idle): shown with the next prompt, once. */
export function untoldNotices(lines: readonly KeptLine[], now: number): Taken<string[]> {
	// One pass over the lines (a hook reads its whole log): the untold notices, and how many were told since.
	let told = 0;
	const kept: string[][] = [];
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] as KeptLine;
		if (line.kind === "told") told++;
		else if (line.kind === "untold") kept.push(line.notices);
	}
	const untold = kept.slice(told);
	return { value: untold.flat(), effects: untold.map(() => write({ kind: "told", at: now })) };
}

/** A call (`id`) of the subagent tool the rules let through, by `agent` (null: the main agent): kept for the subagent. */
export function keepSpawn(
	id: string | null,
	agent: string | null,
	spawn: { agentType: string; task: string },
	now: number,
): Effect[] {
	return [write({ kind: "spawn", id, agent, ...spawn, at: now })];
}

/** A call of the subagent tool, as kept for the subagent that takes it up. */
export type KeptSpawn = Extract<LogLine, { kind: "spawn" }>;

/**
 * The call of the subagent tool a starting subagent takes up: the oldest not taken yet of its type (else of any type).
 * Null where the log holds none (the call came before Timebox had anything to do in the session).
 */
export function takeSpawn(
	lines: readonly KeptLine[],
	agent: string,
	agentType: string | null,
	now: number,
): Taken<KeptSpawn | null> {
	const taken = new Set(linesOfKind(lines, "spawn-taken").map((line) => line.index));
	const open = linesOfKind(lines, "spawn")
		.map((line, index) => ({ line, index }))
		.filter(({ index }) => !taken.has(index));
	const found = open.find(({ line }) => line.agentType === agentType) ?? open[0];
	if (!found) return { value: null, effects: [] };
	return { value: found.line, effects: [write({ kind: "spawn-taken", index: found.index, agent, at: now })] };
}

/** The id the rules know a subagent by: its tool call's, where its start took one up; else the host's own. */
export function ruleIdOf(lines: readonly KeptLine[], hostAgent: string): string {
	const taken = lines.find((line) => line.kind === "spawn-taken" && line.agent === hostAgent);
	if (taken?.kind !== "spawn-taken") return hostAgent;
	const spawn = linesOfKind(lines, "spawn")[taken.index];
	return spawn?.id ?? hostAgent;
}

/** A subagent whose start the rules refused: kept, so that whatever it does next ends it. */
export function refuseSpawn(agent: string, reason: string, now: number): Effect[] {
	return [write({ kind: "spawn-refused", agent, reason, at: now })];
}

/** Why the rules refused a subagent's start, or null for one they let start. */
export function refusedSpawn(lines: readonly KeptLine[], agent: string): string | null {
	const refused = lines.find((line) => line.kind === "spawn-refused" && line.agent === agent);
	return refused?.kind === "spawn-refused" ? refused.reason : null;
}
