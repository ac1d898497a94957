// The cap on opencode's model calls. What a call tells of its size when Timebox sees it (the messages transform): the
// prompt tokens of the latest answer its messages carry, the UTF-8 bytes of that answer and of every message after it,
// and how far the part outside the messages grew since that answer's call (the tool definitions, which opencode passes
// through `tool.definition` just before, and the system prompt, which it builds just after, so the one of the session's
// previous call stands for it); a call with no answer before it counts all it can see. The model's prices come from
// `chat.params`, or for a model not seen yet from opencode's list of providers. `chat.params` writes the cap into
// `maxOutputTokens`, never raising a lower limit, nor setting one where opencode sends none.

import type { Message, Model, UserMessage } from "@opencode-ai/sdk";
import type { ModelPrices, ModelRequest } from "../../core/index.ts";
import { textSize } from "../node/text-size.ts";
import type { CallMessage } from "./calls.ts";
import type { Hooks } from "./host.ts";

/** What one opencode session's calls keep for the next: the system prompt, and the part outside the messages. */
interface SessionSizes {
	/** The largest system prompt's bytes of the agent's calls, and that of the call whose `chat.params` is to come. */
	system: number;
	pendingSystem: number;
	/** The part outside the messages of the call measured last, and of the call the latest answer seen came from. */
	callFixed: number;
	answered: { id: string; fixed: number } | null;
	/** The cap the rules set on the call about to be sent. */
	cap: number | undefined;
	/** opencode's own limit on the answers of the session's agent, as its latest call had it. */
	limit: number | undefined;
}

/** Looks a model up in opencode's list of providers. */
export type ModelLookup = (model: UserMessage["model"]) => Promise<Pick<Model, "cost" | "limit"> | undefined>;

/** What Timebox knows of a model: its prices, and its largest answer. */
interface KnownModel {
	prices: ModelPrices | undefined;
	limit: number | undefined;
}

/**
 * opencode's limit on an answer where its model names none (its `OUTPUT_TOKEN_MAX`), and above which it asks for no
 * more than that either.
 */
export const OPENCODE_ANSWER_LIMIT = 32_000;

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** The prompt tokens opencode recorded for an answer: input, cache read and cache write. */
function promptTokens(info: Message): number {
	if (info.role !== "assistant") return 0;
	return count(info.tokens.input) + count(info.tokens.cache.read) + count(info.tokens.cache.write);
}

/** Whether a message is an answer that reported its prompt. */
function answeredIn(message: CallMessage | undefined): boolean {
	return message !== undefined && promptTokens(message.info) > 0;
}

/**
 * A model's prices in dollars per million tokens, the dearer of its two tiers (above 200k tokens of context some models
 * cost more); none for a model priced at zero.
 */
export function pricesOfModel(model: Pick<Model, "cost"> | undefined): ModelPrices | undefined {
	const cost = model?.cost;
	if (cost === undefined) return undefined;
	const over = cost.experimentalOver200K;
	const prices = {
		input: Math.max(count(cost.input), count(over?.input)),
		output: Math.max(count(cost.output), count(over?.output)),
		cacheRead: Math.max(count(cost.cache?.read), count(over?.cache?.read)),
		cacheWrite: Math.max(count(cost.cache?.write), count(over?.cache?.write)),
	};
	return prices.input + prices.output + prices.cacheRead + prices.cacheWrite > 0 ? prices : undefined;
}

/** A model's prices and largest answer (none where opencode's list gives 0). */
function knownModel(model: Pick<Model, "cost" | "limit"> | undefined): KnownModel {
	const limit = count(model?.limit?.output);
	return { prices: pricesOfModel(model), limit: limit > 0 ? limit : undefined };
}

/** The sizes and caps of every opencode session of one process. */
export class OpencodeRequests {
	private readonly tools = new Map<string, number>();
	private readonly sessions = new Map<string, SessionSizes>();
	private readonly models = new Map<string, KnownModel>();

	constructor(private readonly lookup: ModelLookup) {}

	/** The hooks that show Timebox what opencode sends beside the messages. */
	readonly hooks: Pick<Hooks, "tool.definition" | "experimental.chat.system.transform"> = {
		"tool.definition": async (input, output) => {
			this.tools.set(input.toolID, textSize(output));
		},
		"experimental.chat.system.transform": async (input, output) => {
			if (input.sessionID !== undefined) this.sizesOf(input.sessionID).pendingSystem = textSize(output.system);
		},
	};

	/** The call's request as a model call event's field: none where it cannot be measured. */
	async requestOf(
		sessionId: string,
		messages: readonly CallMessage[],
		model: UserMessage["model"],
	): Promise<{ request?: ModelRequest }> {
		const request = await this.measure(sessionId, messages, model);
		return request === undefined ? {} : { request };
	}

