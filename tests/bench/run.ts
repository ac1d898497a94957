// `npm run bench`: runs the Timebox benchmarks and prints one markdown table with the machine and the command.

import { it } from "vitest";
import { type ClaudeModuleResult, MODULE_RECORDS, MODULE_SAMPLES, measureClaudeModule } from "./claude-module.ts";
import { CLAUDE_STOP_BUDGET, CLAUDE_STOP_RUNS, type ClaudeStopResult, measureClaudeStop } from "./claude-stop.ts";
import { COLD_RUNS, COLD_SESSION_SIZE, type ColdStartResult, HOOK_RUNS, measureColdStart } from "./cold-start.ts";
import { DAILY_RECORDS, DAILY_SAMPLES, DAILY_SESSIONS, type DailyResult, measureDaily } from "./daily.ts";
import {
	HANDLERS,
	type HandlerName,
	type HandlerResult,
	measureHandlers,
	SAMPLING,
	SESSION_SIZES,
	WARMUP_SAMPLES,
} from "./handlers.ts";
import { HOOK_LOG_RUNS, HOOK_LOG_SIZES, type HookLogResult, measureHookLog } from "./hook-log.ts";
import {
	CLAUDE_PRINT_RUNS,
	CODEX_BUDGET,
	CODEX_RUNS,
	type CodexRuns,
	type HookCostResult,
	measureCodexRuns,
	measureHookCost,
	PRINT_RUNS,
	type PrintRuns,
} from "./hooks.ts";
import { loadRows, measureLoad } from "./load.ts";
import {
	CONVERSATION_MESSAGES,
	LOG_LINES,
	measureOpencode,
	OPENCODE_RUNS,
	OPENCODE_SAMPLES,
	type OpencodeResult,
} from "./opencode.ts";
import { type HostOvershoot, measureOvershoot, OVERSHOOT_RUNS } from "./overshoot.ts";
import { measureReportPage, PAGE_OPENS, PAGE_SUBAGENTS, PAGE_TURNS, type ReportPageResult } from "./report-page.ts";
import { measureStartup, type StartupResult } from "./startup.ts";
import { formatMs, machine, max, median, progress } from "./stats.ts";
import { measureStopLatency, STOP_RUNS, type StopLatencyResult } from "./stop-latency.ts";
import { measureSuggestion, suggestionRows } from "./suggest.ts";
import { HOP_SAMPLES, measureTeam, TEAM_SAMPLES, type TeamResult } from "./team.ts";
import { measureTeamHooks, teamHookRows } from "./team-hooks.ts";
import { measureUnitSuite, type SuiteFigures, type UnitSuiteResult } from "./unit-suite.ts";
import { CLAIM_SAMPLES, LOG_SIZE, measureWrites, READ_SAMPLES, WRITE_SAMPLES, type WritesResult } from "./writes.ts";

const COMMAND = "npm run bench";
/** `TIMEBOX_BENCH=hooks npm run bench` measures only the hook hosts (benchmark 6), Claude Code's stop latency with them. */
const HOOKS_ONLY = process.env.TIMEBOX_BENCH === "hooks";
/** `TIMEBOX_BENCH=team npm run bench` measures only a team's daily budget on a Redis on localhost (benchmark 5b). */
const TEAM_ONLY = process.env.TIMEBOX_BENCH === "team";
/** `TIMEBOX_BENCH=load npm run bench`: how many agents one Redis serves (benchmark 5c); never part of the whole run. */
const LOAD_ONLY = process.env.TIMEBOX_BENCH === "load";
/** `TIMEBOX_BENCH=handlers npm run bench` measures only the per-event cost on pi (benchmark 1). */
const HANDLERS_ONLY = process.env.TIMEBOX_BENCH === "handlers";
/** `TIMEBOX_BENCH=writes npm run bench` measures only the crash-safe writes (benchmark 8). */
const WRITES_ONLY = process.env.TIMEBOX_BENCH === "writes";
/** A crash-safe line may cost this much per event; a flushed claim (a few per budget) this much. */
const LINE_TARGET_MS = 0.1;
const CLAIM_TARGET_MS = 10;
/** `TIMEBOX_BENCH=codex npm run bench` measures only `codex exec` with and without Timebox (part of benchmark 6). */
const CODEX_ONLY = process.env.TIMEBOX_BENCH === "codex";
/** `TIMEBOX_BENCH=cold npm run bench` measures only what a fresh process pays (benchmarks 1c and 1d). */
const COLD_ONLY = process.env.TIMEBOX_BENCH === "cold";
/** `TIMEBOX_BENCH=hooklog npm run bench` measures only a hook on a short and a long session log (benchmark 1d). */
const HOOK_LOG_ONLY = process.env.TIMEBOX_BENCH === "hooklog";
/** `TIMEBOX_BENCH=opencode`: opencode's rows only (its hooks per call, `opencode run` with and without Timebox). */
const OPENCODE_ONLY = process.env.TIMEBOX_BENCH === "opencode";
/** `TIMEBOX_BENCH=daily`: the daily ledger's rows only. */
const DAILY_ONLY = process.env.TIMEBOX_BENCH === "daily";
/** `TIMEBOX_BENCH=report`: the report page only. */
const REPORT_ONLY = process.env.TIMEBOX_BENCH === "report";
/** `TIMEBOX_BENCH=overshoot`: how far a tokens: or cost: budget ends past its limit on the real hosts (not in CI). */
const OVERSHOOT_ONLY = process.env.TIMEBOX_BENCH === "overshoot";
/** Per-call target at 10,000 entries. */
const HANDLER_TARGET_MS = 0.1;
/** What the loop guard may add to a tool call at 10,000 entries. */
const LOOP_GUARD_TARGET_MS = 0.002;
/** The refresh counts as flat when no size costs more than this many times the cheapest. */
const FLAT_FACTOR = 2;
const STARTUP_TARGET = 1.05;
const STOP_TARGET_MS = 100;

