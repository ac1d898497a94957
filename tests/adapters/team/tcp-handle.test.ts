// The store's connection on Node's own TCP handle: the store's client over it on this Node's real binding, against a
// listener on 127.0.0.1 in this process (a call answered, a connection the store closed, a refused one in node:net's
// words); which processes use it (not one that would warn, nor a Node without it); and, over a binding that plays
// Node's, every failure a handle reports (at once or later), the writes made before the connection, and IPv6.

import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type Connection, type Connector, nodeConnector, openStore } from "../../../src/adapters/team/client.ts";
import {
	type BindingSource,
	handleConnector,
	type TcpBindings,
	type TcpHandle,
	tcpBindings,
} from "../../../src/adapters/team/tcp-handle.ts";

const SCRIPTS = { count: "return 1" };
const OPTIONS = { connectMs: 2_000, callMs: 2_000 };

/** This process's bindings: the test fails where this Node has none. */
function realBindings(): TcpBindings {
	const bindings = tcpBindings({ ...process, execArgv: [], env: {} });
	if (bindings === null) throw new Error("this Node has no tcp_wrap binding");
	return bindings;
}

describe("the store's client on this Node's TCP handle", () => {
	let server: Server | null = null;
	afterEach(async () => {
		await new Promise((done) => server?.close(done) ?? done(undefined));
		server = null;
	});

	/** A listener on 127.0.0.1 that answers each command line with `reply`, and closes a connection after `closeAfter`. */
	async function listen(
		reply: string,
		closeAfter = Number.POSITIVE_INFINITY,
	): Promise<{ port: number; got: string[] }> {
		const got: string[] = [];
		server = createServer((socket: Socket) => {
			let answered = 0;
			socket.on("data", (chunk) => {
				got.push(chunk.toString());
				for (const _ of chunk.toString().matchAll(/^\*\d+\r\n/gm)) {
					socket.write(reply);
					if (++answered >= closeAfter) socket.end();
				}
			});
		});
		await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
		const address = server.address();
		if (address === null || typeof address === "string") throw new Error("no port");
		return { port: address.port, got };
	}

	it("calls a script, logged in first, and connects again after the store closed the connection", async () => {
		const { port, got } = await listen(":1\r\n", 2);
		const fellBack: string[] = [];
		const fallback: Connector = (host, ...rest) => {
			fellBack.push(host);
			return nodeConnector(host, ...rest);
		};
		const connector = handleConnector(realBindings(), fallback);
		const store = openStore(`redis://bot:pw@127.0.0.1:${port}`, SCRIPTS, { ...OPTIONS, connector });
		expect(await store.call("count", ["k"], [7], 5_000)).toEqual({ ok: true, value: 1 });
		expect(got.join("")).toContain("AUTH\r\n$3\r\nbot\r\n$2\r\npw\r\n");
		expect(got.join("")).toContain("EVALSHA");
		// The listener closed the connection after its second answer: the next call makes a new one.
		await new Promise((done) => setTimeout(done, 50));
		expect(await store.call("count", ["k"], [8], 5_000)).toEqual({ ok: true, value: 1 });
		store.close();
		expect(fellBack).toEqual([]);
	});

	it("fails a call at once on a refused connection, in node:net's words", async () => {
		const { port } = await listen(":1\r\n");
		await new Promise((done) => server?.close(done));
		server = null;
		const store = openStore(`redis://127.0.0.1:${port}`, SCRIPTS, {
			...OPTIONS,
			connector: handleConnector(realBindings(), nodeConnector),
		});
		expect(await store.call("count", [], [], 5_000)).toEqual({
			ok: false,
			error: `connect ECONNREFUSED 127.0.0.1:${port}`,
		});
	});
});

