// The pi package entry: Timebox with the real clock, Node timers, the detached shell runner and stderr as fallback.

import { createTimeboxExtension } from "./extension.js";
import { nodeScheduler, systemClock } from "./node-time.js";
import { createShellRunner } from "./on-stop-runner.js";

export default createTimeboxExtension({
	clock: systemClock,
	scheduler: nodeScheduler,
	onStop: createShellRunner(),
	writeFallback: (line) => process.stderr.write(`${line}\n`),
});
