// A tool call as the loop guard sees it: its hash (of the tool's name and its input as canonical JSON, keys sorted at
// every depth, so that the same call asked for again has the same hash however its host orders the input), that hash
// as the key the session's log keeps, and a short, single-line view of its input for the texts that name it.

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
		for (const key of sortedKeys(fields)) {
			const written = write(fields[key], open);
			if (written !== undefined) parts.push(`${JSON.stringify(key)}:${written}`);
		}
		text = `{${parts.join(",")}}`;
	}
	open.delete(value);
	return text;
}

/**
 * An object's keys in the order canonical JSON writes them (by UTF-16 code units, as `sort()` orders strings): sorted
 * in place by insertion, which for the few keys of a tool's input costs a tenth of `sort()`.
 */
function sortedKeys(fields: object): string[] {
	const keys = Object.keys(fields);
	for (let index = 1; index < keys.length; index++) {
		const key = keys[index] as string;
		let at = index - 1;
		while (at >= 0 && (keys[at] as string) > key) {
			keys[at + 1] = keys[at] as string;
			at--;
		}
		keys[at + 1] = key;
	}
	return keys;
}

/** A call's 64 bits of hash, as two 32-bit lanes. */
export interface CallHash {
	readonly a: number;
	readonly b: number;
}

/** The two lanes of a hash being made. */
interface Lanes {
	a: number;
	b: number;
}

/**
 * A call's hash: its tool's name and its input walked as canonical JSON is written (keys sorted at every depth, arrays
 * in order, a field JSON leaves out left out, a value met again inside itself as `null`), each part tagged with its
 * kind and length, so two calls have the same hash when their canonical JSON is the same (and two different calls
 * share one by chance about once in 2^64). Nothing is written out: the walk feeds the hash.
 */
export function callHash(call: ToolCallSeen): CallHash {
	const lanes: Lanes = { a: 0x811c9dc5, b: 0x9e3779b1 };
	feedText(lanes, call.tool);
	feedValue(lanes, call.input, []);
	return finish(lanes);
}

/** A call's key as the session's log keeps it: its hash in 16 hex digits. */
export function callKey(call: ToolCallSeen): string {
	return keyOf(callHash(call));
}

/** A hash as 16 hex digits. */
export function keyOf(hash: CallHash): string {
	return hex(hash.a) + hex(hash.b);
}

/** A key as `keyOf` writes it: 16 hex digits. */
const KEY = /^[0-9a-f]{16}$/;

/** The hash a key names: its own 64 bits, or, for a key of another form (a log edited by hand), the hash of its text. */
export function hashOfKey(key: string): CallHash {
	if (KEY.test(key)) return { a: Number.parseInt(key.slice(0, 8), 16), b: Number.parseInt(key.slice(8), 16) };
	return hashText(key);
}

/** 64 bits of hash of a text. */
export function hashText(text: string): CallHash {
	const lanes: Lanes = { a: 0x811c9dc5, b: 0x9e3779b1 };
	feedText(lanes, text);
	return finish(lanes);
}

function feed(lanes: Lanes, code: number): void {
	lanes.a = Math.imul(lanes.a ^ code, 0x01000193);
	lanes.b = Math.imul(lanes.b ^ code, 0x5bd1e995);
}

/**
 * A text: its kind, its length, then its characters two at a time (each code fits 16 bits), an odd last one alone. The
 * lanes are kept in locals: this loop is most of what a call costs.
 */
function feedText(lanes: Lanes, text: string): void {
	feed(lanes, TEXT);
	feed(lanes, text.length);
	let { a, b } = lanes;
	const pairs = text.length - 1;
	let index = 0;
	for (; index < pairs; index += 2) {
		const pair = text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16);
		a = Math.imul(a ^ pair, 0x01000193);
		b = Math.imul(b ^ pair, 0x5bd1e995);
	}
	if (index < text.length) {
		const last = text.charCodeAt(index);
		a = Math.imul(a ^ last, 0x01000193);
		b = Math.imul(b ^ last, 0x5bd1e995);
	}
	lanes.a = a;
	lanes.b = b;
}

/** Tags of the parts of a value, apart from any character's code (which stays below 0x10000). */
const TEXT = 0x10001;
const NUMBER = 0x10002;
const TRUE = 0x10003;
const FALSE = 0x10004;
const NULL = 0x10005;
const ARRAY = 0x10006;
const OBJECT = 0x10007;
const END = 0x10008;
const WHOLE = 0x10009;

/** Whether canonical JSON writes a field of this value (it leaves out `undefined`, functions and symbols). */
function written(value: unknown): boolean {
	const kind = typeof value;
	return kind !== "undefined" && kind !== "function" && kind !== "symbol";
}

function feedValue(lanes: Lanes, value: unknown, open: object[]): void {
	switch (typeof value) {
		case "string":
			feedText(lanes, value);
			return;
		case "number":
			if (!Number.isFinite(value)) break;
			// A whole number of 32 bits is fed as it is (-0 as 0, as JSON writes it); any other as JSON writes it.
			if ((value | 0) === value) {
				feed(lanes, WHOLE);
				feed(lanes, value);
			} else {
				feed(lanes, NUMBER);
				feedText(lanes, String(value));
			}
			return;
		case "boolean":
			feed(lanes, value ? TRUE : FALSE);
			return;
		case "bigint":
			feedText(lanes, value.toString());
			return;
		case "object":
			if (value === null || open.includes(value)) break;
			feedObject(lanes, value, open);
			return;
	}
	feed(lanes, NULL);
}

function feedObject(lanes: Lanes, value: object, open: object[]): void {
	open.push(value);
	if (Array.isArray(value)) {
		feed(lanes, ARRAY);
		feed(lanes, value.length);
		for (const item of value) feedValue(lanes, item, open);
	} else {
		const fields = value as Record<string, unknown>;
		feed(lanes, OBJECT);
		for (const key of sortedKeys(fields)) {
			const field = fields[key];
			if (!written(field)) continue;
			feedText(lanes, key);
			feedValue(lanes, field, open);
		}
	}
	feed(lanes, END);
	open.pop();
}

/** The lanes mixed into each other, each bit of the input reaching every bit of both. */
function finish(lanes: Lanes): CallHash {
	let { a, b } = lanes;
	a ^= b >>> 15;
	a = Math.imul(a, 0x85ebca6b);
	b ^= a >>> 13;
	b = Math.imul(b, 0xc2b2ae35);
	a ^= b >>> 16;
	b ^= a >>> 16;
	return { a: a >>> 0, b: b >>> 0 };
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
