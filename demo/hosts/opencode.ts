// opencode for the tests, the bench and the demo: the pinned binary, installed once into node_modules/.cache, and a throwaway
// HOME whose config points opencode at a loopback fake of the chat completions API and loads Timebox from this checkout.

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePinned, type InstallOptions } from "../pinned-install.ts";
import { cacheDir, REPO } from "../repo.ts";

export const OPENCODE_VERSION = "1.18.33";
// One folder per version, so that checkouts pinned to different versions do not reinstall over each other.
const INSTALL_DIR = cacheDir(`opencode-${OPENCODE_VERSION}`);
export const OPENCODE = join(INSTALL_DIR, "node_modules/.bin/opencode");

/** Installs the pinned opencode once (cached), with the plugin package opencode would otherwise fetch at start. */
export async function ensureOpencode(options: InstallOptions = {}): Promise<void> {
	await ensurePinned(
		{
			packageSpec: `opencode-ai@${OPENCODE_VERSION}`,
			withPackages: [`@opencode-ai/plugin@${OPENCODE_VERSION}`],
			installDir: INSTALL_DIR,
			bin: OPENCODE,
			versionText: OPENCODE_VERSION,
		},
		options,
	);
}

/**
 * Writes `<home>/.config/opencode`: the fake provider at `apiUrl` (priced, so costs are reported), Timebox from this
 * checkout in the `plugin` lists of the server (with `options`, if any) and of the TUI (unless `withTimebox` is false),
 * no update check, and `@opencode-ai/plugin` already installed
 * there, so opencode does not try the registry before it loads plugins.
 */
export function writeOpencodeHome(
	home: string,
	apiUrl: string,
	options?: Record<string, unknown>,
	withTimebox = true,
): void {
	const config = join(home, ".config", "opencode");
	mkdirSync(config, { recursive: true });
	const settings = {
		provider: {
			fake: {
				npm: "@ai-sdk/openai-compatible",
				name: "Fake",
				options: { baseURL: apiUrl, apiKey: "sk-fake" },
				models: { "fake-model": { name: "Fake Model", cost: { input: 3, output: 15 } } },
			},
		},
		model: "fake/fake-model",
		small_model: "fake/fake-model",
		autoupdate: false,
		plugin: withTimebox ? [options ? [REPO, options] : REPO] : [],
	};
	writeFileSync(join(config, "opencode.json"), JSON.stringify(settings, null, 2));
	writeFileSync(join(config, "tui.json"), JSON.stringify({ plugin: withTimebox ? [REPO] : [] }));
	preinstallPluginPackage(config);
}

/**
 * Gives an opencode config folder (`~/.config/opencode`, a project's `.opencode`) the `@opencode-ai/plugin` package
 * opencode installs into each folder that names plugins, so that it does not try the registry first.
 */
export function preinstallPluginPackage(config: string): void {
	mkdirSync(config, { recursive: true });
	symlinkSync(join(INSTALL_DIR, "node_modules"), join(config, "node_modules"));
	const dependencies = { "@opencode-ai/plugin": OPENCODE_VERSION };
	writeFileSync(join(config, "package.json"), JSON.stringify({ dependencies }));
	const lock = {
		name: "opencode",
		lockfileVersion: 3,
		requires: true,
		packages: { "": { dependencies }, "node_modules/@opencode-ai/plugin": { version: OPENCODE_VERSION } },
	};
	writeFileSync(join(config, "package-lock.json"), JSON.stringify(lock));
}

/** The environment of an opencode in `home`: every XDG folder under it, and nothing that reaches the network. */
export function opencodeEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH,
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_CACHE_HOME: join(home, ".cache"),
		XDG_STATE_HOME: join(home, ".local", "state"),
		OPENCODE_DISABLE_MODELS_FETCH: "1",
		OPENCODE_DISABLE_AUTOUPDATE: "1",
		TERM: "xterm-256color",
		...extra,
	};
}
