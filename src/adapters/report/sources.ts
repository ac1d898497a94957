// Where every host on this machine keeps its sessions, for `npm run report`: pi's session files (under
// PI_CODING_AGENT_DIR when set, as pi does, else ~/.pi/agent), the session logs of the hook hosts (Claude Code's plugin
// data folders, Gemini CLI's and Codex CLI's) and of opencode, and the sessions Claude Code's hooks module keeps in its
// plugin store. Each is read into the history items every host hands the core, with its ledger of outcomes.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SessionEntry } from "@mariozechner/pi-coding-agent";
import {
	budgetIdOf,
	DEFAULT_TERMS,
	type HistoryItem,
	type HostTerms,
	LEDGER_FOLDER,
	type LedgerLookup,
	readLedger,
} from "../../core/index.ts";
import { claimedView, SESSION_KEY_PREFIX, savedSession } from "../claude/function-hooks/store.ts";
import { claudeCodeHost } from "../claude/hook-host.ts";
import { claudeCodeTerms } from "../claude/terms.ts";
import { codexCliHost } from "../codex/hook-host.ts";
import { geminiCliHost } from "../gemini/hook-host.ts";
import { ledgerView } from "../hooks/load.ts";
import { createFileLedger } from "../node/file-ledger.ts";
import { SessionLog } from "../node/session-log.ts";
import { opencodeDataDir } from "../opencode/data-dir.ts";
import { OPENCODE_TERMS } from "../opencode/terms.ts";
import { historyOf } from "../pi/store.ts";

/** One session found on the machine: its id and host, when it was last written, and how to read it. */
export interface FoundSession {
	id: string;
	host: string;
	modified: number;
	history(): readonly HistoryItem[];
	ledger: LedgerLookup;
	/** What the host measures: a figure it cannot is left out of the report. */
	terms: HostTerms;
}

function entriesOf(folder: string): string[] {
	try {
		return readdirSync(folder);
	} catch {
		return [];
	}
}

function modifiedOf(path: string): number {
	return statSync(path).mtimeMs;
}

/** The sessions of a hook host's (or opencode's) data folder: `<data>/sessions/<id>.jsonl`. */
export function logSessions(dataDir: string, host: string, terms: HostTerms): FoundSession[] {
	const folder = join(dataDir, "sessions");
	return entriesOf(folder)
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => {
			const id = name.slice(0, -".jsonl".length);
			const files = { store: new SessionLog(dataDir, id), ledger: createFileLedger(join(dataDir, LEDGER_FOLDER)) };
			return {
				id,
				host,
				modified: modifiedOf(join(folder, name)),
				history: () => files.store.history(),
				ledger: (budget) => ledgerView(budget, files),
				terms,
			};
		});
}

function jsonLines(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.flatMap((line) => {
			try {
				const value: unknown = JSON.parse(line);
				return typeof value === "object" && value !== null ? [value as Record<string, unknown>] : [];
			} catch {
				return [];
			}
		});
}

/** The entries of a pi session file on the branch of its last entry, root first. */
export function piBranch(lines: readonly Record<string, unknown>[]): SessionEntry[] {
	const entries = lines.filter((line) => line.type !== "session" && typeof line.id === "string");
	const byId = new Map(entries.map((entry) => [entry.id, entry]));
	const path: Record<string, unknown>[] = [];
	for (let entry = entries[entries.length - 1]; entry !== undefined; entry = byId.get(entry.parentId)) {
		path.push(entry);
		if (path.length > entries.length) break;
	}
	// The session file is pi's: its entries are read as pi wrote them.
	return path.reverse() as unknown as SessionEntry[];
}

/** pi's sessions: `<agent dir>/sessions/<folder>/<time>_<id>.jsonl`, with the ledger in the agent dir. */
export function piSessions(agentDir: string): FoundSession[] {
	const root = join(agentDir, "sessions");
	const ledger = createFileLedger(join(agentDir, LEDGER_FOLDER));
	return entriesOf(root).flatMap((folder) =>
		entriesOf(join(root, folder))
			.filter((name) => name.endsWith(".jsonl"))
			.map((name) => {
				const path = join(root, folder, name);
				const header = jsonLines(path)[0];
				const id =
					header?.type === "session" && typeof header.id === "string"
						? header.id
						: name.replace(/^.*_/, "").slice(0, -".jsonl".length);
				return {
					id,
					host: "pi",
					modified: modifiedOf(path),
					history: () => historyOf(piBranch(jsonLines(path))),
					ledger: (budget) => readLedger(ledger, budget),
					terms: DEFAULT_TERMS,
				};
			}),
	);
}

/** The sessions Claude Code's hooks module keeps in its plugin store: JSON objects with `session:<id>` entries. */
export function moduleSessions(storeDir: string): FoundSession[] {
	return entriesOf(storeDir).flatMap((name) => {
		if (!name.startsWith("timebox")) return [];
		const path = join(storeDir, name);
		let store: unknown;
		try {
			store = JSON.parse(readFileSync(path, "utf8"));
		} catch {
			return [];
		}
		if (typeof store !== "object" || store === null) return [];
		return Object.entries(store).flatMap(([key, value]) => {
			if (!key.startsWith(SESSION_KEY_PREFIX)) return [];
			const saved = savedSession(value);
			return [
				{
					id: key.slice(SESSION_KEY_PREFIX.length),
					host: "claude",
					modified: modifiedOf(path),
					history: () => saved.history,
					ledger: (budget) => claimedView(saved.claims, budgetIdOf(budget)),
					terms: claudeCodeTerms("function hooks"),
				},
			];
		});
	});
}

/** Every session of every host on the machine, newest first. */
export function allSessions(env: NodeJS.ProcessEnv, home: string): FoundSession[] {
	const piDir = env.PI_CODING_AGENT_DIR?.trim() ? env.PI_CODING_AGENT_DIR : join(home, ".pi", "agent");
	const claudeData = join(home, ".claude", "plugins", "data");
	const claudeDirs = env.CLAUDE_PLUGIN_DATA
		? [env.CLAUDE_PLUGIN_DATA]
		: entriesOf(claudeData).map((name) => join(claudeData, name));
	return [
		...piSessions(piDir),
		...claudeDirs.flatMap((dir) => logSessions(dir, "claude", claudeCodeHost.terms)),
		...moduleSessions(join(home, ".claude", "plugins", "store")),
		...logSessions(join(home, ".gemini", "timebox"), "gemini", geminiCliHost.terms),
		...logSessions(join(env.CODEX_HOME ?? join(home, ".codex"), "timebox"), "codex", codexCliHost.terms),
		...logSessions(opencodeDataDir(env), "opencode", OPENCODE_TERMS),
	].sort((a, b) => b.modified - a.modified);
}
