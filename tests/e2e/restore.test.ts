// Guards restore on real pi: a budget comes back when its session file is reopened, and only when it should.

import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FauxResponseStep, fauxAssistantMessage, fauxText } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PiSession, RealPi, sleep, sleepUntil, waitFor } from "./support/real-pi.ts";

interface FileEntry {
	type: string;
	id?: string;
	customType?: string;
	data?: unknown;
}

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

function readEntries(path: string): FileEntry[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as FileEntry);
}

function customEntries(path: string): Pick<FileEntry, "customType" | "data">[] {
	return readEntries(path)
		.filter((entry) => entry.type === "custom")
		.map(({ customType, data }) => ({ customType, data }));
}

/** A file-backed session; pi writes the file once the first answer arrives. */
async function startFileSession(): Promise<PiSession> {
	return host.start({ sessionManager: host.newSessionFile() });
}

/** Quits `pi` and opens its session file again in a fresh session, as `pi --session <file>` does. */
async function reopen(pi: PiSession): Promise<PiSession> {
	const file = pi.sessionFile;
	await pi.close();
	return host.start({ sessionManager: host.openSessionFile(file) });
}

describe("restoring a budget from a real session file", () => {
	it("restores an active budget with its used turns, status and on-stop command", async () => {
		const pi = await startFileSession();
		await pi.timebox("15m turns:4 -- echo hi");
		host.faux.setResponses(answers(1));
		await pi.prompt("first task");
		expect(customEntries(pi.sessionFile)).toEqual([
			{
				customType: "timebox-active",
				data: {
					version: 2,
					id: expect.stringMatching(/^[0-9a-f-]{36}$/),
					timeLimitMs: 900_000,
					turnLimit: 4,
					startTime: expect.any(Number),
					onStopCommand: "echo hi",
				},
			},
		]);

		const reopened = await reopen(pi);
		const remaining = String.raw`(?:15m 0s|14m \d+s) left \(15m budget\) \| 3 turns left \(1/4\)`;
		expect(reopened.screen.notifications).toHaveLength(1);
		expect(reopened.screen.notifications[0]?.level).toBe("info");
		expect(reopened.screen.notifications[0]?.message).toMatch(
			new RegExp(`^Timebox restored: ${remaining}\\. On stop it runs: echo hi$`),
		);
		expect(reopened.screen.status).toMatch(new RegExp(`^Timebox: ${remaining}$`));

		host.faux.setResponses(answers(1));
		await reopened.prompt("second task");
		expect(reopened.screen.status).toMatch(
			/^Timebox: (?:15m 0s|14m \d+s) left \(15m budget\) \| 2 turns left \(2\/4\)$/,
		);
	});

	it("does not restore a budget whose time ran out while the session was closed", async () => {
		const pi = await startFileSession();
		host.faux.setResponses(answers(1));
		await pi.prompt("first task");
		const setAt = Date.now();
		await pi.timebox("1s");
		await pi.close();
		await sleepUntil(setAt + 1_100);

		const reopened = await reopen(pi);
		expect(reopened.screen.notifications).toEqual([
			{
				message: "Timebox budget of this session was already spent (time ran out), so it was not restored.",
				level: "warning",
			},
		]);
		expect(reopened.screen.statusUpdates).toEqual([]);
		expect(reopened.screen.status).toBeUndefined();
		// Nothing is armed: no hard stop arrives later either.
		await sleep(300);
		expect(reopened.screen.notifications).toHaveLength(1);
	});

	it("keeps a budget that was turned off off", async () => {
		const pi = await startFileSession();
		await pi.timebox("15m turns:3");
		await pi.timebox("off");
		expect(pi.screen.notifications.at(-1)).toEqual({ message: "Timebox off.", level: "info" });
		expect(pi.screen.status).toBeUndefined();
		host.faux.setResponses(answers(1));
		await pi.prompt("first task");
		expect(customEntries(pi.sessionFile).map((entry) => entry.customType)).toEqual(["timebox-active", "timebox-off"]);

		const reopened = await reopen(pi);
		expect(reopened.screen.notifications).toEqual([]);
		expect(reopened.screen.statusUpdates).toEqual([]);
	});

	it("does not restore a spent turn budget nor run its on-stop command again", async () => {
		const stopped = join(host.root, "stopped.txt");
		const command = `echo ran >> "${stopped}"`;
		const pi = await startFileSession();
		await pi.timebox(`turns:1 -- ${command}`);
		host.faux.setResponses(answers(2));
		await pi.prompt("first task");
		await pi.prompt("second task");
		expect(pi.promptRun(2).assistant.at(-1)?.stopReason).toBe("aborted");
		expect(pi.screen.messages("info").at(-1)).toBe(`Timebox ran the on-stop command: ${command}`);
		await waitFor(() => existsSync(stopped), "the on-stop command's file");

		const reopened = await reopen(pi);
		expect(reopened.screen.notifications).toEqual([
			{
				message: `Timebox budget of this session was already spent (all 1 turn used), so it was not restored. Its on-stop command was started at its stop, and is not run again: ${command}`,
				level: "warning",
			},
		]);
		expect(reopened.screen.status).toBeUndefined();
		host.faux.setResponses(answers(1));
		await reopened.prompt("third task");
		expect(reopened.promptRun(3).assistant.at(-1)?.stopReason).toBe("stop");
		await sleep(300);
		expect(readFileSync(stopped, "utf8")).toBe("ran\n");
		expect(reopened.screen.notifications).toHaveLength(1);
	});

	it("skips a damaged budget record added by hand, says so once, and restores the one before it", async () => {
		const pi = await startFileSession();
		await pi.timebox("turns:3");
		host.faux.setResponses(answers(1));
		await pi.prompt("first task");
		const file = pi.sessionFile;
		await pi.close();
		const last = readEntries(file).at(-1);
		const damaged = {
			type: "custom",
			customType: "timebox-active",
			data: { timeLimitMs: "15m", turnLimit: "3", startTime: null, startTurn: -1, onStopCommand: 42 },
			id: "d4m4g3d0",
			parentId: last?.id ?? null,
			timestamp: new Date().toISOString(),
		};
		appendFileSync(file, `${JSON.stringify(damaged)}\n`);

		const reopened = await host.start({ sessionManager: host.openSessionFile(file) });
		expect(reopened.screen.notifications).toEqual([
			{
				message:
					"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.",
				level: "warning",
			},
			{ message: "Timebox restored: no time limit | 2 turns left (1/3).", level: "info" },
		]);
		expect(reopened.screen.status).toBe("Timebox: no time limit | 2 turns left (1/3)");
		host.faux.setResponses(answers(1));
		await reopened.prompt("second task");
		expect(reopened.promptRun(2).assistant.at(-1)?.stopReason).toBe("stop");
		expect(reopened.screen.status).toBe("Timebox: no time limit | 1 turn left (2/3)");
	});
});
