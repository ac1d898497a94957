// A team's daily budget as the user sets it: the environment over the settings, each thing set wrongly named (never
// with the password), and the team's day at its zone's midnight.

import { describe, expect, it, vi } from "vitest";
import { readTeam, teamDay, withoutPassword } from "../../../src/adapters/team/config.ts";

const ME = "ann@m1 (pi)";
const me = () => ME;
const env = (values: Record<string, string>): NodeJS.ProcessEnv => values;

describe("reading a team's daily budget", () => {
	it("takes nothing when neither a store nor a team is set", () => {
		expect(readTeam(env({}), {}, me)).toEqual({ config: null, warning: null });
		expect(readTeam(env({ TIMEBOX_TEAM: " " }), { dailyStore: 5 }, me)).toEqual({ config: null, warning: null });
	});

	it("asks who the user is only of a team that can be used: a session with no team never asks the system", () => {
		const asked = vi.fn(me);
		readTeam(env({}), {}, asked);
		readTeam(env({ TIMEBOX_TEAM: "platform" }), {}, asked);
		readTeam(env({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "a team" }), {}, asked);
		expect(asked).not.toHaveBeenCalled();
		expect(readTeam(env({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "t" }), {}, asked).config?.member).toBe(ME);
		expect(asked).toHaveBeenCalledTimes(1);
	});

	it("takes the environment over the settings, UTC and the open mode unless told otherwise", () => {
		const settings = { dailyStore: "redis://settings:1/0", team: "settings-team" };
		expect(
			readTeam(
				env({ TIMEBOX_DAILY_STORE: "rediss://u:p%40ss@h.example:6380/2", TIMEBOX_TEAM: "platform" }),
				settings,
				me,
			),
		).toEqual({
			config: {
				url: "rediss://u:p%40ss@h.example:6380/2",
				shown: "rediss://u@h.example:6380/2",
				team: "platform",
				zone: "UTC",
				failure: "open",
				member: ME,
			},
			warning: null,
		});
		const fromSettings = readTeam(
			env({ TIMEBOX_TEAM_TZ: "Europe/Berlin", TIMEBOX_DAILY_STORE_FAILURE: "Closed" }),
			settings,
			me,
		);
		expect(fromSettings.config).toMatchObject({
			url: "redis://settings:1/0",
			team: "settings-team",
			zone: "Europe/Berlin",
			failure: "closed",
		});
	});

	it("takes a failure mode that is neither open nor closed as closed, and says so; a blank one is the open mode", () => {
		const team = { TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "platform" };
		const mode = (failure: string) => readTeam(env({ ...team, TIMEBOX_DAILY_STORE_FAILURE: failure }), {}, me).config;
		expect(mode(" clsoed ")).toMatchObject({
			failure: "closed",
			note: 'Timebox: TIMEBOX_DAILY_STORE_FAILURE "clsoed" is neither "open" nor "closed", so new turns are refused while the team\'s store cannot be reached (closed).',
		});
		expect(mode("x".repeat(100))?.note).toContain(`"${"x".repeat(64)}" is neither`);
		for (const [given, failure] of [
			["OPEN", "open"],
			[" ", "open"],
			["closed", "closed"],
		] as const) {
			const read = mode(given);
			expect(read?.failure).toBe(failure);
			expect(read).not.toHaveProperty("note");
		}
	});

	it("reads values as a shell or a settings file leaves them: spaces around them dropped, blank ones not set", () => {
		const padded = readTeam(
			env({ TIMEBOX_DAILY_STORE: " redis://h:1/0\n", TIMEBOX_TEAM: "\tplatform ", TIMEBOX_TEAM_TZ: " Europe/Berlin " }),
			{},
			me,
		);
		expect(padded).toMatchObject({
			config: { url: "redis://h:1/0", team: "platform", zone: "Europe/Berlin" },
			warning: null,
		});
		// A blank variable is not set: the settings file's value counts, itself without its spaces; a blank one is none.
		const settings = { dailyStore: "  redis://settings:2/0 ", team: " settings-team" };
		expect(readTeam(env({ TIMEBOX_DAILY_STORE: "  ", TIMEBOX_TEAM: "" }), settings, me).config).toMatchObject({
			url: "redis://settings:2/0",
			team: "settings-team",
		});
		expect(readTeam(env({}), { dailyStore: "   ", team: " " }, me)).toEqual({ config: null, warning: null });
	});

	it("quotes at most 64 characters of a name it cannot use", () => {
		const long = "x".repeat(100);
		const warning = (values: Record<string, string>) => readTeam(env(values), {}, me).warning ?? "";
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: `${long} y` })).toContain(
			`TIMEBOX_TEAM "${"x".repeat(64)}…" is not a team name: a team name is at most 64 characters.`,
		);
		// A name of 64 letters is one; one letter more says why it is not; 64 with a space is a wrong letter, not a length.
		expect(
			warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: `${"x".repeat(31)} ${"x".repeat(32)}` }),
		).toContain('is not a team name (letters, digits, ".", "_", "-")');
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "x".repeat(64) })).toBe("");
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "x".repeat(65) })).toContain("at most 64");
		expect(
			warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "t", TIMEBOX_TEAM_TZ: `Mars/${long}` }),
		).toContain(`TIMEBOX_TEAM_TZ "Mars/${"x".repeat(59)}" is not a time zone`);
	});

	it("names what is wrong, never the password, and leaves the budget this machine's", () => {
		const warning = (values: Record<string, string>) => readTeam(env(values), {}, me).warning;
		const tail = " The daily budget is this machine's alone.";
		expect(warning({ TIMEBOX_TEAM: "platform" })).toBe(
			`Timebox: TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE (redis://host:6379).${tail}`,
		);
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://h:1" })).toBe(
			`Timebox: TIMEBOX_DAILY_STORE is set without TIMEBOX_TEAM (the team's name).${tail}`,
		);
		expect(warning({ TIMEBOX_DAILY_STORE: "not a url", TIMEBOX_TEAM: "t" })).toBe(
			`Timebox: TIMEBOX_DAILY_STORE is not an address (redis://[user:password@]host:port[/db]).${tail}`,
		);
		expect(warning({ TIMEBOX_DAILY_STORE: "http://u:secret@h:1", TIMEBOX_TEAM: "t" })).toBe(
			`Timebox: TIMEBOX_DAILY_STORE http://u@h:1 is not a redis:// or rediss:// address.${tail}`,
		);
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://:secret@cache.internal", TIMEBOX_TEAM: "t" })).toBe(
			`Timebox: TIMEBOX_DAILY_STORE redis://cache.internal names no port (redis://cache.internal:6379).${tail}`,
		);
		for (const path of ["/x", "/1x", "/-1", "/0/0", "/1.5"]) {
			expect(warning({ TIMEBOX_DAILY_STORE: `redis://u:secret@h:1${path}`, TIMEBOX_TEAM: "t" })).toBe(
				`Timebox: TIMEBOX_DAILY_STORE redis://u@h:1${path} names no database by number (redis://h:1/0).${tail}`,
			);
		}
		for (const path of ["", "/", "/0", "/15"]) {
			expect(warning({ TIMEBOX_DAILY_STORE: `redis://h:1${path}`, TIMEBOX_TEAM: "t" })).toBeNull();
		}
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "a team" })).toBe(
			`Timebox: TIMEBOX_TEAM "a team" is not a team name (letters, digits, ".", "_", "-").${tail}`,
		);
		expect(warning({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "t", TIMEBOX_TEAM_TZ: "Mars/Base" })).toBe(
			`Timebox: TIMEBOX_TEAM_TZ "Mars/Base" is not a time zone (Europe/Berlin, UTC).${tail}`,
		);
		expect(withoutPassword(new URL("redis://h:1/"))).toBe("redis://h:1");
	});
});

