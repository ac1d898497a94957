// The plugin's store file damaged (bytes appended or cut, a record garbled): Claude Code then refuses every read of
// it, which would lock every session out. Timebox reads the file itself, keeps every session entry that still parses
// (a spent budget stays spent), moves the damaged file aside, writes the kept entries back through `$.store`, and says
// so once, naming both files. Claude Code writes the file with two-space indentation, one top-level key per entry.

import { storeRepaired } from "../../../core/index.ts";
import type { Engine } from "./engine.ts";

/** Where the damaged file is moved: beside it, under this suffix, for the person to look at. */
export const DAMAGED_SUFFIX = ".damaged";

/** What a repair did: the file, the entries kept, and how many were skipped. */
export interface Repair {
	path: string;
	kept: Record<string, unknown>;
	skipped: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parsed(text: string): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(text);
		return isObject(value) ? value : null;
	} catch {
		return null;
	}
}

/** The start of each top-level line as Claude Code writes the store: two spaces, then a key's opening quote. */
const TOP_LEVEL_LINE = /^ {2}"/gm;

/**
 * The entries of a store file's text that still parse. Whole, or cut after its last entry (bytes appended), it is
 * read as it is; else each top-level entry (from one top-level line to the next) is read on its own, and the ones that
 * do not parse (garbled, or cut short) are counted as skipped.
 */
export function salvage(text: string): { kept: Record<string, unknown>; skipped: number } {
	const whole = parsed(text);
	if (whole !== null) return { kept: whole, skipped: 0 };
	const end = text.lastIndexOf("\n}");
	const prefix = end >= 0 ? parsed(text.slice(0, end + 2)) : null;
	if (prefix !== null) return { kept: prefix, skipped: 0 };
	const starts = [...text.matchAll(TOP_LEVEL_LINE)].map((match) => match.index);
	const kept: Record<string, unknown> = {};
	let skipped = 0;
	for (const [n, from] of starts.entries()) {
		const body = text.slice(from, starts[n + 1] ?? text.length).replace(/,?\s*(\n}\s*)?$/, "");
		const entry = parsed(`{${body}}`);
		if (entry === null) skipped++;
		else Object.assign(kept, entry);
	}
	return { kept, skipped };
}

/** The store file a failed read names (Claude Code's error says `store file <path> …`), or null. */
export function damagedPath(error: unknown): string | null {
	const message = error instanceof Error ? error.message : String(error);
	return /store file (\S+\.json)/.exec(message)?.[1] ?? null;
}

/** Moves the damaged file aside (replacing an older damaged copy), as one `sh`; exits other than 0 when it cannot. */
export const MOVE_ASIDE_SCRIPT = 'mv -f "$1" "$1$2"';

/**
 * Repairs the store file `path`: reads what it holds, moves it aside, and writes back the entries that parse. Throws
 * when the file cannot be read or moved (every guard then refuses, as with any store that cannot be read).
 */
export async function repairStore(engine: Engine, path: string): Promise<Repair> {
	const slash = path.lastIndexOf("/");
	const [folder, name] = [path.slice(0, slash), path.slice(slash + 1)];
	const size = (await engine.fs.list(folder)).find((entry) => entry.name === name)?.size ?? 0;
	const text = size > 0 ? await engine.fs.read(path, { offset: 0, length: size }) : "";
	const { kept, skipped } = salvage(text);
	const moved = await engine.process.run(["sh", "-c", MOVE_ASIDE_SCRIPT, "sh", path, DAMAGED_SUFFIX]);
	if (moved.exitCode !== 0) throw new Error(`could not move ${path} aside: ${moved.stderr.trim()}`);
	for (const [key, value] of Object.entries(kept)) await engine.store.set(key, value);
	return { path, kept, skipped };
}

/** What the person reads of a repair, once. */
export function repairNotice(repair: Repair): string {
	const entries = Object.keys(repair.kept).filter((key) => key !== "sessions").length;
	return storeRepaired(repair.path, entries, repair.skipped, `${repair.path}${DAMAGED_SUFFIX}`);
}