describe("which processes connect on the handle", () => {
	const source = (over: Partial<BindingSource>): BindingSource => ({
		binding: (name) => (process as unknown as { binding(name: string): unknown }).binding(name),
		execArgv: [],
		env: {},
		...over,
	});

	it("this Node's, unless it would warn that the binding is deprecated, or has none", () => {
		expect(tcpBindings(source({}))).not.toBeNull();
		expect(tcpBindings(source({ execArgv: ["--pending-deprecation"] }))).toBeNull();
		expect(tcpBindings(source({ execArgv: ["--pending_deprecation"] }))).toBeNull();
		expect(tcpBindings(source({ env: { NODE_OPTIONS: "--pending_deprecation" } }))).toBeNull();
		// Node's own wrapping of `process.binding` in its warning, however the flag reached it.
		const real = source({}).binding as (name: string) => unknown;
		const deprecated = (name: string) => real(name);
		expect(tcpBindings(source({ binding: deprecated }))).toBeNull();
		expect(tcpBindings(source({ env: { NODE_PENDING_DEPRECATION: "1" } }))).toBeNull();
		expect(tcpBindings(source({ env: { NODE_OPTIONS: "--max-old-space-size=100 --pending-deprecation" } }))).toBeNull();
		expect(tcpBindings(source({ env: { NODE_OPTIONS: "--max-old-space-size=100" } }))).not.toBeNull();
		expect(tcpBindings(source({ binding: undefined }))).toBeNull();
		expect(
			tcpBindings(
				source({
					binding: () => {
						throw new Error("No such module: tcp_wrap");
					},
				}),
			),
		).toBeNull();
	});

	it("not one whose binding has changed shape", () => {
		const real = source({}).binding as (name: string) => Record<string, unknown>;
		const without = (module: string, key: string) =>
			source({ binding: (name) => (name === module ? { ...real(name), [key]: undefined } : real(name)) });
		for (const [module, key] of [
			["tcp_wrap", "TCP"],
			["tcp_wrap", "TCPConnectWrap"],
			["tcp_wrap", "constants"],
			["stream_wrap", "WriteWrap"],
			["stream_wrap", "streamBaseState"],
			["stream_wrap", "kReadBytesOrError"],
			["stream_wrap", "kArrayBufferOffset"],
		] as const) {
			expect(tcpBindings(without(module, key)), `${module}.${key}`).toBeNull();
		}
	});

	it("node:net for TLS, a host name, or where there is no binding", () => {
		const asked: unknown[][] = [];
		const fallback: Connector = (...args) => {
			asked.push(args);
			return { connection: new PlayedHandle().connection(), ready: "connect" };
		};
		const played = playedBindings();
		handleConnector(played.bindings, fallback)("127.0.0.1", 1, true);
		handleConnector(played.bindings, fallback)("redis.internal", 2, false);
		handleConnector(null, fallback)("127.0.0.1", 3, false);
		// A name that only starts or ends like an address is a name.
		handleConnector(played.bindings, fallback)("10.0.0.5.nip.io", 4, false);
		handleConnector(played.bindings, fallback)("db-10.0.0.5", 5, false);
		expect(asked).toEqual([
			["127.0.0.1", 1, true],
			["redis.internal", 2, false],
			["127.0.0.1", 3, false],
			["10.0.0.5.nip.io", 4, false],
			["db-10.0.0.5", 5, false],
		]);
		expect(played.handles).toEqual([]);
		// An address of any digits per part is an address.
		handleConnector(played.bindings, fallback)("10.20.30.140", 6, false);
		expect(played.handles[0]?.calls).toEqual(["new 7", "connect 10.20.30.140 6"]);
	});
});

/** A handle that plays Node's: each call's result set by the test, what it was asked kept. */
class PlayedHandle implements TcpHandle {
	onread: (bytes: ArrayBuffer | undefined) => void = () => {
		throw new Error("read before the connection was made");
	};
	readonly calls: string[] = [];
	readonly written: string[] = [];
	connectRequest: { oncomplete: (status: number) => void } | null = null;
	writeRequests: { oncomplete: (status: number) => void; handle: TcpHandle; buffer: Uint8Array | null }[] = [];
	connectResult = 0;
	readResult = 0;
	writeResult = 0;

