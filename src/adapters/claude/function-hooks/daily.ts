// The daily ledger every host of the user shares (the same files under the state folder as pi, opencode and the hook
// hosts), run in Claude Code's hooks module. The ledger is synchronous and `$` is not: the module keeps a mirror of
// today's folder, read through `$.fs` before each event, and writes what the ledger wrote after it, in one `sh` through
// `$.process.run`: lines appended, and each prompt file created exclusively (`set -C`), so that two sessions, of any
// host, never both take the last prompt. A prompt file another session took meanwhile is claimed again at the next
// number, and the prompt is refused when that is past the limit.

import {
	type Clock,
	DAILY_TAKEN_REFUSAL,
	type DailyBudget,
	type DailyLedger,
	dailyLedgerUnusable,
	type TeamWrite,
} from "../../../core/index.ts";
import { type DailyFiles, dailyLedgerOver, dayFolder, localDay, stateDirIn } from "../../daily/ledger.ts";
import type { Engine } from "./engine.ts";

/**
 * A daily ledger of the hooks module, synchronous for the rules and mirrored through `$`: `refresh` before an event,
 * `settle` after it (false when a prompt counted in it cannot be counted after all, `takenRefusal` saying why).
 */
export interface ModuleLedger extends DailyLedger {
	refresh(): Promise<void>;
	settle(): Promise<boolean>;
	takenRefusal(): string;
	/** Before the rules answer `/timebox <words>`, where the ledger's store is reached elsewhere (a team's). */
	prepare?(words: string): Promise<void>;
}

/** The one scope of a daily budget in Claude Code: every session of the user (`TIMEBOX_DAILY`). */
const USER_SCOPE = "user";

/** The daily ledger's folder, as every host finds it (`stateDirIn`); null with neither a state folder nor a home. */
export function dailyDir(stateHome: string | undefined, home: string | undefined): string | null {
	return stateHome?.trim() || home ? stateDirIn(stateHome, home ?? "") : null;
}

/** How many times a prompt file taken by another session is claimed again at the next number. */
const CLAIM_TRIES = 5;

/** What the ledger wrote, to be carried out on the real files. */
type Write = { kind: "create" | "append"; path: string; text: string } | { kind: "remove"; path: string };

/**
 * The shell that carries the writes out, each given as three arguments (kind, path, text, the path absolute): a folder
 * is made for each file where it is missing, and the path of each prompt file that existed already is printed.
 */
export const WRITE_SCRIPT = [
	"while [ $# -gt 0 ]; do",
	// The folder by the shell's own cut (its paths are absolute), made only where it is missing: no process for either
	// where it is there, as it is for every write of a day but its first.
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, not a template.
	'  kind=$1 path=$2 text=$3; shift 3; dir=${path%/*}; [ -z "$dir" ] || [ -d "$dir" ] || mkdir -p -- "$dir"',
	"  case $kind in",
	`    create) ( set -C; printf '%s' "$text" > "$path" ) 2>/dev/null || printf '%s\\n' "$path" ;;`,
	// A line torn by a process killed mid-write stays apart from the next: a newline first when the file's last byte is
	// none (counted by `wc -l`, which a NUL or a cut character cannot fool). The rule and its cases: append-line.ts,
	// tests/support/torn-lines.ts.
	`    append) [ -s "$path" ] && [ "$(tail -c 1 -- "$path" | wc -l)" -eq 0 ] && text="\n$text"; printf '%s' "$text" >> "$path" ;;`,
	'    remove) rm -rf -- "$path" ;;',
	"  esac",
	"done",
].join("\n");

const encoder = new TextEncoder();
const NOTHING = new Uint8Array();
const decoder = new TextDecoder();

/** The folder and the name of a path. */
function split(path: string): { folder: string; name: string } {
	const cut = path.lastIndexOf("/");
	return { folder: path.slice(0, cut), name: path.slice(cut + 1) };
}

/**
 * Today's files as last read, with what was written since: a file's text and size are what was read (a line this
 * session appended is read back at the next refresh, as any other session's), a prompt file taken here exists at once.
 */
export class MirroredFiles implements DailyFiles {
	private readonly texts = new Map<string, Uint8Array>();
	private readonly names = new Map<string, Set<string>>();
	private writes: Write[] = [];

	constructor(private readonly engine: () => Engine) {}

	join(...parts: string[]): string {
		return parts.join("/").replace(/\/+/g, "/");
	}

	makeDir(): void {
		// The writes make the folders of their files.
	}

	list(path: string): string[] {
		return [...this.namesOf(path)];
	}

	remove(path: string): void {
		this.writes.push({ kind: "remove", path });
	}

	exists(path: string): boolean {
		const { folder, name } = split(path);
		return this.namesOf(folder).has(name);
	}

	size(path: string): number {
		return this.textOf(path).length;
	}

	read(path: string, offset: number, length: number): string {
		return decoder.decode(this.textOf(path).subarray(offset, offset + length));
	}

	/** What was read of a file (nothing, for one never seen). */
	private textOf(path: string): Uint8Array {
		return this.texts.get(path) ?? NOTHING;
	}

