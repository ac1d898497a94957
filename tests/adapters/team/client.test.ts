// The team store's client over one connection, against a connection that plays a Redis: it logs in and picks the
// database before the first script, calls each script by its SHA and sends it whole only when the store does not know
// it, answers calls made together in order, and fails a call with the store's own words (a wrong password, a refused
// key), at once on a refused connection, and after its bound on a store that does not answer (the connection given up).
// tests/e2e/team/store-client.test.ts runs it on a real redis-server.

import { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nodeConnector, openStore } from "../../../src/adapters/team/client.ts";
import { ReplyError } from "../../../src/adapters/team/resp.ts";
import { fakeConnector, scriptedRedis, shaOf } from "./fake-redis.ts";

const SCRIPTS = { read: "return {KEYS[1]}", count: "return 1" };
const OPTIONS = { connectMs: 1_000, callMs: 2_000 };

describe("the store's client", () => {
	it("logs in with a user and picks the database before the first script, known by its SHA after it was sent", async () => {
		const connector = fakeConnector(scriptedRedis({ read: [["prompts", "2"], 1], count: 1 }, SCRIPTS));
		const store = openStore("rediss://bot:s%40cret@redis.internal:6380/3", SCRIPTS, { ...OPTIONS, connector });
		expect(await store.call("read", ["k1", "k2"], [5, "s1"], 5_000)).toEqual({
			ok: true,
			value: [["prompts", "2"], 1],
		});
		expect(await store.call("read", ["k1", "k2"], [5, "s1"], 5_000)).toEqual({
			ok: true,
			value: [["prompts", "2"], 1],
		});
		const [connection] = connector.made;
		expect(connector.asked).toEqual([{ host: "redis.internal", port: 6380, tls: true }]);
		expect(connection?.noDelay).toBe(true);
		const sha = shaOf(SCRIPTS.read);
		expect(connection?.commands).toEqual([
			["AUTH", "bot", "s@cret"],
			["SELECT", "3"],
			["EVALSHA", sha, "2", "k1", "k2", "5", "s1"],
			// The store did not know it: sent whole once, which also keeps it.
			["EVAL", SCRIPTS.read, "2", "k1", "k2", "5", "s1"],
			["EVALSHA", sha, "2", "k1", "k2", "5", "s1"],
		]);
		// Nothing waiting: the connection keeps no process alive.
		expect(connection?.referenced).toBe(false);
	});

	it("logs in with a password alone, and sends neither log-in nor database to a store that needs none", async () => {
		const connector = fakeConnector(scriptedRedis({ count: 1 }, SCRIPTS));
		await openStore("redis://:pw@[::1]:6379", SCRIPTS, { ...OPTIONS, connector }).call("count", [], [], 5_000);
		await openStore("redis://127.0.0.1:6379/0", SCRIPTS, { ...OPTIONS, connector }).call("count", [], [], 5_000);
		// A database that is no number Redis has is the default one.
		for (const db of ["-1", "1.5", "x"])
			await openStore(`redis://h:6379/${db}`, SCRIPTS, { ...OPTIONS, connector }).call("count", [], [], 5_000);
		expect(connector.asked.slice(0, 2)).toEqual([
			{ host: "::1", port: 6379, tls: false },
			{ host: "127.0.0.1", port: 6379, tls: false },
		]);
		expect(connector.made[0]?.commands[0]).toEqual(["AUTH", "pw"]);
		// The store knows the script from the first call.
		for (const made of connector.made.slice(1)) expect(made.commands.map((command) => command[0])).toEqual(["EVALSHA"]);
	});

	it("calls a script by the SHA it is given, without hashing it (a store that knows it needs nothing more)", async () => {
		const shas = { count: "5f0bfa2038fd83a0b04ef9ebfa5432883aece79d" };
		const connector = fakeConnector(() => 1);
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector, shas });
		expect(await store.call("count", ["k1"], [2], 5_000)).toEqual({ ok: true, value: 1 });
		expect(connector.made[0]?.commands).toEqual([["EVALSHA", shas.count, "1", "k1", "2"]]);
	});

	it("answers calls made together in the order they were made, on one connection", async () => {
		const connector = fakeConnector(scriptedRedis({ read: "r", count: 1 }, SCRIPTS));
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		await store.call("count", [], [], 5_000);
		await store.call("read", [], [], 5_000);
		const replies = await Promise.all([
			store.call("count", [], [], 5_000),
			store.call("read", [], [], 5_000),
			store.call("count", [], [], 5_000),
		]);
		expect(replies).toEqual([
			{ ok: true, value: 1 },
			{ ok: true, value: "r" },
			{ ok: true, value: 1 },
		]);
		expect(connector.made).toHaveLength(1);
	});

	it("fails a call with the store's own words: a script it refuses, a wrong password (and connects again after it)", async () => {
		let password = "wrong";
		const connector = fakeConnector((command) => {
			if (command[0] === "AUTH")
				return command[2] === password
					? new ReplyError("WRONGPASS invalid username-password pair or user is disabled.")
					: "OK";
			return new ReplyError("NOPERM No permissions to access a key");
		});
		const store = openStore("redis://bot:wrong@127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		expect(await store.call("read", [], [], 5_000)).toEqual({
			ok: false,
			error: "WRONGPASS invalid username-password pair or user is disabled.",
		});
		expect(connector.made[0]?.destroyed).toBe(true);
		password = "other";
		expect(await store.call("read", [], [], 5_000)).toEqual({
			ok: false,
			error: "NOPERM No permissions to access a key",
		});
		expect(connector.made).toHaveLength(2);
	});

	it("fails at once when the connection is refused or closed, and connects again at the next call", async () => {
		const connector = fakeConnector(() => undefined, false);
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		const refused = store.call("read", [], [], 5_000);
		connector.made[0]?.emit("error", new Error("connect ECONNREFUSED 127.0.0.1:6379"));
		expect(await refused).toEqual({ ok: false, error: "connect ECONNREFUSED 127.0.0.1:6379" });
		const closed = store.call("read", [], [], 5_000);
		connector.made[1]?.emit("close");
		expect(await closed).toEqual({ ok: false, error: "the store closed the connection" });
		expect(connector.made).toHaveLength(2);
	});

	it("gives up a connection that is not ready in time, and a store that sends what is not Redis's protocol", async () => {
		const connector = fakeConnector(() => undefined, false);
		vi.useFakeTimers();
		try {
			const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
			const late = store.call("read", [], [], 5_000);
			await vi.advanceTimersByTimeAsync(OPTIONS.connectMs);
			expect(await late).toEqual({ ok: false, error: "connect: no answer within 1000 ms" });
		} finally {
			vi.useRealTimers();
		}
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		const garbled = store.call("read", [], [], 5_000);
		connector.made[1]?.send("HTTP/1.1 400 Bad Request\r\n");
		expect(await garbled).toEqual({
			ok: false,
			error: `the store's reply is not Redis's protocol (it starts with "HTTP/1.1 400 Bad Req")`,
		});
	});
});

