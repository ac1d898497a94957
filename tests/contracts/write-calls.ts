// What the contract test `adapters-write-nothing.test.ts` looks for in a source file: every call that writes outside the
// process (a file-system write of `node:fs` or `node:fs/promises`, in any import form, an `open` with a flag that
// writes, a child process, Claude Code's `$.process` and `$.store`), found by the names the file imports them under.

/** The file-system calls that write (the callback and promise forms; each has a `Sync` form too). */
const FS_WRITES = [
	"appendFile",
	"chmod",
	"chown",
	"copyFile",
	"cp",
	"fchmod",
	"fchown",
	"fdatasync",
	"fsync",
	"ftruncate",
	"futimes",
	"lchmod",
	"lchown",
	"link",
	"lutimes",
	"mkdir",
	"mkdtemp",
	"rename",
	"rm",
	"rmdir",
	"symlink",
	"truncate",
	"unlink",
	"utimes",
	"write",
	"writeFile",
	"writev",
];

/** Every name of `node:fs` that writes: the forms above, their `Sync` forms, and the write stream. */
export const FS_WRITE_NAMES: ReadonlySet<string> = new Set([
	...FS_WRITES,
	...FS_WRITES.map((name) => `${name}Sync`),
	"createWriteStream",
]);

/** The calls that open a file: a write only with a flag other than a read's. */
const OPEN_NAMES: ReadonlySet<string> = new Set(["open", "openSync"]);

/** The flags of an `open` that only reads. */
const READ_FLAG = /^\s*(["'`])rs?\1\s*$/;

/** An import of the file system, in any form; its clause is the first group, the module the second. */
const FS_IMPORT = /import\s+([^;]*?)\s+from\s+["']((?:node:)?fs(?:\/promises)?)["']/g;

/** A child process, imported or required in any form. */
const CHILD_PROCESS = /["'](?:node:)?child_process["']/;

/** The file system imported or required at run time: every call of it is out of sight, so the import itself counts. */
const DYNAMIC_FS = /(?:import|require)\(\s*["'](?:node:)?fs(?:\/promises)?["']/;

/** Claude Code's `$.process` and `$.store`, directly or through the engine that reads `$`. */
const DOLLAR = /\$\.(?:process|store)\b|\bengine(?:\(\))?\s*\.(?:process|store)\b|\.process\.run\(/;

/** How a file imports the file system: the local name of each function, and the names of whole modules. */
interface FsImports {
	/** Local name → the function's own name. */
	functions: Map<string, string>;
	/** Local names of a module as a whole (`* as fs`, a default import, `promises`). */
	modules: Set<string>;
}

/** The file system's imports of a file's text. */
export function fsImports(text: string): FsImports {
	const imports: FsImports = { functions: new Map(), modules: new Set() };
	for (const match of text.matchAll(FS_IMPORT)) {
		const clause = (match[1] ?? "").replace(/^type\s+/, "");
		const named = /\{([^}]*)\}/.exec(clause);
		for (const part of named?.[1]?.split(",") ?? []) {
			const [own, local = own] = part
				.trim()
				.replace(/^type\s+/, "")
				.split(/\s+as\s+/);
			if (!own) continue;
			if (own === "promises" || own === "default") imports.modules.add(local ?? own);
			else imports.functions.set(local ?? own, own);
		}
		const whole = clause.replace(/\{[^}]*\}/, "").replace(/,/g, " ");
		const namespace = /\*\s+as\s+(\w+)/.exec(whole);
		if (namespace?.[1]) imports.modules.add(namespace[1]);
		const byDefault = /^\s*(\w+)/.exec(whole.replace(/\*\s+as\s+\w+/, ""));
		if (byDefault?.[1]) imports.modules.add(byDefault[1]);
	}
	return imports;
}

/** Whether the arguments after an `open(` (the rest of the line) open the file for reading only. */
function opensToRead(rest: string): boolean {
	let depth = 0;
	let comma = -1;
	let end = rest.length;
	for (let index = 0; index < rest.length; index++) {
		const char = rest[index];
		if (char === "(" || char === "[" || char === "{") depth++;
		else if (char === ")" || char === "]" || char === "}") {
			if (depth === 0) {
				end = index;
				break;
			}
			depth--;
		} else if (char === "," && depth === 0) {
			if (comma >= 0) {
				end = index;
				break;
			}
			comma = index;
		}
	}
	// No flag: Node opens to read.
	return comma < 0 || READ_FLAG.test(rest.slice(comma + 1, end));
}

function escaped(name: string): string {
	return name.replace(/\$/g, "\\$");
}

/** Whether one line of code writes, given the file's imports of the file system. */
export function writesIn(line: string, imports: FsImports): boolean {
	if (CHILD_PROCESS.test(line) || DYNAMIC_FS.test(line) || DOLLAR.test(line)) return true;
	for (const [local, own] of imports.functions) {
		const call = new RegExp(`(?<![\\w.$])${escaped(local)}\\(`).exec(line);
		if (call === null) continue;
		if (FS_WRITE_NAMES.has(own)) return true;
		if (OPEN_NAMES.has(own) && !opensToRead(line.slice(call.index + call[0].length))) return true;
	}
	for (const module of imports.modules) {
		const pattern = new RegExp(`(?<![\\w.$])${escaped(module)}\\.(?:promises\\.)?(\\w+)\\(`, "g");
		for (const call of line.matchAll(pattern)) {
			const own = call[1] ?? "";
			if (FS_WRITE_NAMES.has(own)) return true;
			if (OPEN_NAMES.has(own) && !opensToRead(line.slice((call.index ?? 0) + call[0].length))) return true;
		}
	}
	return false;
}
