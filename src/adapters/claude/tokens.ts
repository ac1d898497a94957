// The tokens one Claude Code response used, every kind counted: the one count its transcript (classic hooks) and its
// hooks module's engine (function hooks) share, so both modes count a response alike.

/** The usage fields Claude Code reports for a response, each a count of tokens. */
const USAGE_FIELDS = [
	"input_tokens",
	"output_tokens",
	"cache_read_input_tokens",
	"cache_creation_input_tokens",
] as const;

/** The tokens of one response: the sum of its usage fields, each counted only where it is a finite positive number. */
export function tokensOf(usage: { readonly [field in (typeof USAGE_FIELDS)[number]]?: unknown }): number {
	return USAGE_FIELDS.reduce((sum, field) => {
		const count = usage[field];
		return sum + (typeof count === "number" && Number.isFinite(count) && count > 0 ? count : 0);
	}, 0);
}
