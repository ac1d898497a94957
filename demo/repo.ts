// Where this checkout is, for the demo launcher and the real-host tests: the one module that reads its own location,
// so that the launcher's bundle (start.sh) can pin it with a define.

import { resolve } from "node:path";

/** The root of this checkout. */
export const REPO = resolve(import.meta.dirname, "..");

/** The folder a pinned host CLI is installed into: `node_modules/.cache/timebox-<name>`. */
export function cacheDir(name: string): string {
	return resolve(REPO, "node_modules/.cache", `timebox-${name}`);
}
