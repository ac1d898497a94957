// Sets up Timebox's status line in the user's Claude Code settings, merging into what is there: a settings file without
// a status line gets Timebox's; one with another status line keeps it, wrapped, with Timebox's status after it.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SETTINGS_NOT_JSON, SETTINGS_NOT_OBJECT, STATUS_LINE_ALREADY_SET, statusLineSet } from "../../core/index.ts";

/** The status line command that runs Timebox's script, wrapping `theirs` when there is one. */
export function statusLineCommand(script: string, theirs: string | null): string {
	const own = `node ${shellQuote(script)} statusline`;
	return theirs === null ? own : `${own} --wrap ${shellQuote(theirs)}`;
}

/** Quotes a word for `/bin/sh`: single quotes, with each single quote closed, escaped and reopened. */
function shellQuote(word: string): string {
	return `'${word.replace(/'/g, `'\\''`)}'`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Merges Timebox's status line into the settings file's text (null: no file yet). Returns the new text, or null to
 * change nothing, and what the user is told. Settings that cannot be read are left alone.
 */
export function mergeStatusLine(text: string | null, script: string): { text: string | null; message: string } {
	let settings: unknown = {};
	if (text !== null && text.trim().length > 0) {
		try {
			settings = JSON.parse(text);
		} catch {
			return { text: null, message: SETTINGS_NOT_JSON };
		}
	}
	if (!isRecord(settings)) return { text: null, message: SETTINGS_NOT_OBJECT };
	const current = isRecord(settings.statusLine) ? settings.statusLine : null;
	const theirs = current && typeof current.command === "string" ? current.command : null;
	if (theirs?.includes(" statusline") && /timebox\.[cm]js/.test(theirs)) {
		return { text: null, message: STATUS_LINE_ALREADY_SET };
	}
	const statusLine = { ...current, type: "command", command: statusLineCommand(script, theirs), refreshInterval: 1 };
	const merged = { ...settings, statusLine };
	return { text: `${JSON.stringify(merged, null, 2)}\n`, message: statusLineSet(theirs !== null) };
}

/** Sets up the status line in `settingsFile` for the script at `script`, and says what was done. */
export function setupStatusLine(settingsFile: string, script: string): string {
	const text = existsSync(settingsFile) ? readFileSync(settingsFile, "utf8") : null;
	const merged = mergeStatusLine(text, script);
	if (merged.text !== null) {
		mkdirSync(dirname(settingsFile), { recursive: true });
		writeFileSync(settingsFile, merged.text);
	}
	return merged.message;
}

/** The prefix of Timebox's data folders under `~/.claude/plugins/data`: `timebox-inline`, `timebox-<marketplace>`. */
const DATA_FOLDER_PREFIX = "timebox-";

/**
 * The plugin's data folder for a status line call, which Claude Code does not tell: the one of Timebox's folders under
 * `~/.claude/plugins/data` that holds the session's log, else the only one there is; null when there is none.
 */
export function findDataDir(home: string, sessionId: string): string | null {
	const root = join(home, ".claude", "plugins", "data");
	let folders: string[];
	try {
		folders = readdirSync(root).filter((name) => name.startsWith(DATA_FOLDER_PREFIX));
	} catch {
		return null;
	}
	const withSession = folders.find((name) => existsSync(join(root, name, "sessions", `${sessionId}.jsonl`)));
	const chosen = withSession ?? (folders.length === 1 ? folders[0] : undefined);
	return chosen === undefined ? null : join(root, chosen);
}
