// Where a default budget for new pi sessions comes from: the --timebox flag, then PI_TIMEBOX (pi's own name), then
// TIMEBOX_DEFAULT (every host's), then the project's .pi/settings.json, then the user's settings.json (oh-my-pi's
// config.yml; the `timebox` key's `default`). The first one set wins; the core decides what it does (it never replaces
// a budget the session already had). The other settings under the same key (`onLimit`, `awareness`, `grace`,
// `subagents`) are read the same way, the project's over the user's; TIMEBOX_SUBAGENTS wins over `subagents` and
// TIMEBOX_DAILY over the user's `daily`, as the environment wins over the settings file on every host.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DAILY_ENV, DEFAULT_ENV, type SettingSource, type SettingSources, SUBAGENTS_ENV } from "../../core/index.ts";

/** A default budget's text and where it came from, as the user would name it. */
export interface DefaultBudget {
	text: string;
	source: string;
}

/** What the defaults are read from: the real ones in production, others in tests. */
export interface DefaultSources {
	/** The value of `--timebox`, as pi gives it. */
	flag: unknown;
	env: NodeJS.ProcessEnv;
	/** The project's working directory: its `.pi/settings.json` is read. */
	cwd: string;
	/** The user's global settings file (`settings.json` in pi's agent directory, `config.yml` in oh-my-pi's). */
	globalSettings: string;
}

/** The name of the flag, `pi --timebox "30m turns:10"`. */
export const DEFAULT_FLAG = "timebox";
/** pi's own environment variable, `PI_TIMEBOX="30m turns:10"`, read before every host's `TIMEBOX_DEFAULT`. */
export const PI_DEFAULT_ENV = "PI_TIMEBOX";
/** The key Timebox reads in pi's settings files. */
export const SETTINGS_KEY = "timebox";
/** pi's settings file in its agent directory. */
export const PI_SETTINGS_FILE = "settings.json";
/**
 * oh-my-pi's, in YAML: at its start it moves a `settings.json` of its agent directory into this file, the `timebox`
 * key with the rest, before an extension reads it.
 */
export const OMP_SETTINGS_FILE = "config.yml";

/** A YAML parser: Bun's own where the host runs on Bun (oh-my-pi); none on Node, where no host keeps YAML settings. */
function yamlParser(): ((text: string) => unknown) | null {
	// A host boundary: Bun's global, which Node's types do not declare.
	const bun = (globalThis as { Bun?: { YAML?: { parse?: unknown } } }).Bun;
	const parse = bun?.YAML?.parse;
	return typeof parse === "function" ? (text) => parse(text) : null;
}

/** A settings file's text as data: YAML for a `.yml` file, else JSON. */
function parseSettings(file: string, text: string): unknown {
	if (!file.endsWith(".yml")) return JSON.parse(text);
	const parse = yamlParser();
	return parse === null ? undefined : parse(text);
}

/** The `timebox` key of a settings file, or undefined when the file or the key is not there. */
function settingsSection(file: string): Record<string, unknown> | undefined {
	let parsed: unknown;
	try {
		parsed = parseSettings(file, readFileSync(file, "utf8"));
	} catch {
		// No file, or one the host itself will complain about: nothing from it.
		return undefined;
	}
	const section = isRecord(parsed) ? parsed[SETTINGS_KEY] : undefined;
	return isRecord(section) ? section : undefined;
}

/** A field of the `timebox` key of a settings file, or undefined when the file, the key or the field is not there. */
function settingsField(file: string, field: string): unknown {
	return settingsSection(file)?.[field];
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}

/**
 * The team's store and name from pi's own settings file (`timebox.dailyStore`, `timebox.team`), beside `daily`: the
 * file read once, as a session's first prompt opens its daily ledger.
 */
export function readTeamSettings(globalSettings: string): { dailyStore: unknown; team: unknown } {
	const section = settingsSection(globalSettings);
	return { dailyStore: section?.dailyStore, team: section?.team };
}

/** The `timebox.default` of a settings file: its text, a non-text value as text (the core says why it is bad), or null. */
function settingsDefault(file: string): string | null {
	const value = settingsField(file, "default");
	if (value === undefined || value === null) return null;
	return typeof value === "string" ? value : JSON.stringify(value);
}

/** The settings Timebox reads under the `timebox` key besides `default`. */
type SettingField = "onLimit" | "awareness" | "grace" | "subagents";

/**
 * A field of the `timebox` settings, the project's over the user's, with where it came from; null when neither sets it.
 */
export function readSetting(
	sources: Pick<DefaultSources, "cwd" | "globalSettings">,
	field: SettingField,
): SettingSource | null {
	for (const file of [join(sources.cwd, ".pi", "settings.json"), sources.globalSettings]) {
		const value = settingsField(file, field);
		if (value !== undefined) return { value, source: `${SETTINGS_KEY}.${field} in ${file}` };
	}
	return null;
}

/** The subagent budget: `TIMEBOX_SUBAGENTS` (budget words), else the `subagents` setting (words or a map by type). */
function subagentsSetting(sources: Pick<DefaultSources, "env" | "cwd" | "globalSettings">): SettingSource | null {
	const env = sources.env[SUBAGENTS_ENV];
	if (env !== undefined && env.trim().length > 0) return { value: env, source: SUBAGENTS_ENV };
	return readSetting(sources, "subagents");
}

/**
 * Every setting Timebox reads besides the default budget: `onLimit`, `awareness`, `grace` and `subagents`, and the
 * `daily` budgets: the user's (`TIMEBOX_DAILY`, else `daily` in the user's file) covers every session of the user, the
 * project's the sessions in that project; both apply.
 */
export function readSettings(sources: Pick<DefaultSources, "env" | "cwd" | "globalSettings">): SettingSources {
	const projectFile = join(sources.cwd, ".pi", "settings.json");
	const dailyEnv = sources.env[DAILY_ENV];
	const userDaily =
		dailyEnv !== undefined && dailyEnv.trim().length > 0
			? [{ value: dailyEnv, source: DAILY_ENV, scope: "user" }]
			: fileDaily(sources.globalSettings, "user");
	const daily = [...userDaily, ...fileDaily(projectFile, `project:${sources.cwd}`)];
	return {
		onLimit: readSetting(sources, "onLimit"),
		awareness: readSetting(sources, "awareness"),
		grace: readSetting(sources, "grace"),
		subagents: subagentsSetting(sources),
		daily,
	};
}

/** The `daily` of a settings file as a daily budget of `scope`, or nothing. */
function fileDaily(file: string, scope: string): (SettingSource & { scope: string })[] {
	const value = settingsField(file, "daily");
	return value === undefined ? [] : [{ value, source: `${SETTINGS_KEY}.daily in ${file}`, scope }];
}

/** The default budget for a new session, the first source that sets one winning, or null. */
export function readDefaultBudget(sources: DefaultSources): DefaultBudget | null {
	if (typeof sources.flag === "string" && sources.flag.trim().length > 0) {
		return { text: sources.flag, source: `--${DEFAULT_FLAG}` };
	}
	for (const name of [PI_DEFAULT_ENV, DEFAULT_ENV]) {
		const env = sources.env[name];
		if (env !== undefined && env.trim().length > 0) return { text: env, source: name };
	}
	const projectFile = join(sources.cwd, ".pi", "settings.json");
	const project = settingsDefault(projectFile);
	if (project !== null) return { text: project, source: `${SETTINGS_KEY}.default in ${projectFile}` };
	const global = settingsDefault(sources.globalSettings);
	if (global !== null) return { text: global, source: `${SETTINGS_KEY}.default in ${sources.globalSettings}` };
	return null;
}
