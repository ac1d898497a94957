// The hook adapter that every hook host shares, where no one host's tests reach: a ledger that cannot be written (the
// session's log keeps each claim, so a limit fires once and only once), a runner that throws, a host with no status
// line and no data folder of its own, and an event Timebox does not use that still carries a transcript warning.

import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { handleHook } from "../../../src/adapters/hooks/handle.ts";
import { ledgerView } from "../../../src/adapters/hooks/load.ts";
import { hookJson } from "../../../src/adapters/hooks/reply-json.ts";
import type { HookHost } from "../../../src/adapters/hooks/roles.ts";
import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { createFileLedger } from "../../../src/adapters/node/file-ledger.ts";
import type { LogLine } from "../../../src/adapters/node/log-lines.ts";
import { createShellStarter } from "../../../src/adapters/node/on-stop-runner.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import {
	LEDGER_FOLDER,
	ON_STOP_RECOVERY_MS,
	type OnStopOutcome,
	type OnStopStartOptions,
	parseDailyBudget,
} from "../../../src/core/index.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";
import { budget } from "../../support/budgets.ts";

const SESSION = "hooks-adapter-1";
let dataDir: string;
let now: number;
let ran: string[];

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-hooks-"));
	now = Date.UTC(2026, 10, 22, 9, 0, 0);
	ran = [];
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function deps(overrides: Partial<CliDeps> = {}): CliDeps {
	let ids = 0;
	return {
		hosts: [claudeCodeHost, geminiCliHost],
		clock: { now: () => now },
		onStop: {
			start: (command: string, report: (outcome: OnStopOutcome) => void) => {
				ran.push(command);
				report({ kind: "started" });
			},
		},
		runStatusLine: () => "",
		newBudgetId: () => `budget-${++ids}`,
		script: "/x/timebox.mjs",
		startWatcher: () => {},
		entry: import.meta.url,
		importReport: () => import("../../../src/entries/report/entry.ts"),
		sleep: async () => {},
		...overrides,
	};
}

async function claude(payload: object, overrides: Partial<CliDeps> = {}): Promise<Record<string, unknown>> {
	const { stdout, stderr } = await runCli(
		["hook"],
		JSON.stringify({ session_id: SESSION, ...payload }),
		{ CLAUDE_PLUGIN_DATA: dataDir },
		deps(overrides),
	);
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>);
}

const prompt = (text: string, id: string) =>
	claude({ hook_event_name: "UserPromptSubmit", prompt: text, prompt_id: id });
const tool = (id: string) => claude({ hook_event_name: "PreToolUse", prompt_id: id, tool_name: "Bash" });
const stop = (id: string) => claude({ hook_event_name: "Stop", prompt_id: id });

/** Puts a file where the ledger's folder should be: no claim can be written, and none read. */
function breakLedger(): void {
	rmSync(join(dataDir, LEDGER_FOLDER), { recursive: true, force: true });
	writeFileSync(join(dataDir, LEDGER_FOLDER), "a file where the ledger's folder should be");
}

