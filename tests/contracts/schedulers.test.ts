// Runs the scheduler contract against the fake scheduler the unit tests use and the scheduler of Claude Code's hooks
// module (over `$.clock`, here on the fake's manual clock); tests/e2e runs it against Node's timers.

import { engineOf } from "../../src/adapters/claude/function-hooks/engine.ts";
import { engineScheduler } from "../../src/adapters/claude/function-hooks/time.ts";
import { FakeDollar } from "../adapters/claude/function-hooks/fake-engine.ts";
import { FakeTime } from "../support/fake-time.ts";
import { schedulerContract } from "./scheduler-contract.ts";

schedulerContract("fake", () => {
	const time = new FakeTime();
	return {
		scheduler: time,
		pass: async (ms) => time.advance(ms),
	};
});

schedulerContract("Claude Code hooks module", () => {
	const time = new FakeTime();
	const engine = engineOf(new FakeDollar(time));
	return {
		scheduler: engineScheduler(() => engine),
		pass: async (ms) => time.advance(ms),
	};
});
