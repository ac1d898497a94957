// A pi extension for the start-up benchmark: `/bench-probe` prints the loaded commands and asks no model.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

/** The command the start-up runs send with `pi -p`. */
export const PROBE_COMMAND = "bench-probe";

/** Registers `/bench-probe`, which writes `bench-probe: <command names>` to stderr. */
export default function probeExtension(pi: ExtensionAPI): void {
	pi.registerCommand(PROBE_COMMAND, {
		description: "Benchmark probe: lists the loaded extension commands",
		handler: async () => {
			const names = pi.getCommands().map((command) => command.name);
			process.stderr.write(`${PROBE_COMMAND}: ${names.join(",")}\n`);
		},
	});
}
