// A connection to the team's store on Node's own TCP handle (its `tcp_wrap` binding), without node:net. A hook process
// that calls the store once or twice would otherwise load node:net and node:stream (28 modules) for it: most of what
// reaching a store costs a fresh process. Only for an IP address over plain TCP; a host name (its lookup), TLS, and a
// Node that no longer offers the binding, or would warn that it is deprecated, go through node:net as before.

import { EventEmitter } from "node:events";
import { getSystemErrorName } from "node:util";
import type { Connection, Connector } from "./client.ts";

/** A connect request: the binding calls `oncomplete` with its status (0, or a negative libuv error). */
interface ConnectRequest {
	oncomplete: (status: number) => void;
}

/**
 * A write request: the binding calls `oncomplete` when a write it could not finish at once ends. It holds the bytes
 * until then: the binding hands the system a pointer into them without a copy (node:net keeps them the same way).
 */
interface WriteRequest {
	handle: TcpHandle;
	buffer: Uint8Array | null;
	oncomplete: (status: number) => void;
}

/** Node's TCP handle, as its binding makes it; each call returns 0 or a negative libuv error. */
export interface TcpHandle {
	connect(request: ConnectRequest, address: string, port: number): number;
	connect6(request: ConnectRequest, address: string, port: number): number;
	readStart(): number;
	writeBuffer(request: WriteRequest, bytes: Uint8Array): number;
	setNoDelay(noDelay: boolean): number;
	ref(): void;
	unref(): void;
	close(): void;
	/**
	 * Called with each read's bytes; the read's length (negative: an error, or the end) is in the shared state. Always a
	 * function: Node aborts the process on anything else.
	 */
	onread: (bytes: ArrayBuffer | undefined) => void;
}

/** What this connection needs of Node's `tcp_wrap` and `stream_wrap` bindings. */
export interface TcpBindings {
	TCP: new (type: number) => TcpHandle;
	TCPConnectWrap: new () => ConnectRequest;
	WriteWrap: new () => WriteRequest;
	/** The type of a client's handle (`constants.SOCKET`). */
	socket: number;
	/** Where a read leaves its length or error (`streamBaseState`), at these indexes. */
	state: Int32Array;
	readBytesOrError: number;
	arrayBufferOffset: number;
}

/** What the bindings are read from: the process (`process.binding`, which @types/node does not declare). */
export interface BindingSource {
	binding?: (name: string) => unknown;
	execArgv: readonly string[];
	env: NodeJS.ProcessEnv;
}

/**
 * Node's bindings, or null where using them would not do: a Node without them, or one that would print a deprecation
 * warning for them (`--pending-deprecation`), which a host may show its user.
 */
export function tcpBindings(source: BindingSource): TcpBindings | null {
	// Under pending deprecations Node wraps `process.binding` in its warning (named `deprecated`), however the flag was
	// spelt (`--pending_deprecation` too); the flags are read as well, for a process set up some other way.
	const pending = /--pending[-_]deprecation\b/;
	const warns =
		source.binding?.name !== "binding" ||
		source.execArgv.some((flag) => pending.test(flag)) ||
		source.env.NODE_PENDING_DEPRECATION === "1" ||
		pending.test(source.env.NODE_OPTIONS ?? "");
	if (warns || typeof source.binding !== "function") return null;
	try {
		// Node's internal bindings, outside its typed API: their shapes are checked below before any is used.
		const tcp = source.binding("tcp_wrap") as Partial<{
			TCP: TcpBindings["TCP"];
			TCPConnectWrap: TcpBindings["TCPConnectWrap"];
			constants: { SOCKET?: number };
		}>;
		const stream = source.binding("stream_wrap") as Partial<{
			WriteWrap: TcpBindings["WriteWrap"];
			streamBaseState: Int32Array;
			kReadBytesOrError: number;
			kArrayBufferOffset: number;
		}>;
		const { TCP, TCPConnectWrap } = tcp;
		const { WriteWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset } = stream;
		const socket = tcp.constants?.SOCKET;
		if (
			typeof TCP !== "function" ||
			typeof TCPConnectWrap !== "function" ||
			typeof WriteWrap !== "function" ||
			!(streamBaseState instanceof Int32Array) ||
			typeof kReadBytesOrError !== "number" ||
			typeof kArrayBufferOffset !== "number" ||
			typeof socket !== "number"
		) {
			return null;
		}
		return {
			TCP,
			TCPConnectWrap,
			WriteWrap,
			socket,
			state: streamBaseState,
			readBytesOrError: kReadBytesOrError,
			arrayBufferOffset: kArrayBufferOffset,
		};
	} catch {
		return null;
	}
}

