// A hook folds its session once: whatever role its event plays (the session's start, a prompt with what the transcript
// says was used, a `/timebox` line, a tool, the next model call, a subagent's start, tool and end, the end of a run, on
// a host that names its prompts and on one that does not), the session's history is read from its log into the rules
// exactly once, through the hook's one runtime.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/hooks/handle.ts";
import type { HookEvent } from "../../../src/adapters/hooks/roles.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import type { HistoryItem } from "../../../src/core/index.ts";
import { START } from "../../support/budgets.ts";
import { MemoryLedger, RecordingStarter } from "../../support/memory-host.ts";

/** A hook's log, read once as a hook reads it, that counts the folds of its history. */
class CountingLog extends SessionLog {
	folds = 0;
	override history(): HistoryItem[] {
		this.folds++;
		return super.history();
	}
}

let folder: string;
let ledger: MemoryLedger;
beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-one-fold-"));
	ledger = new MemoryLedger();
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const EVENT: HookEvent = {
	role: null,
	hostEvent: "Event",
	sessionId: "session-1",
	promptId: null,
	prompt: null,
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

/** The folds of one hook of `event`, with the session's other settings as a host gives them. */
async function foldsOf(event: Partial<HookEvent>, unnamedPrompts = false): Promise<number> {
	const store = new CountingLog(folder, "session-1", { now: () => START }, true);
	let ids = 0;
	await handleHook(
		{ ...EVENT, ...event },
		{
			store,
			ledger,
			clock: { now: () => START },
			onStop: new RecordingStarter(),
			newBudgetId: () => `budget-${++ids}`,
			defaultBudget: "1h turns:50",
			subagents: { value: "5m", source: "TIMEBOX_SUBAGENTS" },
			readUsage: () => ({ responses: [{ id: `r-${ids++}`, tokens: 10 }], offset: 100 * ids, unreadable: false }),
			...(unnamedPrompts ? { unnamedPrompts: true } : {}),
		},
	);
	return store.folds;
}

describe("a hook", () => {
	it("folds its session once, whatever role its event plays", async () => {
		const transcript = { transcriptPath: "/transcript.jsonl" };
		const folds = [
			await foldsOf({ role: "sessionStart", source: "startup" }),
			await foldsOf({ role: "prompt", promptId: "p1", prompt: "hello", ...transcript }),
			await foldsOf({ role: "prompt", promptId: "p1", prompt: "/timebox status", command: "status" }),
			await foldsOf({ role: "beforeTool", promptId: "p1", ...transcript }),
			await foldsOf({ role: "beforeModelCall", promptId: "p1" }),
			await foldsOf({
				role: "beforeTool",
				promptId: "p1",
				toolUseId: "t1",
				spawn: { agentType: "Explore", task: "look" },
			}),
			await foldsOf({ role: "agentStart", promptId: "p1", agent: "a1", agentType: "Explore" }),
			await foldsOf({ role: "beforeTool", promptId: "p1", agent: "a1" }),
			await foldsOf({ role: "agentEnd", promptId: "p1", ended: { agent: "a1", result: "done", reachesParent: false } }),
			await foldsOf({ role: "runEnd", promptId: "p1", ...transcript }),
		];
		expect(folds).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
	});

	it("folds once where the host names no prompt, a later event taking the latest prompt's", async () => {
		expect(await foldsOf({ role: "sessionStart", source: "startup" }, true)).toBe(1);
		expect(await foldsOf({ role: "prompt", prompt: "hello" }, true)).toBe(1);
		expect(await foldsOf({ role: "beforeTool" }, true)).toBe(1);
		expect(await foldsOf({ role: "runEnd" }, true)).toBe(1);
	});

	it("reads the default budget's record again at a session's first prompt where its start ran no hook", async () => {
		// Codex's gate leaves a default budget to the first prompt: the session starts there (a fold of an empty log),
		// and the prompt is answered on the log that now holds the budget's one record.
		expect(await foldsOf({ role: "prompt", promptId: "p1", prompt: "hello" })).toBe(2);
		expect(await foldsOf({ role: "prompt", promptId: "p2", prompt: "again" })).toBe(1);
	});
});
