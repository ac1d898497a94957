// Puts chosen usage on the scripted model's answers: pi's faux provider estimates usage itself and reports no cost, so
// the token and cost tests wrap its stream and give each answer the tokens and dollars they script.

import {
	type AssistantMessage,
	type AssistantMessageEvent,
	createAssistantMessageEventStream,
	type FauxProviderRegistration,
	getApiProvider,
	registerApiProvider,
	type Usage,
	unregisterApiProviders,
} from "@mariozechner/pi-ai";

/** What answer `call` (0-based) used: tokens (all counted as input) and dollars. */
export type MeteredUsage = (call: number) => { tokens: number; cost: number };

const SOURCE_ID = "timebox-e2e-metered";

function usageOf(metered: { tokens: number; cost: number }): Usage {
	return {
		input: metered.tokens,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: metered.tokens,
		cost: { input: metered.cost, output: 0, cacheRead: 0, cacheWrite: 0, total: metered.cost },
	};
}

function withUsage(message: AssistantMessage, usage: Usage): AssistantMessage {
	return { ...message, usage };
}

function rewrite(event: AssistantMessageEvent, usage: Usage): AssistantMessageEvent {
	if (event.type === "done") return { ...event, message: withUsage(event.message, usage) };
	if (event.type === "error") return { ...event, error: withUsage(event.error, usage) };
	return { ...event, partial: withUsage(event.partial, usage) };
}

/**
 * Makes every answer of `faux` report `usage(call)`. Returns the function that removes the wrapper (each test's faux
 * provider has an api of its own, so nothing else is touched).
 */
export function meter(faux: FauxProviderRegistration, usage: MeteredUsage): () => void {
	const original = getApiProvider(faux.api);
	if (!original) throw new Error(`no provider registered for ${faux.api}`);
	let calls = 0;
	const wrap =
		(stream: typeof original.stream): typeof original.stream =>
		(model, context, options) => {
			const metered = usageOf(usage(calls++));
			const inner = stream(model, context, options);
			const outer = createAssistantMessageEventStream();
			void (async () => {
				for await (const event of inner) outer.push(rewrite(event, metered));
				outer.end(withUsage(await inner.result(), metered));
			})();
			return outer;
		};
	registerApiProvider(
		{ api: faux.api, stream: wrap(original.stream), streamSimple: wrap(original.streamSimple) },
		SOURCE_ID,
	);
	return () => unregisterApiProviders(SOURCE_ID);
}
