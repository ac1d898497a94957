// What a fake model API reports when it answers with as many tokens as each request allows: its input from the request's
// size (a token per four bytes of the request's body, the ratio of English text and JSON in a real tokenizer), and its
// output the request's own limit on its answer, or the API's default where the request names none.

/** Bytes of a request per input token a real API reports for English text and JSON. */
export const BYTES_PER_TOKEN = 4;

/** What one answer used, in a real API's two counts. */
export interface AsAllowed {
	input: number;
	output: number;
}

/** The number at `path` in a JSON body, if it is one. */
function numberAt(body: unknown, path: readonly string[]): number | undefined {
	let value = body;
	for (const key of path)
		value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The usage of an answer as long as the request allows: `fields` are where the API puts the limit (the first found
 * counts), `fallback` what it answers with where the request names none.
 */
export function asAllowed(body: string, fields: readonly (readonly string[])[], fallback: number): AsAllowed {
	const parsed: unknown = JSON.parse(body);
	const limit = fields.map((path) => numberAt(parsed, path)).find((value) => value !== undefined);
	return { input: Math.ceil(Buffer.byteLength(body, "utf8") / BYTES_PER_TOKEN), output: limit ?? fallback };
}

/** Where each API puts the limit on an answer. */
export const LIMIT_FIELDS = {
	anthropic: [["max_tokens"]],
	chat: [["max_completion_tokens"], ["max_tokens"]],
	responses: [["max_output_tokens"]],
	gemini: [["generationConfig", "maxOutputTokens"]],
} as const;
