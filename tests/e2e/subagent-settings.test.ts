// The subagent budget from the environment and from pi's settings on real pi (`pi -p`, offline): `/timebox subagents`
// shows the budget TIMEBOX_SUBAGENTS gave with its source, and a bad entry in the project's settings is named with
// the file and gives no subagent a budget.

import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../support/processes.ts";
import { RealPi } from "./support/real-pi.ts";

let host: RealPi;
beforeEach(() => {
	host = new RealPi();
});
afterEach(async () => {
	await host.dispose();
});

/** `pi -p "/timebox subagents"` with Timebox and the offline model loaded, and the given environment. */
async function showSubagentBudget(extraEnv: NodeJS.ProcessEnv): Promise<{ stderr: string; code: number | null }> {
	const repo = resolve(import.meta.dirname, "../..");
	const env = { ...process.env, HOME: host.home, PI_OFFLINE: "1", PI_CODING_AGENT_DIR: host.agentDir, ...extraEnv };
	const args = ["-e", repo, "-e", join(repo, "demo/offline-model.ts"), "--model", "timebox-demo/scripted"];
	return runProcess(join(repo, "node_modules/.bin/pi"), [...args, "-p", "/timebox subagents"], {
		cwd: host.cwd,
		env,
		timeoutMs: 60_000,
	});
}

describe("the subagent budget on real pi", () => {
	it("comes from TIMEBOX_SUBAGENTS, and /timebox subagents names it", async () => {
		const result = await showSubagentBudget({ TIMEBOX_SUBAGENTS: "5m steps:30" });
		expect(result.stderr).toContain(
			"[timebox] info: Timebox: subagent budget (TIMEBOX_SUBAGENTS): every subagent: 5m and 30 model calls.",
		);
		expect(result.code).toBe(0);
	});

	it("names a bad entry of the project's settings with the file, and no subagent gets a budget", async () => {
		const file = join(host.cwd, ".pi", "settings.json");
		mkdirSync(join(host.cwd, ".pi"), { recursive: true });
		writeFileSync(file, JSON.stringify({ timebox: { subagents: { "*": "5m", Explore: "turns:2" } } }));
		const result = await showSubagentBudget({});
		// Said as the session starts, and again by /timebox subagents: not that no subagent budget was set.
		const named = `[timebox] warning: Timebox: timebox.subagents in ${file}: {"*":"5m","Explore":"turns:2"} has a bad budget for "Explore" (turns: counts the prompts you send`;
		expect(result.stderr.split(named)).toHaveLength(3);
		expect(result.stderr).not.toContain("no subagent budget");
	});
});
