// A light opencode for the kill tests, run by opencode's own Bun (`BUN_BE_BUN=1 opencode <this file>`): the package's
// `./server` plugin, as opencode loads it (real clock, shell, data folder and ledger), with its hooks called in
// opencode's order by the fake host of the unit tests. One process opens the main session (where Timebox loads its
// budget and the ledger); then, unless told to stop there, it sets `turns:1 -- <command>` and sends two prompts, the
// second past the limit: a kill test kills the process at that stop's claim. What the user reads comes on stdout, one
// JSON line per notice, written at once (a killed process keeps what it wrote).
// usage: BUN_BE_BUN=1 opencode opencode-stop-driver.ts <command or ""> (XDG_STATE_HOME set)

import { writeSync } from "node:fs";
import timebox from "../../../src/entries/opencode-server.ts";
import { createWorld, FakeOpencode } from "../../adapters/opencode/fake-opencode.ts";
import { FakeTime } from "../../support/fake-time.ts";

const command = process.argv[2] ?? "";
let said = 0;

/** Writes each notice the user got since the last look. */
function tell(opencode: FakeOpencode, also: Record<string, unknown> = {}): void {
	for (const shown of opencode.shown.slice(said))
		writeSync(1, `${JSON.stringify({ notice: shown.message, level: shown.level })}\n`);
	said = opencode.shown.length;
	if (Object.keys(also).length > 0) writeSync(1, `${JSON.stringify(also)}\n`);
}

// The session's messages go on from those the processes before this one stored: their ids, as opencode's, sort by time.
const world = { ...createWorld(), time: new FakeTime(Date.now()), firstId: Date.now() * 100 };
const opencode = await FakeOpencode.start(world, { interactive: true, env: process.env, server: timebox.server });
// The session's first event loads it: a status look, which counts nothing.
await opencode.timebox("status");
tell(opencode, { loaded: true });
if (command !== "") {
	await opencode.timebox(`turns:1 -- ${command}`);
	await opencode.prompt("one");
	tell(opencode, { stopping: true });
	await opencode.prompt("two");
	// opencode goes on after a stop, its session open: a while, as a person reads the stop.
	await new Promise((resolve) => setTimeout(resolve, 3_000));
}
tell(opencode, { done: true });
await opencode.dispose();
process.exit(0);
