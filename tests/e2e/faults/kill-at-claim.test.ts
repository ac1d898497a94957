// The on-stop command when the process that stops the budget is killed (`kill -9` of its whole process group, as a
// Ctrl+C or a closed terminal ends it) at the stop's claim itself: a watch on the ledger's folder kills it the moment
// the claim file appears, before it could start the command (or, when the
// kill lands a moment later, while its wrapper takes the mark). On each kind of host, 20 stops killed at their claim,
// one after the other in one session: every command runs exactly once, and a command the killed process never started
// is started by the next event of the session, which tells the user once that it ran late.
//
// The hosts: Claude Code's hook script (started as Claude Code starts it), pi (a Node process with pi's SDK and the
// package's bundle, as pi loads it: the pi CLI takes several seconds to start, forty of them would take minutes),
// opencode (the package's `./server` plugin in opencode's own Bun, its hooks called in opencode's order: `opencode run`
// takes seconds to start as well), and Claude Code's hooks module (in the real `claude`). The module asks Claude Code
// to start the command before the store write that holds its claim reaches the file, so a kill at its claim mostly
// finds the command started (seen: 15 of 20), and a command that is still running then (each sleeps a second first)
// must be in a session of its own to outlive the kill of Claude Code's group: before it was, all 20 were lost.
//
// A kill that lands after the killed process's spawn, while its wrapper has not yet taken the mark, leaves the claim
// with no mark for a moment: a next event that comes then starts the command too. Without the mark both would run it;
// with it, one does (the race itself, with and without the mark, is in tests/adapters/node/node.test.ts).

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_FOLDER } from "../../../src/core/index.ts";
import {
	CLAUDE_BIN,
	claudeEnv,
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	PLUGIN_DIR,
	type Sandbox,
	TIMEBOX_BIN,
} from "../claude/support/claude.ts";
import { ensureOpencode, OPENCODE } from "../opencode/support.ts";

const LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";
/** Stops killed at their claim, per kind of host. */
const KILLS = 20;
/** Tries at most this many stops to land the kills: a stop whose process ended before the watch could kill it is not one. */
const TRIES = 30;
/**
 * In the real claude, not every stop can be killed at its claim: a killed claude may leave its store's lock file
 * (`<store file>.lock`) behind, and a later claude writes the store only once it takes that lock as stale, which took
 * it longer than a stop (seen: no write in 20 s, then one as it ends). So the test removes the lock a claude it killed
 * left, as that claude's staleness would, and the next stop can be killed too. A stop whose write comes only as claude
 * ends runs its command as any stop does, unkilled. Seen, when the locks were left: 20 kills took 37 stops on a quiet
 * machine and 45 in CI, two of every three right after a kill; the bound leaves room for more.
 */
const CLAUDE_TRIES = 3 * KILLS;
/**
 * How long a claude whose stop can be killed is kept open for its store's write. Seen: the write came 20 to 50 ms after
 * the prompt's result whenever it came while claude was open, and never later than that; a claude that waits for a lock
 * writes only as it ends. 3 s is 60 times the latest seen, and each stop that cannot be killed costs it whole.
 */
const CLAUDE_WRITE_WAIT_MS = 3_000;
const REPO = join(import.meta.dirname, "../../..");

let root: string;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-kill-at-claim-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A process of the session: what it wrote, and whether the watch killed it at a claim (whose budget is named). */
interface Ran {
	output: string;
	killedAt: string | null;
}

/**
 * Where a stop's claim appears: the folder to watch, and the budget whose stop a change there claimed, if any; `arm`
 * takes what is there before a run as not claimed by it.
 */
interface Claims {
	folder: string;
	claimed(name: string | null): string | null;
	arm?(): void;
}

/** The claims of the file ledger: one file per claim, `<budget>.spent.json` for a stop. */
function fileClaims(ledger: string): Claims {
	return {
		folder: ledger,
		claimed: (name) => (name?.endsWith(".spent.json") ? name.slice(0, -".spent.json".length) : null),
	};
}

/**
 * Runs `start()` to its end; `claims` watched meanwhile (when given): the moment a stop's claim appears there, the
 * process and every process of its group are killed with SIGKILL, as a Ctrl+C or a closed terminal ends a host and
 * whatever it started there. Each host's process is started in a group of its own (`detached`).
 */
function runKillingAtClaim(start: () => ChildProcess, claims: Claims | null): Promise<Ran> {
	return new Promise((done) => {
		let claimed: string | null = null;
		claims?.arm?.();
		const child = start();
		const watcher =
			claims === null
				? null
				: watch(claims.folder, (_event, name) => {
						if (claimed !== null) return;
						claimed = claims.claimed(name);
						if (claimed !== null) killGroup(child);
					});
		let output = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			output += chunk.toString();
		});
		child.once("close", (_code, signal) => {
			watcher?.close();
			done({ output, killedAt: signal === "SIGKILL" ? claimed : null });
		});
	});
}