const LABELS: Record<HandlerName, string> = {
	context: "`context`, before a later model call of a run (after a tool result), adding the budget note",
	tool_call: "`tool_call`, before a tool runs",
	tool_call_loop:
		"`tool_call` under `loop:1000`, the call counted among the run's 1,000 different ones (its tool and input as canonical JSON, hashed)",
	message_end: "`message_end`, an answer's usage added to the running totals and checked",
	status_refresh: "1 s status refresh (the scheduled interval callback)",
	turn_start: "`turn_start`, a later turn of a run: the budget checked on time, tokens and cost",
	first_call: "`context`, a prompt's first model call (counts it), 1 entry appended since the last call",
	agent_end: "`agent_end`, 1 entry appended since the last call",
	timebox_status: "`/timebox status` while idle (command handler, awaited)",
	session_start: "`session_start`, fresh instance: restore + full count",
	subagent_call: "a subagent's model call with 5 subagents running (the core runtime: rules, record, executor)",
	capped_call:
		"a model call under `tokens:` and `cost:`: `context` measuring the call (the answer before it, the tool result after) and capping its answer, then `before_provider_request` writing the cap",
};

/** Handlers with the per-call target; the others are shown for information. */
const TARGETED: ReadonlySet<HandlerName> = new Set([
	"context",
	"tool_call",
	"tool_call_loop",
	"message_end",
	"status_refresh",
	"turn_start",
	"first_call",
	"timebox_status",
	"subagent_call",
	"capped_call",
]);

type Row = [measure: string, median: string, runs: string, target: string, met: string];

function yesNo(ok: boolean): string {
	return ok ? "yes" : "**no**";
}

function sizeLabel(size: number): string {
	return `${size / 1_000}k`;
}

function handlerRows(results: Map<number, HandlerResult>): Row[] {
	const sizes = SESSION_SIZES.map(sizeLabel).join(" / ");
	return HANDLERS.map((name) => {
		const figures = SESSION_SIZES.map((size) => results.get(size)?.[name] ?? Number.NaN);
		const sampling = SAMPLING[name];
		const rounds = sampling.rounds > 1 ? `${sampling.rounds} × ` : "";
		const calls = sampling.callsPerSample > 1 ? ` × ${sampling.callsPerSample}` : "";
		const runs = `${rounds}${sampling.samples}${calls} calls per size, ${sampling.mode}`;
		const at10k = results.get(10_000)?.[name] ?? Number.NaN;
		let target = "— (information)";
		let met = "—";
		if (TARGETED.has(name)) {
			target = `< ${HANDLER_TARGET_MS} ms at 10k`;
			let ok = at10k < HANDLER_TARGET_MS;
			if (name === "tool_call_loop") {
				// The loop guard's own cost: the same call without a guard, at the same size.
				const added = at10k - (results.get(10_000)?.tool_call ?? Number.NaN);
				target += `; at most ${formatMs(LOOP_GUARD_TARGET_MS)} more than \`tool_call\` (${formatMs(added)} more)`;
				ok = ok && added <= LOOP_GUARD_TARGET_MS;
			}
			if (name === "status_refresh") {
				const growth = Math.max(...figures) / Math.min(...figures);
				target += `; flat in N (max/min ${growth.toFixed(2)}×)`;
				ok = ok && growth <= FLAT_FACTOR;
			}
			met = yesNo(ok);
		}
		return [`${LABELS[name]} — ${sizes} entries`, figures.map(formatMs).join(" / "), runs, target, met];
	});
}

