// pi killed while it wrote its session file: the file ends in a line cut short (what `kill -9` mid-write leaves). On
// real pi, reopened at every cut of a Timebox entry: a spent budget stays spent, its on-stop command is not run again,
// and the next /timebox command works.

import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FauxResponseStep, fauxAssistantMessage, fauxText } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RealPi, waitFor } from "../support/real-pi.ts";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

function answers(count: number): FauxResponseStep[] {
	return Array.from({ length: count }, (_, index) => fauxAssistantMessage(fauxText(`answer ${index + 1}`)));
}

describe("pi's session file cut short by a kill mid-write", () => {
	it("keeps a spent budget spent and runs its on-stop command once, at each cut of the entry in flight", async () => {
		const stopped = join(host.root, "stopped.txt");
		const command = `echo ran >> "${stopped}"`;
		const pi = await host.start({ sessionManager: host.newSessionFile() });
		await pi.timebox(`turns:1 -- ${command}`);
		host.faux.setResponses(answers(2));
		await pi.prompt("first task");
		await pi.prompt("second task");
		await waitFor(() => existsSync(stopped), "the on-stop command's file");
		const file = pi.sessionFile;
		await pi.close();
		const whole = readFileSync(file, "utf8");
		// The entry in flight when pi died: a budget record, cut at a quarter, half and three quarters of its bytes.
		const entry = `${JSON.stringify({ type: "custom", customType: "timebox-off", data: { version: 2 }, id: "dead0001", parentId: null, timestamp: new Date().toISOString() })}\n`;
		for (const cut of [0.25, 0.5, 0.75].map((part) => Math.floor(entry.length * part))) {
			const torn = `${file}.${cut}.jsonl`;
			appendFileSync(torn, whole + entry.slice(0, cut));
			const reopened = await host.start({ sessionManager: host.openSessionFile(torn) });
			expect(reopened.screen.messages("warning").join("\n"), `cut at ${cut}`).toContain(
				"Timebox budget of this session was already spent (all 1 turn used)",
			);
			await reopened.timebox("status");
			// Restored as pi restores a spent budget: not at all (the warning above says why).
			expect(reopened.screen.messages().at(-1)).toBe("No active timebox.\nSet one with /timebox 15m turns:3.");
			await reopened.timebox("10m");
			expect(reopened.screen.messages().join("\n")).toContain("Timebox set: 10m.");
			await reopened.close();
		}
		expect(readFileSync(stopped, "utf8")).toBe("ran\n");
	});
});