describe("a ledger that cannot be written", () => {
	it("keeps a budget turned off off", async () => {
		await prompt("/timebox turns:1", "p0");
		breakLedger();
		expect((await prompt("/timebox off", "p1")).reason).toContain("Timebox off.");
		await prompt("one", "p2");
		expect(await prompt("two", "p3")).toEqual({});
	});

	it("warns the model once at 80%, not again at the next prompt", async () => {
		await prompt("/timebox turns:5", "p0");
		breakLedger();
		for (const id of ["p1", "p2", "p3", "p4"]) await prompt("work", id);
		const fifth = await prompt("work", "p5");
		expect(fifth.systemMessage).toContain("1 prompt left of 5");
		expect(fifth.systemMessage).toContain("Timebox hit an internal error (ledger)");
		await stop("p5");
		expect(await stop("p5")).toEqual({});
	});

	it("ends a wrap-up once: the on-stop command runs at the first Stop hook only", async () => {
		await prompt("/timebox 1m grace:30s -- lmk", "p0");
		await prompt("long job", "p1");
		breakLedger();
		now += 61_000;
		expect((await tool("p1")).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
		expect((await stop("p1")).systemMessage).toContain("Timebox ran the on-stop command: lmk");
		expect(await stop("p1")).toEqual({});
		expect(ran).toEqual(["lmk"]);
	});
});

describe("an on-stop command whose hook was killed between its claim and its start", () => {
	const LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";
	/** The starts the hooks made, with the mark each was given. */
	let starts: { command: string; mark: string | undefined }[];
	const starter = {
		start: (command: string, report: (outcome: OnStopOutcome) => void, options?: OnStopStartOptions) => {
			starts.push({ command, mark: options?.mark });
			report({ kind: "started" });
		},
	};
	/** A starter in a hook killed before it started anything: nothing runs, and nothing is said. */
	const killed = { start: () => {} };

	beforeEach(() => {
		starts = [];
	});

	/** The claim of the stop, as the killed hook wrote it, now naming a process that ended. */
	function claimOfEndedProcess(): string {
		const file = join(dataDir, LEDGER_FOLDER, "budget-1.spent.json");
		// A process that ended: a shell, which starts in a few milliseconds where Node takes 60 and more.
		const gone = spawnSync("sh", ["-c", "exit"]).pid;
		writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), pid: gone }));
		return join(dataDir, LEDGER_FOLDER, "budget-1.spent.started");
	}

	/** A turns:1 budget stopped by prompt two, in a hook killed before it started the command. */
	async function stoppedByKilledHook(): Promise<void> {
		await prompt("/timebox turns:1 -- echo stopped", "p0");
		await prompt("one", "p1");
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const refused = claude(
				{ hook_event_name: "UserPromptSubmit", prompt: "two", prompt_id: "p2" },
				{ onStop: killed },
			);
			await vi.advanceTimersByTimeAsync(1_000);
			expect((await refused).reason).toContain("Timebox budget spent.");
		} finally {
			vi.useRealTimers();
		}
	}

	it("is started by the next hook, behind the claim's mark, and the user is told with that hook's reply, once", async () => {
		await stoppedByKilledHook();
		const mark = claimOfEndedProcess();
		const next = await claude(
			{ hook_event_name: "UserPromptSubmit", prompt: "three", prompt_id: "p3" },
			{ onStop: starter },
		);
		expect(starts).toEqual([{ command: "echo stopped", mark }]);
		expect(String(next.systemMessage).split("\n").sort()).toEqual([
			LATE,
			"Timebox ran the on-stop command: echo stopped",
		]);
		// The wrapper took the mark; every later hook leaves it be, and says nothing of it.
		writeFileSync(mark, "");
		for (const [event, id] of [
			["PreToolUse", "p3"],
			["Stop", "p3"],
			["UserPromptSubmit", "p4"],
		] as const) {
			const later = await claude(
				{ hook_event_name: event, prompt: "four", prompt_id: id, tool_name: "Bash" },
				{ onStop: starter },
			);
			expect(JSON.stringify(later)).not.toContain("late");
		}
		expect(starts).toHaveLength(1);
	});

	it("is left by the watcher, which has no one to tell, to the next hook, which runs it and says so", async () => {
		await stoppedByKilledHook();
		const mark = claimOfEndedProcess();
		const watched = await runCli(
			["watch", "--data", dataDir, "--session", SESSION, "--budget", "budget-1"],
			"",
			{},
			deps({ onStop: starter }),
		);
		expect(watched).toEqual({ stdout: "", stderr: "" });
		expect(starts).toEqual([]);
		const next = await claude(
			{ hook_event_name: "UserPromptSubmit", prompt: "three", prompt_id: "p3" },
			{ onStop: starter },
		);
		expect(starts).toEqual([{ command: "echo stopped", mark }]);
		expect(String(next.systemMessage)).toContain(LATE);
	});

	it("is recovered once by two hooks that find it together: only one takes it over", async () => {
		await stoppedByKilledHook();
		claimOfEndedProcess();
		const both = await Promise.all([
			claude({ hook_event_name: "PreToolUse", prompt_id: "p2", tool_name: "Bash" }, { onStop: starter }),
			claude({ hook_event_name: "PreToolUse", prompt_id: "p2", tool_name: "Read" }, { onStop: starter }),
		]);
		expect(starts.map((start) => start.command)).toEqual(["echo stopped"]);
		expect(both.filter((reply) => JSON.stringify(reply).includes(LATE))).toHaveLength(1);
	});

	it("is said to have run only by the hook whose wrapper ran it, when another hook's wrapper took the mark first", async () => {
		await stoppedByKilledHook();
		claimOfEndedProcess();
		const out = join(dataDir, "ran-by-this-hook");
		// The other hook read the ledger at the same moment, and its wrapper took the mark just before this one's start.
		const real = createShellStarter(spawn, { untilMarked: true });
		const second = {
			start: (command: string, report: (outcome: OnStopOutcome) => void, options?: OnStopStartOptions) => {
				if (options?.mark !== undefined) writeFileSync(options.mark, "");
				real.start(`${command} > '${out}'`, report, options);
			},
		};
		const reply = await claude(
			{ hook_event_name: "UserPromptSubmit", prompt: "three", prompt_id: "p3" },
			{ onStop: second },
		);
		// This hook took the recovery's claim, so it says the command ran late; the other hook says it ran.
		expect(reply.systemMessage).toBe(LATE);
		expect(existsSync(out)).toBe(false);
	});

	it("is left to a hook that still runs until the claim is older than the bound", async () => {
		await stoppedByKilledHook();
		// The claim names this test's process, which runs: a hook still at work, or a pid used again.
		await prompt("/timebox status", "p3");
		expect(ran).toEqual([]);
		now += ON_STOP_RECOVERY_MS;
		expect((await prompt("/timebox status", "p4")).reason).toContain(LATE);
		expect(ran).toEqual(["echo stopped"]);
	});

	it("starts the command with no mark where the ledger keeps none", async () => {
		const store = new SessionLog(dataDir, SESSION);
		const files = createFileLedger(join(dataDir, LEDGER_FOLDER), { clock: { now: () => now } });
		const ledger = { claim: files.claim.bind(files), read: files.read.bind(files) };
		const hookDeps = { store, ledger, clock: { now: () => now }, onStop: starter, newBudgetId: () => "budget-1" };
		const read = (fields: Record<string, unknown>) =>
			claudeCodeHost.read({ event: "UserPromptSubmit", sessionId: SESSION, fields });
		await handleHook(read({ prompt: "/timebox turns:1 -- lmk", prompt_id: "p0" }), hookDeps);
		await handleHook(read({ prompt: "one", prompt_id: "p1" }), hookDeps);
		await handleHook(read({ prompt: "two", prompt_id: "p2" }), hookDeps);
		expect(starts).toEqual([{ command: "lmk", mark: undefined }]);
	});
});

