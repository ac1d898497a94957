// A batch of one session's calls on its team's daily ledger, run in a process of its own: how Claude Code's hooks
// module, which cannot open a socket, reaches the team's store (`timebox.mjs team <request>`). The real team ledger runs
// the batch, taking over what the session's last batch left (`TeamCarry`), then reads the day; the reply is one JSON
// object: whether each count was taken, the day's standings, what the session is to be told, and what to carry on.

import type { DailyAdjustment, DailyBudget, DailyLedger, DailyStanding, DailyUseAdded } from "../../core/index.ts";
import { type TeamCarry, TeamLedger } from "./ledger.ts";

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
}

/** What the batch answers. */
export interface TeamReply {
	/** Whether each count of the batch was taken, in order. */
	counted: boolean[];
	/** The day's standings, read after the batch. */
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
	// The hooks module wrote it, from the rules' own values: its shape is checked above, its values are the module's.
	return value as unknown as TeamRequest;
}

/** Runs a batch on the session's daily ledger (`open` it, with what the last batch carried), then reads the day. */
export function runTeamBatch(request: TeamRequest, open: (carried: TeamCarry | undefined) => DailyLedger): TeamReply {
	const ledger = open(request.carry);
	const counted: boolean[] = [];
	for (const op of request.ops) {
		switch (op.op) {
			case "count":
				counted.push(ledger.countPrompt(request.budgets, op.limits));
				break;
			case "use":
				ledger.addUse(request.budgets, op.use);
				break;
			case "reserve":
				ledger.reserve?.(request.budgets);
				break;
			case "adjust":
				ledger.adjust(op.budget, op.adjustment);
				break;
		}
	}
	const standings = ledger.standings(request.budgets);
	return {
		counted,
		standings,
		problem: ledger.problem(),
		carry: ledger instanceof TeamLedger ? ledger.carry() : null,
	};
}
