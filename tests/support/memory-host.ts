// In-memory implementations of every port, recording what a user would see; tests/scenarios/drivers.ts drives the
// core's live session on them with no host at all.

import { writeFileSync } from "node:fs";
import type {
	BudgetLedger,
	HistoryItem,
	LedgerClaim,
	LedgerView,
	NotifyLevel,
	OnStopClaim,
	OnStopOutcome,
	OnStopStarter,
	OnStopStartOptions,
	SessionStore,
	TimeboxRecord,
	UIBridge,
} from "../../src/core/index.ts";

export interface Notification {
	message: string;
	level: NotifyLevel;
}

/** Budget ids `budget-1`, `budget-2`, … */
export function sequentialIds(prefix = "budget"): () => string {
	let next = 1;
	return () => `${prefix}-${next++}`;
}

/** A session's history in memory: records appended, prompts added by the host. */
export class MemoryStore implements SessionStore {
	readonly items: HistoryItem[] = [];
	failNextAppend: Error | null = null;

	append(record: TimeboxRecord): void {
		const failure = this.failNextAppend;
		this.failNextAppend = null;
		if (failure) throw failure;
		this.items.push({ kind: "record", record });
	}

	addPrompt(key: string): void {
		this.items.push({ kind: "prompt", key });
	}

	history(): HistoryItem[] {
		return [...this.items];
	}

	/** The records written, oldest first. */
	get records(): unknown[] {
		return this.items.flatMap((item) => (item.kind === "record" ? [item.record] : []));
	}
}

/**
 * The start marks in memory that a `RecordingStarter` takes and a `MemoryLedger` reads, by name: each ledger names its
 * own (`memory-<n>:…`), so tests never share one.
 */
const MEMORY_MARKS = new Set<string>();
let memoryLedgers = 0;

/** A claim as the memory ledger keeps it: with the process that made it and when. */
type HeldClaim = LedgerClaim & { claimant: number; claimedAt: number };

/**
 * The per-user ledger in memory: the first claim of each kind for a budget wins. Each claim records `process` (the
 * process claiming now: a test that plays a new process after a kill moves it on) and the time of `now`; without a
 * clock a claim is never old, and a claimant is alive while it is the current process.
 */
export class MemoryLedger implements BudgetLedger {
	readonly claims = new Map<string, HeldClaim>();
	/** The process that claims now. */
	process = 1;
	private readonly name = `memory-${++memoryLedgers}`;

	constructor(private readonly now: () => number = () => Number.POSITIVE_INFINITY) {}

	claim(claim: LedgerClaim): boolean {
		const key = `${claim.budgetId}.${claim.kind}`;
		if (this.claims.has(key)) return false;
		this.claims.set(key, { ...claim, claimant: this.process, claimedAt: this.now() });
		return true;
	}

	read(budgetId: string): LedgerView {
		const spent = this.claims.get(`${budgetId}.spent`);
		const view: LedgerView = {
			spent: spent?.kind === "spent" ? { ...spent.summary, prompt: spent.prompt } : null,
			off: this.claims.has(`${budgetId}.off`),
			nudged: this.claims.has(`${budgetId}.nudged`),
		};
		const held = [spent, this.claims.get(`${budgetId}.ended`)].find(
			(claim) => (claim?.kind === "spent" || claim?.kind === "ended") && claim.onStopCommand !== undefined,
		);
		if (held?.kind !== "spent" && held?.kind !== "ended") return view;
		const claim: OnStopClaim = { budgetId, kind: held.kind };
		view.onStop = {
			claim,
			command: String(held.onStopCommand),
			claimedAt: held.claimedAt,
			started: MEMORY_MARKS.has(this.startMark(claim)),
			claimantAlive: held.claimant === this.process,
			recovered: this.claims.has(`${budgetId}.onStopRecovered`),
		};
		return view;
	}

	startMark(claim: OnStopClaim): string {
		return `${this.name}:${claim.budgetId}.${claim.kind}.started`;
	}
}

export class MemoryUI implements UIBridge {
	readonly notifications: Notification[] = [];
	readonly statuses: (string | undefined)[] = [];

	notify(message: string, level: NotifyLevel): void {
		this.notifications.push({ message, level });
	}

	setStatus(text: string | undefined): void {
		this.statuses.push(text);
	}

	get status(): string | undefined {
		return this.statuses.at(-1);
	}

	get last(): Notification | undefined {
		return this.notifications.at(-1);
	}

	messages(level?: NotifyLevel): string[] {
		return this.notifications.filter((n) => level === undefined || n.level === level).map((n) => n.message);
	}
}

/** Records each on-stop command; reports `started` at once unless told to report something else. */
export class RecordingStarter implements OnStopStarter {
	/** The commands that ran: each start that took its mark, or had none. */
	readonly commands: string[] = [];
	/** The starts that found their mark taken, and so ran nothing, as the wrapper does. */
	readonly skipped: string[] = [];
	/** The marks each start was given, in order (undefined: none). */
	readonly marks: (string | undefined)[] = [];
	readonly reports: ((outcome: OnStopOutcome) => void)[] = [];
	/** What the next runs report at once; null reports nothing (the test reports later through `reports`). */
	outcome: OnStopOutcome | null = { kind: "started" };
	/**
	 * The process starting it is killed before its start gets anywhere: the next start runs nothing and takes no mark;
	 * `killed` is called instead. It reports `started`, so that a hook does not wait for a word that never comes (what a
	 * killed process says is never seen anyway).
	 */
	killNext: (() => void) | null = null;

	start(command: string, report: (outcome: OnStopOutcome) => void, options?: OnStopStartOptions): void {
		const killed = this.killNext;
		if (killed) {
			this.killNext = null;
			killed();
			report({ kind: "started" });
			return;
		}
		this.marks.push(options?.mark);
		if (options?.mark === undefined || takeMark(options.mark)) this.commands.push(command);
		else this.skipped.push(command);
		this.reports.push(report);
		if (this.outcome) report(this.outcome);
	}

	/** Reports what became of run number `run` (0 is the first), as the real runner would later. */
	report(outcome: OnStopOutcome, run = 0): void {
		this.reports[run]?.(outcome);
	}
}

/** A user who answers Timebox's questions from a script, and remembers what was asked. */
export class ScriptedUser {
	/** Whether there is a UI to ask through. */
	canAsk = false;
	readonly questions: { question: string; choices: readonly string[]; timeoutMs: number }[] = [];
	/** The answers to give, in order: a choice's index, or undefined for no answer before the timeout. */
	readonly answers: (number | undefined)[] = [];

	ask(question: string, choices: readonly string[], timeoutMs: number): Promise<number | undefined> {
		this.questions.push({ question, choices, timeoutMs });
		return Promise.resolve(this.answers.shift());
	}
}

/**
 * Takes a start mark as the wrapper does: a memory ledger's in memory, a file ledger's as a file created exclusively.
 * False only when it was taken; a mark that cannot be made for another reason (no folder) lets the command run.
 */
function takeMark(mark: string): boolean {
	if (mark.startsWith("memory-")) {
		if (MEMORY_MARKS.has(mark)) return false;
		MEMORY_MARKS.add(mark);
		return true;
	}
	try {
		writeFileSync(mark, "", { flag: "wx" });
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== "EEXIST";
	}
}
