// Benchmark 6: what Timebox's hooks cost the hook hosts: whole print runs (`claude -p`, `gemini -p`, `codex exec`) with and without Timebox, against loopback fake APIs, in throwaway HOMEs.
// Claude Code runs the plugin's hooks module in its own process where it can (function hooks), and the classic hooks
// where it refuses modules: both are measured, the module against the floor of any hooks-module plugin.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeResponses } from "../../demo/fakes/responses.ts";
import { createSandbox, ensureClaudeCode, FakeAnthropic, PLUGIN_DIR, runClaude } from "../e2e/claude/support/claude.ts";
import { CODEX, ensureCodex, REPO, writeCodexConfig } from "../e2e/codex/support.ts";
import { EXTENSION, ensureGemini, FakeGemini, GEMINI, writeGeminiSettings } from "../e2e/gemini/support.ts";
import { median, nowMs, runProcess } from "./stats.ts";

/** Timed runs of each process, alternating. */
export const PRINT_RUNS = 5;
/** `claude -p` runs of each of its five kinds, alternating: a start-up whose cost varies on a busy machine. */
export const CLAUDE_PRINT_RUNS = 9;
/** `codex exec` answers in well under a second: more runs of each kind keep its median steady on a busy machine. */
export const CODEX_RUNS = 11;
/** The budget in force in the runs that have one: a default for every new session, which every hook must enforce. */
export const CODEX_BUDGET = "1h turns:1000";

/** One host's print runs: the median of each, without and with Timebox. */
export interface PrintRuns {
	withoutPluginMs: number;
	withPluginMs: number;
}

/** `codex exec` with the plugin also with a budget in force. */
export interface CodexRuns extends PrintRuns {
	withBudgetMs: number;
}

/**
 * `claude -p` one answer: without any plugin, with the plugin where its hooks module loads (`withPluginMs`), with a
 * plugin whose hooks module registers nothing (the floor of any hooks-module plugin), with a plugin whose hooks module
 * imports Timebox's bundle and registers nothing (what Claude Code's reading of Timebox's code costs), and with the
 * plugin where Claude Code refuses hooks modules (the classic hooks alone).
 */
export interface ClaudePrintRuns extends PrintRuns {
	emptyModuleMs: number;
	bundleOnlyMs: number;
	classicMs: number;
}

export interface HookCostResult extends ClaudePrintRuns {
	gemini: PrintRuns;
	codex: CodexRuns;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
	const started = nowMs();
	await run();
	return nowMs() - started;
}

/** `claude -p`, `gemini -p` and `codex exec`, each with and without Timebox. */
export async function measureHookCost(): Promise<HookCostResult> {
	const print = await measurePrintRuns();
	return { ...print, gemini: await measureGeminiRuns(), codex: await measureCodexRuns() };
}

/** A plugin whose `hooks/hooks.json` names a hooks module that registers nothing, written under `root`. */
function emptyModulePlugin(root: string): string {
	const plugin = join(root, "empty-module-plugin");
	mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
	mkdirSync(join(plugin, "hooks"));
	writeFileSync(join(plugin, ".claude-plugin/plugin.json"), JSON.stringify({ name: "empty-module" }));
	writeFileSync(join(plugin, "hooks/hooks.json"), JSON.stringify({ modules: ["./register.ts"] }));
	writeFileSync(join(plugin, "hooks/register.ts"), "// Registers nothing.\nexport function register() {}\n");
	return plugin;
}

/**
 * A plugin whose hooks module imports Timebox's bundle (a copy beside it) and registers nothing, written under `root`:
 * Claude Code reads, checks and evaluates the same code as the plugin's, and no hook of it runs.
 */
function bundleOnlyPlugin(root: string): string {
	const plugin = join(root, "bundle-only-plugin");
	mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
	mkdirSync(join(plugin, "hooks"));
	writeFileSync(join(plugin, ".claude-plugin/plugin.json"), JSON.stringify({ name: "bundle-only" }));
	writeFileSync(join(plugin, "hooks/hooks.json"), JSON.stringify({ modules: ["./register.js"] }));
	copyFileSync(join(PLUGIN_DIR, "hooks/timebox-module.js"), join(plugin, "hooks/timebox-module.js"));
	writeFileSync(
		join(plugin, "hooks/register.js"),
		'// Reads Timebox\'s bundle and registers nothing.\nimport "./timebox-module.js";\nexport function register() {}\n',
	);
	return plugin;
}

