// Guards how real pi reports the on-stop command: one that cannot start (too large for the system) is reported once,
// as failed, and never as run; one that begins with `-` is run exactly as typed.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linesOf, RealPi, sleep, waitFor } from "./support/real-pi.ts";

/** Larger than one argument may be on Linux (128 KiB), so spawning `/bin/sh -c <it>` fails with E2BIG. */
const TOO_LARGE = 200_000;

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

describe("the on-stop command on real pi", () => {
	it("reports a command too large to start once, as failed, and never says it ran", async () => {
		const command = `echo ${"x".repeat(TOO_LARGE)}`;
		const pi = await host.start();
		await pi.timebox(`1s -- ${command}`);
		await waitFor(() => pi.screen.messages("error").length > 0, "the hard stop", 3_000);
		await waitFor(() => pi.screen.messages("warning").some((m) => m.includes("on-stop")), "the failure", 3_000);
		await sleep(300);
		const failures = pi.screen.messages("warning").filter((message) => message.startsWith("Timebox on-stop"));
		expect(failures).toEqual([
			`Timebox on-stop command failed: could not start "echo ${"x".repeat(35)}…": spawn E2BIG`,
		]);
		expect(pi.screen.messages("info").filter((message) => message.startsWith("Timebox ran"))).toEqual([]);
		expect(pi.screen.messages("error")).toHaveLength(1);
	});

	it("runs a command that begins with a dash exactly as typed", async () => {
		const file = join(host.root, "dash.txt");
		const command = `-x 2>/dev/null; echo ran > "${file}"`;
		const pi = await host.start();
		await pi.timebox(`1s -- ${command}`);
		await waitFor(() => existsSync(file), "the command's file", 3_000);
		await sleep(300);
		expect(linesOf(file)).toEqual(["ran"]);
		expect(pi.screen.messages("info")).toContain(`Timebox ran the on-stop command: ${command}`);
		expect(pi.screen.messages("warning").filter((message) => message.startsWith("Timebox on-stop"))).toEqual([]);
	});
});