function startupRows(result: StartupResult): Row[] {
	const runs = `${result.runs} + ${result.runs}, alternating`;
	return [
		[
			"pi start-up, `pi -p /bench-probe` (demo model), without / with Timebox",
			`${formatMs(result.withoutMs)} / ${formatMs(result.withMs)}`,
			runs,
			"—",
			"—",
		],
		[
			"pi start-up ratio, with / without Timebox",
			`${result.ratio.toFixed(3)}`,
			runs,
			`≤ ${STARTUP_TARGET}`,
			yesNo(result.ratio <= STARTUP_TARGET),
		],
		[
			"pi's extension loader in-process, `DefaultResourceLoader.reload()`, without / with Timebox",
			`${formatMs(result.loader.withoutMs)} / ${formatMs(result.loader.withMs)}`,
			`${result.loader.runs} + ${result.loader.runs}, alternating`,
			"— (diagnosis)",
			"—",
		],
	];
}

function stopRows(result: StopLatencyResult): Row[] {
	const row = (label: string, values: number[]): Row => [
		label,
		`${Math.round(median(values))} ms (max ${Math.round(max(values))} ms)`,
		`${STOP_RUNS}`,
		`≤ ${STOP_TARGET_MS / 1_000} s (max)`,
		yesNo(max(values) <= STOP_TARGET_MS),
	];
	return [
		row("Stop latency, `/timebox 2s` during `bash sleep 30`: deadline → aborted tool call ends", result.midToolMs),
		row("Stop latency, `/timebox 1s` while idle: deadline → hard-stop notification", result.idleMs),
	];
}

function claudeStopRows(result: ClaudeStopResult): Row[] {
	const target = `≤ ${STOP_TARGET_MS / 1_000} s (max)`;
	const runs = `${CLAUDE_STOP_RUNS}, a fresh session each`;
	const budget = `\`/timebox ${CLAUDE_STOP_BUDGET} -- <cmd>\``;
	const ms = (values: number[], pick: (values: number[]) => number) => Math.round(pick(values));
	const { toolStoppedMs: stopped, turnEndedMs: ended, idleCommandMs: idle } = result;
	return [
		[
			`Stop latency, Claude Code (function hooks), ${budget} during a Bash \`sleep 20\`: deadline → the tool stopped / the turn ended`,
			`${ms(stopped, median)} / ${ms(ended, median)} ms (max ${ms(stopped, max)} / ${ms(ended, max)} ms)`,
			runs,
			target,
			yesNo(Math.max(max(stopped), max(ended)) <= STOP_TARGET_MS),
		],
		[
			`Stop latency, Claude Code (function hooks), ${budget} while idle: deadline → on-stop command runs`,
			`${ms(idle, median)} ms (max ${ms(idle, max)} ms)`,
			runs,
			target,
			yesNo(max(idle) <= STOP_TARGET_MS),
		],
	];
}

/** Spec §1.1: the hermetic suite runs in under 5 s. */
const UNIT_SUITE_TARGET_MS = 5_000;

function suiteRow(label: string, figures: SuiteFigures, runs: number): Row {
	const failed = figures.failures.length > 0 ? ` (suite failed: exit ${figures.failures.join(", ")})` : "";
	const met = figures.failures.length === 0 && figures.durationMs < UNIT_SUITE_TARGET_MS ? "yes" : "**no**";
	return [
		label,
		`${formatMs(figures.durationMs)} / ${formatMs(figures.wallMs)}${failed}`,
		`${runs}`,
		"< 5 s (Duration)",
		met,
	];
}

function suiteRows(result: UnitSuiteResult): Row[] {
	return [
		suiteRow("Unit suite, `npx vitest run --project unit`: vitest Duration / wall", result.plain, result.runs),
		suiteRow("Unit suite with coverage, `npm test`: vitest Duration / wall", result.coverage, result.runs),
	];
}

/** Per-prompt target of the daily ledger; a model call must cost far less (it reads only what was added). */
const DAILY_PROMPT_TARGET_MS = 1;
const DAILY_CALL_TARGET_MS = 0.1;
/** What asking the session's rules first may add to a prompt under a daily budget. */
const DAILY_REFUSAL_TARGET_MS = 0.05;

function dailyRows(result: DailyResult): Row[] {
	const runs = `${DAILY_SAMPLES}, ${DAILY_SESSIONS} sessions, ${DAILY_RECORDS.toLocaleString("en-US")} records in the day`;
	return [
		[
			"Daily ledger per prompt: today's standing read on, the prompt counted",
			formatMs(result.promptMs),
			runs,
			`≤ ${DAILY_PROMPT_TARGET_MS} ms`,
			yesNo(result.promptMs <= DAILY_PROMPT_TARGET_MS),
		],
		[
			"Daily ledger per model call: today's standing read on and checked",
			formatMs(result.callMs),
			runs,
			`≤ ${DAILY_CALL_TARGET_MS} ms (no read of the whole ledger)`,
			yesNo(result.callMs <= DAILY_CALL_TARGET_MS),
		],
		[
			"A prompt under a daily budget: the session's rules asked first whether they refuse it (not counted then)",
			formatMs(result.refusalMs),
			`${DAILY_SAMPLES}, a budget in force, 50 prompts behind it`,
			`≤ ${DAILY_REFUSAL_TARGET_MS} ms`,
			yesNo(result.refusalMs <= DAILY_REFUSAL_TARGET_MS),
		],
	];
}

