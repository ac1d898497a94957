// The worker thread's side of the synchronous store (bridge.ts): it holds the store's client and answers each call of
// the session's thread by writing the reply to the memory both share and waking that thread, which waits on it
// (`Atomics.wait`). A call that asks for no reply (id 0) is sent without waiting; calls run in the order they came, on
// one connection.

import type { AsyncStore, StoreReply } from "./client.ts";

/** What the session's thread gives the worker. */
export interface StoreWorkerData {
	url: string;
	connectMs: number;
	callMs: number;
	scripts: Record<string, string>;
	/** Two integers (the id of the last reply, its length in bytes), then room for the reply. */
	buffer: SharedArrayBuffer;
}

/** One call: id 0 asks for no reply. */
export interface StoreCall {
	id: number;
	script: string;
	keys: string[];
	args: (string | number)[];
	timeoutMs: number;
}

/** Where the worker hears the session's thread. */
export interface CallPort {
	on(event: "message", listener: (call: StoreCall) => void): unknown;
}

/** Where a reply goes: its length and id after its bytes, then the waiting thread is woken. */
export function writeReply(buffer: SharedArrayBuffer, id: number, reply: StoreReply): void {
	const flag = new Int32Array(buffer, 0, 2);
	const bytes = new Uint8Array(buffer, 8);
	const encoder = new TextEncoder();
	let text = encoder.encode(JSON.stringify(reply));
	if (text.length > bytes.length) text = encoder.encode(JSON.stringify({ ok: false, error: "reply too large" }));
	bytes.set(text);
	Atomics.store(flag, 1, text.length);
	Atomics.store(flag, 0, id);
	Atomics.notify(flag, 0);
}

/** Answers the calls heard on `port` with `store`. */
export function serveStore(port: CallPort, buffer: SharedArrayBuffer, store: AsyncStore): void {
	port.on("message", (call) => {
		if (call.id === 0) {
			store.post(call.script, call.keys, call.args);
			return;
		}
		void store
			.call(call.script, call.keys, call.args, call.timeoutMs)
			.then((reply) => writeReply(buffer, call.id, reply));
	});
}