	connect(request: { oncomplete: (status: number) => void }, address: string, port: number): number {
		this.calls.push(`connect ${address} ${port}`);
		this.connectRequest = request;
		return this.connectResult;
	}
	connect6(request: { oncomplete: (status: number) => void }, address: string, port: number): number {
		this.calls.push(`connect6 ${address} ${port}`);
		this.connectRequest = request;
		return this.connectResult;
	}
	readStart(): number {
		this.calls.push("readStart");
		return this.readResult;
	}
	writeBuffer(
		request: { oncomplete: (status: number) => void; handle: TcpHandle; buffer: Uint8Array | null },
		bytes: Uint8Array,
	): number {
		this.writeRequests.push(request);
		this.written.push(Buffer.from(bytes).toString());
		return this.writeResult;
	}
	setNoDelay(noDelay: boolean): number {
		this.calls.push(`setNoDelay ${noDelay}`);
		return 0;
	}
	ref(): void {
		this.calls.push("ref");
	}
	unref(): void {
		this.calls.push("unref");
	}
	close(): void {
		this.calls.push("close");
	}
	/** A plain connection, for a fallback that is never to be used. */
	connection(): Connection {
		return { write() {}, destroy() {}, ref() {}, unref() {}, on() {}, once() {} };
	}
}

