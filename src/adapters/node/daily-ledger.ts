// The daily ledger every Node host shares, on Node's files: one folder per user under $XDG_STATE_HOME/timebox (else
// ~/.local/state/timebox). The ledger itself (the folders, the exclusive prompt files, the lines read on) is
// `src/adapters/daily/ledger.ts`, which Claude Code's hooks module runs over `$` on the same files.

import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Clock, DailyLedger } from "../../core/index.ts";
import { type DailyFiles, dailyLedgerOver, stateDirIn } from "../daily/ledger.ts";
import { appendLine } from "./append-line.ts";

export { dayStartOf, localDay } from "../daily/ledger.ts";

/** The folder of the shared state: `$XDG_STATE_HOME/timebox`, else `~/.local/state/timebox`. */
export function dailyStateDir(env: NodeJS.ProcessEnv): string {
	return join(stateDirIn(env.XDG_STATE_HOME, env.HOME ?? homedir()));
}

/** The folder name of a scope: `user`, or the project's path hashed into a plain name. */
export function scopeFolder(scope: string): string {
	return scope === "user" ? "user" : `project-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`;
}

/** Node's files, as the daily ledger uses them. */
export const nodeDailyFiles: DailyFiles = {
	join,
	makeDir: (path) => {
		mkdirSync(path, { recursive: true });
	},
	list: (path) => readdirSync(path),
	remove: (path) => rmSync(path, { recursive: true, force: true }),
	exists: (path) => statSync(path, { throwIfNoEntry: false }) !== undefined,
	size: (path) => statSync(path, { throwIfNoEntry: false })?.size ?? 0,
	read(path, offset, length) {
		const fd = openSync(path, "r");
		try {
			const buffer = Buffer.alloc(length);
			const read = readSync(fd, buffer, 0, length, offset);
			return buffer.subarray(0, read).toString("utf8");
		} finally {
			closeSync(fd);
		}
	},
	byteLength: (text) => Buffer.byteLength(text, "utf8"),
	// A line torn by a process killed mid-write stays apart from the next (`append-line.ts`).
	append: (path, text) => appendLine(path, text),
	createExclusive(path, text) {
		try {
			writeFileSync(path, text, { flag: "wx" });
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
			throw error;
		}
	},
};

/** The daily ledger in `dir`, for the session `sessionId`, on the host's clock. */
export function createDailyLedger(dir: string, sessionId: string, clock: Clock): DailyLedger {
	return dailyLedgerOver(nodeDailyFiles, dir, sessionId, clock, scopeFolder);
}
