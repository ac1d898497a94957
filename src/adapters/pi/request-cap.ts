// Writes the cap the rules set on a model call's answer into the request pi is about to send (`before_provider_request`),
// in the field of the call's API, never raising a lower limit the request has. Where the request thinks within its answer
// (Anthropic's and Bedrock's thinking budget, Gemini's), the thinking budget is lowered to leave room for the answer.

/** The room pi leaves for the answer beside a thinking budget, and the smallest budget Anthropic takes. */
const ANSWER_BESIDE_THINKING = 1_024;

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function limitIn(fields: Fields, key: string): number | undefined {
	const value = fields[key];
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * `fields` with `key` at most `cap.maxTokens` (a copy), or null when it is already there or lower. An absent limit is set,
 * no higher than the model's largest answer, unless `onlyLower` (an API whose request leaves it out on purpose).
 */
function lowered(fields: Fields, key: string, cap: Cap, onlyLower = false): Fields | null {
	const limit = limitIn(fields, key);
	if (limit !== undefined) return limit <= cap.maxTokens ? null : { ...fields, [key]: cap.maxTokens };
	if (onlyLower) return null;
	return { ...fields, [key]: cap.modelMax === undefined ? cap.maxTokens : Math.min(cap.maxTokens, cap.modelMax) };
}

/** The cap to write, and the model's largest answer where pi knows it. */
interface Cap {
	maxTokens: number;
	modelMax: number | undefined;
}

/** A thinking budget under `parent[key][budgetKey]` lowered below the new answer limit, so that an answer fits beside it. */
function withThinkingBelow(parent: Fields, key: string, budgetKey: string, maxTokens: number): Fields {
	const thinking = parent[key];
	if (!isFields(thinking)) return parent;
	const budget = limitIn(thinking, budgetKey);
	const most = Math.max(ANSWER_BESIDE_THINKING, maxTokens - ANSWER_BESIDE_THINKING);
	return budget === undefined || budget <= most ? parent : { ...parent, [key]: { ...thinking, [budgetKey]: most } };
}

/** The nested object `key` of `payload` changed by `change`, or null when it is absent or nothing changes. */
function nested(payload: Fields, key: string, change: (inner: Fields) => Fields | null): Fields | null {
	const inner = payload[key];
	if (!isFields(inner)) return null;
	const next = change(inner);
	return next === null ? null : { ...payload, [key]: next };
}

/**
 * The request of the model's API with its answer capped at `maxTokens` output tokens, or undefined to send it as it is
 * (already capped lower, an API Timebox does not know, a request of an unexpected shape).
 */
export function cappedPayload(
	model: { api?: unknown; maxTokens?: unknown } | undefined,
	payload: unknown,
	maxTokens: number,
): unknown {
	if (!isFields(payload)) return undefined;
	const modelMax = model?.maxTokens;
	const cap: Cap = { maxTokens, modelMax: typeof modelMax === "number" && modelMax > 0 ? modelMax : undefined };
	const api = model?.api;
	let capped: Fields | null = null;
	switch (api) {
		case "anthropic-messages": {
			const limit = lowered(payload, "max_tokens", cap);
			capped = limit && withThinkingBelow(limit, "thinking", "budget_tokens", maxTokens);
			break;
		}
		case "bedrock-converse-stream": {
			const limit = nested(payload, "inferenceConfig", (config) => lowered(config, "maxTokens", cap));
			capped =
				limit &&
				(nested(limit, "additionalModelRequestFields", (fields) =>
					withThinkingBelow(fields, "thinking", "budget_tokens", maxTokens),
				) ??
					limit);
			break;
		}
		case "openai-completions":
			capped =
				limitIn(payload, "max_completion_tokens") !== undefined
					? lowered(payload, "max_completion_tokens", cap)
					: lowered(payload, "max_tokens", cap);
			break;
		case "openai-responses":
		case "azure-openai-responses":
			capped = lowered(payload, "max_output_tokens", cap);
			break;
		case "openai-codex-responses":
			// pi leaves the field out where the ChatGPT backend refuses it.
			capped = lowered(payload, "max_output_tokens", cap, true);
			break;
		case "google-generative-ai":
		case "google-vertex":
			capped = nested(payload, "config", (config) => {
				const limit = lowered(config, "maxOutputTokens", cap);
				return limit && withThinkingBelow(limit, "thinkingConfig", "thinkingBudget", maxTokens);
			});
			break;
		case "mistral-conversations":
			capped = lowered(payload, "maxTokens", cap);
			break;
		case "pi-messages":
			capped = nested(payload, "options", (options) => lowered(options, "maxTokens", cap));
			break;
	}
	return capped ?? undefined;
}
