// Codex CLI for the tests, the bench and the demo: the pinned binary, installed once into node_modules/.cache, and a
// throwaway CODEX_HOME whose config points Codex at a loopback fake of the Responses API.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePinned, type InstallOptions } from "../pinned-install.ts";
import { cacheDir } from "../repo.ts";

export const CODEX_VERSION = "0.171.0";
// One folder per version, so that checkouts pinned to different versions do not reinstall over each other.
const INSTALL_DIR = cacheDir(`codex-${CODEX_VERSION}`);
export const CODEX = join(INSTALL_DIR, "node_modules/.bin/codex");

/** Installs the pinned Codex CLI once (cached). */
export async function ensureCodex(options: InstallOptions = {}): Promise<void> {
	await ensurePinned(
		{
			packageSpec: `@openai/codex@${CODEX_VERSION}`,
			installDir: INSTALL_DIR,
			bin: CODEX,
			versionText: `codex-cli ${CODEX_VERSION}`,
		},
		options,
	);
}

/**
 * Writes `<codexHome>/config.toml`: the fake model at `apiUrl` (a Responses API), its key read from FAKE_API_KEY, and
 * any more lines (`extra`, TOML) after the model's.
 */
export function writeCodexConfig(codexHome: string, apiUrl: string, extra: readonly string[] = []): void {
	mkdirSync(codexHome, { recursive: true });
	writeFileSync(
		join(codexHome, "config.toml"),
		[
			'model = "fake-model"',
			'model_provider = "fake"',
			...extra,
			"[model_providers.fake]",
			'name = "fake"',
			`base_url = "${apiUrl}"`,
			'env_key = "FAKE_API_KEY"',
			'wire_api = "responses"',
			"",
		].join("\n"),
	);
}
