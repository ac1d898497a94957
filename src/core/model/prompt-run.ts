// Runs of prompts in a log's fold: prompt lines one after another with no working folder, kept in a summary as one
// text of ids and a list of times, so that a hook on a long session makes no object per past prompt. Every id in a run
// differs from every prompt id kept before it (plain or in a run), so that the rules count a run's prompts without
// reading its ids one by one. Made where a fold is kept (`compactKept`), and what each reading asks of a run.

import { idCount, idIndex, textId } from "./id-text.ts";
import type { KeptLine, PromptRun } from "./log-line.ts";

/** Whether the run holds a prompt of `promptId`. */
export function runHas(run: PromptRun, promptId: string): boolean {
	return idIndex(run.ids, promptId) >= 0;
}

/** When the run's prompt of `promptId` was sent, or undefined where it holds none. */
export function runAt(run: PromptRun, promptId: string): number | undefined {
	const at = idIndex(run.ids, promptId);
	return at < 0 ? undefined : run.at[idCount(run.ids, at)];
}

/** The ids of an id text, newest first, one at a time: a reader mostly wants the newest only. */
export function* idsNewestFirst(ids: string): Generator<string> {
	for (let end = ids.length - 1; end >= 0; ) {
		const start = end === 0 ? 0 : ids.lastIndexOf("\n", end - 1) + 1;
		yield ids.slice(start, end);
		end = start - 1;
	}
}

/** The newest id of an id text that holds one or more. */
export function newestId(ids: string): string {
	const end = ids.length - 1;
	// For a text of one empty id ("\n"), the search finds that line break and the slice is empty, as it should be.
	return ids.slice(ids.lastIndexOf("\n", end - 1) + 1, end);
}

/** An id text without the id that begins at `at` (one `idIndex` found). */
export function withoutIdAt(ids: string, at: number, id: string): string {
	return ids.slice(0, at) + ids.slice(at + id.length + 1);
}

/** A kept line as a summary holds it: a prompt with no working folder as its id and time. */
export type KeptJson = KeptLine | [string, number];

/**
 * The kept lines as a summary keeps them: each prompt with no working folder and an id kept before by no prompt joins
 * the run being made (a run read back, too); any other line ends it. A run of one is kept as its prompt. Returns the
 * lines and where the line at `recordAt` is among them.
 */
export function compactKept(kept: readonly KeptLine[], recordAt: number): { kept: KeptJson[]; recordAt: number } {
	const out: KeptJson[] = [];
	const seen = new Set<string>();
	let ids = "";
	let times: number[] = [];
	const end = () => {
		if (times.length === 1) out.push([ids.slice(0, -1), times[0] as number]);
		else if (times.length > 1) out.push({ kind: "prompts", ids, at: times });
		ids = "";
		times = [];
	};
	let recordFound = -1;
	for (let index = 0; index < kept.length; index++) {
		const line = kept[index] as KeptLine;
		if (line.kind === "prompts") {
			for (const id of idsNewestFirst(line.ids)) seen.add(id);
			ids += line.ids;
			times = times.concat(line.at);
			continue;
		}
		if (line.kind === "prompt") {
			const joins = line.cwd === undefined && textId(line.promptId) && !seen.has(line.promptId);
			seen.add(line.promptId);
			if (joins) {
				ids += `${line.promptId}\n`;
				times.push(line.at);
				continue;
			}
		}
		end();
		if (index === recordAt) recordFound = out.length;
		out.push(line.kind === "prompt" && line.cwd === undefined ? [line.promptId, line.at] : line);
	}
	end();
	return { kept: out, recordAt: recordFound };
}
