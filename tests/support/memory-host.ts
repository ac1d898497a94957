// In-memory implementations of every core port, recording what a user would see and what the agent was told.

import type { TimeboxBudget } from "../../src/core/budget.ts";
import { TimeboxController } from "../../src/core/controller.ts";
import type {
	AgentBridge,
	BudgetStore,
	NotifyLevel,
	OnStopRunner,
	TranscriptBridge,
	UIBridge,
} from "../../src/core/ports.ts";
import { FakeTime } from "./fake-time.ts";

export interface Notification {
	message: string;
	level: NotifyLevel;
}

export class MemoryStore implements BudgetStore {
	readonly records: unknown[] = [];
	failNextAppend: Error | null = null;

	appendActive(budget: TimeboxBudget): void {
		this.throwIfFailing();
		this.records.push({ kind: "active", budget });
	}

	appendOff(disabledAt: number): void {
		this.throwIfFailing();
		this.records.push({ kind: "off", disabledAt });
	}

	loadRecords(): readonly unknown[] {
		return [...this.records];
	}

	private throwIfFailing(): void {
		const failure = this.failNextAppend;
		this.failNextAppend = null;
		if (failure) throw failure;
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

export class MemoryTranscript implements TranscriptBridge {
	userMessages = 0;

	countUserMessages(): number {
		return this.userMessages;
	}
}

export class MemoryAgent implements AgentBridge {
	aborts = 0;
	readonly systemPromptAdditions: string[] = [];

	abortCurrentTurn(): void {
		this.aborts++;
	}

	appendSystemPrompt(extra: string): void {
		this.systemPromptAdditions.push(extra);
	}
}

export class RecordingRunner implements OnStopRunner {
	readonly commands: string[] = [];
	readonly reports: ((problem: string) => void)[] = [];

	run(command: string, report: (problem: string) => void): void {
		this.commands.push(command);
		this.reports.push(report);
	}
}

/** A controller wired to in-memory ports, with the ports exposed for assertions. */
export function createMemoryHost(start?: number) {
	const time = new FakeTime(start);
	const store = new MemoryStore();
	const ui = new MemoryUI();
	const transcript = new MemoryTranscript();
	const agent = new MemoryAgent();
	const onStop = new RecordingRunner();
	const controller = new TimeboxController({ store, ui, transcript, agent, clock: time, scheduler: time, onStop });
	/** Sends one prompt through its whole run: agent start, its turns, and the end. */
	const runPrompt = (llmCalls = 1) => {
		controller.agentStart();
		controller.turnStart(true);
		transcript.userMessages++;
		for (let call = 1; call < llmCalls; call++) controller.turnStart(false);
		controller.agentEnd();
	};
	return { time, store, ui, transcript, agent, onStop, controller, runPrompt };
}

export type MemoryHost = ReturnType<typeof createMemoryHost>;
