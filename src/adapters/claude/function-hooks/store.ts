// A Claude Code session's budget records, prompts, usage and ledger claims in the plugin's own store (`$.store`), under
// the session's id, which `--continue` and `--resume` keep. The rules read and write synchronously: the session is read
// once when it opens (with the start marks of its on-stop commands), kept in memory, and every change is written back
// in order, one write in flight at a time. What a model call used is written within a second (or with the next
// change): writing the whole entry at every request would cost each request more than Timebox may. The store keeps
// what it is given; the rules give it no prompt or usage that nothing reads back (run/kept-history.ts).

import {
	type BudgetLedger,
	type Cancel,
	type Clock,
	type HistoryItem,
	isBudgetId,
	type LedgerClaim,
	type LedgerView,
	type OnStopClaim,
	type OnStopIntent,
	type RecordedUsage,
	type Scheduler,
	SpecSessionStore,
	type TimeboxRecord,
} from "../../../core/index.ts";
import type { Engine } from "./engine.ts";
import { markKey, moduleStartMark, type OnStopMarks, startedMarks } from "./on-stop.ts";
import { damagedPath, type Repair, repairStore } from "./store-repair.ts";

/** The store key of a session's entry. */
export const SESSION_KEY_PREFIX = "session:";
/** The store key of the index of saved sessions (id → when it was first saved by a process), to prune old ones. */
export const SESSIONS_INDEX_KEY = "sessions";
/** How long what a model call used may wait to be written. */
export const USAGE_WRITE_DELAY_MS = 1_000;
/** A session untouched this long is removed from the store when another opens: the store holds 4 MiB in all. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** What the store takes besides `$`: the clock, the timers, and where a write that failed is told. */
export interface StoreDeps {
	clock: Clock;
	scheduler: Scheduler;
	/** A write failed: `ledger` when it held a claim of an outcome, else `store`. */
	problem: (error: unknown, where: "ledger" | "store") => void;
	/** The folder the session runs in, kept with its entry (the project a suggested budget is made for). */
	cwd?: string | null;
	/** Where the start marks of on-stop commands are; without it (no state folder) no command is started late. */
	marks?: OnStopMarks;
}

/** A claim as kept: with the Claude Code process that made it and when. */
export type SavedClaim = LedgerClaim & { instance?: string; claimedAt?: number };

/** One session's entry in the store, with the working folder it runs in where Claude Code said. */
export interface SavedSession {
	history: HistoryItem[];
	claims: SavedClaim[];
	cwd?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An entry as read back; anything that is not one is an empty session (the rules never read a damaged item). */
export function savedSession(value: unknown): SavedSession {
	if (!isRecord(value)) return { history: [], claims: [] };
	const history = Array.isArray(value.history) ? value.history.filter(isRecord) : [];
	const claims = Array.isArray(value.claims) ? value.claims.filter(isRecord) : [];
	const saved = { history: history as unknown as HistoryItem[], claims: claims as unknown as SavedClaim[] };
	return typeof value.cwd === "string" ? { ...saved, cwd: value.cwd } : saved;
}

/** What a session's process knows of its on-stop commands: its own id, and the start marks found when it opened. */
export interface MarksSeen {
	instance: string;
	started: ReadonlySet<string>;
}

/** What the claims of a session say of a budget; with the marks seen, the on-stop command a claim recorded. */
export function claimedView(claims: readonly SavedClaim[], budgetId: string, marks?: MarksSeen): LedgerView {
	let view: LedgerView = { spent: null, off: false, nudged: false };
	for (const claim of claims) {
		if (claim.budgetId !== budgetId) continue;
		if (claim.kind === "spent") view = { ...view, spent: { ...claim.summary, prompt: claim.prompt } };
		else if (claim.kind === "off") view = { ...view, off: true };
		else if (claim.kind === "nudged") view = { ...view, nudged: true };
	}
	const intent = marks && isBudgetId(budgetId) ? onStopIntent(claims, budgetId, marks) : null;
	return intent ? { ...view, onStop: intent } : view;
}

/**
 * The on-stop command a claim of the budget recorded, as the session's process finds it; null for none. A stop that
 * let its run wrap up, whose end no process claimed yet, holds the command of that end (`onStopAtEnd`).
 */
function onStopIntent(claims: readonly SavedClaim[], budgetId: string, marks: MarksSeen): OnStopIntent | null {
	const own = claims.filter((claim) => claim.budgetId === budgetId);
	const held = own.find(
		(claim): claim is Extract<SavedClaim, { kind: "spent" | "ended" }> =>
			(claim.kind === "spent" || claim.kind === "ended") && typeof claim.onStopCommand === "string",
	);
	const stop = own.find((claim): claim is Extract<SavedClaim, { kind: "spent" }> => claim.kind === "spent");
	const endsBy = stop?.summary.wrapUpUntil;
	const waiting =
		held === undefined && !own.some((claim) => claim.kind === "ended") && endsBy !== undefined ? stop : undefined;
	const command = held?.onStopCommand ?? waiting?.onStopAtEnd;
	const from = held ?? waiting;
	if (command === undefined || from === undefined) return null;
	const claim: OnStopClaim = { budgetId, kind: held?.kind ?? "ended" };
	return {
		claim,
		command,
		claimedAt: typeof from.claimedAt === "number" ? from.claimedAt : 0,
		started: marks.started.has(markKey(claim)),
		// One Claude Code process holds a session: a claim made under another id was made by a process that ended.
		claimantAlive: from.instance === marks.instance,
		recovered: own.some((other) => other.kind === "onStopRecovered"),
		...(waiting === undefined || endsBy === undefined ? {} : { endsBy }),
	};
}

/** The session store and the ledger of one Claude Code session, over `$.store`. */
export class ModuleStore extends SpecSessionStore implements BudgetLedger {
	private writing: Promise<void> = Promise.resolve();
	/** A write is queued behind the one in flight: it takes the entry as it stands when it starts. */
	private queued = false;
	private indexed = false;
	/** Cancels the delayed write of usage, while one waits. */
	private delayed: Cancel | null = null;
	/** A claim was made since the last write began. */
	private claimsUnwritten = false;

