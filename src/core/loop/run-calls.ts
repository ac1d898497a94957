// The calls of one run, counted by key, as an immutable value: each count makes a new value that shares all but one
// path with the one before (a hash trie, 32 ways at each level), so counting a call costs the same in a run of ten
// calls as in a run of ten thousand, and no earlier value changes. Only keys (hashes) and counts are kept.

import { hashText } from "./calls.ts";

/** A level of the trie: 32 slots, each empty, a counted key, or the level below. */
type Level = readonly Slot[];
type Slot = Level | Counted | undefined;

interface Counted {
	readonly key: string;
	readonly count: number;
}

/** The calls of one run (a prompt's, or a subagent's task), by key, and the most any one key was asked for. */
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
/** Levels read from each 32-bit lane of a key: 7 of 5 bits (the last holds 2). */
const LEVELS_PER_LANE = 7;
const EMPTY_LEVEL: Level = Array.from({ length: WIDTH }, () => undefined);

/** A key's 64 bits as two numbers, read once per look. */
interface Path {
	readonly key: string;
	readonly a: number;
	readonly b: number;
}

/** A key as `callKey` makes it: 16 hex digits. */
const KEY = /^[0-9a-f]{16}$/;

/** A key's path: its own 64 bits, or, for a key of another form (a log edited by hand), those of its hash. */
function pathOf(key: string): Path {
	const bits = KEY.test(key) ? key : hashText(key);
	return { key, a: Number.parseInt(bits.slice(0, 8), 16), b: Number.parseInt(bits.slice(8, 16), 16) };
}

/** The deepest level: past it a key has no bits left, and two keys that meet there are taken for one. */
const DEEPEST = 2 * LEVELS_PER_LANE - 1;

/** The slot a key takes at `depth`: 5 bits of its first lane, then of its second; two different keys part by depth 14. */
function slotOf(path: Path, depth: number): number {
	return depth < LEVELS_PER_LANE
		? (path.a >>> (depth * BITS)) & MASK
		: (path.b >>> ((depth - LEVELS_PER_LANE) * BITS)) & MASK;
}

/** A run with no call counted yet. */
export function noCalls(run: string): RunCalls {
	return { run, root: EMPTY_LEVEL, peak: 0, size: 0 };
}

/** How many times `key` was asked for in the run. */
export function countOf(calls: RunCalls, key: string): number {
	const path = pathOf(key);
	let level: Level = calls.root;
	for (let depth = 0; ; depth++) {
		const slot = level[slotOf(path, depth)];
		if (slot === undefined) return 0;
		if (!isLevel(slot)) return slot.key === key || depth === DEEPEST ? slot.count : 0;
		level = slot;
	}
}

/** The run with `key` asked for once more, and how many times it has been asked for now. */
export function countCall(calls: RunCalls, key: string): { calls: RunCalls; count: number } {
	const added = add(calls.root, pathOf(key), 0);
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

function add(level: Level, path: Path, depth: number): { level: Level; count: number } {
	const index = slotOf(path, depth);
	const slot = level[index];
	let next: Slot;
	let count = 1;
	if (slot === undefined) next = { key: path.key, count };
	else if (isLevel(slot)) {
		const below = add(slot, path, depth + 1);
		next = below.level;
		count = below.count;
	} else if (slot.key === path.key || depth === DEEPEST) {
		// The same key; or, at the deepest level, two keys equal in all 64 bits, taken for one.
		count = slot.count + 1;
		next = { key: slot.key, count };
	} else {
		// Two keys in one slot: the one there moves a level down, where the two part (or further down).
		const moved = EMPTY_LEVEL.slice();
		moved[slotOf(pathOf(slot.key), depth + 1)] = slot;
		const below = add(moved, path, depth + 1);
		next = below.level;
		count = below.count;
	}
	const copy = level.slice();
	copy[index] = next;
	return { level: copy, count };
}

function isLevel(slot: Level | Counted): slot is Level {
	return Array.isArray(slot);
}
