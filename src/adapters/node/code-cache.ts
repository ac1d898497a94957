// A CommonJS file run with V8's code cache, which Node's module loaders do not keep past compilation: the file compiled
// from the cache an earlier process left (its functions read back compiled, not compiled again at their first call),
// and the cache written once this process has run what a session needs first, so that the next process finds those
// functions compiled. The cache is named by the file's version (the build's hash of it, which its entry holds), Node's
// version and the architecture: a changed file, a new Node or a cache V8 refuses is compiled as if there were none, and
// its cache written again.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { CODE_CACHE_OTHER_NODE_DAYS, CODE_CACHE_VERSIONS_KEPT } from "../../core/index.ts";

/** A module run from a file, and the cache of its compiled code. */
export interface CachedModule<T> {
	readonly exports: T;
	/** Whether its code came from a cache (false: there was none, V8 refused it, or no cache is kept). */
	readonly fromCache: boolean;
	/**
	 * Writes the cache of the code compiled so far, once, when the module did not come from a valid cache. It never
	 * throws: a cache that cannot be written is no loss but time.
	 */
	keep(): void;
}

/** How `requireCached` runs the file. */
export interface CacheOptions {
	/** The folder of the cache, or null to run the file with Node's own `require` and keep no cache (Bun's vm). */
	folder: string | null;
	/**
	 * The version of the file's text, which names its cache: the build's hash of it, written into the entry that runs it
	 * and at the end of the file's first line (` Version <version>.`). V8 checks a cache against the text's length alone,
	 * and hashing the text here would load `node:crypto`, a few milliseconds of a hook process; a file whose first line
	 * names another version (an entry and a code file of two builds) is compiled afresh, and no cache read or written.
	 */
	version: string;
	/** The time now, in ms since the epoch: how old another Node's cache is (`Date.now` unless a test gives its own). */
	now?: () => number;
	/**
	 * Where no cache is there yet, compile every function of the file at once (`compileEagerly`), not each at its first
	 * call: the process pays for all of them as it loads the file, and none in the calls it answers first (pi's first
	 * prompt), and the cache it leaves holds them all. For code most of which runs early (pi's extension), not for code
	 * of which a process runs a small part (a hook).
	 */
	eager?: boolean;
}

/** The V8 option that compiles a function only at its first call, on by default. */
const LAZY = "--lazy";
const NOT_LAZY = "--no-lazy";

/**
 * `compile` run with V8 compiling every function of what it compiles at once, the default restored after it. Where V8's
 * options cannot be set (a runtime without them: `setFlags` throws), `compile` runs as it would have.
 */
export function compileEagerly<T>(compile: () => T, setFlags: (flags: string) => void): T {
	try {
		setFlags(NOT_LAZY);
	} catch {
		return compile();
	}
	try {
		return compile();
	} finally {
		setFlags(LAZY);
	}
}

/** Node's wrapper of a CommonJS module, as its own loader compiles it. */
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const WRAPPER_TAIL = "\n});";
/** The cache's file name after the module's: its version (the hash of its text), Node's and the architecture. */
const CACHE_EXTENSION = ".v8-cache";
/** A cache being written, `<name>.<pid>.draft`, before its rename into place. */
const DRAFT_EXTENSION = ".draft";
const DAY_MS = 24 * 3600 * 1000;

/**
 * The code file `name` beside an entry (`entryUrl`, the entry's `import.meta.url`), run from its cache with the options
 * `options()` gives; where no such file is there (the entry run from the source), `source`, the code's own module.
 */
export function requireCodeBeside<T>(
	entryUrl: string,
	name: string,
	source: T,
	options: () => CacheOptions,
): CachedModule<T> {
	const file = fileURLToPath(new URL(`./${name}`, entryUrl));
	if (!existsSync(file)) return { exports: source, fromCache: false, keep: () => {} };
	return requireCached<T>(file, options());
}

