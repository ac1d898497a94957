// Benchmark 1c's probe, run in a fresh Node process: opens a session file as pi does, loads Timebox's pi bundle and
// times its `session_start` on it, as pi opening a big session runs it (no warm JIT). Prints the ms as JSON on stdout.
// usage: node cold-start-probe.mjs <session.jsonl> <bundle>

import { SessionManager } from "@mariozechner/pi-coding-agent";

const [sessionFile, bundle] = process.argv.slice(2);
const session = SessionManager.open(sessionFile);
const { default: timebox } = await import(bundle);
const handlers = new Map();
const api = {
	on: (event, handler) => handlers.set(event, handler),
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
const started = process.hrtime.bigint();
await handlers.get("session_start")({ type: "session_start", reason: "startup" }, ctx);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
await handlers.get("session_shutdown")?.({ type: "session_shutdown", reason: "quit" }, ctx);
process.stdout.write(`${JSON.stringify({ ms, notes })}\n`);
process.exit(0);