/** A team's check on a Redis on localhost, per turn and per model call. */
const TEAM_TURN_TARGET_MS = 2;
const TEAM_CALL_TARGET_MS = 1;
/**
 * The hooks module's hop, a Node process per batch: a turn and a model call each cost two processes. The target keeps a
 * turn's wait under half a second on a quiet machine, and the whole hop far inside Claude Code's 10 s for a hook.
 */
const HOP_TURN_TARGET_MS = 500;
const HOP_CALL_TARGET_MS = 500;

function teamRows(result: TeamResult): Row[] {
	const runs = `${TEAM_SAMPLES}, Redis on 127.0.0.1 (append-only file flushed every second, Redis's default), the daily rules and executor included`;
	return [
		[
			"Team's daily budget per turn: read, count (2 round trips), the reservation sent without waiting",
			formatMs(result.turnMs),
			runs,
			`≤ ${TEAM_TURN_TARGET_MS} ms`,
			yesNo(result.turnMs <= TEAM_TURN_TARGET_MS),
		],
		[
			"Team's daily budget per model call: read (1 round trip), the reservation sent without waiting",
			formatMs(result.callMs),
			runs,
			`≤ ${TEAM_CALL_TARGET_MS} ms`,
			yesNo(result.callMs <= TEAM_CALL_TARGET_MS),
		],
		[
			"The same, a turn / a model call, on a Redis that flushes each write to disk before it answers (`appendfsync always`): the disk's share",
			`${formatMs(result.flushedTurnMs)} / ${formatMs(result.flushedCallMs)}`,
			`${TEAM_SAMPLES}, Redis on 127.0.0.1`,
			"— (information)",
			"—",
		],
		[
			"Claude Code's hooks module, team's day per turn: 2 batch-script processes waited for (a read; the count, the reservation, a read)",
			formatMs(result.hopTurnMs),
			`${HOP_SAMPLES}, bundled bin/timebox-team.cjs, one process ${formatMs(result.hopProcessMs)} (node -e 0: ${formatMs(result.nodeMs)})`,
			`≤ ${HOP_TURN_TARGET_MS} ms`,
			yesNo(result.hopTurnMs <= HOP_TURN_TARGET_MS),
		],
		[
			"Claude Code's hooks module, team's day per model call: 2 processes (the reservation during the request; the answer's use), 1 waited for",
			formatMs(result.hopCallMs),
			`${HOP_SAMPLES}`,
			`≤ ${HOP_CALL_TARGET_MS} ms (both processes)`,
			yesNo(result.hopCallMs <= HOP_CALL_TARGET_MS),
		],
		[
			"No store set: a turn / a model call on this machine's ledger (no client loaded, no worker)",
			`${formatMs(result.localTurnMs)} / ${formatMs(result.localCallMs)}`,
			`${TEAM_SAMPLES}`,
			"the daily ledger's own cost (rows above): nothing added",
			yesNo(result.localTurnMs <= DAILY_PROMPT_TARGET_MS && result.localCallMs <= DAILY_CALL_TARGET_MS),
		],
	];
}

/** The report page of a 1,000-turn session: its size, the time to write it, and to open it with every chart drawn. */
const PAGE_BYTES_TARGET = 500_000;
const PAGE_WRITE_TARGET_MS = 250;
const PAGE_OPEN_TARGET_MS = 1_000;

function reportPageRows(result: ReportPageResult): Row[] {
	const runs = `${PAGE_OPENS}, ${PAGE_TURNS.toLocaleString("en-US")} turns × 3 calls, ${PAGE_SUBAGENTS} subagents`;
	return [
		[
			"Report page of a 1,000-turn session: file size",
			`${Math.round(result.bytes / 1_000)} KB`,
			"1",
			`≤ ${PAGE_BYTES_TARGET / 1_000} KB`,
			yesNo(result.bytes <= PAGE_BYTES_TARGET),
		],
		[
			"Report page: the report's data made and the file written",
			formatMs(result.writeMs),
			runs,
			`≤ ${PAGE_WRITE_TARGET_MS} ms`,
			yesNo(result.writeMs <= PAGE_WRITE_TARGET_MS),
		],
		[
			"Report page opened in headless Chromium, every chart drawn",
			formatMs(result.openMs),
			runs,
			`< ${PAGE_OPEN_TARGET_MS} ms`,
			yesNo(result.openMs < PAGE_OPEN_TARGET_MS),
		],
	];
}

