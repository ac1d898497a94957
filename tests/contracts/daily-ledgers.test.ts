// Runs the daily ledger contract against this machine's file ledger, and a team's ledger over a store in memory that
// keeps the scripts' contract (the e2e suite runs it against a real Redis).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { createDailyLedger } from "../../src/adapters/node/daily-ledger.ts";
import { MemoryStore, teamLedgerOn } from "../adapters/team/memory-store.ts";
import { dailyLedgerContract } from "./daily-ledger-contract.ts";

const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const clock = { now: () => new Date(2026, 10, 22, 12).getTime() };

dailyLedgerContract("file", () => {
	const folder = mkdtempSync(join(tmpdir(), "timebox-daily-contract-"));
	folders.push(folder);
	return { session: (id) => createDailyLedger(folder, id, clock) };
});

dailyLedgerContract("team (a store in memory)", () => {
	const folder = mkdtempSync(join(tmpdir(), "timebox-team-contract-"));
	folders.push(folder);
	const store = new MemoryStore(clock);
	return { session: (id) => teamLedgerOn(store, folder, id, clock) };
});
