// Runs a real program to its end for the end-to-end suites and the benchmark, capturing its output and wall time.

import { type ChildProcess, spawn } from "node:child_process";

const DEFAULT_TIMEOUT_MS = 30_000;

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** Wall-clock time of the whole process, in ms. */
	ms: number;
}

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Written to stdin, which is then closed; without it stdin is not connected at all (pi -p would wait on it). */
	input?: string;
	timeoutMs?: number;
}

/** What a process started elsewhere writes to its stdout and stderr (where piped), and how it ends, once it has. */
export function outputOf(
	child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
	let stdout = "";
	let stderr = "";
	child.stdout?.on("data", (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	return new Promise((done) => child.once("close", (code, signal) => done({ code, signal, stdout, stderr })));
}

/** Runs a process to its end and captures its output; killed after the timeout. Never rejects on a non-zero exit. */
export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
	const started = performance.now();
	return new Promise((done, fail) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
			timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			killSignal: "SIGKILL",
		});
		const output = outputOf(child);
		child.stdin?.end(options.input);
		child.once("error", fail);
		void output.then((ended) => done({ ...ended, ms: performance.now() - started }));
	});
}
