// Runs the ledger contract against the in-memory ledger, the file ledger every Node host uses, and the ledger Claude
// Code's hooks module keeps in its store (over `$.store`, written asynchronously).

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { engineOf } from "../../src/adapters/claude/function-hooks/engine.ts";
import { ModuleStore } from "../../src/adapters/claude/function-hooks/store.ts";
import { createFileLedger, processAlive } from "../../src/adapters/node/file-ledger.ts";
import { FakeDollar } from "../adapters/claude/function-hooks/fake-engine.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryLedger, RecordingStarter } from "../support/memory-host.ts";
import { CLAIMED_AT, ledgerContract } from "./ledger-contract.ts";

const folders: string[] = [];

function tempFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), "timebox-ledger-"));
	folders.push(folder);
	return folder;
}

afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Takes a start mark as the wrapper does: a file made only where none is. */
function takeFileMark(mark: string): void {
	mkdirSync(dirname(mark), { recursive: true });
	writeFileSync(mark, "", { flag: "wx" });
}

ledgerContract("in-memory", () => {
	const ledger = new MemoryLedger(() => CLAIMED_AT);
	const starter = new RecordingStarter();
	return {
		ledger,
		reopen: () => ledger,
		otherProcess: () => {
			ledger.process++;
			return ledger;
		},
		takeMark: (mark) => starter.start("wrapper", () => {}, { mark }),
	};
});

ledgerContract("file", () => {
	const folder = join(tempFolder(), "ledger");
	const clock = { now: () => CLAIMED_AT };
	return {
		ledger: createFileLedger(folder, { clock }),
		reopen: () => createFileLedger(folder),
		// The claims were made by this test's process, which still runs: another one would find it gone.
		otherProcess: () => createFileLedger(folder, { alive: (pid) => pid !== process.pid }),
		takeMark: takeFileMark,
	};
});

ledgerContract("Claude Code hooks module", async () => {
	const time = new FakeTime(CLAIMED_AT);
	const engine = engineOf(new FakeDollar(time));
	const dir = join(tempFolder(), "on-stop");
	const deps = (instance: string) => ({
		clock: time,
		scheduler: time,
		problem: (error: unknown) => {
			throw error;
		},
		marks: { dir, instance },
	});
	const store = await ModuleStore.open(() => engine, "session-1", deps("first"));
	let opened = 0;
	const open = async (instance: string) => {
		await store.flush();
		return ModuleStore.open(() => engine, "session-1", deps(instance));
	};
	return {
		ledger: store,
		reopen: () => open("first"),
		otherProcess: () => open(`later-${++opened}`),
		takeMark: takeFileMark,
	};
});

