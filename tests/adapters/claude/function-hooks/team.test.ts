// A team's daily budget in Claude Code's hooks module: its calls reach the team's store through the plugin's batch script
// (here the same batch in this process, over a store in memory), batched so that a model call costs at most two
// processes; a prompt counted ahead that the store refuses is refused with the team's text; a store that cannot be
// reached is said once, counted on the machine meanwhile (or refuses new turns in the closed mode); a hook script that
// fails or hangs never holds a prompt.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModuleLedger } from "../../../../src/adapters/claude/function-hooks/daily.ts";
import { engineOf } from "../../../../src/adapters/claude/function-hooks/engine.ts";
import {
	ModuleTeamLedger,
	readBatchReply,
	TEAM_LINE,
	unusableTeam,
} from "../../../../src/adapters/claude/function-hooks/team.ts";
import { parseTeamRequest, runTeamBatch, type TeamRequest } from "../../../../src/adapters/team/batch.ts";
import type { TeamConfig } from "../../../../src/adapters/team/config.ts";
import {
	type Clock,
	DAILY_TAKEN_REFUSAL,
	type DailyBudget,
	NO_ADJUSTMENT,
	TEAM_HOP_FRESH_MS,
	TEAM_HOP_MS,
	TEAM_HOP_WAIT_MS,
	TEAM_RETRY_MS,
} from "../../../../src/core/index.ts";
import { FakeTime } from "../../../support/fake-time.ts";
import { batchLedgerOn, MemoryStore, TEAM_CONFIG } from "../../team/memory-store.ts";
import { FakeClaude, FakeDollar } from "./fake-engine.ts";

const SPENT = "Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.";
const DOWN = "connect ECONNREFUSED 127.0.0.1:6390";
const folders: string[] = [];

afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

type Ran = Promise<{ exitCode: number; stdout: string; stderr: string }>;

/** The plugin's batch script in this process: each team batch runs on a real team ledger over `store`. */
function hookScript(store: MemoryStore, folder: string, clock: Clock, config: Partial<TeamConfig>) {
	const batches: TeamRequest[] = [];
	const runner = (argv: readonly string[]): Ran | undefined => {
		if (argv[2] !== TEAM_LINE) return undefined;
		const request = parseTeamRequest(argv[4]);
		if ("error" in request) throw new Error(request.error);
		batches.push(request);
		const ledger = batchLedgerOn(
			store,
			folder,
			request.session,
			clock,
			{ member: "ann@m1 (claude)", ...config },
			{ ...(request.carry ? { carried: request.carry } : {}), waitMs: TEAM_HOP_WAIT_MS },
		);
		return runTeamBatch(request, ledger).then((reply) => ({
			exitCode: 0,
			stdout: `${JSON.stringify(reply)}\n`,
			stderr: "",
		}));
	};
	return { runner, batches };
}

interface Machine {
	claude: FakeClaude;
	/** This machine's own daily ledger's folder. */
	folder: string;
	/** The batches its hook script ran, in order. */
	batches: TeamRequest[];
}

/** A machine with a Claude Code session on function hooks, the team's daily budget set. */
async function machine(
	store: MemoryStore,
	session: string,
	options: { config?: Partial<TeamConfig>; env?: Record<string, string> } = {},
): Promise<Machine> {
	const claude = new FakeClaude();
	claude.$.sessionId = session;
	const env = {
		TIMEBOX_DAILY: "turns:2",
		TIMEBOX_DAILY_STORE: TEAM_CONFIG.url,
		TIMEBOX_TEAM: "platform",
		...options.env,
	};
	for (const [name, value] of Object.entries(env)) claude.$.variables.set(name, value);
	const folder = mkdtempSync(join(tmpdir(), "timebox-module-team-"));
	folders.push(folder);
	const script = hookScript(store, folder, claude.time, options.config ?? {});
	claude.$.runner = script.runner;
	await claude.start();
	return { claude, folder, batches: script.batches };
}

/** The calls of each batch, by name. */
function calls(batches: readonly TeamRequest[]): string[][] {
	return batches.map((batch) => batch.ops.map((op) => op.op));
}

/** The team's use today in the store. */
function used(store: MemoryStore, field: string): string | undefined {
	return store.hashes.get("timebox:{platform}:2026-11-22:use")?.get(field);
}

