// The daily ledger every Node host shares: one folder per user under $XDG_STATE_HOME/timebox (else
// ~/.local/state/timebox), a folder per scope and local day. A prompt is a file created exclusively (prompt-<n>), so two
// processes never both take the last one; time, tokens and cost are appended lines, read on from where the last read
// stopped; old days are pruned. Any failure is reported once and counts nothing: a broken ledger never blocks a session.

import { createHash } from "node:crypto";
import {
	appendFileSync,
	closeSync,
	existsSync,
	fstatSync,
	mkdirSync,
	openSync,
	readdirSync,
	readSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
	type Clock,
	type DailyAdjustment,
	type DailyLedger,
	type DailyStanding,
	NO_ADJUSTMENT,
} from "../../core/index.ts";

/** The folder of the shared state: `$XDG_STATE_HOME/timebox`, else `~/.local/state/timebox`. */
export function dailyStateDir(env: NodeJS.ProcessEnv): string {
	const base = env.XDG_STATE_HOME?.trim() ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), ".local", "state");
	return join(base, "timebox");
}

/** The local day of an instant, `YYYY-MM-DD`: a day starts at local midnight. */
export function localDay(ms: number): string {
	const date = new Date(ms);
	const pad = (value: number) => String(value).padStart(2, "0");
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** When the local day of an instant began (local midnight), epoch ms. */
export function dayStartOf(ms: number): number {
	const date = new Date(ms);
	return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** The folder name of a scope: `user`, or the project's path hashed into a plain name. */
function scopeFolder(scope: string): string {
	return scope === "user" ? "user" : `project-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
}

/** What this process knows of one scope's day, read on incrementally. */
interface DayCache {
	folder: string;
	/** The day's use and adjustment files. */
	useFile: string;
	adjustFile: string;
	useOffset: number;
	adjustOffset: number;
	agentMs: number;
	tokens: number;
	cost: number;
	sessions: Set<string>;
	adjustment: DailyAdjustment;
	/** The highest prompt file known to exist. */
	prompts: number;
}

function numberOr(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

const NOTHING_NEW: unknown[] = [];

/** The whole lines appended to `file` since `offset`, and the offset after them: one stat when nothing was added. */
function readOn(file: string, offset: number): { lines: unknown[]; offset: number } {
	const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
	if (size <= offset) return { lines: NOTHING_NEW, offset };
	const fd = openSync(file, "r");
	try {
		const buffer = Buffer.alloc(size - offset);
		const read = readSync(fd, buffer, 0, buffer.length, offset);
		const text = buffer.subarray(0, read).toString("utf8");
		const end = text.lastIndexOf("\n");
		if (end < 0) return { lines: [], offset };
		const lines: unknown[] = [];
		for (const raw of text.slice(0, end).split("\n")) {
			try {
				lines.push(JSON.parse(raw));
			} catch {
				// A damaged line counts nothing.
			}
		}
		return { lines, offset: offset + Buffer.byteLength(text.slice(0, end + 1), "utf8") };
	} finally {
		closeSync(fd);
	}
}

function fieldsOf(value: unknown): Record<string, unknown> {
	return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** Adds one line of use to what this process knows of the day. */
function takeUse(cache: DayCache, line: unknown): void {
	const fields = fieldsOf(line);
	if (typeof fields.session === "string") cache.sessions.add(fields.session);
	cache.agentMs += numberOr(fields.agentMs);
	cache.tokens += numberOr(fields.tokens);
	cache.cost += numberOr(fields.cost);
}

/** The daily ledger in `dir`, for the session `sessionId`, on the host's clock. */
export function createDailyLedger(dir: string, sessionId: string, clock: Clock): DailyLedger {
	const caches = new Map<string, DayCache>();
	const pruned = new Set<string>();
	let trouble: string | null = null;
	let told = false;

	const guard = <T>(fallback: T, action: () => T): T => {
		try {
			return action();
		} catch (error) {
			trouble ??= `Timebox: the daily ledger in ${dir} cannot be used (${String(error)}), so today's budget is not enforced here.`;
			return fallback;
		}
	};

	const cacheOf = (scope: string): DayCache => {
		const day = localDay(clock.now());
		const scopeDir = join(dir, "daily", scopeFolder(scope));
		const key = `${scope}\u0000${day}`;
		let cache = caches.get(key);
		if (!cache) {
			const folder = join(scopeDir, day);
			cache = {
				folder,
				useFile: join(folder, "use.jsonl"),
				adjustFile: join(folder, "adjust.jsonl"),
				useOffset: 0,
				adjustOffset: 0,
				agentMs: 0,
				tokens: 0,
				cost: 0,
				sessions: new Set(),
				adjustment: { ...NO_ADJUSTMENT },
				prompts: 0,
			};
			mkdirSync(cache.folder, { recursive: true });
			caches.set(key, cache);
			if (!pruned.has(key)) {
				pruned.add(key);
				// Old days are of no use: only today counts.
				for (const name of readdirSync(scopeDir))
					if (name < day) rmSync(join(scopeDir, name), { recursive: true, force: true });
			}
		}
		return cache;
	};

	const refresh = (cache: DayCache): void => {
		const use = readOn(cache.useFile, cache.useOffset);
		cache.useOffset = use.offset;
		for (const line of use.lines) takeUse(cache, line);
		const adjust = readOn(cache.adjustFile, cache.adjustOffset);
		cache.adjustOffset = adjust.offset;
		for (const line of adjust.lines) {
			const fields = fieldsOf(line);
			const now = cache.adjustment;
			cache.adjustment = {
				addTimeMs: now.addTimeMs + numberOr(fields.addTimeMs),
				// The ledger's lines name added prompts `addTurns`, as every version writes and reads them.
				addPrompts: now.addPrompts + numberOr(fields.addTurns),
				addTokens: now.addTokens + numberOr(fields.addTokens),
				addCost: now.addCost + numberOr(fields.addCost),
				off: now.off || fields.off === true,
			};
		}
		while (existsSync(join(cache.folder, `prompt-${cache.prompts + 1}`))) cache.prompts++;
	};

	/**
	 * Appends a line of use. When nothing was left unread before it and the file grew by this line alone (no other
	 * session wrote beside it), the line counts as read here: the next standing does not read back what this session
	 * wrote, and a model call after a prompt or an answer costs a stat of each file and no read.
	 */
	const appendUse = (cache: DayCache, line: Record<string, unknown>): void => {
		const text = `${JSON.stringify(line)}\n`;
		const fd = openSync(cache.useFile, "a");
		try {
			const before = fstatSync(fd).size;
			writeSync(fd, text);
			const after = fstatSync(fd).size;
			if (before === cache.useOffset && after === before + Buffer.byteLength(text)) {
				cache.useOffset = after;
				takeUse(cache, line);
			}
		} finally {
			closeSync(fd);
		}
	};

	return {
		standings(budgets) {
			return guard([] as DailyStanding[], () =>
				budgets.map((budget) => {
					const cache = cacheOf(budget.scope);
					refresh(cache);
					return {
						budget,
						use: {
							agentMs: cache.agentMs,
							prompts: cache.prompts,
							tokens: cache.tokens,
							cost: cache.cost,
							sessions: cache.sessions.size,
						},
						adjustment: cache.adjustment,
						dayStart: dayStartOf(clock.now()),
					};
				}),
			);
		},
		countPrompt(budgets, limits) {
			return guard(true, () => {
				// Today's standing was checked just before: a budget refuses here only when another session took its last
				// prompt meanwhile. Prompt files are never removed, so the highest number is always the count.
				for (const [index, budget] of budgets.entries()) {
					const cache = cacheOf(budget.scope);
					const limit = limits[index] ?? null;
					for (;;) {
						const next = cache.prompts + 1;
						if (limit !== null && next > limit) return false;
						const file = join(cache.folder, `prompt-${next}`);
						try {
							writeFileSync(file, `${JSON.stringify({ session: sessionId, at: clock.now() })}\n`, { flag: "wx" });
							cache.prompts = next;
							appendUse(cache, { session: sessionId });
							break;
						} catch (error) {
							if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
							cache.prompts = next;
						}
					}
				}
				return true;
			});
		},
		addUse(budgets, use) {
			guard(undefined, () => {
				for (const budget of budgets) appendUse(cacheOf(budget.scope), { session: sessionId, ...use });
			});
		},
		adjust(budget, adjustment) {
			guard(undefined, () => {
				const { addPrompts, ...rest } = adjustment;
				const line = { session: sessionId, ...rest, addTurns: addPrompts };
				appendFileSync(cacheOf(budget.scope).adjustFile, `${JSON.stringify(line)}\n`, "utf8");
			});
		},
		problem() {
			if (trouble === null || told) return null;
			told = true;
			return trouble;
		},
	};
}