/** A hook may cost this much of bare Node start-up; a `claude -p` run this much of one without the plugin. */
const HOOK_TARGET = 1.3;
const PRINT_TARGET = 1.15;
/** A print run with a budget in force may cost this much of one without the plugin: its hooks all run Timebox. */
const PRINT_BUDGET_TARGET = 1.3;

function hookRows(result: HookCostResult): Row[] {
	const claudeRuns = `${CLAUDE_PRINT_RUNS} × 5, alternating`;
	const moduleRatio = result.withPluginMs / result.emptyModuleMs;
	const classicRatio = result.classicMs / result.withoutPluginMs;
	const bundleRatio = result.bundleOnlyMs / result.emptyModuleMs;
	return [
		[
			"`claude -p` one answer, with the plugin (hooks module loaded) / with an empty hooks-module plugin; without any plugin in brackets (fake API)",
			`${formatMs(result.withPluginMs)} / ${formatMs(result.emptyModuleMs)} (${moduleRatio.toFixed(2)}×) [${formatMs(result.withoutPluginMs)}]`,
			claudeRuns,
			`≤ ${PRINT_TARGET}× the empty module`,
			yesNo(moduleRatio <= PRINT_TARGET),
		],
		[
			"`claude -p` one answer, with a hooks-module plugin that imports Timebox's bundle and registers nothing / with the empty hooks-module plugin (fake API): Claude Code reading Timebox's code",
			`${formatMs(result.bundleOnlyMs)} / ${formatMs(result.emptyModuleMs)} (${bundleRatio.toFixed(2)}×)`,
			claudeRuns,
			"— (diagnosis)",
			"—",
		],
		[
			"`claude -p` one answer, with the plugin on its classic hooks (hooks modules refused) / without the plugin (fake API)",
			`${formatMs(result.classicMs)} / ${formatMs(result.withoutPluginMs)} (${classicRatio.toFixed(2)}×)`,
			claudeRuns,
			`≤ ${PRINT_TARGET}×`,
			yesNo(classicRatio <= PRINT_TARGET),
		],
		printRow("`gemini -p` one answer, with / without the extension (fake API)", result.gemini),
		...codexRows(result.codex),
	];
}

function printRow(measure: string, runs: PrintRuns): Row {
	return ratioRow(measure, runs.withPluginMs, runs.withoutPluginMs, `${PRINT_RUNS} + ${PRINT_RUNS}`, PRINT_TARGET);
}

function ratioRow(measure: string, withMs: number, withoutMs: number, runs: string, target: number): Row {
	const ratio = withMs / withoutMs;
	return [
		measure,
		`${formatMs(withMs)} / ${formatMs(withoutMs)} (${ratio.toFixed(2)}×)`,
		`${runs}, alternating`,
		`≤ ${target}×`,
		yesNo(ratio <= target),
	];
}

function codexRows(runs: CodexRuns): Row[] {
	const count = `${CODEX_RUNS} + ${CODEX_RUNS} + ${CODEX_RUNS}`;
	return [
		ratioRow(
			"`codex exec` one answer, with / without the plugin, no budget in force (fake API)",
			runs.withPluginMs,
			runs.withoutPluginMs,
			count,
			PRINT_TARGET,
		),
		ratioRow(
			`\`codex exec\` one answer, with the plugin and a budget in force (\`TIMEBOX_DEFAULT="${CODEX_BUDGET}"\`) / without the plugin (fake API)`,
			runs.withBudgetMs,
			runs.withoutPluginMs,
			count,
			PRINT_BUDGET_TARGET,
		),
	];
}

/** pi opening a big session may spend this long in Timebox's `session_start`, with no JIT warmed up. */
const COLD_SESSION_START_TARGET_MS = 50;
/** The first prompt of that session may spend this long in Timebox's handlers, all of them. */
const FIRST_PROMPT_TARGET_MS = 1;