	/**
	 * The request of the call `messages` are for (without Timebox's note), as the rules take it; undefined where it cannot
	 * be measured (the call then goes uncapped, and the budget stops after its answer, as before).
	 */
	async measure(
		sessionId: string,
		messages: readonly CallMessage[],
		model: UserMessage["model"],
	): Promise<ModelRequest | undefined> {
		try {
			const sizes = this.sizesOf(sessionId);
			let tools = 0;
			for (const size of this.tools.values()) tools += size;
			const fixed = sizes.system + tools;
			sizes.callFixed = fixed;
			let index = messages.length - 1;
			while (index >= 0 && !answeredIn(messages[index])) index--;
			let added = 0;
			for (let at = Math.max(index, 0); at < messages.length; at++) added += textSize(messages[at]);
			const answer = messages[index];
			const before = answer !== undefined && sizes.answered?.id === answer.info.id ? sizes.answered.fixed : 0;
			const measured: ModelRequest =
				answer === undefined
					? { addedBytes: added + fixed }
					: { answeredInput: promptTokens(answer.info), addedBytes: added + Math.max(0, fixed - before) };
			const known = await this.modelOf(model);
			if (known.prices !== undefined) measured.prices = known.prices;
			measured.answerLimit = sizes.limit ?? Math.min(known.limit ?? OPENCODE_ANSWER_LIMIT, OPENCODE_ANSWER_LIMIT);
			return measured;
		} catch {
			return undefined;
		}
	}

	/**
	 * Runs the rules on the model call of `messages` with its request's size (`handle`; none unless `capped`: a budget of
	 * tokens or cost is in force), and keeps the cap they set on its answer for `chat.params`.
	 */
	async handled<T extends { maxOutputTokens?: number }>(
		call: { sessionId: string; model: UserMessage["model"] },
		messages: readonly CallMessage[],
		handle: (request: { request?: ModelRequest }) => Promise<T>,
		capped = true,
	): Promise<T> {
		// Without a budget of tokens or cost, the request is not measured: nor is the model looked up, which on a
		// process's first call asks opencode's server for its providers before the call may go. Its part outside the
		// messages is then not known, so the answer to it leaves the next measured call all of its own to count (more
		// than it may have grown, never less).
		if (!capped) this.sizesOf(call.sessionId).callFixed = 0;
		const answer = await handle(capped ? await this.requestOf(call.sessionId, messages, call.model) : {});
		this.cap(call.sessionId, answer.maxOutputTokens);
		return answer;
	}

	/** The cap the rules set on the session's call about to be sent (none: send it as it is). */
	cap(sessionId: string, maxTokens: number | undefined): void {
		this.sizesOf(sessionId).cap = maxTokens;
	}

	/**
	 * `chat.params` of an agent's call: its system prompt and prices are kept for the next, and its limit lowered to the
	 * cap. The title and compaction calls are no agent's: they keep the cap for the call it was set on.
	 */
	params(
		call: { sessionID: string; agent: string; model: Pick<Model, "cost" | "limit" | "providerID" | "id"> },
		output: { maxOutputTokens: number | undefined },
		agentCall: boolean,
	): void {
		const sizes = this.sizesOf(call.sessionID);
		if (!agentCall) return;
		// The largest the session's agent calls had: opencode's title call builds its own, shorter one alongside.
		sizes.system = Math.max(sizes.system, sizes.pendingSystem);
		this.models.set(`${call.model.providerID}/${call.model.id}`, knownModel(call.model));
		const cap = sizes.cap;
		sizes.cap = undefined;
		const limit = output.maxOutputTokens;
		sizes.limit = limit;
		if (cap !== undefined && limit !== undefined && limit > cap) output.maxOutputTokens = cap;
	}

	/** An answer is complete: it came from the session's call measured last. */
	answered(info: Message): void {
		if (info.role !== "assistant") return;
		const sizes = this.sizesOf(info.sessionID);
		sizes.answered = { id: info.id, fixed: sizes.callFixed };
	}

	/** What is known of the user's model, looked up once per model. */
	private async modelOf(model: UserMessage["model"]): Promise<KnownModel> {
		const key = `${model.providerID}/${model.modelID}`;
		let known = this.models.get(key);
		if (known === undefined) {
			known = knownModel(await this.lookup(model));
			this.models.set(key, known);
		}
		return known;
	}

	private sizesOf(sessionId: string): SessionSizes {
		let sizes = this.sessions.get(sessionId);
		if (sizes === undefined) {
			sizes = { system: 0, pendingSystem: 0, callFixed: 0, answered: null, cap: undefined, limit: undefined };
			this.sessions.set(sessionId, sizes);
		}
		return sizes;
	}
}

/** opencode's list of providers as a model lookup: the model of that provider and id, or nothing when it fails. */
export function providersLookup(
	providers: () => Promise<{ data?: { providers: readonly { id: string; models: Record<string, Model> }[] } }>,
): ModelLookup {
	return async (model) => {
		try {
			const listed = await providers();
			return listed.data?.providers.find((provider) => provider.id === model.providerID)?.models[model.modelID];
		} catch {
			return undefined;
		}
	};
}
