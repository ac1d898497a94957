// Runs the daily files contract against Node's files and the mirrored files of Claude Code's hooks module (written by
// `$.process.run` of its write script, read by `$.fs`, here over a temporary folder).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { MirroredFiles } from "../../src/adapters/claude/function-hooks/daily.ts";
import { engineOf } from "../../src/adapters/claude/function-hooks/engine.ts";
import { nodeDailyFiles } from "../../src/adapters/node/daily-ledger.ts";
import { FakeDollar } from "../adapters/claude/function-hooks/fake-engine.ts";
import { FakeTime } from "../support/fake-time.ts";
import { dailyFilesContract } from "./daily-files-contract.ts";

const folders: string[] = [];

function tempFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), "timebox-daily-files-"));
	folders.push(folder);
	return folder;
}

afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

dailyFilesContract("Node", () => ({ files: nodeDailyFiles, root: tempFolder(), sync: async () => {} }));

dailyFilesContract("Claude Code hooks module", () => {
	const engine = engineOf(new FakeDollar(new FakeTime()));
	const files = new MirroredFiles(() => engine);
	return {
		files,
		root: tempFolder(),
		sync: async (folders) => {
			await files.commit();
			await files.refresh(folders);
		},
	};
});