function coldRows(result: ColdStartResult): Row[] {
	const hookRatio = result.hookMs / result.nodeMs;
	return [
		[
			`\`session_start\` in a fresh process (pi opening a ${COLD_SESSION_SIZE.toLocaleString("en-US")}-entry session file, Timebox's pi bundle loaded): restore + full count`,
			formatMs(result.sessionStartMs),
			`${COLD_RUNS} fresh processes`,
			`≤ ${COLD_SESSION_START_TARGET_MS} ms`,
			yesNo(result.sessionStartMs <= COLD_SESSION_START_TARGET_MS),
		],
		[
			`the first prompt's handlers in that fresh process (before_agent_start, turn_start, context, message_end, agent_end), after its \`session_start\``,
			formatMs(result.firstPromptMs),
			`${COLD_RUNS} fresh processes`,
			`≤ ${FIRST_PROMPT_TARGET_MS} ms in all`,
			yesNo(result.firstPromptMs <= FIRST_PROMPT_TARGET_MS),
		],
		[
			"pi's extension loaded in that fresh process (its import: the entry, and its code from V8's code cache a first process left)",
			formatMs(result.loadMs),
			`${COLD_RUNS} fresh processes`,
			"— (information)",
			"—",
		],
		[
			"the same in the process before them, which found no code cache and wrote one (a first start after an install or an upgrade): load / `session_start` / first prompt",
			`${formatMs(result.uncached.loadMs)} / ${formatMs(result.uncached.sessionStartMs)} / ${formatMs(result.uncached.firstPromptMs)}`,
			"1 fresh process",
			"— (information)",
			"—",
		],
		[
			"Claude Code hook, `timebox.cjs hook` (UserPromptSubmit, budget in force) / bare `node -e 0`",
			`${formatMs(result.hookMs)} / ${formatMs(result.nodeMs)} (${hookRatio.toFixed(2)}×)`,
			`${HOOK_RUNS} + ${HOOK_RUNS}, alternating`,
			`≤ ${HOOK_TARGET}× Node start-up`,
			yesNo(hookRatio <= HOOK_TARGET),
		],
	];
}

/** A hook on a 10,000-line log may cost this many times one on a 10-line log: it folds the log once. */
const HOOK_LOG_TARGET = 1.1;

function hookLogRows(result: HookLogResult): Row[] {
	const ratio = result.longMs / result.shortMs;
	const [short, long] = HOOK_LOG_SIZES.map((lines) => lines.toLocaleString("en-US"));
	return [
		[
			`Claude Code hook, \`timebox.cjs hook\` (UserPromptSubmit, budget in force) on a session log of ${short} / ${long} lines`,
			`${formatMs(result.shortMs)} / ${formatMs(result.longMs)} (${ratio.toFixed(2)}×)`,
			`${HOOK_LOG_RUNS} + ${HOOK_LOG_RUNS} fresh processes, alternating`,
			`≤ ${HOOK_LOG_TARGET}×`,
			yesNo(ratio <= HOOK_LOG_TARGET),
		],
	];
}

/** What one model request or tool call may cost in Claude Code's process, with the hooks module. */
const CLAUDE_MODULE_TARGET_MS = 0.1;

function claudeModuleRows(result: ClaudeModuleResult): Row[] {
	const runs = `${MODULE_SAMPLES}, a session of ${MODULE_RECORDS.toLocaleString("en-US")} records in the store`;
	return [
		[
			"Claude Code hooks module, per model request: `turn.step` with its usage, budget in force (`aware`)",
			formatMs(result.modelCallMs),
			runs,
			`≤ ${CLAUDE_MODULE_TARGET_MS} ms`,
			yesNo(result.modelCallMs <= CLAUDE_MODULE_TARGET_MS),
		],
		[
			"Claude Code hooks module, per tool call: `tool.call`, the step's last (it carries the next step's note)",
			formatMs(result.toolCallMs),
			runs,
			`≤ ${CLAUDE_MODULE_TARGET_MS} ms`,
			yesNo(result.toolCallMs <= CLAUDE_MODULE_TARGET_MS),
		],
	];
}

/** What one model call or tool call may cost inside opencode, in process. */
const OPENCODE_HOOK_TARGET_MS = 0.1;

function opencodeRows(result: OpencodeResult): Row[] {
	const runs = `${OPENCODE_SAMPLES}, ${CONVERSATION_MESSAGES} messages, a ${LOG_LINES.toLocaleString("en-US")}-line session log`;
	const ratio = result.withPluginMs / result.withoutPluginMs;
	return [
		[
			"opencode, per model call: `messages.transform` + `chat.params`, budget in force, note added (`aware`)",
			formatMs(result.modelCallMs),
			runs,
			`≤ ${OPENCODE_HOOK_TARGET_MS} ms`,
			yesNo(result.modelCallMs <= OPENCODE_HOOK_TARGET_MS),
		],
		[
			"opencode, per tool call: `tool.execute.before`, budget in force",
			formatMs(result.toolCallMs),
			runs,
			`≤ ${OPENCODE_HOOK_TARGET_MS} ms`,
			yesNo(result.toolCallMs <= OPENCODE_HOOK_TARGET_MS),
		],
		[
			"`opencode run` one answer, with / without the plugin (fake API)",
			`${formatMs(result.withPluginMs)} / ${formatMs(result.withoutPluginMs)} (${ratio.toFixed(2)}×)`,
			`${OPENCODE_RUNS} + ${OPENCODE_RUNS}, alternating`,
			`≤ ${PRINT_TARGET}×`,
			yesNo(ratio <= PRINT_TARGET),
		],
	];
}