/** The prompt files of a machine's own daily ledger, today. */
function localPrompts(folder: string): string[] {
	const days = join(folder, "daily", "user");
	return readdirSync(days).flatMap((day) => readdirSync(join(days, day)));
}

describe("a team's daily budget on function hooks", () => {
	it("refuses a prompt counted ahead that the store gave to another machine, with the team's text", async () => {
		const time = new FakeTime();
		const store = new MemoryStore(time);
		const ann = await machine(store, "s-ann");
		const bob = await machine(store, "s-bob");
		expect(await bob.claude.command("today")).toContain("0 of 2 turns used");
		expect(await ann.claude.prompt("one")).toBeNull();
		await ann.claude.turnComplete("turn-1");
		ann.claude.time.advance(TEAM_HOP_FRESH_MS);
		expect(await ann.claude.prompt("two")).toBeNull();
		// Bob read the day just now: his prompt is counted ahead, and the store refuses it.
		expect(await bob.claude.prompt("three")).toBe(SPENT);
		expect(used(store, "prompts")).toBe("2");
		expect(calls(bob.batches).at(-1)).toEqual(["count", "reserve"]);
		// Read again, the day refuses his next prompt before any count is sent.
		bob.claude.time.advance(TEAM_HOP_FRESH_MS);
		expect(await bob.claude.prompt("four")).toBe(SPENT);
		expect(calls(bob.batches).at(-1)).toEqual([]);
		expect(bob.claude.$.ran.every((argv) => argv[2] === TEAM_LINE)).toBe(true);
	});

	it("keeps a prompt the store refused after counting it ahead out of the session's own turns, after a restart too", async () => {
		const time = new FakeTime();
		const store = new MemoryStore(time);
		const ann = await machine(store, "s-ann");
		const bob = await machine(store, "s-bob");
		expect(await bob.claude.command("turns:3")).toContain("Timebox set: 3 turns.");
		expect(await bob.claude.command("today")).toContain("0 of 2 turns used");
		expect(await ann.claude.prompt("one")).toBeNull();
		await ann.claude.turnComplete("turn-1");
		ann.claude.time.advance(TEAM_HOP_FRESH_MS);
		expect(await ann.claude.prompt("two")).toBe(null);
		expect(await bob.claude.prompt("three")).toBe(SPENT);
		expect(await bob.claude.command("status")).toContain("Timebox: no time limit | 3 turns left (0/3)\n");
		// Claude Code started again on the session: the plugin's store no longer holds the prompt that never ran.
		const again = new FakeClaude({}, bob.claude);
		again.$.sessionId = "s-bob";
		for (const [name, value] of bob.claude.$.variables) again.$.variables.set(name, value);
		again.$.runner = hookScript(store, bob.folder, again.time, {}).runner;
		await again.start();
		expect(await again.command("status")).toContain("Timebox: no time limit | 3 turns left (0/3)\n");
		// Nor does the day count the refused prompt's time: given one more turn, Bob's next prompt adds no agent time.
		bob.claude.time.advance(10 * 60_000);
		expect(await ann.claude.command("today +turns:1")).toContain("raised by 1 prompt");
		bob.claude.time.advance(TEAM_HOP_FRESH_MS);
		expect(await bob.claude.prompt("four")).toBeNull();
		// (Counted from the refused prompt, it would be the 10 minutes since.)
		expect(used(store, "agentMs")).toBeUndefined();
	});

	it("sends a model call's reservation at its start and its use at its answer: at most two processes a call", async () => {
		const store = new MemoryStore(new FakeTime());
		const { claude, batches } = await machine(store, "s-ann");
		expect(await claude.prompt("one")).toBeNull();
		expect(calls(batches)).toEqual([[], ["count", "reserve"]]);
		claude.time.advance(500);
		await claude.step("turn-1", 0, { toolUses: 1 });
		await claude.tool();
		await claude.step("turn-1", 1);
		await claude.turnComplete("turn-1");
		// The first call was reserved with its prompt; each answer's use settles its call's reservation.
		expect(calls(batches).slice(2)).toEqual([["use"], ["reserve"], ["use"]]);
		expect(used(store, "tokens")).toBe("230");
		expect(used(store, "agentMs")).toBe("500");
		// A day read longer ago than TEAM_HOP_FRESH_MS is read again before the next event.
		claude.time.advance(TEAM_HOP_FRESH_MS);
		expect(await claude.command("today")).toContain("1 of 2 turns used");
		// A daily command reads the day and the team's store beside it in one batch, and writes nothing.
		expect(calls(batches).at(-1)).toEqual(["view"]);
		// Its writes, learnt from the rules on that reading, go in a batch of their own, answered from the store.
		const before = batches.length;
		expect(await claude.command("today +turns:1")).toContain("raised by 1 prompt");
		expect(calls(batches).slice(before)).toEqual([["view"], ["adjust"]]);
		// The raise is the admin's key, never the day's use that every member writes.
		expect(store.hashes.get("timebox:{platform}:raise:2026-11-22")?.get("addPrompts")).toBe("1");
		expect(used(store, "addPrompts")).toBeUndefined();
	});

	it("says once that the store cannot be reached, counts on this machine meanwhile, and sends it when it is back", async () => {
		const store = new MemoryStore(new FakeTime());
		const { claude, folder } = await machine(store, "s-ann");
		store.down = DOWN;
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		const said = `Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (${DOWN}): this machine counts today's use on its own until it answers, then sends it to the team.`;
		expect(claude.$.logged).toEqual([said]);
		expect(localPrompts(folder)).toContain("prompt-1");
		claude.time.advance(1_000);
		expect(await claude.prompt("two")).toBeNull();
		expect(claude.$.logged).toEqual([said]);
		store.down = null;
		claude.time.advance(TEAM_RETRY_MS);
		expect(await claude.command("today")).toContain("2 of 2 turns used");
		expect(used(store, "prompts")).toBe("2");
	});

	it("keeps what a member with no daily budget of its own uses while the store is down, and sends it when it is back", async () => {
		const store = new MemoryStore(new FakeTime());
		const admin = await machine(store, "s-admin", { env: { TIMEBOX_DAILY: "" } });
		expect(await admin.claude.command("team set turns:20")).toContain("limits are now 20 turns a day");
		const { claude } = await machine(store, "s-ann", { env: { TIMEBOX_DAILY: "" } });
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		expect(used(store, "prompts")).toBe("1");
		store.down = DOWN;
		for (const [index, text] of ["two", "three"].entries()) {
			claude.time.advance(TEAM_HOP_FRESH_MS);
			expect(await claude.prompt(text)).toBeNull();
			await claude.turnComplete(`turn-${index + 2}`);
		}
		expect(claude.$.logged.filter((line) => line.includes("cannot be reached"))).toHaveLength(1);
		expect(used(store, "prompts")).toBe("1");
		store.down = null;
		claude.time.advance(TEAM_RETRY_MS);
		expect(await claude.prompt("four")).toBeNull();
		await claude.turnComplete("turn-4");
		// Each batch is a process of its own: the outage it carried over keeps the prompts, sent once it answers.
		expect(used(store, "prompts")).toBe("4");
	});

	it("refuses new turns while the store cannot be reached, in the closed mode", async () => {
		const store = new MemoryStore(new FakeTime());
		const closed = { config: { failure: "closed" as const }, env: { TIMEBOX_DAILY_STORE_FAILURE: " Closed " } };
		const { claude } = await machine(store, "s-ann", closed);
		store.down = DOWN;
		const refused = `Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (${DOWN}), so new turns are refused until it answers.`;
		// Said once: the problem is what the refusal says.
		expect(await claude.prompt("one")).toBe(refused);
		// Read just before the store went down: the prompt counted ahead is refused when the store cannot count it.
		const other = await machine(store, "s-bob", closed);
		store.down = null;
		expect(await other.claude.command("today")).toContain("0 of 2 turns used");
		store.down = DOWN;
		expect(await other.claude.prompt("two")).toBe(refused);
	});

	it("goes on when the hook script fails, said once; refuses new turns then in the closed mode", async () => {
		const store = new MemoryStore(new FakeTime());
		const { claude } = await machine(store, "s-ann");
		claude.$.runner = () => Promise.resolve({ exitCode: 2, stdout: "", stderr: "sh: 1: exec: node: not found\n" });
		expect(await claude.prompt("one")).toBeNull();
		expect(claude.$.logged).toEqual([
			"Timebox: the team's daily store cannot be reached through the plugin's batch script (sh: 1: exec: node: not found), so this session's use is not counted for the team until it answers.",
		]);
		// The prompt's count was not sent: the hook script is not started again for a while.
		expect(claude.$.ran).toHaveLength(1);
		claude.time.advance(TEAM_RETRY_MS - 1);
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("two")).toBeNull();
		expect(claude.$.ran).toHaveLength(1);

		const closed = await machine(store, "s-bob", { env: { TIMEBOX_DAILY_STORE_FAILURE: "closed" } });
		const runner = closed.claude.$.runner;
		closed.claude.$.runner = () => Promise.reject(new Error("spawn sh ENOENT"));
		const refused =
			"Timebox: the team's daily store cannot be reached through the plugin's batch script (spawn sh ENOENT), so new turns are refused until it answers.";
		expect(await closed.claude.prompt("one")).toContain(refused);
		// Read, then the hook script fails at the count: the prompt is refused.
		closed.claude.$.runner = runner;
		closed.claude.time.advance(TEAM_RETRY_MS);
		expect(await closed.claude.command("today")).toContain("0 of 2 turns used");
		closed.claude.$.runner = () => Promise.reject("killed");
		expect(await closed.claude.prompt("two")).toContain(
			"Timebox: the team's daily store cannot be reached through the plugin's batch script (killed)",
		);
	});

	it("holds a machine with no daily budget to the limits the admin set in the store; a member cannot change them", async () => {
		const store = new MemoryStore(new FakeTime());
		const none = { env: { TIMEBOX_DAILY: "" } };
		const admin = await machine(store, "s-admin", none);
		expect(await admin.claude.command("team set turns:1")).toBe(
			"Timebox: the team platform's limits are now 1 turn a day, in its store, for every member from their next check.",
		);
		const ann = await machine(store, "s-ann", none);
		expect(await ann.claude.prompt("one")).toBeNull();
		expect(used(store, "prompts")).toBe("1");
		store.member = true;
		for (const words of ["today off", "today +turns:5", "team set turns:100", "team set off"]) {
			expect(await ann.claude.command(words)).toBe(
				"Timebox: only the team's admin can change its budget (the store refused this user). Ask with /timebox team ask +30m <why>.",
			);
		}
		expect(await ann.claude.command("team ask +turns:1 one more")).toContain("asked the team platform's admin");
		ann.claude.time.advance(TEAM_HOP_FRESH_MS);
		await ann.claude.turnComplete("turn-1");
		expect(await ann.claude.prompt("two")).toBe(
			"Timebox: the team's budget for today is spent (1 turn). It resets at midnight UTC.",
		);
		const shown = await admin.claude.command("team");
		expect(shown.split("\n")[0]).toMatch(/^Timebox team platform: 1 turn a day, set by ann@m1 \(claude\) on /);
		expect(shown).toContain('asks for 1 turn: "one more"');
	});

	it("refuses new turns in the closed mode while the hook script fails, with no daily budget of the session's own", async () => {
		const store = new MemoryStore(new FakeTime());
		const { claude } = await machine(store, "s-ann", {
			env: { TIMEBOX_DAILY: "", TIMEBOX_DAILY_STORE_FAILURE: "closed" },
		});
		claude.$.runner = () => Promise.reject(new Error("spawn sh ENOENT"));
		expect(await claude.prompt("one")).toContain(
			"Timebox: the team's daily store cannot be reached through the plugin's batch script (spawn sh ENOENT), so new turns are refused until it answers.",
		);
	});

	it("answers a daily command with why the hook script could not run it", async () => {
		const store = new MemoryStore(new FakeTime());
		const { claude } = await machine(store, "s-ann");
		claude.$.runner = () => Promise.resolve({ exitCode: 2, stdout: "", stderr: "sh: 1: exec: node: not found\n" });
		expect(await claude.command("team")).toBe(
			"Timebox: the team's daily store cannot be reached through the plugin's batch script (sh: 1: exec: node: not found), so this session's use is not counted for the team until it answers.",
		);
	});

	it("never holds a prompt on a hook script that does not end", async () => {
		const store = new MemoryStore(new FakeTime());
		const { claude } = await machine(store, "s-ann");
		claude.$.runner = () => new Promise(() => {});
		let done = false;
		const prompt = claude.prompt("one").finally(() => {
			done = true;
		});
		for (let tries = 0; tries < 20 && !done; tries++) {
			await new Promise((resolve) => setImmediate(resolve));
			claude.time.advance(TEAM_HOP_MS);
		}
		expect(await prompt).toBeNull();
		expect(claude.$.logged[0]).toContain(`(no answer within ${TEAM_HOP_MS} ms)`);
	});

	it("reads the team's store for a daily budget that cannot be read (its limits may be there), not for a store without a team", async () => {
		const store = new MemoryStore(new FakeTime());
		const bad = await machine(store, "s-ann", { env: { TIMEBOX_DAILY: "turns:lots" } });
		await bad.claude.prompt("one");
		// The session has no daily budget of its own: the store keeps no limits, so nothing counts for the team.
		expect(bad.batches.map((batch) => batch.budgets)).toEqual([[], []]);
		expect(used(store, "prompts")).toBeUndefined();
		const home = mkdtempSync(join(tmpdir(), "timebox-module-team-home-"));
		folders.push(home);
		const alone = await machine(store, "s-bob", { env: { TIMEBOX_TEAM: " ", HOME: home } });
		expect(await alone.claude.prompt("one")).toBeNull();
		expect(alone.claude.$.ran.filter((argv) => argv[2] === TEAM_LINE)).toEqual([]);
		expect(readdirSync(join(home, ".local/state/timebox/daily/user"))).toHaveLength(1);
	});
});

