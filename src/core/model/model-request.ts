// What a host tells of a model request about to be sent, and a model's prices: a leaf beside events.ts.

/**
 * What a host tells of a model request about to be sent, for the cap on its answer: the input a request carries cannot be
 * capped, so the rules bound it from what the host saw of the request (see session/caps.ts).
 */
export interface ModelRequest {
	/**
	 * The prompt tokens (input, cache read and cache write, as the host reported them) of the latest answer the request
	 * carries, which reported any; absent where it carries none (a session's first call).
	 */
	answeredInput?: number;
	/**
	 * UTF-8 bytes of what the request carries after that answer's prompt: the answer itself and every message after it,
	 * and what else grew since (a longer system prompt). Without `answeredInput`: the whole request as the host shows it.
	 */
	addedBytes: number;
	/** The model's prices in US dollars per million tokens, where the host knows them; absent: no cost cap. */
	prices?: ModelPrices;
	/**
	 * The most output tokens the host lets the call answer with by itself (its own limit on the request), where it knows:
	 * a call in flight is held back at no more than that.
	 */
	answerLimit?: number;
}

/** A model's prices, in US dollars per million tokens. */
export interface ModelPrices {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}
