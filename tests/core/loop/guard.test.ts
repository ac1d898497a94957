// The loop guard's rule from tables: a call's key (its tool and canonical input), the view the texts show, the run's
// counts as an immutable value, and the verdict for each call of a run. Guards a loop no limit ever ends, and a guard
// that takes two different calls for one.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOOP_VIEW_CHARS } from "../../../src/core/constants.ts";
import {
	callHash,
	callKey,
	callView,
	canonicalJson,
	hashOfKey,
	hashText,
	keyOf,
	type ToolCallSeen,
} from "../../../src/core/loop/calls.ts";
import { checkCall, type LoopVerdict, replay } from "../../../src/core/loop/guard.ts";
import { countCall, countOf, noCalls, type RunCalls } from "../../../src/core/loop/run-calls.ts";
import { loopRefusal, loopRefusedMessage, loopStoppedMessage, ordinal } from "../../../src/core/text/loop.ts";

const bash = (command: string): ToolCallSeen => ({ tool: "bash", input: { command } });

describe("canonical JSON", () => {
	const cyclic: Record<string, unknown> = { a: 1 };
	cyclic.self = cyclic;
	it.each([
		['{"a":2,"b":1}', { b: 1, a: 2 }],
		['{"z":{"x":true,"y":[3,{"c":"x","d":null}]}}', { z: { y: [3, { d: null, c: "x" }], x: true } }],
		["[2,1]", [2, 1]],
		["{}", { a: undefined, b: () => 1, c: Symbol("s") }],
		["[null,null]", [undefined, () => 1]],
		['{"f":1.5,"i":null,"n":null}', { n: Number.NaN, i: Number.POSITIVE_INFINITY, f: 1.5 }],
		['{"big":"10"}', { big: 10n }],
		['"a \\"quoted\\"\\nline"', 'a "quoted"\nline'],
		["null", null],
		["null", undefined],
		["false", false],
		['{"a":1,"self":null}', cyclic],
	])("writes %s", (expected, value) => {
		expect(canonicalJson(value)).toBe(expected);
	});

	it("orders keys as sort() orders strings: by UTF-16 code units", () => {
		const fields = { b: 1, B: 2, é: 3, a: 4, "10": 5, "9": 6, "": 7, aa: 8, "😀": 9, "\uffff": 10 };
		const written = Object.keys(fields)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${fields[key as keyof typeof fields]}`);
		expect(canonicalJson(fields)).toBe(`{${written.join(",")}}`);
	});

	it("writes a value met twice side by side, not inside itself, in full both times", () => {
		const shared = { k: 1 };
		expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"k":1},"b":{"k":1}}');
	});
});

describe("a call's key", () => {
	it.each<[string, ToolCallSeen, ToolCallSeen]>([
		[
			"the same input in another key order",
			{ tool: "edit", input: { a: 1, b: { c: 2, d: 3 } } },
			{ tool: "edit", input: { b: { d: 3, c: 2 }, a: 1 } },
		],
		[
			"a field left undefined",
			{ tool: "read", input: { path: "a", limit: undefined } },
			{ tool: "read", input: { path: "a" } },
		],
		["an item left undefined and a null", { tool: "t", input: [undefined, 1] }, { tool: "t", input: [null, 1] }],
		["a bigint and its digits", { tool: "t", input: { n: 10n } }, { tool: "t", input: { n: "10" } }],
		["-0 and 0", { tool: "t", input: { n: -0 } }, { tool: "t", input: { n: 0 } }],
		[
			"NaN, Infinity and null",
			{ tool: "t", input: [Number.NaN, Number.POSITIVE_INFINITY] },
			{ tool: "t", input: [null, null] },
		],
		["a number however it was written", { tool: "t", input: [1.5, 1e21, 7] }, { tool: "t", input: [15e-1, 1e21, 7.0] }],
	])("is the same for %s", (_why, one, other) => {
		expect(callKey(one)).toBe(callKey(other));
	});

	it.each<[string, ToolCallSeen, ToolCallSeen]>([
		["another tool", bash("ls"), { tool: "shell", input: { command: "ls" } }],
		["another input", bash("ls"), bash("ls -l")],
		["a number for its text", { tool: "t", input: { n: 1 } }, { tool: "t", input: { n: "1" } }],
		["a fraction for its text", { tool: "t", input: { n: 1.5 } }, { tool: "t", input: { n: "1.5" } }],
		[
			"a large whole number for its text",
			{ tool: "t", input: { n: 2 ** 40 } },
			{ tool: "t", input: { n: "1099511627776" } },
		],
		["two whole numbers", { tool: "t", input: [-1, 2] }, { tool: "t", input: [-2, 1] }],
		["an array's order", { tool: "t", input: [1, 2] }, { tool: "t", input: [2, 1] }],
		["the tool's name joined to its input", { tool: "ab", input: "c" }, { tool: "a", input: "bc" }],
		["one text for two", { tool: "t", input: ["ab"] }, { tool: "t", input: ["a", "b"] }],
		["an object for an array", { tool: "t", input: { a: {} } }, { tool: "t", input: { a: [] } }],
		["a null for a field left out", { tool: "t", input: { a: null } }, { tool: "t", input: {} }],
		["true for false", { tool: "t", input: true }, { tool: "t", input: false }],
		["a field's name for its value", { tool: "t", input: { a: "b" } }, { tool: "t", input: { b: "a" } }],
	])("differs for %s", (_why, one, other) => {
		expect(callKey(one)).not.toBe(callKey(other));
	});

	it("is the same exactly when the canonical JSON is: for any JSON input, in any key order", () => {
		const shuffled = (value: unknown): unknown => {
			if (Array.isArray(value)) return value.map(shuffled);
			if (typeof value !== "object" || value === null) return value;
			const entries = Object.entries(value).reverse();
			return Object.fromEntries(entries.map(([key, field]) => [key, shuffled(field)]));
		};
		fc.assert(
			fc.property(fc.jsonValue(), fc.jsonValue(), (one, other) => {
				expect(callKey({ tool: "t", input: shuffled(one) })).toBe(callKey({ tool: "t", input: one }));
				const sameJson = canonicalJson(one) === canonicalJson(other);
				expect(callKey({ tool: "t", input: one }) === callKey({ tool: "t", input: other })).toBe(sameJson);
			}),
			{ numRuns: 300 },
		);
	});

	it("is 16 hex digits, and parts 10,000 different calls", () => {
		const keys = new Set(Array.from({ length: 10_000 }, (_, n) => callKey(bash(`echo ${n}`))));
		expect(keys.size).toBe(10_000);
		for (const key of [...keys].slice(0, 100)) expect(key).toMatch(/^[0-9a-f]{16}$/);
		expect(keyOf(hashText(""))).toMatch(/^[0-9a-f]{16}$/);
	});
});

describe("a call's view", () => {
	const long = "x".repeat(LOOP_VIEW_CHARS + 10);
	it.each<[ToolCallSeen, string]>([
		[bash("npm test"), "npm test"],
		[{ tool: "Bash", input: { description: "run the tests", command: "npm   test\n  --watch" } }, "npm test --watch"],
		[{ tool: "shell", input: { command: ["bash", "-lc", "npm test"] } }, "npm test"],
		[{ tool: "shell", input: { command: ["npm", "run", "build"] } }, "npm run build"],
		[{ tool: "shell", input: { command: ["bash", "script.sh", "now"] } }, "bash script.sh now"],
		[{ tool: "exec", input: { cmd: "make" } }, "make"],
		[{ tool: "read", input: { limit: 10, file_path: "src/a.ts" } }, "src/a.ts"],
		[{ tool: "grep", input: { pattern: "TODO", path: " " } }, "TODO"],
		[{ tool: "t", input: { z: { y: ["", "deep"] }, a: 3 } }, "deep"],
		[{ tool: "t", input: { a: 3, b: [true] } }, '{"a":3,"b":[true]}'],
		[{ tool: "t", input: {} }, ""],
		[{ tool: "t", input: undefined }, ""],
		[{ tool: "t", input: "plain text" }, "plain text"],
		[{ tool: "t", input: 42 }, "42"],
		[{ tool: "t", input: { command: "", path: "p" } }, "p"],
		[{ tool: "t", input: { command: [1, 2] } }, '{"command":[1,2]}'],
		[bash(long), `${"x".repeat(LOOP_VIEW_CHARS - 1)}…`],
		[bash("x".repeat(LOOP_VIEW_CHARS)), "x".repeat(LOOP_VIEW_CHARS)],
	])("of %j is %j", (call, view) => {
		expect(callView(call)).toBe(view);
	});
});

describe("a run's counts", () => {
	const h = hashOfKey;
	it("counts each call, keeps the most any call was asked for and how many differ, and never changes a value", () => {
		const empty = noCalls("p1");
		const one = countCall(empty, h("00000000000000a1"));
		const two = countCall(one.calls, h("00000000000000a1"));
		const other = countCall(two.calls, h("00000000000000b2"));
		expect([one.count, two.count, other.count]).toEqual([1, 2, 1]);
		expect(other.calls).toMatchObject({ run: "p1", peak: 2, size: 2 });
		expect(countOf(empty, h("00000000000000a1"))).toBe(0);
		expect(countOf(one.calls, h("00000000000000a1"))).toBe(1);
		expect(countOf(one.calls, h("00000000000000b2"))).toBe(0);
		expect(countOf(other.calls, h("00000000000000a1"))).toBe(2);
		expect(countOf(other.calls, h("00000000000000c3"))).toBe(0);
	});

	it("tells apart hashes that share their first 32 bits, or all but the last bit, or all but the first", () => {
		let calls: RunCalls = noCalls("p1");
		const keys = [
			"1234567800000000",
			"1234567800000001",
			"12345678ffffffff",
			"0234567800000000",
			"1234567880000000",
			"9234567800000000",
		];
		for (const [index, key] of keys.entries()) {
			for (let time = 0; time <= index; time++) calls = countCall(calls, h(key)).calls;
		}
		expect(keys.map((key) => countOf(calls, h(key)))).toEqual([1, 2, 3, 4, 5, 6]);
		expect(calls.size).toBe(6);
	});

	it("reads a key of any other form (a log edited by hand) as the hash of its text, which its own key names too", () => {
		const calls = replay("p1", ["not-a-key", keyOf(hashText("not-a-key")), "another"]);
		expect(countOf(calls, hashText("not-a-key"))).toBe(2);
		expect(countOf(calls, hashText("another"))).toBe(1);
		expect(hashOfKey("00000000000000ff")).toEqual({ a: 0, b: 255 });
	});

	it("keeps 10,000 different calls apart, each counted right", () => {
		let calls: RunCalls = noCalls("p1");
		const hashes = Array.from({ length: 10_000 }, (_, n) => callHash(bash(`echo ${n}`)));
		for (const hash of hashes) calls = countCall(calls, hash).calls;
		for (const hash of hashes.slice(0, 500)) calls = countCall(calls, hash).calls;
		expect(calls.size).toBe(10_000);
		expect(hashes.filter((hash, index) => countOf(calls, hash) !== (index < 500 ? 2 : 1))).toEqual([]);
	});
});

describe("the verdict for each call of a run", () => {
	const A = bash("npm test");
	const B: ToolCallSeen = { tool: "read", input: { path: "src/a.ts" } };
	const C: ToolCallSeen = { tool: "read", input: { path: "src/b.ts" } };
	it.each<[string, number, readonly ToolCallSeen[], readonly LoopVerdict[]]>([
		["one call four times", 3, [A, A, A, A], ["runs", "runs", "refused", "stops"]],
		["A B A B, not one after the other", 3, [A, B, A, B, A, B], ["runs", "runs", "runs", "runs", "refused", "refused"]],
		[
			"A B A B on, to the stop",
			3,
			[A, B, A, B, A, B, A],
			["runs", "runs", "runs", "runs", "refused", "refused", "stops"],
		],
		["anything after the stop", 2, [A, A, A, B, C], ["runs", "refused", "stops", "stopped", "stopped"]],
		["different calls, never", 2, [A, B, C], ["runs", "runs", "runs"]],
		[
			"a refused call asked for by another before the stop",
			2,
			[A, A, B, B, C],
			["runs", "refused", "runs", "refused", "runs"],
		],
		["loop:2 asked for twice", 2, [A, A], ["runs", "refused"]],
	])("%s under loop:%d", (_name, limit, calls, verdicts) => {
		let kept: RunCalls | null = null;
		const seen: LoopVerdict[] = [];
		for (const call of calls) {
			const check = checkCall(kept, "p1", call, limit);
			kept = check.calls;
			seen.push(check.verdict);
		}
		expect(seen).toEqual(verdicts);
	});

	it("starts a new run from nothing, and names its run", () => {
		let kept: RunCalls | null = null;
		for (const _ of [1, 2]) kept = checkCall(kept, "p1", A, 2).calls;
		const next = checkCall(kept, "p2", A, 2);
		expect(next).toMatchObject({ verdict: "runs", count: 1, calls: { run: "p2", size: 1 } });
	});

	it("counts from the keys a host kept when it gives them, not from its own memory", () => {
		const mine = checkCall(null, "p1", A, 3).calls;
		const check = checkCall(mine, "p1", A, 3, [callKey(A), callKey(B), callKey(A)]);
		expect(check).toMatchObject({ verdict: "refused", count: 3 });
		expect(checkCall(mine, "p1", B, 3, [callKey(A), callKey(A), callKey(A), callKey(A)]).verdict).toBe("stopped");
		expect(checkCall(mine, "p1", A, 3, []).verdict).toBe("runs");
	});
});

describe("ordinals", () => {
	it.each([
		[1, "1st"],
		[2, "2nd"],
		[3, "3rd"],
		[4, "4th"],
		[11, "11th"],
		[12, "12th"],
		[13, "13th"],
		[21, "21st"],
		[22, "22nd"],
		[23, "23rd"],
		[101, "101st"],
		[111, "111th"],
		[1000, "1000th"],
	])("writes %d as %s", (count, text) => {
		expect(ordinal(count)).toBe(text);
	});
});

describe("the texts of a call with nothing to show", () => {
	it("name the tool alone", () => {
		expect(loopRefusal("ping", "", 3)).toBe(
			"Timebox: this is the 3rd identical ping call in this run; its result will not change. Change your approach or finish with what you have.",
		);
		expect(loopRefusedMessage("ping", "", 3)).toBe(
			"Timebox refused a repeated call: ping, the 3rd identical one in this run.",
		);
		expect(loopStoppedMessage("ping", "", 4)).toBe("Timebox stopped a loop: ping asked for 4 times in this run.");
	});
});
