// calls.ts: a call's prompt and step, /timebox lines kept from the model, the budget note, usage, prices, arguments.

import type { AssistantMessage, Message, Part, TextPart, UserMessage } from "@opencode-ai/sdk";
import { describe, expect, it } from "vitest";
import {
	addBudgetNote,
	type CallMessage,
	COMMAND_TEMPLATE,
	commandArguments,
	costReportingOf,
	dropCommands,
	endsRun,
	isCommandText,
	type ModelCall,
	modelCallOf,
	usageOf,
} from "../../../src/adapters/opencode/calls.ts";

const SESSION = "ses_1";

function text(messageID: string, value: string, id = `prt_${messageID}`): TextPart {
	return { id, sessionID: SESSION, messageID, type: "text", text: value };
}

function user(id: string, value: string): CallMessage {
	const info: UserMessage = {
		id,
		sessionID: SESSION,
		role: "user",
		time: { created: 1 },
		agent: "build",
		model: { providerID: "fake", modelID: "fake-model" },
	};
	return { info, parts: [text(id, value)] };
}

function assistantInfo(id: string, parentID: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		id,
		sessionID: SESSION,
		role: "assistant",
		time: { created: 1, completed: 2 },
		parentID,
		modelID: "fake-model",
		providerID: "fake",
		mode: "build",
		path: { cwd: "/project", root: "/project" },
		cost: 0,
		tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
		...extra,
	};
}

function assistant(id: string, parentID: string, finish?: string): CallMessage {
	return { info: assistantInfo(id, parentID, finish === undefined ? {} : { finish }), parts: [text(id, "answer")] };
}

const commandLine = (id: string, args: string) => user(id, COMMAND_TEMPLATE.replace("$ARGUMENTS", args));

describe("a /timebox line in the messages", () => {
	it("is a prompt whose first text part starts with the command's marker", () => {
		expect(isCommandText(commandLine("msg_1", "15m").parts)).toBe(true);
		expect(isCommandText(user("msg_1", "explain [timebox command] to me").parts)).toBe(false);
		expect(isCommandText([])).toBe(false);
		// A file attached before the text does not hide the command; a second text part does not make one.
		const file: Part = {
			id: "prt_file",
			sessionID: SESSION,
			messageID: "msg_1",
			type: "file",
			mime: "text/plain",
			url: "file:///notes.txt",
		};
		expect(isCommandText([file, ...commandLine("msg_1", "status").parts])).toBe(true);
		expect(isCommandText([text("msg_1", "hello"), text("msg_1", "[timebox command] 15m", "prt_2")])).toBe(false);
	});

	it("is removed with the answers opencode stored for it, and nothing else is", () => {
		const messages = [
			commandLine("msg_1", "15m"),
			assistant("msg_2", "msg_1"),
			user("msg_3", "fix the bug"),
			assistant("msg_4", "msg_3", "stop"),
			commandLine("msg_5", "status"),
			assistant("msg_6", "msg_5"),
			user("msg_7", "and now the tests"),
		];
		const array = messages;
		dropCommands(messages);
		expect(messages).toBe(array);
		expect(messages.map((message) => message.info.id)).toEqual(["msg_3", "msg_4", "msg_7"]);
	});

	it("leaves messages without one as they are", () => {
		const messages = [user("msg_1", "hello"), assistant("msg_2", "msg_1", "stop")];
		const before = [...messages];
		dropCommands(messages);
		expect(messages).toEqual(before);
	});
});

describe("a /timebox line and the model", () => {
	it("keeps an answer that only quotes the marker: only a user message is a /timebox line", () => {
		const quoting: CallMessage = {
			info: assistantInfo("msg_a", "msg_u"),
			parts: [text("msg_a", `${COMMAND_TEMPLATE}`)],
		};
		const messages = [user("msg_u", "what does /timebox expand to?"), quoting];
		dropCommands(messages);
		expect(messages.map((message) => message.info.id)).toEqual(["msg_u", "msg_a"]);
	});
});

describe("the model call the messages are for", () => {
	it("is none without a prompt", () => {
		expect(modelCallOf([])).toBeNull();
		expect(modelCallOf([assistant("msg_2", "msg_1", "stop")])).toBeNull();
	});

	it("belongs to the last prompt, and is one more than that prompt's finished answers", () => {
		const messages = [
			user("msg_1", "one"),
			assistant("msg_2", "msg_1", "stop"),
			user("msg_3", "two"),
			assistant("msg_4", "msg_3", "tool-calls"),
			assistant("msg_5", "msg_3", "tool-calls"),
		];
		expect(modelCallOf(messages)).toEqual({
			sessionId: SESSION,
			message: "msg_3",
			step: 3,
			command: false,
			model: { providerID: "fake", modelID: "fake-model" },
		});
		expect(modelCallOf(messages.slice(0, 3))).toMatchObject({ message: "msg_3", step: 1 });
	});

	it("keeps its number when it is sent again after an unfinished answer", () => {
		const messages = [user("msg_1", "one"), assistant("msg_2", "msg_1", "tool-calls"), assistant("msg_3", "msg_1")];
		expect(modelCallOf(messages)?.step).toBe(2);
	});

	it("is a command's call when the prompt is a /timebox line", () => {
		expect(modelCallOf([commandLine("msg_1", "turns:3")])).toEqual({
			sessionId: SESSION,
			message: "msg_1",
			step: 1,
			command: true,
			model: { providerID: "fake", modelID: "fake-model" },
		});
	});
});

