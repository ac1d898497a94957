// What a model call of opencode is to Timebox, read from the messages opencode is about to send: the prompt it belongs
// to and which call of that prompt's run it is; the `/timebox` lines Timebox answered itself, kept from the model; and
// the budget note, added to that call only. Also what an answered call used, from its assistant message.

import type { Message, Part, UserMessage } from "@opencode-ai/sdk";
import { type CostReporting, responseTokens } from "../../core/index.ts";

/** One message as opencode hands it to `experimental.chat.messages.transform`. */
export interface CallMessage {
	info: Message;
	parts: Part[];
}

/**
 * The text `/timebox …` expands to. Timebox answers the command before any model call; where opencode still stores the
 * expanded text (in `opencode run`), this marker keeps it, and the error opencode adds after it, out of every request.
 */
export const COMMAND_MARKER = "[timebox command]";

/** The template of the `timebox` command Timebox adds to opencode's config. */
export const COMMAND_TEMPLATE = `${COMMAND_MARKER} $ARGUMENTS`;

/** Whether a prompt is a `/timebox` line (its text starts with the command's marker). */
export function isCommandText(parts: readonly Part[]): boolean {
	const first = parts.find((part) => part.type === "text");
	return first?.type === "text" && first.text.startsWith(COMMAND_MARKER);
}

/** Removes, in place, the `/timebox` lines and the answers opencode stored for them. */
export function dropCommands(messages: CallMessage[]): void {
	const commands = new Set(
		messages
			.filter((message) => message.info.role === "user" && isCommandText(message.parts))
			.map((message) => message.info.id),
	);
	if (commands.size === 0) return;
	const kept = messages.filter(
		(message) =>
			!commands.has(message.info.id) && !(message.info.role === "assistant" && commands.has(message.info.parentID)),
	);
	messages.splice(0, messages.length, ...kept);
}

/** The call about to be sent: its session, the user message it answers, and its number in that message's run. */
export interface ModelCall {
	sessionId: string;
	/** The user message the call answers (what `chat.params` names). */
	message: string;
	/** One more than that message's finished answers, so a call sent again after an error keeps its number. */
	step: number;
	/** The message is a `/timebox` line Timebox answered: the call must not be sent. */
	command: boolean;
	/** The model the user message asks for. */
	model: UserMessage["model"];
}

/** The call `messages` are for: the last user message's, or none when they hold no user message. */
export function modelCallOf(messages: readonly CallMessage[]): ModelCall | null {
	let index = messages.length - 1;
	while (index >= 0 && messages[index]?.info.role !== "user") index--;
	const user = messages[index];
	if (user?.info.role !== "user") return null;
	let answers = 0;
	for (const message of messages.slice(index + 1)) {
		if (message.info.role === "assistant" && message.info.parentID === user.info.id && message.info.finish) answers++;
	}
	return {
		sessionId: user.info.sessionID,
		message: user.info.id,
		step: answers + 1,
		command: isCommandText(user.parts),
		model: user.info.model,
	};
}

/**
 * Adds the budget note to this call: one more user message at the end of the call's messages, as pi adds it, whose
 * only part is marked synthetic. opencode sends it with this request only (it is never stored), and its title request,
 * which may read the same messages, skips a user message that holds nothing but synthetic parts.
 */
export function addBudgetNote(messages: CallMessage[], call: ModelCall, blocks: readonly string[]): void {
	if (blocks.length === 0) return;
	const prompt = messages.find((message) => message.info.id === call.message);
	if (prompt?.info.role !== "user") return;
	const id = `${NOTE_ID_PREFIX}${call.step}`;
	const note: Part = {
		id: `prt_${id}`,
		sessionID: call.sessionId,
		messageID: id,
		type: "text",
		text: blocks.join("\n\n"),
		synthetic: true,
	};
	messages.push({ info: { ...prompt.info, id }, parts: [note] });
}

/** The id of the budget note's message, before the step it is for. */
export const NOTE_ID_PREFIX = "msg_timebox_note_";

/** The finishes after which opencode's agent calls the model again (its loop goes on); any other ends the run. */
const LOOP_FINISHES: ReadonlySet<string> = new Set(["tool-calls", "unknown"]);

/**
 * Whether a message is the final answer of its run: an agent's answer, complete, that opencode's loop does not follow
 * with another call (a compaction's summary is followed by the run it summarised).
 */
export function endsRun(message: Message): boolean {
	if (message.role !== "assistant" || message.time.completed === undefined || message.summary === true) return false;
	return message.finish !== undefined && !LOOP_FINISHES.has(message.finish);
}

/**
 * The complete answers among a call's messages not counted yet, oldest first: those after the latest one `counted`
 * (opencode can send a call before the plugin hears that the answer before it is complete).
 */
export function unseenAnswers(messages: readonly CallMessage[], counted: (info: Message) => boolean): Message[] {
	const latest = messages.findLastIndex((message) => usageOf(message.info) !== null && counted(message.info));
	return messages
		.slice(latest + 1)
		.map((message) => message.info)
		.filter((info) => usageOf(info) !== null);
}

/**
 * What an answered call used: every token opencode counted, and the cost it worked out; null while unfinished.
 * opencode's message tokens are each apart from the others: `input` without what came from the cache, `output` the
 * visible answer alone (opencode takes the reasoning out of the provider's output count), `reasoning` apart, and
 * `cache.read` and `cache.write`. The reasoning counts: the model wrote it, and opencode prices it as output.
 */
export function usageOf(message: Message): { tokens: number; cost: number } | null {
	if (message.role !== "assistant" || message.time.completed === undefined) return null;
	const { input, output, reasoning, cache } = message.tokens;
	const tokens = responseTokens({ input, output, reasoning, cacheRead: cache.read, cacheWrite: cache.write });
	return { tokens, cost: positive(message.cost) };
}

function positive(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Whether the model's prices say it reports a cost: a model priced at zero reports none. */
export function costReportingOf(model: { cost?: { input?: unknown; output?: unknown } } | undefined): CostReporting {
	const cost = model?.cost;
	return positive(cost?.input) > 0 || positive(cost?.output) > 0 ? "reported" : "model reports none";
}

/**
 * The arguments of `/timebox` as the user typed them. `opencode run --command timebox …` joins its words and wraps
 * one that holds a space in double quotes, so `"4s -- notify-send done"` arrives quoted: that one pair is taken off.
 */
export function commandArguments(joined: string): string {
	const trimmed = joined.trim();
	const inner = trimmed.slice(1, -1);
	return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') && !inner.includes('"')
		? inner
		: joined;
}
