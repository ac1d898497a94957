// A real pi process in RPC mode (`pi --mode rpc`) for the e2e suites: a UI that can be asked. pi forwards Timebox's
// dialogs (`select`), notifications and footer status as JSON lines; this client records every line with the time it
// arrived, sends commands, and answers dialogs (or leaves them open, as a user who looks away does).

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { COMMAND_MODEL } from "./command-model.ts";
import { PACKAGE_ROOT } from "./real-pi.ts";

/** One JSON line pi wrote, as parsed. */
export type RpcLine = Record<string, unknown>;

/** A line pi wrote, and when it arrived (epoch ms). */
export interface Received {
	at: number;
	line: RpcLine;
}

export interface PiRpcOptions {
	/** The throwaway HOME; pi's agent dir is `<home>/.pi/agent`. */
	home: string;
	/** The project folder pi runs in. */
	cwd: string;
	/** Where pi keeps the session file. */
	sessionDir: string;
	/** The pi binary; default the repo's. */
	bin?: string;
}

const PI_BIN = join(PACKAGE_ROOT, "node_modules/.bin/pi");
const MODEL_EXTENSION = join(PACKAGE_ROOT, "tests/e2e/support/command-model.ts");

function isRecord(value: unknown): value is RpcLine {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** pi in RPC mode with Timebox loaded through the manifest and the scripted command model. */
export class PiRpc {
	readonly received: Received[] = [];
	private readonly child: ChildProcessWithoutNullStreams;
	private stdoutRest = "";
	private stderr = "";
	private nextId = 0;
	private exited = false;

	constructor(options: PiRpcOptions) {
		const env: NodeJS.ProcessEnv = {
			...process.env,
			HOME: options.home,
			PI_CODING_AGENT_DIR: join(options.home, ".pi/agent"),
			PI_OFFLINE: "1",
		};
		// A default budget or state folder of the developer's must not leak into the run.
		delete env.PI_TIMEBOX;
		delete env.XDG_STATE_HOME;
		const args = [
			"--mode",
			"rpc",
			"--no-extensions",
			"-e",
			MODEL_EXTENSION,
			"-e",
			PACKAGE_ROOT,
			"--model",
			COMMAND_MODEL,
			"--session-dir",
			options.sessionDir,
		];
		this.child = spawn(options.bin ?? PI_BIN, args, { cwd: options.cwd, env });
		this.child.stdout.setEncoding("utf8");
		this.child.stdout.on("data", (chunk: string) => this.read(chunk));
		this.child.stderr.setEncoding("utf8");
		this.child.stderr.on("data", (chunk: string) => {
			this.stderr += chunk;
		});
		this.child.on("exit", () => {
			this.exited = true;
		});
	}

	/** Splits on LF only, as pi's RPC framing asks (a JSON string may hold U+2028). */
	private read(chunk: string): void {
		const lines = (this.stdoutRest + chunk).split("\n");
		this.stdoutRest = lines.pop() ?? "";
		const at = Date.now();
		for (const text of lines) {
			if (text.trim() === "") continue;
			const parsed: unknown = JSON.parse(text.replace(/\r$/, ""));
			if (isRecord(parsed)) this.received.push({ at, line: parsed });
		}
	}

	/** Writes one command line to pi's stdin. */
	send(command: RpcLine): void {
		this.child.stdin.write(`${JSON.stringify(command)}\n`);
	}

	/** Sends a prompt (or an extension command such as `/timebox 3s`) with an id; returns the id of its response. */
	prompt(message: string): string {
		const id = `test-${++this.nextId}`;
		this.send({ id, type: "prompt", message });
		return id;
	}

	/** Sends a command and waits for its response's data. */
	async request(command: RpcLine, timeoutMs = 10_000): Promise<unknown> {
		const id = `test-${++this.nextId}`;
		this.send({ ...command, id });
		const response = await this.waitFor((line) => line.type === "response" && line.id === id, `${id}`, timeoutMs);
		if (response.line.success !== true)
			throw new Error(`pi refused ${JSON.stringify(command)}: ${response.line.error}`);
		return response.line.data;
	}

	/** The session file pi writes. */
	async sessionFile(): Promise<string> {
		const state = await this.request({ type: "get_state" });
		if (!isRecord(state) || typeof state.sessionFile !== "string") throw new Error("pi named no session file");
		return state.sessionFile;
	}

	/** Every line received so far that `predicate` matches. */
	all(predicate: (line: RpcLine) => boolean): Received[] {
		return this.received.filter((received) => predicate(received.line));
	}

	/** The first line that matches `predicate`, received already or within `timeoutMs`. */
	async waitFor(predicate: (line: RpcLine) => boolean, what: string, timeoutMs = 10_000): Promise<Received> {
		const started = Date.now();
		for (;;) {
			const found = this.received.find((received) => predicate(received.line));
			if (found) return found;
			if (this.exited) throw new Error(`pi exited while waiting for ${what}; stderr: ${this.stderr}`);
			if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
			await new Promise((done) => setTimeout(done, 5));
		}
	}

	/** Waits until pi answers a command, so it has loaded its extensions and is ready. */
	async ready(): Promise<void> {
		await this.request({ type: "get_state" }, 30_000);
	}

	/** Ends pi (stdin closed, then SIGTERM) and waits for the process to exit. */
	async close(): Promise<void> {
		if (this.exited) return;
		const exited = new Promise((done) => this.child.once("exit", done));
		this.child.stdin.end();
		this.child.kill("SIGTERM");
		await exited;
	}
}

/** A Timebox notification pi forwarded (`ctx.ui.notify`). */
export function isNotification(line: RpcLine, level?: string): boolean {
	return (
		line.type === "extension_ui_request" &&
		line.method === "notify" &&
		(level === undefined || line.notifyType === level)
	);
}

/** A footer status value Timebox set (`ctx.ui.setStatus("timebox", …)`). */
export function isStatus(line: RpcLine): boolean {
	return line.type === "extension_ui_request" && line.method === "setStatus" && line.statusKey === "timebox";
}
