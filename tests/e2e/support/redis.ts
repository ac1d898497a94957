// A throwaway Redis for the team budget's end-to-end tests: Debian's redis-server on a free port of 127.0.0.1, with
// append-only persistence fsynced at every write, in a folder of its own; it can be killed with SIGKILL and started
// again on the same data.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once("error", fail);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address !== null ? address.port : 0;
			server.close(() => done(port));
		});
	});
}

export class RedisServer {
	private process: ChildProcess | null = null;

	private constructor(
		readonly port: number,
		readonly dir: string,
		private readonly extra: readonly string[],
	) {}

	/** Starts a server on a free port, with `extra` arguments (`--requirepass`, `--user`). */
	static async start(extra: readonly string[] = []): Promise<RedisServer> {
		const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), "timebox-redis-")), extra);
		await server.run();
		return server;
	}

	/** `redis://[credentials@]127.0.0.1:<port>`. */
	url(credentials = ""): string {
		return `redis://${credentials ? `${credentials}@` : ""}127.0.0.1:${this.port}`;
	}

	/** Runs redis-cli against the server, with `auth` (`user password`) when given. */
	cli(args: readonly string[], auth: readonly string[] = []): string {
		const login =
			auth.length === 2 ? ["--user", auth[0] as string, "--pass", auth[1] as string, "--no-auth-warning"] : [];
		const result = spawnSync("redis-cli", ["-p", String(this.port), ...login, ...args], { encoding: "utf8" });
		return result.stdout.trim();
	}

	private async run(): Promise<void> {
		this.process = spawn(
			"redis-server",
			[
				"--port",
				String(this.port),
				"--bind",
				"127.0.0.1",
				"--dir",
				this.dir,
				"--appendonly",
				"yes",
				"--appendfsync",
				"always",
				"--save",
				"",
				...this.extra,
			],
			{ stdio: "ignore" },
		);
		const deadline = Date.now() + 10_000;
		for (;;) {
			// Ready once it answers and has loaded its append-only file.
			const answer = spawnSync("redis-cli", ["-p", String(this.port), "info", "persistence"], { encoding: "utf8" });
			if (answer.stdout.includes("loading:0")) return;
			if (Date.now() > deadline) throw new Error(`redis-server did not start on ${this.port}`);
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	/** Kills the server with SIGKILL, and waits until it is gone. */
	async kill9(): Promise<void> {
		const child = this.process;
		this.process = null;
		if (!child || child.exitCode !== null) return;
		const gone = new Promise((resolve) => child.once("exit", resolve));
		child.kill("SIGKILL");
		await gone;
	}

	/** Starts the server again on the same port and data. */
	async restart(): Promise<void> {
		await this.kill9();
		await this.run();
	}

	/** Stops the server and removes its data. */
	async dispose(): Promise<void> {
		await this.kill9();
		rmSync(this.dir, { recursive: true, force: true });
	}
}

/** A host package's entry, as a Node host's team ledger is opened with: its store worker is the bundle beside it. */
export const PACKAGE_ENTRY = new URL("../../../plugins/pi/timebox/index.js", import.meta.url).href;
