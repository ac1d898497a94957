// The scripts' SHAs written in scripts.ts, which a hook process calls them by without hashing them: each is the SHA-1
// Redis gives the script as it stands. A script changed without its SHA would be called by its old name, which a store
// that still keeps the old script would run.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SCRIPT_SHAS, SCRIPTS } from "../../../src/adapters/team/scripts.ts";

describe("the scripts' SHAs", () => {
	it("name every script as Redis does, and nothing else", () => {
		const hashed = Object.fromEntries(
			Object.entries(SCRIPTS).map(([name, lua]) => [name, createHash("sha1").update(lua).digest("hex")]),
		);
		expect(SCRIPT_SHAS).toEqual(hashed);
	});
});
