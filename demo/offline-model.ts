// Offline scripted model for the Timebox demo (`npm start`): streams canned replies and one bash step, no network.
import type {
	Api,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Message,
	Model,
	SimpleStreamOptions,
	StreamFunction,
	TextContent,
	ToolCall,
	Usage,
} from "@mariozechner/pi-ai";
import { createAssistantMessageEventStream } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

/** Provider name the demo model is registered under (`--model timebox-demo/scripted`). */
export const DEMO_PROVIDER = "timebox-demo";
/** Model id of the scripted model. */
export const DEMO_MODEL_ID = "scripted";
/** Display name of the scripted model. */
export const DEMO_MODEL_NAME = "Timebox demo (offline, scripted)";
/** API id the stream handler is registered for; unique so no built-in provider is replaced. */
export const DEMO_API = "timebox-demo-scripted";
/** Literal dummy key: pi wants a key for every provider, this one is never sent anywhere. */
export const DEMO_API_KEY = "timebox-demo-offline-no-key";
/** The one fixed, harmless command the model asks pi to run. User text is never put into it. */
export const DEMO_COMMAND = 'sleep 2 && echo "demo step done"';
/** The quick step of a prompt that asks for a loop: the model repeats it until Timebox tells it to stop. */
export const LOOP_COMMAND = 'sleep 0.2 && echo "loop step done"';
/** Marker of Timebox's nudge block in a model call. */
export const NUDGE_MARKER = "TIMEBOX WARNING";
/** Marker of Timebox's notice that a prompt's steps, or the budget, are spent and the model must finish. */
export const FINISH_MARKER = /^TIMEBOX: (?:STEPS|BUDGET) SPENT/;

const ABORT_MESSAGE = "Request was aborted";
const PROMPT_QUOTE_LIMIT = 80;
const WORDS_PER_CHUNK = 2;
const JSON_CHUNKS = 3;
const MIN_CHUNK_DELAY_MS = 40;
const MAX_CHUNK_DELAY_MS = 80;

/** What the scripted model answers: some text and at most one tool call. */
export interface ScriptedReply {
	text: string;
	toolCall?: { name: string; arguments: Record<string, unknown> };
}

/** Waits before the next chunk; must settle early (resolve) when the signal aborts. */
export type ChunkDelay = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** Knobs for the stream, injectable so tests run without real timers. */
export interface ScriptedStreamOptions {
	/** Waits between chunks; defaults to a real timer that ends early on abort. */
	delay?: ChunkDelay;
	/** Picks the pause before each chunk in ms; defaults to a random 40–80 ms. */
	chunkDelayMs?: () => number;
}

/**
 * Picks the scripted reply for a context: a bash step first, then an answer after its tool result. A prompt that says
 * "loop" gets bash steps until Timebox says to finish (a runaway loop, for the step cap). Timebox's note, when there is
 * one, is the last message of the call.
 */
export function scriptedReply(context: Context): ScriptedReply {
	const note = timeboxNoteOf(context.messages);
	const messages = note === null ? context.messages : context.messages.slice(0, -1);
	const last = messages.at(-1);
	if (last?.role !== "toolResult") {
		return {
			text: "On it. Let me run one quick demo step first; it takes about two seconds.",
			toolCall: { name: "bash", arguments: { command: DEMO_COMMAND } },
		};
	}
	const prompt = quotePrompt(latestUserText(messages));
	if (note !== null && FINISH_MARKER.test(note)) {
		return {
			text: `Timebox says this prompt must finish now, so here is where it stands.\n\nYou asked: "${prompt}"\n\nDone: the demo steps so far. Left: the rest of the loop.`,
		};
	}
	if (/\bloop\b/i.test(prompt)) {
		return { text: "Another loop step.", toolCall: { name: "bash", arguments: { command: LOOP_COMMAND } } };
	}
	const left = note === null ? null : warnedOf(note);
	if (left !== null) {
		return {
			text:
				`The demo step is done. The timebox is nearly spent, so I am wrapping up here instead of starting ` +
				`anything new.\n\nYou asked: "${prompt}"\n\nWhat Timebox told me: ${left}\nThat is where I stop for now.`,
		};
	}
	return {
		text:
			`The demo step is done.\n\nYou asked: "${prompt}"\n\nI am an offline scripted model, so I only pretend to ` +
			`work on it. Timebox has not warned me that a budget is nearly spent, so there is room for more.`,
	};
}

