// Applies each mutant a Stryker JSON report says survived, one at a time, to a throwaway clone of the checkout's last
// commit, and runs the given unit test paths on it: a survivor that fails there is a kill Stryker did not count (it
// counts a test's failure, not a file's that asserts as it collects its cases), and one that passes needs a test or a
// reason. usage: node tests/mutation/survivors.mjs <report.json> [<path filter>] -- <test paths…>
// (npm run mutate writes reports/mutation/mutation.json)

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const [reportPath, filter = ""] = split === -1 ? args : args.slice(0, split);
const tests = split === -1 ? [] : args.slice(split + 1);
if (reportPath === undefined || tests.length === 0) {
	console.error("usage: node tests/mutation/survivors.mjs <report.json> [<path filter>] -- <test paths…>");
	process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const root = process.cwd();
const copy = mkdtempSync(join(tmpdir(), "timebox-survivors-"));
try {
	const cloned = spawnSync("git", ["clone", "--quiet", root, copy], { stdio: "inherit" });
	if (cloned.status !== 0) process.exit(1);
	symlinkSync(resolve(root, "node_modules"), join(copy, "node_modules"));
	let killed = 0;
	let held = 0;
	for (const [file, { mutants }] of Object.entries(report.files)) {
		if (!file.includes(filter)) continue;
		const path = join(copy, file);
		const original = readFileSync(path, "utf8");
		const starts = [0];
		for (let at = original.indexOf("\n"); at !== -1; at = original.indexOf("\n", at + 1)) starts.push(at + 1);
		// Stryker's lines and columns count from 1.
		const offset = ({ line, column }) => (starts[line - 1] ?? 0) + column - 1;
		for (const mutant of mutants) {
			if (mutant.status !== "Survived") continue;
			const from = offset(mutant.location.start);
			const to = offset(mutant.location.end);
			writeFileSync(path, original.slice(0, from) + mutant.replacement + original.slice(to));
			const run = spawnSync("npx", ["vitest", "run", "--project", "unit", "--bail", "1", "--reporter=dot", ...tests], {
				cwd: copy,
				encoding: "utf8",
			});
			const fails = run.status !== 0;
			if (fails) killed++;
			else held++;
			const shown = mutant.replacement.replace(/\s+/g, " ").slice(0, 60);
			console.log(
				`${fails ? "fails " : "holds "} ${file}:${mutant.location.start.line} ${mutant.mutatorName} → ${shown}`,
			);
		}
		writeFileSync(path, original);
	}
	console.log(`${killed} fail a test applied by hand; ${held} hold.`);
} finally {
	rmSync(copy, { recursive: true, force: true });
}
