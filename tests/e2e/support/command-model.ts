// A scripted offline model for real pi processes (`pi -e` this file): asked `run: <command>`, it calls bash with that
// command once, and answers "done" after the tool's result. No network, no key.

import type {
	Api,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Message,
	Model,
	SimpleStreamOptions,
	ToolCall,
} from "@mariozechner/pi-ai";
import { createAssistantMessageEventStream } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

/** The provider and model to pass as `--model`. */
export const COMMAND_MODEL = "timebox-e2e-commands/commands";

const RUN_PREFIX = "run: ";

/** The text of a user message. */
function textOf(message: Message): string {
	if (message.role !== "user") return "";
	if (typeof message.content === "string") return message.content;
	return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * The bash command the newest `run: ` prompt asks for, or null once its tool has run. A note Timebox adds as a user
 * message is no prompt of this model's.
 */
function commandToRun(context: Context): string | null {
	const at = context.messages.findLastIndex((message) => textOf(message).startsWith(RUN_PREFIX));
	const prompt = context.messages[at];
	if (prompt === undefined) return null;
	if (context.messages.slice(at + 1).some((message) => message.role === "toolResult")) return null;
	return textOf(prompt).slice(RUN_PREFIX.length);
}

function answer(model: Model<Api>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const command = commandToRun(context);
	const message: AssistantMessage = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: {
			input: 10,
			output: 10,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 20,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: command === null ? "stop" : "toolUse",
		timestamp: Date.now(),
	};
	queueMicrotask(() => {
		if (options?.signal?.aborted) {
			const aborted: AssistantMessage = { ...message, stopReason: "aborted", errorMessage: "Request was aborted" };
			stream.push({ type: "error", reason: "aborted", error: aborted });
			stream.end(aborted);
			return;
		}
		stream.push({ type: "start", partial: message });
		if (command === null) {
			message.content.push({ type: "text", text: "done" });
		} else {
			const call: ToolCall = { type: "toolCall", id: `call-${Date.now()}`, name: "bash", arguments: { command } };
			message.content.push(call);
			stream.push({ type: "toolcall_start", contentIndex: 0, partial: message });
			stream.push({ type: "toolcall_end", contentIndex: 0, toolCall: call, partial: message });
		}
		const reason = command === null ? "stop" : "toolUse";
		stream.push({ type: "done", reason, message });
		stream.end(message);
	});
	return stream;
}

export default function commandModel(pi: ExtensionAPI): void {
	pi.registerProvider("timebox-e2e-commands", {
		name: "Timebox e2e commands",
		baseUrl: "http://offline.invalid",
		apiKey: "timebox-e2e-offline-no-key",
		api: "timebox-e2e-commands",
		models: [
			{
				id: "commands",
				name: "Runs the command it is asked to run",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 128000,
				maxTokens: 4096,
			},
		],
		streamSimple: answer,
	});
}
