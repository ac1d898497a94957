// Where Timebox keeps its opencode data (session logs, the ledger of outcomes, the status files): a folder of its own
// under Timebox's state folder, which the daily ledger shares with pi and the hook hosts.

import { join } from "node:path";
import { dailyStateDir } from "../node/daily-ledger.ts";

/** The folder of Timebox's opencode data under its state folder. */
export const OPENCODE_FOLDER = "opencode";

/** `$XDG_STATE_HOME/timebox/opencode`, else `~/.local/state/timebox/opencode`. */
export function opencodeDataDir(env: NodeJS.ProcessEnv): string {
	return join(dailyStateDir(env), OPENCODE_FOLDER);
}