/** Bindings whose handles are played, and the shared state a read leaves its length in. */
function playedBindings(connectResult = 0) {
	const handles: PlayedHandle[] = [];
	const state = new Int32Array(4);
	const bindings: TcpBindings = {
		TCP: class extends PlayedHandle {
			constructor(type: number) {
				super();
				this.calls.push(`new ${type}`);
				this.connectResult = connectResult;
				handles.push(this);
			}
		},
		TCPConnectWrap: class {
			oncomplete = (_status: number) => {};
		},
		WriteWrap: class {
			handle = null as unknown as TcpHandle;
			buffer: Uint8Array | null = null;
			oncomplete = (_status: number) => {};
		},
		socket: 7,
		state,
		readBytesOrError: 1,
		arrayBufferOffset: 2,
	};
	/** A read of `text` (or of an error's number) as Node reports one to the handle. */
	const read = (handle: PlayedHandle, text: string | number) => {
		if (typeof text === "number") {
			state[1] = text;
			handle.onread(undefined);
			return;
		}
		const bytes = Buffer.from(`xx${text}`);
		state[1] = bytes.length - 2;
		state[2] = 2;
		handle.onread(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
	};
	return { handles, bindings, read, state };
}

/** The events a connection told, in order. */
function eventsOf(connection: Connection): string[] {
	const events: string[] = [];
	connection.once("connect", () => events.push("connect"));
	connection.on("data", (chunk) => events.push(`data ${chunk.toString()}`));
	connection.on("error", (error) => events.push(`error ${error.message}`));
	connection.on("close", () => events.push("close"));
	return events;
}

const NO_FALLBACK: Connector = () => {
	throw new Error("node:net was used");
};

describe("a connection on a handle", () => {
	it("sends what was written before it connected once it has, in order, then reads, and ends at the end of the stream", () => {
		const { handles, bindings, read, state } = playedBindings();
		const { connection, ready } = handleConnector(bindings, NO_FALLBACK)("10.0.0.5", 6379, false);
		expect(ready).toBe("connect");
		const events = eventsOf(connection);
		const [handle] = handles as [PlayedHandle];
		connection.setNoDelay?.(true);
		connection.write(Buffer.from("one"));
		connection.write(Buffer.from("two"));
		expect(handle.written).toEqual([]);
		handle.connectRequest?.oncomplete(0);
		// In one write, which holds its bytes until the system has sent them all (the binding does not copy them).
		expect(handle.written).toEqual(["onetwo"]);
		const [first] = handle.writeRequests;
		expect(first?.handle).toBe(handle);
		expect(Buffer.from(first?.buffer ?? []).toString()).toBe("onetwo");
		first?.oncomplete(0);
		expect(first?.buffer).toBeNull();
		connection.write(Buffer.from("three"));
		expect(handle.written).toEqual(["onetwo", "three"]);
		read(handle, "+OK\r\n");
		read(handle, 0);
		// A length with no bytes (which Node does not send) is dropped.
		state[1] = 3;
		handle.onread(undefined);
		connection.ref();
		connection.unref();
		read(handle, -4095);
		connection.ref();
		connection.write(Buffer.from("after"));
		connection.destroy();
		connection.unref();
		expect(events).toEqual(["connect", "data +OK\r\n", "close"]);
		expect(handle.calls).toEqual([
			"new 7",
			"connect 10.0.0.5 6379",
			"setNoDelay true",
			"readStart",
			"ref",
			"unref",
			"close",
		]);
		expect(handle.written).toEqual(["onetwo", "three"]);
		// A read still on its way after the close is dropped (Node aborts on an `onread` that is not a function).
		read(handle, "late");
		expect(events).toEqual(["connect", "data +OK\r\n", "close"]);
	});

	it("connects to an IPv6 address with the handle's IPv6 call", () => {
		const { handles, bindings } = playedBindings();
		handleConnector(bindings, NO_FALLBACK)("::1", 6379, false);
		expect(handles[0]?.calls).toEqual(["new 7", "connect6 ::1 6379"]);
	});

	it("tells a connection refused at once only after the caller listened, in node:net's words", async () => {
		const { handles, bindings } = playedBindings(-22);
		const events = eventsOf(handleConnector(bindings, NO_FALLBACK)("999.1.1.1", 1, false).connection);
		expect(events).toEqual([]);
		await Promise.resolve();
		expect(events).toEqual(["error connect EINVAL 999.1.1.1:1", "close"]);
		expect(handles[0]?.calls).toEqual(["new 7", "connect 999.1.1.1 1", "close"]);
	});

	it("tells a refused connection, a read that cannot start, a read's error and a write's, each once", async () => {
		const { handles, bindings, read } = playedBindings();
		const connector = handleConnector(bindings, NO_FALLBACK);
		const refused = eventsOf(connector("127.0.0.1", 9, false).connection);
		handles[0]?.connectRequest?.oncomplete(-111);
		expect(refused).toEqual(["error connect ECONNREFUSED 127.0.0.1:9", "close"]);

		const notReading = connector("127.0.0.1", 9, false).connection;
		const notRead = eventsOf(notReading);
		(handles[1] as PlayedHandle).readResult = -9;
		handles[1]?.connectRequest?.oncomplete(0);
		expect(notRead).toEqual(["error read EBADF", "close"]);

		const reset = eventsOf(connector("127.0.0.1", 9, false).connection);
		handles[2]?.connectRequest?.oncomplete(0);
		read(handles[2] as PlayedHandle, -104);
		read(handles[2] as PlayedHandle, -104);
		expect(reset).toEqual(["connect", "error read ECONNRESET", "close"]);

		const failing = connector("127.0.0.1", 9, false).connection;
		const failed = eventsOf(failing);
		handles[3]?.connectRequest?.oncomplete(0);
		(handles[3] as PlayedHandle).writeResult = -32;
		failing.write(Buffer.from("x"));
		failing.write(Buffer.from("y"));
		expect(failed).toEqual(["connect"]);
		await Promise.resolve();
		expect(failed).toEqual(["connect", "error write EPIPE", "close"]);

		const later = connector("127.0.0.1", 9, false).connection;
		const failedLater = eventsOf(later);
		handles[4]?.connectRequest?.oncomplete(0);
		later.write(Buffer.from("x"));
		later.write(Buffer.from("y"));
		handles[4]?.writeRequests[0]?.oncomplete(0);
		handles[4]?.writeRequests[1]?.oncomplete(-104);
		expect(failedLater).toEqual(["connect", "error write ECONNRESET", "close"]);
	});

	it("ignores a connection's end it was closed before (a call given up while connecting)", () => {
		const { handles, bindings } = playedBindings();
		const { connection } = handleConnector(bindings, NO_FALLBACK)("127.0.0.1", 9, false);
		const events = eventsOf(connection);
		connection.destroy();
		connection.destroy();
		handles[0]?.connectRequest?.oncomplete(-125);
		expect(events).toEqual([]);
		expect(handles[0]?.calls).toEqual(["new 7", "connect 127.0.0.1 9", "close"]);
	});
});
