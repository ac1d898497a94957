// Gemini CLI for the tests, the bench and the demo: the pinned binary, installed once into node_modules/.cache, the
// extension folder, and a throwaway HOME's settings.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePinned, type InstallOptions } from "../pinned-install.ts";
import { cacheDir, REPO } from "../repo.ts";

export const GEMINI_VERSION = "0.61.0";
// One folder per version, so that checkouts pinned to different versions do not reinstall over each other.
const INSTALL_DIR = cacheDir(`gemini-${GEMINI_VERSION}`);
export const GEMINI = join(INSTALL_DIR, "node_modules/.bin/gemini");
export const EXTENSION = join(REPO, "plugins/gemini-cli");

/** Installs the pinned Gemini CLI once (cached). */
export async function ensureGemini(options: InstallOptions = {}): Promise<void> {
	await ensurePinned(
		{
			packageSpec: `@google/gemini-cli@${GEMINI_VERSION}`,
			installDir: INSTALL_DIR,
			bin: GEMINI,
			versionText: GEMINI_VERSION,
		},
		options,
	);
}

/**
 * Writes `<home>/.gemini/settings.json`: API-key auth (for the fake), no telemetry, no loop detector, and any `extra`
 * settings.
 */
export function writeGeminiSettings(home: string, extra: Record<string, unknown> = {}): void {
	mkdirSync(join(home, ".gemini"), { recursive: true });
	writeFileSync(
		join(home, ".gemini", "settings.json"),
		JSON.stringify({
			security: { auth: { selectedType: "gemini-api-key" } },
			privacy: { usageStatisticsEnabled: false },
			telemetry: { enabled: false },
			model: { disableLoopDetection: true },
			...extra,
		}),
	);
}
