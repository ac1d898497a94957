// Where the Node processes of the hook hosts keep V8's code cache of Timebox's code: the hook script's and the hooks
// module's team batch, one folder in Timebox's state folder, which the three hook hosts share.

import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { stateDirIn } from "../adapters/daily/ledger.ts";
import { CODE_CACHE_FOLDER } from "../core/index.ts";

/**
 * The cache's folder, in Timebox's state folder; none (the code compiled, no cache kept) where that is not an absolute
 * path: an empty HOME or a relative XDG_STATE_HOME would put it under `/` or the user's project.
 */
export function codeCacheFolder(env: NodeJS.ProcessEnv): string | null {
	const state = stateDirIn(env.XDG_STATE_HOME, env.HOME || homedir());
	return isAbsolute(state) ? join(state, CODE_CACHE_FOLDER) : null;
}
