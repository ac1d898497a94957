// A real hook process killed (`kill -9`) at every moment of the write that stops a budget: Claude Code's bundled hook
// script, started as Claude Code starts it, killed after a delay that sweeps its run from before its first write to
// after its last. After each kill the next hooks run as Claude Code's would: the budget is spent, the on-stop command
// ran once (started late by the next hook when the kill came between the stop's claim and its start, which that hook
// then says, once), the session's log reads whole, and the next /timebox command works.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LEDGER_FOLDER } from "../../../src/core/index.ts";
import { TIMEBOX_BIN } from "../claude/support/claude.ts";

const LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";

const SESSION = "3f1c2a4e-0000-4000-8000-00000000dead";
let root: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-kill-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Claude Code's UserPromptSubmit of `prompt` as prompt `id`, to the hook script; killed after `killAfterMs` if set. */
function hook(
	dataDir: string,
	prompt: string,
	id: string,
	killAfterMs?: number,
): Promise<{ stdout: string; killed: boolean }> {
	const input = JSON.stringify({ session_id: SESSION, hook_event_name: "UserPromptSubmit", prompt, prompt_id: id });
	return new Promise((done) => {
		const child = spawn(process.execPath, [TIMEBOX_BIN, "hook"], {
			env: { PATH: process.env.PATH, HOME: join(root, "home"), CLAUDE_PLUGIN_DATA: dataDir },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stdin.end(input);
		const killer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
		child.once("close", (_code, signal) => {
			clearTimeout(killer);
			done({ stdout, killed: signal === "SIGKILL" });
		});
	});
}

function lines(file: string): string[] {
	return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

describe("a hook process killed while it stops a budget", () => {
	it("leaves the budget spent, the on-stop command run once, the log whole and /timebox working, at every delay", async () => {
		const delays = [0, 25, 50, 75, 100, 150, 200, 300, 500, 800];
		const killed: number[] = [];
		/** The delays whose kill came between the stop's claim and its start: the next hook started it late. */
		const late: number[] = [];
		for (const delay of delays) {
			const dataDir = join(root, `data-${delay}`);
			const ran = join(root, `ran-${delay}.txt`);
			expect((await hook(dataDir, `/timebox turns:1 -- echo stopped >> '${ran}'`, "p0")).stdout).toContain(
				"Timebox set: 1 turn.",
			);
			expect((await hook(dataDir, "one", "p1")).stdout).toBe("");
			// The prompt past the limit: the hook that refuses it and claims the stop is killed after `delay` ms.
			const wasKilled = (await hook(dataDir, "two", "p2", delay)).killed;
			if (wasKilled) killed.push(delay);
			// Claude Code goes on: the next prompt's hook, then the person's commands.
			const next = await hook(dataDir, "three", "p3");
			// It started the command late if, and only if, the kill left it claimed and not started; and said so, once.
			const ledger = join(dataDir, LEDGER_FOLDER);
			const recovered =
				existsSync(ledger) && readdirSync(ledger).some((name) => name.endsWith(".onStopRecovered.json"));
			if (recovered) late.push(delay);
			expect(next.stdout.split(LATE).length - 1, `killed after ${delay} ms`).toBe(recovered ? 1 : 0);
			const status = await hook(dataDir, "/timebox status", "p4");
			expect(status.stdout, `killed after ${delay} ms`).toContain("Timebox budget spent. Used 1 turn");
			expect(status.stdout).not.toContain(LATE);
			const deadline = Date.now() + 5_000;
			while (lines(ran).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
			expect(lines(ran), `killed after ${delay} ms`).toEqual(["stopped"]);
			const log = readFileSync(join(dataDir, "sessions", `${SESSION}.jsonl`), "utf8")
				.split("\n")
				.filter(Boolean);
			const torn = log.filter((line) => {
				try {
					JSON.parse(line);
					return false;
				} catch {
					return true;
				}
			});
			expect(torn.length, `killed after ${delay} ms`).toBeLessThanOrEqual(1);
			expect((await hook(dataDir, "/timebox off", "p5")).stdout).toContain("Timebox off.");
			// Once more after a while: the on-stop command never ran a second time.
			expect(lines(ran)).toEqual(["stopped"]);
		}
		console.log(`hook processes killed mid-run at ${killed.join(", ")} ms (the others had ended)`);
		console.log(`on-stop command started late by the next hook at: ${late.join(", ") || "none"}`);
		expect(killed.length).toBeGreaterThan(0);
	});
});
