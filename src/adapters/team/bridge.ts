// A synchronous Redis for the daily ledger, whose port is synchronous: a worker thread holds the client and runs the
// team's scripts, and the session's thread waits for each reply on shared memory (Atomics.wait), never longer than a
// short timeout. The client (ioredis) is loaded in the worker, and only when a store is set: from the bundle beside
// the host package's entry where there is one (a plugin installed from a repository has no node_modules), else from
// node_modules. The worker never keeps the process alive.

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { SCRIPTS, type ScriptName } from "./scripts.ts";

/** What a call to the store answered: its value, or why there was none. */
export type StoreReply = { ok: true; value: unknown } | { ok: false; error: string };

/** The team's store, called synchronously. */
export interface SyncStore {
	call(script: ScriptName, keys: readonly string[], args: readonly (string | number)[], timeoutMs: number): StoreReply;
	/** Sends a call without waiting for its reply: a write whose answer nothing needs (it runs before any later call). */
	post(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): void;
}

/** The bundled client's file name, beside a host package's entry (written by npm run build). */
export const CLIENT_BUNDLE = "timebox-redis.js";

/** Room for one reply: a day's use, its members and reservations. */
const REPLY_BYTES = 256 * 1024;

/**
 * The worker: loads the client, defines the scripts (sent once, then called by their SHA, with as many keys as the call
 * names: a member's scripts take the day's keys, the admin's their own), and answers each call by
 * writing its reply to the shared memory and waking the session's thread. While the store is down the client
 * reconnects in the background and every call fails at once (no offline queue).
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, clientUrl, connectMs, callMs, scripts, buffer } = workerData;
const flag = new Int32Array(buffer, 0, 2);
const bytes = new Uint8Array(buffer, 8);
const encoder = new TextEncoder();
let client = null;
let connecting = null;
function reply(id, answer) {
  let text = encoder.encode(JSON.stringify(answer));
  if (text.length > bytes.length) text = encoder.encode(JSON.stringify({ ok: false, error: "reply too large" }));
  bytes.set(text);
  Atomics.store(flag, 1, text.length);
  Atomics.store(flag, 0, id);
  Atomics.notify(flag, 0);
}
async function connect() {
  const loaded = await import(clientUrl);
  const Redis = loaded.default.default ?? loaded.default.Redis ?? loaded.default;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectMs,
    commandTimeout: callMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableReadyCheck: false,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  let said = null;
  redis.on("error", (error) => {
    said = error.message;
  });
  for (const [name, lua] of Object.entries(scripts)) redis.defineCommand(name, { lua });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    // What the store said (a wrong password) rather than that the connection closed after it.
    throw new Error(said ?? error.message);
  }
  return redis;
}
parentPort.on("message", async ({ id, script, keys, args }) => {
  try {
    if (client === null) {
      connecting ??= connect();
      try {
        client = await connecting;
      } finally {
        connecting = null;
      }
    }
    const value = await client[script](keys.length, ...keys, ...args);
    if (id !== 0) reply(id, { ok: true, value });
  } catch (error) {
    if (id !== 0) reply(id, { ok: false, error: String((error && error.message) || error) });
  }
});
`;

/** Where the client is: the bundle beside `entry` (a host package's), else ioredis in node_modules. */
export function clientLocation(entry: string): string {
	const bundled = new URL(CLIENT_BUNDLE, entry);
	if (existsSync(bundled)) return bundled.href;
	return pathToFileURL(createRequire(entry).resolve("ioredis")).href;
}

/** The team's store at `url`, through a worker started now that loads the client at `clientUrl`. */
export function openSyncStore(url: string, clientUrl: string, connectMs: number, callMs: number): SyncStore {
	const buffer = new SharedArrayBuffer(8 + REPLY_BYTES);
	const flag = new Int32Array(buffer, 0, 2);
	const bytes = new Uint8Array(buffer, 8);
	const worker = new Worker(WORKER, {
		eval: true,
		workerData: { url, clientUrl, connectMs, callMs, scripts: SCRIPTS, buffer },
	});
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
			worker.postMessage({ id, script, keys, args });
			const deadline = performance.now() + timeoutMs;
			for (;;) {
				const seen = Atomics.load(flag, 0);
				if (seen === id) break;
				const left = deadline - performance.now();
				if (left <= 0) return { ok: false, error: `no answer within ${timeoutMs} ms` };
				Atomics.wait(flag, 0, seen, left);
			}
			return JSON.parse(decoder.decode(bytes.slice(0, Atomics.load(flag, 1)))) as StoreReply;
		},
		post(script, keys, args) {
			// Id 0 asks for no reply; the worker runs its messages in order, on one connection.
			if (died === null) worker.postMessage({ id: 0, script, keys, args });
		},
	};
}
