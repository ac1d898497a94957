// A batch of one session's calls on its team's daily ledger, run in a process of its own: how Claude Code's hooks
// module, which cannot open a socket, reaches the team's store (`timebox.mjs team <request>`). The real team ledger runs
// the batch, taking over what the session's last batch left (`TeamCarry`), then a daily command if the batch carries
// one (`/timebox today …`, `/timebox team …`, answered by the core as in any session), then reads the day; the reply is
// one JSON object: whether each count was taken, the day's standings, what the command said, what the session is to be
// told, and what to carry on.

import {
	type DailyAdjustment,
	type DailyBudget,
	type DailyCommand,
	type DailyLedger,
	type DailyStanding,
	type DailyUseAdded,
	dailyCommandAnswer,
	dailyCommandPorts,
	type HostTerms,
	internalErrorMessage,
	type Notice,
	parseCommand,
} from "../../core/index.ts";
import { type TeamCarry, TeamLedger } from "./ledger.ts";

/**
 * One call of a batch, in the order the session made it, on the daily budgets in force it names (`budgets`, as the
 * session's last reading had them; the request's own where absent).
 */
export type TeamOp =
	| { op: "count"; limits: (number | null)[]; budgets?: DailyBudget[] }
	| { op: "use"; use: DailyUseAdded; budgets?: DailyBudget[] }
	| { op: "reserve"; budgets?: DailyBudget[] }
	| { op: "adjust"; budget: DailyBudget; adjustment: DailyAdjustment };

/**
 * What the hooks module sends: its session, its own daily budgets, its calls since the last batch, what it carries,
 * and a daily command to answer (`today …`, `team …`: the words after `/timebox`).
 */
export interface TeamRequest {
	session: string;
	budgets: DailyBudget[];
	ops: TeamOp[];
	carry?: TeamCarry;
	command?: string;
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
	/** What the request's daily command said, in the host's terms; absent without one. */
	said?: Notice[];
}

const OPS = new Set(["count", "use", "reserve", "adjust"]);

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A command's words as a daily command (`today …`, `team …`), or null. */
function dailyCommandOf(value: unknown): DailyCommand | null {
	if (typeof value !== "string") return null;
	const parsed = parseCommand(value);
	return parsed.kind === "today" || parsed.kind === "team" ? parsed : null;
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
	if (value.command !== undefined && dailyCommandOf(value.command) === null)
		return { error: "the team request's command is not a /timebox today or /timebox team" };
	// The hooks module wrote it, from the rules' own values: its shape is checked above, its values are the module's.
	return value as unknown as TeamRequest;
}

/** The daily command's answer, through the session's daily ledger, in the host's terms; nothing for another command. */
function answerCommand(
	command: string,
	ledger: DailyLedger,
	budgets: readonly DailyBudget[],
	terms: HostTerms | undefined,
): Notice[] {
	const daily = dailyCommandOf(command);
	if (daily === null) return [];
	const problems: Notice[] = [];
	const problem = (where: string, error: unknown) =>
		problems.push({ message: internalErrorMessage(where, error), level: "error" });
	const answer = dailyCommandAnswer(daily, dailyCommandPorts({ ledger, budgets }, problem), terms);
	return [...answer.notices, ...problems];
}

/**
 * Runs a batch on the session's daily ledger (`open` it, with what the last batch carried), then its daily command (in
 * the host's `terms`), then reads the day.
 */
export function runTeamBatch(
	request: TeamRequest,
	open: (carried: TeamCarry | undefined) => DailyLedger,
	terms?: HostTerms,
): TeamReply {
	const ledger = open(request.carry);
	const counted: boolean[] = [];
	for (const op of request.ops) {
		switch (op.op) {
			case "count":
				counted.push(ledger.countPrompt(op.budgets ?? request.budgets, op.limits));
				break;
			case "use":
				ledger.addUse(op.budgets ?? request.budgets, op.use);
				break;
			case "reserve":
				ledger.reserve?.(op.budgets ?? request.budgets);
				break;
			case "adjust":
				ledger.adjust(op.budget, op.adjustment);
				break;
		}
	}
	const said =
		request.command === undefined ? undefined : answerCommand(request.command, ledger, request.budgets, terms);
	const standings = ledger.standings(request.budgets);
	return {
		counted,
		standings,
		problem: ledger.problem(),
		carry: ledger instanceof TeamLedger ? ledger.carry() : null,
		...(said === undefined ? {} : { said }),
	};
}
