// Process entry of the hook script (bundled into each hook host package's bin/timebox.mjs, and as CommonJS into
// bin/timebox.cjs, which the hook gate starts): it runs the script's code
// (hook-main.ts, bundled beside it as bin/timebox-hook.cjs) from V8's code cache in Timebox's state folder, and writes
// that cache after a run where there was none. A hook process then starts with the functions an earlier one compiled
// already compiled. Run from the source, it runs hook-main.ts itself, which the build leaves out of this bundle.

import { requireCodeBeside } from "../adapters/node/code-cache.ts";
import { codeCacheFolder } from "./code-cache-folder.ts";
import * as source from "./hook-main.ts";

/** The script's code, beside this entry in a host package (the build writes it there). */
const CODE_FILE = "timebox-hook.cjs";

/** The version of the code file (the first 16 hex digits of its SHA-256), which the build writes into this entry. */
declare const TIMEBOX_CODE_VERSION: string;

const code = requireCodeBeside(import.meta.url, CODE_FILE, source, () => ({
	folder: codeCacheFolder(process.env),
	version: TIMEBOX_CODE_VERSION,
}));
if (typeof code.exports.runHookScript !== "function") {
	// A package copied in part: said in one line, as a hook's failure (the host goes on without Timebox).
	process.stderr.write(`timebox: ${CODE_FILE} is missing beside ${process.argv[1]}: install the plugin again\n`);
	process.exitCode = 1;
} else {
	// The cache holds what is compiled when it is written: after a hook answered, the code a hook takes. It is written
	// once per version of the code, so not after a status line, a watcher or input the script could not read.
	void code.exports
		.runHookScript({ url: import.meta.url, importReport: () => import("./report/entry.ts") })
		.then((answered) => {
			if (answered) code.keep();
		});
}
