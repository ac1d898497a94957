// A pi extension for the tests that run pi as a process (`pi -e <this file>`), on every pi version: a scripted model
// (`--model timebox-e2e/scripted`) that answers from the JSON file named by TIMEBOX_E2E_SCRIPT and writes each request's
// messages to the JSON-lines file named by TIMEBOX_E2E_LOG (a subagent's process, named by TIMEBOX_SUBAGENT, can be
// answered apart from the main agent); `/e2e-run <text>`, which starts a run the way an extension does, with
// `pi.sendMessage(…, { triggerTurn: true })`, and waits for it to end; and a bash call whose command names
// `E2E-STEER: <text>` or `E2E-FOLLOW-UP: <text>`, at which it sends that text as a user message with
// `pi.sendUserMessage(…, { deliverAs })`, as an extension does while the agent works (pi 1.x requires `deliverAs` then).

import { appendFileSync, readFileSync } from "node:fs";
import type {
	Api,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Model,
	SimpleStreamOptions,
} from "@mariozechner/pi-ai";
import { createAssistantMessageEventStream } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

/**
 * One scripted answer: text, or a call of a tool with its arguments; it reports 100 input tokens and `output` output
 * tokens (20 unless said).
 */
export type ScriptedAnswer = ({ text: string } | { tool: string; args: Record<string, unknown> }) & { output?: number };

/**
 * An entry of the script: an answer, or answers by who asks: every request of a subagent's process gets `subagent` and
 * the script stays at this entry (it loops for as long as it is let); the main agent's request gets `main` and moves on.
 */
export type ScriptEntry = ScriptedAnswer | { main: ScriptedAnswer; subagent: ScriptedAnswer };

/**
 * One request the model got, as written to the log: each message's role and text, and whether its run was aborted
 * before it started (pi 0.73.1 still makes such a call; a real provider sends nothing for it).
 */
export interface LoggedRequest {
	at: number;
	messages: { role: string; text: string }[];
	aborted?: boolean;
	/** Answered by a subagent's entry, which the script stays at. */
	held?: boolean;
}

export const SCRIPTED_PROVIDER = "timebox-e2e";
export const SCRIPTED_MODEL = `${SCRIPTED_PROVIDER}/scripted`;
export const EXTENSION_RUN_COMMAND = "e2e-run";
/** What a bash command names to have the extension send a user message while its run works: `E2E-STEER: <text>`. */
const QUEUED_USER_MESSAGE = /E2E-(STEER|FOLLOW-UP): ([^'"]+)/;

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part: unknown) =>
			typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" ? part.text : "",
		)
		.join("");
}

/**
 * The answers not given yet: the script file holds them all, the log says how many requests came before (an aborted
 * call takes none).
 */
function nextAnswer(): { reply: ScriptedAnswer; held: boolean } {
	const script = JSON.parse(readFileSync(process.env.TIMEBOX_E2E_SCRIPT ?? "", "utf8")) as ScriptEntry[];
	let asked = 0;
	try {
		asked = readFileSync(process.env.TIMEBOX_E2E_LOG ?? "", "utf8")
			.split("\n")
			.filter((line) => {
				if (line.length === 0) return false;
				const logged = JSON.parse(line) as LoggedRequest;
				return !logged.aborted && !logged.held;
			}).length;
	} catch {
		asked = 0;
	}
	const entry = script[asked] ?? { text: "done" };
	if (!("main" in entry)) return { reply: entry, held: false };
	return IN_SUBAGENT ? { reply: entry.subagent, held: true } : { reply: entry.main, held: false };
}

/** Whether this process runs a subagent: its parent named it in the environment it started with. */
const IN_SUBAGENT = process.env.TIMEBOX_SUBAGENT !== undefined;

function answer(model: Model<Api>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const messages = context.messages.map((message) => ({ role: message.role, text: textOf(message.content) }));
	// A call its run aborted before it started ends at once, as a real provider honours the signal: it takes no answer.
	if (options?.signal?.aborted) {
		const logged: LoggedRequest = { at: Date.now(), messages, aborted: true };
		appendFileSync(process.env.TIMEBOX_E2E_LOG ?? "", `${JSON.stringify(logged)}\n`);
		const aborted: AssistantMessage = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "aborted",
			errorMessage: "Request was aborted",
			timestamp: Date.now(),
		};
		queueMicrotask(() => {
			stream.push({ type: "error", reason: "aborted", error: aborted });
			stream.end(aborted);
		});
		return stream;
	}
	const { reply, held } = nextAnswer();
	const logged: LoggedRequest = { at: Date.now(), messages, ...(held ? { held } : {}) };
	appendFileSync(process.env.TIMEBOX_E2E_LOG ?? "", `${JSON.stringify(logged)}\n`);
	const output: AssistantMessage = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: {
			input: 100,
			output: reply.output ?? 20,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 100 + (reply.output ?? 20),
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "tool" in reply ? "toolUse" : "stop",
		timestamp: Date.now(),
	};
	queueMicrotask(() => {
		stream.push({ type: "start", partial: output });
		if ("tool" in reply) {
			const call = { type: "toolCall" as const, id: `call-${logged.at}`, name: reply.tool, arguments: reply.args };
			output.content.push(call);
			stream.push({ type: "toolcall_start", contentIndex: 0, partial: output });
			stream.push({ type: "toolcall_end", contentIndex: 0, toolCall: call, partial: output });
		} else {
			output.content.push({ type: "text", text: reply.text });
			stream.push({ type: "text_start", contentIndex: 0, partial: output });
			stream.push({ type: "text_delta", contentIndex: 0, delta: reply.text, partial: output });
			stream.push({ type: "text_end", contentIndex: 0, content: reply.text, partial: output });
		}
		stream.push({ type: "done", reason: output.stopReason === "toolUse" ? "toolUse" : "stop", message: output });
		stream.end(output);
	});
	return stream;
}

export default function scriptedModel(pi: ExtensionAPI): void {
	pi.registerProvider(SCRIPTED_PROVIDER, {
		name: "Timebox e2e",
		baseUrl: "http://offline.invalid",
		apiKey: "timebox-e2e-offline-no-key",
		api: "timebox-e2e-scripted",
		models: [
			{
				id: "scripted",
				name: "Timebox e2e (scripted)",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 128000,
				maxTokens: 4096,
			},
		],
		streamSimple: answer,
	});
	pi.registerCommand(EXTENSION_RUN_COMMAND, {
		description: "Starts a run as an extension does (sendMessage with triggerTurn) and waits for it to end",
		handler: async (args, ctx) => {
			pi.sendMessage({ customType: "e2e", content: args, display: true }, { triggerTurn: true });
			// The run starts on a later tick on some versions: wait until pi is busy, then until it is idle again.
			for (let tick = 0; tick < 50 && ctx.isIdle(); tick++) await new Promise((done) => setTimeout(done, 10));
			await ctx.waitForIdle();
		},
	});
	pi.on("tool_call", (event) => {
		const command = event.toolName === "bash" ? event.input.command : undefined;
		const queued = typeof command === "string" ? QUEUED_USER_MESSAGE.exec(command) : null;
		if (queued === null) return;
		pi.sendUserMessage(queued[2] ?? "", { deliverAs: queued[1] === "STEER" ? "steer" : "followUp" });
	});
}
