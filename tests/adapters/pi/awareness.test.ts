// What the model reads of its budget on pi, call by call, and the wrap-up a grace period gives it at the limit, on the
// fake pi. Guards a warning that never reaches the calls of a long run, a note written into the session, and a grace
// period that cuts the model off or never stops it.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUDGET_IN_FORCE_PROMPT } from "../../../src/core/index.ts";
import { MINUTE } from "../../support/budgets.ts";
import { BASE_SYSTEM_PROMPT, FakePi } from "./fake-pi.ts";

const REFUSAL =
	"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";

let root: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-awareness-"));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A fake pi whose user settings hold `timebox`. */
async function piWithSettings(timebox: Record<string, unknown> = {}): Promise<FakePi> {
	const pi = new FakePi();
	pi.globalSettings = join(root, "settings.json");
	writeFileSync(pi.globalSettings, JSON.stringify({ timebox }));
	return pi.start();
}

/** The first line of each call's note, or null for a call without one. */
function headings(notes: readonly (string | null)[]): (string | null)[] {
	return notes.map((note) => note?.split("\n")[0] ?? null);
}

describe("the budget note on every model call", () => {
	it("reaches the calls of a run that crosses 80% and 95% midway, and never the session or the system prompt", async () => {
		const pi = await piWithSettings();
		await pi.timebox("10m");
		const run = await pi.prompt("long job", {
			llmCalls: 6,
			duringTool: (call) => pi.time.advance(call < 4 ? 2 * MINUTE : 1.5 * MINUTE),
		});
		expect(headings(run.notes)).toEqual([
			null,
			null,
			null,
			null,
			"IMPORTANT TIMEBOX WARNING",
			"CRITICAL TIMEBOX WARNING",
		]);
		expect(run.notes[4]).toContain("Time left: 2m 0s of 10m.");
		expect(run.notes[5]).toContain("Time left: 30s of 10m.");
		expect(run.systemPrompt).toBe(BASE_SYSTEM_PROMPT + BUDGET_IN_FORCE_PROMPT);
		expect(JSON.stringify(pi.file.entries)).not.toContain("TIMEBOX");
		expect(pi.screen.messages("warning")).toEqual(["Timebox: 2m 0s left of 10m — the model is asked to wrap up."]);
	});

	it("carries a line with what is left on every call of an aware budget", async () => {
		const pi = await piWithSettings();
		await pi.timebox("15m turns:5 aware");
		expect(pi.screen.last?.message).toBe("Timebox set: 15m and 5 turns; the model is told what is left at every call.");
		const run = await pi.prompt("go", { llmCalls: 2, duringTool: () => pi.time.advance(48_000) });
		expect(run.notes).toEqual([
			"Timebox: 15m 0s and 5 prompts left of 15m / 5 prompts.",
			"Timebox: 14m 12s and 5 prompts left of 15m / 5 prompts.",
		]);
	});

	it("takes awareness from the settings, for every budget and on another branch of the session", async () => {
		const pi = await piWithSettings({ awareness: "always" });
		await pi.timebox("turns:3");
		expect((await pi.prompt("one")).notes).toEqual(["Timebox: 3 prompts left of 3 prompts."]);
		await pi.instance.emit({ type: "session_tree", newLeafId: pi.file.leafId, oldLeafId: null });
		expect((await pi.prompt("two")).notes).toEqual(["Timebox: 2 prompts left of 3 prompts."]);
	});

	it("names bad awareness and grace settings and goes on without them", async () => {
		const pi = await piWithSettings({ awareness: "loud", grace: "a while" });
		const file = join(root, "settings.json");
		expect(pi.screen.messages("warning")).toEqual([
			`Timebox: timebox.awareness in ${file}: "loud" is neither "nudge" nor "always", so it is ignored.`,
			`Timebox: timebox.grace in ${file}: "a while" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.`,
		]);
		await pi.timebox("10m");
		expect((await pi.prompt("go")).notes).toEqual([null]);
	});
});

