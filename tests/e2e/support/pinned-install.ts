// Installs a pinned host CLI from npm once into its own folder under node_modules/.cache, and reuses it while its
// `--version` still says the pinned version: the real-host tests and the bench share one install per host.

import { existsSync, mkdirSync } from "node:fs";
import { runProcess } from "../../support/processes.ts";

/** A pinned npm package, its binary's path, and what its `--version` prints when the right version is there. */
export interface PinnedCli {
	packageSpec: string;
	/** More packages installed beside it, pinned as well. */
	withPackages?: readonly string[];
	installDir: string;
	bin: string;
	/** The program that runs `bin` (a Node installed beside it), when the system's may not: `<runWith> <bin> --version`. */
	runWith?: string;
	versionText: string;
}

export async function ensurePinned(cli: PinnedCli): Promise<void> {
	const runWith = cli.runWith;
	const version = async () => {
		if (!existsSync(cli.bin) || (runWith !== undefined && !existsSync(runWith))) return "";
		const [command, args] = runWith === undefined ? [cli.bin, ["--version"]] : [runWith, [cli.bin, "--version"]];
		return (await runProcess(command, args, { env: { PATH: process.env.PATH }, timeoutMs: 60_000 })).stdout.trim();
	};
	if ((await version()) === cli.versionText) return;
	console.log(`Installing ${cli.packageSpec} into ${cli.installDir} (first run only)…`);
	mkdirSync(cli.installDir, { recursive: true });
	const args = ["install", "--prefix", cli.installDir, "--no-save", "--no-audit", "--no-fund", cli.packageSpec];
	args.push(...(cli.withPackages ?? []));
	const installed = await runProcess("npm", args, { env: process.env, timeoutMs: 300_000 });
	if (installed.code !== 0) throw new Error(`npm install failed (${installed.code}):\n${installed.stderr}`);
}
