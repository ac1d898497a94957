// A batch of one session's calls on its team's daily ledger: what a read-ahead ledger (read-ahead.ts) sends before an
// event (a read) and after it (what the event wrote), run in the session's own process (a hook process), or in a
// process of its own where the session cannot open a socket (Claude Code's hooks module, through the plugin's
// `timebox-team.cjs <request>`). The team's ledger runs the batch's calls together, taking over what the session's last
// batch left (`TeamCarry`), then reads the day; the reply is one JSON object: whether each count was taken, the day's
// standings, what the session is to be told, and what to carry on.

import type { DailyAdjustment, DailyBudget, DailyStanding, DailyUseAdded } from "../../core/index.ts";
import type { TeamCarry } from "./team-day.ts";

/** One call of a batch, in the order the session made it. */
export type TeamOp =
	| { op: "count"; limits: (number | null)[] }
	| { op: "use"; use: DailyUseAdded }
	| { op: "reserve" }
	| { op: "adjust"; budget: DailyBudget; adjustment: DailyAdjustment };

/** What the hooks module sends: its session, its daily budgets, its calls since the last batch, what it carries. */
export interface TeamRequest {
	session: string;
	budgets: DailyBudget[];
	ops: TeamOp[];
	carry?: TeamCarry;
	/** False: the day is not read after the calls (a process that ends with them); read unless said. */
	read?: boolean;
}

/** What the batch answers. */
export interface TeamReply {
	/** Whether each count of the batch was taken, in order. */
	counted: boolean[];
	/** The day's standings, read after the batch; none when the request asked for no read. */
	standings: DailyStanding[];
	/** Why the team's ledger cannot be used as it should (the store that cannot be reached), or null. */
	problem: string | null;
	/** What the next batch takes over; null where no team's ledger runs (a team set wrongly). */
	carry: TeamCarry | null;
}

const OPS = new Set(["count", "use", "reserve", "adjust"]);

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request of `timebox.mjs team <request>`, or why it cannot be read. */
export function parseTeamRequest(text: string | undefined): TeamRequest | { error: string } {
	let value: unknown;
	try {
		value = JSON.parse(text ?? "");
	} catch {
		return { error: "the team request is not JSON" };
	}
	if (!isObject(value) || typeof value.session !== "string" || value.session === "")
		return { error: "the team request names no session" };
	if (!Array.isArray(value.budgets) || !value.budgets.every(isObject))
		return { error: "the team request's budgets are not a list of budgets" };
	if (!Array.isArray(value.ops) || !value.ops.every((op) => isObject(op) && OPS.has(String(op.op))))
		return { error: "the team request's calls are not a list of count, use, reserve and adjust" };
	if (value.carry !== undefined && !isObject(value.carry))
		return { error: "the team request's carry is not an object" };
	if (value.read !== undefined && typeof value.read !== "boolean")
		return { error: "the team request's read is not true or false" };
	// The hooks module wrote it, from the rules' own values: its shape is checked above, its values are the module's.
	return value as unknown as TeamRequest;
}

/**
 * A daily ledger a batch runs on: the team's, whose calls wait for the store, or this machine's where the team is set
 * wrongly (its calls answer at once).
 */
export interface BatchLedger {
	standings(budgets: readonly DailyBudget[]): DailyStanding[] | Promise<DailyStanding[]>;
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean | Promise<boolean>;
	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void | Promise<void>;
	reserve?(budgets: readonly DailyBudget[]): void | Promise<void>;
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): void | Promise<void>;
	problem(): string | null;
	/** What the session's next batch takes over; absent where no team's ledger runs. */
	carry?(): TeamCarry;
	/** Whether a call may first send what the machine kept (a read then waits for the calls before it). */
	sendsFirst?(): boolean;
}

/**
 * Runs a batch's calls on the session's daily ledger, all sent at once and in order, and the day's read with them
 * (unless the request says not to): one round trip. Where a call may first send what this machine kept while the store
 * was down, the read waits for the calls, to see what they sent.
 */
export async function runTeamBatch(request: TeamRequest, ledger: BatchLedger): Promise<TeamReply> {
	const counted: Promise<boolean>[] = [];
	const calls: Promise<unknown>[] = [];
	const read = () => (request.read === false ? [] : ledger.standings(request.budgets));
	for (const op of request.ops) {
		switch (op.op) {
			case "count": {
				const taken = Promise.resolve(ledger.countPrompt(request.budgets, op.limits));
				counted.push(taken);
				calls.push(taken);
				break;
			}
			case "use":
				calls.push(Promise.resolve(ledger.addUse(request.budgets, op.use)));
				break;
			case "reserve":
				calls.push(Promise.resolve(ledger.reserve?.(request.budgets)));
				break;
			case "adjust":
				calls.push(Promise.resolve(ledger.adjust(op.budget, op.adjustment)));
				break;
		}
	}
	const together = ledger.sendsFirst?.() ? null : read();
	await Promise.all(calls);
	const standings = await (together ?? read());
	return {
		counted: await Promise.all(counted),
		standings,
		problem: ledger.problem(),
		carry: ledger.carry?.() ?? null,
	};
}
