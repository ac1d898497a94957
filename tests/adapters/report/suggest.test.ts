// A suggested budget from the sessions on disk: every host's sessions of one project found where `npm run report` finds
// them (pi's and oh-my-pi's session files, the hook hosts' and opencode's logs, Claude Code's hooks module's store),
// what each used, `npm run report -- --suggest` with its options, and the page's section of the same figures.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import { homeOf, sameFolder } from "../../../src/adapters/report/found-session.ts";
import { renderPage } from "../../../src/adapters/report/page-html.ts";
import { fileCache, type PastSessionsCache } from "../../../src/adapters/report/past-sessions-cache.ts";
import { readProjectHistory as readHistory } from "../../../src/adapters/report/project-history.ts";
import { suggestionTable } from "../../../src/adapters/report/tables.ts";
import { pageData } from "../../../src/adapters/report/write-page.ts";
import { DEFAULT_TERMS, type PastSession, suggestionOf, suggestionText } from "../../../src/core/index.ts";
import { readOptions, runReport } from "../../../src/entries/report/cli.ts";
import {
	allSessions,
	logSessions,
	moduleSessions,
	pastSessionsOf,
	piSessions,
} from "../../../src/entries/report/sources.ts";
import { nodeProjectHistory, nodeReportPageWriter } from "../../../src/entries/report/writer.ts";

/** The report page's module, as an entry loads it. */
const importReport = () => import("../../../src/entries/report/entry.ts");

const MINUTE = 60_000;
const NOW = new Date(2026, 10, 22, 15, 0, 0).getTime();
const START = NOW - 30 * 24 * 60 * MINUTE;
const PROJECT = "/work/app";
const clock = { now: () => NOW };

/** A project's past sessions, of every host's sessions under `home`, as a host's reader finds them. */
function readProjectHistory(
	env: NodeJS.ProcessEnv,
	home: string,
	project: string,
	current: string | null,
	cache?: PastSessionsCache,
) {
	return readHistory((folder) => allSessions(env, home, folder), project, current, cache);
}
let dir: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-suggest-"));
	home = join(dir, "home");
	env = { HOME: home, XDG_STATE_HOME: join(dir, "state") };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A pi session file of `cwd` in `agentDir`: `turns` prompts a minute apart, each answered by two model calls of 1,000
 * tokens and $0.01; written `minutes` after it began (its last entry), the file's time that much later.
 */
function piSession(agentDir: string, id: string, cwd: string, start: number, turns: number, minutes: number): string {
	const folder = join(agentDir, "sessions", `--${cwd.replace(/^\//, "").replace(/\//g, "-")}--`);
	mkdirSync(folder, { recursive: true });
	const lines: Record<string, unknown>[] = [{ type: "session", id, cwd, timestamp: iso(start) }];
	let parentId: string | null = null;
	const add = (entry: Record<string, unknown>, at: number) => {
		const id = `e${lines.length}`;
		lines.push({ ...entry, id, parentId, timestamp: iso(at) });
		parentId = id;
	};
	for (let turn = 0; turn < turns; turn++) {
		const at = start + turn * MINUTE;
		add({ type: "message", message: { role: "user", content: `prompt ${turn}`, timestamp: at } }, at);
		for (const call of [1, 2]) {
			const usage = { input: 900, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1_000, cost: { total: 0.01 } };
			add({ type: "message", message: { role: "assistant", content: [], usage, timestamp: at + call } }, at + call);
		}
	}
	add({ type: "custom", customType: "other", data: {} }, start + minutes * MINUTE);
	const path = join(folder, `${iso(start).replace(/[:.]/g, "-")}_${id}.jsonl`);
	writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
	utimesSync(path, new Date(start + minutes * MINUTE), new Date(start + minutes * MINUTE));
	return path;
}

/** A hook host's log of `cwd` (null: none said): `turns` prompts a minute apart, the last line `minutes` after the first. */
function hookSession(dataDir: string, id: string, cwd: string | null, start: number, turns: number, minutes: number) {
	const log = new SessionLog(dataDir, id).setCwd(cwd);
	for (let turn = 0; turn < turns; turn++) log.appendPrompt(`p${turn}`, start + turn * MINUTE);
	log.appendUsage("r1", { tokens: 500 }, start + 1);
	log.appendLine({ kind: "ended", promptId: `p${turns - 1}`, at: start + minutes * MINUTE });
	const path = join(dataDir, "sessions", `${id}.jsonl`);
	utimesSync(path, new Date(start + minutes * MINUTE), new Date(start + minutes * MINUTE));
	return log;
}

