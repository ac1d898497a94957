// The worker thread's side of the synchronous store, run in this thread: each call is answered in the shared memory
// with its id and length, a reply too large for it is refused in place, and a call that asks for no reply is sent
// without waiting.

import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { AsyncStore, StoreReply } from "../../../src/adapters/team/client.ts";
import { type StoreCall, serveStore, writeReply } from "../../../src/adapters/team/store-worker.ts";

/** The reply the shared memory holds, and the id it answers. */
function replyIn(buffer: SharedArrayBuffer): { id: number; reply: StoreReply } {
	const flag = new Int32Array(buffer, 0, 2);
	const text = new TextDecoder().decode(new Uint8Array(buffer, 8).slice(0, Atomics.load(flag, 1)));
	return { id: Atomics.load(flag, 0), reply: JSON.parse(text) as StoreReply };
}

describe("the store worker's side", () => {
	it("answers each call in the shared memory, and sends a call that asks for no reply without waiting", async () => {
		const buffer = new SharedArrayBuffer(8 + 1_024);
		const port = new EventEmitter();
		const posted: unknown[] = [];
		const store: AsyncStore = {
			call: async (name, keys, args, timeoutMs) => ({ ok: true, value: [name, ...keys, ...args, timeoutMs] }),
			post: (name, keys, args) => posted.push([name, ...keys, ...args]),
			close: () => {},
		};
		serveStore(port, buffer, store);
		const call: StoreCall = { id: 7, script: "read", keys: ["k"], args: [1, "s"], timeoutMs: 300 };
		port.emit("message", call);
		await new Promise((resolve) => setImmediate(resolve));
		expect(replyIn(buffer)).toEqual({ id: 7, reply: { ok: true, value: ["read", "k", 1, "s", 300] } });
		port.emit("message", { ...call, id: 0, script: "reserve" });
		expect(posted).toEqual([["reserve", "k", 1, "s"]]);
		expect(replyIn(buffer).id).toBe(7);
	});

	it("refuses a reply larger than the shared memory in its place", () => {
		const buffer = new SharedArrayBuffer(8 + 64);
		writeReply(buffer, 3, { ok: true, value: "x".repeat(100) });
		expect(replyIn(buffer)).toEqual({ id: 3, reply: { ok: false, error: "reply too large" } });
	});
});
