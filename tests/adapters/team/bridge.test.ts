// The synchronous store: a worker thread holds the client and the session's thread waits for each reply, never past
// its timeout; the client is the bundle beside the entry when there is one, else ioredis from node_modules. A client
// in a file stands in for ioredis here (the e2e suite runs the real one against a real Redis).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_BUNDLE, clientLocation, openSyncStore } from "../../../src/adapters/team/bridge.ts";

let folder: string;
let client: string;

/** A client like ioredis's, whose scripts answer what the test's address asks: `ok`, `fail` or `never`. */
const FAKE_CLIENT = `
export default class FakeRedis {
  constructor(url) { this.mode = new URL(url).hostname; }
  on() {
    if (this.mode === "crash") setTimeout(() => { throw new Error("boom"); }, 0);
  }
  defineCommand(name) {
    this[name] = async (...args) => {
      if (this.mode === "fail") throw new Error("NOPERM no permissions");
      if (this.mode === "never") return new Promise(() => {});
      return [name, ...args];
    };
  }
  async connect() { if (this.mode === "refused") throw new Error("connect ECONNREFUSED"); }
  disconnect() {}
}
`;

beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-bridge-"));
	client = join(folder, CLIENT_BUNDLE);
	writeFileSync(client, FAKE_CLIENT);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the team's store, called synchronously", () => {
	it("finds the bundled client beside the entry, else ioredis in node_modules", () => {
		expect(clientLocation(pathToFileURL(join(folder, "index.js")).href)).toBe(pathToFileURL(client).href);
		expect(clientLocation(import.meta.url)).toMatch(/node_modules\/ioredis\/.*\.js$/);
	});

	it("answers each call with the script's reply, or why there is none", () => {
		const url = pathToFileURL(client).href;
		const store = openSyncStore("redis://ok:1", url, 100, 100);
		// The client is told how many of the call's words are keys: each script takes its own (a member's, the admin's).
		expect(store.call("read", ["k1", "k2"], [1, "s"], 5_000)).toEqual({
			ok: true,
			value: ["read", 2, "k1", "k2", 1, "s"],
		});
		// A call sent without waiting runs before the next one, and says nothing, failed or not.
		store.post("reserve", ["k"], [1]);
		expect(store.call("count", ["k"], [], 1_000)).toEqual({ ok: true, value: ["count", 1, "k"] });
		openSyncStore("redis://fail:1", url, 100, 100).post("reserve", [], []);
		expect(openSyncStore("redis://fail:1", url, 100, 100).call("read", [], [], 5_000)).toEqual({
			ok: false,
			error: "NOPERM no permissions",
		});
		expect(openSyncStore("redis://refused:1", url, 100, 100).call("read", [], [], 5_000)).toEqual({
			ok: false,
			error: "connect ECONNREFUSED",
		});
	});

	it("fails every call at once after the client died", async () => {
		const store = openSyncStore("redis://crash:1", pathToFileURL(client).href, 100, 100);
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
		const store = openSyncStore("redis://never:1", pathToFileURL(client).href, 100, 100);
		const started = performance.now();
		expect(store.call("read", [], [], 300)).toEqual({ ok: false, error: "no answer within 300 ms" });
		expect(performance.now() - started).toBeLessThan(2_000);
	});
});
