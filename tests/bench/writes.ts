// Benchmark 8: what the crash-safe writes cost per event. A line of the session log (and of the daily ledger) is now
// appended after a look at the file's last byte, so that a line torn by a killed process never swallows it; a claim of
// the outcome ledger is flushed to the disk before it is linked. Each is timed beside the write it replaced, on a log
// of 10,000 lines, in the system's temporary folder (a disk, where fsync costs what it costs). Beside them, the read of
// the ledger every hook of a stopped session makes: of a stop that recorded its on-stop command (its start mark looked
// for, its recovery and its claimant), beside one of a stop with none. And what each hook of a team's member reads of
// what its session was told (a problem said once a session, the store's failure carried): none kept, and one kept.

import { appendFileSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendLine } from "../../src/adapters/node/append-line.ts";
import { createFileLedger } from "../../src/adapters/node/file-ledger.ts";
import { fileSessionTold } from "../../src/adapters/team/session-told.ts";
import { median, nowMs } from "./stats.ts";

export const WRITE_SAMPLES = 2_001;
export const CLAIM_SAMPLES = 101;
export const LOG_SIZE = 10_000;
export const READ_SAMPLES = 2_001;

export interface WritesResult {
	/** One line appended the crash-safe way, and the plain `appendFileSync` it replaced. */
	lineMs: number;
	plainLineMs: number;
	/** One claim flushed then linked, and one linked unflushed as before. */
	claimMs: number;
	plainClaimMs: number;
	/** The ledger read of a stop that recorded its on-stop command (started), and of a stop with none. */
	onStopReadMs: number;
	plainReadMs: number;
	/** A hook's look at what its session was told, with nothing kept, and with a problem and a failure kept. */
	toldNoneMs: number;
	toldKeptMs: number;
}

const LINE = `${JSON.stringify({ kind: "usage", responseId: "msg_0123456789", tokens: 1_234, cost: 0.0123, at: 1 })}\n`;

export async function measureWrites(): Promise<WritesResult> {
	const dir = mkdtempSync(join(tmpdir(), "timebox-bench-writes-"));
	try {
		const safe = join(dir, "safe.jsonl");
		const plain = join(dir, "plain.jsonl");
		writeFileSync(safe, LINE.repeat(LOG_SIZE));
		writeFileSync(plain, LINE.repeat(LOG_SIZE));
		const lines: number[] = [];
		const plainLines: number[] = [];
		for (let sample = 0; sample < WRITE_SAMPLES; sample++) {
			let started = nowMs();
			appendLine(safe, LINE);
			lines.push(nowMs() - started);
			started = nowMs();
			appendFileSync(plain, LINE, { encoding: "utf8", flag: "a" });
			plainLines.push(nowMs() - started);
		}
		const ledger = createFileLedger(join(dir, "ledger"));
		const plainDir = join(dir, "plain-ledger");
		mkdirSync(plainDir);
		const claims: number[] = [];
		const plainClaims: number[] = [];
		for (let sample = 0; sample < CLAIM_SAMPLES; sample++) {
			const claim = {
				kind: "spent",
				budgetId: `b${sample}`,
				summary: { usedTurns: 2, elapsedMs: 1, timeRanOut: false },
			};
			let started = nowMs();
			ledger.claim({ ...claim, kind: "spent", prompt: null });
			claims.push(nowMs() - started);
			// The write it replaced: the draft written unflushed, linked, removed.
			started = nowMs();
			const draft = join(plainDir, `b${sample}.spent.json.draft`);
			writeFileSync(draft, `${JSON.stringify(claim)}\n`, { flag: "wx" });
			linkSync(draft, join(plainDir, `b${sample}.spent.json`));
			rmSync(draft);
			plainClaims.push(nowMs() - started);
		}
		// A stop that recorded its command, started (its mark there), and a stop with none: what a hook reads of each.
		const summary = { usedTurns: 1, elapsedMs: 1, timeRanOut: false };
		ledger.claim({ kind: "spent", budgetId: "with", summary, prompt: null, onStopCommand: "notify-send done" });
		writeFileSync(join(dir, "ledger", "with.spent.started"), "");
		ledger.claim({ kind: "spent", budgetId: "without", summary, prompt: null });
		const reads: number[] = [];
		const plainReads: number[] = [];
		for (let sample = 0; sample < READ_SAMPLES; sample++) {
			let started = nowMs();
			ledger.read("with");
			reads.push(nowMs() - started);
			started = nowMs();
			ledger.read("without");
			plainReads.push(nowMs() - started);
		}
		// A hook's look at what its session was told: its file read once, the problem looked up, the failure taken.
		const toldDir = join(dir, "told");
		const kept = fileSessionTold(toldDir, "kept", { now: () => 0 });
		kept.first(LINE);
		kept.keepFailed({ why: "connect ECONNREFUSED 127.0.0.1:6379", until: 5_000 });
		const toldNone: number[] = [];
		const toldKept: number[] = [];
		for (let sample = 0; sample < READ_SAMPLES; sample++) {
			for (const [id, times] of [
				["none", toldNone],
				["kept", toldKept],
			] as const) {
				const started = nowMs();
				const told = fileSessionTold(toldDir, id, { now: () => 0 });
				told.failed();
				told.said(LINE);
				times.push(nowMs() - started);
			}
		}
		return {
			toldNoneMs: median(toldNone),
			toldKeptMs: median(toldKept),
			lineMs: median(lines),
			plainLineMs: median(plainLines),
			claimMs: median(claims),
			plainClaimMs: median(plainClaims),
			onStopReadMs: median(reads),
			plainReadMs: median(plainReads),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