describe("what a hook reads of a budget's outcomes", () => {
	it("takes the ledger's word, and adds the claims the session's log kept", () => {
		const store = new SessionLog(dataDir, SESSION);
		store.appendLine({ kind: "claim", claim: { kind: "nudged", budgetId: "b1" }, at: now });
		store.appendLine({ kind: "claim", claim: { kind: "off", budgetId: "b2" }, at: now });
		const recorded = { spent: null, off: true, nudged: false };
		const ledger = { read: () => recorded, claim: () => true };
		expect(ledgerView(budget({ id: "b1" }), { store, ledger })).toEqual({ spent: null, off: true, nudged: true });
		const none = { read: () => ({ spent: null, off: false, nudged: false }), claim: () => true };
		expect(ledgerView(budget({ id: "b2" }), { store, ledger: none })).toEqual({
			spent: null,
			off: true,
			nudged: false,
		});
	});
});

describe("what a hook reads of an on-stop command's recovery", () => {
	it("takes a recovery the session's log kept, when the ledger could not record it, as recovered", () => {
		const store = new SessionLog(dataDir, SESSION);
		const onStop = {
			claim: { budgetId: "b1", kind: "spent" as const },
			command: "lmk",
			claimedAt: now,
			started: false,
			claimantAlive: false,
			recovered: false,
		};
		const ledger = { read: () => ({ spent: null, off: false, nudged: false, onStop }), claim: () => true };
		store.appendLine({ kind: "claim", claim: { kind: "nudged", budgetId: "b1" }, at: now });
		expect(ledgerView(budget({ id: "b1" }), { store, ledger }).onStop).toEqual(onStop);
		store.appendLine({ kind: "claim", claim: { kind: "onStopRecovered", budgetId: "b1" }, at: now });
		expect(ledgerView(budget({ id: "b1" }), { store, ledger }).onStop).toEqual({ ...onStop, recovered: true });
		const nothing = { read: () => ({ spent: null, off: false, nudged: false }), claim: () => true };
		expect(ledgerView(budget({ id: "b1" }), { store, ledger: nothing }).onStop).toBeUndefined();
	});
});

