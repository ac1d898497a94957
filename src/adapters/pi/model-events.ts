// pi's events of a model call: before it is sent (a new prompt counted, or the run stopped; the cap on its answer set;
// what the model is to read of its budget added at the end of its messages), and once it is answered (what it used
// counted, and the size of the next call's request measured from it).

import { withBudgetNote } from "./budget-note.ts";
import { usageOf } from "./usage.ts";
import type { PiWiring } from "./wiring.ts";

export function registerModelEvents(w: PiWiring): void {
	const { pi, deps, context, ui, self, session, calls } = w;
	// Before every model call (pi awaits this one): count a new prompt, or stop the run before the call is sent; the
	// call carries what the model is to read of its budget, at the end of its messages, never in the session file. A
	// run an extension started is no prompt: the core is told so and counts its calls as steps only.
	pi.on("context", async (event, ctx) => {
		context.bind(ctx);
		const call = calls.callOf(event.messages, ctx, self?.agent ?? null, session.needsRequest());
		ui.hold();
		const learning = w.learnStop();
		if (learning !== null) await learning;
		const answer = await session.handle(call);
		calls.capNext(answer.maxOutputTokens);
		// A stopped run's notice is shown once the run has ended, below the prompt it stopped.
		if (!answer.aborted) ui.release();
		return withBudgetNote(event.messages, answer.context, deps.clock.now());
	});
	// A model call was answered: what it used counts, and a budget it used up stops the run before its tools run.
	pi.on("message_end", async (event, ctx) => {
		context.bind(ctx);
		calls.meter.answer(event.message);
		const used = usageOf(event.message);
		if (used) await session.handle(w.ownAgent({ type: "modelResponse", tokens: used.tokens, cost: used.cost }));
	});
}
