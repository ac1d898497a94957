// npm run build: bundles the hook script once with esbuild, writes the bundle and the hook gate (a POSIX sh script
// that spares Node's start where Timebox has nothing to do) into each host package in plugins/, bundles Claude Code's
// hooks module (function hooks) into its plugin and pi's extension into one file (pi's loader pays per file it
// loads), and stamps the packages' manifests with package.json's version and description. With --check it writes
// nothing and fails, naming each file, when a committed file differs from what a build would write (npm run check
// runs it).

import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";

/** The hook script's entry, relative to the repository: bundled once for Claude Code, Gemini CLI and Codex CLI. */
const ENTRY = "src/entries/hooks.ts";

/** Where each host expects the bundle, inside the folder it copies when it installs the package. */
const BUNDLES = [
	"plugins/claude-code/bin/timebox.mjs",
	"plugins/gemini-cli/bin/timebox.mjs",
	"plugins/codex-cli/bin/timebox.mjs",
];

/** The hook gate, run by each host's hooks before the hook script; copied as it is beside each bundle. */
const GATE = "src/adapters/hooks/gate.sh";
const GATE_NAME = "timebox-gate.sh";

const BANNER =
	"// Timebox's hook script for Claude Code, Gemini CLI and Codex CLI, " +
	`bundled from ${ENTRY} by npm run build. Do not edit.`;

/**
 * The hook script's code, which its entry runs from V8's code cache (`vm.Script`, which takes no `import()`): CommonJS
 * beside each bundle, importing nothing but Node's modules (the report page's import and the entry's URL are handed in).
 */
const HOOK_CODE_ENTRY = "src/entries/hook-main.ts";
const HOOK_CODE_NAME = "timebox-hook.cjs";
const HOOK_CODE_BANNER =
	"// Timebox's hook script code for Claude Code, Gemini CLI and Codex CLI, " +
	`bundled from ${HOOK_CODE_ENTRY} by npm run build. Do not edit.`;

/**
 * pi's extension (the entry package.json's "pi" manifest names, for pi and oh-my-pi): one file, in a folder named
 * `timebox` so that pi lists the extension by that name. pi's own package stays outside: pi provides it at load.
 */
const PI_ENTRY = "src/entries/pi/timebox/index.ts";
const PI_BUNDLE = "plugins/pi/timebox/index.js";
const PI_BANNER = `// Timebox's extension for pi and oh-my-pi, bundled from ${PI_ENTRY} by npm run build. Do not edit.`;
const PI_PROVIDED = ["@mariozechner/pi-coding-agent"];
/**
 * The extension's code, which pi's entry runs from V8's code cache (`vm.Script`, which takes no `import()`): CommonJS
 * beside the entry, importing nothing but Node's modules (what it needs of pi and the report page the entry hands in).
 */
const PI_CODE_ENTRY = "src/entries/pi/timebox/extension.ts";
const PI_CODE = "plugins/pi/timebox/timebox-pi.cjs";
const PI_CODE_BANNER = `// Timebox's extension code for pi and oh-my-pi, bundled from ${PI_CODE_ENTRY} by npm run build. Do not edit.`;

const ROOT = resolve(import.meta.dirname, "..");

/**
 * The hooks module that runs Timebox inside Claude Code's own process (function hooks), and where the plugin's
 * `hooks/hooks.json` names it. It runs with no Node: the bundle must import nothing (no `node:` module, no `import()`).
 */
const MODULE_ENTRY = "src/entries/claude-module.ts";
const MODULE_BUNDLE = "plugins/claude-code/hooks/timebox-module.js";
const MODULE_BANNER =
	"// Timebox's hooks module for Claude Code (function hooks), " +
	`bundled from ${MODULE_ENTRY} by npm run build. Do not edit.`;

/**
 * The manifests and what package.json decides in each: every package's version and description, and the
 * description of the Claude Code marketplace and its plugin entry. Everything else in them is written by hand.
 */
const MANIFESTS = {
	"plugins/claude-code/.claude-plugin/plugin.json": (manifest, pkg) => ({ ...manifest, ...stamp(pkg) }),
	"plugins/gemini-cli/gemini-extension.json": (manifest, pkg) => ({ ...manifest, ...stamp(pkg) }),
	"plugins/codex-cli/.codex-plugin/plugin.json": (manifest, pkg) => ({ ...manifest, ...stamp(pkg) }),
	".claude-plugin/marketplace.json": (marketplace, pkg) => ({
		...marketplace,
		description: pkg.description,
		plugins: marketplace.plugins.map((plugin) => ({ ...plugin, description: pkg.description })),
	}),
};