/** Kills a process and its whole process group (it leads one: started `detached`). */
function killGroup(child: ChildProcess): void {
	try {
		if (child.pid === undefined) throw new Error("not started");
		process.kill(-child.pid, "SIGKILL");
	} catch {
		child.kill("SIGKILL");
	}
}

/** The lines the on-stop commands wrote, once they stopped coming: one per run. */
async function settledLines(file: string, expected: number): Promise<string[]> {
	const read = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
	const deadline = Date.now() + 15_000;
	while (read().length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
	// Anything run twice would come within a moment of the first.
	await new Promise((resolve) => setTimeout(resolve, 500));
	return read();
}

/** What a host does once per stop: a process (or several) that loads the session, sets a budget, and stops it. */
interface KillHost {
	/** The folder the stops' claims appear in. */
	folder: string;
	/** How many stops may be tried to land the kills (`TRIES` unless given). */
	tries?: number;
	/** Whether the command of the stop of `budget` was recovered: the recovery's claim is there. */
	recovered(budget: string): boolean;
	/**
	 * The next event(s) of the session, with the budget's on-stop command `command` (none: only the session's load,
	 * after the last kill); the stop it ends with is killed at its claim.
	 */
	next(command: string | null): Promise<Ran>;
}

/**
 * Stops a budget and kills its process at the claim until `KILLS` kills landed, each time recovering the stop before it
 * in the next event; then checks that every command ran exactly once, and that the next event told the user it ran
 * late exactly when the kill came before the start (the recovery's claim is there), and never otherwise.
 */
async function killStopsAtTheirClaim(
	host: KillHost,
	ran: string,
): Promise<{ kills: number; late: number; tries: number }> {
	mkdirSync(host.folder, { recursive: true });
	const kills: string[] = [];
	let previous: string | null = null;
	let tries = 0;
	while (kills.length < KILLS && tries < (host.tries ?? TRIES)) {
		tries++;
		// A command that is still running when its starter's group is killed (a kill that lands after its start): it
		// must be in a group of its own by then, or the kill takes it too, its mark taken and nothing to recover.
		const run = await host.next(`sleep 1; echo stop-${tries} >> '${ran}'`);
		checkLate(host, previous, run.output);
		previous = run.killedAt;
		if (run.killedAt !== null) kills.push(run.killedAt);
	}
	const last = await host.next(null);
	checkLate(host, previous, last.output);
	expect(kills).toHaveLength(KILLS);
	const lines = await settledLines(ran, tries);
	expect(lines.toSorted()).toEqual(Array.from({ length: tries }, (_, at) => `stop-${at + 1}`).toSorted());
	return { kills: kills.length, late: kills.filter((budget) => host.recovered(budget)).length, tries };
}

/**
 * The output of the event after a stop killed at its claim: the late notice, once, exactly when that event recovered the
 * command (the recovery's claim is there); none when the killed process's wrapper had taken the mark.
 */
function checkLate(host: KillHost, killed: string | null, output: string): void {
	const said = output.split(LATE).length - 1;
	const recovered = killed !== null && host.recovered(killed);
	expect(said, `the late notice after the kill of ${killed}`).toBe(recovered ? 1 : 0);
}

/** The file ledger's hosts: whether a stop's command was recovered, by the recovery's claim file. */
function fileLedgerHost(ledger: string, next: KillHost["next"]): KillHost {
	return { folder: ledger, recovered: (budget) => existsSync(join(ledger, `${budget}.onStopRecovered.json`)), next };
}

// The hosts' sessions share nothing (each its own folders, ledger and fake model), so they run side by side: the
// file takes about as long as its longest case, Claude Code's hooks module, instead of the sum of the four.
describe.concurrent("a process killed at the claim of the stop it makes", () => {
	it("on the hook script, as Claude Code starts it: every on-stop command runs once, 20 kills at the claim", async () => {
		const data = join(root, "hooks");
		const ran = join(root, "hooks-ran.txt");
		const session = "3f1c2a4e-0000-4000-8000-00000000c1a1";
		let prompts = 0;
		/** Claude Code's UserPromptSubmit of `prompt`, to the hook script. */
		const hook = (prompt: string) => () => {
			const child = spawn(process.execPath, [TIMEBOX_BIN, "hook"], {
				env: { PATH: process.env.PATH, HOME: join(root, "hooks-home"), CLAUDE_PLUGIN_DATA: data },
				stdio: ["pipe", "pipe", "ignore"],
				detached: true,
			});
			const input = { session_id: session, hook_event_name: "UserPromptSubmit", prompt, prompt_id: `p${++prompts}` };
			child.stdin?.end(JSON.stringify(input));
			return child;
		};
		const ledger = join(data, LEDGER_FOLDER);
		const host = fileLedgerHost(ledger, async (command) => {
			// The budget line (or a status look after the last kill) is the next event after a kill.
			const set = await runKillingAtClaim(
				hook(`/timebox ${command === null ? "status" : `turns:1 -- ${command}`}`),
				null,
			);
			if (command === null) return set;
			expect(set.output).toContain("Timebox set: 1 turn.");
			await runKillingAtClaim(hook("one"), null);
			const stop = await runKillingAtClaim(hook("two"), fileClaims(ledger));
			return { output: set.output, killedAt: stop.killedAt };
		});
		const { kills, late } = await killStopsAtTheirClaim(host, ran);
		console.log(`hook script: ${kills} kills at the claim, ${late} of them before the start (run late)`);
	});

	it("on pi (pi's SDK with the package's bundle): every on-stop command runs once, 20 kills at the claim", async () => {
		const home = join(root, "pi-home");
		const cwd = join(root, "pi-project");
		const agentDir = join(home, ".pi/agent");
		mkdirSync(cwd, { recursive: true });
		const ran = join(root, "pi-ran.txt");
		const driver = join(REPO, "tests/e2e/support/pi-stop-driver.mjs");
		const env = { PATH: process.env.PATH, HOME: home, PI_OFFLINE: "1", PI_CODING_AGENT_DIR: agentDir };
		const ledger = join(agentDir, LEDGER_FOLDER);
		const host = fileLedgerHost(ledger, (command) =>
			runKillingAtClaim(
				() =>
					spawn(process.execPath, [driver, join(root, "pi-sessions"), command ?? ""], {
						cwd,
						env,
						stdio: ["ignore", "pipe", "ignore"],
						detached: true,
					}),
				command === null ? null : fileClaims(ledger),
			),
		);
		const { kills, late } = await killStopsAtTheirClaim(host, ran);
		console.log(`pi: ${kills} kills at the claim, ${late} of them before the start (run late)`);
	});

	describe("on opencode", () => {
		beforeAll(async () => {
			await ensureOpencode();
		}, 600_000);

		it("(its ./server plugin in opencode's Bun): every on-stop command runs once, 20 kills at the claim", async () => {
			const state = join(root, "opencode-state");
			const ran = join(root, "opencode-ran.txt");
			const driver = join(REPO, "tests/e2e/support/opencode-stop-driver.ts");
			// The fake host's own folders (which it never writes to: the plugin has the real ones) go in this test's folder.
			const tmp = join(root, "opencode-tmp");
			mkdirSync(tmp, { recursive: true });
			const env = {
				PATH: process.env.PATH,
				HOME: join(root, "opencode-home"),
				XDG_STATE_HOME: state,
				BUN_BE_BUN: "1",
				TMPDIR: tmp,
			};
			const ledger = join(state, "timebox", "opencode", LEDGER_FOLDER);
			const host = fileLedgerHost(ledger, (command) =>
				runKillingAtClaim(
					() =>
						spawn(OPENCODE, [driver, command ?? ""], {
							cwd: REPO,
							env,
							stdio: ["ignore", "pipe", "ignore"],
							detached: true,
						}),
					command === null ? null : fileClaims(ledger),
				),
			);
			const { kills, late } = await killStopsAtTheirClaim(host, ran);
			console.log(`opencode: ${kills} kills at the claim, ${late} of them before the start (run late)`);
		});
	});

	describe("on Claude Code's hooks module", () => {
		let api: FakeAnthropic;
		let box: Sandbox;
		beforeAll(async () => {
			await ensureClaudeCode();
			api = await FakeAnthropic.start();
			box = await createSandbox("function hooks");
		}, 600_000);
		afterAll(async () => {
			await api.close();
			await box.cleanup();
		});

		it("(in the real claude): every on-stop command runs once, 20 kills at the claim", async () => {
			const ran = join(root, "claude-ran.txt");
			const store = join(box.home, ".claude/plugins/store");
			const claims = new ModuleClaims(store);
			let runs = 0;
			const host: KillHost = {
				folder: store,
				tries: CLAUDE_TRIES,
				recovered: (budget) =>
					claims.held().some((claim) => claim.kind === "onStopRecovered" && claim.budgetId === budget),
				async next(command) {
					// stderr to a file: Timebox writes a headless run's warnings to Claude Code's stderr by its path.
					const stderr = join(box.root, `stderr-${++runs}.txt`);
					const claude = new StreamedClaude(
						spawn(
							"sh",
							["-c", `exec "$0" "$@" 2>'${stderr}'`, CLAUDE_BIN, ...STREAMED, ...(runs > 1 ? ["--continue"] : [])],
							{
								cwd: box.cwd,
								env: claudeEnv({ home: box.home, cwd: box.cwd, apiUrl: api.url }),
								stdio: ["pipe", "pipe", "ignore"],
								detached: true,
							},
						),
					);
					const ended = runKillingAtClaim(() => claude.child, command === null ? null : claims);
					if (command === null) await claude.send("/timebox status");
					else {
						await claude.send(`/timebox turns:1 -- ${command}`);
						api.reply({ text: "ONE" });
						await claude.send("one");
						await claude.send("two");
						// Claude Code goes on after a stop, the session open: the store is written a moment after the reply.
						await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, CLAUDE_WRITE_WAIT_MS))]);
					}
					claude.child.stdin?.end();
					const { killedAt } = await ended;
					// The killed claude holds no lock any more: what it left is stale, and no other claude runs meanwhile.
					if (killedAt !== null) for (const lock of claims.locks()) rmSync(lock, { recursive: true, force: true });
					return { output: readFileSync(stderr, "utf8"), killedAt };
				},
			};
			const { kills, late, tries } = await killStopsAtTheirClaim(host, ran);
			// The stops it took, against CLAUDE_TRIES: a margin that shrinks shows here first.
			console.log(
				`Claude Code's hooks module: ${kills} kills at the claim in ${tries} stops (at most ${CLAUDE_TRIES}), ${late} of them before the start (run late)`,
			);
		});
	});
});

