// What the daily ledger's day folders say for the report page: each session's share of a day (the ledger's totals
// say how much, not whose), and each day's totals for the last days. Read from the same files the daily ledger writes
// (`<state>/daily/<scope>/<day>/use.jsonl` and its `prompt-<n>` files), over the same file port. A line that carries a
// `member` (a team's store) names whose session it was.

import type { DaySessionUse, DayUseRow } from "../../core/index.ts";
import type { DailyFiles } from "../daily/ledger.ts";

function fieldsOf(line: string): Record<string, unknown> {
	try {
		const value: unknown = JSON.parse(line);
		return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
	} catch {
		// A damaged line counts nothing, as in the ledger.
		return {};
	}
}

const amount = (value: unknown): number =>
	typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;

function linesOf(files: DailyFiles, path: string): string[] {
	if (!files.exists(path)) return [];
	return files
		.read(path, 0, files.size(path))
		.split("\n")
		.filter((line) => line.trim().length > 0);
}

/** Each session's use of one day folder, in the order they first used it; `hostOf` names a session's host. */
export function sessionsOfDay(
	files: DailyFiles,
	folder: string,
	hostOf: (session: string) => string | null,
): DaySessionUse[] {
	if (!files.exists(folder)) return [];
	const sessions = new Map<string, DaySessionUse>();
	const of = (fields: Record<string, unknown>): DaySessionUse | null => {
		if (typeof fields.session !== "string") return null;
		let use = sessions.get(fields.session);
		if (!use) {
			use = {
				session: fields.session,
				host: hostOf(fields.session),
				member: null,
				agentMs: 0,
				prompts: 0,
				tokens: 0,
				cost: 0,
			};
			sessions.set(fields.session, use);
		}
		if (typeof fields.member === "string") use.member = fields.member;
		return use;
	};
	for (const line of linesOf(files, files.join(folder, "use.jsonl"))) {
		const fields = fieldsOf(line);
		const use = of(fields);
		if (use === null) continue;
		use.agentMs += amount(fields.agentMs);
		use.tokens += amount(fields.tokens);
		use.cost += amount(fields.cost);
	}
	for (const name of files.list(folder)) {
		if (!name.startsWith("prompt-")) continue;
		const use = of(fieldsOf(linesOf(files, files.join(folder, name))[0] ?? ""));
		if (use !== null) use.prompts += 1;
	}
	return [...sessions.values()];
}

/** The totals of each of `days` (`YYYY-MM-DD`, oldest first) in a scope's folder: a day with no folder used nothing. */
export function useOfDays(files: DailyFiles, scopeDir: string, days: readonly string[]): DayUseRow[] {
	return days.map((day) => {
		const sessions = sessionsOfDay(files, files.join(scopeDir, day), () => null);
		return {
			day,
			agentMs: sessions.reduce((sum, one) => sum + one.agentMs, 0),
			prompts: sessions.reduce((sum, one) => sum + one.prompts, 0),
			tokens: sessions.reduce((sum, one) => sum + one.tokens, 0),
			cost: sessions.reduce((sum, one) => sum + one.cost, 0),
		};
	});
}

/** The last `count` local days up to the day of `now`, oldest first, as `YYYY-MM-DD`. */
export function lastDays(now: number, count: number, localDay: (ms: number) => string): string[] {
	const days: string[] = [];
	const date = new Date(now);
	for (let back = count - 1; back >= 0; back--) {
		const day = new Date(date.getFullYear(), date.getMonth(), date.getDate() - back, 12);
		days.push(localDay(day.getTime()));
	}
	return days;
}