function stamp(pkg) {
	return { version: pkg.version, description: pkg.description };
}

/**
 * Node's modules the hook script loads only when it uses them, and the names it uses of each (`new Name` for a class).
 * A hook is a process of its own, and Node loads these (with `net`, `dgram` and the streams under `child_process`, the
 * whole of `crypto`, TLS) in a few milliseconds of its start; most hooks start no process, make no id and reach no
 * store. A name the code imports that is not listed here fails the build.
 */
const LAZY_BUILTINS = {
	"node:child_process": ["spawn", "spawnSync"],
	"node:crypto": ["createHash", "randomUUID"],
	// A team's store: sockets only where a store is set, TLS only for rediss://, a worker only in a watcher.
	"node:net": ["connect"],
	"node:tls": ["connect"],
	"node:worker_threads": ["new Worker"],
};

/**
 * Node's modules the hook script's entry takes as it starts, and the names it imports of each. An ES module's `import`
 * of one of Node's modules builds a facade of all its exports, reading each: for `node:fs`, its `ReadStream` loads
 * Node's streams, about twenty of its internal modules. Taken from `process.getBuiltinModule` instead, the entry
 * reads only the names it uses, and a hook process runs 1 to 1.5% fewer instructions (`valgrind --tool=callgrind`). A
 * name the entry imports that is not listed here fails the build.
 */
const ENTRY_BUILTINS = {
	"node:fs": [
		"existsSync",
		"mkdirSync",
		"readdirSync",
		"readFileSync",
		"renameSync",
		"rmSync",
		"statSync",
		"writeFileSync",
	],
	"node:os": ["homedir"],
	"node:path": ["basename", "dirname", "isAbsolute", "join"],
	"node:url": ["fileURLToPath"],
	"node:vm": ["Script"],
};

/**
 * An esbuild plugin that has `LAZY_BUILTINS` loaded at their first use, synchronously: in an ES module by Node's
 * `process.getBuiltinModule` (else a `require` made with `createRequire`, about 0.2 ms more), in a CommonJS bundle by
 * its own `require`.
 */
const lazyBuiltins = lazyBuiltinsIn("esm");

function lazyBuiltinsIn(format) {
	return builtinsPlugin("lazy-builtins", LAZY_BUILTINS, format, (name, made) => [
		`export function ${name}(...args) { return ${made}; }`,
	]);
}

/**
 * An esbuild plugin that has an ES module take `ENTRY_BUILTINS` from `process.getBuiltinModule` as it loads (else
 * from a `require` made with `createRequire`, on a Node older than 20.16), each name read once.
 */
const entryBuiltins = builtinsPlugin("entry-builtins", ENTRY_BUILTINS, "esm", (name) => [
	`export const ${name} = load().${name};`,
]);

/**
 * An esbuild plugin that stands in for the modules of `table` (Node's module: the names the bundle imports of it) a
 * module of `exports(name, made)` lines each, where `made` is the call or `new` of that name (`new Name` in the table
 * for a class) on the module `load()` gives: in an ES module, by `process.getBuiltinModule`, else a `require` made with
 * `createRequire`; in a CommonJS bundle, by its own `require`.
 */
function builtinsPlugin(pluginName, table, format, exports) {
	// CommonJS's `require` of the name without its `node:` prefix, which this plugin does not take again.
	const requireLine =
		format === "cjs"
			? "const load = () => (loaded ??= require(BARE));"
			: // Node's own look-up where it has one (20.16 and later), which makes no require function for the bundle's path.
				'import { createRequire } from "node:module";\nconst load = () => (loaded ??= process.getBuiltinModule?.(NAME) ?? createRequire(import.meta.url)(NAME));';
	const namespace = pluginName;
	return {
		name: pluginName,
		setup(build) {
			const filter = new RegExp(`^(${Object.keys(table).join("|")})$`);
			build.onResolve({ filter }, (args) => ({ path: args.path, namespace }));
			build.onLoad({ filter: /.*/, namespace }, (args) => {
				const lines = [
					"let loaded;",
					requireLine
						.replaceAll("NAME", JSON.stringify(args.path))
						.replace("BARE", JSON.stringify(args.path.replace(/^node:/, ""))),
					...table[args.path].flatMap((entry) => {
						const name = entry.replace(/^new /, "");
						// A class (`new Name`) is made with `new`; a function is called.
						const made = entry.startsWith("new ") ? `new (load().${name})(...args)` : `load().${name}(...args)`;
						return exports(name, made);
					}),
				];
				return { contents: lines.join("\n"), loader: "js" };
			});
		},
	};
}

