// In-memory implementations of every port, and an in-memory host: the core's live session driven with no host at
// all, recording what a user would see and what the model was told.

import {
	type BudgetLedger,
	type BudgetStore,
	type HistoryItem,
	type LedgerClaim,
	type LedgerView,
	LiveSession,
	type NotifyLevel,
	type OnStopOutcome,
	type OnStopRunner,
	type TimeboxRecord,
	type UIBridge,
} from "../../src/core/index.ts";
import { FakeTime } from "./fake-time.ts";

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
export class MemoryStore implements BudgetStore {
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
export class RecordingRunner implements OnStopRunner {
	readonly commands: string[] = [];
	readonly reports: ((outcome: OnStopOutcome) => void)[] = [];
	/** What the next runs report at once; null reports nothing (the test reports later through `reports`). */
	outcome: OnStopOutcome | null = { kind: "started" };

	run(command: string, report: (outcome: OnStopOutcome) => void): void {
		this.commands.push(command);
		this.reports.push(report);
		if (this.outcome) report(this.outcome);
	}
}

/** The core's live session on in-memory ports, with the ports exposed for assertions. */
export function createMemoryHost(options: { start?: number; ledger?: MemoryLedger; store?: MemoryStore } = {}) {
	const time = new FakeTime(options.start);
	const store = options.store ?? new MemoryStore();
	const ledger = options.ledger ?? new MemoryLedger();
	const ui = new MemoryUI();
	const onStop = new RecordingRunner();
	let aborts = 0;
	let prompts = 0;
	const session = new LiveSession({
		store,
		ledger,
		ui,
		clock: time,
		scheduler: time,
		onStop,
		abortRun: () => {
			aborts++;
		},
		newBudgetId: sequentialIds(),
	});
	return {
		time,
		store,
		ledger,
		ui,
		onStop,
		session,
		get aborts() {
			return aborts;
		},
		/** Sends one prompt through its whole run; returns the context blocks it got and whether it was stopped. */
		runPrompt(modelCalls = 1): { context: string[]; stopped: boolean } {
			const key = `p${++prompts}`;
			const context = session.dispatch({ type: "promptSubmitted" }).context;
			const before = aborts;
			store.addPrompt(key);
			session.dispatch({ type: "modelCall", prompt: key });
			for (let call = 1; call < modelCalls && aborts === before; call++) {
				session.dispatch({ type: "toolCall", prompt: null });
				session.dispatch({ type: "modelCall", prompt: null });
			}
			session.dispatch({ type: "runEnd" });
			return { context, stopped: aborts > before };
		},
	};
}

export type MemoryHost = ReturnType<typeof createMemoryHost>;
