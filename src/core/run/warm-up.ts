// What a prompt runs, run once on a copy of the session as it loads: a session's first prompt otherwise runs the rules'
// code for the first time (compiled then, its property lookups learnt then), which in a fresh process costs more than
// the rules themselves. The copy writes, shows, asks and starts nothing, and its answers are dropped.

import type { Clock } from "../ports.ts";
import { capsInForce } from "../session/caps.ts";
import type { SessionState } from "../session/index.ts";
import { type RuntimePorts, SessionRuntime } from "./runtime.ts";

/** The prompt the copy runs, named so that it is never a prompt of the session's. */
const WARM_UP_PROMPT = "timebox-warm-up";

/**
 * Runs a prompt's events (a model call, its answer, a tool, the next call, the end of the run) on a copy of `state`,
 * and asks what each of its calls asks first: whether a budget of tokens or cost caps it.
 */
export function warmUp(state: SessionState, clock: Clock): void {
	capsInForce(state);
	const nothing = (): void => {};
	const ports: RuntimePorts = {
		store: { append: nothing, appendPrompt: nothing, recordUsage: nothing, appendLine: nothing },
		ledger: { claim: () => false },
		clock,
		onStop: { start: nothing },
		setStatus: nothing,
		abortRun: nothing,
		problem: nothing,
		late: nothing,
	};
	const copy = new SessionRuntime(ports, state);
	copy.handle({ type: "timeCheck" });
	copy.handle({ type: "modelCall", prompt: WARM_UP_PROMPT, step: 1 });
	copy.handle({ type: "modelResponse", tokens: 1, cost: 0 });
	copy.handle({ type: "toolCall", prompt: WARM_UP_PROMPT });
	copy.handle({ type: "modelCall", prompt: WARM_UP_PROMPT, step: 2 });
	copy.handle({ type: "runEnd" });
}