/** `claude -p` reading prompts as stream-json on stdin, one after the other, and printing stream-json. */
const STREAMED = [
	"-p",
	"--input-format",
	"stream-json",
	"--output-format",
	"stream-json",
	"--verbose",
	"--plugin-dir",
	PLUGIN_DIR,
];

/** A `claude -p` kept open: each prompt sent once the one before it has its result (or the process has ended). */
class StreamedClaude {
	private results = 0;
	private ended = false;
	private waiting: (() => void) | null = null;

	constructor(readonly child: ChildProcess) {
		let buffered = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			buffered += chunk.toString();
			const lines = buffered.split("\n");
			buffered = lines.pop() ?? "";
			for (const line of lines) if (line.includes('"type":"result"')) this.results++;
			this.waiting?.();
		});
		child.once("close", () => {
			this.ended = true;
			this.waiting?.();
		});
	}

	/** Sends a prompt and resolves once it has its result, or once the process ended (killed at a claim). */
	async send(prompt: string): Promise<void> {
		if (this.ended) return;
		const before = this.results;
		this.child.stdin?.write(`${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`);
		while (this.results === before && !this.ended) await new Promise<void>((resolve) => (this.waiting = resolve));
		this.waiting = null;
	}
}

/**
 * The claims of Claude Code's hooks module, in the plugin's store (`timebox_*.json`, which Claude Code writes whole): a
 * stop's claim appears when an entry first holds a spent claim that carries an on-stop command.
 */
