// Where every host on this machine keeps its sessions, for `npm run report` and a suggested budget: pi's session files
// (under PI_CODING_AGENT_DIR when set, as pi does, else ~/.pi/agent) and oh-my-pi's (~/.omp/agent), the session logs of
// the hook hosts (Claude Code's plugin data folders, Gemini CLI's, and Codex CLI's: its plugin data folders, where a
// plugin's hooks are told CLAUDE_PLUGIN_DATA, else $CODEX_HOME/timebox) and of opencode, and the sessions Claude
// Code's hooks module keeps in its plugin store. Each is read into the history items every host hands the core,
// with its ledger of outcomes, the working folder it ran in, and what it used.

import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { SessionEntry } from "@mariozechner/pi-coding-agent";
import { claimedView, SESSION_KEY_PREFIX, savedSession } from "../../adapters/claude/function-hooks/store.ts";
import { claudeCodeHost } from "../../adapters/claude/hook-host.ts";
import { claudeCodeTerms } from "../../adapters/claude/terms.ts";
import { codexCliHost } from "../../adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../adapters/gemini/hook-host.ts";
import { ledgerView } from "../../adapters/hooks/load.ts";
import { createFileLedger } from "../../adapters/node/file-ledger.ts";
import { SessionLog } from "../../adapters/node/session-log.ts";
import { opencodeDataDir } from "../../adapters/opencode/data-dir.ts";
import { OPENCODE_TERMS } from "../../adapters/opencode/terms.ts";
import { historyOf } from "../../adapters/pi/store.ts";
import { type FoundSession, homeOf, sameFolder } from "../../adapters/report/found-session.ts";
import { fileCache } from "../../adapters/report/past-sessions-cache.ts";
import { readProjectHistory } from "../../adapters/report/project-history.ts";
import {
	budgetIdOf,
	DEFAULT_TERMS,
	type HostTerms,
	LEDGER_FOLDER,
	type PastSession,
	type ProjectHistory,
	pastSession,
	readLedger,
} from "../../core/index.ts";

/** The latest time among lines that carry one (`at`), for the end of a session's last run. */
function latestAt(lines: readonly object[]): number | undefined {
	let latest: number | undefined;
	for (const line of lines) {
		const at = "at" in line ? line.at : undefined;
		if (typeof at === "number" && Number.isFinite(at) && (latest === undefined || at > latest)) latest = at;
	}
	return latest;
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
			// Read once for the project and what the session used: a suggestion reads many logs.
			const once = new SessionLog(dataDir, id, undefined, true);
			return {
				id,
				host,
				key: join(folder, name),
				modified: modifiedOf(join(folder, name)),
				history: () => files.store.history(),
				ledger: (budget) => ledgerView(budget, files),
				terms,
				project: () => once.project(),
				past: () => {
					const items = once.history();
					// Where the host says what each response used, each is one model call; else they are not counted.
					const steps = terms.tokens ? items.filter((item) => item.kind === "usage").length : null;
					const endedAt = latestAt(once.lines());
					return pastSession(items, {
						id,
						host: terms.name,
						...(endedAt === undefined ? {} : { endedAt }),
						steps,
						tokens: terms.tokens,
						cost: terms.cost,
					});
				},
			};
		});
}

function jsonLines(path: string): Record<string, unknown>[] {
	return jsonLinesOf(readFileSync(path, "utf8"));
}

