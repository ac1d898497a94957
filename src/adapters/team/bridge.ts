// A synchronous Redis for the daily ledger, whose port is synchronous: a worker thread holds the store's client
// (client.ts, store-worker.ts) and runs the team's scripts, and the session's thread waits for each reply on shared
// memory (Atomics.wait), never longer than a short timeout. The worker is the bundle beside the host package's entry
// (`timebox-store.mjs`, written by npm run build), started only when a store is set. It never keeps the process alive.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { StoreReply } from "./client.ts";
import { SCRIPTS, type ScriptName } from "./scripts.ts";
import type { StoreCall, StoreWorkerData } from "./store-worker.ts";

export type { StoreReply };

/** The team's store, called synchronously. */
export interface SyncStore {
	call(script: ScriptName, keys: readonly string[], args: readonly (string | number)[], timeoutMs: number): StoreReply;
	/** Sends a call without waiting for its reply: a write whose answer nothing needs (it runs before any later call). */
	post(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): void;
}

/** How the session's thread waits for a reply: the clock it reads, and its wait on the reply's flag. */
export interface ReplyWait {
	now(): number;
	/** Waits until `flag[0]` is no longer `seen`, or `ms` have passed. */
	wait(flag: Int32Array, seen: number, ms: number): void;
}

/** The real wait: the monotonic clock, and the thread blocked on the shared memory. */
const BLOCKING_WAIT: ReplyWait = {
	now: () => performance.now(),
	wait: (flag, seen, ms) => {
		Atomics.wait(flag, 0, seen, ms);
	},
};

/** The worker's bundle, beside a host package's entry (written by npm run build). */
export const STORE_WORKER = "timebox-store.mjs";

/** Room for one reply: a day's use, its members and reservations. */
const REPLY_BYTES = 256 * 1024;

/** Where the worker is: its bundle beside `entry` (a host package's). */
export function storeWorkerLocation(entry: string): string {
	return new URL(STORE_WORKER, entry).href;
}

/** The team's store at `url`, through a worker started now from `workerUrl`; throws when that file is missing. */
export function openSyncStore(
	url: string,
	workerUrl: string,
	connectMs: number,
	callMs: number,
	replyWait: ReplyWait = BLOCKING_WAIT,
): SyncStore {
	if (!existsSync(new URL(workerUrl))) throw new Error(`the store's client is missing (${fileURLToPath(workerUrl)})`);
	const buffer = new SharedArrayBuffer(8 + REPLY_BYTES);
	const flag = new Int32Array(buffer, 0, 2);
	const bytes = new Uint8Array(buffer, 8);
	const data: StoreWorkerData = { url, connectMs, callMs, scripts: SCRIPTS, buffer };
	const worker = new Worker(new URL(workerUrl), { workerData: data });
	worker.unref();
	// A worker that died (its client threw outside a call) answers nothing more: every call fails at once.
	let died: string | null = null;
	worker.on("error", (error) => {
		died = `the client stopped: ${error.message}`;
	});
	let last = 0;
	const decoder = new TextDecoder();
	return {
		call(script, keys, args, timeoutMs) {
			if (died !== null) return { ok: false, error: died };
			const id = ++last;
			const message: StoreCall = { id, script, keys: [...keys], args: [...args], timeoutMs };
			worker.postMessage(message);
			const deadline = replyWait.now() + timeoutMs;
			for (;;) {
				const seen = Atomics.load(flag, 0);
				if (seen === id) break;
				const left = deadline - replyWait.now();
				if (left <= 0) return { ok: false, error: `no answer within ${timeoutMs} ms` };
				replyWait.wait(flag, seen, left);
			}
			return JSON.parse(decoder.decode(bytes.slice(0, Atomics.load(flag, 1)))) as StoreReply;
		},
		post(script, keys, args) {
			// Id 0 asks for no reply; the worker runs its messages in order, on one connection.
			const message: StoreCall = { id: 0, script, keys: [...keys], args: [...args], timeoutMs: 0 };
			if (died === null) worker.postMessage(message);
		},
	};
}
