// Starts the clock of the Node process that loads it (`NODE_OPTIONS=--import <this file>`) at the local time that
// TEST_CLOCK_START names ("2026-11-22T23:59:50", in the zone TZ names), running on from there: `Date` and `Date.now`
// are offset, while timers and `performance.now` keep the real monotonic clock. Plain JavaScript, so that any Node the
// project supports loads it; the end-to-end tests use it to run a host across a local midnight.

const start = process.env.TEST_CLOCK_START;
if (start !== undefined) {
	const RealDate = Date;
	// An ISO date and time without a zone is local time.
	const startMs = new RealDate(start).getTime();
	if (Number.isNaN(startMs)) throw new Error(`TEST_CLOCK_START is not a local date and time: ${start}`);
	const offset = startMs - RealDate.now();
	const now = () => RealDate.now() + offset;
	globalThis.Date = new Proxy(RealDate, {
		// `new Date()` is now on the shifted clock; a Date of a given time is that time.
		construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
		// `Date()` called as a function gives the time now as text.
		apply: () => new RealDate(now()).toString(),
		get: (target, key, receiver) => (key === "now" ? now : Reflect.get(target, key, receiver)),
	});
}
