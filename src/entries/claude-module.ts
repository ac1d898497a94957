// Timebox's hooks module for Claude Code, the entry `hooks/hooks.json` names under `modules` (bundled by npm run
// build into plugins/claude-code/hooks/timebox-module.js): the hooks registered with the real clock and ids.

import type { On } from "../adapters/claude/function-hooks/engine.ts";
import { registerWith } from "../adapters/claude/function-hooks/module.ts";

/** The entry Claude Code calls once per load of the module. */
export function register(on: On): void {
	registerWith(on, { clock: { now: () => Date.now() }, newId: () => crypto.randomUUID() });
}
