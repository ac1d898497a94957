// The size of what a request carries, read without making its JSON: every text's UTF-8 bytes, and a few bytes for each
// number, bracket and separator, so about its JSON's length and never less than its texts.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textSize } from "../../../src/adapters/node/text-size.ts";

describe("the size of a request's content", () => {
	it.each<[string, unknown, number]>([
		["a text, in UTF-8 with its quotes", "héllo", 8],
		["a number, true, false and null as the longest of them", [1, true, false, null], 2 + 4 * 25],
		["nothing for a value left out", { gone: undefined }, 2 + 4 + 4],
		[
			"a message: keys, texts and brackets",
			{ role: "user", content: [{ type: "text", text: "fix it" }] },
			2 + (8 + 6) + (11 + 2 + (2 + (8 + 6) + (8 + 8)) + 1),
		],
	])("counts %s", (_name, value, size) => {
		expect(textSize(value)).toBe(size);
	});

	it("stops following a value nested deeper than any message, such as one that holds itself", () => {
		const looped: { self?: unknown } = {};
		looped.self = looped;
		expect(textSize(looped)).toBe(64 * 10);
	});

	it("is never less than the UTF-8 bytes of the texts it holds, nor far from its JSON's length", () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const json = Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
				const size = textSize(value);
				const texts = JSON.stringify(value)?.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
				const textBytes = texts.reduce((sum, text) => sum + Buffer.byteLength(JSON.parse(text) as string, "utf8"), 0);
				return size >= textBytes && size <= json * 25 + 2;
			}),
		);
	});
});