describe("a store that does not answer", () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it("gives up a call after the client's bound or what is left of the call's own, closing the connection", async () => {
		const connector = fakeConnector(() => undefined);
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		const first = store.call("read", [], [], 5_000);
		const second = store.call("count", [], [], 5_000);
		await vi.advanceTimersByTimeAsync(OPTIONS.callMs);
		// A later reply would answer the wrong call: the connection goes, and every call on it fails.
		expect(await first).toEqual({ ok: false, error: "no answer within 2000 ms" });
		expect(await second).toEqual({ ok: false, error: "no answer within 2000 ms" });
		expect(connector.made[0]?.destroyed).toBe(true);
		const bounded = store.call("read", [], [], 300);
		await vi.advanceTimersByTimeAsync(300);
		expect(await bounded).toEqual({ ok: false, error: "no answer within 300 ms" });
		expect(connector.made).toHaveLength(2);
	});
});

describe("a call sent without waiting", () => {
	it("goes out in order with the calls after it, its reply read and dropped; a script the store forgot is sent whole", async () => {
		const redis = scriptedRedis({ read: "r", count: 1 }, SCRIPTS);
		const connector = fakeConnector(redis);
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		await store.call("read", [], [], 5_000);
		await store.call("count", [], [], 5_000);
		const commands = () => connector.made[0]?.commands.map((command) => command[0]) ?? [];
		const before = commands().length;
		store.post("count", ["k"], [1]);
		expect(await store.call("read", [], [], 5_000)).toEqual({ ok: true, value: "r" });
		expect(commands().slice(before)).toEqual(["EVALSHA", "EVALSHA"]);
		// Redis restarted, and forgot its scripts: the call sent without waiting is sent whole.
		redis.known.clear();
		store.post("count", ["k"], [1]);
		await store.call("read", [], [], 5_000);
		expect(commands().slice(before + 2)).toEqual(["EVALSHA", "EVALSHA", "EVAL", "EVAL"]);
		expect(() => store.post("nope", [], [])).toThrow("no script named nope");
	});

	it("is dropped with the connection it went out on, like the calls after it", async () => {
		const connector = fakeConnector(() => undefined);
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		store.post("count", [], []);
		store.close();
		expect(connector.made[0]?.destroyed).toBe(true);
		// A closed store connects again at its next call.
		const after = store.call("read", [], [], 5_000);
		connector.made[1]?.emit("error", new Error("connect ECONNREFUSED"));
		expect(await after).toEqual({ ok: false, error: "connect ECONNREFUSED" });
		store.close();
		connector.made[1]?.emit("close");
	});
});