/**
 * The report page's module (its chart library among it), bundled into a file of its own beside each host's bundle:
 * the host's bundle imports it by that file's name, only when a page is asked for.
 */
const REPORT_ENTRY = "src/entries/report/entry.ts";
const REPORT_FILE = "timebox-report.mjs";
const REPORT_BANNER = `// Timebox's report page, bundled from ${REPORT_ENTRY} by npm run build. Do not edit.`;
const separateReport = {
	name: "separate-report",
	setup(build) {
		build.onResolve({ filter: /entry\.ts$/ }, (args) =>
			resolve(args.resolveDir, args.path) === resolve(ROOT, REPORT_ENTRY)
				? { path: `./${REPORT_FILE}`, external: true }
				: undefined,
		);
	},
};

/** A bundle's text: the same bytes on every machine and in every checkout (paths in it are relative to ROOT). */
async function bundle(
	entry,
	banner,
	platform,
	external = [],
	plugins = [],
	format = "esm",
	define = {},
	minify = false,
) {
	const result = await build({
		plugins,
		absWorkingDir: ROOT,
		entryPoints: [entry],
		bundle: true,
		platform,
		format,
		target: platform === "node" ? "node20" : "es2022",
		banner: { js: banner },
		external,
		define,
		// CommonJS has no `import.meta`: esbuild would leave an empty object in its place, and only warn.
		logOverride: format === "cjs" ? { "empty-import-meta": "error" } : {},
		minifyWhitespace: minify,
		minifySyntax: minify,
		// Text outside ASCII written as escapes: V8 keeps a source text with any other character as two bytes per
		// character, and reads it slower. On the hook script, 1 to 1.5% fewer instructions per hook process
		// (`valgrind --tool=callgrind`) and 340 KB less heap.
		charset: "ascii",
		write: false,
		logLevel: "warning",
	});
	const [output] = result.outputFiles;
	if (output === undefined || result.outputFiles.length !== 1)
		throw new Error(`esbuild wrote no single file for ${entry}`);
	// esbuild leaves a regular expression's own characters as they are: such a one must be written with escapes.
	const wide = /[\u0080-\uffff]/.exec(output.text);
	if (wide !== null) {
		const line = output.text.slice(0, wide.index).split("\n").length;
		throw new Error(`${entry}'s bundle holds ${JSON.stringify(wide[0])} at line ${line}: write it as an escape`);
	}
	return output.text;
}

/**
 * The worker thread of a team's daily budget on the hosts whose rules call the store synchronously (pi's extension,
 * which opencode's entry uses too, and the hook script): the store's client (Node's own sockets and Redis's protocol,
 * no dependency), beside each Node entry. Only a session with a store set starts it.
 */
const STORE_WORKER_ENTRY = "src/entries/team-worker.ts";
const STORE_WORKER_NAME = "timebox-store.mjs";
const STORE_WORKER_BANNER = `// Timebox's team store worker, bundled from ${STORE_WORKER_ENTRY} by npm run build. Do not edit.`;

/**
 * The batch script of Claude Code's hooks module (`bin/timebox-team.cjs <request>`): a team's daily ledger and its
 * client alone, so that a batch costs little more than Node's start; CommonJS, which spares Node's ES module loader
 * (about a tenth of the process here). Beside the hook script in Claude Code's plugin.
 */
const TEAM_BATCH_ENTRY = "src/entries/team-batch.ts";
const TEAM_BATCH_BUNDLE = "plugins/claude-code/bin/timebox-team.cjs";
const TEAM_BATCH_BANNER = `// Timebox's team batch script for Claude Code's hooks module, bundled from ${TEAM_BATCH_ENTRY} by npm run build. Do not edit.`;
const TEAM_BATCH_CODE_ENTRY = "src/entries/team-batch-main.ts";
const TEAM_BATCH_CODE = "plugins/claude-code/bin/timebox-team-code.cjs";
const TEAM_BATCH_CODE_BANNER = `// Timebox's team batch script code for Claude Code's hooks module, bundled from ${TEAM_BATCH_CODE_ENTRY} by npm run build. Do not edit.`;

/**
 * An esbuild plugin that leaves the code of `codeEntry` out of an entry that runs it from V8's code cache: the entry
 * imports it for a run from the source, and in the package runs the bundle of it beside the entry instead.
 */
function codeApart(codeEntry) {
	const file = codeEntry.slice(codeEntry.lastIndexOf("/") + 1);
	return {
		name: "code-apart",
		setup(build) {
			build.onResolve({ filter: new RegExp(`/${file.replace(".", "\\.")}$`) }, (args) =>
				resolve(args.resolveDir, args.path) === resolve(ROOT, codeEntry)
					? { path: codeEntry, namespace: "code-apart" }
					: undefined,
			);
			build.onLoad({ filter: /.*/, namespace: "code-apart" }, () => ({ contents: "export {};", loader: "js" }));
		},
	};
}

