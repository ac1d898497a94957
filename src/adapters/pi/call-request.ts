// A model call in pi as the rules read it, and the cap on its answer: the call `context` is about to let go (its prompt,
// step or extension run, with its request's size), and the cap the rules set, written into the request at
// `before_provider_request`, in the field of the call's API.

import type { ContextEvent, ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { SessionEvent } from "../../core/index.ts";
import { extensionRunOfCall, promptOfCall, stepOfCall } from "./prompt-key.ts";
import { cappedPayload } from "./request-cap.ts";
import { RequestMeter, requestOfCall } from "./request-size.ts";

type ModelCallEvent = Extract<SessionEvent, { type: "modelCall" }>;

export class CallRequests {
	/** Each model call's size, from the latest answer on. */
	readonly meter = new RequestMeter();
	/** The cap on the answer of the call about to be sent, set when `context` let it go. */
	private cap: number | undefined;

	constructor(private readonly pi: ExtensionAPI) {
		// The request of the call `context` let go is about to be sent: its answer is capped at what the rules allow.
		pi.on("before_provider_request", (event, ctx) => {
			const cap = this.cap;
			this.cap = undefined;
			return cap === undefined ? undefined : cappedPayload(ctx.model, event.payload, cap);
		});
	}

	/**
	 * The model call of `messages`: a subagent process's (`agent`), a run an extension started, or the user's prompt at
	 * its step; with its request's size where it can be measured and `capped` (a budget of tokens or cost is in force,
	 * the core's `capsInForce`). Without one the request is not measured: a session's first call would otherwise walk its
	 * system prompt and tools' definitions, in a fresh process's code not yet compiled, for a cap nothing sets.
	 */
	callOf(
		messages: ContextEvent["messages"],
		ctx: ExtensionContext,
		agent: string | null,
		capped: boolean,
	): ModelCallEvent {
		const step = stepOfCall(messages);
		const extensionRun = extensionRunOfCall(messages);
		const request = capped ? requestOfCall(this.meter, messages, this.pi, ctx) : this.meter.skip();
		const call: ModelCallEvent =
			agent !== null
				? { type: "modelCall", prompt: null, agent }
				: extensionRun === null
					? { type: "modelCall", prompt: promptOfCall(messages), step }
					: { type: "modelCall", prompt: extensionRun, step, startedBy: "extension" };
		return request === undefined ? call : { ...call, request };
	}

	/** The cap the rules set on the answer of the call just let go (none: it goes at its own limit). */
	capNext(cap: number | undefined): void {
		this.cap = cap;
	}
}
