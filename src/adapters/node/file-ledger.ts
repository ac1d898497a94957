// The per-user ledger of budget outcomes for every Node host: one small file per budget and outcome, linked into place
// exclusively, so the first claim wins across instances and processes and a budget is spent at most once, anywhere.
// Each claim records the process that made it and when; the start mark of an on-stop command sits beside its claim.

import { randomUUID } from "node:crypto";
import {
	closeSync,
	fsyncSync,
	linkSync,
	mkdirSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	writeSync,
} from "node:fs";
import { join } from "node:path";
import {
	type BudgetLedger,
	type Clock,
	isBudgetId,
	type LedgerClaim,
	type LedgerView,
	type OnStopClaim,
	type OnStopIntent,
	RECORD_VERSION,
} from "../../core/index.ts";
import { systemClock } from "./node-time.ts";

function fileOf(dir: string, budgetId: string, kind: LedgerClaim["kind"]): string {
	return join(dir, `${checkedId(budgetId)}.${kind}.json`);
}

function checkedId(budgetId: string): string {
	if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
	return budgetId;
}

/** The start mark of the on-stop command of a claim: a file beside the claim, made by the command's wrapper. */
export function startMarkOf(dir: string, claim: OnStopClaim): string {
	return join(dir, `${checkedId(claim.budgetId)}.${claim.kind}.started`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}

function isFile(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

function exists(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * Whether a process runs: signal 0 checks without sending anything. EPERM means it runs as another user; anything but
 * a positive integer names no single process (0 and negative pids name process groups).
 */
export function processAlive(pid: unknown): boolean {
	if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * A claim file's fields, `{}` for one that is damaged or is no file (a folder in its place: a claim all the same, as
 * its claim could not be made either), or null when there is none.
 */
function readJson(file: string): Record<string, unknown> | null {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EISDIR" ? {} : null;
	}
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value : {};
	} catch {
		return {};
	}
}

function numberOr(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Links a file to a new name, failing with EEXIST when the name is taken; `fs.linkSync` but in tests. */
export type LinkFile = (existing: string, name: string) => void;

/** What a file ledger takes besides its folder; Node's own in production, fakes in tests. */
export interface FileLedgerOptions {
	link?: LinkFile;
	/** When a claim is made, as it records it. */
	clock?: Clock;
	/** The process that claims (this one), and whether the process that made a claim still runs. */
	pid?: () => number;
	alive?: (pid: unknown) => boolean;
}

/** The ledger kept in `dir` (created on the first claim). */
export function createFileLedger(dir: string, options: FileLedgerOptions = {}): BudgetLedger {
	const { link = linkSync, clock = systemClock, pid = () => process.pid, alive = processAlive } = options;
	return {
		claim(claim) {
			const file = fileOf(dir, claim.budgetId, claim.kind);
			mkdirSync(dir, { recursive: true });
			// Written whole under a name of its own, then linked into place: the link fails when the claim exists, so the
			// first claim wins, and a reader never sees a claim half written. The draft is flushed to the disk before it is
			// linked: a stop and its on-stop command depend on the claim, which must outlive a crash of the machine too.
			// The claiming process and the time go with it: a claim whose on-stop command never started is started by
			// another process once this one is gone.
			const draft = `${file}.${randomUUID()}.draft`;
			const fd = openSync(draft, "wx");
			const record = { version: RECORD_VERSION, ...claim, pid: pid(), claimedAt: clock.now() };
			try {
				try {
					writeSync(fd, `${JSON.stringify(record)}\n`);
					fsyncSync(fd);
				} finally {
					closeSync(fd);
				}
				link(draft, file);
				return true;
			} catch (error) {
				// Taken: by a claim, or by something that is no claim (a folder in its place), which cannot be trusted either way.
				if ((error as NodeJS.ErrnoException).code === "EEXIST" && isFile(file)) return false;
				throw error;
			} finally {
				rmSync(draft, { force: true });
			}
		},
		read(budgetId): LedgerView {
			if (!isBudgetId(budgetId)) return { spent: null, off: false, nudged: false };
			const spent = readJson(fileOf(dir, budgetId, "spent"));
			const fields = spent && isRecord(spent.summary) ? spent.summary : {};
			return {
				spent: spent
					? {
							usedTurns: numberOr(fields.usedTurns, 0),
							elapsedMs: numberOr(fields.elapsedMs, 0),
							timeRanOut: fields.timeRanOut === true,
							...(typeof fields.wrapUpUntil === "number" && Number.isFinite(fields.wrapUpUntil)
								? { wrapUpUntil: fields.wrapUpUntil }
								: {}),
							...(fields.limit === "tokens" || fields.limit === "cost" ? { limit: fields.limit } : {}),
							...(fields.noRoom === true ? { noRoom: true as const } : {}),
							...(fields.promptCounted === true ? { promptCounted: true as const } : {}),
							...(typeof fields.tokens === "number" && Number.isFinite(fields.tokens) ? { tokens: fields.tokens } : {}),
							...(typeof fields.cost === "number" && Number.isFinite(fields.cost) ? { cost: fields.cost } : {}),
							prompt: typeof spent.prompt === "string" ? spent.prompt : null,
						}
					: null,
				off: readJson(fileOf(dir, budgetId, "off")) !== null,
				nudged: readJson(fileOf(dir, budgetId, "nudged")) !== null,
				...onStopOf(dir, budgetId, spent, alive),
			};
		},
		startMark: (claim) => startMarkOf(dir, claim),
	};
}

/**
 * The on-stop command a claim of a spent budget recorded: the stop's own, or, after a grace period, the one of the end
 * of the run that wrapped up; where that end is not claimed yet, the one the stop kept for it, with the time the run was
 * to end by. Nothing is read for a budget that is not spent, nor the end of a run for a stop with no grace period, so a
 * hook of a running budget reads no more than before.
 */
function onStopOf(
	dir: string,
	budgetId: string,
	spent: Record<string, unknown> | null,
	alive: (pid: unknown) => boolean,
): { onStop?: OnStopIntent } {
	if (spent === null) return {};
	let kind: OnStopClaim["kind"] = "spent";
	let claim = spent;
	let command = spent.onStopCommand;
	let endsBy: number | undefined;
	if (typeof command !== "string") {
		if (!isRecord(spent.summary) || typeof spent.summary.wrapUpUntil !== "number") return {};
		kind = "ended";
		const ended = readJson(fileOf(dir, budgetId, "ended"));
		if (ended !== null) {
			claim = ended;
			command = ended.onStopCommand;
		} else {
			command = spent.onStopAtEnd;
			endsBy = spent.summary.wrapUpUntil;
		}
		if (typeof command !== "string") return {};
	}
	return {
		onStop: {
			claim: { budgetId, kind },
			command,
			claimedAt: numberOr(claim.claimedAt, 0),
			started: exists(startMarkOf(dir, { budgetId, kind })),
			claimantAlive: alive(claim.pid),
			recovered: readJson(fileOf(dir, budgetId, "onStopRecovered")) !== null,
			...(endsBy === undefined ? {} : { endsBy }),
		},
	};
}
