// What a pi model call tells of its size, for the cap on its answer: the prompt tokens of the latest answer its messages
// carry (as pi recorded them), the UTF-8 bytes of that answer and of every message after it, and how far the part of the
// request outside the messages (the system prompt and the tool definitions) grew since that answer's call. A call with no
// answer before it counts the bytes of all of it. Only the messages since the answer are read, so a call costs the same
// at any session size.

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { ModelPrices, ModelRequest } from "../../core/index.ts";
import { textSize } from "../node/text-size.ts";

/** A message of a pi model call, as far as its size is concerned. */
interface CallMessage {
	role?: unknown;
	timestamp?: unknown;
	usage?: unknown;
}

/** What a call carries beside its messages: its system prompt (a text, or oh-my-pi's sections) and its tools. */
export interface FixedPart {
	systemPrompt: unknown;
	/** The active tools' names, read at every call; `definitions` is read only when they change. */
	toolNames: readonly string[];
	definitions: () => unknown;
}

/** The prompt tokens an answer's `usage` reports: input, cache read and cache write. */
function promptTokens(usage: unknown): number {
	if (typeof usage !== "object" || usage === null) return 0;
	const { input, cacheRead, cacheWrite } = usage as { input?: unknown; cacheRead?: unknown; cacheWrite?: unknown };
	return count(input) + count(cacheRead) + count(cacheWrite);
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Measures each model call of one pi session for the cap: remembers the size of the part outside the messages at each
 * call, and of the call each answer came from.
 */
export class RequestMeter {
	private systemPrompt: unknown = null;
	private systemBytes = 0;
	private toolsKey: string | null = null;
	private toolsBytes = 0;
	/** The part outside the messages of the call being answered, and of the call that gave the latest answer seen. */
	private callFixed = 0;
	private answered: { at: unknown; fixed: number } | null = null;

	/** The call about to be sent: its messages (without Timebox's note) and the part outside them. */
	measure(messages: readonly CallMessage[], fixed: FixedPart): Omit<ModelRequest, "prices"> {
		const fixedBytes = this.fixedBytes(fixed);
		this.callFixed = fixedBytes;
		let index = messages.length - 1;
		while (index >= 0 && !(messages[index]?.role === "assistant" && promptTokens(messages[index]?.usage) > 0)) index--;
		let added = 0;
		for (let at = Math.max(index, 0); at < messages.length; at++) added += textSize(messages[at]);
		const answer = messages[index];
		if (answer === undefined) return { addedBytes: added + fixedBytes };
		// An answer this meter did not see (before a reload) may have come from a call with a smaller fixed part.
		const before = this.answered !== null && this.answered.at === answer.timestamp ? this.answered.fixed : 0;
		return { answeredInput: promptTokens(answer.usage), addedBytes: added + Math.max(0, fixedBytes - before) };
	}

	/**
	 * A call let go unmeasured: an answer to it tells nothing of its part outside the messages, so the next measured call
	 * counts all of its own (more than it may have grown, never less).
	 */
	skip(): undefined {
		this.callFixed = 0;
		return undefined;
	}

	/** An answer arrived: it came from the call measured last, or let go unmeasured. */
	answer(message: CallMessage): void {
		if (message.role === "assistant") this.answered = { at: message.timestamp, fixed: this.callFixed };
	}

	/** The bytes of the system prompt and the active tools' definitions, each read again only when it changed. */
	private fixedBytes(fixed: FixedPart): number {
		if (fixed.systemPrompt !== this.systemPrompt) {
			this.systemPrompt = fixed.systemPrompt;
			this.systemBytes = textSize(fixed.systemPrompt);
		}
		const key = fixed.toolNames.join("\n");
		if (key !== this.toolsKey) {
			this.toolsKey = key;
			this.toolsBytes = textSize(fixed.definitions());
		}
		return this.systemBytes + this.toolsBytes;
	}
}

/**
 * The model's prices in dollars per million tokens, as pi lists them, or nothing for a model priced at zero or not known
 * (its cost budget is not enforced, and said so when set).
 */
export function pricesOf(model: { cost?: unknown } | undefined): ModelPrices | undefined {
	const cost = model?.cost;
	if (typeof cost !== "object" || cost === null) return undefined;
	const { input, output, cacheRead, cacheWrite } = cost as Record<string, unknown>;
	const prices = {
		input: count(input),
		output: count(output),
		cacheRead: count(cacheRead),
		cacheWrite: count(cacheWrite),
	};
	return prices.input + prices.output + prices.cacheRead + prices.cacheWrite > 0 ? prices : undefined;
}

/**
 * The request of the model call about to be sent, as the rules take it, or undefined where it cannot be measured (the
 * call then goes uncapped, and the budget stops after its answer, as before).
 */
export function requestOfCall(
	meter: RequestMeter,
	messages: readonly CallMessage[],
	pi: Pick<ExtensionAPI, "getActiveTools" | "getAllTools">,
	ctx: Pick<ExtensionContext, "getSystemPrompt" | "model">,
): ModelRequest | undefined {
	try {
		const toolNames = pi.getActiveTools();
		const definitions = () =>
			pi
				.getAllTools()
				.filter((tool) => toolNames.includes(tool.name))
				.map(({ name, description, parameters }) => ({ name, description, parameters }));
		const measured: ModelRequest = meter.measure(messages, {
			systemPrompt: ctx.getSystemPrompt(),
			toolNames,
			definitions,
		});
		const prices = pricesOf(ctx.model);
		if (prices !== undefined) measured.prices = prices;
		// pi asks for no more than the model's largest answer.
		const largest = ctx.model?.maxTokens;
		if (typeof largest === "number" && largest > 0) measured.answerLimit = largest;
		return measured;
	} catch {
		return undefined;
	}
}
