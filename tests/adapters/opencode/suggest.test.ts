// `/timebox suggest` and a default of `suggested` on opencode: the past sessions of the folder opencode works in, read
// through the plugin's reader (the default once, as the plugin starts, for every session of the process); each
// prompt's line in the session's log keeps that folder, so that the session counts in the next suggestion.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProjectHistoryReader } from "../../../src/adapters/report/writer.ts";
import type { PastSession } from "../../../src/core/index.ts";
import { createWorld, FakeOpencode, MAIN, removeWorld, type World } from "./fake-opencode.ts";

const MINUTE = 60_000;
const FOLDER = "/work/app";

const SESSIONS: PastSession[] = [1, 2, 3, 4, 5].map((n) => ({
	id: `past-${n}`,
	host: "opencode",
	startedAt: n * 24 * 60 * MINUTE,
	endedAt: n * 24 * 60 * MINUTE + n * 4 * MINUTE,
	turns: n * 2,
	steps: n * 5,
	tokens: n * 100_000,
	cost: 0,
}));

function reader(sessions: readonly PastSession[]) {
	const asked: { project: string; current: string | null }[] = [];
	const read: ProjectHistoryReader = async (project, current) => {
		asked.push({ project, current });
		return { sessions, current };
	};
	return { read, asked };
}

let world: World;
beforeEach(() => {
	world = createWorld();
});
afterEach(() => removeWorld(world));

describe("/timebox suggest on opencode", () => {
	it("shows the suggestion of opencode's folder, leaving the session asking out", async () => {
		const { read, asked } = reader([...SESSIONS, { ...(SESSIONS[0] as PastSession), id: MAIN }]);
		const opencode = await FakeOpencode.start(world, { interactive: true, directory: FOLDER, projectHistory: read });
		await opencode.timebox("suggest");
		expect(asked).toEqual([{ project: FOLDER, current: MAIN }]);
		// Every cost was zero (the models report none): the tokens stand in for it.
		expect(opencode.last).toEqual({
			message: expect.stringContaining(
				"Try /timebox 20m turns:10 tokens:500k (the 90th percentile of your last 5 sessions here).",
			),
			level: "info",
		});
	});

	it("says where to ask where opencode names no folder", async () => {
		const { read, asked } = reader(SESSIONS);
		const opencode = await FakeOpencode.start(world, { interactive: true, projectHistory: read });
		await opencode.timebox("suggest");
		expect(opencode.last?.message).toContain("npm run report -- --suggest");
		expect(asked).toEqual([]);
	});
});

describe("a default of suggested on opencode", () => {
	it("sets the suggested budget in each session, read once as the plugin starts, and keeps the folder with each prompt", async () => {
		const { read, asked } = reader(SESSIONS);
		const env = { TIMEBOX_DEFAULT: "suggested" };
		const opencode = await FakeOpencode.start(world, { env, directory: FOLDER, projectHistory: read });
		expect(asked).toEqual([{ project: FOLDER, current: null }]);
		await opencode.prompt("hello");
		expect(opencode.messages("info")).toContain(
			"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here): 20m and 10 turns and 500k tokens.",
		);
		const lines = readFileSync(join(world.dataDir, "sessions", `${MAIN}.jsonl`), "utf8").split("\n");
		expect(lines.map((line) => (line ? JSON.parse(line) : null)).find((line) => line?.kind === "prompt")).toMatchObject(
			{
				cwd: FOLDER,
			},
		);
	});
});
