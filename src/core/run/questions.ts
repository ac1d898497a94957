// The questions the rules ask a live session's user (replace the budget? more steps?), one at a time: each asked in
// turn, the choice fed back to the rules, and the one open closed when a stop or a newer question makes it moot.

import type { SessionEvent } from "../session/index.ts";
import { QUESTION_CLOSED } from "../text/questions.ts";
import { type Answer, mergeAnswer, type Question } from "./executor.ts";
import type { LiveSessionPorts } from "./live-ports.ts";

/** The questions of one live session: at most one is open at a time. */
export class Questions {
	private open: AbortController | null = null;
	private answered: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly ports: Pick<LiveSessionPorts, "ask" | "canAsk">,
		private readonly report: (where: string, error: unknown) => void,
	) {}

	/** Whether a question is open now. */
	get isOpen(): boolean {
		return this.open !== null;
	}

	/** Whether the user can be asked now. */
	canAsk(): boolean {
		return this.ports.ask !== undefined && this.ports.canAsk?.() === true;
	}

	/** Closes the open question, if any: its answer is the closed question's (nothing changes). */
	close(): void {
		this.open?.abort();
	}

	/** Waits until no question is open; one that opens meanwhile is waited for too. */
	async whenNone(): Promise<void> {
		while (this.open !== null) await this.answered;
	}

	/**
	 * Asks each question of `first` in turn, feeding each choice to the rules through `dispatch`, and asks the questions
	 * their answers raise too. The answer of them all, merged.
	 */
	async askAll(first: Answer, dispatch: (event: SessionEvent) => Answer): Promise<Answer> {
		const merged: Answer = {
			...first,
			notices: [...first.notices],
			questions: [],
			stoppedAgents: [...first.stoppedAgents],
		};
		const pending = [...first.questions];
		const asked = (async () => {
			for (let question = pending.shift(); question; question = pending.shift()) {
				const controller = new AbortController();
				this.open = controller;
				const choice = await this.choose(question, controller.signal);
				// A question closed for a newer one leaves that one open.
				if (this.open === controller) this.open = null;
				const next = dispatch(choice);
				mergeAnswer(merged, { ...next, questions: [] });
				pending.push(...next.questions);
			}
		})();
		this.answered = asked;
		await asked;
		return merged;
	}

	/** The event the user's choice names; nobody choosing in time, or a failing dialog, is the question's timeout. */
	private async choose(question: Question, signal: AbortSignal): Promise<SessionEvent> {
		let index: number | undefined;
		try {
			const labels = question.choices.map((choice) => choice.label);
			index = await this.ports.ask?.(question.question, labels, question.timeoutMs, signal);
		} catch (error) {
			this.report("question", error);
		}
		if (signal.aborted) return { type: "declined", message: QUESTION_CLOSED };
		return (index === undefined ? undefined : question.choices[index]?.answer) ?? question.onTimeout;
	}
}
