// Runs the scheduler contract against the fake scheduler the unit tests use; tests/e2e runs it against Node's timers.

import { FakeTime } from "../support/fake-time.ts";
import { schedulerContract } from "./scheduler-contract.ts";

schedulerContract("fake", () => {
	const time = new FakeTime();
	return {
		scheduler: time,
		pass: async (ms) => time.advance(ms),
	};
});
