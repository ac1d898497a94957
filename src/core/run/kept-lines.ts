// The readings of a session's kept lines share: a value read and the effects that mark it taken, the effect that writes
// a line, and the lines of one kind. A leaf of run/session-log.ts and run/log-queues.ts.

import type { Effect, LogLine } from "../model/events.ts";
import type { KeptLine } from "../model/log-line.ts";

/** A value read from the log, and the effects that mark it taken. */
export interface Taken<T> {
	value: T;
	effects: Effect[];
}

/** The effect that writes one line to the session's log. */
export const write = (line: LogLine): Effect => ({ kind: "logLine", line });

/**
 * The lines of one kind, in order. An indexed loop, and no array per line: a hook runs these once, before the JIT has
 * warmed up, over every line a long session kept, and a fresh process pays for every object it makes.
 */
export function linesOfKind<K extends KeptLine["kind"]>(
	lines: readonly KeptLine[],
	kind: K,
): Extract<KeptLine, { kind: K }>[] {
	const found: Extract<KeptLine, { kind: K }>[] = [];
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] as KeptLine;
		if (line.kind === kind) found.push(line as Extract<KeptLine, { kind: K }>);
	}
	return found;
}
