// A hook on a long session log keeps a summary of it (the rules say when: LOG_FOLD_KEEP_BYTES read past the last), and
// the next hooks read only the lines after it, answering and writing as a hook that reads the whole log does.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/hooks/handle.ts";
import type { HookEvent } from "../../../src/adapters/hooks/roles.ts";
import { nodeAppendFiles } from "../../../src/adapters/node/append-line.ts";
import { FoldedSessionLog } from "../../../src/adapters/node/folded-session-log.ts";
import { SUMMARY_SUFFIX } from "../../../src/adapters/node/log-summary.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import { LOG_FOLD_KEEP_BYTES, type LogLine } from "../../../src/core/index.ts";
import { budgetRecord } from "../../../src/core/model/records.ts";
import { budget, START } from "../../support/budgets.ts";
import { countingLogFiles } from "../../support/counting-log-files.ts";
import { MemoryLedger, RecordingStarter } from "../../support/memory-host.ts";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-hook-summary-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const CLOCK = { now: () => START + 1_000 };

/** A prompt's hook event. */
function promptEvent(promptId: string): HookEvent {
	return {
		role: "prompt",
		hostEvent: "UserPromptSubmit",
		sessionId: "s1",
		promptId,
		prompt: "hello",
		command: null,
		source: null,
		transcriptPath: null,
		agent: null,
		agentType: null,
		spawn: null,
		toolUseId: null,
		ended: null,
		call: null,
		requestConfig: null,
	};
}

/** A session under a budget of 300 prompts, 250 of them used, each with two calls, what it used and its end. */
function longLog(folder: string): string {
	const lines: LogLine[] = [{ kind: "active", budget: budgetRecord(budget({ turnLimit: 300 })) }];
	for (let prompt = 0; prompt < 250; prompt++) {
		const promptId = `past-${prompt}`;
		lines.push(
			{ kind: "prompt", promptId, at: START },
			{ kind: "call", promptId, at: START },
			{ kind: "usage", responseId: `${promptId}-r`, tokens: 100, at: START },
			{ kind: "ended", promptId, at: START },
		);
	}
	mkdirSync(join(folder, "sessions"), { recursive: true });
	const log = join(folder, "sessions", "s1.jsonl");
	writeFileSync(log, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
	return log;
}

async function hook(store: SessionLog, promptId: string) {
	return handleHook(promptEvent(promptId), {
		store,
		ledger: new MemoryLedger(),
		clock: CLOCK,
		onStop: new RecordingStarter(),
	});
}

describe("a hook on a long session log", () => {
	it("keeps a summary of it, and the next hook reads only what came after, answering as a whole read does", async () => {
		const folder = join(root, "folded");
		const log = longLog(folder);
		const size = readFileSync(log).length;
		expect(size).toBeGreaterThan(LOG_FOLD_KEEP_BYTES);
		const first = countingLogFiles();
		await hook(new FoldedSessionLog(folder, "s1", CLOCK, nodeAppendFiles, first), "new-1");
		expect(first.bytes).toBe(size);
		const summary = readFileSync(join(folder, "sessions", `s1${SUMMARY_SUFFIX}`), "utf8");
		expect(JSON.parse(summary.split("\n")[0] ?? "")).toMatchObject({ offset: size });

		// The same hook on a copy of the log, read whole by the plain log, is the one to answer alike.
		const plain = join(root, "plain");
		cpSync(folder, plain, { recursive: true });
		rmSync(join(plain, "sessions", `s1${SUMMARY_SUFFIX}`));
		const next = countingLogFiles();
		const reply = await hook(new FoldedSessionLog(folder, "s1", CLOCK, nodeAppendFiles, next), "new-2");
		expect(next.bytes).toBeLessThan(1_000);
		expect(reply).toEqual(await hook(new SessionLog(plain, "s1", CLOCK, true), "new-2"));
		expect(reply?.context.join("\n")).toContain("(251 of 300 used)");
		expect(readFileSync(log, "utf8")).toBe(readFileSync(join(plain, "sessions", "s1.jsonl"), "utf8"));
		// Read little past it, the summary is kept as it was.
		expect(readFileSync(join(folder, "sessions", `s1${SUMMARY_SUFFIX}`), "utf8")).toBe(summary);
	});
});
