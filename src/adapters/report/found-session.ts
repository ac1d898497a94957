// One session of any host found on the machine, as the report and a suggested budget read it, and the folders it is
// found by: the host readers that find them are the report's entry's (src/entries/report/sources.ts).

import { homedir } from "node:os";
import { resolve } from "node:path";
import type { HistoryItem, HostTerms, LedgerLookup, PastSession } from "../../core/index.ts";

/** One session found on the machine: its id and host, when it was last written, and how to read it. */
export interface FoundSession {
	id: string;
	host: string;
	modified: number;
	history(): readonly HistoryItem[];
	ledger: LedgerLookup;
	/** What the host measures: a figure it cannot is left out of the report. */
	terms: HostTerms;
	/** The file it is read from (and its key there): what a cache of what it used is kept by, with `modified`. */
	key: string;
	/** The working folder it ran in, where its history says; null where it does not. */
	project(): string | null;
	/** What it used, for a suggested budget; null for a session that does not count (no prompt ran in it). */
	past(): PastSession | null;
}

/** The home folder of `env`, where every host keeps its sessions: HOME, else the user's. */
export function homeOf(env: NodeJS.ProcessEnv): string {
	return env.HOME ?? homedir();
}

/** The same folder, however it was written (`/work/app/`, `/work/./app`). */
export function sameFolder(a: string | null, b: string): boolean {
	return a !== null && resolve(a) === resolve(b);
}
