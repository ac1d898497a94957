// Benchmark 6: what Timebox's hooks cost Claude Code: one hook process against bare Node start-up, and whole
// `claude -p` runs with and without the plugin, against a loopback fake API, in a throwaway HOME.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	PLUGIN_DIR,
	runClaude,
	TIMEBOX_BIN,
} from "../e2e/claude/support/claude.ts";
import { median, nowMs, runProcess } from "./stats.ts";

/** Timed runs of each process, alternating. */
export const HOOK_RUNS = 15;
export const PRINT_RUNS = 5;

export interface HookCostResult {
	nodeMs: number;
	hookMs: number;
	withoutPluginMs: number;
	withPluginMs: number;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
	const started = nowMs();
	await run();
	return nowMs() - started;
}

/** A UserPromptSubmit hook call with a budget in force, against bare `node -e 0`; then `claude -p` with and without. */
export async function measureHookCost(): Promise<HookCostResult> {
	const data = mkdtempSync(join(tmpdir(), "timebox-bench-hook-"));
	const env = { PATH: process.env.PATH, CLAUDE_PLUGIN_DATA: data };
	const payload = (prompt: string, id: string) =>
		JSON.stringify({ session_id: "bench", hook_event_name: "UserPromptSubmit", prompt, prompt_id: id });
	try {
		await runProcess(process.execPath, [TIMEBOX_BIN, "hook"], { input: payload("/timebox 1h turns:1000", "p0"), env });
		const node: number[] = [];
		const hook: number[] = [];
		for (let run = 0; run < HOOK_RUNS; run++) {
			node.push(await timed(() => runProcess(process.execPath, ["-e", "0"], { env })));
			hook.push(
				await timed(() =>
					runProcess(process.execPath, [TIMEBOX_BIN, "hook"], { input: payload(`prompt ${run}`, `p${run + 1}`), env }),
				),
			);
		}
		const print = await measurePrintRuns();
		return { nodeMs: median(node), hookMs: median(hook), ...print };
	} finally {
		rmSync(data, { recursive: true, force: true });
	}
}

async function measurePrintRuns(): Promise<{ withoutPluginMs: number; withPluginMs: number }> {
	await ensureClaudeCode();
	const api = await FakeAnthropic.start();
	const box = await createSandbox();
	try {
		const options = { home: box.home, cwd: box.cwd, apiUrl: api.url };
		const without: number[] = [];
		const withPlugin: number[] = [];
		for (let run = 0; run < PRINT_RUNS; run++) {
			api.reply({ text: "plain" });
			without.push(await timed(() => runClaude(["-p", "hello"], options)));
			api.reply({ text: "with" });
			withPlugin.push(await timed(() => runClaude(["-p", "--plugin-dir", PLUGIN_DIR, "hello"], options)));
		}
		return { withoutPluginMs: median(without), withPluginMs: median(withPlugin) };
	} finally {
		await api.close();
		await box.cleanup();
	}
}