	/** The names last read in a folder, with the prompt files taken here since (none, for a folder never read). */
	private namesOf(folder: string): Set<string> {
		let names = this.names.get(folder);
		if (!names) {
			names = new Set();
			this.names.set(folder, names);
		}
		return names;
	}

	byteLength(text: string): number {
		return encoder.encode(text).length;
	}

	append(path: string, text: string): { before: number; after: number } {
		this.writes.push({ kind: "append", path, text });
		// Written later: the line is read back at the next refresh, never taken as read now.
		return { before: -1, after: -1 };
	}

	createExclusive(path: string, text: string): boolean {
		const { folder, name } = split(path);
		const names = this.namesOf(folder);
		if (names.has(name)) return false;
		names.add(name);
		this.writes.push({ kind: "create", path, text });
		return true;
	}

	/** Reads what changed in `folders` since the last read: their names, and what was appended to their files. */
	async refresh(folders: readonly string[]): Promise<void> {
		const fs = this.engine().fs;
		for (const folder of folders) {
			const entries = await fs.list(folder).catch(() => []);
			this.names.set(folder, new Set(entries.map((entry) => entry.name)));
			for (const entry of entries) {
				if (!entry.name.endsWith(".jsonl")) continue;
				const path = this.join(folder, entry.name);
				const known = this.textOf(path);
				if (entry.size <= known.length) continue;
				const added = encoder.encode(await fs.read(path, { offset: known.length, length: entry.size - known.length }));
				const text = new Uint8Array(known.length + added.length);
				text.set(known);
				text.set(added, known.length);
				this.texts.set(path, text);
			}
		}
	}

	/** Carries out what was written since the last commit: the prompt files that existed already. */
	async commit(): Promise<string[]> {
		const writes = this.writes;
		this.writes = [];
		if (writes.length === 0) return [];
		const args = writes.flatMap((write) => [write.kind, write.path, write.kind === "remove" ? "" : write.text]);
		const { exitCode, stdout, stderr } = await this.engine().process.run(["sh", "-c", WRITE_SCRIPT, "sh", ...args]);
		if (exitCode !== 0) throw new Error(`the daily ledger's files could not be written: ${stderr.trim()}`);
		return stdout.split("\n").filter((line) => line !== "");
	}
}

/**
 * The daily ledger of one session in Claude Code. `refresh` before an event and `settle` after it carry its files in
 * and out; a prompt counted here whose file another session took meanwhile is counted again at the next number.
 */
export class ModuleDailyLedger implements ModuleLedger {
	private readonly files: MirroredFiles;
	private readonly ledger: DailyLedger;
	private lastCount: { budgets: readonly DailyBudget[]; limits: readonly (number | null)[] } | null = null;
	private trouble: string | null = null;
	private told = false;

	constructor(
		engine: () => Engine,
		private readonly dir: string,
		sessionId: string,
		private readonly clock: Clock,
	) {
		this.files = new MirroredFiles(engine);
		this.ledger = dailyLedgerOver(this.files, dir, sessionId, clock, () => USER_SCOPE);
	}

	standings(budgets: readonly DailyBudget[]) {
		return this.ledger.standings(budgets);
	}

	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean {
		this.lastCount = { budgets, limits };
		return this.ledger.countPrompt(budgets, limits);
	}

	addUse(budgets: readonly DailyBudget[], use: { agentMs?: number; tokens?: number; cost?: number }): void {
		this.ledger.addUse(budgets, use);
	}

	adjust(...args: Parameters<DailyLedger["adjust"]>): TeamWrite | undefined {
		return this.ledger.adjust(...args);
	}

	problem(): string | null {
		if (this.trouble === null || this.told) return this.ledger.problem();
		this.told = true;
		return this.trouble;
	}

	/** Reads today's folder (and the folder of its days, to prune) before an event. */
	async refresh(): Promise<void> {
		const today = dayFolder(this.files, this.dir, USER_SCOPE, localDay(this.clock.now()));
		try {
			await this.files.refresh([today, split(today).folder]);
		} catch (error) {
			this.fail(error);
		}
	}

	/**
	 * Writes what the event wrote. False when a prompt counted in it cannot be counted after all: another session took
	 * the last prompt of the day meanwhile.
	 */
	async settle(): Promise<boolean> {
		try {
			let lost = await this.files.commit();
			for (let tries = 0; lost.length > 0 && this.lastCount !== null; tries++) {
				if (tries === CLAIM_TRIES) return false;
				await this.refresh();
				const { budgets, limits } = this.lastCount;
				if (!this.ledger.countPrompt(budgets, limits)) return false;
				lost = await this.files.commit();
			}
		} catch (error) {
			this.fail(error);
		}
		this.lastCount = null;
		return true;
	}

	/** A prompt whose file another session took: the day's last prompt went there. */
	takenRefusal(): string {
		return DAILY_TAKEN_REFUSAL;
	}

	private fail(error: unknown): void {
		this.trouble ??= dailyLedgerUnusable(this.dir, error instanceof Error ? error.message : String(error));
	}
}
