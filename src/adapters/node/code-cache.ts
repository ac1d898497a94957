// A CommonJS file run with V8's code cache, which Node's module loaders do not keep past compilation: the file compiled
// from the cache an earlier process left (its functions read back compiled, not compiled again at their first call),
// and the cache written once this process has run what a session needs first, so that the next process finds those
// functions compiled. The cache is named by the file's SHA-256, Node's version and the architecture: a changed file, a
// new Node or a cache V8 refuses is compiled as if there were none, and its cache written again.

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

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
}

/** Node's wrapper of a CommonJS module, as its own loader compiles it. */
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const WRAPPER_TAIL = "\n});";
/** The cache's file name after the module's: its version (the hash of its text), Node's and the architecture. */
const CACHE_EXTENSION = ".v8-cache";
/** The characters of the module's SHA-256 (hex) in its cache's name. */
const HASH_CHARS = 16;

/** Runs the CommonJS module of `file`, from the cache in `options.folder` where there is a valid one. */
export function requireCached<T>(file: string, options: CacheOptions): CachedModule<T> {
	const { folder } = options;
	const require = createRequire(file);
	if (folder === null) return { exports: require(file) as T, fromCache: false, keep: () => {} };
	const text = readFileSync(file, "utf8");
	const prefix = `${basename(file)}-`;
	const hash = createHash("sha256").update(text).digest("hex").slice(0, HASH_CHARS);
	const name = `${prefix}${hash}-${process.version}-${process.arch}${CACHE_EXTENSION}`;
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
				for (const other of readdirSync(folder)) {
					if (other === name || !other.startsWith(prefix)) continue;
					// The cache of an earlier version of the file (or of another Node), which nothing reads again.
					rmSync(join(folder, other), { force: true });
				}
			} catch {
				// The next process compiles the module as this one did, and tries again.
			}
		},
	};
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
