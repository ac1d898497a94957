// The id texts a log's fold keeps (model/id-text.ts): a set of ids and counts by id answer as a Set and a Map given the
// same ids do, for any ids (the empty one, ones holding a line break or a tab, one that begins another), read back
// from their JSON after any of the ids and added to after that.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdCounts, IdSet } from "../../src/core/index.ts";

/** Ids that meet again, among them those the texts part ids with, the empty one and prefixes of others. */
const id = fc.oneof(
	fc.constantFrom("a", "ab", "b", "", "\n", "a\nb", "a\tb", "\t", "b\n", "1"),
	fc.string({ maxLength: 3 }),
);
const ASKED = ["a", "ab", "b", "", "\n", "a\nb", "a\tb", "\t", "b\n", "1", "a\n", "\tb", "none"];

/** The same as it reads back from its JSON (as a summary keeps it: as text). */
const reread = <T>(value: { toJSON(): unknown }, from: (json: unknown) => T | null): T => {
	const read = from(JSON.parse(JSON.stringify(value)));
	if (read === null) throw new Error("not read back");
	return read;
};

describe("a set of ids kept as text", () => {
	it("answers as a Set does, read back at any point and added to after", () => {
		fc.assert(
			fc.property(fc.array(id, { maxLength: 12 }), fc.nat(12), (ids, at) => {
				const set = new Set(ids);
				const kept = new IdSet();
				for (const each of ids.slice(0, at)) kept.add(each);
				const read = reread(kept, IdSet.fromJSON);
				const copy = read.copy();
				for (const each of ids.slice(at)) read.add(each);
				for (const asked of [...ASKED, ...ids]) expect(read.has(asked)).toBe(set.has(asked));
				expect([...read].sort()).toEqual([...set].sort());
				// A copy taken before is left alone by what is added after.
				expect([...copy].sort()).toEqual([...new Set(ids.slice(0, at))].sort());
			}),
			{ numRuns: 300 },
		);
	});
});

describe("counts by id kept as text", () => {
	it("answer as a Map does, read back at any point and counted on after", () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(id, fc.nat(9)), { maxLength: 12 }), fc.nat(12), (sets, at) => {
				const map = new Map(sets);
				const kept = new IdCounts();
				for (const [each, count] of sets.slice(0, at)) kept.set(each, count);
				const read = reread(kept, IdCounts.fromJSON);
				const copy = read.copy();
				for (const [each, count] of sets.slice(at)) read.set(each, count);
				for (const asked of [...ASKED, ...sets.map(([each]) => each)]) expect(read.get(asked)).toBe(map.get(asked));
				expect([...read].sort()).toEqual([...map].sort());
				expect([...copy].sort()).toEqual([...new Map(sets.slice(0, at))].sort());
			}),
			{ numRuns: 300 },
		);
	});
});

describe("an id text's JSON", () => {
	it.each<[string, unknown]>([
		["null", null],
		["a number", 7],
		["a set with a text that is none", { text: ["a\n"], odd: [] }],
		["a set that keeps apart an id that is no text", { text: "", odd: [1] }],
	])("is no set of ids for %s, and never throws", (_name, value) => {
		expect(IdSet.fromJSON(value)).toBeNull();
	});

	it.each<[string, unknown]>([
		["null", null],
		["a number", 7],
		["counts with a text that is none", { text: ["a\t1\n"], odd: [] }],
		["counts with no list of those kept apart", { text: "", odd: {} }],
		["counts that keep apart an id that is no text", { text: "", odd: [1, 2] }],
	])("is no counts for %s, and never throws", (_name, value) => {
		expect(IdCounts.fromJSON(value)).toBeNull();
	});
});
