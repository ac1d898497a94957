// The pi package entry: Timebox with the real clock, Node timers, the detached shell runner and stderr as fallback.

import { nodeScheduler, systemClock } from "../node/node-time.ts";
import { createShellRunner } from "../node/on-stop-runner.ts";
import { createTimeboxExtension } from "./extension.ts";

export default createTimeboxExtension({
	clock: systemClock,
	scheduler: nodeScheduler,
	onStop: createShellRunner(),
	writeFallback: (line) => process.stderr.write(`${line}\n`),
});
