// Claude Code for the tests, the bench and the demo: the pinned binary, installed once into node_modules/.cache, and the
// plugin folder that `--plugin-dir` loads Timebox from.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensurePinned, type InstallOptions } from "../pinned-install.ts";
import { execFileQuiet } from "../process.ts";
import { cacheDir, REPO } from "../repo.ts";

export const PLUGIN_DIR = join(REPO, "plugins/claude-code");
export const CLAUDE_CODE_VERSION = "2.1.332";
// One folder per version, so that checkouts pinned to different versions do not reinstall over each other.
const INSTALL_DIR = cacheDir(`claude-code-${CLAUDE_CODE_VERSION}`);
const PACKAGE_DIR = join(INSTALL_DIR, "node_modules/@anthropic-ai/claude-code");
export const CLAUDE_BIN = join(INSTALL_DIR, "node_modules/.bin/claude");

/** Installs the pinned Claude Code on first use (skipped when it is already there) and returns its binary. */
export async function ensureClaudeCode(options: InstallOptions = {}): Promise<string> {
	await ensurePinned(
		{
			packageSpec: `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
			installDir: INSTALL_DIR,
			bin: CLAUDE_BIN,
			versionText: `${CLAUDE_CODE_VERSION} (Claude Code)`,
			// With install scripts turned off, the package's postinstall never linked the native binary: run it by hand.
			afterInstall: async () => {
				if (existsSync(join(PACKAGE_DIR, "install.cjs"))) {
					await execFileQuiet(process.execPath, ["install.cjs"], { cwd: PACKAGE_DIR, timeoutMs: 120_000 });
				}
			},
		},
		options,
	);
	return CLAUDE_BIN;
}
