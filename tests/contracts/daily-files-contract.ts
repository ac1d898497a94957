// The contract every file-system port of the daily ledger keeps (`DailyFiles`), as one suite run against Node's files
// and Claude Code's hooks module, whose files are mirrored in memory and written and read asynchronously around each
// event (`sync`): a prompt file is taken once, at once; appended lines are read back, from any offset, once written.

import { describe, expect, it } from "vitest";
import type { DailyFiles } from "../../src/adapters/daily/ledger.ts";

/** A port over an empty folder `root`, and what carries its writes out and reads `folders` back in (nothing for Node). */
export interface DailyFilesUnderTest {
	files: DailyFiles;
	root: string;
	sync(folders: readonly string[]): Promise<void>;
}

/** Runs the daily files contract against `make`. */
export function dailyFilesContract(name: string, make: () => DailyFilesUnderTest | Promise<DailyFilesUnderTest>): void {
	describe(`the ${name} daily files`, () => {
		it("take a prompt file once: a second exclusive create of it fails at once, and the folder lists it", async () => {
			const { files, root, sync } = await make();
			const day = files.join(root, "user", "2026-11-28");
			files.makeDir(day);
			const prompt = files.join(day, "prompt-1");
			expect(files.exists(prompt)).toBe(false);
			expect(files.createExclusive(prompt, "session-1")).toBe(true);
			expect(files.createExclusive(prompt, "session-2")).toBe(false);
			expect(files.exists(prompt)).toBe(true);
			await sync([day]);
			expect(files.exists(prompt)).toBe(true);
			expect(files.list(day)).toEqual(["prompt-1"]);
			expect(files.createExclusive(prompt, "session-3")).toBe(false);
		});

		it("read appended lines back once written, from any offset, and count their size in bytes", async () => {
			const { files, root, sync } = await make();
			const day = files.join(root, "user", "2026-11-28");
			files.makeDir(day);
			const usage = files.join(day, "usage.jsonl");
			expect(files.size(usage)).toBe(0);
			files.append(usage, '{"tokens":1}\n');
			files.append(usage, '{"note":"é"}\n');
			await sync([day]);
			const size = files.byteLength('{"tokens":1}\n{"note":"é"}\n');
			expect(size).toBe(27);
			expect(files.size(usage)).toBe(size);
			expect(files.read(usage, 0, size)).toBe('{"tokens":1}\n{"note":"é"}\n');
			expect(files.read(usage, 13, size - 13)).toBe('{"note":"é"}\n');
		});

		it("remove a folder with what it holds", async () => {
			const { files, root, sync } = await make();
			const old = files.join(root, "user", "2026-11-27");
			files.makeDir(old);
			files.createExclusive(files.join(old, "prompt-1"), "session-1");
			await sync([old]);
			files.remove(old);
			await sync([old]);
			expect(files.exists(files.join(old, "prompt-1"))).toBe(false);
		});
	});
}
