// A batch of one session's calls on its team's daily ledger: what a read-ahead ledger (read-ahead.ts) sends before an
// event (a read) and after it (what the event wrote), run in the session's own process (a hook process), or in a
// process of its own where the session cannot open a socket (Claude Code's hooks module, through the plugin's
// `timebox-team.cjs <request>`). The team's ledger runs the batch's calls together, taking over what the session's last
// batch left (`TeamCarry`), then reads the day; the reply is one JSON object: whether each count was taken, the day's
// standings, what the session is to be told, and what to carry on. A daily command's calls on the team's store beside
// the day (`/timebox team`'s view, `team set`, `team ask`, a raise) are ops too: the writes run one after another, in
// order, and a write that is not done leaves those after it unsent, as the rules would stop there.

import {
	type DailyAdjustment,
	type DailyBudget,
	type DailyLimits,
	type DailyStanding,
	type DailyUseAdded,
	type TeamView,
	type TeamWrite,
	teamWriteNotSent,
} from "../../core/index.ts";
import type { TeamCarry } from "./team-day.ts";

/**
 * One call of a batch, in the order the session made it; a count, use or reservation on the daily budgets in force it
 * names (`budgets`, as the session's last reading had them; the request's own where absent).
 */
export type TeamOp =
	| { op: "count"; limits: (number | null)[]; budgets?: DailyBudget[] }
	| { op: "use"; use: DailyUseAdded; budgets?: DailyBudget[] }
	| { op: "reserve"; budgets?: DailyBudget[] }
	| { op: "adjust"; budget: DailyBudget; adjustment: DailyAdjustment }
	/** `/timebox team`: the admin's limits and the day's open requests. */
	| { op: "view" }
	/** `team set …` (`limits`), `team set off` (null). */
	| { op: "limits"; limits: DailyLimits | null }
	/** `team ask +30m <why>`. */
	| { op: "ask"; adjustment: DailyAdjustment; why: string };

/** The ops that write beside the day's use: run one after another, each answered in `TeamReply.writes`. */
const WRITES: ReadonlySet<TeamOp["op"]> = new Set(["adjust", "limits", "ask"]);

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
	/** Why the team's ledger cannot be used as it should (the store that cannot be reached, a team set wrongly), each
	 * problem the batch met once, in order. */
	problems: string[];
	/** What the next batch takes over; null where no team's ledger runs (a team set wrongly). */
	carry: TeamCarry | null;
	/** What became of each write of the batch (adjust, limits, ask), in order; absent with none. */
	writes?: TeamWrite[];
	/** The team's store beside the day, where the batch asked for it (`view`). */
	view?: TeamView;
	/** Why the day could not be read (`teamDayUnread`); absent where it was read, or not asked for. */
	unread?: string;
}

const OPS = new Set(["count", "use", "reserve", "adjust", "view", "limits", "ask"]);

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request of `timebox-team.cjs <request>`, or why it cannot be read. */
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
		return { error: "the team request's calls are not a list of count, use, reserve, adjust, view, limits and ask" };
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
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): TeamWrite | undefined | Promise<TeamWrite | undefined>;
	/** The team's store beside the day; absent where no team's ledger runs. */
	teamView?(): TeamView | Promise<TeamView>;
	setTeamLimits?(limits: DailyLimits | null): TeamWrite | Promise<TeamWrite>;
	askTeam?(adjustment: DailyAdjustment, why: string): TeamWrite | Promise<TeamWrite>;
	problem(): string | null;
	/** Why the day could not be read at the last reading, or null; absent where no team's ledger runs. */
	dayUnread?(): string | null;
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
	let view: Promise<TeamView> | undefined;
	for (const op of request.ops) {
		switch (op.op) {
			case "count": {
				const taken = Promise.resolve(ledger.countPrompt(op.budgets ?? request.budgets, op.limits));
				counted.push(taken);
				calls.push(taken);
				break;
			}
			case "use":
				calls.push(Promise.resolve(ledger.addUse(op.budgets ?? request.budgets, op.use)));
				break;
			case "reserve":
				calls.push(Promise.resolve(ledger.reserve?.(op.budgets ?? request.budgets)));
				break;
			case "view":
				view = Promise.resolve(ledger.teamView?.() ?? { unreadable: teamWriteNotSent("no team is set") });
				calls.push(view);
				break;
		}
	}
	// A read sent with the calls sees them; one after writes, which go one by one, waits for them.
	const writing = request.ops.some(isWrite);
	const together = ledger.sendsFirst?.() || writing ? null : read();
	await Promise.all(calls);
	const writes = await runWrites(request.ops, ledger);
	const standings = await (together ?? read());
	const unread = request.read === false ? null : (ledger.dayUnread?.() ?? null);
	// Each problem is given once (a ledger that gave one again would give nothing new).
	const problems: string[] = [];
	for (let problem = ledger.problem(); problem !== null && !problems.includes(problem); problem = ledger.problem())
		problems.push(problem);
	return {
		counted: await Promise.all(counted),
		standings,
		problems,
		carry: ledger.carry?.() ?? null,
		...(writes.length === 0 ? {} : { writes }),
		...(view === undefined ? {} : { view: await view }),
		...(unread === null ? {} : { unread }),
	};
}

/** A write of a batch (adjust, limits, ask). */
type WriteOp = Extract<TeamOp, { op: "adjust" | "limits" | "ask" }>;

function isWrite(op: TeamOp): op is WriteOp {
	return WRITES.has(op.op);
}

/** The batch's writes, one after another: what became of each; after one not done, the rest are not sent. */
async function runWrites(ops: readonly TeamOp[], ledger: BatchLedger): Promise<TeamWrite[]> {
	const writes: TeamWrite[] = [];
	for (const op of ops.filter(isWrite)) {
		const before = writes.find((write) => write !== "done");
		if (before !== undefined) {
			writes.push({ failed: teamWriteNotSent("a write before it was not done") });
			continue;
		}
		writes.push((await write(op, ledger)) ?? "done");
	}
	return writes;
}

/** One write of a batch; a ledger with no team's store takes none beside the day. */
function write(op: WriteOp, ledger: BatchLedger): TeamWrite | undefined | Promise<TeamWrite | undefined> {
	const none: TeamWrite = { failed: teamWriteNotSent("no team is set") };
	switch (op.op) {
		case "adjust":
			return ledger.adjust(op.budget, op.adjustment);
		case "limits":
			return ledger.setTeamLimits?.(op.limits) ?? none;
		case "ask":
			return ledger.askTeam?.(op.adjustment, op.why) ?? none;
	}
}