const piDir = () => join(home, ".pi", "agent");
const geminiDir = () => join(home, ".gemini", "timebox");
const day = (n: number) => START + n * 24 * 60 * MINUTE;

describe("a session's project and what it used, from every host's files", () => {
	it("reads a pi session's folder from its header, and its prompts, model calls, tokens, cost and time", () => {
		piSession(piDir(), "pi-1", PROJECT, day(0), 3, 12);
		const [found] = piSessions(piDir());
		expect(found?.project()).toBe(PROJECT);
		expect(found?.past()).toEqual({
			id: "pi-1",
			host: "pi",
			startedAt: day(0),
			endedAt: day(0) + 12 * MINUTE,
			turns: 3,
			steps: 6,
			tokens: 6_000,
			cost: expect.closeTo(0.06, 10),
		});
	});

	it("reads a pi session with no header, or entries with no time, from its prompts' own times", () => {
		const folder = join(piDir(), "sessions", "--work-app--");
		mkdirSync(folder, { recursive: true });
		const entries = [
			{ type: "message", id: "a", parentId: null, message: { role: "user", content: "hi", timestamp: day(0) } },
			{ type: "message", id: "b", parentId: "a", timestamp: "later", message: { role: "assistant", content: [] } },
			{
				type: "message",
				id: "c",
				parentId: "b",
				timestamp: iso(day(0)),
				message: { role: "user", content: "again", timestamp: day(0) },
			},
		];
		// No newline at the end: the header is the whole of the first line.
		writeFileSync(join(folder, "2026_nohead.jsonl"), entries.map((entry) => JSON.stringify(entry)).join("\n"));
		writeFileSync(join(folder, "2026_empty.jsonl"), "");
		const found = piSessions(piDir());
		const noHead = found.find((session) => session.id === "nohead");
		expect(noHead?.project()).toBeNull();
		expect(noHead?.past()).toMatchObject({ startedAt: day(0), endedAt: day(0), turns: 2, steps: 1 });
		expect(found.find((session) => session.id === "empty")?.past()).toBeNull();
		// A folder whose first session names no folder is none of the project's.
		expect(piSessions(piDir(), "pi", DEFAULT_TERMS, PROJECT)).toEqual([]);
	});

	it("lists only the pi folders of the project where one is named, and oh-my-pi's as its own host", () => {
		piSession(piDir(), "here", PROJECT, day(0), 1, 1);
		piSession(piDir(), "there", "/work/other", day(1), 1, 1);
		mkdirSync(join(piDir(), "sessions", "--empty--"), { recursive: true });
		piSession(join(home, ".omp", "agent"), "omp-1", `${PROJECT}/`, day(2), 2, 5);
		expect(piSessions(piDir(), "pi", DEFAULT_TERMS, PROJECT).map((session) => session.id)).toEqual(["here"]);
		const all = allSessions(env, home, PROJECT);
		expect(all.map((session) => `${session.host}:${session.id}`)).toEqual(["omp:omp-1", "pi:here"]);
		expect(all[0]?.past()?.host).toBe("oh-my-pi");
		// pi's folder under PI_CODING_AGENT_DIR is oh-my-pi's too when it is the same folder: read once.
		const same = allSessions({ ...env, PI_CODING_AGENT_DIR: join(home, ".omp", "agent") }, home);
		expect(same.map((session) => session.id)).toEqual(["omp-1"]);
	});

	it("reads a hook host's folder from its prompts' lines, and counts a response as a model call where tokens are seen", () => {
		hookSession(geminiDir(), "g-1", PROJECT, day(0), 2, 7);
		const [gemini] = allSessions(env, home);
		expect(gemini?.project()).toBe(PROJECT);
		// Gemini CLI's tokens are read from its session file; no hook of it sees a price.
		expect(gemini?.past()).toEqual({
			id: "g-1",
			host: "Gemini CLI",
			startedAt: day(0),
			endedAt: day(0) + 7 * MINUTE,
			turns: 2,
			steps: 1,
			tokens: 500,
			cost: null,
		});
		// Codex CLI's hooks see no tokens: none are counted, nor are model calls.
		const codexData = join(home, ".codex", "timebox");
		hookSession(codexData, "x-1", PROJECT, day(0), 1, 2);
		const [codex] = allSessions(env, home).filter((one) => one.id === "x-1");
		expect(codex?.past()).toMatchObject({ host: "Codex", steps: null, tokens: null, cost: null });
		// Installed as a plugin, Codex's hooks keep their logs in its plugin data folder, which it names to them as
		// CLAUDE_PLUGIN_DATA: read as Codex's, from a hook of it and from a shell alike; never as Claude Code's.
		const plugin = join(home, ".codex", "plugins", "data", "timebox-timebox");
		hookSession(plugin, "x-2", PROJECT, day(0), 1, 2);
		for (const from of [env, { ...env, CLAUDE_PLUGIN_DATA: plugin }]) {
			const found = allSessions(from, home).filter((one) => one.id === "x-2");
			expect(found.map((one) => [one.host, one.past()?.host, one.past()?.tokens])).toEqual([["codex", "Codex", null]]);
		}
		const claudeData = join(dir, "claude-data");
		hookSession(claudeData, "c-1", null, day(1), 1, 2);
		const [claude] = allSessions({ ...env, CLAUDE_PLUGIN_DATA: claudeData }, home).filter((one) => one.id === "c-1");
		expect(claude?.project()).toBeNull();
		expect(claude?.past()).toMatchObject({ host: "Claude Code", steps: 1, tokens: 500, cost: null });
		// A folder the host gives empty is none.
		new SessionLog(geminiDir(), "no-folder").setCwd("").appendPrompt("p", day(2));
		expect(
			logSessions(geminiDir(), "gemini", DEFAULT_TERMS)
				.find((one) => one.id === "no-folder")
				?.project(),
		).toBeNull();
		// A log of no prompt counts for nothing.
		new SessionLog(geminiDir(), "empty").appendLine({ kind: "transcript", offset: 0 });
		expect(
			logSessions(geminiDir(), "gemini", DEFAULT_TERMS)
				.find((one) => one.id === "empty")
				?.past(),
		).toBeNull();
	});

	it("reads the hooks module's folder from its entry, with no model calls (it keeps a run's usage as one)", () => {
		const store = join(home, ".claude", "plugins", "store");
		mkdirSync(store, { recursive: true });
		const history = [
			{ kind: "prompt", key: "k", at: day(0) },
			{ kind: "usage", tokens: 40, cost: 0, at: day(0) + 3 * MINUTE },
		];
		writeFileSync(
			join(store, "timebox_x.json"),
			JSON.stringify({
				"session:m-1": { history, claims: [], cwd: PROJECT },
				"session:m-2": { history, claims: [] },
			}),
		);
		const [withCwd, without] = moduleSessions(store);
		expect(withCwd?.project()).toBe(PROJECT);
		expect(without?.project()).toBeNull();
		expect(withCwd?.past()).toEqual({
			id: "m-1",
			host: "Claude Code",
			startedAt: day(0),
			endedAt: day(0) + 3 * MINUTE,
			turns: 1,
			steps: null,
			tokens: 40,
			cost: 0,
		});
	});

	it.each([
		["/work/app", "/work/app", true],
		["/work/app/", "/work/app", true],
		["/work/./app", "/work/app", true],
		["/work/app2", "/work/app", false],
		[null, "/work/app", false],
	])("takes %s for the folder %s: %s", (a, b, same) => {
		expect(sameFolder(a, b)).toBe(same);
	});
});

