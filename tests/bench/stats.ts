// Shared helpers of the benchmarks: medians, formatting, the machine description and child processes with timing.

import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";

/** The repository root, where package.json names the Timebox entry. */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");

/** pi's CLI as installed in the repository. */
export const PI_BIN = join(REPO_ROOT, "node_modules/.bin/pi");

/** The median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
	if (values.length === 0) throw new Error("median of nothing");
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const upper = sorted[middle] ?? Number.NaN;
	return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

/** The largest of a non-empty list of numbers. */
export function max(values: readonly number[]): number {
	if (values.length === 0) throw new Error("max of nothing");
	return Math.max(...values);
}

/** A duration given in ms, shown with a unit that keeps three significant digits (ns, µs, ms or s). */
export function formatMs(ms: number): string {
	if (ms === 0) return "0 ms";
	if (ms < 0.001) return `${(ms * 1e6).toPrecision(3)} ns`;
	if (ms < 1) return `${(ms * 1e3).toPrecision(3)} µs`;
	if (ms < 1_000) return `${ms.toPrecision(3)} ms`;
	return `${(ms / 1_000).toPrecision(3)} s`;
}

/** The current time in ms with sub-µs resolution, for timing code in this process. */
export function nowMs(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}

/** Logs progress on stderr, so that stdout holds only the final table. */
export function progress(line: string): void {
	console.error(`[bench] ${line}`);
}

/** CPU model, core count, Node and pi versions. */
export function machine(): { cpu: string; cores: number; node: string; pi: string } {
	let cpu = "unknown CPU";
	try {
		const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
		if (match?.[1]) cpu = match[1].trim();
	} catch {
		// Not Linux: leave the model unknown.
	}
	const piPackage = join(REPO_ROOT, "node_modules/@mariozechner/pi-coding-agent/package.json");
	const pi = (JSON.parse(readFileSync(piPackage, "utf8")) as { version: string }).version;
	return { cpu, cores: availableParallelism(), node: process.version, pi };
}

export type { RunResult as ProcessResult } from "../support/processes.ts";
export { runProcess } from "../support/processes.ts";

/** The environment of this process without vitest's own variables, for children that must not think they are workers. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!key.startsWith("VITEST") && key !== "TEST") env[key] = value;
	}
	return { ...env, ...extra };
}
