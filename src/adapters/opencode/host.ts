// The part of opencode's plugin API that Timebox uses, as `@opencode-ai/plugin` 1.18.33 declares it, over the SDK's
// types. Declared here so that the package needs only the SDK's types to build (opencode itself provides the rest);
// the real-host tests check it against the real opencode.

import type { Config, createOpencodeClient, Event, Message, Model, Part, UserMessage } from "@opencode-ai/sdk";

/** The client opencode hands a plugin, answered inside opencode's own process. */
export type OpencodeClient = ReturnType<typeof createOpencodeClient>;

/** What opencode passes a plugin's factory (Timebox reads the client, and the folder opencode works in). */
export interface PluginInput {
	client: OpencodeClient;
	directory: string;
}

/** The hooks Timebox registers, with opencode's arguments: each may change `output`, or throw to refuse. */
export interface Hooks {
	dispose?: () => Promise<void>;
	event?: (input: { event: Event }) => Promise<void>;
	config?: (input: Config) => Promise<void>;
	"chat.message"?: (
		input: { sessionID: string; agent?: string; model?: { providerID: string; modelID: string }; messageID?: string },
		output: { message: UserMessage; parts: Part[] },
	) => Promise<void>;
	"chat.params"?: (
		input: { sessionID: string; agent: string; model: Model; provider: unknown; message: UserMessage },
		output: {
			temperature: number;
			topP: number;
			topK: number;
			maxOutputTokens: number | undefined;
			options: Record<string, unknown>;
		},
	) => Promise<void>;
	"command.execute.before"?: (
		input: { command: string; sessionID: string; arguments: string },
		output: { parts: Part[] },
	) => Promise<void>;
	"tool.execute.before"?: (
		input: { tool: string; sessionID: string; callID: string },
		output: { args: unknown },
	) => Promise<void>;
	"tool.execute.after"?: (
		input: { tool: string; sessionID: string; callID: string; args: unknown },
		output: { title: string; output: string; metadata: unknown },
	) => Promise<void>;
	"experimental.session.compacting"?: (
		input: { sessionID: string },
		output: { context: string[]; prompt?: string },
	) => Promise<void>;
	"experimental.chat.system.transform"?: (
		input: { sessionID?: string; model: Model },
		output: { system: string[] },
	) => Promise<void>;
	"tool.definition"?: (
		input: { toolID: string },
		output: { description: string; parameters: unknown },
	) => Promise<void>;
	"experimental.chat.messages.transform"?: (
		input: Record<string, never>,
		output: { messages: { info: Message; parts: Part[] }[] },
	) => Promise<void>;
}
