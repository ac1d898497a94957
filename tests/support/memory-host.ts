// In-memory implementations of every port, recording what a user would see; tests/scenarios/drivers.ts drives the
// core's live session on them with no host at all.

import type {
	BudgetLedger,
	HistoryItem,
	LedgerClaim,
	LedgerView,
	NotifyLevel,
	OnStopOutcome,
	OnStopStarter,
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

/** The per-user ledger in memory: the first claim of each kind for a budget wins. */
export class MemoryLedger implements BudgetLedger {
	readonly claims = new Map<string, LedgerClaim>();

	claim(claim: LedgerClaim): boolean {
		const key = `${claim.budgetId}.${claim.kind}`;
		if (this.claims.has(key)) return false;
		this.claims.set(key, claim);
		return true;
	}

	read(budgetId: string): LedgerView {
		const spent = this.claims.get(`${budgetId}.spent`);
		return {
			spent: spent?.kind === "spent" ? { ...spent.summary, prompt: spent.prompt } : null,
			off: this.claims.has(`${budgetId}.off`),
			nudged: this.claims.has(`${budgetId}.nudged`),
		};
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
	readonly commands: string[] = [];
	readonly reports: ((outcome: OnStopOutcome) => void)[] = [];
	/** What the next runs report at once; null reports nothing (the test reports later through `reports`). */
	outcome: OnStopOutcome | null = { kind: "started" };

	start(command: string, report: (outcome: OnStopOutcome) => void): void {
		this.commands.push(command);
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