class ModuleClaims implements Claims {
	private readonly seen = new Set<string>();

	constructor(readonly folder: string) {
		mkdirSync(folder, { recursive: true });
	}

	/** Every claim the store holds now; a file caught half written holds none until the next look. */
	held(): { kind: string; budgetId: string; onStopCommand?: string }[] {
		const claims: { kind: string; budgetId: string; onStopCommand?: string }[] = [];
		for (const file of readdirSync(this.folder).filter(
			(name) => name.startsWith("timebox_") && name.endsWith(".json"),
		)) {
			try {
				const entries = JSON.parse(readFileSync(join(this.folder, file), "utf8")) as Record<string, { claims?: [] }>;
				for (const entry of Object.values(entries)) claims.push(...(entry.claims ?? []));
			} catch {
				// Being written: read at the next change.
			}
		}
		return claims;
	}

	/** The lock files the store's writers left (`<store file>.lock`). */
	locks(): string[] {
		return readdirSync(this.folder)
			.filter((name) => name.endsWith(".json.lock"))
			.map((name) => join(this.folder, name));
	}

	arm(): void {
		for (const claim of this.held()) if (claim.kind === "spent") this.seen.add(claim.budgetId);
	}

	claimed(): string | null {
		const stop = this.held().find(
			(claim) => claim.kind === "spent" && claim.onStopCommand !== undefined && !this.seen.has(claim.budgetId),
		);
		if (!stop) return null;
		this.seen.add(stop.budgetId);
		return stop.budgetId;
	}
}