/**
 * What Timebox's warning says is left, in its own words: the warning block's lines ("Time left: …", "Turns: this is the
 * last prompt …"), or a daily budget's line ("Today's budget …", "The team's budget …"); null for no warning.
 */
function warnedOf(note: string): string | null {
	const lines = note.split("\n");
	if (note.includes(NUDGE_MARKER))
		return lines.filter((line) => /^(Time left|Turns left|Turns): /.test(line)).join(" ");
	const daily = lines.filter((line) => DAILY_LINE.test(line));
	return daily.length > 0 ? daily.join(" ") : null;
}

/** A daily budget's line in Timebox's note, from 80% of it. */
const DAILY_LINE = /^(Today's budget|The team's budget) /;

/** Waits `ms` on a real timer, resolving at once when the signal aborts. */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		if (signal?.aborted) {
			resolve();
			return;
		}
		const onAbort = (): void => {
			clearTimeout(timer);
			resolve();
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/** Builds the `streamSimple` handler: streams `scriptedReply` chunk by chunk and honours `options.signal`. */
export function createScriptedStream(options: ScriptedStreamOptions = {}): StreamFunction<Api, SimpleStreamOptions> {
	const delay = options.delay ?? abortableDelay;
	const chunkDelayMs = options.chunkDelayMs ?? randomChunkDelayMs;
	return (model: Model<Api>, context: Context, streamOptions?: SimpleStreamOptions): AssistantMessageEventStream => {
		const stream = createAssistantMessageEventStream();
		const signal = streamOptions?.signal;
		void runScript(stream, model, context, signal, () => delay(chunkDelayMs(), signal));
		return stream;
	};
}

/** Registers the offline scripted model as provider `timebox-demo`, model `scripted`. */
export default function offlineModel(pi: ExtensionAPI): void {
	pi.registerProvider(DEMO_PROVIDER, {
		name: "Timebox demo",
		baseUrl: "http://offline.invalid",
		apiKey: DEMO_API_KEY,
		api: DEMO_API,
		models: [
			{
				id: DEMO_MODEL_ID,
				name: DEMO_MODEL_NAME,
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 128000,
				maxTokens: 4096,
			},
		],
		streamSimple: createScriptedStream(),
	});
}

async function runScript(
	stream: AssistantMessageEventStream,
	model: Model<Api>,
	context: Context,
	signal: AbortSignal | undefined,
	pause: () => Promise<void>,
): Promise<void> {
	const reply = scriptedReply(context);
	const reason = reply.toolCall ? "toolUse" : "stop";
	const output: AssistantMessage = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: reason,
		timestamp: Date.now(),
	};
	const endAborted = (): void => {
		const aborted: AssistantMessage = {
			...output,
			content: [...output.content],
			stopReason: "aborted",
			errorMessage: ABORT_MESSAGE,
			timestamp: Date.now(),
		};
		stream.push({ type: "error", reason: "aborted", error: aborted });
		stream.end(aborted);
	};
	try {
		if (signal?.aborted) {
			endAborted();
			return;
		}
		stream.push({ type: "start", partial: output });

		const text: TextContent = { type: "text", text: "" };
		output.content.push(text);
		const textIndex = output.content.length - 1;
		stream.push({ type: "text_start", contentIndex: textIndex, partial: output });
		for (const chunk of chunkWords(reply.text)) {
			await pause();
			if (signal?.aborted) {
				endAborted();
				return;
			}
			text.text += chunk;
			stream.push({ type: "text_delta", contentIndex: textIndex, delta: chunk, partial: output });
		}
		stream.push({ type: "text_end", contentIndex: textIndex, content: text.text, partial: output });

		if (reply.toolCall) {
			const call: ToolCall = { type: "toolCall", id: newToolCallId(), name: reply.toolCall.name, arguments: {} };
			output.content.push(call);
			const callIndex = output.content.length - 1;
			stream.push({ type: "toolcall_start", contentIndex: callIndex, partial: output });
			for (const chunk of chunkString(JSON.stringify(reply.toolCall.arguments), JSON_CHUNKS)) {
				await pause();
				if (signal?.aborted) {
					endAborted();
					return;
				}
				stream.push({ type: "toolcall_delta", contentIndex: callIndex, delta: chunk, partial: output });
			}
			call.arguments = { ...reply.toolCall.arguments };
			stream.push({ type: "toolcall_end", contentIndex: callIndex, toolCall: call, partial: output });
		}

		output.usage = estimateUsage(context, output);
		stream.push({ type: "done", reason, message: output });
		stream.end(output);
	} catch (error) {
		if (signal?.aborted) {
			endAborted();
			return;
		}
		const failed: AssistantMessage = {
			...output,
			stopReason: "error",
			errorMessage: error instanceof Error ? error.message : String(error),
		};
		stream.push({ type: "error", reason: "error", error: failed });
		stream.end(failed);
	}
}

