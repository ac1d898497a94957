// A team's store in memory that keeps what the Lua scripts do (tests/e2e/team runs the same contract on a real Redis),
// can be taken down, and can be a member's, whose user may not write the admin's keys (as the member's ACL of
// docs/team.md makes them): for the team's ledger's unit tests.

import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { AsyncTeamLedger } from "../../../src/adapters/team/async-ledger.ts";
import type { StoreReply, SyncStore } from "../../../src/adapters/team/bridge.ts";
import type { AsyncStore } from "../../../src/adapters/team/client.ts";
import type { TeamConfig } from "../../../src/adapters/team/config.ts";
import { TeamLedger } from "../../../src/adapters/team/ledger.ts";
import { fileOutbox, outboxFolder, type TeamOutbox } from "../../../src/adapters/team/outbox.ts";
import type { ScriptName } from "../../../src/adapters/team/scripts.ts";
import { TeamDay, type TeamLedgerOptions } from "../../../src/adapters/team/team-day.ts";
import type { Clock } from "../../../src/core/index.ts";

export const TEAM_CONFIG: TeamConfig = {
	url: "redis://timebox:s3cret@127.0.0.1:6390/0",
	shown: "redis://timebox@127.0.0.1:6390/0",
	team: "platform",
	zone: "UTC",
	failure: "open",
	member: "ann@m1 (pi)",
};

export class MemoryStore implements SyncStore {
	readonly hashes = new Map<string, Map<string, string>>();
	readonly sets = new Map<string, Set<string>>();
	readonly expiries = new Map<string, number>();
	/** Why every call fails now, or null while the store answers. */
	down: string | null = null;
	/** Whether this store's user is a member's: a script that declares an admin's key is refused (NOPERM). */
	member = false;
	/** What the store answers every call with now, as a script's error (`ERR …`), or null. */
	failing: string | null = null;
	/** What the store answers every call of one script with (a key of the wrong type, `WRONGTYPE …`). */
	readonly failingScript = new Map<ScriptName, string>();
	/** Every call in order; one sent without waiting for its reply is `posted`. */
	calls: {
		script: ScriptName;
		keys: readonly string[];
		args: readonly (string | number)[];
		timeoutMs: number;
		posted?: true;
	}[] = [];
	private posting = false;

	constructor(private readonly clock: Clock) {}

	call(script: ScriptName, keys: readonly string[], args: readonly (string | number)[], timeoutMs: number): StoreReply {
		this.calls.push({ script, keys, args, timeoutMs, ...(this.posting ? { posted: true as const } : {}) });
		if (this.down !== null) return { ok: false, error: this.down };
		if (this.failing !== null) return { ok: false, error: this.failing };
		const failed = this.failingScript.get(script);
		if (failed !== undefined) return { ok: false, error: failed };
		const admin = (key: string) => /:limits$|:raise:/.test(key);
		if (this.member && keys.some(admin)) {
			return { ok: false, error: "NOPERM this user has no permissions to access one of the keys used as arguments" };
		}
		if (script === "limits" || script === "raise") return this.adminScript(script, keys, args);
		const [use, sessions, who, res] = keys.map((key) => this.hash(key)) as Map<string, string>[];
		const sent = keys[4] ?? "";
		const asks = this.hash(keys[5] as string);
		const [base, day] = /^(.*):([^:]*):use$/.exec(keys[0] as string)?.slice(1) ?? [];
		const limitsKey = `${base}:limits`;
		const raiseKey = `${base}:raise:${day}`;
		const [expireAt, session, member] = args.map(String);
		const n = (index: number) => Number(args[index]);
		const incr = (hash: Map<string, string> | undefined, field: string, by: number) =>
			hash?.set(field, String(Number(hash.get(field) ?? 0) + by));
		const keep = () => {
			for (const key of keys) this.expiries.set(key, Number(expireAt));
		};
		const join = () => {
			const set = this.sets.get(keys[1] as string) ?? new Set();
			this.sets.set(keys[1] as string, set);
			if (!set.has(session as string)) {
				set.add(session as string);
				incr(who, member as string, 1);
			}
		};
		void sessions;
		// The use the `use` and `send` scripts add (ARGV 4 to 7): whether there was any.
		const add = () => {
			let used = false;
			for (const [index, field] of [
				[3, "agentMs"],
				[4, "tokens"],
				[5, "cost"],
				[6, "prompts"],
			] as const)
				if (n(index) > 0) {
					incr(use, field, n(index));
					used = true;
				}
			return used;
		};
		const now = this.clock.now();
		switch (script) {
			case "read": {
				let tokens = 0;
				let cost = 0;
				for (const [owner, value] of [...(res ?? [])]) {
					const [t, c, e] = value.split(":").map(Number);
					if ((e ?? 0) < now) res?.delete(owner);
					else if (owner !== session) {
						tokens += t ?? 0;
						cost += c ?? 0;
					}
				}
				const flat = (hash: Map<string, string> | undefined) => [...(hash ?? [])].flat();
				const count = this.sets.get(keys[1] as string)?.size ?? 0;
				const limits = flat(this.hashes.get(limitsKey));
				const raise = flat(this.hashes.get(raiseKey));
				return { ok: true, value: [flat(use), flat(who), count, String(tokens), String(cost), limits, raise] };
			}
			case "view": {
				const flat = (hash: Map<string, string> | undefined) => [...(hash ?? [])].flat();
				return { ok: true, value: [flat(this.hashes.get(limitsKey)), flat(asks)] };
			}
			case "ask": {
				if (asks.size >= n(5)) return { ok: true, value: 0 };
				asks.set(String(args[3]), String(args[4]));
				keep();
				return { ok: true, value: 1 };
			}
			case "count": {
				const limit = n(3);
				if (limit >= 0 && Number(use?.get("prompts") ?? 0) >= limit) return { ok: true, value: 0 };
				incr(use, "prompts", 1);
				join();
				keep();
				return { ok: true, value: 1 };
			}
			case "use": {
				const used = add();
				res?.delete(session as string);
				if (used) join();
				keep();
				return { ok: true, value: 1 };
			}
			case "send": {
				const ids = this.sets.get(sent) ?? new Set();
				this.sets.set(sent, ids);
				if (ids.has(String(args[7]))) return { ok: true, value: 0 };
				ids.add(String(args[7]));
				if (args[8] === 1 && !this.hashes.has(limitsKey)) {
					keep();
					return { ok: true, value: 0 };
				}
				if (add()) join();
				keep();
				return { ok: true, value: 1 };
			}
			case "reserve":
				res?.set(session as string, `${n(3)}:${n(4)}:${now + n(5)}`);
				keep();
				return { ok: true, value: 1 };
		}
	}

