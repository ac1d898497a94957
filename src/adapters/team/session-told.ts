// What a hook host's session was told by its daily ledger, kept from one hook to the next: each hook is a process of
// its own, so a problem of the daily ledger or of the team's store (a team set wrongly, a store that cannot be reached
// or that refuses this user) would otherwise be said again at every hook, twice per tool call. Kept with it: why and
// until when the team's store is left alone, so that the hooks after a failure do not each wait for it again.
//
// One small JSON file per session, in the host's data folder, written whole (a temporary file renamed) and only when
// it changes. A file that cannot be read is nothing told; one that cannot be written is said again at worst. Two hooks
// of one session that run at once may each say a problem once.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Clock, SESSION_TOLD_KEPT_MS } from "../../core/index.ts";
import type { Failure } from "./outage.ts";
import type { SessionTold } from "./told.ts";

/** What the file holds. */
interface Told {
	said: string[];
	failed: Failure | null;
}

const NOTHING_TOLD: Told = { said: [], failed: null };

/** A failure as the file holds it, or null. */
function failureOf(value: unknown): Failure | null {
	// A value read from the file: each field is checked below.
	const { why, until } = (value ?? {}) as Record<string, unknown>;
	// `until` a number (Number.isFinite alone would not say so to the type), and finite.
	return typeof why === "string" && typeof until === "number" && Number.isFinite(until) ? { why, until } : null;
}

/** The file's text as what was told; anything else is nothing told. */
function toldOf(text: string): Told {
	try {
		// A value read from the file: each field is checked below.
		const { said, failed } = (JSON.parse(text) ?? {}) as Record<string, unknown>;
		return {
			said: Array.isArray(said) ? said.filter((item): item is string => typeof item === "string") : [],
			failed: failureOf(failed),
		};
	} catch {
		return NOTHING_TOLD;
	}
}

/** Whether two failures are the same (none and none among them). */
function sameFailure(a: Failure | null, b: Failure | null): boolean {
	return a?.why === b?.why && a?.until === b?.until;
}

/**
 * A session's told file in `folder` (the host's data folder's `told/`), read at its first use. A change is made to the
 * file as it is when it is written (read again then, for another hook of the session may have written it since), so
 * two hooks that run at once lose none of each other's. A new file first lets go of those of sessions untouched for
 * SESSION_TOLD_KEPT_MS.
 */
export function fileSessionTold(folder: string, sessionId: string, clock: Clock): SessionTold {
	const path = join(folder, `${sessionId}.json`);
	const fromFile = (): { told: Told; existed: boolean } => {
		try {
			return { told: toldOf(readFileSync(path, "utf8")), existed: true };
		} catch {
			return { told: NOTHING_TOLD, existed: false };
		}
	};
	let told: Told | null = null;
	const read = (): Told => {
		told ??= fromFile().told;
		return told;
	};
	/** Makes `change` to the file as it is now (null: nothing to change); what this process knows is then that. */
	const update = (change: (now: Told) => Told | null) => {
		const now = fromFile();
		const next = change(now.told);
		told = next ?? now.told;
		if (next === null) return;
		try {
			mkdirSync(folder, { recursive: true });
			if (!now.existed) letGoOfOld(folder, clock.now());
			const draft = `${path}.${process.pid}.tmp`;
			writeFileSync(draft, JSON.stringify(next));
			renameSync(draft, path);
		} catch {
			// Not kept: the session's next process may say it again, and try the store again.
		}
	};
	return {
		said: (text) => read().said.includes(text),
		first(text) {
			if (read().said.includes(text)) return false;
			let isNew = false;
			update((now) => {
				if (now.said.includes(text)) return null;
				isNew = true;
				return { ...now, said: [...now.said, text] };
			});
			return isNew;
		},
		failed: () => read().failed,
		keepFailed(failed) {
			if (sameFailure(read().failed, failed)) return;
			update((now) => (sameFailure(now.failed, failed) ? null : { ...now, failed }));
		},
	};
}

/** Removes the told files of sessions untouched for SESSION_TOLD_KEPT_MS. */
function letGoOfOld(folder: string, now: number): void {
	for (const name of readdirSync(folder)) {
		const path = join(folder, name);
		try {
			if (now - statSync(path).mtimeMs > SESSION_TOLD_KEPT_MS) rmSync(path);
		} catch {
			// Gone meanwhile (another session let go of it first).
		}
	}
}
