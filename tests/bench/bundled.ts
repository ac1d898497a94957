// The code the handler benchmark measures, bundled as pi loads it: one file built by esbuild from the same sources as
// pi's bundle (`npm run build`), not the test runner's per-module transform, whose indirection between modules (each
// import a property read on a module object) made a call dearer the more files the core was split into.

import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { createTimeboxExtension } from "../../src/adapters/pi/extension.ts";
import type { SessionRuntime } from "../../src/core/run/runtime.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** Where the bundle is written: beside the packages its imports resolve to. */
const OUT = resolve(ROOT, "node_modules/.cache/timebox-bench/handlers.mjs");

/** What the handler benchmark calls, from the bundle. */
export interface BundledHandlers {
	createTimeboxExtension: typeof createTimeboxExtension;
	SessionRuntime: typeof SessionRuntime;
}

/** Bundles pi's extension and the core runtime as `npm run build` bundles pi's entry, and loads the bundle. */
export async function loadBundledHandlers(): Promise<BundledHandlers> {
	const result = await build({
		absWorkingDir: ROOT,
		stdin: {
			contents: [
				'export { createTimeboxExtension } from "./src/adapters/pi/extension.ts";',
				'export { SessionRuntime } from "./src/core/run/runtime.ts";',
			].join("\n"),
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
	if (output === undefined) throw new Error("esbuild wrote no bundle for the handler benchmark");
	mkdirSync(resolve(OUT, ".."), { recursive: true });
	writeFileSync(OUT, output.text);
	// A cast at the boundary of a module loaded by its path: it exports exactly the two names bundled above.
	return (await import(`${pathToFileURL(OUT).href}?${Date.now()}`)) as BundledHandlers;
}