describe("the hook adapter's edges", () => {
	it("says so when the log cannot take the prompt's part in the daily budget, and answers all the same", async () => {
		class FullLog extends SessionLog {
			override appendLine(line: LogLine): void {
				if (line.kind.startsWith("daily-")) throw new Error("ENOSPC: no space left on device");
				super.appendLine(line);
			}
		}
		const store = new FullLog(dataDir, SESSION);
		const budget = parseDailyBudget("turns:5", "user", "TIMEBOX_DAILY");
		if ("warning" in budget) throw new Error(budget.warning);
		const daily = { ledger: createDailyLedger(join(dataDir, "state"), SESSION, { now: () => now }), budgets: [budget] };
		const hookDeps = {
			store,
			ledger: createFileLedger(join(dataDir, LEDGER_FOLDER)),
			clock: { now: () => now },
			daily,
		};
		const onStop = { start: () => {} };
		const read = (event: string, fields: Record<string, unknown>) =>
			claudeCodeHost.read({ event, sessionId: SESSION, fields });
		await handleHook(read("UserPromptSubmit", { prompt: "work", prompt_id: "p1" }), { ...hookDeps, onStop });
		const ended = await handleHook(read("Stop", { prompt_id: "p1" }), { ...hookDeps, onStop });
		expect(ended?.notices).toEqual([
			"Timebox hit an internal error (session log): ENOSPC: no space left on device. Your session goes on; check the budget with /timebox status.",
		]);
	});

	it("says what the starter said first: a failure reported after the wait for it is not said again", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const late: ((outcome: OnStopOutcome) => void)[] = [];
			const slow = { start: (_command: string, report: (outcome: OnStopOutcome) => void) => late.push(report) };
			await prompt("/timebox turns:1 -- lmk", "p0");
			await prompt("one", "p1");
			const pending = claude({ hook_event_name: "UserPromptSubmit", prompt: "two", prompt_id: "p2" }, { onStop: slow });
			await vi.advanceTimersByTimeAsync(1_000);
			for (const report of late) report({ kind: "failed", problem: "too late" });
			const refused = await pending;
			expect(refused.reason).toContain("Timebox ran the on-stop command: lmk");
			expect(refused.reason).not.toContain("too late");
		} finally {
			vi.useRealTimers();
		}
	});

	it("says an on-stop command could not start when the runner throws", async () => {
		const throwing = {
			start: () => {
				throw new Error("spawn EACCES");
			},
		};
		await prompt("/timebox turns:1 -- lmk", "p0");
		await prompt("one", "p1");
		const refused = await claude(
			{ hook_event_name: "UserPromptSubmit", prompt: "two", prompt_id: "p2" },
			{
				onStop: throwing,
			},
		);
		expect(refused.reason).toContain('Timebox on-stop command failed: could not start "lmk": spawn EACCES');
	});

	it("says how to set up the status line when the host does not say where the plugin runs from", async () => {
		expect(await prompt("/timebox statusline", "p0")).toEqual({
			decision: "block",
			reason: "Timebox: run the plugin's script with setup-statusline to set up the status line.",
		});
	});

	it("adds the transcript warning to an event it does not otherwise answer", async () => {
		const transcript = join(dataDir, "transcript.jsonl");
		appendFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { id: "m" } })}\n`);
		const answer = await claude({ hook_event_name: "Notification", transcript_path: transcript });
		expect(answer.systemMessage).toMatch(/transcript shows token usage in a form Timebox cannot read/);
	});

	it("names a host with no status line, and one with no data folder of its own", async () => {
		expect(await runCli(["setup-statusline", "--host", "gemini"], "", { HOME: dataDir }, deps())).toEqual({
			stdout: "",
			stderr: "timebox: gemini has no status line to set up\n",
		});
		const bare: HookHost = { ...geminiCliHost, name: "bare", dataDir: () => null };
		const input = JSON.stringify({ session_id: SESSION });
		expect(await runCli(["statusline", "--host", "bare"], input, { HOME: dataDir }, deps({ hosts: [bare] }))).toEqual({
			stdout: "",
			stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n",
		});
	});

	it("blocks a /timebox line that said nothing with an empty reason", () => {
		const event = claudeCodeHost.read({
			event: "UserPromptSubmit",
			sessionId: SESSION,
			fields: { prompt: "/timebox" },
		});
		const reply = { notices: [], context: [], refusal: null, stop: false, answered: true };
		expect(hookJson(reply, event)).toEqual({ decision: "block", reason: "" });
	});
});
