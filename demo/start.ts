// `npm start -- <host>`: installs the pinned host once (with npm's progress), then opens its real TUI with Timebox in a
// throwaway HOME, against the offline scripted model on 127.0.0.1. The HOME is removed when the TUI exits.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_HOSTS, HOST_DEMOS, isDemoHost } from "./hosts.ts";

async function main(argv: readonly string[]): Promise<number> {
	const [host, ...extraArgs] = argv;
	if (!isDemoHost(host)) {
		console.error(`Timebox demo: unknown host "${host}"; try one of: pi, ${DEMO_HOSTS.join(", ")}.`);
		return 2;
	}
	const demo = HOST_DEMOS[host];
	await demo.install({ progress: true });
	const root = mkdtempSync(join(tmpdir(), `timebox-demo-${host}-`));
	try {
		const session = await demo.prepare(root, extraArgs);
		await session.installTimebox();
		console.log(
			`Timebox demo in ${demo.title}: offline, a scripted model on ${session.apiUrl}, a throwaway HOME in ${root}.\n` +
				`Try \`${demo.budgetLine}\`, then three prompts: two are answered, the third is refused. Leave with ${demo.leave}.`,
		);
		// The TUI gets Ctrl+C, not this launcher: it waits for the TUI to exit, then closes the fake API and removes the
		// HOME, so a Ctrl+C pressed twice to leave the TUI does not stop it half-way.
		process.on("SIGINT", () => {});
		const code = await new Promise<number>((done) => {
			const child = spawn(session.bin, session.args, { cwd: session.cwd, env: session.env, stdio: "inherit" });
			child.on("error", (error) => {
				console.error(`Timebox demo: could not start ${session.bin}: ${error.message}`);
				done(1);
			});
			child.on("exit", (exitCode, signal) => done(exitCode ?? (signal === null ? 1 : 128)));
		});
		await session.close();
		console.log(
			"Timebox demo: the throwaway HOME is removed, so its sessions cannot be resumed; " +
				`run \`npm start -- ${host}\` again for a new one.`,
		);
		return code;
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

// start.sh runs this module from a bundle it wrote for this run alone; once loaded, the bundle is not needed.
if (process.argv[1]?.endsWith(".mjs")) rmSync(process.argv[1], { force: true });

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(`Timebox demo: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
