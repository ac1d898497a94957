// The offline scripted model of the host demos (`npm start -- <host>`), as pi's demo model behaves: each prompt gets one
// short bash step, then a reply that says it is done, or that it is wrapping up when Timebox's warning is in the call.
// Readers for each model API turn a request body into the same few facts.

/** The one fixed, harmless command the model asks the host to run. User text is never put into it. */
export const DEMO_STEP = "sleep 2";

/** What the scripted model needs from a request: is it the call after the step, and the current prompt's texts. */
export interface DemoCall {
	/** The step's result is in the current prompt's messages. */
	afterStep: boolean;
	/** Every text of the current prompt's messages (since the last finished reply) and of the system prompt. */
	texts: string[];
}

/** The scripted answer: run the step, or a text. */
export type DemoReply = { step: string } | { text: string };

const WARNING_MARKER = "TIMEBOX WARNING";
const FINISH_MARKER = /TIMEBOX: (?:STEPS|BUDGET) SPENT/;

/** The step first; after it, a reply that says what Timebox told the model, if anything. */
export function demoReply(call: DemoCall): DemoReply {
	if (!call.afterStep) return { step: DEMO_STEP };
	const notes = call.texts.join("\n");
	if (FINISH_MARKER.test(notes)) {
		return { text: "Timebox says this prompt must finish now, so I stop here: the demo step is done, nothing else." };
	}
	if (notes.includes(WARNING_MARKER)) {
		// What the warning block says is left, in its own words ("Time left: …", "Turns: this is the last prompt …").
		// A note may come more than once in a prompt (at its start, after the step): the newest of each kind counts.
		const newest = new Map<string, string>();
		for (const line of notes.split("\n").map((text) => text.trim())) {
			const kind = /^(Time left|Turns left|Turns): /.exec(line)?.[1];
			if (kind !== undefined) newest.set(kind, line);
		}
		const left = [...newest.values()].join(" ");
		return {
			text:
				"The demo step is done. The timebox is nearly spent, so I am wrapping up here instead of starting anything " +
				`new.${left === "" ? "" : `\n\nWhat Timebox told me: ${left}`}`,
		};
	}
	return {
		text:
			"The demo step is done. I am an offline scripted model, so I only pretend to work on it. Timebox has not " +
			"warned me that a budget is nearly spent, so there is room for more.",
	};
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Every string inside a JSON value, depth first. */
export function stringsIn(value: Json | undefined): string[] {
	if (typeof value === "string") return [value];
	if (Array.isArray(value)) return value.flatMap(stringsIn);
	if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
	return [];
}

function objects(value: Json | undefined): JsonObject[] {
	return Array.isArray(value)
		? value.filter((item): item is JsonObject => item !== null && typeof item === "object" && !Array.isArray(item))
		: [];
}

function blocks(message: JsonObject | undefined, field: string): JsonObject[] {
	return objects(message?.[field]);
}

/** The items after the last finished reply (one `isFinished` says is), and whether a step's result is among them. */
function callOf(
	items: JsonObject[],
	isFinished: (item: JsonObject, index: number) => boolean,
	isStepResult: (item: JsonObject) => boolean,
	system: Json | undefined,
): DemoCall {
	const current = items.slice(items.findLastIndex(isFinished) + 1);
	// A prompt gets one step: once its result is in the prompt's messages, the step has run (a host may put a note of
	// its own after the result, as Claude Code does with a hook's context).
	return { afterStep: current.some(isStepResult), texts: [...stringsIn(system), ...current.flatMap(stringsIn)] };
}

/** Anthropic Messages (Claude Code). */
export function anthropicCall(body: JsonObject): DemoCall {
	const hasBlock = (message: JsonObject, type: string) => blocks(message, "content").some((b) => b.type === type);
	return callOf(
		objects(body.messages),
		(message) => message.role === "assistant" && !hasBlock(message, "tool_use"),
		(message) => message.role === "user" && hasBlock(message, "tool_result"),
		body.system,
	);
}

/** OpenAI Responses (Codex CLI, oh-my-pi): a finished reply is an assistant message no function call follows. */
export function responsesCall(body: JsonObject): DemoCall {
	const items = objects(body.input);
	const isCall = (item: JsonObject | undefined) => typeof item?.type === "string" && item.type.endsWith("call");
	return callOf(
		items,
		(item, index) => item.role === "assistant" && !isCall(items[index + 1]),
		(item) => typeof item.type === "string" && item.type.endsWith("call_output"),
		body.instructions,
	);
}

/** OpenAI chat completions (opencode). */
export function chatCall(body: JsonObject): DemoCall {
	return callOf(
		objects(body.messages),
		(message) => message.role === "assistant" && objects(message.tool_calls).length === 0,
		(message) => message.role === "tool",
		undefined,
	);
}

/** Gemini generateContent (Gemini CLI). */
export function geminiCall(body: JsonObject): DemoCall {
	const hasPart = (content: JsonObject, field: string) => blocks(content, "parts").some((part) => field in part);
	return callOf(
		objects(body.contents),
		(content) => content.role === "model" && !hasPart(content, "functionCall"),
		(content) => hasPart(content, "functionResponse"),
		body.systemInstruction,
	);
}

/** Parses a request body to a JSON object ({} when it is not one). */
export function parseBody(text: string): JsonObject {
	const parsed = JSON.parse(text) as Json;
	return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
}

/** Whether a request offers tools: a title or summary request does not, and gets a plain text. */
export function offersTools(body: JsonObject): boolean {
	return objects(body.tools).length > 0;
}
