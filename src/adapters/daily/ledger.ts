// The daily ledger every host of the user shares, over a small file-system port (Node's files, or Claude Code's `$` in
// its hooks module): a folder per scope and local day. A prompt is a file created exclusively (prompt-<n>), so two
// processes never both take the last one; time, tokens and cost are appended lines, read on from where the last read
// stopped; old days are pruned. Any failure is reported once and counts nothing: a broken ledger never blocks a session.

import {
	type Clock,
	type DailyAdjustment,
	type DailyLedger,
	type DailyStanding,
	dailyLedgerUnusable,
	NO_ADJUSTMENT,
} from "../../core/index.ts";

/** What the ledger does with files, synchronously. A path is made with `join`. */
export interface DailyFiles {
	join(...parts: string[]): string;
	/** Makes a folder and the folders above it. */
	makeDir(path: string): void;
	/** The names in a folder. */
	list(path: string): string[];
	/** Removes a folder and what it holds; nothing when it is missing. */
	remove(path: string): void;
	exists(path: string): boolean;
	/** A file's size in bytes, 0 when it is missing. */
	size(path: string): number;
	/** The text of `length` bytes of a file from `offset`. */
	read(path: string, offset: number, length: number): string;
	/** The size of a text in bytes, as written. */
	byteLength(text: string): number;
	/** Appends to a file (made when missing): its size before and after. */
	append(path: string, text: string): { before: number; after: number };
	/** Creates a file that must not exist: false when it does (another process made it first). */
	createExclusive(path: string, text: string): boolean;
}

/** The folder of the shared state, as every host finds it: `$XDG_STATE_HOME/timebox`, else `<home>/.local/state/timebox`. */
export function stateDirIn(stateHome: string | undefined, home: string): string {
	return stateHome?.trim() ? `${stateHome}/timebox` : `${home}/.local/state/timebox`;
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

/** The folder of a scope's day: `<dir>/daily/<scope's folder>/<day>`. */
export function dayFolder(files: DailyFiles, dir: string, scopeName: string, day: string): string {
	return files.join(dir, "daily", scopeName, day);
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
function readOn(files: DailyFiles, file: string, offset: number): { lines: unknown[]; offset: number } {
	const size = files.size(file);
	if (size <= offset) return { lines: NOTHING_NEW, offset };
	const text = files.read(file, offset, size - offset);
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
	return { lines, offset: offset + files.byteLength(text.slice(0, end + 1)) };
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

/**
 * The daily ledger in `dir` over `files`, for the session `sessionId`, on the host's clock; `scopeName` names a scope's
 * folder (`user`, or a project's path made a plain name).
 */
export function dailyLedgerOver(
	files: DailyFiles,
	dir: string,
	sessionId: string,
	clock: Clock,
	scopeName: (scope: string) => string,
): DailyLedger {
	const caches = new Map<string, DayCache>();
	const pruned = new Set<string>();
	let trouble: string | null = null;
	let told = false;

	const guard = <T>(fallback: T, action: () => T): T => {
		try {
			return action();
		} catch (error) {
			trouble ??= dailyLedgerUnusable(dir, String(error));
			return fallback;
		}
	};

	const cacheOf = (scope: string): DayCache => {
		const day = localDay(clock.now());
		const scopeDir = files.join(dir, "daily", scopeName(scope));
		const key = `${scope}\u0000${day}`;
		let cache = caches.get(key);
		if (!cache) {
			const folder = files.join(scopeDir, day);
			cache = {
				folder,
				useFile: files.join(folder, "use.jsonl"),
				adjustFile: files.join(folder, "adjust.jsonl"),
				useOffset: 0,
				adjustOffset: 0,
				agentMs: 0,
				tokens: 0,
				cost: 0,
				sessions: new Set(),
				adjustment: { ...NO_ADJUSTMENT },
				prompts: 0,
			};
			files.makeDir(cache.folder);
			caches.set(key, cache);
			if (!pruned.has(key)) {
				pruned.add(key);
				// Old days are of no use: only today counts. Yesterday is kept, so that a clock set back across midnight
				// (by hand, or by the time zone's change) finds the day it left, and a spent daily budget stays spent.
				const yesterday = localDay(dayStartOf(clock.now()) - 1);
				for (const name of files.list(scopeDir)) if (name < yesterday) files.remove(files.join(scopeDir, name));
			}
		}
		return cache;
	};

	const refresh = (cache: DayCache): void => {
		const use = readOn(files, cache.useFile, cache.useOffset);
		cache.useOffset = use.offset;
		for (const line of use.lines) takeUse(cache, line);
		const adjust = readOn(files, cache.adjustFile, cache.adjustOffset);
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
		while (files.exists(files.join(cache.folder, `prompt-${cache.prompts + 1}`))) cache.prompts++;
	};

	/**
	 * Appends a line of use. When nothing was left unread before it and the file grew by this line alone (no other
	 * session wrote beside it), the line counts as read here: the next standing does not read back what this session
	 * wrote, and a model call after a prompt or an answer costs a stat of each file and no read.
	 */
	const appendUse = (cache: DayCache, line: Record<string, unknown>): void => {
		const text = `${JSON.stringify(line)}\n`;
		const { before, after } = files.append(cache.useFile, text);
		if (before === cache.useOffset && after === before + files.byteLength(text)) {
			cache.useOffset = after;
			takeUse(cache, line);
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
						const file = files.join(cache.folder, `prompt-${next}`);
						const created = files.createExclusive(file, `${JSON.stringify({ session: sessionId, at: clock.now() })}\n`);
						cache.prompts = next;
						if (created) {
							appendUse(cache, { session: sessionId });
							break;
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
				files.append(cacheOf(budget.scope).adjustFile, `${JSON.stringify(line)}\n`);
			});
			return undefined;
		},
		problem() {
			if (trouble === null || told) return null;
			told = true;
			return trouble;
		},
	};
}
