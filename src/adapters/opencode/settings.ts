// Where Timebox's settings come from in opencode: the environment (TIMEBOX_DEFAULT, TIMEBOX_DAILY, TIMEBOX_SUBAGENTS),
// then the options given with the plugin in opencode's config (`"plugin": [["pi-timebox", { "default": "30m" }]]`). The
// core decides what each value means and names a bad one.

import { DAILY_ENV, DEFAULT_ENV, type SettingSources, SUBAGENTS_ENV } from "../../core/index.ts";

/** A default budget's text and where it came from, as the user would name it. */
export interface DefaultBudget {
	text: string;
	source: string;
}

function optionSource(name: string): string {
	return `the plugin option "${name}"`;
}

function text(value: unknown): string | null {
	if (value === undefined || value === null) return null;
	const shown = typeof value === "string" ? value : JSON.stringify(value);
	return shown.trim().length > 0 ? shown : null;
}

/** The default budget for a session that never had one: TIMEBOX_DEFAULT, else the `default` option, else none. */
export function defaultBudgetOf(env: NodeJS.ProcessEnv, options: Record<string, unknown>): DefaultBudget | null {
	const fromEnv = text(env[DEFAULT_ENV]);
	if (fromEnv !== null) return { text: fromEnv, source: DEFAULT_ENV };
	const fromOptions = text(options.default);
	return fromOptions === null ? null : { text: fromOptions, source: optionSource("default") };
}

/**
 * The plugin options `onLimit`, `awareness`, `grace`, `daily` and `subagents`; TIMEBOX_DAILY wins over the `daily`
 * option, and TIMEBOX_SUBAGENTS over the `subagents` one.
 */
export function settingsOf(env: NodeJS.ProcessEnv, options: Record<string, unknown>): SettingSources {
	const option = (name: string) =>
		options[name] === undefined ? null : { value: options[name], source: optionSource(name) };
	const dailyEnv = text(env[DAILY_ENV]);
	const daily = dailyEnv !== null ? { value: dailyEnv, source: DAILY_ENV } : option("daily");
	const subagentsEnv = text(env[SUBAGENTS_ENV]);
	return {
		onLimit: option("onLimit"),
		awareness: option("awareness"),
		grace: option("grace"),
		daily: daily === null ? [] : [{ ...daily, scope: "user" }],
		subagents: subagentsEnv !== null ? { value: subagentsEnv, source: SUBAGENTS_ENV } : option("subagents"),
	};
}
