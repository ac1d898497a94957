// A team's daily budget in a hook process (Codex here; Gemini CLI and Claude Code's classic hooks run the same command
// line): the day is read once before the event and what the event wrote is sent once after it, over a store in memory
// that keeps what the Lua scripts do (tests/e2e/team runs the hosts on a real Redis). A prompt the store gives to
// another machine between the read and the count is refused in the team's words; a store that cannot be reached is
// said once per session (each hook a process of its own), left alone for a while by the hooks after it, and the prompt
// counted on this machine and kept to send; so is a team set wrongly.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { outboxFolder } from "../../../src/adapters/team/outbox.ts";
import { carriedBy, readAheadIn } from "../../../src/entries/daily-ledgers.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";
import { batchLedgerOn, MemoryStore, TEAM_CONFIG } from "../team/memory-store.ts";

let home: string;
let now: number;
const clock = { now: () => now };
let store: MemoryStore;
beforeEach(() => {
	home = mkdtempSync(join(tmpdir(), "timebox-hook-team-"));
	now = Date.UTC(2026, 10, 22, 9, 0, 0);
	store = new MemoryStore(clock);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The hook's team ledger as openHookDailyLedger makes it, over the store in memory; `before` runs ahead of each batch. */
function deps(before: () => void = () => {}): CliDeps {
	return {
		hosts: [codexCliHost],
		clock,
		onStop: { start: () => {} },
		runStatusLine: () => "",
		script: "/x/timebox.mjs",
		startWatcher: () => {},
		entry: import.meta.url,
		importReport: () => import("../../../src/entries/report/entry.ts"),
		sleep: async () => {},
		openDaily: (options, budgets) => {
			const member = { member: "ann@m1 (codex)" };
			const ledger = batchLedgerOn(store, home, options.sessionId, clock, member, carriedBy(options.told));
			const readAhead = readAheadIn(ledger, TEAM_CONFIG, options, budgets);
			const settle = readAhead.settle.bind(readAhead);
			readAhead.settle = () => {
				before();
				return settle();
			};
			return readAhead;
		},
	};
}

const ENV = { TIMEBOX_DAILY: "turns:1", TIMEBOX_DAILY_STORE: "redis://127.0.0.1:6390", TIMEBOX_TEAM: "platform" };

/** One hook process of Codex: its event's JSON in, its reply out (null for none). */
async function hook(payload: object, hookDeps: CliDeps, env: NodeJS.ProcessEnv = ENV): Promise<unknown> {
	const { stdout, stderr } = await runCli(["hook"], JSON.stringify(payload), { HOME: home, ...env }, hookDeps);
	expect(stderr).toBe("");
	return stdout === "" ? null : JSON.parse(stdout);
}

async function prompt(turn: string, hookDeps: CliDeps, text = "go"): Promise<unknown> {
	return hook(
		{ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: turn, prompt: text, cwd: "/x" },
		hookDeps,
	);
}

/** A tool call's two hooks in turn `turn`: their replies. */
async function toolCall(turn: string, hookDeps: CliDeps, env: NodeJS.ProcessEnv = ENV): Promise<unknown[]> {
	const call = { session_id: "c1", turn_id: turn, tool_name: "Bash", cwd: "/x" };
	return [
		await hook({ ...call, hook_event_name: "PreToolUse", tool_input: { command: "ls" } }, hookDeps, env),
		await hook({ ...call, hook_event_name: "PostToolUse", tool_response: "x" }, hookDeps, env),
	];
}

describe("a team's day in a hook process", () => {
	it("reads the day before the prompt and counts it after, each once, and refuses the next prompt from the reading", async () => {
		expect(await prompt("t1", deps())).toBeNull();
		// The prompt's model call is reserved with its count; the day is read after them for the refusal's words.
		expect(store.calls.map((call) => call.script)).toEqual(["read", "count", "reserve", "read"]);
		expect(store.hashes.get("timebox:{platform}:2026-11-22:use")?.get("prompts")).toBe("1");
		store.calls = [];
		expect(await prompt("t2", deps())).toEqual({
			decision: "block",
			reason: "Timebox: the team's budget for today is spent (1 turn). It resets at midnight UTC.",
		});
		// Refused from the reading: nothing is counted.
		expect(store.calls.map((call) => call.script)).toEqual(["read"]);
	});

	it("refuses a prompt whose count the store gave to another machine since the day was read, in the team's words", async () => {
		const elsewhere = () => {
			const keys = ["use", "sessions", "who", "res", "sent"].map((key) => `timebox:{platform}:2026-11-22:${key}`);
			store.call("count", keys, [0, "other", "bob@m2 (pi)", 1], 1_000);
		};
		expect(await prompt("t1", deps(elsewhere))).toEqual({
			decision: "block",
			reason: "Timebox: the team's budget for today is spent (1 turn). It resets at midnight UTC.",
		});
		expect(store.hashes.get("timebox:{platform}:2026-11-22:use")?.get("prompts")).toBe("1");
	});

	it("says what the refused prompt's answer had to say before the refusal: a problem it took is said nowhere else", async () => {
		// The store is down as the day is read; by the count it is back, and another machine took the day's last turn.
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const backAndTaken = () => {
			store.down = null;
			now += 5_001;
			const keys = ["use", "sessions", "who", "res", "sent"].map((key) => `timebox:{platform}:2026-11-22:${key}`);
			store.call("count", keys, [0, "other", "bob@m2 (pi)", 1], 1_000);
		};
		expect(await prompt("t1", deps(backAndTaken))).toEqual({
			decision: "block",
			reason: [
				"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (connect ECONNREFUSED 127.0.0.1:6390): this machine counts today's use on its own until it answers, then sends it to the team.",
				"Timebox: the team's budget for today is spent (1 turn). It resets at midnight UTC.",
			].join("\n"),
		});
	});

	it("keeps a prompt the store refused after the rules counted it out of the session's own turns", async () => {
		const elsewhere = () => {
			const keys = ["use", "sessions", "who", "res", "sent"].map((key) => `timebox:{platform}:2026-11-22:${key}`);
			store.call("count", keys, [0, "other", "bob@m2 (pi)", 1], 1_000);
		};
		await prompt("t0", deps(), "timebox turns:2");
		expect(await prompt("t1", deps(elsewhere))).toMatchObject({ decision: "block" });
		// The session's log says that the prompt it kept never ran: the next hook, and any after it, counts it for nothing.
		const log = readFileSync(join(home, ".codex", "timebox", "sessions", "c1.jsonl"), "utf8");
		expect(log).toContain('"kind":"prompt-dropped"');
		expect(await prompt("t2", deps(), "timebox status")).toEqual({
			decision: "block",
			reason: "Timebox: no time limit | 2 turns left (0/2)",
		});
	});

	it("counts a prompt on this machine while the store cannot be reached, says so, and keeps it to send", async () => {
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		expect(await prompt("t1", deps())).toEqual({
			systemMessage:
				"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (connect ECONNREFUSED 127.0.0.1:6390): this machine counts today's use on its own until it answers, then sends it to the team.",
		});
		const kept = readFileSync(join(outboxFolder(home, "platform"), "unsent.jsonl"), "utf8");
		expect(JSON.parse(kept)).toMatchObject({ prompts: 1, session: "c1", day: "2026-11-22" });
	});

	it("says a store that cannot be reached once per session, not at every hook, and leaves it alone for a while", async () => {
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const said = {
			systemMessage:
				"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (connect ECONNREFUSED 127.0.0.1:6390): this machine counts today's use on its own until it answers, then sends it to the team.",
		};
		const env = { ...ENV, TIMEBOX_DAILY: "turns:5" };
		// The session's start finds the store down, but shows nothing: the prompt after it is told, though it leaves the
		// store alone.
		expect(
			await hook({ session_id: "c1", hook_event_name: "SessionStart", source: "startup", cwd: "/x" }, deps(), env),
		).toBeNull();
		const first = store.calls.length;
		expect(
			await hook(
				{ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "go", cwd: "/x" },
				deps(),
				env,
			),
		).toEqual(said);
		expect(store.calls.length).toBe(first);
		const tried = store.calls.length;
		// The hooks after it, each a process of its own, say nothing and leave the store alone for TEAM_RETRY_MS.
		expect(await toolCall("t1", deps(), env)).toEqual([null, null]);
		expect(store.calls.length).toBe(tried);
		// Then the store is tried again, and still down: nothing more is said.
		now += 5_001;
		expect(await toolCall("t1", deps(), env)).toEqual([null, null]);
		expect(store.calls.length).toBeGreaterThan(tried);
		// The store is back: the next hook sends the kept prompt, and the team's day holds it.
		now += 5_001;
		store.down = null;
		expect(await toolCall("t1", deps(), env)).toEqual([null, null]);
		expect(store.hashes.get("timebox:{platform}:2026-11-22:use")?.get("prompts")).toBe("1");
		// Another session is told.
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const other = { session_id: "c2", hook_event_name: "UserPromptSubmit", turn_id: "u1", prompt: "go", cwd: "/x" };
		expect(await hook(other, deps(), env)).toEqual(said);
	});

	it("adds the tokens a transcript shows to the team's day its store keeps the limits of, on a member with no TIMEBOX_DAILY", async () => {
		const team = { TIMEBOX_DAILY_STORE: ENV.TIMEBOX_DAILY_STORE, TIMEBOX_TEAM: ENV.TIMEBOX_TEAM };
		const set = {
			session_id: "a1",
			hook_event_name: "UserPromptSubmit",
			turn_id: "a",
			prompt: "timebox team set tokens:5k",
		};
		expect(await hook({ ...set, cwd: "/x" }, deps(), team)).toMatchObject({ decision: "block" });
		// Claude Code's classic hooks: what the model calls used is read from the session's transcript.
		const claude = { ...deps(), hosts: [claudeCodeHost] };
		const member = { ...team, CLAUDE_PLUGIN_DATA: join(home, "claude-data") };
		const transcript = join(home, "transcript.jsonl");
		const usage = { input_tokens: 3_000, output_tokens: 1_000 };
		writeFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { id: "m1", usage } })}\n`);
		const claudeHook = (prompt: string, id: string) => ({
			session_id: "k1",
			hook_event_name: "UserPromptSubmit",
			prompt_id: id,
			prompt,
			transcript_path: transcript,
			cwd: "/x",
		});
		expect(await hook(claudeHook("work", "p1"), claude, member)).toBeNull();
		// The day's 4k of 5k is 80%: the next prompt is told so.
		expect(await hook(claudeHook("more", "p2"), claude, member)).toMatchObject({
			systemMessage: "Timebox: the team's budget for today: 1k tokens left of 5k — the model is asked to wrap up.",
		});
		expect(store.hashes.get("timebox:{platform}:2026-11-22:use")?.get("tokens")).toBe("4000");
		const today = (await hook(claudeHook("/timebox today", "p3"), claude, member)) as { reason: string };
		expect(today.reason).toContain("The team platform (set in its store): 4k of 5k tokens used, 1k left.");
	});

	it("holds and counts a member whose own TIMEBOX_DAILY cannot be read by the limits the team keeps in its store", async () => {
		const admin = { TIMEBOX_DAILY_STORE: ENV.TIMEBOX_DAILY_STORE, TIMEBOX_TEAM: ENV.TIMEBOX_TEAM };
		const set = {
			session_id: "a1",
			hook_event_name: "UserPromptSubmit",
			turn_id: "a",
			prompt: "timebox team set turns:1",
		};
		expect(await hook({ ...set, cwd: "/x" }, deps(), admin)).toMatchObject({ decision: "block" });
		const typo = { ...admin, TIMEBOX_DAILY: "turns:5 $x" };
		const start = await hook({ session_id: "c1", hook_event_name: "SessionStart", source: "startup" }, deps(), typo);
		// The member's own cap is named, once, as the session starts; the team's limits hold all the same.
		expect(start).toEqual({
			systemMessage: expect.stringMatching(/^Timebox: TIMEBOX_DAILY: .* No daily budget is enforced from it\.$/),
		});
		expect(
			await hook({ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "go" }, deps(), typo),
		).toBeNull();
		expect(store.hashes.get("timebox:{platform}:2026-11-22:use")?.get("prompts")).toBe("1");
		expect(
			await hook({ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t2", prompt: "go" }, deps(), typo),
		).toEqual({
			decision: "block",
			reason: "Timebox: the team's budget for today is spent (1 turn). It resets at midnight UTC.",
		});
		// `timebox today` shows the team's day, and names the member's own cap that counts for nothing.
		const today = await hook(
			{ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t3", prompt: "timebox today" },
			deps(),
			typo,
		);
		expect(today).toEqual({
			decision: "block",
			reason: expect.stringMatching(
				/^Timebox today: 1 daily budget\.\nThe team platform \(set in its store\): 1 of 1 turns? used, 0 left\..*\nTimebox: TIMEBOX_DAILY: .* No daily budget is enforced from it\.$/s,
			),
		});
		// Without a team, it names the cap rather than saying that none is set.
		const alone = { TIMEBOX_DAILY: "turns:5 $x" };
		const asked = { session_id: "c3", hook_event_name: "UserPromptSubmit", turn_id: "u1", prompt: "timebox today" };
		expect(await hook(asked, deps(), alone)).toEqual({
			decision: "block",
			reason: expect.stringMatching(/^Timebox: TIMEBOX_DAILY: .* No daily budget is enforced from it\.$/),
		});
	});

	it("says a team set wrongly once per session, and /timebox team says it again", async () => {
		const wrong = { TIMEBOX_DAILY: "turns:5", TIMEBOX_TEAM: "platform" };
		const warning =
			"Timebox: TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE (redis://host:6379). The daily budget is this machine's alone.";
		const real = { ...deps() };
		delete real.openDaily;
		expect(
			await hook(
				{ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "go", cwd: "/x" },
				real,
				wrong,
			),
		).toEqual({
			systemMessage: warning,
		});
		expect(await toolCall("t1", real, wrong)).toEqual([null, null]);
		expect(await hook({ session_id: "c1", hook_event_name: "Stop", turn_id: "t1", cwd: "/x" }, real, wrong)).toBeNull();
		const team = await hook(
			{ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t2", prompt: "/timebox team", cwd: "/x" },
			real,
			wrong,
		);
		expect(JSON.stringify(team)).toContain("TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE");
	});

	it("refuses every new turn of a member whose team is set wrongly in the closed mode, saying why in the refusal alone", async () => {
		const wrong = {
			TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1",
			TIMEBOX_TEAM: "platform",
			TIMEBOX_TEAM_TZ: "Europe/Berln",
			TIMEBOX_DAILY_STORE_FAILURE: "closed",
			XDG_STATE_HOME: join(home, "state"),
		};
		const refusal =
			'Timebox: TIMEBOX_TEAM_TZ "Europe/Berln" is not a time zone (Europe/Berlin, UTC). The team\'s budget cannot be counted, so new turns are refused until it is set right (TIMEBOX_DAILY_STORE_FAILURE is "closed").';
		const real = { ...deps() };
		delete real.openDaily;
		const prompt = (turn: string, text: string) => ({
			session_id: "c1",
			hook_event_name: "UserPromptSubmit",
			turn_id: turn,
			prompt: text,
			cwd: "/x",
		});
		expect(await hook({ session_id: "c1", hook_event_name: "SessionStart", cwd: "/x" }, real, wrong)).toBeNull();
		expect(await hook(prompt("t1", "go"), real, wrong)).toEqual({ decision: "block", reason: refusal });
		expect(await hook(prompt("t2", "go"), real, wrong)).toEqual({ decision: "block", reason: refusal });
		expect(await hook(prompt("t3", "/timebox today"), real, wrong)).toEqual({ decision: "block", reason: refusal });
		// The open mode (the default) leaves the member to this machine's own daily budget, as before.
		const open = { ...wrong, TIMEBOX_DAILY_STORE_FAILURE: "" };
		expect(await hook({ ...prompt("u1", "go"), session_id: "c2" }, real, open)).toEqual({
			systemMessage:
				'Timebox: TIMEBOX_TEAM_TZ "Europe/Berln" is not a time zone (Europe/Berlin, UTC). The daily budget is this machine\'s alone.',
		});
	});

	it("takes a failure mode it cannot read as closed: says so once per session, and refuses new turns while the store is down", async () => {
		const real = { ...deps() };
		delete real.openDaily;
		// Nothing listens on port 1: the store refuses at once.
		const typo = {
			TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1",
			TIMEBOX_TEAM: "platform",
			TIMEBOX_DAILY_STORE_FAILURE: "clsoed",
			XDG_STATE_HOME: join(home, "state"),
		};
		const note =
			'Timebox: TIMEBOX_DAILY_STORE_FAILURE "clsoed" is neither "open" nor "closed", so new turns are refused while the team\'s store cannot be reached (closed).';
		const refusal =
			"Timebox: the team's daily store redis://127.0.0.1:1 cannot be reached (connect ECONNREFUSED 127.0.0.1:1), so new turns are refused until it answers.";
		const go = (turn: string) => ({
			session_id: "c1",
			hook_event_name: "UserPromptSubmit",
			turn_id: turn,
			prompt: "go",
			cwd: "/x",
		});
		expect(await hook(go("t1"), real, typo)).toEqual({ decision: "block", reason: `${note}\n${refusal}` });
		now += 5_001;
		expect(await hook(go("t2"), real, typo)).toEqual({ decision: "block", reason: refusal });
		// Spelled right, the refusal says the store is down once, with nothing before it.
		const closed = { ...typo, TIMEBOX_DAILY_STORE_FAILURE: "closed" };
		expect(await hook({ ...go("u1"), session_id: "c2" }, real, closed)).toEqual({ decision: "block", reason: refusal });
	});

	it("says a problem of this machine's ledger once per session, beside the team's store and without a team", async () => {
		// This machine's state folder is a file: its ledger cannot count, and says so. The store refuses at once (nothing
		// listens on port 1): the member's own TIMEBOX_DAILY counts on this machine meanwhile, and fails.
		const blocked = join(home, "blocked");
		writeFileSync(blocked, "");
		const real = { ...deps() };
		delete real.openDaily;
		const team = {
			...ENV,
			TIMEBOX_DAILY: "turns:5",
			TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1",
			XDG_STATE_HOME: blocked,
		};
		const replies = [
			await hook(
				{ session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "go", cwd: "/x" },
				real,
				team,
			),
			...(await toolCall("t1", real, team)),
			...(await toolCall("t1", real, team)),
		].map((reply) => JSON.stringify(reply));
		// One problem with each answer, each once: the store's, then this machine's ledger's.
		expect(replies[0]).toContain("cannot be reached");
		expect(replies[1]).toContain(`the daily ledger in ${blocked}/timebox cannot be used`);
		expect(replies.slice(2)).toEqual(["null", "null", "null"]);
		// Without a team, the same once.
		const alone = { TIMEBOX_DAILY: "turns:5", XDG_STATE_HOME: blocked };
		const c2 = { session_id: "c2", cwd: "/x" };
		const machine = await hook(
			{ ...c2, hook_event_name: "UserPromptSubmit", turn_id: "u1", prompt: "go" },
			real,
			alone,
		);
		expect(JSON.stringify(machine)).toContain(`the daily ledger in ${blocked}/timebox cannot be used`);
		const tool = {
			...c2,
			turn_id: "u1",
			tool_name: "Bash",
			hook_event_name: "PreToolUse",
			tool_input: { command: "ls" },
		};
		expect(await hook(tool, real, alone)).toBeNull();
		expect(
			await hook({ ...c2, hook_event_name: "UserPromptSubmit", turn_id: "u2", prompt: "go" }, real, alone),
		).toBeNull();
	});
});
