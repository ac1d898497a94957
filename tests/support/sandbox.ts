// Removes a test's throwaway folder with whatever still runs in it: a hook host's detached Timebox watcher (it looks
// once a second, and writes its last line up to a second after the host's own process has exited) and on-stop
// commands would otherwise write into the folder while it is removed.

import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";

/** A process running with its HOME inside `root`: its id and command line. */
export interface SandboxProcess {
	pid: number;
	command: string;
}

/** The processes whose HOME is `root` or a folder inside it (Linux: read from /proc). */
export function processesUnder(root: string): SandboxProcess[] {
	const found: SandboxProcess[] = [];
	for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
		try {
			const home = readFileSync(join("/proc", pid, "environ"), "utf8")
				.split("\0")
				.find((entry) => entry.startsWith("HOME="))
				?.slice("HOME=".length);
			if (home === undefined || (home !== root && !home.startsWith(`${root}/`))) continue;
			const command = readFileSync(join("/proc", pid, "cmdline"), "utf8")
				.split("\0")
				.join(" ")
				.trim();
			found.push({ pid: Number(pid), command });
		} catch {
			// The process ended while it was read, or is not ours to read.
		}
	}
	return found;
}

/** How long `removeSandbox` waits for the processes it killed to be gone before it removes the folder anyway. */
const KILLED_WAIT_MS = 2_000;

/**
 * Kills every process whose HOME is inside `root` (the test is over: nothing of it is still wanted), waits until none
 * is left (a killed process may finish the call it is in), then removes the folder.
 */
export async function removeSandbox(root: string): Promise<void> {
	const until = Date.now() + KILLED_WAIT_MS;
	for (let left = processesUnder(root); left.length > 0 && Date.now() < until; left = processesUnder(root)) {
		for (const { pid } of left) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// Already gone.
			}
		}
		await new Promise((done) => setTimeout(done, 20));
	}
	await rm(root, { recursive: true, force: true });
}
