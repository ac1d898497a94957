// Runs the ledger contract against the in-memory ledger, the file ledger every Node host uses, and the ledger Claude
// Code's hooks module keeps in its store (over `$.store`, written asynchronously).

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { engineOf } from "../../src/adapters/claude/function-hooks/engine.ts";
import { ModuleStore } from "../../src/adapters/claude/function-hooks/store.ts";
import { createFileLedger } from "../../src/adapters/node/file-ledger.ts";
import { FakeDollar } from "../adapters/claude/function-hooks/fake-engine.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryLedger } from "../support/memory-host.ts";
import { ledgerContract } from "./ledger-contract.ts";

const folders: string[] = [];

function tempFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), "timebox-ledger-"));
	folders.push(folder);
	return folder;
}

afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

ledgerContract("in-memory", () => {
	const ledger = new MemoryLedger();
	return { ledger, reopen: () => ledger };
});

ledgerContract("file", () => {
	const folder = join(tempFolder(), "ledger");
	return { ledger: createFileLedger(folder), reopen: () => createFileLedger(folder) };
});

ledgerContract("Claude Code hooks module", async () => {
	const time = new FakeTime();
	const engine = engineOf(new FakeDollar(time));
	const deps = {
		clock: time,
		scheduler: time,
		problem: (error: unknown) => {
			throw error;
		},
	};
	const store = await ModuleStore.open(() => engine, "session-1", deps);
	return {
		ledger: store,
		reopen: async () => {
			await store.flush();
			return ModuleStore.open(() => engine, "session-1", deps);
		},
	};
});

describe("the file ledger with a damaged or hostile folder", () => {
	it("counts a claim file it cannot parse as claimed, with no figures", () => {
		const folder = tempFolder();
		writeFileSync(join(folder, "budget-1.spent.json"), "{torn");
		writeFileSync(join(folder, "budget-1.nudged.json"), "null");
		expect(createFileLedger(folder).read("budget-1")).toEqual({
			spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: false, prompt: null },
			off: false,
			nudged: true,
		});
	});

	it("refuses an id that could leave its folder, and reads nothing for one", () => {
		const ledger = createFileLedger(tempFolder());
		expect(() => ledger.claim({ kind: "off", budgetId: "../escape" })).toThrow("not a budget id");
		expect(ledger.read("../escape")).toEqual({ spent: null, off: false, nudged: false });
	});

	it("throws when the folder cannot be written, so the caller can fire anyway and say why", () => {
		const folder = tempFolder();
		writeFileSync(join(folder, "file"), "");
		expect(() => createFileLedger(join(folder, "file")).claim({ kind: "off", budgetId: "b" })).toThrow();
		// A folder that exists but takes no new files (procfs, even for root).
		expect(() => createFileLedger("/proc/self").claim({ kind: "off", budgetId: "b" })).toThrow();
	});

	it("throws when the claim cannot be linked into place for another reason than a claim already there", () => {
		const folder = tempFolder();
		const refuse = () => {
			throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
		};
		expect(() => createFileLedger(folder, refuse).claim({ kind: "off", budgetId: "b" })).toThrow("EPERM");
		expect(readdirSync(folder)).toEqual([]);
	});

	it("leaves only the claim itself in the folder, never a draft", () => {
		const folder = tempFolder();
		const ledger = createFileLedger(folder);
		ledger.claim({ kind: "off", budgetId: "b" });
		ledger.claim({ kind: "off", budgetId: "b" });
		expect(readdirSync(folder)).toEqual(["b.off.json"]);
	});
});
