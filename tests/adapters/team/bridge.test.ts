// The synchronous store: a worker thread holds the client and the session's thread waits for each reply, never past
// its timeout; the worker is the bundle beside the entry. A worker in a file stands in for the bundled one here, its
// calls answered as the test's address asks (tests/adapters/team/store-worker.test.ts runs the worker's side, the e2e
// suite the real bundle against a real Redis).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSyncStore, STORE_WORKER, storeWorkerLocation } from "../../../src/adapters/team/bridge.ts";

let folder: string;
let worker: string;

/**
 * A worker like the bundled one, whose calls answer what the test's address asks: `ok` (the call echoed, after those
 * posted before it), `fail`, `never` or `crash` (the worker dies at its first call).
 */
const FAKE_WORKER = `
import { parentPort, workerData } from "node:worker_threads";
const mode = new URL(workerData.url).hostname;
const flag = new Int32Array(workerData.buffer, 0, 2);
const bytes = new Uint8Array(workerData.buffer, 8);
const posted = [];
parentPort.on("message", ({ id, script, keys, args }) => {
  if (mode === "crash") setTimeout(() => { throw new Error("boom"); }, 0);
  if (id === 0) posted.push(script, ...keys, ...args);
  if (mode === "never" || id === 0) return;
  const value = [...posted.splice(0), script, ...keys, ...args];
  const reply = mode === "fail" ? { ok: false, error: "NOPERM no permissions" } : { ok: true, value };
  const text = new TextEncoder().encode(JSON.stringify(reply));
  bytes.set(text);
  Atomics.store(flag, 1, text.length);
  Atomics.store(flag, 0, id);
  Atomics.notify(flag, 0);
});
`;

beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-bridge-"));
	worker = join(folder, STORE_WORKER);
	writeFileSync(worker, FAKE_WORKER);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the team's store, called synchronously", () => {
	it("finds the worker beside the entry, and is not opened where it is missing", () => {
		expect(storeWorkerLocation(pathToFileURL(join(folder, "index.js")).href)).toBe(pathToFileURL(worker).href);
		const missing = storeWorkerLocation(import.meta.url);
		expect(() => openSyncStore("redis://ok:1", missing, 100, 100)).toThrow(
			`the store's client is missing (${join(import.meta.dirname, STORE_WORKER)})`,
		);
	});

	it("answers each call with the script's reply, or why there is none", () => {
		const url = pathToFileURL(worker).href;
		const store = openSyncStore("redis://ok:1", url, 100, 100);
		expect(store.call("read", ["k1", "k2"], [1, "s"], 5_000)).toEqual({
			ok: true,
			value: ["read", "k1", "k2", 1, "s"],
		});
		// A call sent without waiting runs before the next one, and says nothing, failed or not.
		store.post("reserve", ["k"], [1]);
		expect(store.call("count", ["k"], [], 1_000)).toEqual({ ok: true, value: ["reserve", "k", 1, "count", "k"] });
		// One worker for the failing store (each worker started is a thread and a module loaded).
		const failing = openSyncStore("redis://fail:1", url, 100, 100);
		failing.post("reserve", [], []);
		expect(failing.call("read", [], [], 5_000)).toEqual({
			ok: false,
			error: "NOPERM no permissions",
		});
	});

	it("fails every call at once after the client died", async () => {
		const store = openSyncStore("redis://crash:1", pathToFileURL(worker).href, 100, 100);
		const died = { ok: false, error: "the client stopped: boom" };
		// The first call loads the client, which then dies; its death reaches this thread as an event, between calls.
		let reply = store.call("read", [], [], 500);
		for (let tries = 0; tries < 500 && reply.ok !== false; tries++) {
			await new Promise((resolve) => setImmediate(resolve));
			reply = store.call("read", [], [], 20);
		}
		for (let tries = 0; tries < 500 && !(reply.ok === false && reply.error === died.error); tries++) {
			await new Promise((resolve) => setImmediate(resolve));
			reply = store.call("read", [], [], 20);
		}
		const started = performance.now();
		expect(store.call("read", [], [], 5_000)).toEqual({ ok: false, error: "the client stopped: boom" });
		store.post("reserve", [], []);
		expect(performance.now() - started).toBeLessThan(100);
	});

	it("gives up on a store that does not answer within the timeout", () => {
		// The thread's clock and wait stand in: a wait on a reply that never comes lasts all it was given.
		let now = 1_000;
		const waits: number[] = [];
		const replyWait = {
			now: () => now,
			wait: (_flag: Int32Array, _seen: number, ms: number) => {
				waits.push(ms);
				now += ms === 300 ? 120 : ms;
			},
		};
		const store = openSyncStore("redis://never:1", pathToFileURL(worker).href, 100, 100, replyWait);
		expect(store.call("read", [], [], 300)).toEqual({ ok: false, error: "no answer within 300 ms" });
		// Woken early (a spurious wake-up), it waits only for what is left of the timeout, then gives up.
		expect(waits).toEqual([300, 180]);
		expect(now).toBe(1_300);
	});
});
