// `/timebox suggest` and a default of `suggested` on pi: the past sessions of the session's working folder read through
// the extension's reader, leaving this session out; the suggestion shown, or the suggested budget set as the session
// starts (pi awaits the start), announced with where it came from, or why there is none.

import { describe, expect, it } from "vitest";
import type { ProjectHistoryReader } from "../../../src/adapters/report/writer.ts";
import type { PastSession } from "../../../src/core/index.ts";
import { FakePi } from "./fake-pi.ts";

const MINUTE = 60_000;

/** `count` past pi sessions of 10 minutes a turn, 1 to `count` turns, 20k tokens and $0.20 a turn. */
function pastSessions(count: number): PastSession[] {
	return Array.from({ length: count }, (_, index) => ({
		id: `past-${index}`,
		host: "pi",
		startedAt: index * 24 * 60 * MINUTE,
		endedAt: index * 24 * 60 * MINUTE + (index + 1) * 10 * MINUTE,
		turns: index + 1,
		steps: (index + 1) * 4,
		tokens: (index + 1) * 20_000,
		cost: (index + 1) * 0.2,
	}));
}

function reader(sessions: readonly PastSession[]) {
	const asked: { project: string; current: string | null }[] = [];
	const read: ProjectHistoryReader = async (project, current) => {
		asked.push({ project, current });
		return { sessions, current };
	};
	return { read, asked };
}

describe("/timebox suggest on pi", () => {
	it("shows the suggestion of the session's folder, leaving this session out", async () => {
		const { read, asked } = reader(pastSessions(6));
		const pi = new FakePi();
		pi.projectHistory = read;
		await pi.start();
		await pi.timebox("suggest");
		expect(asked).toEqual([{ project: "/nonexistent/project", current: pi.file.id }]);
		expect(pi.screen.notifications.at(-1)).toEqual({
			message: [
				"Timebox: your last 6 sessions here (6 pi), median / 90th percentile:",
				"- time: 30m 0s / 1h 0m",
				"- turns: 3 / 6",
				"- model calls: 12 / 24",
				"- tokens: 60k / 120k",
				"- cost: $0.60 / $1.20",
				"Try /timebox 1h turns:6 $1.50 (the 90th percentile of your last 6 sessions here).",
			].join("\n"),
			level: "info",
		});
		expect(pi.file.entries.filter((entry) => entry.type === "custom")).toEqual([]);
	});

	it("says where to ask where the extension reads no history", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("suggest");
		expect(pi.screen.notifications.at(-1)?.message).toContain("npm run report -- --suggest");
	});
});

describe("a default of suggested on pi", () => {
	it("sets the suggested budget as the session starts, announced with where it came from", async () => {
		const { read, asked } = reader(pastSessions(5));
		const pi = new FakePi();
		pi.projectHistory = read;
		pi.env = { TIMEBOX_DEFAULT: "suggested" };
		await pi.start();
		expect(asked).toEqual([{ project: "/nonexistent/project", current: pi.file.id }]);
		expect(pi.screen.notifications).toEqual([
			{
				message:
					"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here): 50m and 5 turns and $1.00.",
				level: "info",
			},
		]);
		expect(pi.screen.status).toBe("Timebox: 50m 0s left (50m budget) | 5 turns left (0/5) | $0.00 of $1.00");
	});

	it("starts the session without a budget with too little history, and says why", async () => {
		const { read } = reader(pastSessions(4));
		const pi = new FakePi();
		pi.projectHistory = read;
		pi.flag = "Suggested";
		await pi.start();
		expect(pi.screen.notifications).toEqual([
			{
				message:
					"Timebox: --timebox (suggested): too little history to suggest a budget: 4 sessions of this project so far, and a suggestion needs 5. The session starts without a budget.",
				level: "warning",
			},
		]);
		expect(pi.file.entries.filter((entry) => entry.type === "custom")).toEqual([]);
	});
});