function jsonLinesOf(text: string): Record<string, unknown>[] {
	return text.split("\n").flatMap((line) => {
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

/** The first line of a file as JSON fields (a pi session's header), reading no more of it than that line. */
function headerOf(path: string): Record<string, unknown> | undefined {
	let text = "";
	const fd = openSync(path, "r");
	try {
		const chunk = Buffer.alloc(4096);
		for (let read = readSync(fd, chunk); read > 0 && !text.includes("\n"); read = readSync(fd, chunk)) {
			text += chunk.toString("utf8", 0, read);
		}
	} finally {
		closeSync(fd);
	}
	const end = text.indexOf("\n");
	return jsonLinesOf(end < 0 ? text : text.slice(0, end))[0];
}

/** What a pi session used: its history on the branch of its last entry, its model calls, and when it last wrote. */
function piPast(path: string, id: string, host: string): PastSession | null {
	const entries = piBranch(jsonLines(path));
	let steps = 0;
	let endedAt: number | undefined;
	for (const entry of entries) {
		if (entry.type === "message" && entry.message.role === "assistant") steps++;
		const at = Date.parse(entry.timestamp);
		if (Number.isFinite(at) && (endedAt === undefined || at > endedAt)) endedAt = at;
	}
	return pastSession(historyOf(entries), {
		id,
		host,
		...(endedAt === undefined ? {} : { endedAt }),
		steps,
		tokens: true,
		cost: true,
	});
}

/**
 * pi's sessions (and oh-my-pi's, which keeps them alike): `<agent dir>/sessions/<folder>/<time>_<id>.jsonl`, with the
 * ledger in the agent dir. A folder holds the sessions of one working folder: with `project`, only that one's are listed.
 */
export function piSessions(agentDir: string, host = "pi", terms = DEFAULT_TERMS, project?: string): FoundSession[] {
	const root = join(agentDir, "sessions");
	const ledger = createFileLedger(join(agentDir, LEDGER_FOLDER));
	return entriesOf(root).flatMap((folder) => {
		const files = entriesOf(join(root, folder)).filter((name) => name.endsWith(".jsonl"));
		if (project !== undefined) {
			const first = files[0];
			const cwd = first === undefined ? undefined : headerOf(join(root, folder, first))?.cwd;
			if (typeof cwd !== "string" || !sameFolder(cwd, project)) return [];
		}
		return files.map((name) => {
			const path = join(root, folder, name);
			const header = headerOf(path);
			const id =
				header?.type === "session" && typeof header.id === "string"
					? header.id
					: name.replace(/^.*_/, "").slice(0, -".jsonl".length);
			return {
				id,
				host,
				key: path,
				modified: modifiedOf(path),
				history: () => historyOf(piBranch(jsonLines(path))),
				ledger: (budget) => readLedger(ledger, budget),
				terms,
				project: () => (typeof header?.cwd === "string" ? header.cwd : null),
				past: () => piPast(path, id, terms.name),
			};
		});
	});
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
			const id = key.slice(SESSION_KEY_PREFIX.length);
			const terms = claudeCodeTerms("function hooks");
			return [
				{
					id,
					host: "claude",
					key: `${path}#${id}`,
					modified: modifiedOf(path),
					history: () => saved.history,
					ledger: (budget) => claimedView(saved.claims, budgetIdOf(budget)),
					terms,
					project: () => saved.cwd ?? null,
					// The module keeps a run's model calls as one usage: they are not counted.
					past: () =>
						pastSession(saved.history, { id, host: terms.name, steps: null, tokens: terms.tokens, cost: terms.cost }),
				},
			];
		});
	});
}

/** oh-my-pi's terms: pi's, by its own name. */
const OMP_TERMS: HostTerms = { ...DEFAULT_TERMS, name: "oh-my-pi" };

/**
 * Every session of every host on the machine, newest first; with `project`, pi's and oh-my-pi's are only those of that
 * working folder (their folders say which), and the others are to be told apart by `project()`.
 */
export function allSessions(env: NodeJS.ProcessEnv, home: string, project?: string): FoundSession[] {
	const piDir = env.PI_CODING_AGENT_DIR?.trim() ? env.PI_CODING_AGENT_DIR : join(home, ".pi", "agent");
	const ompDir = join(home, ".omp", "agent");
	const claudeData = join(home, ".claude", "plugins", "data");
	const codexHome = env.CODEX_HOME ?? join(home, ".codex");
	// Codex tells a plugin's hooks CLAUDE_PLUGIN_DATA too, a folder under its own plugin data: that one is Codex's.
	const codexData = join(codexHome, "plugins", "data");
	const codexDirs = [join(codexHome, "timebox"), ...entriesOf(codexData).map((name) => join(codexData, name))];
	const codexs = (dir: string) => resolve(dir).startsWith(`${resolve(codexData)}${sep}`);
	const claudeDirs = (
		env.CLAUDE_PLUGIN_DATA ? [env.CLAUDE_PLUGIN_DATA] : entriesOf(claudeData).map((name) => join(claudeData, name))
	).filter((dir) => !codexs(dir));
	return [
		...piSessions(piDir, "pi", DEFAULT_TERMS, project),
		...(resolve(ompDir) === resolve(piDir) ? [] : piSessions(ompDir, "omp", OMP_TERMS, project)),
		...claudeDirs.flatMap((dir) => logSessions(dir, "claude", claudeCodeHost.terms)),
		...moduleSessions(join(home, ".claude", "plugins", "store")),
		...logSessions(join(home, ".gemini", "timebox"), "gemini", geminiCliHost.terms),
		...codexDirs.flatMap((dir) => logSessions(dir, "codex", codexCliHost.terms)),
		...logSessions(opencodeDataDir(env), "opencode", OPENCODE_TERMS),
	].sort((a, b) => b.modified - a.modified);
}

/**
 * The past sessions of a project on this machine, of every host, as `env`'s folders hold them (leaving out the session
 * `current`), through the cache under Timebox's state folder.
 */
export function pastSessionsOf(
	env: NodeJS.ProcessEnv,
	home = homeOf(env),
): (project: string, current: string | null) => ProjectHistory {
	return (project, current) =>
		readProjectHistory((folder) => allSessions(env, home, folder), project, current, fileCache(env));
}
