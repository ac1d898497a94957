// What this machine used of a team's day while the team's store could not be reached, kept in a file until a session
// of any host on this machine reaches the store again and sends it: a hook host's process ends after each event, and
// a session may end before the store is back, so the use waits on disk, not in memory. Each entry has an id the store
// keeps, so an entry sent twice (a process killed after sending, two sessions sending at once) counts once.
//
// The folder holds `unsent.jsonl`, appended to a line at a time, and `sending-*.jsonl`: a sender first renames the
// file it sends (new lines go to a fresh `unsent.jsonl` meanwhile), and removes it once every entry was taken.

import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { appendLine } from "../node/append-line.ts";

/** Use kept to send to the team's day it belongs to. */
export interface UnsentUse {
	/** Unique: the store counts an id once. */
	id: string;
	/** The team's day it was used on, `YYYY-MM-DD`, and that day's end (epoch ms). */
	day: string;
	dayEnd: number;
	session: string;
	member: string;
	prompts: number;
	agentMs: number;
	tokens: number;
	cost: number;
	/**
	 * Kept only because the store could not say whether it keeps limits (a session with no daily budget of its own):
	 * added to the day only where the team's store keeps limits when it is sent.
	 */
	unheld?: true;
}

/** The unsent use of one batch, and how to let go of it once it was sent. */
export interface UnsentBatch {
	entries: UnsentUse[];
	/** Removes the batch: every entry in it was sent (or is of a day no longer kept). */
	sent(): void;
}

/** Where a machine keeps a team's unsent use. */
export interface TeamOutbox {
	/** Keeps `use` to send later; throws when it cannot be written. */
	keep(use: Omit<UnsentUse, "id">): void;
	/** Whether anything may be waiting: cheap, asked at a session's first call that gets through. */
	waiting(): boolean;
	/** The batches waiting to be sent, oldest first. */
	take(): UnsentBatch[];
}

const UNSENT = "unsent.jsonl";
const SENDING = /^sending-.+\.jsonl$/;

function isUnsent(value: unknown): value is UnsentUse {
	if (typeof value !== "object" || value === null) return false;
	const entry = value as Record<string, unknown>;
	const numbers = ["dayEnd", "prompts", "agentMs", "tokens", "cost"].every(
		(name) => typeof entry[name] === "number" && Number.isFinite(entry[name]) && (entry[name] as number) >= 0,
	);
	const texts = ["id", "day", "session", "member"].every((name) => typeof entry[name] === "string");
	return numbers && texts && (entry.unheld === undefined || entry.unheld === true);
}

/** The entries of a batch's text: a torn or damaged line is skipped. */
function entriesOf(text: string): UnsentUse[] {
	const entries: UnsentUse[] = [];
	for (const line of text.split("\n")) {
		if (line.trim() === "") continue;
		try {
			const entry: unknown = JSON.parse(line);
			if (isUnsent(entry)) entries.push(entry);
		} catch {
			// A line torn by a process killed mid-write: what it held is lost to the team, this machine counted it.
		}
	}
	return entries;
}

/** A team's unsent use in `folder` (one folder per team, in this machine's state folder). */
export function fileOutbox(folder: string, newId: () => string = randomUUID): TeamOutbox {
	const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";
	return {
		keep(use) {
			mkdirSync(folder, { recursive: true });
			appendLine(join(folder, UNSENT), `${JSON.stringify({ id: newId(), ...use })}\n`);
		},
		waiting() {
			try {
				return readdirSync(folder).some((name) => name === UNSENT || SENDING.test(name));
			} catch {
				return false;
			}
		},
		take() {
			try {
				renameSync(join(folder, UNSENT), join(folder, `sending-${Date.now()}-${newId()}.jsonl`));
			} catch {
				// None to take (or another session took it first): the batches already being sent are taken below.
			}
			const names = readdirSync(folder)
				.filter((name) => SENDING.test(name))
				.sort();
			const batches: UnsentBatch[] = [];
			for (const name of names) {
				const path = join(folder, name);
				let text: string;
				try {
					text = readFileSync(path, "utf8");
				} catch (error) {
					if (missing(error)) continue; // sent meanwhile by another session
					throw error;
				}
				const read = Buffer.byteLength(text);
				// A session that opened `unsent.jsonl` just before it was renamed writes its line here: a batch that grew
				// since it was read is kept, to be taken again (what was sent of it counts once).
				const sent = () => {
					if (sizeOf(path) <= read) rmSync(path, { force: true });
				};
				batches.push({ entries: entriesOf(text), sent });
			}
			return batches;
		},
	};
}

/** A file's size in bytes; 0 once it is gone. */
function sizeOf(path: string): number {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

/** The folder of a team's unsent use in this machine's state folder. */
export function outboxFolder(stateDir: string, team: string): string {
	// A team name is letters, digits, ".", "_" and "-": prefixed, even ".." names a folder of its own.
	return join(stateDir, "team", `team-${team}`);
}
