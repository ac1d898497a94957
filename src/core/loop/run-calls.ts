// The calls of one run, counted by hash, as an immutable value: each count makes a new value that shares all but one
// path with the one before (a hash trie, 32 ways at each level), so counting a call costs about the same in a run of
// ten calls as in a run of ten thousand, and no earlier value changes. Only hashes and counts are kept.

import type { CallHash } from "./calls.ts";

/** A level of the trie: 32 slots, each empty, a counted call, or the level below. */
type Level = readonly Slot[];
type Slot = Level | Counted | undefined;

interface Counted {
	readonly a: number;
	readonly b: number;
	readonly count: number;
}

/** The calls of one run (a prompt's, or a subagent's task), by hash, and the most any one call was asked for. */
export interface RunCalls {
	/** Whose run it counts: the prompt's key, or the subagent's id. */
	readonly run: string;
	readonly root: Level;
	/** The most times any one call was asked for in the run. */
	readonly peak: number;
	/** How many different calls the run asked for. */
	readonly size: number;
}

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
/** Levels read from each 32-bit lane of a hash: 7 of 5 bits (the last holds 2). */
const LEVELS_PER_LANE = 7;
const EMPTY_LEVEL: Level = Array.from({ length: WIDTH }, () => undefined);

/** The slot a hash takes at `depth`: 5 bits of its first lane, then of its second; two different hashes part by 14. */
function slotOf(hash: CallHash, depth: number): number {
	return depth < LEVELS_PER_LANE
		? (hash.a >>> (depth * BITS)) & MASK
		: (hash.b >>> ((depth - LEVELS_PER_LANE) * BITS)) & MASK;
}

function same(counted: Counted, hash: CallHash): boolean {
	return counted.a === hash.a && counted.b === hash.b;
}

/** A run with no call counted yet. */
export function noCalls(run: string): RunCalls {
	return { run, root: EMPTY_LEVEL, peak: 0, size: 0 };
}

/** How many times the call of `hash` was asked for in the run. */
export function countOf(calls: RunCalls, hash: CallHash): number {
	let level: Level = calls.root;
	for (let depth = 0; ; depth++) {
		const slot = level[slotOf(hash, depth)];
		if (slot === undefined) return 0;
		if (!isLevel(slot)) return same(slot, hash) ? slot.count : 0;
		level = slot;
	}
}

/** The run with the call of `hash` asked for once more, and how many times it has been asked for now. */
export function countCall(calls: RunCalls, hash: CallHash): { calls: RunCalls; count: number } {
	const added = add(calls.root, hash, 0);
	return {
		calls: {
			run: calls.run,
			root: added.level,
			peak: Math.max(calls.peak, added.count),
			size: calls.size + (added.count === 1 ? 1 : 0),
		},
		count: added.count,
	};
}

function add(level: Level, hash: CallHash, depth: number): { level: Level; count: number } {
	const index = slotOf(hash, depth);
	const slot = level[index];
	let next: Slot;
	let count = 1;
	if (slot === undefined) next = { a: hash.a, b: hash.b, count };
	else if (isLevel(slot)) {
		const below = add(slot, hash, depth + 1);
		next = below.level;
		count = below.count;
	} else if (same(slot, hash)) {
		count = slot.count + 1;
		next = { a: hash.a, b: hash.b, count };
	} else {
		// Two calls in one slot: the one there moves a level down, where the two part (two different hashes differ in
		// one of the 64 bits the 14 levels read).
		const moved = EMPTY_LEVEL.slice();
		moved[slotOf(slot, depth + 1)] = slot;
		next = add(moved, hash, depth + 1).level;
	}
	const copy = level.slice();
	copy[index] = next;
	return { level: copy, count };
}

function isLevel(slot: Level | Counted): slot is Level {
	return Array.isArray(slot);
}
