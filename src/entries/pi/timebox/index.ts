// The pi package's entry, in a folder of its own so that pi lists the extension as "timebox". In the package it runs
// the extension's code (extension.ts, bundled beside it as CommonJS) from V8's code cache under pi's agent directory,
// and writes that cache once a session has run its first prompt where there was none: a fresh pi process then starts
// Timebox with the functions of a session's start and first prompt already compiled. On Bun (oh-my-pi), whose
// `node:vm` keeps no V8 cache, that code is loaded by `require`. Run from the source (pi -e on this file), it runs
// extension.ts itself, which the build leaves out of the entry's bundle.

import { join } from "node:path";
import * as host from "@mariozechner/pi-coding-agent";
import { type ExtensionAPI, getAgentDir } from "@mariozechner/pi-coding-agent";
import { requireCodeBeside } from "../../../adapters/node/code-cache.ts";
import { CODE_CACHE_FOLDER } from "../../../core/index.ts";
import * as source from "./extension.ts";

/** The extension's code, beside this entry in the package (the build writes it there). */
const CODE_FILE = "timebox-pi.cjs";

/** The version of the code file (the first 16 hex digits of its SHA-256), which the build writes into this entry. */
declare const TIMEBOX_CODE_VERSION: string;

const code = requireCodeBeside(import.meta.url, CODE_FILE, source, () => ({
	folder: process.versions.bun === undefined ? join(getAgentDir(), CODE_CACHE_FOLDER) : null,
	version: TIMEBOX_CODE_VERSION,
	// Most of the extension runs at a session's start and first prompt: compiled at its load in a process with no cache.
	eager: true,
}));

/**
 * `oh-my-pi`, which loads this package through its own pi-coding-agent, whose folder is `.omp`; else `pi` (whose
 * folder is `.pi`, on Node or Bun).
 */
function hostName(): string {
	// A host boundary: pi 0.73 does not export CONFIG_DIR_NAME from its root (pi 1.x and oh-my-pi do).
	const { CONFIG_DIR_NAME } = host as { CONFIG_DIR_NAME?: unknown };
	return CONFIG_DIR_NAME === ".omp" ? "oh-my-pi" : "pi";
}

export default function timebox(pi: ExtensionAPI): void {
	code.exports.timeboxExtension({
		agentDir: getAgentDir,
		url: import.meta.url,
		importReport: () => import("../../report/entry.ts"),
		host: hostName(),
	})(pi);
	// The cache holds what is compiled when it is written: after a run, a session's start and its prompt's handlers.
	pi.on("agent_end", () => {
		setImmediate(() => code.keep());
	});
	pi.on("session_shutdown", () => code.keep());
}
