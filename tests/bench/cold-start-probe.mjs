// Benchmark 1c's probe, run in a fresh Node process: opens a session file as pi does, loads Timebox's pi bundle and
// times its `session_start` on it, as pi opening a big session runs it (no warm JIT), then the handlers of the session's
// first prompt (a model call answered with no tool: before_agent_start, turn_start, context, message_end, agent_end).
// Prints the ms as JSON on stdout, with the bundle's load (its import). The session file gets the prompt's messages: hand
// it a copy.
// usage: node cold-start-probe.mjs <session.jsonl> <bundle>

import { SessionManager } from "@mariozechner/pi-coding-agent";

const [sessionFile, bundle] = process.argv.slice(2);
const session = SessionManager.open(sessionFile);
const loadStarted = process.hrtime.bigint();
const { default: timebox } = await import(bundle);
const loadMs = Number(process.hrtime.bigint() - loadStarted) / 1e6;
/** Each event's handlers in the order they were registered, run one after the other as pi runs them. */
const handlers = new Map();
const api = {
	on: (event, handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
	registerCommand: () => {},
	registerFlag: () => {},
	getFlag: () => undefined,
	appendEntry: (customType, data) => session.appendCustomEntry(customType, data),
};
timebox(api);
const notes = [];
const ctx = {
	hasUI: true,
	ui: { notify: (message) => notes.push(message), setStatus: () => {} },
	sessionManager: session,
	cwd: process.cwd(),
	abort: () => {},
};

/** Runs the handlers of `event` in order, awaiting each, as pi does; the last one's answer. */
async function emit(event, ctx) {
	let answer;
	for (const handler of handlers.get(event.type) ?? []) answer = await handler(event, ctx);
	return answer;
}

/** ms of `run`, awaited. */
async function timed(run) {
	const started = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - started) / 1e6;
}

const ms = await timed(() => emit({ type: "session_start", reason: "startup" }, ctx));
// The first prompt: pi keeps the user's message, and builds the call's messages from the branch (pi's own work).
const text = "the first prompt";
session.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
const messages = session.buildSessionContext().messages;
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 };
const answer = {
	role: "assistant",
	content: [{ type: "text", text: "done" }],
	api: "anthropic-messages",
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	usage: { ...usage, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
	stopReason: "stop",
	timestamp: Date.now(),
};
const prompt = {
	before_agent_start: await timed(() =>
		emit({ type: "before_agent_start", prompt: text, systemPrompt: "system" }, ctx),
	),
	turn_start: await timed(() => emit({ type: "turn_start", turnIndex: 0, timestamp: 0 }, ctx)),
	context: await timed(() => emit({ type: "context", messages }, ctx)),
	message_end: await timed(() => emit({ type: "message_end", message: answer }, ctx)),
	agent_end: await timed(() => emit({ type: "agent_end", messages: [] }, ctx)),
};
await emit({ type: "session_shutdown", reason: "quit" }, ctx);
process.stdout.write(`${JSON.stringify({ ms, prompt, notes, loadMs })}\n`);
process.exit(0);
