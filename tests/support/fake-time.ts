// A manual clock and scheduler: tests move time forward explicitly and due timers fire in order. Nothing sleeps.

import type { Cancel, Clock, Scheduler } from "../../src/core/ports.ts";

interface Timer {
	id: number;
	due: number;
	intervalMs: number | null;
	callback: () => void;
}

export class FakeTime implements Clock, Scheduler {
	private current: number;
	private nextId = 1;
	private timers: Timer[] = [];
	/** Every delay ever requested, for assertions on how timers were armed. */
	readonly requestedDelays: number[] = [];

	constructor(start = Date.UTC(2026, 10, 22, 9, 0, 0)) {
		this.current = start;
	}

	now(): number {
		return this.current;
	}

	setTimeout(callback: () => void, delayMs: number): Cancel {
		return this.add(callback, delayMs, null);
	}

	setInterval(callback: () => void, intervalMs: number): Cancel {
		return this.add(callback, intervalMs, intervalMs);
	}

	/** Moves the clock forward by `ms`, firing every timer that falls due on the way, in order. */
	advance(ms: number): void {
		const target = this.current + ms;
		for (;;) {
			const next = this.timers.filter((timer) => timer.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
			if (!next) break;
			// A late timer fires once, at the current time, and an interval re-arms from then on, as Node's timers do.
			this.current = Math.max(this.current, next.due);
			if (next.intervalMs === null) this.remove(next.id);
			else next.due = this.current + next.intervalMs;
			next.callback();
		}
		this.current = target;
	}

	/** Moves the wall clock without firing timers, as when a laptop sleeps or the clock is adjusted. */
	jump(ms: number): void {
		this.current += ms;
	}

	get activeIntervals(): number {
		return this.timers.filter((timer) => timer.intervalMs !== null).length;
	}

	get activeTimeouts(): number {
		return this.timers.filter((timer) => timer.intervalMs === null).length;
	}

	private add(callback: () => void, delayMs: number, intervalMs: number | null): Cancel {
		const id = this.nextId++;
		this.requestedDelays.push(delayMs);
		this.timers.push({ id, due: this.current + Math.max(1, delayMs), intervalMs, callback });
		return () => this.remove(id);
	}

	private remove(id: number): void {
		this.timers = this.timers.filter((timer) => timer.id !== id);
	}
}
