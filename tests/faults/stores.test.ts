// Fault injection over every store Timebox keeps, built as SQLite's crash tests are: each store's writes are
// enumerated, and at each write point each fault is injected (the process killed before, during or after the write; a
// torn write cut at every byte offset; a full disk, a refused permission or a folder in the file's place on the n-th
// write; two processes writing at once; the clock jumping an hour between two writes). After each fault the store is
// reopened as a fresh process would, the writes that follow are made, and the invariants are checked: what was written
// before the fault is still read (a budget spent stays spent), nothing is counted twice, a claim is won once, a failure
// throws no further than the executor and names the file, and the next write works. The counts of every cell are
// checked against the table in docs/reliability.md, so the document states what this suite ran.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { salvage } from "../../src/adapters/claude/function-hooks/store-repair.ts";
import { type DailyFiles, dailyLedgerOver, localDay } from "../../src/adapters/daily/ledger.ts";
import { type AppendFiles, nodeAppendFiles } from "../../src/adapters/node/append-line.ts";
import { nodeDailyFiles } from "../../src/adapters/node/daily-ledger.ts";
import { createFileLedger, startMarkOf } from "../../src/adapters/node/file-ledger.ts";
import type { LogLine } from "../../src/adapters/node/log-lines.ts";
import { systemClock } from "../../src/adapters/node/node-time.ts";
import { SessionLog } from "../../src/adapters/node/session-log.ts";
import {
	type DailyBudget,
	type DailyLedger,
	type Effect,
	type EffectPorts,
	type LedgerClaim,
	noAnswer,
	ON_STOP_RAN_LATE,
	recoverOnStop,
} from "../../src/core/index.ts";
import { carryOut } from "../../src/core/run/executor.ts";
import { claimWithOnStop } from "../../src/core/session/outcomes.ts";
import { budget, START } from "../support/budgets.ts";

/** The faults, in the table's order. */
const FAULTS = [
	"kill before",
	"kill during",
	"kill after",
	"torn write",
	"ENOSPC",
	"EACCES",
	"folder in place",
	"two writers",
	"clock jump",
] as const;
type Fault = (typeof FAULTS)[number];

/** The stores, in the table's order; the team store is built elsewhere and has its row to fill. */
const STORES = ["session log", "outcome ledger", "on-stop command", "daily ledger", "hooks module store"] as const;
type Store = (typeof STORES)[number];

interface Cell {
	points: number;
	runs: number;
	broken: number;
	violations: string[];
}
const cells = new Map<string, Cell>();

function cell(store: Store, fault: Fault): Cell {
	const key = `${store}|${fault}`;
	let found = cells.get(key);
	if (!found) {
		found = { points: 0, runs: 0, broken: 0, violations: [] };
		cells.set(key, found);
	}
	return found;
}

/** One run of a fault at a write point: the invariants it broke, if any, are kept. */
function run(store: Store, fault: Fault, check: () => string[]): void {
	const target = cell(store, fault);
	target.runs++;
	let broken: string[];
	try {
		broken = check();
	} catch (error) {
		broken = [`threw: ${error instanceof Error ? error.message : String(error)}`];
	}
	if (broken.length > 0) {
		target.broken++;
		target.violations.push(...broken.slice(0, 3));
	}
}

