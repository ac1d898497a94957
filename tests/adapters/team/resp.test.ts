// Redis's protocol as the team's store speaks it: a command as Redis reads it, and every kind of reply read whole
// however it is cut into pieces on the way.

import { describe, expect, it } from "vitest";
import { encodeCommand, type Reply, ReplyError, ReplyReader } from "../../../src/adapters/team/resp.ts";

/** What Redis would send for `value`: the test's own encoder of replies. */
function wire(value: Reply): string {
	if (value === null) return "$-1\r\n";
	if (value instanceof ReplyError) return `-${value.message}\r\n`;
	if (typeof value === "number") return `:${value}\r\n`;
	if (Array.isArray(value)) return `*${value.length}\r\n${value.map(wire).join("")}`;
	return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

describe("Redis's protocol", () => {
	it("writes a command as an array of bulk strings, counting bytes, not characters", () => {
		expect(encodeCommand(["EVALSHA", "ab", 2, "k€", -1.5]).toString()).toBe(
			"*5\r\n$7\r\nEVALSHA\r\n$2\r\nab\r\n$1\r\n2\r\n$4\r\nk€\r\n$4\r\n-1.5\r\n",
		);
	});

	it("reads every kind of reply: simple, error, integer, bulk (text, empty, null), arrays nested and null", () => {
		const reader = new ReplyReader();
		const bytes = Buffer.from(
			`+OK\r\n-NOPERM no permissions\r\n:42\r\n:-7\r\n$5\r\nh€l\r\n$0\r\n\r\n$-1\r\n*-1\r\n*0\r\n${wire([
				["prompts", "3"],
				"0.25",
				2,
			])}`,
		);
		expect(reader.push(bytes)).toEqual([
			"OK",
			new ReplyError("NOPERM no permissions"),
			42,
			-7,
			"h€l",
			"",
			null,
			null,
			[],
			[["prompts", "3"], "0.25", 2],
		]);
	});

	it("reads a reply cut anywhere, each reply once, in order", () => {
		const replies: Reply[] = [[["use", "1", "who", "ann@m1 (pi)"], 12, "0"], "OK", new ReplyError("ERR x"), null];
		const bytes = Buffer.from(replies.map(wire).join(""));
		for (let cut = 0; cut <= bytes.length; cut++) {
			const reader = new ReplyReader();
			const read = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
			expect(read).toEqual(replies);
		}
		// And a byte at a time.
		const reader = new ReplyReader();
		const read: Reply[] = [];
		for (const byte of bytes) read.push(...reader.push(Buffer.from([byte])));
		expect(read).toEqual(replies);
	});

	it("refuses bytes that are not Redis's protocol, naming how they start", () => {
		expect(() => new ReplyReader().push(Buffer.from("HTTP/1.1 400 Bad Request\r\n"))).toThrow(
			`the store's reply is not Redis's protocol (it starts with "HTTP/1.1 400 Bad Req")`,
		);
	});
});
