// Benchmark 2: wall time of a real `pi -p` start-up with and without Timebox loaded, in alternating runs.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultResourceLoader } from "@mariozechner/pi-coding-agent";
import { PROBE_COMMAND } from "./probe-extension.ts";
import { cleanEnv, median, nowMs, PI_BIN, type ProcessResult, progress, REPO_ROOT, runProcess } from "./stats.ts";

/** Timed runs per variant. */
export const STARTUP_RUNS = 10;

/** Reloads per variant of pi's extension loader, in this process. */
export const LOADER_RUNS = 10;

export interface StartupResult {
	withoutMs: number;
	withMs: number;
	ratio: number;
	runs: number;
	/** `DefaultResourceLoader.reload()` in this process, the part of start-up that loads extensions. */
	loader: { withoutMs: number; withMs: number; runs: number };
}

const DEMO_MODEL = join(REPO_ROOT, "demo/offline-model.ts");
const PROBE = join(import.meta.dirname, "probe-extension.ts");
const TIMEOUT_MS = 60_000;

/** The same invocation for both variants; only `-e <repo root>` (the package manifest) differs. */
function piArgs(withTimebox: boolean, prompt: string): string[] {
	return [
		"--no-extensions",
		"--no-session",
		"-e",
		DEMO_MODEL,
		"-e",
		PROBE,
		...(withTimebox ? ["-e", REPO_ROOT] : []),
		"--model",
		"timebox-demo/scripted",
		"-p",
		prompt,
	];
}

/** Fails unless the run exited cleanly with the probe's output showing Timebox loaded or not, as asked. */
function check(result: ProcessResult, withTimebox: boolean): void {
	const line = new RegExp(`^${PROBE_COMMAND}: (.*)$`, "m").exec(result.stderr);
	const commands = line?.[1]?.split(",") ?? [];
	if (result.code !== 0 || !commands.includes(PROBE_COMMAND) || commands.includes("timebox") !== withTimebox) {
		throw new Error(
			`pi start-up run (${withTimebox ? "with" : "without"} Timebox) went wrong: exit ${result.code}\n${result.stderr}`,
		);
	}
}

/**
 * Median ms of pi's `DefaultResourceLoader.reload()` (extension discovery and loading through jiti) with the same
 * extensions as the CLI runs, without and with the package root, alternating, after a warm-up of each.
 */
async function measureLoader(home: string, temp: string): Promise<{ withoutMs: number; withMs: number }> {
	const keys = ["HOME", "PI_CODING_AGENT_DIR", "TMPDIR"] as const;
	const saved = new Map<string, string | undefined>(keys.map((key) => [key, process.env[key]]));
	const agentDir = join(home, ".pi/agent");
	Object.assign(process.env, { HOME: home, PI_CODING_AGENT_DIR: agentDir, TMPDIR: temp });
	try {
		const reload = async (withTimebox: boolean): Promise<number> => {
			const loader = new DefaultResourceLoader({
				cwd: home,
				agentDir,
				additionalExtensionPaths: [DEMO_MODEL, PROBE, ...(withTimebox ? [REPO_ROOT] : [])],
				noExtensions: true,
			});
			const started = nowMs();
			await loader.reload();
			const elapsed = nowMs() - started;
			const loaded = loader.getExtensions();
			const hasTimebox = loaded.extensions.some((extension) => extension.commands.has("timebox"));
			if (loaded.errors.length > 0 || hasTimebox !== withTimebox) {
				throw new Error(`pi's loader went wrong: ${JSON.stringify(loaded.errors)}`);
			}
			return elapsed;
		};
		for (const withTimebox of [false, true, false, true]) await reload(withTimebox);
		const without: number[] = [];
		const withTimebox: number[] = [];
		for (let run = 0; run < LOADER_RUNS; run++) {
			for (const loaded of run % 2 === 0 ? [false, true] : [true, false]) {
				(loaded ? withTimebox : without).push(await reload(loaded));
			}
		}
		return { withoutMs: median(without), withMs: median(withTimebox) };
	} finally {
		for (const [key, value] of saved) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	}
}

/** Runs benchmark 2 in a throwaway HOME, agent dir, cwd and TMPDIR (jiti's cache), removed afterwards. */
export async function measureStartup(): Promise<StartupResult> {
	const root = mkdtempSync(join(tmpdir(), "timebox-bench-startup-"));
	try {
		const home = join(root, "home");
		const cwd = join(root, "project");
		const temp = join(root, "tmp");
		for (const dir of [home, cwd, temp]) mkdirSync(dir, { recursive: true });
		const env = cleanEnv({ HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent"), PI_OFFLINE: "1", TMPDIR: temp });
		const pi = (withTimebox: boolean, prompt = `/${PROBE_COMMAND}`): Promise<ProcessResult> =>
			runProcess(PI_BIN, piArgs(withTimebox, prompt), { cwd, env, timeoutMs: TIMEOUT_MS });

		// Timebox really runs in this mode: its command answers (session_start ran before it).
		const status = await pi(true, "/timebox status");
		if (status.code !== 0 || !status.stderr.includes("[timebox] info: No active timebox.")) {
			throw new Error(`Timebox did not answer /timebox status in pi -p: exit ${status.code}\n${status.stderr}`);
		}
		// Warm-up: fills jiti's transform cache and the OS file cache for both variants.
		for (const withTimebox of [false, true, false, true]) check(await pi(withTimebox), withTimebox);

		const without: number[] = [];
		const withTimebox: number[] = [];
		for (let run = 0; run < STARTUP_RUNS; run++) {
			// ABBA order, so that neither variant always runs first.
			for (const loaded of run % 2 === 0 ? [false, true] : [true, false]) {
				const result = await pi(loaded);
				check(result, loaded);
				(loaded ? withTimebox : without).push(result.ms);
			}
		}
		const withoutMs = median(without);
		const withMs = median(withTimebox);
		progress(
			`start-up: without ${without.map(Math.round).join(" ")} ms; with ${withTimebox.map(Math.round).join(" ")} ms`,
		);
		const loader = { ...(await measureLoader(home, temp)), runs: LOADER_RUNS };
		return { withoutMs, withMs, ratio: withMs / withoutMs, runs: STARTUP_RUNS, loader };
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}
