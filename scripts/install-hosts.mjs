// Installs every pinned host binary the real-host tests run, as the end-to-end suite's set-up does, on its own: CI
// runs it while the gates run, and the suite's set-up then finds the hosts installed (or waits for an install under
// way). The set-up is TypeScript; esbuild bundles it for this Node first.

import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const repo = resolve(import.meta.dirname, "..");
const bundle = join(tmpdir(), `timebox-install-hosts-${process.pid}.mjs`);
try {
	await build({
		entryPoints: [join(repo, "tests/e2e/support/install-hosts.ts")],
		bundle: true,
		platform: "node",
		format: "esm",
		packages: "external",
		// The one module that reads its own location (demo/repo.ts) keeps it in the bundle.
		define: { "import.meta.dirname": JSON.stringify(join(repo, "demo")) },
		logLevel: "warning",
		outfile: bundle,
	});
	const { default: setup } = await import(pathToFileURL(bundle).href);
	await setup();
} finally {
	rmSync(bundle, { force: true });
}