describe("a project's past sessions", () => {
	it("reads the project's sessions of every host, newest first, leaving out the session asking and other folders", () => {
		piSession(piDir(), "pi-1", PROJECT, day(0), 2, 10);
		piSession(piDir(), "pi-2", PROJECT, day(2), 4, 30);
		piSession(piDir(), "elsewhere", "/work/other", day(3), 4, 30);
		hookSession(geminiDir(), "g-1", PROJECT, day(1), 1, 5);
		hookSession(geminiDir(), "g-other", "/work/other", day(4), 1, 5);
		hookSession(geminiDir(), "asking", PROJECT, day(5), 1, 5);
		// A log that names no folder is no project's.
		hookSession(geminiDir(), "no-folder", null, day(6), 1, 5);
		const history = readProjectHistory(env, home, PROJECT, "asking");
		expect(history.current).toBe("asking");
		expect(history.sessions.map((session: PastSession) => `${session.host}:${session.id}`)).toEqual([
			"pi:pi-2",
			"Gemini CLI:g-1",
			"pi:pi-1",
		]);
	});

	it("reads no more than the suggestion counts, and goes on without a session it cannot read", () => {
		for (let n = 0; n < 33; n++) hookSession(geminiDir(), `g-${n}`, PROJECT, day(n), 1, 5);
		const history = readProjectHistory(env, home, PROJECT, null);
		expect(history.sessions).toHaveLength(30);
		expect(history.sessions[0]?.id).toBe("g-32");
		// A folder where a log should be: it cannot be read, and the suggestion goes on without it.
		const unreadable = join(geminiDir(), "sessions", "broken.jsonl");
		mkdirSync(unreadable);
		utimesSync(unreadable, new Date(day(40)), new Date(day(40)));
		const read = readProjectHistory(env, home, PROJECT, null).sessions.map((session) => session.id);
		expect(read[0]).toBe("g-32");
	});

	it("loads the reader only when a suggestion is asked for, from the environment's home", async () => {
		hookSession(geminiDir(), "g-1", PROJECT, day(1), 1, 5);
		let loads = 0;
		const read = nodeProjectHistory(env, () => {
			loads++;
			return importReport();
		});
		expect(loads).toBe(0);
		expect((await read(PROJECT, null)).sessions.map((session) => session.id)).toEqual(["g-1"]);
		expect(loads).toBe(1);
		expect(homeOf({ HOME: "/h" })).toBe("/h");
		expect(homeOf({})).toBe(homedir());
	});
});