describe("a grace period at the limit", () => {
	it("refuses the next tool with the reason, lets the model answer in text, and runs on-stop once after the run", async () => {
		const pi = await piWithSettings();
		await pi.timebox("10m grace:30s -- say done");
		const run = await pi.prompt("long job", {
			llmCalls: 3,
			duringTool: (call) => {
				if (call === 0) pi.time.advance(10 * MINUTE);
			},
		});
		expect(run.aborted).toBe(false);
		expect(run.toolsRun).toBe(1);
		expect(run.refusals).toEqual([REFUSAL]);
		expect(run.notes.at(-1)?.split("\n")[0]).toBe("TIMEBOX: BUDGET SPENT");
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 10m 0s. The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.",
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
		expect(pi.screen.status).toBe("Timebox: budget spent | on-stop command ran");
	});

	it("stops a model that asks for tools again after the refusal, and runs on-stop once", async () => {
		const pi = await piWithSettings();
		await pi.timebox("10m grace:30s -- say done");
		const run = await pi.prompt("loop", {
			llmCalls: 6,
			duringTool: (call) => {
				if (call === 0) pi.time.advance(10 * MINUTE);
			},
		});
		expect(run.aborted).toBe(true);
		expect(run.refusals).toEqual([REFUSAL, REFUSAL]);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: 2m 0s left of 10m — the model is asked to wrap up.",
			"Timebox stopped the agent: the model asked for tools again.",
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
	});

	it("stops a run still going when the grace period ends, at the moment it ends", async () => {
		const pi = await piWithSettings({ grace: "5s" });
		await pi.timebox("1m -- say done");
		const run = await pi.prompt("slow", {
			llmCalls: 3,
			duringTool: (call) => {
				if (call === 0) pi.time.advance(MINUTE);
				if (call === 0) expect(pi.screen.status).toBe("Timebox: budget spent | wrapping up");
				if (call === 0) pi.time.advance(4_999);
				if (call === 0) expect(pi.runner.commands).toEqual([]);
				if (call === 0) pi.time.advance(1);
			},
		});
		expect(run.aborted).toBe(true);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: 12s left of 1m — the model is asked to wrap up.",
			"Timebox stopped the agent: the time to wrap up ran out.",
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
	});

	it.each([
		["pi quits", { reason: "quit" }],
		["oh-my-pi disposes the session (naming no reason)", {}],
		["pi moves to a new session", { reason: "new" }],
		// pi's TUI refuses a reload while a run goes on; its SDK does not, and the reloaded instance restores a spent
		// budget, not the time to wrap up.
		["pi's SDK reloads the session", { reason: "reload" }],
	])("runs on-stop once when %s during the time to wrap up, and nothing at the next start", async (_how, shutdown) => {
		const pi = await piWithSettings();
		await pi.timebox("10m grace:30s -- say done");
		const instance = pi.instance;
		await pi.prompt("long job", {
			llmCalls: 3,
			duringTool: async (call) => {
				if (call !== 0) return;
				pi.time.advance(10 * MINUTE);
				expect(pi.screen.status).toBe("Timebox: budget spent | wrapping up");
				// The host tears the instance down with the tool still running, and sends it no end of the run.
				await instance.emit({ type: "session_shutdown", ...shutdown });
				instance.stale = true;
				expect(pi.runner.commands).toEqual(["say done"]);
			},
		});
		await pi.start("resume");
		pi.time.advance(MINUTE);
		expect(pi.runner.commands).toEqual(["say done"]);
		expect(pi.screen.messages("info").filter((message) => message.includes("late"))).toEqual([]);
	});

	it("stops at once, as without it, when the time runs out while the agent is idle", async () => {
		const pi = await piWithSettings({ grace: "30s" });
		await pi.timebox("1m -- say done");
		pi.time.advance(MINUTE);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 1m 0s, while the agent was idle. The chat continues.",
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
	});
});
