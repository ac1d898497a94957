// Runs a setup step of a host (an install script, a plugin install) to its end, capturing its output.

import { execFile } from "node:child_process";

export interface QuietResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs a program to its end; never rejects on a non-zero exit (the code says it), killed after `timeoutMs`. */
export function execFileQuiet(
	file: string,
	args: readonly string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<QuietResult> {
	return new Promise((done) => {
		execFile(
			file,
			args,
			{ cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 120_000 },
			(error, stdout, stderr) => {
				const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
				done({ code, stdout: String(stdout), stderr: String(stderr) });
			},
		);
	});
}
