// Runs the scheduler contract against Node's real timers, the ones pi's Timebox uses: the fake scheduler of the unit
// tests must behave like these wherever the core relies on it.

import { nodeScheduler } from "../../src/adapters/node/node-time.ts";
import { schedulerContract } from "../contracts/scheduler-contract.ts";

schedulerContract("Node", () => ({
	scheduler: nodeScheduler,
	pass: (ms) => new Promise((done) => setTimeout(done, ms)),
}));