/** What the entry that runs code from V8's code cache is built with: the code's version (`TIMEBOX_CODE_VERSION`). */
function codeVersion(code) {
	return { TIMEBOX_CODE_VERSION: JSON.stringify(code.version) };
}

/**
 * The code an entry runs from V8's code cache, refused when it imports anything but Node's modules (by name, with or
 * without `node:`; the report page's module would be an `import()`): the entry, which runs it as a script, could not.
 * Its version is the first 16 hex digits of its SHA-256, written at the end of its first line (` Version <hash>.`)
 * and into the entry: it names the cache, and the entry runs no cache for a file of another build.
 */
async function cachedCode(entry, banner, path, plugins = []) {
	const text = await bundle(entry, banner, "node", [], [...plugins, separateReport], "cjs", {}, true);
	const found = /\bimport\s*\(|\bimport(?:\.|_)meta\b/.exec(text);
	if (found) throw new Error(`${path} could not run from its entry: it holds ${JSON.stringify(found[0])}`);
	for (const [call, name] of text.matchAll(/\brequire\s*\(\s*["']([^"']*)["']/g)) {
		if (!isBuiltin(name)) throw new Error(`${path} could not run from its entry: it holds ${JSON.stringify(call)}`);
	}
	const version = createHash("sha256").update(text).digest("hex").slice(0, 16);
	const end = text.indexOf("\n");
	return { text: `${text.slice(0, end)} Version ${version}.${text.slice(end)}`, version };
}

/** The hooks module's bundle, refused when it imports anything: Claude Code would not load it. */
async function moduleBundle() {
	const text = await bundle(MODULE_ENTRY, MODULE_BANNER, "neutral");
	const found = /\bimport\s*\(|^\s*import\s|\brequire\s*\(|(?<![.\w])process\.|["']node:/m.exec(text);
	if (found) throw new Error(`${MODULE_BUNDLE} would not load in Claude Code: it holds ${JSON.stringify(found[0])}`);
	return text;
}

/**
 * The report page's script and style, inlined into every page it writes: the chart glue bundled with uPlot for the
 * browser, and uPlot's style sheet. Written as a module of strings beside the bundles (plugins/report/, which the
 * package ships for opencode's entry, run from source), so that every host gets them with the code.
 */
const PAGE_CLIENT_ENTRY = "src/report-client/charts.ts";
const PAGE_ASSETS = "plugins/report/page-assets.mjs";
/** Its types, for the TypeScript that imports it. */
const PAGE_ASSETS_TYPES = "plugins/report/page-assets.d.mts";
const PAGE_ASSETS_TYPES_TEXT = [
	`// The types of ${PAGE_ASSETS}, generated by npm run build. Do not edit.`,
	"",
	"export declare const PAGE_SCRIPT: string;",
	"",
	"export declare const UPLOT_CSS: string;",
	"",
].join("\n");
const UPLOT_CSS = "node_modules/uplot/dist/uPlot.min.css";

async function pageAssets() {
	const result = await build({
		absWorkingDir: ROOT,
		entryPoints: [PAGE_CLIENT_ENTRY],
		bundle: true,
		platform: "browser",
		format: "iife",
		target: "es2020",
		minify: true,
		legalComments: "inline",
		// The same bytes with or without the repository's tsconfig.json (whose strict mode would add "use strict").
		tsconfigRaw: {},
		charset: "utf8",
		write: false,
		logLevel: "warning",
	});
	const [output] = result.outputFiles;
	if (output === undefined) throw new Error(`esbuild wrote nothing for ${PAGE_CLIENT_ENTRY}`);
	// Nothing in the script may close the element it is inlined in.
	const script = output.text.trim().replace(/<\/(script)/gi, "<\\/$1");
	const css = (await readFile(join(ROOT, UPLOT_CSS), "utf8")).trim();
	return [
		`// The report page's script (the chart glue of ${PAGE_CLIENT_ENTRY} bundled with uPlot) and uPlot's style sheet,`,
		"// generated by npm run build. Do not edit.",
		"",
		`export const PAGE_SCRIPT = ${JSON.stringify(script)};`,
		"",
		`export const UPLOT_CSS = ${JSON.stringify(css)};`,
		"",
	].join("\n");
}

/** Every generated file's path (relative to ROOT) and the text a build gives it. */
async function generated() {
	const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
	const files = new Map();
	const assets = await pageAssets();
	files.set(PAGE_ASSETS, assets);
	files.set(PAGE_ASSETS_TYPES, PAGE_ASSETS_TYPES_TEXT);
	// The bundles below take the page's assets in: a build writes them first.
	if (!process.argv.includes("--check") && (await committed(PAGE_ASSETS)) !== assets) {
		await mkdir(dirname(join(ROOT, PAGE_ASSETS)), { recursive: true });
		await writeFile(join(ROOT, PAGE_ASSETS), assets);
	}
	const hookCode = await cachedCode(HOOK_CODE_ENTRY, HOOK_CODE_BANNER, HOOK_CODE_NAME, [lazyBuiltinsIn("cjs")]);
	const script = await bundle(
		ENTRY,
		BANNER,
		"node",
		[],
		[lazyBuiltins, entryBuiltins, separateReport, codeApart(HOOK_CODE_ENTRY)],
		"esm",
		codeVersion(hookCode),
	);
	const scriptCjs = await bundle(
		ENTRY,
		`${BANNER}\n"use strict";\nconst __entryUrl = require("node:url").pathToFileURL(__filename).href;`,
		"node",
		[],
		[lazyBuiltinsIn("cjs"), separateReport, codeApart(HOOK_CODE_ENTRY)],
		"cjs",
		{ ...codeVersion(hookCode), "import.meta.url": "__entryUrl" },
	);
	const report = await bundle(REPORT_ENTRY, REPORT_BANNER, "node", PI_PROVIDED);
	const gate = await readFile(join(ROOT, GATE), "utf8");
	for (const path of BUNDLES) {
		files.set(path, script);
		files.set(path.replace(/\.mjs$/, ".cjs"), scriptCjs);
		files.set(join(dirname(path), HOOK_CODE_NAME), hookCode.text);
		files.set(join(dirname(path), GATE_NAME), gate);
		files.set(join(dirname(path), REPORT_FILE), report);
	}
	const worker = await bundle(STORE_WORKER_ENTRY, STORE_WORKER_BANNER, "node");
	for (const path of [...BUNDLES, PI_BUNDLE]) files.set(join(dirname(path), STORE_WORKER_NAME), worker);
	files.set(join(dirname(PI_BUNDLE), REPORT_FILE), report);
	files.set(MODULE_BUNDLE, await moduleBundle());
	const teamBatchCode = await cachedCode(TEAM_BATCH_CODE_ENTRY, TEAM_BATCH_CODE_BANNER, TEAM_BATCH_CODE, [
		lazyBuiltinsIn("cjs"),
	]);
	files.set(TEAM_BATCH_CODE, teamBatchCode.text);
	files.set(
		TEAM_BATCH_BUNDLE,
		await bundle(
			TEAM_BATCH_ENTRY,
			TEAM_BATCH_BANNER,
			"node",
			[],
			[lazyBuiltinsIn("cjs"), codeApart(TEAM_BATCH_CODE_ENTRY)],
			"cjs",
			codeVersion(teamBatchCode),
		),
	);
	const piCode = await cachedCode(PI_CODE_ENTRY, PI_CODE_BANNER, PI_CODE);
	files.set(PI_CODE, piCode.text);
	files.set(
		PI_BUNDLE,
		await bundle(
			PI_ENTRY,
			PI_BANNER,
			"node",
			PI_PROVIDED,
			[separateReport, codeApart(PI_CODE_ENTRY)],
			"esm",
			codeVersion(piCode),
		),
	);
	for (const [path, update] of Object.entries(MANIFESTS)) {
		const manifest = JSON.parse(await readFile(join(ROOT, path), "utf8"));
		files.set(path, `${JSON.stringify(update(manifest, pkg), null, "\t")}\n`);
	}
	return files;
}

async function committed(path) {
	try {
		return await readFile(join(ROOT, path), "utf8");
	} catch (error) {
		if (error.code === "ENOENT") return undefined;
		throw error;
	}
}

const check = process.argv.includes("--check");
const stale = [];
for (const [path, text] of await generated()) {
	if ((await committed(path)) === text) continue;
	if (check) stale.push(path);
	else {
		await mkdir(dirname(join(ROOT, path)), { recursive: true });
		await writeFile(join(ROOT, path), text);
		console.log(`wrote ${path}`);
	}
}
if (stale.length > 0) {
	for (const path of stale) console.error(`${path} is stale: it differs from a fresh build.`);
	console.error("Run npm run build and commit the result.");
	process.exitCode = 1;
} else if (check) console.log("plugins/: every bundle and manifest matches a fresh build.");