describe("a team set wrongly in the closed failure mode", () => {
	it("refuses new turns with what is wrong, and stands for the team as set; the open mode leaves them to this machine", () => {
		const wrong = { TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "platform", TIMEBOX_TEAM_TZ: "Europe/Berln" };
		const why = 'Timebox: TIMEBOX_TEAM_TZ "Europe/Berln" is not a time zone (Europe/Berlin, UTC).';
		expect(readTeam(env({ ...wrong, TIMEBOX_DAILY_STORE_FAILURE: " Closed " }), {}, me)).toEqual({
			config: null,
			warning: `${why} The team's budget cannot be counted, so new turns are refused until it is set right (TIMEBOX_DAILY_STORE_FAILURE is "Closed").`,
			closed: { name: "platform", zone: "UTC" },
		});
		expect(readTeam(env({ ...wrong, TIMEBOX_DAILY_STORE_FAILURE: "clsoed" }), {}, me).warning).toBe(
			`${why} The team's budget cannot be counted, so new turns are refused until it is set right (TIMEBOX_DAILY_STORE_FAILURE is "clsoed", taken as closed).`,
		);
		expect(
			readTeam(env({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_DAILY_STORE_FAILURE: "closed" }), {}, me),
		).toEqual({
			config: null,
			warning:
				"Timebox: TIMEBOX_DAILY_STORE is set without TIMEBOX_TEAM (the team's name). The team's budget cannot be counted, so new turns are refused until it is set right (TIMEBOX_DAILY_STORE_FAILURE is \"closed\").",
			closed: { name: "", zone: "UTC" },
		});
		// A name and a mode it cannot use are quoted to 64 characters.
		const long = readTeam(
			env({
				TIMEBOX_DAILY_STORE: "redis://h",
				TIMEBOX_TEAM: "t".repeat(70),
				TIMEBOX_DAILY_STORE_FAILURE: "c".repeat(70),
			}),
			{},
			me,
		);
		expect(long.closed?.name).toBe("t".repeat(64));
		expect(long.warning).toContain(`(TIMEBOX_DAILY_STORE_FAILURE is "${"c".repeat(64)}", taken as closed).`);
		for (const open of ["", "open", " OPEN "])
			expect(readTeam(env({ ...wrong, TIMEBOX_DAILY_STORE_FAILURE: open }), {}, me)).toEqual({
				config: null,
				warning: `${why} The daily budget is this machine's alone.`,
			});
	});
});

