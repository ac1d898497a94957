// Guards session replacement through pi's runtime (/new, /resume): one live budget, and no timer of a dead session.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText } from "@mariozechner/pi-ai";
import type { AgentSessionRuntime } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RealPi, RecordingUI, sleepUntil, waitFor } from "./support/real-pi.ts";

/** Full /new + /resume cycles: 50 session replacements, each loading the extension afresh (about 160 ms here). */
const CYCLES = 25;
/**
 * Long enough for every cycle to finish before the deadline with room to spare: the cycles took 0.25 to 0.4 s in CI
 * since a session's start stopped hashing every prompt (6 to 12 s before, on a loaded machine); the test says so if they
 * ever outlast it, and waits out the rest for the stop.
 */
const BUDGET_SECONDS = 8;
const LIVE_STATUS = new RegExp(`^Timebox: \\d+s left \\(${BUDGET_SECONDS}s budget\\) \\| no turn limit$`);

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

/** Binds the one screen to whatever session the runtime holds now, as pi's modes do after each replacement. */
async function bind(runtime: AgentSessionRuntime, ui: RecordingUI): Promise<void> {
	await runtime.session.bindExtensions({ uiContext: ui.context() });
}

describe("session replacement through pi's runtime", () => {
	it("keeps exactly one live budget across repeated /new and /resume and stops once", async () => {
		const stopped = join(host.root, "stopped.txt");
		const command = `echo ran >> "${stopped}"`;
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile());
		await bind(runtime, ui);
		host.faux.setResponses([fauxAssistantMessage(fauxText("hello back"))]);
		await runtime.session.prompt("hello");
		const original = runtime.session.sessionFile ?? "";
		const setAt = Date.now();
		await runtime.session.prompt(`/timebox ${BUDGET_SECONDS}s -- ${command}`);

		const cyclesStarted = Date.now();
		for (let cycle = 0; cycle < CYCLES; cycle++) {
			await runtime.newSession();
			await bind(runtime, ui);
			expect(ui.status).toBeUndefined();
			await runtime.switchSession(original);
			await bind(runtime, ui);
			expect(ui.status).toMatch(LIVE_STATUS);
		}
		console.log(`${CYCLES} /new + /resume cycles took ${Date.now() - cyclesStarted} ms`);
		expect(runtime.session.sessionFile).toBe(original);
		// Every restore above found the budget live; a slower machine would need a longer budget.
		expect(Date.now() - setAt, "the cycles outlasted the budget: raise BUDGET_SECONDS").toBeLessThan(
			(BUDGET_SECONDS - 1) * 1_000,
		);
		const restored = ui.messages("info").filter((message) => message.startsWith("Timebox restored: "));
		expect(restored).toHaveLength(CYCLES);

		await waitFor(() => ui.messages("error").length > 0, "the hard stop", BUDGET_SECONDS * 1_000);
		await waitFor(() => existsSync(stopped), "the on-stop command's file");
		// A timer left alive in any of the dead sessions would run the on-stop command again (its UI calls fail).
		await sleepUntil(setAt + BUDGET_SECONDS * 1_000 + 1_000);
		const errors = ui.messages("error");
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(
			/^Timebox budget spent\. Used 0 turns, \d+s, while the agent was idle\. The chat continues\.$/,
		);
		expect(ui.messages("info").filter((message) => message.startsWith("Timebox ran the on-stop command"))).toEqual([
			`Timebox ran the on-stop command: ${command}`,
		]);
		expect(readFileSync(stopped, "utf8")).toBe("ran\n");
		expect(ui.status).toBe("Timebox: budget spent | on-stop command ran");
	});

	it("lets no timer of the session left behind fire in the new one", async () => {
		const stopped = join(host.root, "stopped.txt");
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile());
		await bind(runtime, ui);
		const setAt = Date.now();
		await runtime.session.prompt(`/timebox 2s -- echo ran >> "${stopped}"`);
		expect(ui.status).toBe("Timebox: 2s left (2s budget) | no turn limit");

		await runtime.newSession();
		await bind(runtime, ui);
		expect(ui.status).toBeUndefined();
		const before = ui.notifications.length;
		await sleepUntil(setAt + 3_000);
		expect(ui.notifications.slice(before)).toEqual([]);
		expect(ui.statusUpdates.at(-1)).toBeUndefined();
		expect(existsSync(stopped)).toBe(false);

		host.faux.setResponses([fauxAssistantMessage(fauxText("fresh answer"))]);
		await runtime.session.prompt("a prompt in the new session");
		expect(runtime.session.messages.filter((message) => message.role === "assistant")).toMatchObject([
			{ stopReason: "stop" },
		]);
	});
});