describe("the team's ledger of the hooks module", () => {
	it("says the generic refusal when the day read after a refused count holds no budget", async () => {
		const $ = new FakeDollar(new FakeTime());
		$.runner = () =>
			Promise.resolve({
				exitCode: 0,
				stdout: JSON.stringify({ counted: [false], standings: [], problems: [], carry: null }),
				stderr: "",
			});
		const ledger = new ModuleTeamLedger(() => engineOf($), {
			sessionId: "s1",
			clock: $.time,
			budgets: [],
			closed: false,
			root: "/plugins/timebox",
			team: { name: "platform", zone: "UTC" },
		});
		expect(ledger.takenRefusal()).toBe(DAILY_TAKEN_REFUSAL);
		expect(await ledger.settle()).toBe(true);
		expect(ledger.countPrompt([], [])).toBe(true);
		expect(await ledger.settle()).toBe(false);
		expect(ledger.takenRefusal()).toBe(DAILY_TAKEN_REFUSAL);
		// An adjustment outside a prepared daily command is not done, and nothing is sent for it.
		expect(
			ledger.adjust(
				{ scope: "user", source: "x", limits: { timeMs: null, turns: 1, tokens: null, cost: null } },
				{ addTimeMs: 0, addPrompts: 1, addTokens: 0, addCost: 0, off: false },
			),
		).toEqual({ failed: "Timebox: the team's daily store did not get it (it was not prepared). Nothing changed." });
		expect(ledger.team).toEqual({ name: "platform", zone: "UTC" });
		expect($.ran[0]?.slice(4)).toEqual([
			JSON.stringify({ session: "s1", budgets: [], ops: [{ op: "count", limits: [], budgets: [] }] }),
			"/plugins/timebox",
		]);
		expect(ledger.problem()).toBeNull();
	});

	it("reads the batch script's reply, or says why it cannot", () => {
		const ran = (exitCode: number, stdout: string, stderr = "") => readBatchReply({ exitCode, stdout, stderr });
		expect(ran(3, "")).toEqual({ error: "the batch script exited with 3" });
		expect(ran(1, "", "first\nsecond")).toEqual({ error: "first" });
		expect(ran(0, "Segmentation fault")).toEqual({ error: "the batch script's reply is not JSON" });
		expect(ran(0, '{"error":"timebox: the team request is not JSON"}')).toEqual({
			error: "timebox: the team request is not JSON",
		});
		for (const unreadable of ["null", "[]", '{"counted":[]}', "7", '{"counted":[],"standings":[],"problem":null}'])
			expect(ran(0, unreadable)).toEqual({ error: "the batch script's reply cannot be read" });
		const reply = { counted: [], standings: [], problems: [], carry: null };
		expect(ran(0, JSON.stringify(reply))).toEqual(reply);
	});
});

