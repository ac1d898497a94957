// The per-user ledger of budget outcomes for every Node host: one small file per budget and outcome, linked into place
// exclusively, so the first claim wins across instances and processes and a budget is spent at most once, anywhere.

import { randomUUID } from "node:crypto";
import {
	closeSync,
	fsyncSync,
	linkSync,
	mkdirSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	writeSync,
} from "node:fs";
import { join } from "node:path";
import { type BudgetLedger, isBudgetId, type LedgerClaim, type LedgerView, RECORD_VERSION } from "../../core/index.ts";

function fileOf(dir: string, budgetId: string, kind: LedgerClaim["kind"]): string {
	if (!isBudgetId(budgetId)) throw new Error(`not a budget id: ${JSON.stringify(budgetId)}`);
	return join(dir, `${budgetId}.${kind}.json`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}

function isFile(path: string): boolean {
	return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * A claim file's fields, `{}` for one that is damaged or is no file (a folder in its place: a claim all the same, as
 * its claim could not be made either), or null when there is none.
 */
function readJson(file: string): Record<string, unknown> | null {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EISDIR" ? {} : null;
	}
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value : {};
	} catch {
		return {};
	}
}

function numberOr(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Links a file to a new name, failing with EEXIST when the name is taken; `fs.linkSync` but in tests. */
export type LinkFile = (existing: string, name: string) => void;

/** The ledger kept in `dir` (created on the first claim). */
export function createFileLedger(dir: string, link: LinkFile = linkSync): BudgetLedger {
	return {
		claim(claim) {
			const file = fileOf(dir, claim.budgetId, claim.kind);
			mkdirSync(dir, { recursive: true });
			// Written whole under a name of its own, then linked into place: the link fails when the claim exists, so the
			// first claim wins, and a reader never sees a claim half written. The draft is flushed to the disk before it is
			// linked: a stop and its on-stop command depend on the claim, which must outlive a crash of the machine too.
			const draft = `${file}.${randomUUID()}.draft`;
			const fd = openSync(draft, "wx");
			try {
				try {
					writeSync(fd, `${JSON.stringify({ version: RECORD_VERSION, ...claim })}\n`);
					fsyncSync(fd);
				} finally {
					closeSync(fd);
				}
				link(draft, file);
				return true;
			} catch (error) {
				// Taken: by a claim, or by something that is no claim (a folder in its place), which cannot be trusted either way.
				if ((error as NodeJS.ErrnoException).code === "EEXIST" && isFile(file)) return false;
				throw error;
			} finally {
				rmSync(draft, { force: true });
			}
		},
		read(budgetId): LedgerView {
			if (!isBudgetId(budgetId)) return { spent: null, off: false, nudged: false };
			const spent = readJson(fileOf(dir, budgetId, "spent"));
			const fields = spent && isRecord(spent.summary) ? spent.summary : {};
			return {
				spent: spent
					? {
							usedTurns: numberOr(fields.usedTurns, 0),
							elapsedMs: numberOr(fields.elapsedMs, 0),
							timeRanOut: fields.timeRanOut === true,
							...(typeof fields.wrapUpUntil === "number" && Number.isFinite(fields.wrapUpUntil)
								? { wrapUpUntil: fields.wrapUpUntil }
								: {}),
							...(fields.limit === "tokens" || fields.limit === "cost" ? { limit: fields.limit } : {}),
							...(fields.noRoom === true ? { noRoom: true as const } : {}),
							...(typeof fields.tokens === "number" && Number.isFinite(fields.tokens) ? { tokens: fields.tokens } : {}),
							...(typeof fields.cost === "number" && Number.isFinite(fields.cost) ? { cost: fields.cost } : {}),
							prompt: typeof spent.prompt === "string" ? spent.prompt : null,
						}
					: null,
				off: readJson(fileOf(dir, budgetId, "off")) !== null,
				nudged: readJson(fileOf(dir, budgetId, "nudged")) !== null,
			};
		},
	};
}
