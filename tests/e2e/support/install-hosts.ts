// The end-to-end suite's global set-up: every pinned host installed before the first file runs, all at once. Each
// install waits mostly on the registry, and one after the other, inside the files that first need them, they added
// their sum to a fresh machine's run; at once, about the longest of them.

import { ensureClaudeCode } from "../../../demo/hosts/claude.ts";
import { ensureCodex } from "../../../demo/hosts/codex.ts";
import { ensureGemini } from "../../../demo/hosts/gemini.ts";
import { ensureOmp } from "../../../demo/hosts/omp.ts";
import { ensureOpencode } from "../../../demo/hosts/opencode.ts";
import { PI_1 } from "./pi-hosts.ts";

export default async function setup(): Promise<void> {
	const started = Date.now();
	await Promise.all([ensureClaudeCode(), ensureCodex(), ensureGemini(), ensureOmp(), ensureOpencode(), PI_1.ensure()]);
	console.log(`The pinned hosts are installed (${((Date.now() - started) / 1000).toFixed(1)} s).`);
}
