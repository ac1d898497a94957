// A daily command's writes on the team's store (`/timebox today +…`, `team set`, `team ask`), prepared before the rules
// answer it in a session whose ledger is read ahead (read-ahead.ts): the rules answer the command once on the day just
// read, to learn the writes they make (each taken as done meanwhile); those go to the store in one batch, in order; and
// when the rules answer the command for the session, each write is answered with what the store made of it. A write
// that was not prepared is not done: only a prepared command writes beside the day's use.

import { type TeamWrite, teamWriteNotSent } from "../../core/index.ts";
import type { TeamOp, TeamReply } from "./batch.ts";

export class PreparedWrites {
	/** While a command's writes are learnt, those the rules make; else null. */
	private recording: TeamOp[] | null = null;
	/** What became of a prepared command's writes, answered in order as the rules make them again; else null. */
	private replay: TeamWrite[] | null = null;

	/** Forgets what became of the last command's writes: a new command is being prepared. */
	forget(): void {
		this.replay = null;
	}

	/**
	 * The writes the rules make for a command (`answer` runs them, calling `unanswered` where they cannot answer it
	 * here), in order; none where they could not answer it: they say why when they answer it for the session.
	 */
	learn(answer: (unanswered: () => void) => void): TeamOp[] {
		this.recording = [];
		try {
			let answered = true;
			answer(() => {
				answered = false;
			});
			return answered ? this.recording : [];
		} finally {
			this.recording = null;
		}
	}

	/** What became of the learnt `writes`, as the batch that sent them answered (null: there were none to send). */
	sent(writes: readonly TeamOp[], reply: TeamReply | { error: string } | null): void {
		if (reply === null) {
			this.replay = [];
			return;
		}
		const done = "error" in reply ? undefined : reply.writes;
		const why = "error" in reply ? reply.error : "the batch did not say";
		this.replay = done ?? writes.map(() => ({ failed: teamWriteNotSent(why) }));
	}

	/** A write of a daily command: learnt while it is prepared (taken as done), then answered as the store did it. */
	write(op: TeamOp): TeamWrite {
		if (this.recording !== null) {
			this.recording.push(op);
			return "done";
		}
		return this.replay?.shift() ?? { failed: teamWriteNotSent("it was not prepared") };
	}
}
