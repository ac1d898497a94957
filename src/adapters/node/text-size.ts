// The size of what a model request carries, for the bound on its input tokens: the UTF-8 bytes of every text in a value
// (its keys included), and a few bytes for each number, bracket and separator of its JSON, about the length of its JSON
// text, read without making that text (a tool's long output is counted, never copied).

/** The bytes counted for a number, `true`, `false` or `null`: as many as the longest of them takes in JSON. */
const SCALAR_BYTES = 24;

/** Nesting deeper than this is not followed (no message is nested so deep; a value that refers to itself would be). */
const MAX_DEPTH = 64;

/** The UTF-8 bytes of `value`'s texts with its JSON's brackets, quotes and separators. */
export function textSize(value: unknown, depth = 0): number {
	if (typeof value === "string") return Buffer.byteLength(value, "utf8") + 2;
	if (typeof value !== "object" || value === null) return value === undefined ? 0 : SCALAR_BYTES;
	if (depth >= MAX_DEPTH) return 0;
	let size = 2;
	if (Array.isArray(value)) {
		for (const item of value) size += textSize(item, depth + 1) + 1;
		return size;
	}
	for (const [key, item] of Object.entries(value))
		size += Buffer.byteLength(key, "utf8") + 4 + textSize(item, depth + 1);
	return size;
}