/** What a closed connection does with a read still on its way. */
function ignore(): void {}

/**
 * One connection on a TCP handle, with the events of a node:net socket that the store's client listens to (`connect`,
 * `data`, `error`, `close`). Node's own emitter, which every process has loaded before its first line.
 */
class HandleConnection extends EventEmitter implements Connection {
	/** What was written before the connection was made, sent once it is. */
	private readonly pending: Buffer[] = [];
	private made = false;
	private closed = false;

	constructor(
		private readonly handle: TcpHandle,
		private readonly bindings: TcpBindings,
		private readonly where: string,
	) {
		super();
	}

	/** Starts connecting to `address:port`; any failure is told as an event, after the caller has listened. */
	open(address: string, port: number): void {
		const request = new this.bindings.TCPConnectWrap();
		request.oncomplete = (status) => this.connected(status);
		const started = address.includes(":")
			? this.handle.connect6(request, address, port)
			: this.handle.connect(request, address, port);
		if (started !== 0) queueMicrotask(() => this.connected(started));
	}

	write(bytes: Buffer): void {
		if (this.made) this.send(bytes);
		else this.pending.push(bytes);
	}

	destroy(): void {
		if (this.closed) return;
		this.closed = true;
		this.handle.onread = ignore;
		this.handle.close();
	}

	setNoDelay(noDelay: boolean): void {
		this.handle.setNoDelay(noDelay);
	}

	ref(): void {
		if (!this.closed) this.handle.ref();
	}

	unref(): void {
		if (!this.closed) this.handle.unref();
	}

	private connected(status: number): void {
		if (this.closed) return;
		if (status !== 0) {
			this.fail(`connect ${getSystemErrorName(status)} ${this.where}`);
			return;
		}
		this.handle.onread = (bytes) => this.read(bytes);
		const reading = this.handle.readStart();
		if (reading !== 0) {
			this.fail(`read ${getSystemErrorName(reading)}`);
			return;
		}
		this.made = true;
		this.emit("connect");
		// What was written meanwhile goes out in one write (the log-in, the database and the first call: one packet).
		const pending = this.pending.splice(0);
		if (pending.length > 0) this.send(Buffer.concat(pending));
	}

	private send(bytes: Buffer): void {
		if (this.closed) return;
		const request = new this.bindings.WriteWrap();
		request.handle = this.handle;
		request.buffer = bytes;
		request.oncomplete = (status) => {
			request.buffer = null;
			if (status !== 0) this.fail(`write ${getSystemErrorName(status)}`);
		};
		const status = this.handle.writeBuffer(request, bytes);
		if (status !== 0) queueMicrotask(() => this.fail(`write ${getSystemErrorName(status)}`));
	}

	private read(bytes: ArrayBuffer | undefined): void {
		const { state, readBytesOrError, arrayBufferOffset } = this.bindings;
		const length = Number(state[readBytesOrError]);
		if (length > 0 && bytes !== undefined) {
			// Copied: the bytes are a view of a buffer Node owns.
			this.emit("data", Buffer.from(new Uint8Array(bytes, state[arrayBufferOffset], length)));
		} else if (length < 0) {
			const why = getSystemErrorName(length);
			if (why === "EOF") this.end();
			else this.fail(`read ${why}`);
		}
	}

	private fail(message: string): void {
		if (this.closed) return;
		this.emit("error", new Error(message));
		this.end();
	}

	private end(): void {
		if (this.closed) return;
		this.destroy();
		this.emit("close");
	}
}

/** Whether `host` is an IP address written out (which needs no lookup). */
function isAddress(host: string): boolean {
	return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/**
 * Connections on Node's TCP handle where `bindings` are given and the store is an IP address over plain TCP; anything
 * else through `fallback` (node:net and node:tls).
 */
export function handleConnector(bindings: TcpBindings | null, fallback: Connector): Connector {
	return (host, port, tls) => {
		if (bindings === null || tls || !isAddress(host)) return fallback(host, port, tls);
		const connection = new HandleConnection(new bindings.TCP(bindings.socket), bindings, `${host}:${port}`);
		connection.open(host, port);
		return { connection, ready: "connect" };
	};
}