describe("the file ledger with a damaged or hostile folder", () => {
	it("counts a claim file it cannot parse as claimed, with no figures", () => {
		const folder = tempFolder();
		writeFileSync(join(folder, "budget-1.spent.json"), "{torn");
		writeFileSync(join(folder, "budget-1.nudged.json"), "null");
		expect(createFileLedger(folder).read("budget-1")).toEqual({
			spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: false, prompt: null },
			off: false,
			nudged: true,
		});
	});

	it("reads a damaged summary's figures as none, and keeps only a limit it knows", () => {
		const folder = tempFolder();
		const summary = { usedTurns: "3", elapsedMs: null, wrapUpUntil: "soon", limit: "turns", tokens: "5", cost: {} };
		writeFileSync(join(folder, "b.spent.json"), JSON.stringify({ kind: "spent", summary }));
		// A figure JSON reads as Infinity is none too.
		writeFileSync(
			join(folder, "c.spent.json"),
			'{"kind":"spent","summary":{"usedTurns":1e400,"wrapUpUntil":1e400,"tokens":-1e400,"cost":1e400}}',
		);
		const none = { usedTurns: 0, elapsedMs: 0, timeRanOut: false, prompt: null };
		expect(createFileLedger(folder).read("b").spent).toEqual(none);
		expect(createFileLedger(folder).read("c").spent).toEqual(none);
	});

	it("runs no on-stop command of the end of a run for a stop that gave no time to wrap up", () => {
		const folder = tempFolder();
		const ledger = createFileLedger(folder);
		const summary = { usedTurns: 1, elapsedMs: 1, timeRanOut: false };
		ledger.claim({ kind: "spent", budgetId: "b", summary, prompt: null });
		writeFileSync(join(folder, "b.ended.json"), JSON.stringify({ kind: "ended", budgetId: "b", onStopCommand: "x" }));
		expect(createFileLedger(folder).read("b").onStop).toBeUndefined();
		// A stop whose claim has no summary at all is read as spent, with no command either.
		writeFileSync(join(folder, "c.spent.json"), JSON.stringify({ kind: "spent" }));
		writeFileSync(join(folder, "c.ended.json"), JSON.stringify({ kind: "ended", budgetId: "c", onStopCommand: "x" }));
		expect(createFileLedger(folder).read("c")).toMatchObject({ spent: { usedTurns: 0 } });
		expect(createFileLedger(folder).read("c").onStop).toBeUndefined();
	});

	it("reads the command a stop kept for the end of the run it let wrap up, until that end is claimed", () => {
		const folder = tempFolder();
		const summary = { usedTurns: 1, elapsedMs: 1, timeRanOut: true, wrapUpUntil: CLAIMED_AT + 30_000 };
		const ledger = createFileLedger(folder, { clock: { now: () => CLAIMED_AT }, pid: () => 4242 });
		ledger.claim({ kind: "spent", budgetId: "b", summary, prompt: "p1", onStopAtEnd: "lmk" });
		expect(createFileLedger(folder).read("b").onStop).toEqual({
			claim: { budgetId: "b", kind: "ended" },
			command: "lmk",
			claimedAt: CLAIMED_AT,
			started: false,
			claimantAlive: false,
			recovered: false,
			endsBy: CLAIMED_AT + 30_000,
		});
		writeFileSync(join(folder, "b.ended.started"), "");
		expect(createFileLedger(folder).read("b").onStop).toMatchObject({ started: true, endsBy: CLAIMED_AT + 30_000 });
		// Its end claimed (with the command, by whoever ended the run): that claim's, with no time to end by.
		ledger.claim({ kind: "ended", budgetId: "b", onStopCommand: "lmk" });
		expect(createFileLedger(folder).read("b").onStop).toEqual({
			claim: { budgetId: "b", kind: "ended" },
			command: "lmk",
			claimedAt: CLAIMED_AT,
			started: true,
			claimantAlive: false,
			recovered: false,
		});
		// A stop that gave no time to wrap up keeps none, nor one whose command is no text.
		ledger.claim({ kind: "spent", budgetId: "c", summary: { ...summary, wrapUpUntil: undefined }, prompt: null });
		writeFileSync(join(folder, "d.spent.json"), JSON.stringify({ kind: "spent", summary, onStopAtEnd: 7 }));
		expect(createFileLedger(folder).read("c").onStop).toBeUndefined();
		expect(createFileLedger(folder).read("d").onStop).toBeUndefined();
	});

	it("refuses an id that could leave its folder, and reads nothing for one", () => {
		const ledger = createFileLedger(tempFolder());
		expect(() => ledger.claim({ kind: "off", budgetId: "../escape" })).toThrow("not a budget id");
		expect(ledger.read("../escape")).toEqual({ spent: null, off: false, nudged: false });
	});

	it("throws when the folder cannot be written, so the caller can fire anyway and say why", () => {
		const folder = tempFolder();
		writeFileSync(join(folder, "file"), "");
		expect(() => createFileLedger(join(folder, "file")).claim({ kind: "off", budgetId: "b" })).toThrow();
		// A folder that exists but takes no new files (procfs, even for root).
		expect(() => createFileLedger("/proc/self").claim({ kind: "off", budgetId: "b" })).toThrow();
	});

	it("throws when the claim cannot be linked into place for another reason than a claim already there", () => {
		const folder = tempFolder();
		const refuse = () => {
			throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
		};
		expect(() => createFileLedger(folder, { link: refuse }).claim({ kind: "off", budgetId: "b" })).toThrow("EPERM");
		expect(readdirSync(folder)).toEqual([]);
	});

	it("writes the claiming process and the time into each claim, and reads a command whose claim lacks them as old", () => {
		const folder = tempFolder();
		const clock = { now: () => CLAIMED_AT };
		createFileLedger(folder, { clock, pid: () => 4242 }).claim({ kind: "ended", budgetId: "b", onStopCommand: "x" });
		expect(JSON.parse(readFileSync(join(folder, "b.ended.json"), "utf8"))).toEqual({
			version: 2,
			kind: "ended",
			budgetId: "b",
			onStopCommand: "x",
			pid: 4242,
			claimedAt: CLAIMED_AT,
		});
		// A claim of an older version, or one whose fields were damaged: no time, no claimant that runs.
		writeFileSync(join(folder, "c.spent.json"), JSON.stringify({ kind: "spent", onStopCommand: "y", pid: "me" }));
		expect(createFileLedger(folder).read("c").onStop).toMatchObject({
			command: "y",
			claimedAt: 0,
			claimantAlive: false,
		});
	});

	it("reads no on-stop command from a damaged claim of the end of a run, and names no mark for a hostile id", () => {
		const folder = tempFolder();
		const summary = { usedTurns: 0, elapsedMs: 1, timeRanOut: true, wrapUpUntil: CLAIMED_AT };
		createFileLedger(folder).claim({ kind: "spent", budgetId: "b", summary, prompt: null });
		writeFileSync(join(folder, "b.ended.json"), "{torn");
		expect(createFileLedger(folder).read("b").onStop).toBeUndefined();
		mkdirSync(join(folder, "b.spent.started"));
		expect(() => createFileLedger(folder).startMark?.({ budgetId: "../b", kind: "spent" })).toThrow("not a budget id");
	});

	it("tells a process that runs from one that ended, and names no process group as one", () => {
		expect(processAlive(process.pid)).toBe(true);
		// A process that ended: a shell, which starts in a few milliseconds where Node takes 60 and more.
		const ended = spawnSync("sh", ["-c", "exit"]).pid;
		expect(processAlive(ended)).toBe(false);
		for (const notOne of [0, -1, 1.5, "1", undefined, null]) expect(processAlive(notOne)).toBe(false);
		// A process of another user: signal 0 is refused, but it runs.
		const kill = vi.spyOn(process, "kill").mockImplementation(() => {
			throw Object.assign(new Error("EPERM"), { code: "EPERM" });
		});
		try {
			expect(processAlive(12345)).toBe(true);
		} finally {
			kill.mockRestore();
		}
	});

	it("leaves only the claim itself in the folder, never a draft", () => {
		const folder = tempFolder();
		const ledger = createFileLedger(folder);
		ledger.claim({ kind: "off", budgetId: "b" });
		ledger.claim({ kind: "off", budgetId: "b" });
		expect(readdirSync(folder)).toEqual(["b.off.json"]);
	});
});