const LIMITS = { timeMs: null, turns: 1, tokens: null, cost: null };

describe("a team set wrongly, on function hooks", () => {
	const WORDS = "The daily budget is this machine's alone.";
	const CASES: [string, Record<string, string>, string][] = [
		["a team name with a space", { TIMEBOX_TEAM: "plat form" }, `TIMEBOX_TEAM "plat form" is not a team name`],
		["a store alone", { TIMEBOX_TEAM: "" }, "TIMEBOX_DAILY_STORE is set without TIMEBOX_TEAM (the team's name)."],
		["a team alone", { TIMEBOX_DAILY_STORE: " " }, "TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE"],
		["an address without a port", { TIMEBOX_DAILY_STORE: "redis://127.0.0.1/0" }, "names no port"],
		["a zone no one knows", { TIMEBOX_TEAM_TZ: "Mars/Olympus" }, `TIMEBOX_TEAM_TZ "Mars/Olympus" is not a time zone`],
	];

	it.each(CASES)("says what is wrong (%s) once, in /timebox team again, and runs no batch", async (_, env, why) => {
		const store = new MemoryStore(new FakeTime());
		const ann = await machine(store, "s-ann", { env: { TIMEBOX_DAILY: "", ...env } });
		expect(await ann.claude.prompt("one")).toBeNull();
		expect(await ann.claude.prompt("two")).toBeNull();
		const said = ann.claude.$.logged.filter((line) => line.includes(why));
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(/^Timebox: .* The daily budget is this machine's alone\.$/);
		const team = await ann.claude.command("team");
		expect(team).toContain(why);
		expect(team).toContain(WORDS);
		// Nothing claims a team's day that is not there.
		expect(await ann.claude.command("today")).not.toContain("store keeps no limits");
		expect(await ann.claude.command("team set 4h")).toContain(why);
		expect(ann.batches).toEqual([]);
		expect(store.hashes.size).toBe(0);
	});

	it.each(CASES)(
		"in the closed mode, refuses every new turn with what is wrong (%s), said once",
		async (_, env, why) => {
			const store = new MemoryStore(new FakeTime());
			const ann = await machine(store, "s-ann", {
				env: { TIMEBOX_DAILY: "", TIMEBOX_DAILY_STORE_FAILURE: "closed", ...env },
			});
			const refused = await ann.claude.prompt("one");
			expect(refused).toContain(why);
			expect(refused).toMatch(
				/^Timebox: .* The team's budget cannot be counted, so new turns are refused until it is set right \(TIMEBOX_DAILY_STORE_FAILURE is "closed"\)\.$/,
			);
			expect(await ann.claude.prompt("two")).toBe(refused);
			// The refusal says it: nothing says it again beside it.
			expect(ann.claude.$.logged.filter((line) => line.includes(why))).toEqual([]);
			expect(await ann.claude.command("today")).toBe(refused);
			expect(await ann.claude.command("today off")).toBe(refused);
			expect(await ann.claude.command("team")).toContain(why);
			expect(ann.batches).toEqual([]);
			expect(store.hashes.size).toBe(0);
		},
	);

	it("in the closed mode, refuses new turns while a daily budget of the session's own has room, and shows both", async () => {
		const store = new MemoryStore(new FakeTime());
		const state = mkdtempSync(join(tmpdir(), "timebox-module-state-"));
		folders.push(state);
		const env = {
			TIMEBOX_DAILY: "turns:5",
			TIMEBOX_TEAM: "platform",
			TIMEBOX_TEAM_TZ: "Europe/Berln",
			TIMEBOX_DAILY_STORE_FAILURE: "clsoed",
			XDG_STATE_HOME: state,
		};
		const ann = await machine(store, "s-ann", { env });
		const refused =
			'Timebox: TIMEBOX_TEAM_TZ "Europe/Berln" is not a time zone (Europe/Berlin, UTC). The team\'s budget cannot be counted, so new turns are refused until it is set right (TIMEBOX_DAILY_STORE_FAILURE is "clsoed", taken as closed).';
		expect(await ann.claude.prompt("one")).toBe(refused);
		expect(await ann.claude.command("today")).toBe(
			`Timebox today: 1 daily budget.\nEvery session (TIMEBOX_DAILY): 0 of 5 prompts used, 5 left. Used by no session yet.\n${refused}`,
		);
		expect(ann.batches).toEqual([]);
	});

	it("leaves every count to this machine's ledger, and with none counts nothing and refuses nothing", async () => {
		const why = 'Timebox: TIMEBOX_TEAM "plat form" is not a team name. The daily budget is this machine\'s alone.';
		const alone = unusableTeam(why, undefined);
		const budget: DailyBudget = { scope: "user", source: "TIMEBOX_DAILY", limits: LIMITS };
		expect(alone.team).toEqual({ unusable: why });
		expect([alone.problem(), alone.problem()]).toEqual([why, null]);
		expect(alone.standings([budget])).toEqual([]);
		expect(alone.countPrompt([budget], [1])).toBe(true);
		expect(alone.addUse([budget], { tokens: 5 })).toBeUndefined();
		expect(alone.adjust(budget, NO_ADJUSTMENT)).toBeUndefined();
		await alone.refresh();
		expect(await alone.settle()).toBe(true);
		expect(alone.takenRefusal()).toBe(DAILY_TAKEN_REFUSAL);
		const calls: string[] = [];
		/** Records the call's name and answers `value`. */
		const called =
			<T>(name: string, value: T) =>
			() => {
				calls.push(name);
				return value;
			};
		const machine: ModuleLedger = {
			standings: called("standings", []),
			countPrompt: called("count", false),
			addUse: called("use", undefined),
			adjust: called("adjust", "done" as const),
			problem: () => "the machine's own problem",
			refresh: called("refresh", Promise.resolve()),
			settle: called("settle", Promise.resolve(false)),
			takenRefusal: () => "taken on this machine",
		};

		// In the closed mode nothing is counted: every new turn is refused before.
		const closed = unusableTeam(why, machine, { team: { name: "plat form", zone: "UTC" }, clock: { now: () => 0 } });
		expect(closed.countPrompt([budget], [1])).toBe(false);
		expect(calls).toEqual([]);

		const counted = unusableTeam(why, machine);
		expect([counted.problem(), counted.problem()]).toEqual([why, "the machine's own problem"]);
		expect(counted.countPrompt([budget], [1])).toBe(false);
		counted.addUse([budget], { tokens: 5 });
		expect(counted.adjust(budget, NO_ADJUSTMENT)).toBe("done");
		await counted.refresh();
		expect(await counted.settle()).toBe(false);
		expect(counted.standings([budget])).toEqual([]);
		expect(counted.takenRefusal()).toBe("taken on this machine");
		expect(calls).toEqual(["count", "use", "adjust", "refresh", "settle", "standings"]);
	});

	it("counts a daily budget of the session's own on this machine meanwhile", async () => {
		const store = new MemoryStore(new FakeTime());
		const state = mkdtempSync(join(tmpdir(), "timebox-module-state-"));
		folders.push(state);
		const env = { TIMEBOX_DAILY: "turns:1", TIMEBOX_TEAM: "plat form", XDG_STATE_HOME: state };
		const ann = await machine(store, "s-ann", { env });
		expect(await ann.claude.prompt("one")).toBeNull();
		await ann.claude.turnComplete("turn-1");
		expect(await ann.claude.prompt("two")).toBe("Timebox: today's budget is spent (1 prompt). It resets at midnight.");
		expect(localPrompts(join(state, "timebox")).filter((name) => name.startsWith("prompt-"))).toEqual(["prompt-1"]);
		// The open mode shows the day without the team's problem: /timebox team says it.
		expect(await ann.claude.command("today")).not.toContain("plat form");
		expect(ann.batches).toEqual([]);
	});
});

describe("a team's day that cannot be read, on function hooks", () => {
	it("says so to /timebox today, not that the store keeps no limits, and a raise changes nothing", async () => {
		const store = new MemoryStore(new FakeTime());
		const admin = await machine(store, "s-admin", { env: { TIMEBOX_DAILY: "" } });
		expect(await admin.claude.command("team set 4h turns:200 $50")).toContain("limits are now");
		const wrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";
		store.failingScript.set("read", wrongType);
		admin.claude.time.advance(TEAM_HOP_FRESH_MS);
		const unread = `Timebox: today's use could not be read from the team's daily store ${TEAM_CONFIG.shown} (${wrongType}), so the team's standing today is not known.`;
		expect(await admin.claude.command("today +30m")).toBe(`${unread} Nothing changed.`);
		expect(await admin.claude.command("today")).toBe(unread);
		expect([...store.hashes.keys()].filter((key) => key.includes(":raise:"))).toEqual([]);
	});

	it("says so when the batch script itself fails", async () => {
		const store = new MemoryStore(new FakeTime());
		const ann = await machine(store, "s-ann", { env: { TIMEBOX_DAILY: "" } });
		ann.claude.$.runner = async () => ({ exitCode: 1, stdout: "", stderr: "Error: Cannot find module\n  at x" });
		expect(await ann.claude.command("today +turns:1")).toBe(
			"Timebox: today's use could not be read from the team's daily store (Error: Cannot find module), so the team's standing today is not known. Nothing changed.",
		);
	});
});