/** Runs the CommonJS module of `file`, from the cache in `options.folder` where there is a valid one. */
export function requireCached<T>(file: string, options: CacheOptions): CachedModule<T> {
	const { folder, version } = options;
	const require = createRequire(file);
	if (folder === null) return { exports: require(file) as T, fromCache: false, keep: () => {} };
	const text = readFileSync(file, "utf8");
	const prefix = `${basename(file)}-`;
	const suffix = `-${process.version}-${process.arch}${CACHE_EXTENSION}`;
	const name = `${prefix}${version}${suffix}`;
	const ours = firstLine(text).endsWith(` Version ${version}.`);
	const cached = ours ? readCache(join(folder, name)) : undefined;
	const compile = () => new Script(`${WRAPPER_HEAD}${text}${WRAPPER_TAIL}`, { filename: file, cachedData: cached });
	// `node:v8` loaded only where it is used: a process with a cache never pays for it.
	const setFlags = (flags: string) => (require("node:v8") as typeof import("node:v8")).setFlagsFromString(flags);
	const script = options.eager && ours && cached === undefined ? compileEagerly(compile, setFlags) : compile();
	const fromCache = cached !== undefined && !script.cachedDataRejected;
	const module = { exports: {} };
	// The script's value is the wrapper function (the host boundary: V8 hands back what the text evaluates to).
	const run = script.runInThisContext() as (...args: unknown[]) => void;
	run.call(module.exports, module.exports, require, module, file, dirname(file));
	let kept = fromCache || !ours;
	return {
		exports: module.exports as T,
		fromCache,
		keep() {
			if (kept) return;
			kept = true;
			try {
				writeCache(folder, name, script.createCachedData());
				removeOld(folder, name, prefix, suffix, (options.now ?? Date.now)());
			} catch {
				// The next process compiles the module as this one did, and tries again.
			}
		},
	};
}

/** The first line of a text (all of it when it has one line). */
function firstLine(text: string): string {
	const end = text.indexOf("\n");
	return end < 0 ? text : text.slice(0, end);
}

/**
 * Removes what is left of the file's caches but this one: for this Node, the caches of other versions of the file but
 * the newest few (`CODE_CACHE_VERSIONS_KEPT` in all); another Node's, only once not written for
 * `CODE_CACHE_OTHER_NODE_DAYS` (hosts that run under two Nodes would otherwise remove each other's, and write their own
 * at every run); and drafts a process killed before its rename left (one another process is writing then fails its
 * rename, and is written again by a later process).
 */
function removeOld(folder: string, name: string, prefix: string, suffix: string, now: number): void {
	const files = readdirSync(folder)
		.filter((other) => other !== name && other.startsWith(prefix))
		.map((other) => ({ other, path: join(folder, other), written: statSync(join(folder, other)).mtimeMs }));
	const versions = files.filter((file) => file.other.endsWith(suffix)).sort((a, b) => b.written - a.written);
	const old = [
		...versions.slice(CODE_CACHE_VERSIONS_KEPT - 1),
		...files.filter(
			(file) =>
				file.other.endsWith(CACHE_EXTENSION) &&
				!file.other.endsWith(suffix) &&
				now - file.written > CODE_CACHE_OTHER_NODE_DAYS * DAY_MS,
		),
		...files.filter((file) => file.other.endsWith(DRAFT_EXTENSION)),
	];
	for (const file of old) rmSync(file.path, { force: true });
}

function readCache(path: string): Buffer | undefined {
	try {
		return readFileSync(path);
	} catch {
		return undefined;
	}
}

/** Writes the cache whole or not at all: a process that reads it never sees half of one. */
function writeCache(folder: string, name: string, data: Buffer): void {
	mkdirSync(folder, { recursive: true });
	const draft = join(folder, `${name}.${process.pid}${DRAFT_EXTENSION}`);
	try {
		writeFileSync(draft, data);
		renameSync(draft, join(folder, name));
	} finally {
		rmSync(draft, { force: true });
	}
}