describe("Node's own sockets", () => {
	it("opens TCP, or TLS checking the host's name (an address has none to check, and Node warns of nothing)", () => {
		// Node says once per process that an address as the server's name breaks RFC 6066: on the user's terminal.
		const warned = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
		// Node's TLSSocket sets a client's server name through this method, which @types/node does not declare.
		const sockets = TLSSocket.prototype as unknown as { setServername(name: string): void };
		const named = vi.spyOn(sockets, "setServername");
		const plain = nodeConnector("127.0.0.1", 9, false);
		const host = nodeConnector("redis.invalid", 9, true);
		const digitsFirst = nodeConnector("1.redis.invalid", 9, true);
		const numbered = nodeConnector("127.0.0.1", 9, true);
		const numbered6 = nodeConnector("::1", 9, true);
		try {
			expect(warned).not.toHaveBeenCalled();
			expect(named.mock.calls).toEqual([["redis.invalid"], ["1.redis.invalid"]]);
			expect(plain.connection).toBeInstanceOf(Socket);
			expect(plain.ready).toBe("connect");
			expect(host.connection).toBeInstanceOf(TLSSocket);
			expect(host.ready).toBe("secureConnect");
			expect(numbered.connection).toBeInstanceOf(TLSSocket);
		} finally {
			warned.mockRestore();
			named.mockRestore();
			for (const { connection } of [plain, host, digitsFirst, numbered, numbered6]) {
				(connection as Socket).on("error", () => {});
				connection.destroy();
			}
		}
	});
});

describe("a call sent without waiting to a store that does not answer", () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it("gives the connection up after the client's bound, so that no process waits for it", async () => {
		const connector = fakeConnector(() => undefined);
		const store = openStore("redis://127.0.0.1:6379", SCRIPTS, { ...OPTIONS, connector });
		store.post("count", [], []);
		expect(connector.made[0]?.referenced).toBe(true);
		await vi.advanceTimersByTimeAsync(OPTIONS.callMs);
		expect(connector.made[0]?.destroyed).toBe(true);
	});
});
