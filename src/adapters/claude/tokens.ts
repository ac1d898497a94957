// The tokens one Claude Code response used, every kind counted: the one count its transcript (classic hooks) and its
// hooks module's engine (function hooks) share, so both modes count a response alike. Claude Code's usage is the
// Anthropic API's: `input_tokens` (the prompt read afresh), `output_tokens` (what the model wrote, its thinking with
// it), `cache_read_input_tokens` and `cache_creation_input_tokens`, each apart from the others; the core adds them.

import { responseTokens } from "../../core/index.ts";

/** The usage fields Claude Code reports for a response, each a count of tokens. */
export interface ClaudeUsage {
	readonly input_tokens?: unknown;
	readonly output_tokens?: unknown;
	readonly cache_read_input_tokens?: unknown;
	readonly cache_creation_input_tokens?: unknown;
}

/** The tokens of one response: its counts in the core's terms, added there. */
export function tokensOf(usage: ClaudeUsage): number {
	return responseTokens({
		input: usage.input_tokens,
		output: usage.output_tokens,
		cacheRead: usage.cache_read_input_tokens,
		cacheWrite: usage.cache_creation_input_tokens,
	});
}