describe("the team's day", () => {
	it("finds a UTC day by arithmetic, as Intl finds it, without loading the time zone data a fresh process pays for", () => {
		const format = vi.spyOn(Intl, "DateTimeFormat");
		const at = Date.UTC(2031, 0, 1, 23, 59, 59, 999);
		try {
			expect(teamDay(at, "UTC")).toEqual({ day: "2031-01-01", start: Date.UTC(2031, 0, 1), end: Date.UTC(2031, 0, 2) });
			expect(readTeam({ TIMEBOX_DAILY_STORE: "redis://h:1", TIMEBOX_TEAM: "t" }, {}, () => "m").config?.zone).toBe(
				"UTC",
			);
			expect(format).not.toHaveBeenCalled();
		} finally {
			format.mockRestore();
		}
		expect(teamDay(at, "Etc/UTC")).toEqual(teamDay(at, "UTC"));
	});

	it("starts and ends at the zone's midnight, summer time included", () => {
		expect(teamDay(Date.UTC(2026, 10, 28, 23, 30), "UTC")).toEqual({
			day: "2026-11-28",
			start: Date.UTC(2026, 10, 28),
			end: Date.UTC(2026, 10, 29),
		});
		expect(teamDay(Date.UTC(2026, 10, 28, 23, 30), "Europe/Berlin")).toEqual({
			day: "2026-11-29",
			start: Date.UTC(2026, 10, 28, 23),
			end: Date.UTC(2026, 10, 29, 23),
		});
		// The day summer time starts in Berlin has 23 hours.
		const spring = teamDay(Date.UTC(2026, 2, 29, 12), "Europe/Berlin");
		expect(spring).toEqual({ day: "2026-03-29", start: Date.UTC(2026, 2, 28, 23), end: Date.UTC(2026, 2, 29, 22) });
	});

	it("is found again at its midnight, and not before, though each session asks at every check", () => {
		const zone = "America/New_York";
		const evening = teamDay(Date.UTC(2026, 10, 29, 4, 59, 59), zone);
		expect(evening.day).toBe("2026-11-28");
		expect(teamDay(evening.end - 1, zone)).toBe(evening);
		const next = teamDay(evening.end, zone);
		expect(next).toEqual({ day: "2026-11-29", start: evening.end, end: Date.UTC(2026, 10, 30, 5) });
		// An instant before the day last found (a clock set back) finds its own day, not the one kept.
		expect(teamDay(evening.start - 1, zone).day).toBe("2026-11-27");
		expect(teamDay(Date.UTC(2026, 10, 29, 12), "UTC").day).toBe("2026-11-29");
	});
});
