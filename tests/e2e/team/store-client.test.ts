// The team store's client (over node:net and over Node's TCP handle, Redis's protocol) against a real redis-server: it logs in as an ACL user and picks
// the database, calls a script by its SHA and sends it whole once the store forgot it, answers calls made together in
// order, and fails in the store's own words (a wrong password, a key the user may not touch), at once on a refused
// connection, and within its bound on a server that takes the connection and never answers. And `rediss://`: Codex's
// bundled hook script counts a prompt on a Redis that speaks only TLS on its port, with a certificate authority of the
// test's own given as Node takes one (`NODE_EXTRA_CA_CERTS`), and names the store it cannot trust without it.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeConnector, openStore } from "../../../src/adapters/team/client.ts";
import { handleConnector, tcpBindings } from "../../../src/adapters/team/tcp-handle.ts";
import { freePort, RedisServer } from "../support/redis.ts";

const SCRIPTS = {
	add: "return redis.call('INCRBY', KEYS[1], ARGV[1])",
	echo: "return {ARGV[1], KEYS[1]}",
};
const OPTIONS = { connectMs: 1_000, callMs: 2_000, connector: nodeConnector };
/** The connection a hook process makes (Node's TCP handle), and node:net's, which pi's and opencode's worker makes. */
const CONNECTIONS = [
	["node:net", nodeConnector],
	["Node's TCP handle", handleConnector(tcpBindings({ ...process, execArgv: [], env: {} }), notUsed)],
] as const;

function notUsed(): never {
	throw new Error("node:net was used for a store at an address");
}
let redis: RedisServer;

beforeAll(async () => {
	redis = await RedisServer.start([
		"--user",
		"default",
		"on",
		"nopass",
		"~*",
		"+@all",
		"--user",
		"platform-bot",
		"on",
		">s3cret",
		"~timebox:{platform}:*",
		"+@read",
		"+@write",
		"+@scripting",
		"+select",
	]);
});
afterAll(() => redis.dispose());

describe.each(CONNECTIONS)("the store's client on a real Redis, over %s", (_, connector) => {
	const OPTIONS = { connectMs: 1_000, callMs: 2_000, connector };

	it("logs in as an ACL user, picks the database, and sends a script whole again once Redis forgot it", async () => {
		// Each connection's run starts from no count. (The wrong password's test below leaves one in database 0: its
		// script, sent behind the refused log-in, runs as this Redis's open default user.)
		redis.cli(["-n", "3", "DEL", "timebox:{platform}:n"]);
		redis.cli(["-n", "0", "DEL", "timebox:{platform}:n"]);
		const store = openStore(redis.url("platform-bot:s3cret").concat("/3"), SCRIPTS, OPTIONS);
		try {
			expect(await store.call("echo", ["timebox:{platform}:k"], ["x"], 5_000)).toEqual({
				ok: true,
				value: ["x", "timebox:{platform}:k"],
			});
			expect(await store.call("add", ["timebox:{platform}:n"], [5], 5_000)).toEqual({ ok: true, value: 5 });
			expect(redis.cli(["-n", "3", "GET", "timebox:{platform}:n"])).toBe("5");
			expect(redis.cli(["-n", "0", "EXISTS", "timebox:{platform}:n"])).toBe("0");
			redis.cli(["SCRIPT", "FLUSH"]);
			expect(await store.call("add", ["timebox:{platform}:n"], [2], 5_000)).toEqual({ ok: true, value: 7 });
			// Calls made together go out at once and come back in order.
			const replies = await Promise.all(
				[1, 2, 3, 4].map((by) => store.call("add", ["timebox:{platform}:n"], [by], 5_000)),
			);
			expect(replies.map((reply) => (reply.ok ? reply.value : reply.error))).toEqual([8, 10, 13, 17]);
		} finally {
			store.close();
		}
	});

	it("fails in the store's own words: a wrong password, a key the user may not touch", async () => {
		const wrong = openStore(redis.url("platform-bot:wrong"), SCRIPTS, OPTIONS);
		expect(await wrong.call("add", ["timebox:{platform}:n"], [1], 5_000)).toEqual({
			ok: false,
			error: "WRONGPASS invalid username-password pair or user is disabled.",
		});
		const bot = openStore(redis.url("platform-bot:s3cret"), SCRIPTS, OPTIONS);
		try {
			const refused = await bot.call("add", ["timebox:{other}:n"], [1], 5_000);
			expect(refused.ok).toBe(false);
			expect(refused.ok ? "" : refused.error).toMatch(/^NOPERM /);
		} finally {
			bot.close();
		}
	});

	it("fails at once on a refused connection", async () => {
		const store = openStore(`redis://127.0.0.1:${await freePort()}`, SCRIPTS, OPTIONS);
		const started = performance.now();
		const reply = await store.call("add", ["k"], [1], 5_000);
		expect(performance.now() - started).toBeLessThan(500);
		expect(reply).toEqual({ ok: false, error: expect.stringMatching(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/) });
	});
});

