// BudgetStore on Claude Code: one append-only JSONL file per session under the plugin's data folder, written by hooks
// that may run in parallel; "first one wins" claims are files created exclusively.

import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TimeboxBudget } from "../../core/budget.ts";
import type { BudgetStore } from "../../core/ports.ts";

/** A session's log: core records (`active`, `off`) beside the adapter's own (`prompt`, `spent`, `nudged`). */
export class ClaudeSessionStore implements BudgetStore {
	private readonly folder: string;
	private readonly file: string;

	constructor(
		dataDir: string,
		private readonly sessionId: string,
	) {
		this.folder = join(dataDir, "sessions");
		this.file = join(this.folder, `${sessionId}.jsonl`);
	}

	appendActive(budget: TimeboxBudget): void {
		this.append({ kind: "active", budget });
	}

	appendOff(disabledAt: number): void {
		this.append({ kind: "off", disabledAt });
	}

	/** The core's records (`active` and `off` lines), oldest first, for `restore`-style reading. */
	loadRecords(): unknown[] {
		return this.lines().filter((line) => {
			const kind = (line as { kind?: unknown } | null)?.kind;
			return kind === "active" || kind === "off";
		});
	}

	/** Appends one line; a single small append is written whole even when hooks run in parallel. */
	append(line: Record<string, unknown>): void {
		mkdirSync(this.folder, { recursive: true });
		appendFileSync(this.file, `${JSON.stringify(line)}\n`, { encoding: "utf8", flag: "a" });
	}

	/** Every readable line of the log, oldest first; a damaged line is skipped. */
	lines(): unknown[] {
		let text: string;
		try {
			text = readFileSync(this.file, "utf8");
		} catch {
			return [];
		}
		const lines: unknown[] = [];
		for (const raw of text.split("\n")) {
			if (raw.trim().length === 0) continue;
			try {
				lines.push(JSON.parse(raw));
			} catch {
				// A torn or hand-edited line: skipped.
			}
		}
		return lines;
	}

	/** Claims `key` for this session: true for exactly one caller, however many hooks race for it. */
	claim(key: string): boolean {
		mkdirSync(this.folder, { recursive: true });
		try {
			closeSync(openSync(join(this.folder, `${this.sessionId}.${key}.claim`), "wx"));
			return true;
		} catch {
			return false;
		}
	}
}
