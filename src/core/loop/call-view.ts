// A short, single-line view of a tool call's input, for the loop guard's texts that name the call.

import { LOOP_VIEW_CHARS } from "../constants.ts";
import { canonicalJson, type ToolCallSeen } from "./calls.ts";

/** The fields that say most of what a call does, in the order looked at, when its input has no command. */
const TELLING_FIELDS = ["cmd", "file_path", "filePath", "path", "pattern", "query", "url", "description", "prompt"];

/** The programs a command given as a list is run through (`["bash", "-lc", "npm test"]` is `npm test`). */
const SHELLS = new Set(["bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"]);

/**
 * A short, single-line view of a call's input: for a shell tool its command; else the input's most telling string (a
 * path, a pattern, a query…, else its first string); else its canonical JSON. Spaces and line breaks are made one
 * space, and a view longer than `LOOP_VIEW_CHARS` is cut with an ellipsis. Empty for an input with nothing to show.
 * @example callView({ tool: "bash", input: { command: "npm test" } }) // "npm test"
 */
export function callView(call: ToolCallSeen): string {
	const text = oneLine(tellingText(call.input));
	const chars = Array.from(text);
	return chars.length > LOOP_VIEW_CHARS ? `${chars.slice(0, LOOP_VIEW_CHARS - 1).join("")}…` : text;
}

function tellingText(input: unknown): string {
	if (typeof input === "string") return input;
	if (typeof input !== "object" || input === null || Array.isArray(input)) {
		return input === undefined ? "" : canonicalJson(input);
	}
	const fields = input as Record<string, unknown>;
	const command = commandOf(fields.command);
	if (command !== null) return command;
	for (const field of TELLING_FIELDS) {
		const value = fields[field];
		if (typeof value === "string" && value.trim().length > 0) return value;
	}
	const first = firstString(fields, 0);
	if (first !== null) return first;
	const json = canonicalJson(input);
	return json === "{}" ? "" : json;
}

/** A command as a string, or as a list of words (a shell's `-c` script is the command itself). */
function commandOf(value: unknown): string | null {
	if (typeof value === "string") return value.trim().length > 0 ? value : null;
	if (!Array.isArray(value) || value.length === 0 || !value.every((word) => typeof word === "string")) return null;
	const [program, flag, script, ...more] = value as string[];
	if (script !== undefined && more.length === 0 && SHELLS.has(program as string) && /^-\w*c$/.test(flag as string)) {
		return script;
	}
	return value.join(" ");
}

/** The first string with something in it, depth first, a few levels down at most. */
function firstString(value: unknown, depth: number): string | null {
	if (typeof value === "string") return value.trim().length > 0 ? value : null;
	if (typeof value !== "object" || value === null || depth > 3) return null;
	const fields = value as Record<string, unknown>;
	const items = Array.isArray(value)
		? value
		: Object.keys(fields)
				.sort()
				.map((key) => fields[key]);
	for (const item of items) {
		const found = firstString(item, depth + 1);
		if (found !== null) return found;
	}
	return null;
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}