describe.each(CONNECTIONS)("a server that takes the connection and never answers, over %s", (_, connector) => {
	let server: Server;
	let port: number;
	beforeAll(async () => {
		// Reads what it is sent (so it sees the client go) and answers nothing.
		server = createServer((socket) => socket.resume());
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const address = server.address();
		port = typeof address === "object" && address !== null ? address.port : 0;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	it("gives up a call within its bound", async () => {
		const store = openStore(`redis://127.0.0.1:${port}`, SCRIPTS, { ...OPTIONS, connector, callMs: 300 });
		const started = performance.now();
		expect(await store.call("add", ["k"], [1], 5_000)).toEqual({ ok: false, error: "no answer within 300 ms" });
		const took = performance.now() - started;
		expect(took).toBeGreaterThanOrEqual(299);
		expect(took).toBeLessThan(1_500);
	});
});

describe("a store that speaks TLS (rediss://)", () => {
	let tls: RedisServer;
	let folder: string;
	let tlsPort: number;
	beforeAll(async () => {
		folder = mkdtempSync(join(tmpdir(), "timebox-tls-"));
		const at = (name: string) => join(folder, name);
		const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
		openssl(
			["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", at("ca.key"), "-out", at("ca.crt")].concat([
				"-days",
				"2",
				"-subj",
				"/CN=Timebox test CA",
			]),
		);
		openssl(
			["req", "-newkey", "rsa:2048", "-nodes", "-keyout", at("redis.key"), "-out", at("redis.csr")].concat([
				"-subj",
				"/CN=localhost",
			]),
		);
		writeFileSync(at("ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
		openssl(
			["x509", "-req", "-in", at("redis.csr"), "-CA", at("ca.crt"), "-CAkey", at("ca.key")].concat([
				"-CAcreateserial",
				"-out",
				at("redis.crt"),
				"-days",
				"2",
				"-extfile",
				at("ext.cnf"),
			]),
		);
		tlsPort = await freePort();
		tls = await RedisServer.start(
			["--tls-port", String(tlsPort), "--tls-cert-file", at("redis.crt")].concat([
				"--tls-key-file",
				at("redis.key"),
				"--tls-ca-cert-file",
				at("ca.crt"),
				"--tls-auth-clients",
				"no",
			]),
		);
	});
	afterAll(async () => {
		await tls.dispose();
		rmSync(folder, { recursive: true, force: true });
	});

	/** Codex's bundled hook script on a prompt, with the team's store at rediss://localhost. */
	function prompt(turn: string, env: NodeJS.ProcessEnv): string {
		const hook = new URL("../../../plugins/codex-cli/bin/timebox.mjs", import.meta.url).pathname;
		const input = JSON.stringify({
			session_id: "tls",
			hook_event_name: "UserPromptSubmit",
			prompt: "go",
			turn_id: turn,
		});
		const done = spawnSync(process.execPath, [hook, "hook", "--host", "codex"], {
			input,
			encoding: "utf8",
			env: {
				PATH: process.env.PATH,
				HOME: join(folder, "home"),
				CODEX_HOME: join(folder, "codex"),
				XDG_STATE_HOME: join(folder, "state"),
				TIMEBOX_DAILY: "turns:5",
				TIMEBOX_DAILY_STORE: `rediss://localhost:${tlsPort}`,
				TIMEBOX_TEAM: "tls",
				...env,
			},
		});
		expect(done.stderr).toBe("");
		return done.stdout;
	}

	it("counts a prompt over TLS with the certificate authority Node is given, and names the store it cannot trust", () => {
		const used = () => tls.cli(["HGET", `timebox:{tls}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"]);
		expect(prompt("t1", { NODE_EXTRA_CA_CERTS: join(folder, "ca.crt") })).toBe("");
		expect(used()).toBe("1");
		expect(JSON.parse(prompt("t2", {}))).toEqual({
			systemMessage: `Timebox: the team's daily store rediss://localhost:${tlsPort} cannot be reached (self-signed certificate in certificate chain): this machine counts today's use on its own until it answers, then sends it to the team.`,
		});
		expect(used()).toBe("1");
	});
});