function writeRows(result: WritesResult): Row[] {
	return [
		[
			"A session-log / daily-ledger line appended crash-safe (last byte looked at first) / plain `appendFileSync`",
			`${formatMs(result.lineMs)} / ${formatMs(result.plainLineMs)}`,
			`${WRITE_SAMPLES}, on a ${LOG_SIZE.toLocaleString("en-US")}-line file, alternating`,
			`≤ ${LINE_TARGET_MS} ms per event`,
			yesNo(result.lineMs <= LINE_TARGET_MS),
		],
		[
			"An outcome-ledger claim flushed (`fsync`) then linked / linked unflushed as before",
			`${formatMs(result.claimMs)} / ${formatMs(result.plainClaimMs)}`,
			`${CLAIM_SAMPLES}, alternating, in the system's temporary folder`,
			`≤ ${CLAIM_TARGET_MS} ms per claim (a few per budget)`,
			yesNo(result.claimMs <= CLAIM_TARGET_MS),
		],
		[
			"The outcome ledger read by each hook of a stopped session: a stop that recorded its on-stop command (its mark, recovery and claimant looked up) / a stop with none",
			`${formatMs(result.onStopReadMs)} / ${formatMs(result.plainReadMs)}`,
			`${READ_SAMPLES}, alternating, in the system's temporary folder`,
			`≤ ${LINE_TARGET_MS} ms per event`,
			yesNo(result.onStopReadMs <= LINE_TARGET_MS),
		],
		[
			"What a team member's hook reads of what its session was told (said once a session, the store's failure carried): nothing kept / a problem and a failure kept",
			`${formatMs(result.toldNoneMs)} / ${formatMs(result.toldKeptMs)}`,
			`${READ_SAMPLES}, alternating, in the system's temporary folder`,
			`≤ ${LINE_TARGET_MS} ms per event`,
			yesNo(result.toldKeptMs <= LINE_TARGET_MS),
		],
	];
}

/** Past the limit, and left unused below it: the worst of the runs, and their median. */
function overshootRows(results: readonly HostOvershoot[]): Row[] {
	return results.flatMap(({ host, checkout, runs }) => {
		const tokenRuns = runs.filter((run) => run.budget.tokens !== undefined);
		const costRuns = runs.filter((run) => run.budget.cost !== undefined);
		const over = tokenRuns.map((run) => Math.max(0, run.tokens - (run.budget.tokens ?? 0)));
		const under = tokenRuns.map((run) => Math.max(0, (run.budget.tokens ?? 0) - run.tokens));
		const overCost = costRuns.map((run) => Math.max(0, run.cost - (run.budget.cost ?? 0)));
		const underCost = costRuns.map((run) => Math.max(0, (run.budget.cost ?? 0) - run.cost));
		const tokens = (value: number) => Math.round(value).toLocaleString("en-US");
		const dollars = (value: number) => `$${value.toFixed(4)}`;
		const runsText = `${tokenRuns.length} + ${costRuns.length}, a budget of its own each`;
		const rows: Row[] = [
			[
				`Overshoot, ${host}, ${checkout}: tokens past \`tokens:\` (median / max); left unused (median)`,
				`${tokens(median(over))} / ${tokens(max(over))} (${tokens(median(under))})`,
				runsText,
				"0 where the host allows a cap",
				checkout === "with the caps" ? yesNo(max(over) === 0) : "—",
			],
		];
		// A host that tells Timebox no cost is measured under tokens: only.
		if (costRuns.length === 0) return rows;
		rows.push([
			`Overshoot, ${host}, ${checkout}: dollars past \`cost:\` (median / max); left unused (median)`,
			`${dollars(median(overCost))} / ${dollars(max(overCost))} (${dollars(median(underCost))})`,
			runsText,
			"0 where the host allows a cap",
			checkout === "with the caps" ? yesNo(max(overCost) === 0) : "—",
		]);
		return rows;
	});
}

