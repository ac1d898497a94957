// Process entry of the hook script (bundled into each hook host package's bin/timebox.mjs): it runs the script's code
// (hook-main.ts, bundled beside it as bin/timebox-hook.cjs) from V8's code cache in Timebox's state folder, and writes
// that cache after a run where there was none. A hook process then starts with the functions an earlier one compiled
// already compiled. Run from the source, it runs hook-main.ts itself, which the build leaves out of this bundle.

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stateDirIn } from "../adapters/daily/ledger.ts";
import { type CachedModule, requireCached } from "../adapters/node/code-cache.ts";
import { CODE_CACHE_FOLDER } from "../core/index.ts";
import * as source from "./hook-main.ts";

/** The script's code, beside this entry in a host package (the build writes it there). */
const CODE_FILE = "timebox-hook.cjs";

/** The version of the code file (the first 16 hex digits of its SHA-256), which the build writes into this entry. */
declare const TIMEBOX_CODE_VERSION: string;

type Code = typeof source;

function loadCode(): CachedModule<Code> {
	const file = fileURLToPath(new URL(`./${CODE_FILE}`, import.meta.url));
	if (!existsSync(file)) return { exports: source, fromCache: false, keep: () => {} };
	const folder = join(stateDirIn(process.env.XDG_STATE_HOME, process.env.HOME ?? homedir()), CODE_CACHE_FOLDER);
	return requireCached<Code>(file, { folder, version: TIMEBOX_CODE_VERSION });
}

const code = loadCode();
const answered = await code.exports.runHookScript({
	url: import.meta.url,
	importReport: () => import("./report/entry.ts"),
});
// The cache holds what is compiled when it is written: after a hook answered, the code a hook takes. It is written
// once per version of the code, so not after a status line, a watcher or input the script could not read.
if (answered) code.keep();