	/** The admin's scripts: the team's limits (KEYS[1]), or the day's raises (KEYS[1]) and its requests (KEYS[2]). */
	private adminScript(
		script: "limits" | "raise",
		keys: readonly string[],
		args: readonly (string | number)[],
	): StoreReply {
		const target = keys[0] as string;
		if (script === "limits") {
			this.hashes.delete(target);
			if (args[3] === "off") return { ok: true, value: 1 };
			const hash = this.hash(target);
			hash.set("by", String(args[2]));
			hash.set("at", String(args[7]));
			["timeMs", "turns", "tokens", "cost"].forEach((name, index) => {
				if (args[3 + index] !== "") hash.set(name, String(args[3 + index]));
			});
			if (args[8] !== undefined && args[8] !== "") hash.set("zone", String(args[8]));
			return { ok: true, value: 1 };
		}
		const raise = this.hash(target);
		for (const [index, field] of ["addTimeMs", "addPrompts", "addTokens", "addCost"].entries()) {
			const by = Number(args[3 + index]);
			if (by > 0) raise.set(field, String(Number(raise.get(field) ?? 0) + by));
		}
		if (String(args[7]) === "1") raise.set("off", "1");
		this.expiries.set(target, Number(args[0]));
		for (const id of args.slice(8)) this.hash(keys[1] as string).delete(String(id));
		return { ok: true, value: 1 };
	}

	post(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): void {
		this.posting = true;
		try {
			this.call(script, keys, args, 0);
		} finally {
			this.posting = false;
		}
	}

	private hash(key: string): Map<string, string> {
		let hash = this.hashes.get(key);
		if (!hash) {
			hash = new Map();
			this.hashes.set(key, hash);
		}
		return hash;
	}
}

/** A session's team ledger over `store`, with this machine's own ledger in `folder` to fall back on. */
export function teamLedgerOn(
	store: SyncStore,
	folder: string,
	sessionId: string,
	clock: Clock,
	config: Partial<TeamConfig> = {},
	outbox: TeamOutbox = fileOutbox(outboxFolder(folder, config.team ?? TEAM_CONFIG.team)),
): TeamLedger {
	const local = createDailyLedger(folder, sessionId, clock);
	return new TeamLedger(new TeamDay({ ...TEAM_CONFIG, ...config }, local, sessionId, clock, outbox), () => store);
}

/** The store in memory, called asynchronously as a process's own client is. */
export function asyncStoreOf(store: SyncStore): AsyncStore {
	return {
		call: async (script, keys, args, timeoutMs) => store.call(script as ScriptName, keys, args, timeoutMs),
		post: (script, keys, args) => store.post(script as ScriptName, keys, args),
		close: () => {},
	};
}

/** A session's team ledger as a batch runs on it (a hook process, the plugin's batch script), over `store`. */
export function batchLedgerOn(
	store: SyncStore,
	folder: string,
	sessionId: string,
	clock: Clock,
	config: Partial<TeamConfig> = {},
	options: TeamLedgerOptions = {},
): AsyncTeamLedger {
	const local = createDailyLedger(folder, sessionId, clock);
	const outbox = fileOutbox(outboxFolder(folder, config.team ?? TEAM_CONFIG.team));
	const day = new TeamDay({ ...TEAM_CONFIG, ...config }, local, sessionId, clock, outbox, options);
	return new AsyncTeamLedger(day, () => asyncStoreOf(store));
}
