// Node's file calls for reading a session's log folded, counting the bytes read of it: how a test shows that a hook with
// a kept summary reads only the lines after it.

import { type LogFiles, nodeLogFiles } from "../../src/adapters/node/log-summary.ts";

/** Node's file calls, counting the bytes read of the log. */
export function countingLogFiles(): LogFiles & { bytes: number } {
	const files = {
		...nodeLogFiles,
		bytes: 0,
		read(fd: number, length: number, position: number): Buffer {
			const read = nodeLogFiles.read(fd, length, position);
			files.bytes += read.length;
			return read;
		},
	};
	return files;
}
