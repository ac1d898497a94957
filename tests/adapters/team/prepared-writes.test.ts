// A daily command's writes on the team's store, prepared before the rules answer it: learnt on a first answer (each
// taken as done), none where the rules could not answer it here or failed, and then answered in order as the store did
// them; a write that was not prepared is not done.

import { describe, expect, it } from "vitest";
import type { TeamOp } from "../../../src/adapters/team/batch.ts";
import { PreparedWrites } from "../../../src/adapters/team/prepared-writes.ts";
import { NO_ADJUSTMENT } from "../../../src/core/index.ts";

const ASK: TeamOp = {
	op: "ask",
	adjustment: { ...NO_ADJUSTMENT, addTimeMs: 1_800_000 },
	why: "x",
};
const OFF: TeamOp = { op: "limits", limits: null };
const notDone = (why: string) => ({ failed: expect.stringContaining(why) });

describe("a daily command's prepared writes", () => {
	it("learns the writes the rules make, each taken as done, then answers each as the store did it, in order", () => {
		const writes = new PreparedWrites();
		const learnt = writes.learn(() => {
			expect(writes.write(ASK)).toBe("done");
			expect(writes.write(OFF)).toBe("done");
		});
		expect(learnt).toEqual([ASK, OFF]);
		writes.sent(learnt, {
			counted: [],
			standings: [],
			problems: [],
			carry: null,
			writes: ["done", { failed: "NOPERM" }],
		});
		expect(writes.write(ASK)).toBe("done");
		expect(writes.write(OFF)).toEqual({ failed: "NOPERM" });
		expect(writes.write(OFF)).toEqual(notDone("it was not prepared"));
	});

	it("learns none where the rules cannot answer the command here: they say why for the session", () => {
		const writes = new PreparedWrites();
		expect(
			writes.learn((unanswered) => {
				writes.write(ASK);
				unanswered();
			}),
		).toEqual([]);
		writes.sent([], null);
		expect(writes.write(ASK)).toEqual(notDone("it was not prepared"));
	});

	it("answers every write not done where the batch failed or did not say, naming why", () => {
		const writes = new PreparedWrites();
		writes.sent([ASK, OFF], { error: "connect ECONNREFUSED" });
		expect([writes.write(ASK), writes.write(OFF)]).toEqual([
			notDone("connect ECONNREFUSED"),
			notDone("connect ECONNREFUSED"),
		]);
		writes.sent([ASK], { counted: [], standings: [], problems: [], carry: null });
		expect(writes.write(ASK)).toEqual(notDone("the batch did not say"));
	});

	it("forgets the last command's answers, and learns nothing of rules that fail: its writes are not done", () => {
		const writes = new PreparedWrites();
		writes.sent([ASK], { counted: [], standings: [], problems: [], carry: null, writes: ["done"] });
		writes.forget();
		expect(() =>
			writes.learn(() => {
				writes.write(OFF);
				throw new Error("the rules failed");
			}),
		).toThrow("the rules failed");
		expect(writes.write(ASK)).toEqual(notDone("it was not prepared"));
	});
});
