// The Redis protocol (RESP 2) as the team's store speaks it: a command as Redis reads it, and the replies as they
// arrive, in pieces, on one connection. Only what the team's scripts and the connection's set-up use: simple strings,
// errors, integers, bulk strings (read as text) and arrays, nested.

/** A reply of the error kind: what the store refused, in its own words (`NOPERM …`, `WRONGPASS …`, `NOSCRIPT …`). */
export class ReplyError {
	constructor(readonly message: string) {}
}

/** One reply of the store. */
export type Reply = string | number | null | ReplyError | Reply[];

/** A command (its name first) as Redis reads it: an array of bulk strings. */
export function encodeCommand(args: readonly (string | number)[]): Buffer {
	let text = `*${args.length}\r\n`;
	for (const arg of args) {
		const value = String(arg);
		text += `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
	}
	return Buffer.from(text);
}

/** A reply read whole, and where the next one starts. */
interface Read {
	value: Reply;
	next: number;
}

const CR = 0x0d;
const SIMPLE = 0x2b; // +
const ERROR = 0x2d; // -
const INTEGER = 0x3a; // :
const BULK = 0x24; // $
const ARRAY = 0x2a; // *
const MINUS = 0x2d;

/** The integer written in ASCII from `start` to `end` (a sign, then digits). */
function numberAt(buffer: Buffer, start: number, end: number): number {
	const negative = buffer[start] === MINUS;
	let value = 0;
	for (let index = negative ? start + 1 : start; index < end; index++)
		value = value * 10 + ((buffer[index] as number) - 0x30);
	return negative ? -value : value;
}

/** The reply that starts at `offset`, or null when it has not all arrived; throws on what is not RESP 2. */
function readAt(buffer: Buffer, offset: number): Read | null {
	// A line ends with CR LF; neither is in a line's text.
	const end = buffer.indexOf(CR, offset);
	if (end < 0 || end + 1 >= buffer.length) return null;
	const next = end + 2;
	switch (buffer[offset]) {
		case SIMPLE:
			return { value: buffer.toString("utf8", offset + 1, end), next };
		case ERROR:
			return { value: new ReplyError(buffer.toString("utf8", offset + 1, end)), next };
		case INTEGER:
			return { value: numberAt(buffer, offset + 1, end), next };
		case BULK: {
			const length = numberAt(buffer, offset + 1, end);
			if (length < 0) return { value: null, next };
			if (buffer.length < next + length + 2) return null;
			return { value: buffer.toString("utf8", next, next + length), next: next + length + 2 };
		}
		case ARRAY: {
			const count = numberAt(buffer, offset + 1, end);
			if (count < 0) return { value: null, next };
			const items: Reply[] = [];
			let at = next;
			for (let index = 0; index < count; index++) {
				const item = readAt(buffer, at);
				if (item === null) return null;
				items.push(item.value);
				at = item.next;
			}
			return { value: items, next: at };
		}
		default:
			throw new Error(
				`the store's reply is not Redis's protocol (it starts with ${JSON.stringify(buffer.toString("utf8", offset, Math.min(end, offset + 20)))})`,
			);
	}
}

/** Reads the replies of one connection from its bytes, as they arrive. */
export class ReplyReader {
	private pending: Buffer = Buffer.alloc(0);

	/** Takes what arrived; returns the replies it completed, in order. Throws on bytes that are not RESP 2. */
	push(chunk: Buffer): Reply[] {
		const buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
		const replies: Reply[] = [];
		let offset = 0;
		while (offset < buffer.length) {
			const read = readAt(buffer, offset);
			if (read === null) break;
			replies.push(read.value);
			offset = read.next;
		}
		this.pending = buffer.subarray(offset);
		return replies;
	}
}
