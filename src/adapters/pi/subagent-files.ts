// The files a pi subagent's process and its parent share (named in its environment, subagents.ts): the outcome the
// subagent writes at its end for its parent to read, and the stop its parent writes when the session's budget is spent
// while it runs, which the rules ask for (`stopSubagents`) and the subagent's process looks for before each model call
// and tool.

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { SubagentIdentity, SubagentOutcome } from "./subagents.ts";

/** Writes a subagent's outcome for its parent; a file that cannot be written leaves the parent the result alone. */
export function writeOutcome(path: string, outcome: SubagentOutcome): void {
	try {
		writeFileSync(path, JSON.stringify(outcome));
	} catch {
		// The parent reads the subagent's answer all the same, without the line.
	}
}

/** Reads (and removes) the outcome a subagent wrote; null where it wrote none (it was killed, or is no Timebox one). */
export function takeOutcome(path: string): SubagentOutcome | null {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		return null;
	}
	rmSync(path, { force: true });
	try {
		const value = JSON.parse(text) as Partial<SubagentOutcome>;
		// Written by the subagent's Timebox, of this version: read back as it was written.
		return {
			lines: Array.isArray(value.lines) ? value.lines.map(String) : [],
			notices: Array.isArray(value.notices) ? value.notices : [],
			record: value.record ?? null,
		};
	} catch {
		return null;
	}
}

/** Tells a running subagent's process that the session's budget is spent; one that cannot be told runs on. */
export function writeSessionStop(identity: SubagentIdentity): void {
	try {
		writeFileSync(identity.stop, "");
	} catch {
		// Its own budget still holds, and the main agent's tools are refused all the same.
	}
}

/** Whether the session this subagent runs in has spent its budget, as its parent said. */
export function sessionStopped(identity: SubagentIdentity): boolean {
	return existsSync(identity.stop);
}

/** Removes what a subagent's process and its parent left of it. */
export function forget(identity: SubagentIdentity): void {
	rmSync(identity.stop, { force: true });
}

/**
 * The subagents this session's tool calls started, each running in a process of its own until the call's result is
 * in; the port through which the rules' `stopSubagents` tells each of them, once, that the session's budget is spent.
 */
export class SubagentProcesses {
	private readonly running = new Map<string, { identity: SubagentIdentity; told: boolean }>();

	/** The call `callId` started the subagent named `identity`. */
	started(callId: string, identity: SubagentIdentity): void {
		this.running.set(callId, { identity, told: false });
	}

	/** The subagent the call started, now that its result is in (its stop removed); undefined for any other call. */
	ended(callId: string): SubagentIdentity | undefined {
		const one = this.running.get(callId);
		if (one === undefined) return undefined;
		this.running.delete(callId);
		forget(one.identity);
		return one.identity;
	}

	/** The session's budget became spent: every subagent running now is told, once (a later one runs on). */
	stopAll(): void {
		for (const one of this.running.values()) {
			if (one.told) continue;
			one.told = true;
			writeSessionStop(one.identity);
		}
	}
}
