// The code the per-event benchmarks measure, bundled as the hosts load it: one file built by esbuild from the same
// sources (pi loads its bundle from `npm run build`; opencode's runtime links the source modules natively), not the
// test runner's per-module transform, whose indirection between modules (each import a property read on a module
// object) made a call dearer the more files the core was split into.

import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { createDailyLedger } from "../../src/adapters/node/daily-ledger.ts";
import type { createFileLedger } from "../../src/adapters/node/file-ledger.ts";
import type { nodeScheduler, systemClock } from "../../src/adapters/node/node-time.ts";
import type { createTimeboxPlugin } from "../../src/adapters/opencode/plugin.ts";
import type { createTimeboxExtension } from "../../src/adapters/pi/extension.ts";
import type { SessionRuntime } from "../../src/core/run/runtime.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** Where the bundles are written: beside the packages their imports resolve to. */
const OUT = resolve(ROOT, "node_modules/.cache/timebox-bench");

/** What the handler benchmark calls: pi's extension and the core's runtime. */
export interface BundledHandlers {
	createTimeboxExtension: typeof createTimeboxExtension;
	SessionRuntime: typeof SessionRuntime;
}

/** What the opencode benchmark calls: the plugin and the Node ports its entry hands it. */
export interface BundledOpencode {
	createTimeboxPlugin: typeof createTimeboxPlugin;
	createDailyLedger: typeof createDailyLedger;
	createFileLedger: typeof createFileLedger;
	nodeScheduler: typeof nodeScheduler;
	systemClock: typeof systemClock;
}

/** Bundles `exports` (name → source file) into `name.mjs` and loads it. */
async function bundled(name: string, exports: Record<string, string>): Promise<unknown> {
	const result = await build({
		absWorkingDir: ROOT,
		stdin: {
			contents: Object.entries(exports)
				.map(([symbol, file]) => `export { ${symbol} } from "./${file}";`)
				.join("\n"),
			resolveDir: ROOT,
			loader: "ts",
		},
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node20",
		packages: "external",
		write: false,
		logLevel: "warning",
	});
	const [output] = result.outputFiles;
	if (output === undefined) throw new Error(`esbuild wrote no bundle for the ${name} benchmark`);
	mkdirSync(OUT, { recursive: true });
	const file = resolve(OUT, `${name}.mjs`);
	writeFileSync(file, output.text);
	return import(`${pathToFileURL(file).href}?${Date.now()}`);
}

/** pi's extension and the core runtime, bundled as `npm run build` bundles pi's entry. */
export async function loadBundledHandlers(): Promise<BundledHandlers> {
	// A cast at the boundary of a module loaded by its path: it exports exactly the names bundled.
	return (await bundled("handlers", {
		createTimeboxExtension: "src/adapters/pi/extension.ts",
		SessionRuntime: "src/core/run/runtime.ts",
	})) as BundledHandlers;
}

/** opencode's plugin and its Node ports, as one module graph linked directly. */
export async function loadBundledOpencode(): Promise<BundledOpencode> {
	// A cast at the boundary of a module loaded by its path: it exports exactly the names bundled.
	return (await bundled("opencode", {
		createTimeboxPlugin: "src/adapters/opencode/plugin.ts",
		createDailyLedger: "src/adapters/node/daily-ledger.ts",
		createFileLedger: "src/adapters/node/file-ledger.ts",
		nodeScheduler: "src/adapters/node/node-time.ts",
		systemClock: "src/adapters/node/node-time.ts",
	})) as BundledOpencode;
}