describe("the cache of what past sessions used", () => {
	it("reads a session again only once its file changed, and forgets the sessions that are gone", () => {
		const path = piSession(piDir(), "pi-1", PROJECT, day(0), 2, 10);
		hookSession(geminiDir(), "g-1", "/work/other", day(1), 1, 5);
		const cache = fileCache(env);
		expect(readProjectHistory(env, home, PROJECT, null, cache).sessions.map((one) => one.turns)).toEqual([2]);
		const file = join(dir, "state", "timebox", "past-sessions.json");
		const kept = JSON.parse(readFileSync(file, "utf8")) as { sessions: Record<string, unknown> };
		expect(Object.keys(kept.sessions).sort()).toEqual([join(geminiDir(), "sessions", "g-1.jsonl"), path].sort());
		// The file's text changed (one turn now), its time did not: what was kept is read, not the file.
		expect(piSession(piDir(), "pi-1", PROJECT, day(0), 1, 10)).toBe(path);
		expect(readProjectHistory(env, home, PROJECT, null, fileCache(env)).sessions[0]?.turns).toBe(2);
		// Written again since: read again.
		utimesSync(path, new Date(day(0) + 11 * MINUTE), new Date(day(0) + 11 * MINUTE));
		expect(readProjectHistory(env, home, PROJECT, null, fileCache(env)).sessions[0]?.turns).toBe(1);
		rmSync(join(geminiDir(), "sessions", "g-1.jsonl"));
		readProjectHistory(env, home, PROJECT, null, fileCache(env));
		expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).sessions)).toEqual([path]);
	});

	it.each([
		["a damaged file", "{"],
		["no sessions", "{}"],
		["sessions that are no object", '{"sessions":3}'],
	])("starts empty from %s, and is never needed: a cache that cannot be written is not kept", (_, text) => {
		piSession(piDir(), "pi-1", PROJECT, day(0), 2, 10);
		const file = join(dir, "state", "timebox", "past-sessions.json");
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, text);
		expect(readProjectHistory(env, home, PROJECT, null, fileCache(env)).sessions).toHaveLength(1);
		expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).sessions)).toHaveLength(1);
		rmSync(join(dir, "state"), { recursive: true });
		writeFileSync(join(dir, "state"), "a file where the folder goes");
		expect(readProjectHistory(env, home, PROJECT, null, fileCache(env)).sessions).toHaveLength(1);
	});
});

