// Sets and counts of ids that a log's fold keeps (the prompts whose run ended, the responses counted, the calls of each
// prompt, a run of prompts), read back from a kept summary as one text each instead of an entry per id: a long
// session's summary holds thousands of ids, a hook asks about one or two, and a fresh process pays for every object it
// makes. What is added after the read is kept beside the text, in a Set or a Map. A leaf: imports nothing.

/** The line break that ends every id in an id text (an id holding one is kept apart, in a list). */
const END = "\n";
/** What parts an id from its count in a counts text (an id holding one is kept apart too). */
const PART = "\t";

/** Whether an id may stand in an id text: it holds no line break (and is a string: a reader never throws on one). */
export function textId(id: string): boolean {
	return typeof id === "string" && !id.includes(END);
}

/** Where `id` begins in an id text (each id followed by a line break), or -1 where the text holds none. */
export function idIndex(text: string, id: string): number {
	if (!textId(id)) return -1;
	if (text.startsWith(`${id}${END}`)) return 0;
	const at = text.indexOf(`${END}${id}${END}`);
	return at < 0 ? -1 : at + 1;
}

/** How many ids an id text holds (before `end`, where given). */
export function idCount(text: string, end = text.length): number {
	let count = 0;
	for (let at = text.indexOf(END); at >= 0 && at < end; at = text.indexOf(END, at + 1)) count++;
	return count;
}

/** What a reader of a set of ids asks of it: a Set, or an `IdSet`. */
export type IdLookup = Pick<ReadonlySet<string>, "has"> & Iterable<string>;

/** The JSON of a set of ids: each id followed by a line break, in the order added; those holding one, apart. */
export interface IdSetJson {
	text: string;
	odd: string[];
}

/** A set of ids, in the order added, read back from its JSON with one string. */
export class IdSet {
	/** The ids read back, each followed by a line break, and those holding one. */
	private readonly text: string;
	private readonly odd: ReadonlySet<string>;
	/** The ids added since. */
	private readonly added: Set<string>;

	constructor(text = "", odd: Iterable<string> = [], added: Iterable<string> = []) {
		this.text = text;
		this.odd = new Set(odd);
		this.added = new Set(added);
	}

	has(id: string): boolean {
		if (this.added.has(id)) return true;
		return textId(id) ? idIndex(this.text, id) >= 0 : this.odd.has(id);
	}

	add(id: string): this {
		if (!this.has(id)) this.added.add(id);
		return this;
	}

	/** A copy that what is added to this one later leaves alone. */
	copy(): IdSet {
		return new IdSet(this.text, this.odd, this.added);
	}

	/** Every id, in the order added. */
	*[Symbol.iterator](): IterableIterator<string> {
		const { text } = this;
		for (let from = 0; from < text.length; ) {
			const end = text.indexOf(END, from);
			yield text.slice(from, end);
			from = end + 1;
		}
		yield* this.odd;
		yield* this.added;
	}

	toJSON(): IdSetJson {
		let text = this.text;
		const odd = [...this.odd];
		for (const id of this.added) {
			if (id.includes(END)) odd.push(id);
			else text += `${id}${END}`;
		}
		return { text, odd };
	}

	/** A set from its JSON, or null for anything that is not one. */
	static fromJSON(value: unknown): IdSet | null {
		if (typeof value !== "object" || value === null) return null;
		const { text, odd } = value as Partial<Record<keyof IdSetJson, unknown>>;
		if (typeof text !== "string" || (text.length > 0 && !text.endsWith(END))) return null;
		if (!Array.isArray(odd) || !odd.every((id) => typeof id === "string" && id.includes(END))) return null;
		return new IdSet(text, odd as string[]);
	}
}

/** The JSON of counts by id: each id, a tab, its count and a line break, in the order first counted; the others apart. */
export interface IdCountsJson {
	text: string;
	odd: (string | number)[];
}

/** How many of something each id has (a prompt's model calls), read back from its JSON with one string. */
export class IdCounts {
	/** The counts read back, one line each, and those whose id holds a line break or a tab, by id. */
	private readonly text: string;
	private readonly odd: Map<string, number>;
	/** The counts set since, by id. */
	private readonly added: Map<string, number>;

	constructor(text = "", odd: Iterable<[string, number]> = [], added: Iterable<[string, number]> = []) {
		this.text = text;
		this.odd = new Map(odd);
		this.added = new Map(added);
	}

	get(id: string): number | undefined {
		const set = this.added.get(id);
		if (set !== undefined) return set;
		if (!plain(id)) return this.odd.get(id);
		const line = this.lineOf(id);
		if (line < 0) return undefined;
		const from = line + id.length + 1;
		return Number(this.text.slice(from, this.text.indexOf(END, from)));
	}

	set(id: string, count: number): this {
		if (plain(id)) this.added.set(id, count);
		else this.odd.set(id, count);
		return this;
	}

	copy(): IdCounts {
		return new IdCounts(this.text, this.odd, this.added);
	}

	/** Every id and its count, in the order first counted. */
	*[Symbol.iterator](): IterableIterator<[string, number]> {
		const { text } = this;
		for (let from = 0; from < text.length; ) {
			const part = text.indexOf(PART, from);
			const end = text.indexOf(END, part);
			const id = text.slice(from, part);
			yield [id, this.added.get(id) ?? Number(text.slice(part + 1, end))];
			from = end + 1;
		}
		yield* this.odd;
		for (const entry of this.added) if (this.lineOf(entry[0]) < 0) yield entry;
	}

	toJSON(): IdCountsJson {
		let text = "";
		const odd: (string | number)[] = [];
		for (const [id, count] of this) {
			if (plain(id)) text += `${id}${PART}${count}${END}`;
			else odd.push(id, count);
		}
		return { text, odd };
	}

	/** Counts from their JSON, or null for anything that is not one. */
	static fromJSON(value: unknown): IdCounts | null {
		if (typeof value !== "object" || value === null) return null;
		const { text, odd } = value as Partial<Record<keyof IdCountsJson, unknown>>;
		if (typeof text !== "string" || !COUNTS_TEXT.test(text)) return null;
		if (!Array.isArray(odd) || odd.length % 2 !== 0) return null;
		const pairs: [string, number][] = [];
		for (let index = 0; index < odd.length; index += 2) {
			const id = odd[index];
			const count = odd[index + 1];
			if (typeof id !== "string" || plain(id) || typeof count !== "number" || !Number.isFinite(count)) return null;
			pairs.push([id, count]);
		}
		return new IdCounts(text, pairs);
	}

	/** Where the line of `id` begins in the text read back, or -1 where it holds none. */
	private lineOf(id: string): number {
		if (this.text.startsWith(`${id}${PART}`)) return 0;
		const at = this.text.indexOf(`${END}${id}${PART}`);
		return at < 0 ? -1 : at + 1;
	}
}

/** A counts text: lines of an id with neither a tab nor a line break, a tab and a whole count. */
const COUNTS_TEXT = /^(?:[^\t\n]*\t(?:0|[1-9]\d*)\n)*$/;

/** Whether an id may stand in a counts text: it holds neither a line break nor a tab. */
function plain(id: string): boolean {
	return !id.includes(END) && !id.includes(PART);
}
