// A CommonJS file run with V8's code cache, which Node's module loaders do not keep past compilation: the file compiled
// from the cache an earlier process left (its functions read back compiled, not compiled again at their first call),
// and the cache written once this process has run what a session needs first, so that the next process finds those
// functions compiled. The cache is named by the file's version (the build's hash of it, which its entry holds), Node's
// version and the architecture: a changed file, a new Node or a cache V8 refuses is compiled as if there were none, and
// its cache written again.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { CODE_CACHE_VERSIONS_KEPT } from "../../core/index.ts";

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
	 * (V8 checks a cache against the text's length alone, and hashing the text here would load `node:crypto`, a few
	 * milliseconds of a hook process).
	 */
	version: string;
}

/** Node's wrapper of a CommonJS module, as its own loader compiles it. */
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const WRAPPER_TAIL = "\n});";
/** The cache's file name after the module's: its version (the hash of its text), Node's and the architecture. */
const CACHE_EXTENSION = ".v8-cache";

/** Runs the CommonJS module of `file`, from the cache in `options.folder` where there is a valid one. */
export function requireCached<T>(file: string, options: CacheOptions): CachedModule<T> {
	const { folder, version } = options;
	const require = createRequire(file);
	if (folder === null) return { exports: require(file) as T, fromCache: false, keep: () => {} };
	const text = readFileSync(file, "utf8");
	const prefix = `${basename(file)}-`;
	const suffix = `-${process.version}-${process.arch}${CACHE_EXTENSION}`;
	const name = `${prefix}${version}${suffix}`;
	const cached = readCache(join(folder, name));
	const script = new Script(`${WRAPPER_HEAD}${text}${WRAPPER_TAIL}`, { filename: file, cachedData: cached });
	const fromCache = cached !== undefined && !script.cachedDataRejected;
	const module = { exports: {} };
	// The script's value is the wrapper function (the host boundary: V8 hands back what the text evaluates to).
	const run = script.runInThisContext() as (...args: unknown[]) => void;
	run.call(module.exports, module.exports, require, module, file, dirname(file));
	let kept = fromCache;
	return {
		exports: module.exports as T,
		fromCache,
		keep() {
			if (kept) return;
			kept = true;
			try {
				writeCache(folder, name, script.createCachedData());
				removeOldVersions(folder, name, prefix, suffix);
			} catch {
				// The next process compiles the module as this one did, and tries again.
			}
		},
	};
}

/**
 * Removes the caches of other versions of the file for this Node but the newest few (`CODE_CACHE_VERSIONS_KEPT` in
 * all). Another Node's are left: hosts that run under two Node versions would otherwise remove each other's.
 */
function removeOldVersions(folder: string, name: string, prefix: string, suffix: string): void {
	const others = readdirSync(folder)
		.filter((other) => other !== name && other.startsWith(prefix) && other.endsWith(suffix))
		.map((other) => ({ path: join(folder, other), written: statSync(join(folder, other)).mtimeMs }))
		.sort((a, b) => b.written - a.written);
	for (const old of others.slice(CODE_CACHE_VERSIONS_KEPT - 1)) rmSync(old.path, { force: true });
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
	const draft = join(folder, `${name}.${process.pid}.draft`);
	try {
		writeFileSync(draft, data);
		renameSync(draft, join(folder, name));
	} finally {
		rmSync(draft, { force: true });
	}
}
