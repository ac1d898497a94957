// Benchmark 4: wall time and vitest's reported Duration of the unit suite, without and with coverage (`npm test`).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, median, progress, REPO_ROOT, runProcess } from "./stats.ts";

/** Runs per variant. */
export const SUITE_RUNS = 3;

export interface SuiteFigures {
	durationMs: number;
	wallMs: number;
	/** Exit codes of runs that failed, if any. */
	failures: (number | null)[];
}

export interface UnitSuiteResult {
	plain: SuiteFigures;
	coverage: SuiteFigures;
	runs: number;
}

interface Samples {
	duration: number[];
	wall: number[];
	failures: (number | null)[];
}

const TIMEOUT_MS = 5 * 60_000;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;]*m/g;

/** vitest's `Duration  6.08s (…)` line, in ms, or undefined when the run printed none. */
function reportedDuration(output: string): number | undefined {
	const match = /Duration\s+([\d.]+)\s*(ms|s)\b/.exec(output.replace(ANSI, ""));
	return match?.[1] ? Number(match[1]) * (match[2] === "s" ? 1_000 : 1) : undefined;
}

/** Runs benchmark 4; coverage reports go to a throwaway folder instead of the repo's coverage/. */
export async function measureUnitSuite(): Promise<UnitSuiteResult> {
	const reports = mkdtempSync(join(tmpdir(), "timebox-bench-coverage-"));
	try {
		const env = cleanEnv({ NO_COLOR: "1", FORCE_COLOR: "0" });
		const variants = {
			plain: ["npx", ["vitest", "run", "--project", "unit"]],
			coverage: ["npm", ["test", "--", "--coverage.reportsDirectory", reports]],
		} as const;
		const figures: Record<keyof typeof variants, Samples> = {
			plain: { duration: [], wall: [], failures: [] },
			coverage: { duration: [], wall: [], failures: [] },
		};
		for (let run = 0; run < SUITE_RUNS; run++) {
			for (const name of ["plain", "coverage"] as const) {
				const [command, args] = variants[name];
				const result = await runProcess(command, args, { cwd: REPO_ROOT, env, timeoutMs: TIMEOUT_MS });
				const output = `${result.stdout}\n${result.stderr}`;
				const duration = reportedDuration(output);
				if (duration !== undefined) figures[name].duration.push(duration);
				figures[name].wall.push(result.ms);
				if (result.code !== 0) {
					figures[name].failures.push(result.code);
					const reasons = output.split("\n").filter((line) => /\b(ERROR|FAIL)\b/.test(line));
					const first = reasons[0]?.trim() ?? "no reason printed";
					progress(
						`unit suite (${name}) exited with ${result.code}: ${reasons.length} FAIL/ERROR lines, first: ${first}`,
					);
				}
			}
		}
		const summary = (name: keyof typeof variants): SuiteFigures => ({
			durationMs: figures[name].duration.length > 0 ? median(figures[name].duration) : Number.NaN,
			wallMs: median(figures[name].wall),
			failures: figures[name].failures,
		});
		progress(
			`unit suite: plain ${figures.plain.wall.map(Math.round).join(" ")} ms; coverage ${figures.coverage.wall.map(Math.round).join(" ")} ms`,
		);
		return { plain: summary("plain"), coverage: summary("coverage"), runs: SUITE_RUNS };
	} finally {
		rmSync(reports, { recursive: true, force: true });
	}
}
