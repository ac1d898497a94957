// Installs a pinned host CLI from npm once into its own folder under node_modules/.cache, and reuses it while the
// pinned versions are the ones installed there: the real-host tests, the bench and the host demos share one install.

import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A pinned npm package, its binary's path, and what its `--version` prints when the right version is there. */
export interface PinnedCli {
	packageSpec: string;
	/** More packages installed beside it, pinned as well. */
	withPackages?: readonly string[];
	installDir: string;
	bin: string;
	/** What `--version` prints, or a test of it. */
	versionText: string | ((printed: string) => boolean);
	/** The PATH `--version` runs with (a binary that needs Bun beside it, say); the caller's PATH by default. */
	path?: string;
	/** The program that runs `bin` (a Node installed beside it), when the system's may not: `<runWith> <bin> --version`. */
	runWith?: string;
	/** Runs after `npm install`, before the version is checked (a step npm left out). */
	afterInstall?: () => Promise<void>;
}

/** How an install reports: quietly (the tests) or with npm's own progress and summary on the terminal (the demos). */
export interface InstallOptions {
	progress?: boolean;
}

/** The text `cli.bin --version` prints, or "" when the binary is not there or fails. */
export function installedVersion(cli: PinnedCli): Promise<string> {
	const runWith = cli.runWith;
	if (!existsSync(cli.bin) || (runWith !== undefined && !existsSync(runWith))) return Promise.resolve("");
	const [command, args] = runWith === undefined ? [cli.bin, ["--version"]] : [runWith, [cli.bin, "--version"]];
	return new Promise((done) => {
		execFile(command, args, { env: { PATH: cli.path ?? process.env.PATH }, timeout: 60_000 }, (_, stdout) =>
			done(String(stdout).trim()),
		);
	});
}

/** Whether `cli.bin --version` prints the pinned version. */
async function printsPinnedVersion(cli: PinnedCli): Promise<boolean> {
	const printed = await installedVersion(cli);
	return typeof cli.versionText === "string" ? printed === cli.versionText : cli.versionText(printed);
}

/** The version of package `name` that npm installed into `installDir`, or "" when it is not there. */
export function installedPackageVersion(installDir: string, name: string): string {
	try {
		const manifest: unknown = JSON.parse(readFileSync(join(installDir, "node_modules", name, "package.json"), "utf8"));
		const version = typeof manifest === "object" && manifest !== null && "version" in manifest ? manifest.version : "";
		return typeof version === "string" ? version : "";
	} catch {
		return "";
	}
}

/** A pinned spec's package name and version: `@scope/name@1.2.3` is `@scope/name` at `1.2.3`. */
function nameAndVersion(spec: string): { name: string; version: string } {
	const at = spec.lastIndexOf("@");
	return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/**
 * Whether the pinned version is installed: its binary (and the program that runs it) are there, and npm installed
 * every pinned package at its version. Read from the packages' manifests, not from `--version`: a host's start-up can
 * take most of a minute on a busy machine (Gemini CLI relaunches itself), and a check that timed out took an install
 * for a missing one and installed it again.
 */
export function isPinnedInstalled(cli: PinnedCli): boolean {
	if (!existsSync(cli.bin) || (cli.runWith !== undefined && !existsSync(cli.runWith))) return false;
	return [cli.packageSpec, ...(cli.withPackages ?? [])].every((spec) => {
		const { name, version } = nameAndVersion(spec);
		return installedPackageVersion(cli.installDir, name) === version;
	});
}

/**
 * Installs the pinned version unless it is there; throws when npm fails or the binary it installed does not print the
 * pinned version.
 */
export async function ensurePinned(cli: PinnedCli, options: InstallOptions = {}): Promise<void> {
	// Another process may be installing it (CI installs the hosts while the gates run), its files there before it
	// has finished: one installs, the others wait for it and find it there.
	await whileLocked(`${cli.installDir}.lock`, () =>
		isPinnedInstalled(cli) ? Promise.resolve() : install(cli, options),
	);
}

async function install(cli: PinnedCli, options: InstallOptions): Promise<void> {
	const packages = [cli.packageSpec, ...(cli.withPackages ?? [])];
	console.log(`Installing ${packages.join(" and ")} into ${cli.installDir} (first run only, this can take minutes)…`);
	mkdirSync(cli.installDir, { recursive: true });
	const args = ["install", "--prefix", cli.installDir, "--no-save", "--no-audit", "--no-fund", ...packages];
	const { code, stderr } = await npm(args, options.progress === true);
	if (code !== 0) throw new Error(`npm install failed (${code}):\n${stderr}`);
	await cli.afterInstall?.();
	if (!isPinnedInstalled(cli) || !(await printsPinnedVersion(cli))) {
		throw new Error(`${cli.bin} --version does not print the pinned version: "${await installedVersion(cli)}"`);
	}
}

/** How long a process waits for another's install of the same host before it gives up. */
const LOCK_WAIT_MS = 20 * 60_000;
/** A lock folder with no process named in it yet is its taker's for this long, then taken as left by a killed one. */
const UNNAMED_LOCK_MS = 60_000;

/**
 * Runs `work` holding the lock folder `lock` (made with mkdir, which one process wins; the winner's pid inside it). A
 * lock whose process has ended is taken over.
 */
async function whileLocked(lock: string, work: () => Promise<void>): Promise<void> {
	mkdirSync(dirname(lock), { recursive: true });
	const deadline = Date.now() + LOCK_WAIT_MS;
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		}
		if (lockLeft(lock)) rmSync(lock, { recursive: true, force: true });
		else if (Date.now() > deadline) throw new Error(`${lock} is still held after ${LOCK_WAIT_MS / 60_000} min`);
		else await new Promise((resolve) => setTimeout(resolve, 500));
	}
	try {
		writeFileSync(join(lock, "pid"), String(process.pid));
		await work();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

/** Whether a lock folder was left by a process that ended: the one it names is gone, or it names none for long. */
function lockLeft(lock: string): boolean {
	try {
		const pid = Number(readFileSync(join(lock, "pid"), "utf8"));
		process.kill(pid, 0);
		return false;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") return false;
	}
	try {
		return Date.now() - statSync(lock).mtimeMs > UNNAMED_LOCK_MS;
	} catch {
		return false;
	}
}

function npm(args: readonly string[], progress: boolean): Promise<{ code: number | null; stderr: string }> {
	return new Promise((done, fail) => {
		const child = spawn("npm", args, { stdio: progress ? "inherit" : ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr?.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), 900_000);
		child.on("error", fail);
		child.on("close", (code) => {
			clearTimeout(timer);
			done({ code, stderr });
		});
	});
}
