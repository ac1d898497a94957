// BudgetStore on Claude Code: one append-only JSONL file per session under the plugin's data folder, written by hooks
// that may run in parallel. It holds the budget records and the prompts the hooks counted.

import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BudgetStore, HistoryItem, TimeboxRecord } from "../../core/index.ts";

type Line = Record<string, unknown>;

function isLine(value: unknown): value is Line {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A session's log: budget records (`active`, `off`) and the prompts counted (`prompt`), one JSON object a line. */
export class ClaudeSessionStore implements BudgetStore {
	private readonly folder: string;
	private readonly file: string;

	constructor(dataDir: string, sessionId: string) {
		this.folder = join(dataDir, "sessions");
		this.file = join(this.folder, `${sessionId}.jsonl`);
	}

	append(record: TimeboxRecord): void {
		this.appendLine({ ...record });
	}

	/** Records that a prompt was sent. */
	appendPrompt(promptId: string, at: number): void {
		this.appendLine({ kind: "prompt", promptId, at });
	}

	/** The log as history: budget records and prompts, oldest first. */
	history(): HistoryItem[] {
		const items: HistoryItem[] = [];
		for (const line of this.lines()) {
			if (line.kind === "prompt" && typeof line.promptId === "string")
				items.push({ kind: "prompt", key: line.promptId });
			else if (line.kind === "active" || line.kind === "off") items.push({ kind: "record", record: line });
		}
		return items;
	}

	/** Every readable line of the log, oldest first; a torn or hand-edited line is skipped. */
	lines(): Line[] {
		let text: string;
		try {
			text = readFileSync(this.file, "utf8");
		} catch {
			return [];
		}
		const lines: Line[] = [];
		for (const raw of text.split("\n")) {
			if (raw.trim().length === 0) continue;
			try {
				const value: unknown = JSON.parse(raw);
				if (isLine(value)) lines.push(value);
			} catch {
				// A torn or hand-edited line: skipped.
			}
		}
		return lines;
	}

	/** Appends one line; a single small append is written whole even when hooks run in parallel. */
	private appendLine(line: Line): void {
		mkdirSync(this.folder, { recursive: true });
		appendFileSync(this.file, `${JSON.stringify(line)}\n`, { encoding: "utf8", flag: "a" });
	}
}