function table(rows: Row[]): string {
	const header: Row = ["Measure", "Median", "Runs", "Target", "Met"];
	const line = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
	return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

it("measures Timebox", async () => {
	if (OVERSHOOT_ONLY) {
		progress(`the overshoot of tokens: and cost: budgets on the real hosts, ${OVERSHOOT_RUNS} runs each`);
		const rows = overshootRows(await measureOvershoot());
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=overshoot ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (LOAD_ONLY) {
		progress("one Redis under load only");
		const rows = loadRows(await measureLoad());
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=load ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (REPORT_ONLY) {
		progress("the report page only");
		const page = await measureReportPage();
		const suggestion = await measureSuggestion();
		const rows = [...reportPageRows(page), ...suggestionRows(suggestion)];
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=report ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (HOOKS_ONLY) {
		progress("the hook hosts only: Claude Code (its cost and its stop latency), Gemini CLI, Codex CLI");
		const hooks = await measureHookCost();
		const claudeStop = await measureClaudeStop();
		console.log(
			[
				"",
				table([
					...coldRows(await measureColdStart()),
					...hookLogRows(await measureHookLog()),
					...hookRows(hooks),
					...claudeStopRows(claudeStop),
				]),
				"",
				`Reproduce: \`TIMEBOX_BENCH=hooks ${COMMAND}\``,
				"",
			].join("\n"),
		);
		return;
	}
	if (OPENCODE_ONLY) {
		progress("opencode only");
		const rows = opencodeRows(await measureOpencode());
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=opencode ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (DAILY_ONLY) {
		progress("the daily ledger only");
		const rows = dailyRows(await measureDaily());
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=daily ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (WRITES_ONLY) {
		progress("the crash-safe writes only");
		const writes = await measureWrites();
		console.log(["", table(writeRows(writes)), "", `Reproduce: \`TIMEBOX_BENCH=writes ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (CODEX_ONLY) {
		progress("`codex exec` with and without Timebox only");
		const codex = await measureCodexRuns();
		console.log(["", table(codexRows(codex)), "", `Reproduce: \`TIMEBOX_BENCH=codex ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (COLD_ONLY) {
		progress("what a fresh process pays: a big session's start on pi, a hook of the hook hosts");
		const cold = await measureColdStart();
		const hookLog = await measureHookLog();
		const rows = [...coldRows(cold), ...hookLogRows(hookLog)];
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=cold ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (HOOK_LOG_ONLY) {
		progress("a hook on a short and a long session log only");
		const rows = hookLogRows(await measureHookLog());
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=hooklog ${COMMAND}\``, ""].join("\n"));
		return;
	}
	if (HANDLERS_ONLY) {
		progress("the per-event cost on pi only");
		const handlers = await measureHandlers();
		const module = await measureClaudeModule();
		console.log(
			[
				"",
				table([...handlerRows(handlers), ...claudeModuleRows(module)]),
				"",
				`Reproduce: \`TIMEBOX_BENCH=handlers ${COMMAND}\``,
				"",
			].join("\n"),
		);
		return;
	}
	if (TEAM_ONLY) {
		const team = await measureTeam();
		const rows = [...teamRows(team), ...teamHookRows(await measureTeamHooks())];
		console.log(["", table(rows), "", `Reproduce: \`TIMEBOX_BENCH=team ${COMMAND}\``, ""].join("\n"));
		return;
	}
	const started = Date.now();
	progress("1/8 handler cost on pi's SessionManager (1k, 10k, 100k entries)");
	const handlers = await measureHandlers();
	const module = await measureClaudeModule();
	const cold = await measureColdStart();
	const hookLog = await measureHookLog();
	progress("2/8 pi start-up with and without Timebox");
	const startup = await measureStartup();
	progress("3/8 stop latency on real pi");
	const stop = await measureStopLatency();
	progress("4/8 unit suite wall time");
	const suite = await measureUnitSuite();
	progress("5/8 the daily ledger");
	const daily = await measureDaily();
	const team = await measureTeam();
	const teamHooks = await measureTeamHooks();
	progress("6/8 the hook hosts: Claude Code (its cost and its stop latency), Gemini CLI, Codex CLI");
	const hooks = await measureHookCost();
	const claudeStop = await measureClaudeStop();
	progress("7/8 opencode: the plugin in process, and `opencode run`");
	const opencode = await measureOpencode();
	const writes = await measureWrites();
	progress("8/8 the report page of a 1,000-turn session, and a suggested budget's reading of the history");
	const reportPage = await measureReportPage();
	const suggestion = await measureSuggestion();
	progress(`done in ${Math.round((Date.now() - started) / 1_000)} s`);

	const box = machine();
	const output = [
		"",
		table([
			...handlerRows(handlers),
			...claudeModuleRows(module),
			...coldRows(cold),
			...hookLogRows(hookLog),
			...startupRows(startup),
			...stopRows(stop),
			...claudeStopRows(claudeStop),
			...suiteRows(suite),
			...dailyRows(daily),
			...teamRows(team),
			...teamHookRows(teamHooks),
			...hookRows(hooks),
			...opencodeRows(opencode),
			...writeRows(writes),
			...reportPageRows(reportPage),
			...suggestionRows(suggestion),
		]),
		"",
		`Machine: ${box.cpu}, ${box.cores} cores, Node ${box.node}, pi ${box.pi}. Figures are medians over the runs shown.`,
		`Handler runs read rounds × samples × calls, after ${WARMUP_SAMPLES} untimed samples: "alone" = each size on its own`,
		`fresh session and heap, rounds in alternating size order; "in turn" = the three sessions side by side, sampled in turn.`,
		`Reproduce: \`${COMMAND}\``,
		"",
	].join("\n");
	console.log(output);
});
