// A connection that plays a Redis for the store client's unit tests: it reads the commands the client writes (Redis's
// protocol) and answers each as the test says, at once or when the test lets it; it can refuse the connection, never
// answer, close, or send what is not Redis's protocol. tests/e2e/team/store-client.test.ts runs the client on a real
// redis-server.

import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Connection, Connector } from "../../../src/adapters/team/client.ts";
import { type Reply, ReplyError } from "../../../src/adapters/team/resp.ts";

/** How a fake Redis answers a command: a reply, or nothing (it never answers). */
export type Answerer = (command: string[]) => Reply | undefined;

/** What Redis would send for `value`. */
export function wire(value: Reply): string {
	if (value === null) return "$-1\r\n";
	if (value instanceof ReplyError) return `-${value.message}\r\n`;
	if (typeof value === "number") return `:${value}\r\n`;
	if (Array.isArray(value)) return `*${value.length}\r\n${value.map(wire).join("")}`;
	return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

/** The commands in what a client wrote (arrays of bulk strings). */
function commandsIn(text: string): string[][] {
	const commands: string[][] = [];
	const lines = text.split("\r\n");
	let index = 0;
	while (index < lines.length && lines[index] !== "") {
		const count = Number(lines[index]?.slice(1));
		const command: string[] = [];
		for (let arg = 0; arg < count; arg++) command.push(lines[index + 2 + arg * 2] as string);
		commands.push(command);
		index += 1 + count * 2;
	}
	return commands;
}

export class FakeConnection extends EventEmitter implements Connection {
	readonly commands: string[][] = [];
	destroyed = false;
	referenced = true;
	noDelay = false;

	constructor(private readonly answer: Answerer) {
		super();
	}

	write(bytes: Buffer): boolean {
		for (const command of commandsIn(bytes.toString())) {
			this.commands.push(command);
			const reply = this.answer(command);
			if (reply !== undefined) queueMicrotask(() => this.emit("data", Buffer.from(wire(reply))));
		}
		return true;
	}

	/** Sends bytes as the store would, unasked. */
	send(text: string): void {
		this.emit("data", Buffer.from(text));
	}

	destroy(): this {
		if (!this.destroyed) {
			this.destroyed = true;
			queueMicrotask(() => this.emit("close"));
		}
		return this;
	}

	setNoDelay(noDelay: boolean): this {
		this.noDelay = noDelay;
		return this;
	}

	ref(): this {
		this.referenced = true;
		return this;
	}

	unref(): this {
		this.referenced = false;
		return this;
	}
}

/** A connector whose connections answer with `answer`; `ready` false keeps them connecting; each one made is kept. */
export function fakeConnector(
	answer: Answerer,
	ready = true,
): Connector & { made: FakeConnection[]; asked: { host: string; port: number; tls: boolean }[] } {
	const made: FakeConnection[] = [];
	const asked: { host: string; port: number; tls: boolean }[] = [];
	const connector = (host: string, port: number, tls: boolean) => {
		const connection = new FakeConnection(answer);
		made.push(connection);
		asked.push({ host, port, tls });
		const event = tls ? "secureConnect" : "connect";
		if (ready) queueMicrotask(() => connection.emit(event));
		return { connection, ready: event } as const;
	};
	return Object.assign(connector, { made, asked });
}

/** A Redis that knows no script until it was sent whole, then answers each with its name's reply from `replies`. */
export function scriptedRedis(
	replies: Record<string, Reply>,
	scripts: Record<string, string>,
): Answerer & { known: Set<string> } {
	const known = new Set<string>();
	const byLua = new Map(Object.entries(scripts).map(([name, lua]) => [lua, name]));
	const bySha = new Map(Object.entries(scripts).map(([name, lua]) => [shaOf(lua), name]));
	const answer: Answerer = (command) => {
		const [name, first] = command;
		if (name === "AUTH" || name === "SELECT") return "OK";
		if (name === "EVAL") {
			const script = byLua.get(first as string) as string;
			known.add(script);
			return replies[script] ?? null;
		}
		if (name === "EVALSHA") {
			const script = bySha.get(first as string);
			if (script === undefined || !known.has(script)) return new ReplyError("NOSCRIPT No matching script.");
			return replies[script] ?? null;
		}
		return new ReplyError(`ERR unknown command '${name}'`);
	};
	return Object.assign(answer, { known });
}

/** A script's SHA, as Redis names it. */
export function shaOf(lua: string): string {
	return createHash("sha1").update(lua).digest("hex");
}