	/** Where the start mark of an on-stop command goes, where the store knows the marks' folder. */
	readonly startMark?: (claim: OnStopClaim) => string;

	private constructor(
		private readonly engine: () => Engine,
		readonly sessionId: string,
		private readonly saved: SavedSession,
		private readonly deps: StoreDeps,
		private readonly marks?: MarksSeen,
	) {
		super();
		const dir = deps.marks?.dir;
		if (dir !== undefined) this.startMark = (claim) => moduleStartMark(dir, claim);
	}

	/** Reads the session's entry, and removes the sessions untouched for `RETENTION_MS`. */
	static async open(engine: () => Engine, sessionId: string, deps: StoreDeps): Promise<ModuleStore> {
		const now = () => deps.clock.now();
		const store = engine().store;
		const read = () => Promise.all([store.get(`${SESSION_KEY_PREFIX}${sessionId}`), store.get(SESSIONS_INDEX_KEY)]);
		let repaired: Repair | null = null;
		const [entry, index] = await read().catch(async (error: unknown) => {
			// A damaged file: what still parses is kept, and the file is moved aside; anything else is thrown on.
			const path = damagedPath(error);
			if (path === null) throw error;
			repaired = await repairStore(engine(), path);
			return read();
		});
		const saved = savedSession(entry);
		if (deps.cwd) saved.cwd = deps.cwd;
		if (isRecord(index)) {
			const old = Object.keys(index).filter((id) => id !== sessionId && !(Number(index[id]) > now() - RETENTION_MS));
			if (old.length > 0) {
				for (const id of old) {
					delete index[id];
					await store.delete(`${SESSION_KEY_PREFIX}${id}`);
				}
				await store.set(SESSIONS_INDEX_KEY, index);
			}
		}
		const marks = deps.marks && {
			instance: deps.marks.instance,
			started: await startedMarks(engine(), deps.marks.dir, saved.claims),
		};
		const opened = new ModuleStore(engine, sessionId, saved, deps, marks);
		opened.repaired = repaired;
		return opened;
	}

	/** The repair of a damaged store file this session's opening made, to be told once; else null. */
	repaired: Repair | null = null;

	append(record: TimeboxRecord): void {
		this.saved.history.push({ kind: "record", record });
		this.save();
	}

	history(): HistoryItem[] {
		return this.saved.history;
	}

	/** A prompt that ran, by its key. */
	appendPrompt(key: string): void {
		this.saved.history.push({ kind: "prompt", key, at: this.deps.clock.now() });
		this.save();
	}

	/** Forgets the newest prompt of a key that never ran after all (the rules say which). */
	dropPrompt(key: string): void {
		const history = this.saved.history;
		const at = history.findLastIndex((item) => item.kind === "prompt" && item.key === key);
		if (at < 0) return;
		history.splice(at, 1);
		this.save();
	}

	/** What a response used, as the rules keep it (`recordUsage`); its id is not kept, as the rules only sum usage. */
	recordUsage(usage: RecordedUsage): void {
		this.appendUsage(usage.used.tokens, usage.used.cost ?? 0);
	}

	/** What a model call used: added to the usage just before it, if any (the rules only sum it). */
	appendUsage(tokens: number, cost: number): void {
		const history = this.saved.history;
		const last = history[history.length - 1];
		const at = this.deps.clock.now();
		if (last?.kind === "usage")
			history[history.length - 1] = { ...last, tokens: last.tokens + tokens, cost: last.cost + cost, at };
		else history.push({ kind: "usage", tokens, cost, at });
		this.delayed ??= this.deps.scheduler.setTimeout(() => {
			this.delayed = null;
			this.save();
		}, USAGE_WRITE_DELAY_MS);
	}

	claim(claim: LedgerClaim): boolean {
		if (this.saved.claims.some((held) => held.budgetId === claim.budgetId && held.kind === claim.kind)) return false;
		const by = this.deps.marks ? { instance: this.deps.marks.instance } : {};
		this.saved.claims.push({ ...claim, ...by, claimedAt: this.deps.clock.now() });
		this.claimsUnwritten = true;
		this.save();
		return true;
	}

	read(budgetId: string): LedgerView {
		return claimedView(this.saved.claims, budgetId, this.marks);
	}

	/** Resolves once every change so far is written. */
	flush(): Promise<void> {
		if (this.delayed) this.save();
		return this.writing;
	}

	/** Writes the entry after the write in flight; changes made meanwhile go in that one write. */
	private save(): void {
		this.delayed?.();
		this.delayed = null;
		if (this.queued) return;
		this.queued = true;
		this.writing = this.writing.then(async () => {
			this.queued = false;
			const withClaims = this.claimsUnwritten;
			this.claimsUnwritten = false;
			try {
				const store = this.engine().store;
				await store.set(`${SESSION_KEY_PREFIX}${this.sessionId}`, this.saved);
				if (!this.indexed) {
					this.indexed = true;
					const index = await store.get(SESSIONS_INDEX_KEY);
					await store.set(SESSIONS_INDEX_KEY, {
						...(isRecord(index) ? index : {}),
						[this.sessionId]: this.deps.clock.now(),
					});
				}
			} catch (error) {
				this.deps.problem(error, withClaims ? "ledger" : "store");
			}
		});
	}
}