describe("the budget note", () => {
	const call: ModelCall = {
		sessionId: SESSION,
		message: "msg_3",
		step: 2,
		command: false,
		model: { providerID: "fake", modelID: "fake-model" },
	};

	it("is one more user message at the end of the call, holding one synthetic part, and nothing else changes", () => {
		const prompt = user("msg_3", "two");
		const earlier = [user("msg_1", "one"), assistant("msg_2", "msg_1", "stop"), prompt];
		const messages = [...earlier];
		addBudgetNote(messages, call, ["IMPORTANT TIMEBOX WARNING", "Time left: 1m 0s of 10m."]);
		expect(messages.slice(0, 3)).toEqual(earlier);
		expect(messages[2]).toBe(prompt);
		expect(prompt.parts).toHaveLength(1);
		expect(messages[3]).toEqual({
			info: { ...prompt.info, id: "msg_timebox_note_2" },
			parts: [
				{
					id: "prt_msg_timebox_note_2",
					sessionID: SESSION,
					messageID: "msg_timebox_note_2",
					type: "text",
					text: "IMPORTANT TIMEBOX WARNING\n\nTime left: 1m 0s of 10m.",
					synthetic: true,
				},
			],
		});
	});

	it("adds nothing when there is nothing to say, or when the call's user message is not among the messages", () => {
		const messages = [user("msg_3", "two"), assistant("msg_4", "msg_3")];
		addBudgetNote(messages, call, []);
		addBudgetNote(messages, { ...call, message: "msg_9" }, ["a note"]);
		addBudgetNote(messages, { ...call, message: "msg_4" }, ["a note"]);
		expect(messages.map((message) => message.info.id)).toEqual(["msg_3", "msg_4"]);
	});
});

describe("what an answered call used", () => {
	it("is every token opencode counted, and its cost", () => {
		const info = assistantInfo("msg_2", "msg_1", {
			cost: 0.012,
			tokens: { input: 300, output: 100, reasoning: 100, cache: { read: 50, write: 50 } },
		});
		expect(usageOf(info)).toEqual({ tokens: 600, cost: 0.012 });
	});

	it("is nothing yet while the answer is unfinished, and none for a prompt", () => {
		expect(usageOf(assistantInfo("msg_2", "msg_1", { time: { created: 1 } }))).toBeNull();
		expect(usageOf(user("msg_1", "hi").info)).toBeNull();
	});

	it("counts what is not a positive number as nothing", () => {
		// A provider can report garbage; the figures come from outside the type system.
		const info = assistantInfo("msg_2", "msg_1", {
			cost: Number.NaN,
			tokens: { input: -5, output: Number.POSITIVE_INFINITY, reasoning: 7, cache: { read: 0, write: 3 } },
		});
		expect(usageOf(info)).toEqual({ tokens: 10, cost: 0 });
		const strings = { ...info, cost: "0.5", tokens: { ...info.tokens, input: "9" } } as unknown as Message;
		expect(usageOf(strings)).toEqual({ tokens: 10, cost: 0 });
	});
});

describe("the final answer of a run", () => {
	it("is a complete answer that opencode's loop does not follow with another call", () => {
		expect(endsRun(assistantInfo("msg_2", "msg_1", { finish: "stop" }))).toBe(true);
		expect(endsRun(assistantInfo("msg_2", "msg_1", { finish: "length" }))).toBe(true);
	});

	it("is not an answer that asks for tools, one unfinished or with no finish, a compaction's summary, or a prompt", () => {
		expect(endsRun(assistantInfo("msg_2", "msg_1", { finish: "tool-calls" }))).toBe(false);
		expect(endsRun(assistantInfo("msg_2", "msg_1", { finish: "unknown" }))).toBe(false);
		expect(endsRun(assistantInfo("msg_2", "msg_1", { finish: "stop", time: { created: 1 } }))).toBe(false);
		expect(endsRun(assistantInfo("msg_2", "msg_1"))).toBe(false);
		expect(endsRun(assistantInfo("msg_2", "msg_1", { finish: "stop", summary: true }))).toBe(false);
		expect(endsRun(user("msg_1", "hi").info)).toBe(false);
	});
});

describe("whether a model reports its cost", () => {
	it("says a model priced at zero, or without prices, reports none", () => {
		expect(costReportingOf(undefined)).toBe("model reports none");
		expect(costReportingOf({})).toBe("model reports none");
		expect(costReportingOf({ cost: { input: 0, output: 0 } })).toBe("model reports none");
		expect(costReportingOf({ cost: { input: "3", output: Number.NaN } })).toBe("model reports none");
	});

	it("says a model with a price for input or output reports it", () => {
		expect(costReportingOf({ cost: { input: 3, output: 15 } })).toBe("reported");
		expect(costReportingOf({ cost: { input: 0, output: 0.5 } })).toBe("reported");
		expect(costReportingOf({ cost: { input: 0.1 } })).toBe("reported");
	});
});

describe("the arguments of /timebox", () => {
	it("takes off the one pair of quotes opencode run puts around words with a space", () => {
		expect(commandArguments('"4s -- notify-send done"')).toBe("4s -- notify-send done");
		expect(commandArguments('  "15m turns:3"  ')).toBe("15m turns:3");
		expect(commandArguments('""')).toBe("");
	});

	it("keeps what the user typed otherwise", () => {
		expect(commandArguments("15m turns:3")).toBe("15m turns:3");
		expect(commandArguments('turns:3"')).toBe('turns:3"');
		expect(commandArguments('turns:5 -- notify-send "Timebox done"')).toBe('turns:5 -- notify-send "Timebox done"');
		expect(commandArguments('"a" -- say "b"')).toBe('"a" -- say "b"');
		expect(commandArguments('"')).toBe('"');
		expect(commandArguments('"15m')).toBe('"15m');
		expect(commandArguments(" status ")).toBe(" status ");
	});
});