/** `claude -p hello`, the five kinds of run alternating (see ClaudePrintRuns); hooks modules refused in their own HOME. */
async function measurePrintRuns(): Promise<ClaudePrintRuns> {
	await ensureClaudeCode();
	const api = await FakeAnthropic.start();
	const box = await createSandbox("function hooks");
	const classic = await createSandbox("classic hooks");
	try {
		const options = { home: box.home, cwd: box.cwd, apiUrl: api.url };
		const empty = emptyModulePlugin(box.root);
		const bundleOnly = bundleOnlyPlugin(box.root);
		const print =
			(args: string[], home = box.home, cwd = box.cwd) =>
			() => {
				api.reply({ text: "answer" });
				return runClaude(["-p", ...args, "hello"], { ...options, home, cwd });
			};
		const kinds = {
			without: print([]),
			withPlugin: print(["--plugin-dir", PLUGIN_DIR]),
			emptyModule: print(["--plugin-dir", empty]),
			bundleOnly: print(["--plugin-dir", bundleOnly]),
			classic: print(["--plugin-dir", PLUGIN_DIR], classic.home, classic.cwd),
		};
		const times = {
			without: [] as number[],
			withPlugin: [] as number[],
			emptyModule: [] as number[],
			bundleOnly: [] as number[],
			classic: [] as number[],
		};
		for (let run = 0; run < CLAUDE_PRINT_RUNS; run++) {
			for (const kind of ["without", "withPlugin", "emptyModule", "bundleOnly", "classic"] as const) {
				times[kind].push(await timed(kinds[kind]));
			}
		}
		return {
			withoutPluginMs: median(times.without),
			withPluginMs: median(times.withPlugin),
			emptyModuleMs: median(times.emptyModule),
			bundleOnlyMs: median(times.bundleOnly),
			classicMs: median(times.classic),
		};
	} finally {
		await api.close();
		await box.cleanup();
		await classic.cleanup();
	}
}

/** A scratch HOME with a work folder; removed by the returned function. */
function scratch(name: string): { root: string; home: string; work: string; remove: () => void } {
	const root = mkdtempSync(join(tmpdir(), `timebox-bench-${name}-`));
	const home = join(root, "home");
	const work = join(root, "work");
	mkdirSync(work, { recursive: true });
	mkdirSync(home, { recursive: true });
	return { root, home, work, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** `gemini -p` one answer, in a HOME without the extension and one with it linked. */
async function measureGeminiRuns(): Promise<PrintRuns> {
	await ensureGemini();
	const api = await FakeGemini.start();
	const plain = scratch("gemini-plain");
	const linked = scratch("gemini-linked");
	const run = (home: string, work: string, args: string[]) =>
		runProcess(GEMINI, args, {
			cwd: work,
			env: {
				PATH: process.env.PATH,
				HOME: home,
				GEMINI_API_KEY: "fake-key",
				GOOGLE_GEMINI_BASE_URL: api.url,
				GEMINI_CLI_TRUST_WORKSPACE: "true",
				GEMINI_CLI_NO_RELAUNCH: "true",
			},
		});
	try {
		writeGeminiSettings(plain.home);
		writeGeminiSettings(linked.home);
		await run(linked.home, linked.work, ["extensions", "link", EXTENSION, "--consent"]);
		const without: number[] = [];
		const withPlugin: number[] = [];
		for (let index = 0; index < PRINT_RUNS; index++) {
			without.push(await timed(() => run(plain.home, plain.work, ["-p", "hello"])));
			withPlugin.push(await timed(() => run(linked.home, linked.work, ["-p", "hello"])));
		}
		return { withoutPluginMs: median(without), withPluginMs: median(withPlugin) };
	} finally {
		await api.close();
		plain.remove();
		linked.remove();
	}
}

/**
 * `codex exec` one answer, in a CODEX_HOME without the plugin and one with it installed (hooks trusted for the run):
 * with no budget in force, and with a default budget (`TIMEBOX_DEFAULT`) that every hook enforces. The three kinds of
 * run alternate.
 */
export async function measureCodexRuns(): Promise<CodexRuns> {
	await ensureCodex();
	const api = await FakeResponses.start();
	const plain = scratch("codex-plain");
	const installed = scratch("codex-plugin");
	const run = (home: string, work: string, args: string[], extra: Record<string, string> = {}) =>
		runProcess(CODEX, args, {
			cwd: work,
			env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, ".codex"), FAKE_API_KEY: "sk-fake", ...extra },
		});
	const exec = ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "hello"];
	try {
		writeCodexConfig(join(plain.home, ".codex"), api.url);
		writeCodexConfig(join(installed.home, ".codex"), api.url);
		await run(installed.home, installed.work, ["plugin", "marketplace", "add", REPO]);
		await run(installed.home, installed.work, ["plugin", "add", "timebox@timebox"]);
		const without: number[] = [];
		const withPlugin: number[] = [];
		const withBudget: number[] = [];
		for (let index = 0; index < CODEX_RUNS; index++) {
			without.push(await timed(() => run(plain.home, plain.work, exec)));
			withPlugin.push(await timed(() => run(installed.home, installed.work, exec)));
			withBudget.push(await timed(() => run(installed.home, installed.work, exec, { TIMEBOX_DEFAULT: CODEX_BUDGET })));
		}
		return { withoutPluginMs: median(without), withPluginMs: median(withPlugin), withBudgetMs: median(withBudget) };
	} finally {
		await api.close();
		plain.remove();
		installed.remove();
	}
}
