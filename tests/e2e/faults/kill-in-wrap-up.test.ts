// The on-stop command of a budget with a grace period, when the process that runs the wrap-up ends before the run
// does: pi killed (its whole process group, as a Ctrl+C or a closed terminal ends it) while the model wraps up, and a
// Claude Code session whose Stop hook never comes (the host killed, or its user pressing Esc). The command waits for
// the end of the run, which nobody claims then: the next process of the session (pi reopened), or the next hook once
// the time to wrap up is over, starts it, once, and tells the user once that it ran late.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_FOLDER } from "../../../src/core/index.ts";
import { outputOf } from "../../support/processes.ts";
import { TIMEBOX_BIN } from "../claude/support/claude.ts";
import { BUNDLED_PI } from "../support/pi-hosts.ts";
import { SCRIPTED_MODEL } from "../support/scripted-model.ts";

const LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";
const REPO = resolve(import.meta.dirname, "../../..");

let root: string;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-kill-in-wrap-up-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The lines the on-stop command wrote, once nothing more came for a while (anything run twice comes within it). */
async function linesWritten(file: string): Promise<string[]> {
	const read = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
	const deadline = Date.now() + 15_000;
	while (read().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
	await new Promise((resolve) => setTimeout(resolve, 1_500));
	return read();
}

describe.concurrent("a run that wraps up after its stop, whose process ends before the run does", () => {
	it("in pi killed mid wrap-up: the reopened session runs the on-stop command once, and says it ran late", async () => {
		const home = join(root, "pi-home");
		const project = join(root, "pi-project");
		const ledger = join(home, ".pi/agent", LEDGER_FOLDER);
		mkdirSync(project, { recursive: true });
		mkdirSync(ledger, { recursive: true });
		const ran = join(root, "pi-ran.txt");
		const script = join(root, "pi-script.json");
		const env: NodeJS.ProcessEnv = {
			...process.env,
			HOME: home,
			PI_OFFLINE: "1",
			PI_CODING_AGENT_DIR: join(home, ".pi/agent"),
			TIMEBOX_E2E_SCRIPT: script,
			TIMEBOX_E2E_LOG: join(root, "pi-requests.jsonl"),
			PATH: [dirname(BUNDLED_PI.node), process.env.PATH].join(delimiter),
		};
		delete env.PI_TIMEBOX;
		delete env.XDG_STATE_HOME;
		/** `pi -p` (in a process group of its own), `-c` to continue the session. */
		const pi = (messages: string[], more: string[] = []) =>
			spawn(
				BUNDLED_PI.node,
				[
					BUNDLED_PI.cli,
					"-e",
					join(REPO, "plugins/pi/timebox/index.js"),
					"-e",
					join(REPO, "tests/e2e/support/scripted-model.ts"),
					"--model",
					SCRIPTED_MODEL,
					...more,
					"-p",
					...messages,
				],
				{ cwd: project, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
			);
		// The model runs a tool that outlasts the budget: the stop lets the run wrap up for 20 s.
		writeFileSync(script, JSON.stringify([{ tool: "bash", args: { command: "sleep 8" } }, { text: "wrapped up" }]));
		const first = pi([`/timebox 2s grace:20s -- sleep 1; echo stopped >> '${ran}'`, "do the work"]);
		const firstEnded = outputOf(first);
		// Killed, with everything it started, a moment after the stop's claim appears: the run is wrapping up.
		let killed = false;
		const watcher = watch(ledger, (_event, name) => {
			if (killed || !name?.endsWith(".spent.json")) return;
			killed = true;
			setTimeout(() => process.kill(-(first.pid as number), "SIGKILL"), 300);
		});
		const { stderr: before } = await firstEnded;
		watcher.close();
		expect(killed).toBe(true);
		expect(before).toContain("The agent is wrapping up");
		expect(readdirSync(ledger).some((name) => name.endsWith(".ended.json"))).toBe(false);

		writeFileSync(script, JSON.stringify([{ text: "hello" }]));
		const reopened = await outputOf(pi(["/timebox status"], ["-c"]));
		expect(reopened.stderr.split(LATE)).toHaveLength(2);
		expect(reopened.stderr).toContain(`Timebox ran the on-stop command: sleep 1; echo stopped >> '${ran}'`);
		const again = await outputOf(pi(["/timebox status"], ["-c"]));
		expect(again.stderr).not.toContain(LATE);
		expect(await linesWritten(ran)).toEqual(["stopped"]);
	});

	it("in Claude Code whose Stop hook never comes: the next prompt after the wrap-up's time runs it once, late", async () => {
		const data = join(root, "hooks-data");
		const ran = join(root, "hooks-ran.txt");
		const session = "3f1c2a4e-0000-4000-8000-00000000a11a";
		/** One event, to the hook script, as Claude Code sends it. */
		const hook = async (input: Record<string, unknown>) => {
			const child = spawn(process.execPath, [TIMEBOX_BIN, "hook"], {
				env: { PATH: process.env.PATH, HOME: join(root, "hooks-home"), CLAUDE_PLUGIN_DATA: data },
				stdio: ["pipe", "pipe", "ignore"],
			});
			const output = outputOf(child);
			child.stdin?.end(JSON.stringify({ session_id: session, cwd: root, ...input }));
			return (await output).stdout;
		};
		const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
		const prompt = (text: string, id: string) =>
			hook({ hook_event_name: "UserPromptSubmit", prompt: text, prompt_id: id });
		expect(await prompt(`/timebox 1s grace:2s -- echo stopped >> '${ran}'`, "p1")).toContain("Timebox set: 1s");
		expect(await prompt("work", "p2")).toBe("");
		await wait(1_100);
		// The run's next tool, past the budget: the stop, and 2 s to wrap up.
		const tool = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, prompt_id: "p2" };
		expect(await hook(tool)).toContain("The agent is wrapping up");
		// Claude Code ends here: no Stop hook. A prompt typed while the wrap-up may still go on leaves it be.
		expect(await prompt("too soon", "p3")).not.toContain(LATE);
		expect(existsSync(ran)).toBe(false);
		await wait(2_100);
		const next = await prompt("next", "p4");
		expect(next.split(LATE)).toHaveLength(2);
		expect(await prompt("again", "p5")).not.toContain(LATE);
		expect(await linesWritten(ran)).toEqual(["stopped"]);
	});
});
