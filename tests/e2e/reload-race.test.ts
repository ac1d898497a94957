// Guards a /timebox command racing pi's reload on real pi: however the two interleave, the budget never stops twice,
// and a command the reload overtook is never dropped silently; and an instance a reload shut down shows nothing more.
//
// "Reload" here is `AgentSession.reload()`, what pi's /reload runs in the TUI and what `ctx.reload()` runs from an
// extension command in RPC mode: it emits `session_shutdown` to the loaded Timebox, reloads the extensions (a new Timebox
// instance) and emits `session_start` with reason "reload" to it. An RPC client can send `/timebox …` and trigger the
// reload without waiting for either to finish, so the tests start both without awaiting, in both orders, then wait
// past the deadline. (The reload also resets pi-ai's API registry, so the scripted model is gone afterwards: these
// tests send no prompt after it.)

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PiSession, RealPi, SPENT, settledRuns, sleep, sleepUntil } from "./support/real-pi.ts";

const NUDGE = /^Timebox: .* — the model (?:is asked|will be told at its next call) to wrap up(?: now)?\.$/;

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

/** What the user saw by the end: one hard stop, at most one nudge, the on-stop command run once and said so in the footer. */
async function expectOneStop(pi: PiSession, runs: () => Promise<number>): Promise<void> {
	expect(pi.screen.messages("error")).toEqual([expect.stringMatching(SPENT)]);
	const warnings = pi.screen.messages("warning");
	expect(warnings.length).toBeLessThanOrEqual(1);
	for (const warning of warnings) expect(warning).toMatch(NUDGE);
	expect(await runs()).toBe(1);
	expect(pi.screen.status).toBe("Timebox: budget spent | on-stop command ran");
}

describe("a /timebox command racing a reload", () => {
	it("stops once when the command is sent just before the reload", async () => {
		const probe = host.onStopProbe();
		const pi = await host.start();
		const setAt = Date.now();
		const command = pi.timebox(`1s -- ${probe.command}`);
		const reload = pi.session.reload();
		await Promise.all([command, reload]);

		await sleepUntil(setAt + 2_500);
		await expectOneStop(pi, () => settledRuns(probe));
	});

	it("tells the user to type the command again when the reload overtook it, and stops nothing", async () => {
		const probe = host.onStopProbe();
		const pi = await host.start();
		const setAt = Date.now();
		const reload = pi.session.reload();
		const command = pi.timebox(`1s -- ${probe.command}`);
		await Promise.all([reload, command]);

		await sleepUntil(setAt + 2_500);
		const errors = pi.screen.messages("error");
		if (errors.length > 0) {
			// The command reached the new instance: then it stops exactly once.
			await expectOneStop(pi, () => settledRuns(probe));
			return;
		}
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.",
		]);
		expect(pi.screen.status).toBeUndefined();
		await sleep(300);
		expect(probe.runs()).toBe(0);
	});
});

describe("quick reloads", () => {
	it("show what was restored once per reload, and again only from the instance that is still loaded", async () => {
		const pi = await host.start();
		await pi.timebox("10m");
		// pi's reload does not invalidate the old instance's context: only its shutdown can cancel what it scheduled.
		for (let reload = 0; reload < 20; reload++) await pi.session.reload();
		await sleep(1_000);
		const restored = pi.screen.messages("info").filter((message) => message.startsWith("Timebox restored: "));
		expect(restored).toHaveLength(21);
		expect(pi.screen.messages("info").at(-1)).toMatch(
			/^Timebox restored: (?:10m 0s|9m 5\ds) left \(10m budget\) \| no turn limit\.$/,
		);
	});
});