/**
 * How Timebox's note to the model begins: its warning block, its wrap-up notice, the line of an aware budget, or
 * today's budget's line (a team's own).
 */
const TIMEBOX_NOTE =
	/^(?:(?:IMPORTANT|CRITICAL) TIMEBOX WARNING|TIMEBOX: |Timebox: |Today's budget |The team's budget )/;

/** The text of Timebox's note when it is the last message of the call, else null. */
function timeboxNoteOf(messages: readonly Message[]): string | null {
	const last = messages.at(-1);
	if (last?.role !== "user") return null;
	const text = latestUserText([last]);
	return TIMEBOX_NOTE.test(text) ? text : null;
}

function latestUserText(messages: readonly Message[]): string {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message?.role === "user") {
			return typeof message.content === "string"
				? message.content
				: message.content.map((block) => (block.type === "text" ? block.text : "")).join(" ");
		}
	}
	return "";
}

function quotePrompt(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	if (flat === "") {
		return "(no text)";
	}
	return flat.length > PROMPT_QUOTE_LIMIT ? `${flat.slice(0, PROMPT_QUOTE_LIMIT - 1)}…` : flat;
}

function chunkWords(text: string): string[] {
	const words = text.match(/\S+\s*/g) ?? [];
	const chunks: string[] = [];
	for (let index = 0; index < words.length; index += WORDS_PER_CHUNK) {
		chunks.push(words.slice(index, index + WORDS_PER_CHUNK).join(""));
	}
	return chunks;
}

function chunkString(text: string, parts: number): string[] {
	const size = Math.max(1, Math.ceil(text.length / parts));
	const chunks: string[] = [];
	for (let index = 0; index < text.length; index += size) {
		chunks.push(text.slice(index, index + size));
	}
	return chunks;
}

function randomChunkDelayMs(): number {
	return MIN_CHUNK_DELAY_MS + Math.floor(Math.random() * (MAX_CHUNK_DELAY_MS - MIN_CHUNK_DELAY_MS + 1));
}

function newToolCallId(): string {
	return `timebox-demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

function estimateUsage(context: Context, message: AssistantMessage): Usage {
	const promptChars =
		(context.systemPrompt?.length ?? 0) + context.messages.reduce((sum, item) => sum + JSON.stringify(item).length, 0);
	const outputChars = message.content.reduce((sum, block) => sum + JSON.stringify(block).length, 0);
	const input = Math.ceil(promptChars / 4);
	const output = Math.ceil(outputChars / 4);
	return { ...emptyUsage(), input, output, totalTokens: input + output };
}
