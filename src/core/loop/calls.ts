// A tool call as the loop guard sees it: its key (a hash of the tool's name and its input written as canonical JSON,
// keys sorted at every depth, so that the same call asked for again has the same key however its host orders the
// input), and a short, single-line view of its input for the texts that name it.

import { LOOP_VIEW_CHARS } from "../constants.ts";

/** A tool call as a host shows it: the tool's name and its input (any JSON value, as the model wrote it). */
export interface ToolCallSeen {
	readonly tool: string;
	readonly input: unknown;
}

/**
 * The input written as canonical JSON: object keys sorted at every depth, arrays in order, what JSON leaves out (an
 * `undefined` field, a function) left out, a value met again inside itself written as `null`.
 * @example canonicalJson({ b: 1, a: [true, { d: null, c: "x" }] }) // '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
	return write(value, new Set()) ?? "null";
}

function write(value: unknown, open: Set<object>): string | undefined {
	if (value === null) return "null";
	switch (typeof value) {
		case "string":
			return JSON.stringify(value);
		case "number":
			return Number.isFinite(value) ? JSON.stringify(value) : "null";
		case "boolean":
			return value ? "true" : "false";
		case "bigint":
			return JSON.stringify(value.toString());
		case "object":
			break;
		default:
			return undefined;
	}
	if (open.has(value)) return "null";
	open.add(value);
	let text: string;
	if (Array.isArray(value)) {
		text = `[${value.map((item: unknown) => write(item, open) ?? "null").join(",")}]`;
	} else {
		const fields = value as Record<string, unknown>;
		const parts: string[] = [];
		for (const key of Object.keys(fields).sort()) {
			const written = write(fields[key], open);
			if (written !== undefined) parts.push(`${JSON.stringify(key)}:${written}`);
		}
		text = `{${parts.join(",")}}`;
	}
	open.delete(value);
	return text;
}

/**
 * The key of a call: 64 bits of hash (two 32-bit lanes, in hex) of its tool's name and canonical input. The same call
 * has the same key in every process; two different calls share one by chance about once in 2^64.
 * @example callKey({ tool: "bash", input: { command: "npm test" } }).length // 16
 */
export function callKey(call: ToolCallSeen): string {
	return hashText(`${call.tool}\u0000${canonicalJson(call.input)}`);
}

/** 64 bits of hash of a text, as 16 hex digits: two 32-bit lanes mixed from each character. */
export function hashText(text: string): string {
	let a = 0x811c9dc5;
	let b = 0x9e3779b1;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		a = Math.imul(a ^ code, 0x01000193);
		b = Math.imul(b ^ code, 0x5bd1e995);
		b ^= b >>> 15;
	}
	a ^= Math.imul(b ^ (b >>> 13), 0x85ebca6b);
	b ^= Math.imul(a ^ (a >>> 16), 0xc2b2ae35);
	return hex(a) + hex(b);
}

function hex(lane: number): string {
	return (lane >>> 0).toString(16).padStart(8, "0");
}

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