describe("npm run report -- --suggest", () => {
	it("reads --suggest with --project and --json, and refuses what goes with neither", () => {
		expect(readOptions(["--suggest"])).toMatchObject({ suggest: { project: null, json: false } });
		expect(readOptions(["--project", "/p", "--suggest", "--json"])).toMatchObject({
			suggest: { project: "/p", json: true },
		});
		expect(readOptions(["--suggest", "--days", "3"])).toEqual({
			problem: "--suggest takes --project and --json, not --days.",
		});
		expect(readOptions(["--project", "/p"])).toEqual({ problem: "--project goes with --suggest." });
		expect(readOptions(["--json"])).toEqual({ problem: "--json goes with --suggest." });
		expect(readOptions(["--suggest", "--project"])).toEqual({ problem: "--project needs a value." });
	});

	it("prints the suggestion of the folder npm was run from, or of --project, or the sessions as JSON", () => {
		for (let n = 0; n < 5; n++) piSession(piDir(), `pi-${n}`, PROJECT, day(n), n + 1, 10 * (n + 1));
		const printed = runReport(["--suggest"], { ...env, INIT_CWD: PROJECT }, home, clock);
		expect(printed.failed).toBe(false);
		expect(printed.stdout).toBe(
			[
				`Timebox: your last 5 sessions in ${PROJECT} (5 pi), median / 90th percentile:`,
				"- time: 30m 0s / 50m 0s",
				"- turns: 3 / 5",
				"- model calls: 6 / 10",
				"- tokens: 6k / 10k",
				"- cost: $0.06 / $0.10",
				"Try /timebox 50m turns:5 $0.10 (the 90th percentile of your last 5 sessions here).",
				"",
			].join("\n"),
		);
		const other = runReport(["--suggest", "--project", "/work/other"], env, home, clock);
		expect(other.stdout).toBe(
			"Timebox: too little history to suggest a budget: no session in /work/other so far, and a suggestion needs 5.\n",
		);
		const json = runReport(["--suggest", "--json", "--project", PROJECT], env, home, clock);
		const read = JSON.parse(json.stdout) as { sessions: PastSession[]; current: null };
		expect(read.current).toBeNull();
		expect(read.sessions.map((session) => session.turns)).toEqual([5, 4, 3, 2, 1]);
		expect(runReport(["--suggest"], env, home, clock).stdout).toContain(`in ${process.cwd()} so far`);
	});

	it("shows the suggestion of the session's folder on the page of npm run report", () => {
		for (let n = 0; n < 6; n++) piSession(piDir(), `pi-${n}`, PROJECT, day(n), 2, 10);
		const out = join(dir, "page.html");
		runReport(["--out", out], env, home, clock);
		const html = readFileSync(out, "utf8");
		expect(html).toContain(`A suggested budget for ${PROJECT}`);
		// The page of the latest session leaves that session out: it is the one being looked at.
		expect(html).toContain("Try /timebox 10m turns:2 $0.05 (the 90th percentile of your last 5 sessions here).");
	});
});

describe("the page's suggested budget", () => {
	it("is the same figures as /timebox suggest, with a table, or says why there is none", async () => {
		for (let n = 0; n < 5; n++) hookSession(geminiDir(), `g-${n}`, PROJECT, day(n), n + 1, 10);
		const pastSessions = pastSessionsOf(env, home);
		const page = pageData(
			{ report: null, standings: [] },
			{ env, now: NOW, session: null, project: PROJECT, pastSessions },
		);
		const suggestion = suggestionOf(readProjectHistory(env, home, PROJECT, null).sessions);
		expect(page.suggestion).toEqual({ project: PROJECT, suggestion, text: suggestionText(suggestion) });
		const html = renderPage(page, { script: "", css: "" });
		expect(html).toContain("<caption>A session&#39;s use here</caption>");
		expect(html).toContain('<th scope="row">Turns</th><td>3</td><td>5</td><td>5 of 5</td>');
		expect(html).toContain('<th scope="row">Cost</th><td>–</td><td>–</td><td>0 of 5: too few measured it</td>');
		const none = pageData(
			{ report: null, standings: [] },
			{ env, now: NOW, session: null, project: "/nowhere", pastSessions },
		);
		const empty = renderPage(none, { script: "", css: "" });
		expect(empty).toContain("too little history to suggest a budget");
		expect(empty).not.toContain("A session&#39;s use here");
		expect(pageData({ report: null, standings: [] }, { env, now: NOW, session: null }).suggestion).toBeUndefined();
		// A page with no reader of past sessions reads none.
		expect(
			pageData({ report: null, standings: [] }, { env, now: NOW, session: null, project: PROJECT }).suggestion,
		).toBeUndefined();
		expect(suggestionTable(suggestion.figures ?? ({} as never), 5)).toContain("Model calls");
		const written = join(dir, "state", "timebox", "reports", "s.html");
		const write = nodeReportPageWriter(env, clock, importReport);
		expect(await write({ report: null as never, standings: [] }, { id: "s", host: "gemini", project: PROJECT })).toBe(
			written,
		);
		expect(readFileSync(written, "utf8")).toContain(`A suggested budget for ${PROJECT}`);
	});
});
