// One real pi process with Timebox and the scripted model, in a throwaway HOME: what the tests that run pi as a process
// (on every pi version of pi-hosts.ts) share. pi runs in print mode, so Timebox's notices come on stderr.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RunResult } from "../../support/processes.ts";
import { type PiHost, runPi } from "./pi-hosts.ts";
import { type LoggedRequest, SCRIPTED_MODEL, type ScriptedAnswer } from "./scripted-model.ts";

const REPO = resolve(import.meta.dirname, "../../..");
/** Timebox's extension as the package ships it: its entry, which runs the code beside it (npm run build). */
const TIMEBOX_ENTRY = join(REPO, "plugins/pi/timebox/index.js");
const SCRIPTED_MODEL_FILE = join(REPO, "tests/e2e/support/scripted-model.ts");

export class PiProcess {
	readonly root = mkdtempSync(join(tmpdir(), "timebox-pi-process-"));
	readonly home = join(this.root, "home");
	readonly project = join(this.root, "project");
	private readonly script = join(this.root, "script.json");
	private readonly log = join(this.root, "requests.jsonl");

	constructor(readonly host: PiHost) {
		mkdirSync(this.home, { recursive: true });
		mkdirSync(this.project, { recursive: true });
	}

	/** The environment pi runs with: the throwaway HOME and agent dir, offline, no default budget of the developer's. */
	env(): NodeJS.ProcessEnv {
		const env: NodeJS.ProcessEnv = {
			...process.env,
			HOME: this.home,
			PI_OFFLINE: "1",
			PI_CODING_AGENT_DIR: join(this.home, ".pi/agent"),
			TIMEBOX_E2E_SCRIPT: this.script,
			TIMEBOX_E2E_LOG: this.log,
		};
		delete env.PI_TIMEBOX;
		delete env.XDG_STATE_HOME;
		return env;
	}

	/** `pi <args>` as it is, for pi install and pi list. */
	run(args: readonly string[]): Promise<RunResult> {
		return runPi(this.host, args, { cwd: this.project, env: this.env() });
	}

	/**
	 * `pi -p` with Timebox loaded from its entry and the scripted model answering `answers` in order ("done" after them);
	 * `messages` are sent one after the other, as a user types them; `env` adds to the environment pi runs with.
	 */
	print(
		answers: readonly ScriptedAnswer[],
		messages: readonly string[],
		more: readonly string[] = [],
		env: NodeJS.ProcessEnv = {},
	): Promise<RunResult> {
		writeFileSync(this.script, JSON.stringify(answers));
		const args = [
			"-e",
			TIMEBOX_ENTRY,
			"-e",
			SCRIPTED_MODEL_FILE,
			"--model",
			SCRIPTED_MODEL,
			...more,
			"-p",
			...messages,
		];
		return runPi(this.host, args, { cwd: this.project, env: { ...this.env(), ...env }, timeoutMs: 60_000 });
	}

	/**
	 * `pi -p` with Timebox loaded from its entry and, in place of the scripted model, a model of the Anthropic Messages
	 * API at `apiUrl` (a loopback fake), priced as Sonnet and allowing 32,000 output tokens.
	 */
	printWithApi(apiUrl: string, messages: readonly string[]): Promise<RunResult> {
		const agentDir = join(this.home, ".pi/agent");
		mkdirSync(agentDir, { recursive: true });
		const model = {
			id: "claude-fake",
			reasoning: false,
			input: ["text"],
			cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			contextWindow: 200_000,
			maxTokens: 32_000,
		};
		const providers = {
			"fake-anthropic": { baseUrl: apiUrl, api: "anthropic-messages", apiKey: "x", models: [model] },
		};
		writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }));
		const args = ["-e", TIMEBOX_ENTRY, "--model", "fake-anthropic/claude-fake", "-p", ...messages];
		return runPi(this.host, args, { cwd: this.project, env: this.env(), timeoutMs: 60_000 });
	}

	/** The requests the model got, oldest first. */
	requests(): LoggedRequest[] {
		if (!existsSync(this.log)) return [];
		return readFileSync(this.log, "utf8")
			.split("\n")
			.filter(Boolean)
			.map((line) => JSON.parse(line) as LoggedRequest);
	}

	dispose(): void {
		rmSync(this.root, { recursive: true, force: true });
	}
}

/** Timebox's notices of one level in a print-mode run's stderr. */
export function notices(result: RunResult, level: "info" | "warning" | "error"): string[] {
	const prefix = `[timebox] ${level}: `;
	return result.stderr
		.split("\n")
		.filter((line) => line.startsWith(prefix))
		.map((line) => line.slice(prefix.length));
}
