// One response's tokens, counted once in the core (`responseTokens`) and alike on every host: the same answer as pi,
// Claude Code (its transcript and its hooks module) and opencode report it comes to the same count, each host's fields
// mapped onto the core's, and a reasoning that opencode reports apart from the output counts as it does inside pi's and
// Claude Code's output.

import type { AssistantMessage } from "@opencode-ai/sdk";
import { describe, expect, it } from "vitest";
import { tokensOf as claudeTokens } from "../../src/adapters/claude/tokens.ts";
import { usageOf as opencodeUsage } from "../../src/adapters/opencode/calls.ts";
import { usageOf as piUsage, usageOfSubagents } from "../../src/adapters/pi/usage.ts";
import { responseTokens } from "../../src/core/index.ts";

/** One answer: 500 tokens of prompt read afresh, 2,000 from the cache, 10 written to it, 100 written of which 40 reasoning. */
const ANSWER = { input: 500, cacheRead: 2_000, cacheWrite: 10, output: 100, reasoning: 40 };
const TOTAL = 2_610;

function opencodeMessage(tokens: AssistantMessage["tokens"]): AssistantMessage {
	return {
		id: "msg_2",
		sessionID: "ses_1",
		role: "assistant",
		time: { created: 1, completed: 2 },
		parentID: "msg_1",
		modelID: "fake-model",
		providerID: "fake",
		mode: "build",
		path: { cwd: "/project", root: "/project" },
		cost: 0,
		tokens,
	};
}

describe("a response's tokens", () => {
	it.each([
		["every kind", { input: 1, output: 2, reasoning: 4, cacheRead: 8, cacheWrite: 16 }, 31],
		["none", {}, 0],
		[
			"what is not a finite positive number, as none",
			{ input: -5, output: Number.NaN, cacheRead: "9", cacheWrite: Number.POSITIVE_INFINITY, reasoning: 3 },
			3,
		],
	])("are the sum of its counts: %s", (_name, used, tokens) => {
		expect(responseTokens(used)).toBe(tokens);
	});

	it("come to the same count from each host's own report of the same answer", () => {
		const { input, cacheRead, cacheWrite, output, reasoning } = ANSWER;
		// pi's providers add the reasoning to `output`.
		const pi = { input, output, cacheRead, cacheWrite, totalTokens: TOTAL, cost: { total: 0.01 } };
		expect(piUsage({ role: "assistant", usage: pi })).toEqual({ tokens: TOTAL, cost: 0.01 });
		expect(usageOfSubagents({ results: [{ usage: { ...pi, cost: 0.01 } }] })).toEqual({ tokens: TOTAL, cost: 0.01 });
		// Claude Code's usage is the Anthropic API's: thinking is part of `output_tokens`.
		const claude = {
			input_tokens: input,
			output_tokens: output,
			cache_read_input_tokens: cacheRead,
			cache_creation_input_tokens: cacheWrite,
		};
		expect(claudeTokens(claude)).toBe(TOTAL);
		// opencode takes the reasoning out of `output` and reports it apart.
		const opencode = opencodeMessage({
			input,
			output: output - reasoning,
			reasoning,
			cache: { read: cacheRead, write: cacheWrite },
		});
		expect(opencodeUsage(opencode)?.tokens).toBe(TOTAL);
	});
});
