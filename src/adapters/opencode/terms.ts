// opencode in its users' words, for the messages and the report: what its usage carries, where a daily budget is set.

import type { HostTerms } from "../../core/index.ts";

/** opencode in its users' words: its usage carries tokens and cost; a daily budget comes from the environment. */
export const OPENCODE_TERMS: HostTerms = {
	name: "opencode",
	command: "/timebox",
	tokens: true,
	cost: true,
	dailySetting:
		'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment opencode starts in, or the plugin option "daily".',
};
