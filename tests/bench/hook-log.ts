// Benchmark 1d: a hook folds its session's log once, so a long session costs a hook about what a short one does: the
// bundled hook script on UserPromptSubmit (a budget in force), in a fresh process each time, as Claude Code runs it, on
// a log of 10 lines against one of 10,000, alternating. The first hook on the long log reads it whole and keeps its
// summary (`<session>.fold.json`); the others read on from there, as a long session's hooks do.

import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TIMEBOX_BIN } from "../e2e/claude/support/claude.ts";
import { median, nowMs, progress, runProcess } from "./stats.ts";

/** The two sizes of the session's log, in lines. */
export const HOOK_LOG_SIZES = [10, 10_000] as const;
/** Timed hooks of each size, alternating. */
export const HOOK_LOG_RUNS = 15;

export interface HookLogResult {
	/** The median hook on the short log, and on the long one, in ms. */
	shortMs: number;
	longMs: number;
}

const SESSION = "bench";

function payload(prompt: string, id: string): string {
	return JSON.stringify({ session_id: SESSION, hook_event_name: "UserPromptSubmit", prompt, prompt_id: id });
}

/**
 * A session's log of `lines` lines under a budget in force: set by the hook itself, then a past session's lines, per
 * prompt its line, two more model calls, what it used and its end.
 */
async function sessionOf(root: string, lines: number): Promise<NodeJS.ProcessEnv> {
	const env = { PATH: process.env.PATH, HOME: join(root, "home"), CLAUDE_PLUGIN_DATA: join(root, `data-${lines}`) };
	// A budget of turns alone: one with time starts a detached watcher, which would outlive the bench's folder.
	const set = await runProcess(process.execPath, [TIMEBOX_BIN, "hook"], {
		input: payload("/timebox turns:100000", "set"),
		env,
	});
	if (!set.stdout.includes("Timebox set")) throw new Error(`the hook set no budget: ${set.stdout}${set.stderr}`);
	const past: string[] = [];
	const at = Date.now() - 3_600_000;
	for (let prompt = 0; past.length < lines - 1; prompt++) {
		const promptId = `past-${prompt}`;
		past.push(
			JSON.stringify({ kind: "prompt", promptId, at }),
			JSON.stringify({ kind: "call", promptId, at }),
			JSON.stringify({ kind: "call", promptId, at }),
			JSON.stringify({ kind: "usage", responseId: `${promptId}-r`, tokens: 1_200, at }),
			JSON.stringify({ kind: "ended", promptId, at }),
		);
	}
	appendFileSync(
		join(env.CLAUDE_PLUGIN_DATA, "sessions", `${SESSION}.jsonl`),
		`${past.slice(0, lines - 1).join("\n")}\n`,
	);
	return env;
}

/** A hook on each log, `HOOK_LOG_RUNS` times, alternating; fails unless each hook let its prompt through. */
export async function measureHookLog(): Promise<HookLogResult> {
	const root = mkdtempSync(join(tmpdir(), "timebox-bench-hook-log-"));
	try {
		const [short, long] = await Promise.all(HOOK_LOG_SIZES.map((lines) => sessionOf(root, lines)));
		const times = { short: [] as number[], long: [] as number[] };
		for (let run = 0; run < HOOK_LOG_RUNS; run++) {
			for (const [size, env] of [
				["short", short],
				["long", long],
			] as const) {
				const started = nowMs();
				const result = await runProcess(process.execPath, [TIMEBOX_BIN, "hook"], {
					input: payload(`prompt ${run}`, `p${run}`),
					env,
				});
				times[size].push(nowMs() - started);
				if (result.code !== 0 || result.stderr !== "" || result.stdout.includes('"block"')) {
					throw new Error(`the hook on the ${size} log went wrong: ${result.stdout}${result.stderr}`);
				}
			}
		}
		const ms = (values: number[]) => values.map(Math.round).join(" ");
		progress(`a hook on ${HOOK_LOG_SIZES.join(" / ")} log lines: ${ms(times.short)} / ${ms(times.long)} ms`);
		return { shortMs: median(times.short), longMs: median(times.long) };
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}
