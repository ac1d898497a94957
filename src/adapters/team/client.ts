// The team's store over one connection of Node's own (node:net; node:tls for rediss://): it connects when first called,
// logs in (`AUTH [user] password`) and picks the database (`SELECT`) ahead of the first script, and calls each script by
// its SHA (`EVALSHA`: the SHA given, else hashed here), sending it whole (`EVAL`, which also keeps it) only when the
// store does not know it yet. Calls go out as they are made and their replies come back in order, so calls made together
// cost one round trip. A refused connection fails at once; a connection is given up after `connectMs`, a call after
// `callMs` (or what is left of its own bound); what the store refuses (`WRONGPASS`, `NOPERM`) is the call's error, in
// the store's words. A call that got no answer closes the connection (a later reply would answer the wrong call), and
// the next call connects again.

import { createHash } from "node:crypto";
import { connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { encodeCommand, type Reply, ReplyError, ReplyReader } from "./resp.ts";

/** What a call to the store answered: its value, or why there was none. */
export type StoreReply = { ok: true; value: unknown } | { ok: false; error: string };

/** The team's store, called asynchronously. */
export interface AsyncStore {
	/** Runs the script `name` on `keys` with `args`, waiting `timeoutMs` at most in all (the connection included). */
	call(
		name: string,
		keys: readonly string[],
		args: readonly (string | number)[],
		timeoutMs: number,
	): Promise<StoreReply>;
	/** Sends a call without waiting for its reply (a write whose answer nothing needs): it runs before any later call. */
	post(name: string, keys: readonly string[], args: readonly (string | number)[]): void;
	/** Closes the connection; a later call connects again. */
	close(): void;
}

/** The byte stream of a connection: what node:net's and node:tls's sockets are to this client. */
export interface Connection {
	write(bytes: Buffer): unknown;
	destroy(): unknown;
	setNoDelay?(noDelay: boolean): unknown;
	ref(): unknown;
	unref(): unknown;
	on(event: "data", listener: (chunk: Buffer) => void): unknown;
	on(event: "error", listener: (error: Error) => void): unknown;
	on(event: "close", listener: () => void): unknown;
	once(event: "connect" | "secureConnect", listener: () => void): unknown;
}

/** Opens a connection to `host:port` (TLS when `tls`); the event it says it is ready with. */
export type Connector = (
	host: string,
	port: number,
	tls: boolean,
) => { connection: Connection; ready: "connect" | "secureConnect" };

/** Node's own sockets: node:net, or node:tls with the system's certificates and the host's name checked. */
export const nodeConnector: Connector = (host, port, tls) => {
	if (!tls) return { connection: tcpConnect({ host, port }), ready: "connect" };
	return { connection: tlsConnect({ host, port, servername: isIp(host) ? undefined : host }), ready: "secureConnect" };
};

function isIp(host: string): boolean {
	return /^[\d.]+$/.test(host) || host.includes(":");
}

export interface ClientOptions {
	connectMs: number;
	callMs: number;
	/** How to open a connection: `nodeConnector`, or a test's. */
	connector: Connector;
	/**
	 * The scripts' SHA-1s by name, known ahead (`SCRIPT_SHAS`): a hook process then never loads node:crypto, whose 18
	 * modules cost it more than the rest of this client. A script not named here is hashed at its first call.
	 */
	shas?: Readonly<Record<string, string>>;
}

/** Where to reach the store and how to log in, from its address. */
interface Address {
	host: string;
	port: number;
	tls: boolean;
	user: string;
	password: string;
	db: number;
}

function addressOf(url: string): Address {
	const parsed = new URL(url);
	const db = Number(parsed.pathname.slice(1) || "0");
	return {
		host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
		// The address names its port (config.ts refuses one without).
		port: Number(parsed.port),
		tls: parsed.protocol === "rediss:",
		user: decodeURIComponent(parsed.username),
		password: decodeURIComponent(parsed.password),
		db: Number.isInteger(db) && db > 0 ? db : 0,
	};
}

/** A command waiting for its reply. */
interface Waiting {
	answer: (reply: Reply) => void;
}

/** One connection and the commands waiting on it, in the order they were sent. */
class Link {
	readonly waiting: Waiting[] = [];
	private readonly reader = new ReplyReader();
	private ended: string | null = null;
	private readonly timer: ReturnType<typeof setTimeout>;

	constructor(
		private readonly connection: Connection,
		ready: "connect" | "secureConnect",
		connectMs: number,
		/** Called once, when the connection is gone, with why. */
		private readonly gone: (why: string) => void,
	) {
		connection.setNoDelay?.(true);
		this.timer = setTimeout(() => this.end(`connect: no answer within ${connectMs} ms`), connectMs);
		this.timer.unref?.();
		connection.once(ready, () => clearTimeout(this.timer));
		connection.on("data", (chunk) => this.read(chunk));
		connection.on("error", (error) => this.end(error.message));
		connection.on("close", () => this.end("the store closed the connection"));
	}

	/** Sends a command on this open connection (the store's current one); `answer` gets its reply. */
	send(args: readonly (string | number)[], answer: (reply: Reply) => void): void {
		this.waiting.push({ answer });
		this.connection.ref();
		this.connection.write(encodeCommand(args));
	}

	/** Ends the connection: every command still waiting fails with `why`. */
	end(why: string): void {
		if (this.ended !== null) return;
		this.ended = why;
		clearTimeout(this.timer);
		this.connection.destroy();
		this.gone(why);
		for (const waiting of this.waiting.splice(0)) waiting.answer(new ReplyError(why));
	}

	private read(chunk: Buffer): void {
		let replies: Reply[];
		try {
			replies = this.reader.push(chunk);
		} catch (error) {
			this.end((error as Error).message);
			return;
		}
		for (const reply of replies) {
			if (this.ended !== null) return;
			this.waiting.shift()?.answer(reply);
		}
		if (this.waiting.length === 0 && this.ended === null) this.connection.unref();
	}
}

/** The team's store at `url`, calling the scripts of `scripts` (name → Lua) by name. */
export function openStore(url: string, scripts: Readonly<Record<string, string>>, options: ClientOptions): AsyncStore {
	const address = addressOf(url);
	const connector = options.connector;
	const shas = new Map<string, string>();
	let link: Link | null = null;

	const sha = (name: string, lua: string): string => {
		let known = options.shas?.[name] ?? shas.get(name);
		if (known === undefined) {
			known = createHash("sha1").update(lua).digest("hex");
			shas.set(name, known);
		}
		return known;
	};

	/** The open connection, or a new one with its log-in and database sent first. */
	const current = (): Link => {
		if (link !== null) return link;
		const { connection, ready } = connector(address.host, address.port, address.tls);
		// A connection that ended is never used again: the next call makes a new one.
		const made: Link = new Link(connection, ready, options.connectMs, () => {
			link = null;
		});
		link = made;
		// What the store refuses while setting up (a wrong password) ends the connection, and every call fails with it.
		const setUp = (reply: Reply) => {
			if (reply instanceof ReplyError) made.end(reply.message);
		};
		if (address.password !== "") {
			made.send(address.user === "" ? ["AUTH", address.password] : ["AUTH", address.user, address.password], setUp);
		}
		if (address.db !== 0) made.send(["SELECT", address.db], setUp);
		return made;
	};

	/** Sends one command on the current connection and waits `ms` at most for its reply. */
	const command = (args: readonly (string | number)[], ms: number): Promise<Reply> =>
		new Promise((resolve) => {
			const on = current();
			const timer = setTimeout(() => on.end(`no answer within ${ms} ms`), ms);
			timer.unref?.();
			on.send(args, (reply) => {
				clearTimeout(timer);
				resolve(reply);
			});
		});

	const evalArgs = (name: string, keys: readonly string[], args: readonly (string | number)[]) => {
		const lua = scripts[name];
		if (lua === undefined) throw new Error(`no script named ${name}`);
		return { lua, rest: [keys.length, ...keys, ...args] };
	};

	return {
		async call(name, keys, args, timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			const left = () => Math.max(1, Math.min(options.callMs, deadline - Date.now()));
			const { lua, rest } = evalArgs(name, keys, args);
			let reply = await command(["EVALSHA", sha(name, lua), ...rest], left());
			if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT")) {
				reply = await command(["EVAL", lua, ...rest], left());
			}
			return reply instanceof ReplyError ? { ok: false, error: reply.message } : { ok: true, value: reply };
		},
		post(name, keys, args) {
			const { lua, rest } = evalArgs(name, keys, args);
			// Nobody waits for it, but a store that never answers still gives the connection up (and frees the process).
			void command(["EVALSHA", sha(name, lua), ...rest], options.callMs).then((reply) => {
				// The store forgot the script (a restart): sent whole, still without waiting.
				if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT"))
					void command(["EVAL", lua, ...rest], options.callMs);
			});
		},
		close() {
			link?.end("closed");
		},
	};
}