function points(store: Store, fault: Fault, count: number): void {
	cell(store, fault).points += count;
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-faults-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh folder for one run. */
function fresh(): string {
	const folder = mkdtempSync(join(dir, "run-"));
	mkdirSync(join(folder, "sessions"));
	return folder;
}

function errno(code: string, message: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** Node's appends, failing with `code` at the `n`-th write (1-based), and only there. */
function failingAppends(n: number, code: string): AppendFiles {
	let writes = 0;
	return {
		...nodeAppendFiles,
		openAppend(path) {
			if (code === "EACCES" && ++writes === n) throw errno(code, `permission denied, open '${path}'`);
			return nodeAppendFiles.openAppend(path);
		},
		write(fd, text) {
			if (code === "ENOSPC" && ++writes === n) throw errno(code, "no space left on device, write");
			nodeAppendFiles.write(fd, text);
		},
	};
}

// ---------------------------------------------------------------------------------------------------------------------
// The session log of the hook hosts and opencode.

const SESSION = "faults-1";

/** A session's writes: a budget of 2 turns, its prompts and what their model calls used, a claim, and its end. */
function sessionLines(jump = 0): LogLine[] {
	const at = (n: number) => START + n * 1_000 + (n >= 4 ? jump : 0);
	return [
		{ kind: "active", budget: budget({ id: "b1", turnLimit: 2 }) },
		{ kind: "prompt", promptId: "p1", at: at(1) },
		{ kind: "usage", responseId: "r1", tokens: 100, cost: 0.01, at: at(2) },
		{ kind: "prompt", promptId: "p2", at: at(3) },
		{ kind: "usage", responseId: "r2", tokens: 50, cost: 0.02, at: at(4) },
		{ kind: "claim", claim: { kind: "nudged", budgetId: "b1" }, at: at(5) },
		{ kind: "prompt", promptId: "p3", at: at(6) },
		{ kind: "ended", promptId: "p3", at: at(7) },
	];
}

/** What a fresh process reads of the log: its lines, as JSON, in order. */
function reread(folder: string): string[] {
	return new SessionLog(folder, SESSION).lines().map((line) => JSON.stringify(line));
}

/** The lines expected after a fault at line `k`: every line but the ones lost, each once, in order. */
function expectLines(all: LogLine[], lost: ReadonlySet<number>): string[] {
	return all.filter((_, index) => !lost.has(index)).map((line) => JSON.stringify(line));
}

function compare(label: string, got: string[], want: string[]): string[] {
	return JSON.stringify(got) === JSON.stringify(want)
		? []
		: [`${label}: read ${got.length} lines, expected ${want.length}`];
}

/** Writes lines[0..k) whole, as a process did before the fault. */
function writeBefore(folder: string, lines: LogLine[], k: number): SessionLog {
	const log = new SessionLog(folder, SESSION);
	for (const line of lines.slice(0, k)) log.appendLine(line);
	return log;
}

function logFile(folder: string): string {
	return join(folder, "sessions", `${SESSION}.jsonl`);
}

describe("the session log", () => {
	it("keeps every line written before a kill and after it, each once, at every write point and byte", () => {
		const lines = sessionLines();
		points("session log", "kill before", lines.length);
		points("session log", "kill during", lines.length);
		points("session log", "kill after", lines.length);
		points("session log", "torn write", lines.length);
		for (let k = 0; k < lines.length; k++) {
			const text = `${JSON.stringify(lines[k])}\n`;
			for (const [fault, kept] of [
				["kill before", 0],
				["kill during", Math.floor(text.length / 2)],
				["kill after", text.length],
			] as const) {
				run("session log", fault, () => {
					const folder = fresh();
					writeBefore(folder, lines, k);
					if (kept > 0) writeFileSync(logFile(folder), text.slice(0, kept), { flag: "a" });
					// A line whose JSON is whole, its newline alone missing, is read: only a line cut shorter is lost.
					const lost = new Set(kept >= text.length - 1 ? [] : [k]);
					const broken = compare("reopened", reread(folder), expectLines(lines.slice(0, k + 1), lost));
					// The next process writes the lines after the one in flight.
					const next = new SessionLog(folder, SESSION);
					for (const line of lines.slice(k + 1)) next.appendLine(line);
					return [...broken, ...compare("after", reread(folder), expectLines(lines, lost))];
				});
			}
			// A torn write: the line cut at every byte offset.
			for (let cut = 1; cut < text.length; cut++) {
				run("session log", "torn write", () => {
					const folder = fresh();
					writeBefore(folder, lines, k);
					writeFileSync(logFile(folder), text.slice(0, cut), { flag: "a" });
					const next = new SessionLog(folder, SESSION);
					for (const line of lines.slice(k + 1)) next.appendLine(line);
					return compare("after", reread(folder), expectLines(lines, new Set(cut >= text.length - 1 ? [] : [k])));
				});
			}
		}
	});

	it("names the file of a write the disk or the permissions refused, keeps what was written, and writes on after", () => {
		const lines = sessionLines();
		for (const code of ["ENOSPC", "EACCES"] as const) {
			points("session log", code, lines.length);
			for (let k = 0; k < lines.length; k++) {
				run("session log", code, () => {
					const folder = fresh();
					const log = new SessionLog(folder, SESSION, systemClock, false, failingAppends(k + 1, code));
					const broken: string[] = [];
					for (const [index, line] of lines.entries()) {
						try {
							log.appendLine(line);
							if (index === k) broken.push("the failing write did not fail");
						} catch (error) {
							const message = error instanceof Error ? error.message : "";
							if (index !== k) broken.push(`write ${index} failed`);
							if (!message.includes(logFile(folder))) broken.push(`not named: ${message}`);
							if ((error as NodeJS.ErrnoException).code !== code) broken.push("code lost");
						}
					}
					return [...broken, ...compare("after", reread(folder), expectLines(lines, new Set([k])))];
				});
			}
		}
	});

	it("refuses to read a log with a folder in its place, naming it, rather than read it as empty", () => {
		const lines = sessionLines();
		points("session log", "folder in place", lines.length);
		for (let k = 0; k < lines.length; k++) {
			run("session log", "folder in place", () => {
				const folder = fresh();
				writeBefore(folder, lines, k);
				rmSync(logFile(folder), { force: true });
				mkdirSync(logFile(folder), { recursive: true });
				const broken: string[] = [];
				for (const action of [
					() => reread(folder),
					() => new SessionLog(folder, SESSION).appendLine(lines[k] as LogLine),
				]) {
					try {
						action();
						broken.push("went on as if the log were empty");
					} catch (error) {
						if (!(error instanceof Error && error.message.includes(logFile(folder)))) broken.push("not named");
					}
				}
				return broken;
			});
		}
	});

	it("keeps both processes' lines when two write at once, each once", () => {
		const lines = sessionLines();
		points("session log", "two writers", lines.length);
		for (let k = 0; k < lines.length; k++) {
			run("session log", "two writers", () => {
				const folder = fresh();
				const [a, b] = [new SessionLog(folder, SESSION), new SessionLog(folder, SESSION)];
				// Each line is written by one of the two, alternating from line k; both append to the one file.
				for (const [index, line] of lines.entries()) (index >= k && index % 2 === 1 ? b : a).appendLine(line);
				return compare("read", reread(folder), expectLines(lines, new Set()));
			});
		}
	});

	it("counts each response once and in order when the clock jumps an hour back or forward between two writes", () => {
		points("session log", "clock jump", 2);
		for (const jump of [-3_600_000, 3_600_000]) {
			run("session log", "clock jump", () => {
				const folder = fresh();
				const lines = sessionLines(jump);
				writeBefore(folder, lines, lines.length);
				// A response counted again by a second hook after the jump counts once.
				new SessionLog(folder, SESSION).appendLine(lines[4] as LogLine);
				const usage = new SessionLog(folder, SESSION)
					.history()
					.filter((item) => item.kind === "usage")
					.map((item) => (item.kind === "usage" ? item.tokens : 0));
				return JSON.stringify(usage) === JSON.stringify([100, 50]) ? [] : [`usage read: ${usage}`];
			});
		}
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// The outcome ledger: one file per claim, linked into place.

const CLAIMS: LedgerClaim[] = [
	{ kind: "nudged", budgetId: "b1" },
	{
		kind: "spent",
		budgetId: "b1",
		summary: { usedTurns: 2, elapsedMs: 5_000, timeRanOut: false },
		prompt: "p3",
		onStopCommand: "echo stopped",
	},
	{ kind: "ended", budgetId: "b1" },
	{ kind: "onStopRecovered", budgetId: "b1" },
	{ kind: "off", budgetId: "b1" },
];

/** Whether the ledger in `folder` holds `claim`, as a fresh process reads it. */
function holds(folder: string, claim: LedgerClaim): boolean {
	const view = createFileLedger(folder).read(claim.budgetId);
	if (claim.kind === "spent") return view.spent !== null;
	if (claim.kind === "off") return view.off;
	if (claim.kind === "nudged") return view.nudged;
	return readdirSync(folder).includes(`${claim.budgetId}.${claim.kind}.json`);
}

describe("the outcome ledger", () => {
	it("is won once across a kill at every write point: before, during (a draft left behind) and after", () => {
		for (const fault of ["kill before", "kill during", "kill after", "torn write"] as const) {
			points("outcome ledger", fault, CLAIMS.length);
		}
		for (const [k, claim] of CLAIMS.entries()) {
			const text = `${JSON.stringify({ version: 2, ...claim })}\n`;
			const stages: [Fault, number][] = [
				["kill before", -1],
				["kill during", Math.floor(text.length / 2)],
				["kill after", text.length],
				...Array.from({ length: text.length - 1 }, (_, cut): [Fault, number] => ["torn write", cut + 1]),
			];
			for (const [fault, kept] of stages) {
				run("outcome ledger", fault, () => {
					const folder = fresh();
					const ledger = createFileLedger(folder);
					for (const before of CLAIMS.slice(0, k)) ledger.claim(before);
					const file = join(folder, `${claim.budgetId}.${claim.kind}.json`);
					// The claim's draft, as far as it was written when the process died; linked only when it was whole.
					if (kept >= 0) writeFileSync(`${file}.dead.draft`, text.slice(0, kept));
					if (fault === "kill after") writeFileSync(file, text);
					const broken: string[] = [];
					for (const before of CLAIMS.slice(0, k)) if (!holds(folder, before)) broken.push(`lost ${before.kind}`);
					const wonAgain = createFileLedger(folder).claim(claim);
					if (wonAgain === (fault === "kill after")) broken.push(`claimed again: ${wonAgain}`);
					if (createFileLedger(folder).claim(claim)) broken.push("won twice");
					if (!holds(folder, claim)) broken.push("not held after");
					return broken;
				});
			}
		}
	});

	it("throws a claim the disk or the permissions refused (the executor then fires the outcome), and keeps the others", () => {
		for (const code of ["ENOSPC", "EACCES"] as const) {
			points("outcome ledger", code, CLAIMS.length);
			for (const [k, claim] of CLAIMS.entries()) {
				run("outcome ledger", code, () => {
					const folder = fresh();
					const ledger = createFileLedger(folder, {
						link: () => {
							throw errno(code, `link '${folder}'`);
						},
					});
					const good = createFileLedger(folder);
					for (const before of CLAIMS.slice(0, k)) good.claim(before);
					const broken: string[] = [];
					try {
						ledger.claim(claim);
						broken.push("a refused claim counted as taken by another");
					} catch (error) {
						if (!(error instanceof Error && error.message.includes(folder))) broken.push("not named");
					}
					for (const before of CLAIMS.slice(0, k)) if (!holds(folder, before)) broken.push(`lost ${before.kind}`);
					if (readdirSync(folder).some((name) => name.endsWith(".draft"))) broken.push("draft left");
					if (!good.claim(claim)) broken.push("the next claim failed");
					return broken;
				});
			}
		}
	});

	it("reads a folder in a claim's place as the claim, and refuses to take it as won by another", () => {
		points("outcome ledger", "folder in place", CLAIMS.length);
		for (const claim of CLAIMS) {
			run("outcome ledger", "folder in place", () => {
				const folder = fresh();
				mkdirSync(join(folder, `${claim.budgetId}.${claim.kind}.json`), { recursive: true });
				const broken: string[] = [];
				if (!holds(folder, claim)) broken.push("a spent budget read as not spent");
				try {
					createFileLedger(folder).claim(claim);
					broken.push("taken as claimed by another process");
				} catch (error) {
					if (!(error instanceof Error && error.message.includes(folder))) broken.push("not named");
				}
				return broken;
			});
		}
	});

	it("gives a claim to exactly one of two processes that make it at once", () => {
		points("outcome ledger", "two writers", CLAIMS.length);
		for (const claim of CLAIMS) {
			run("outcome ledger", "two writers", () => {
				const folder = fresh();
				const won = [createFileLedger(folder), createFileLedger(folder)].map((ledger) => ledger.claim(claim));
				return won.filter(Boolean).length === 1 ? [] : [`won ${won}`];
			});
		}
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// The on-stop command: the stop's claim (which records it), the start mark its wrapper takes, and a later process's
// recovery (its start, then its claim). A process is killed before or after each of these writes; the processes after
// it load the ledger as the hosts do and carry out what the core's recovery rule says. The command must run once, and
// the user be told of a late start at most once.

const STOP_CLAIM: Extract<LedgerClaim, { kind: "spent" }> = {
	kind: "spent",
	budgetId: "b1",
	summary: { usedTurns: 1, elapsedMs: 5_000, timeRanOut: false },
	prompt: "p2",
};

/** The write points of the on-stop command, in order: the claimant's two, then the recovering process's two. */
const ON_STOP_WRITES = ["stop's claim", "claimant's start mark", "recovery's start mark", "recovery's claim"] as const;

/** What became of a stop: the runs of the command, the late notices the user saw. */
interface StopOutcome {
	runs: number;
	told: number;
}

/** Where a process dies: before or after its own write number `write` (from 1). */
interface Kill {
	write: number;
	after: boolean;
}

/**
 * The processes of one session over one ledger folder: each carries out effects through the real file ledger and the
 * one executor, with a starter that does what the wrapper does (the mark made exclusively; the command run only when it
 * was made, or could not be made for another reason than being there). A process killed at a write makes no write after
 * it and shows nothing; a wrapper it spawned runs on. `refused`: the folder takes no new file (a full disk, a refused
 * permission), so neither a claim nor a mark can be made. A wrapper may be held back (`held`) to run later.
 */
function stopWorld(folder: string, refused = false) {
	const outcome: StopOutcome = { runs: 0, told: 0 };
	const held: (() => void)[] = [];
	let current = 0;
	const wrapper = (mark: string) => {
		try {
			if (refused) throw errno("EACCES", `open '${mark}'`);
			writeFileSync(mark, "", { flag: "wx" });
			outcome.runs++;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") outcome.runs++;
		}
	};
	const process = (kill: Kill | null = null, holdWrapper = false) => {
		const pid = ++current;
		let writes = 0;
		let dead = false;
		/** Whether this process makes its next write. */
		const write = (): boolean => {
			if (dead) return false;
			writes++;
			if (kill?.write !== writes) return true;
			dead = true;
			return kill.after;
		};
		const refuse = () => {
			throw errno("EACCES", `link '${folder}'`);
		};
		const ledger = createFileLedger(folder, {
			pid: () => pid,
			alive: (claimant) => claimant === current,
			...(refused ? { link: refuse } : {}),
		});
		const ports: EffectPorts = {
			store: { append: () => {} },
			ledger: {
				claim: (claim) => (write() ? ledger.claim(claim) : false),
				startMark: (claim) => startMarkOf(folder, claim),
			},
			setStatus: () => {},
			onStop: {
				start: (_command, report, options) => {
					if (!write()) return;
					const mark = String(options?.mark);
					if (holdWrapper) held.push(() => wrapper(mark));
					else wrapper(mark);
					report({ kind: "started" });
				},
			},
			abortRun: () => {},
			problem: () => {},
		};
		const carry = (effects: Effect[]) => {
			const answer = carryOut(effects, ports, noAnswer(), () => {});
			if (!dead) outcome.told += answer.notices.filter((notice) => notice.message === ON_STOP_RAN_LATE).length;
		};
		return {
			/** The budget's stop: its claim with the command, and the command's start. */
			stop: () => carry([claimWithOnStop(STOP_CLAIM, "echo stopped", [])]),
			/** What a load reads of the ledger. */
			read: () => ledger.read("b1"),
			/** A load: a stop no process made is made here; else what the recovery rule says, as every load runs it. */
			load: (view = ledger.read("b1")) =>
				carry(
					view.spent === null && !refused
						? [claimWithOnStop(STOP_CLAIM, "echo stopped", [])]
						: recoverOnStop(view, START),
				),
		};
	};
	return { process, outcome, release: () => held.splice(0).forEach((run) => void run()) };
}

function stopBroken(label: string, outcome: StopOutcome): string[] {
	const broken: string[] = [];
	if (outcome.runs !== 1) broken.push(`${label}: ran ${outcome.runs} times`);
	if (outcome.told > 1) broken.push(`${label}: told ${outcome.told} times`);
	return broken;
}

describe("the on-stop command", () => {
	it("runs once, and is told late at most once, across a kill before or after each of its writes", () => {
		points("on-stop command", "kill before", ON_STOP_WRITES.length);
		points("on-stop command", "kill after", ON_STOP_WRITES.length);
		for (const [index, point] of ON_STOP_WRITES.entries()) {
			for (const after of [false, true]) {
				run("on-stop command", after ? "kill after" : "kill before", () => {
					const world = stopWorld(fresh());
					// The claimant dies at its own writes; for the recovery's, right after its claim, so that another recovers.
					world.process(index < 2 ? { write: index + 1, after } : { write: 1, after: true }).stop();
					// The first process to load after it: killed at the recovery's writes, its own first and second.
					world.process(index < 2 ? null : { write: index - 1, after }).load();
					// Every process after that, whatever it finds.
					world.process().load();
					world.process().load();
					return stopBroken(`${point}, ${after ? "after" : "before"}`, world.outcome);
				});
			}
		}
	});

	it("runs once when the claimant's own start races a recovery, and when two processes recover at once", () => {
		points("on-stop command", "two writers", 2);
		run("on-stop command", "two writers", () => {
			// The claimant dies right after its spawn; its wrapper is slow to take the mark, and a recovery starts it too.
			const world = stopWorld(fresh());
			world.process({ write: 3, after: false }, true).stop();
			world.process().load();
			world.release();
			world.process().load();
			return stopBroken("claimant's wrapper and a recovery", world.outcome);
		});
		run("on-stop command", "two writers", () => {
			const world = stopWorld(fresh());
			world.process({ write: 2, after: false }).stop();
			// Two processes load at once: each reads the ledger before either writes.
			const [first, second] = [world.process(), world.process()];
			const [seenFirst, seenSecond] = [first.read(), second.read()];
			first.load(seenFirst);
			second.load(seenSecond);
			world.process().load();
			return stopBroken("two recoveries", world.outcome);
		});
	});

	it("runs once when the ledger's folder takes no new file: the claim counts as won, and no mark can be made", () => {
		for (const code of ["ENOSPC", "EACCES"] as const) {
			points("on-stop command", code, 2);
			for (const point of ON_STOP_WRITES.slice(0, 2)) {
				run("on-stop command", code, () => {
					const world = stopWorld(fresh(), true);
					world.process().stop();
					world.process().load();
					world.process().load();
					return stopBroken(`${code} at the ${point}`, world.outcome);
				});
			}
		}
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// The daily ledger every host shares.

const USER = { scope: "user", turnLimit: 3 } as const;

/** Node's daily files, failing with `code` at the `n`-th write (a prompt file made, a line appended), or a folder. */
function failingDaily(n: number, code: string): DailyFiles {
	let writes = 0;
	const fail = (path: string) => {
		if (++writes === n) {
			if (code === "EISDIR") mkdirSync(path, { recursive: true });
			else throw errno(code, `'${path}'`);
		}
	};
	return {
		...nodeDailyFiles,
		append(path, text) {
			fail(path);
			return nodeDailyFiles.append(path, text);
		},
		createExclusive(path, text) {
			fail(path);
			return nodeDailyFiles.createExclusive(path, text);
		},
	};
}

/** The user's daily budget of three prompts. */
const DAY: DailyBudget = {
	scope: USER.scope,
	source: "test",
	limits: { timeMs: null, turns: 3, tokens: null, cost: null },
};

function dailyOf(folder: string, session: string, files: DailyFiles = nodeDailyFiles, now = () => START) {
	const budgets: DailyBudget[] = [DAY];
	const ledger = dailyLedgerOver(files, folder, session, { now }, (scope) => scope);
	return { ledger, budgets };
}

/** A session's day: three prompts, each with what its run used. */
function daySession(ledger: DailyLedger, budgets: DailyBudget[]): void {
	for (let n = 0; n < 3; n++) {
		ledger.countPrompt(budgets, [USER.turnLimit]);
		ledger.addUse(budgets, { tokens: 10, agentMs: 1_000 });
	}
}

function standing(folder: string, now = () => START) {
	const { ledger, budgets } = dailyOf(folder, "reader", nodeDailyFiles, now);
	return ledger.standings(budgets)[0]?.use;
}

describe("the daily ledger", () => {
	it("keeps every prompt and every whole line across a kill at each write and a torn line at every byte", () => {
		// Writes: per prompt, its file and a line of use; then its run's line of use.
		const writes = 9;
		for (const fault of ["kill before", "kill during", "kill after", "torn write"] as const) {
			points("daily ledger", fault, writes);
		}
		const useFile = (folder: string) => join(folder, "daily", "user", localDay(START), "use.jsonl");
		const line = `${JSON.stringify({ session: "a", tokens: 10, agentMs: 1_000 })}\n`;
		for (let k = 1; k <= writes; k++) {
			const cuts: [Fault, number][] = [
				["kill before", 0],
				["kill during", Math.floor(line.length / 2)],
				["kill after", line.length],
				...Array.from({ length: line.length - 1 }, (_, cut): [Fault, number] => ["torn write", cut + 1]),
			];
			for (const [fault, kept] of cuts) {
				run("daily ledger", fault, () => {
					const folder = fresh();
					// The first process dies at write k: every write before it is whole, and a line of use in flight is cut.
					const { ledger, budgets } = dailyOf(folder, "a", failingDaily(k, "EKILLED"));
					daySession(ledger, budgets);
					const before = standing(folder);
					if (kept > 0) writeFileSync(useFile(folder), line.slice(0, kept), { flag: "a" });
					// The next process writes a line of use; a fresh reader then reads the day.
					const next = dailyOf(folder, "b");
					next.ledger.addUse(next.budgets, { tokens: 1, agentMs: 1 });
					const after = standing(folder);
					const broken: string[] = [];
					if (!before || !after) return ["no standing"];
					if (after.prompts !== before.prompts) broken.push(`prompts ${before.prompts} → ${after.prompts}`);
					// A line whose JSON is whole, its newline alone missing, counts: only a line cut shorter counts nothing.
					const whole = kept >= line.length - 1 ? 10 : 0;
					if (after.tokens !== before.tokens + whole + 1) broken.push(`tokens ${before.tokens} → ${after.tokens}`);
					if (ledger.problem() === null) broken.push("the failure was not told");
					return broken;
				});
			}
		}
	});

	it("says once, naming its folder, that a full disk, a refused permission or a folder in place stops it, and blocks nothing", () => {
		for (const [fault, code] of [
			["ENOSPC", "ENOSPC"],
			["EACCES", "EACCES"],
			["folder in place", "EISDIR"],
		] as const) {
			points("daily ledger", fault, 6);
			for (let k = 1; k <= 6; k++) {
				run("daily ledger", fault, () => {
					const folder = fresh();
					const { ledger, budgets } = dailyOf(folder, "a", failingDaily(k, code));
					daySession(ledger, budgets);
					const told = ledger.problem();
					const broken: string[] = [];
					// A folder where a prompt's file goes is taken as that prompt (it is never un-counted); anywhere else, and
					// for a refused write, the failure is told once, naming the ledger's folder, and the session goes on.
					const reader = dailyOf(folder, "reader");
					const read = reader.ledger.standings(reader.budgets)[0]?.use;
					if (read === undefined) {
						if (!reader.ledger.problem()?.includes(folder)) broken.push("an unreadable day not named");
					} else if (read.prompts < Math.ceil((k - 1) / 2)) broken.push(`prompts lost: ${read.prompts}`);
					if (told !== null && !told.includes(folder)) broken.push(`not named: ${told}`);
					if (told === null && code !== "EISDIR") broken.push("not told");
					if (ledger.problem() !== null) broken.push("told twice");
					return broken;
				});
			}
		}
	});

	it("never lets two sessions that count at once take more prompts than the day allows", () => {
		points("daily ledger", "two writers", 3);
		for (let limit = 1; limit <= 3; limit++) {
			run("daily ledger", "two writers", () => {
				const folder = fresh();
				const [a, b] = [dailyOf(folder, "a"), dailyOf(folder, "b")];
				let taken = 0;
				for (let n = 0; n < 4; n++) {
					for (const session of [a, b]) {
						session.ledger.standings(session.budgets);
						if (session.ledger.countPrompt(session.budgets, [limit])) taken++;
					}
				}
				return taken === limit && standing(folder)?.prompts === limit ? [] : [`took ${taken} of ${limit}`];
			});
		}
	});

	it("keeps a spent day spent when the clock jumps an hour forward across midnight and back", () => {
		points("daily ledger", "clock jump", 2);
		for (const [first, second] of [
			[3_600_000, -3_600_000],
			[-3_600_000, 3_600_000],
		] as const) {
			run("daily ledger", "clock jump", () => {
				const folder = fresh();
				let now = new Date(2026, 10, 22, 23, 30).getTime();
				const clock = () => now;
				const { ledger, budgets } = dailyOf(folder, "a", nodeDailyFiles, clock);
				daySession(ledger, budgets);
				const spent = standing(folder, clock)?.prompts;
				now += first;
				standing(folder, clock);
				now += second;
				const after = standing(folder, clock)?.prompts;
				return spent === after ? [] : [`prompts ${spent} → ${after}`];
			});
		}
	});
});

// ---------------------------------------------------------------------------------------------------------------------
// The hooks module's store in Claude Code: Claude Code writes the file; Timebox reads what a damaged one still holds.

describe("the hooks module's store", () => {
	it("keeps every whole entry, and never a wrong one, when the file is cut at every byte", () => {
		const entries: Record<string, unknown> = {};
		for (let n = 1; n <= 4; n++) {
			entries[`session:s${n}`] = {
				history: [{ kind: "record", record: { kind: "active", budget: budget({ id: `b${n}` }) } }],
				claims: n % 2 === 0 ? [{ kind: "spent", budgetId: `b${n}` }] : [],
			};
		}
		entries.sessions = { s1: START, s2: START, s3: START, s4: START };
		const text = JSON.stringify(entries, null, 2);
		points("hooks module store", "torn write", Object.keys(entries).length);
		points("hooks module store", "kill during", Object.keys(entries).length);
		for (let cut = 0; cut <= text.length + 10; cut++) {
			run("hooks module store", cut > text.length ? "kill during" : "torn write", () => {
				const damaged =
					cut > text.length ? `${text}${"\u0000garbage".slice(0, cut - text.length)}` : text.slice(0, cut);
				const { kept } = salvage(damaged);
				const broken: string[] = [];
				for (const [key, value] of Object.entries(kept)) {
					if (JSON.stringify(value) !== JSON.stringify(entries[key])) broken.push(`wrong ${key}`);
				}
				// Every entry that ended before the cut is kept.
				for (const key of Object.keys(entries)) {
					const end = text.indexOf(`\n  "`, text.indexOf(`"${key}"`) + 1);
					if ((end >= 0 ? end : text.length) <= Math.min(cut, text.length) - 2 && !(key in kept)) {
						broken.push(`lost ${key}`);
					}
				}
				return broken;
			});
		}
	});
});

/** The table of docs/reliability.md, made from what ran. */
function table(): string {
	const header = `| Store | ${FAULTS.join(" | ")} |`;
	const rule = `| --- | ${FAULTS.map(() => "---").join(" | ")} |`;
	const rows = STORES.map((store) => {
		const row = FAULTS.map((fault) => {
			const found = cells.get(`${store}|${fault}`);
			return found ? `${found.points} / ${found.runs} / ${found.broken}` : "n/a";
		});
		return `| ${store} | ${row.join(" | ")} |`;
	});
	return [header, rule, ...rows].join("\n");
}

afterAll(() => {
	const broken = [...cells].filter(([, found]) => found.broken > 0);
	const summary = Object.fromEntries(
		[...cells].map(([key, found]) => [key, { ...found, violations: found.violations }]),
	);
	mkdirSync("reports", { recursive: true });
	writeFileSync("reports/reliability.json", `${JSON.stringify(summary, null, 2)}\n`);
	console.log(`${table()}\n`);
	expect(broken.map(([key, found]) => `${key}: ${found.violations.join("; ")}`)).toEqual([]);
	const doc = readFileSync("docs/reliability.md", "utf8");
	expect(doc).toContain(table());
});
