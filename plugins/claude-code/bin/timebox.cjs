// Timebox's hook script for Claude Code, Gemini CLI and Codex CLI, bundled from src/entries/hooks.ts by npm run build. Do not edit.
"use strict";
const __entryUrl = require("node:url").pathToFileURL(__filename).href;
"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// src/adapters/node/code-cache.ts
var import_node_fs = require("node:fs");
var import_node_module = require("node:module");
var import_node_path = require("node:path");
var import_node_url = require("node:url");
var import_node_vm = require("node:vm");

// src/core/constants.ts
var MAX_TIME_LIMIT_MS = 30 * 24 * 60 * 60 * 1e3;
var MAX_GRACE_MS = 10 * 60 * 1e3;
var OFF_WORDS = ["off", "disable", "cancel"];
var STATUS_WORD = "status";
var PAUSE_WORD = "pause";
var RESUME_WORD = "resume";
var REPORT_WORD = "report";
var REPORT_PAGE_WORD = "page";
var SUGGEST_WORD = "suggest";
var TODAY_WORD = "today";
var TEAM_WORD = "team";
var CODE_CACHE_FOLDER = "timebox-code-cache";
var CODE_CACHE_VERSIONS_KEPT = 3;
var CODE_CACHE_OTHER_NODE_DAYS = 30;
var SUBAGENTS_WORD = "subagents";
var SESSION_TOLD_KEPT_MS = 7 * 24 * 36e5;
var TEAM_RESERVATION_MS = 10 * 6e4;
var TEAM_KEYS_OUTLIVE_S = 24 * 3600;

// src/core/grammar/command.ts
var TODAY_COMMAND = new RegExp(`^${TODAY_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var TEAM_COMMAND = new RegExp(`^${TEAM_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var REPORT_PAGE_COMMAND = new RegExp(`^${REPORT_WORD}\\s+${REPORT_PAGE_WORD}$`, "i");
var SUBAGENTS_COMMAND = new RegExp(`^${SUBAGENTS_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
var SUB_COMMANDS = new Map([
  [STATUS_WORD, "status"],
  [REPORT_WORD, "report"],
  [SUGGEST_WORD, "suggest"],
  [PAUSE_WORD, "pause"],
  [RESUME_WORD, "resume"],
  ...OFF_WORDS.map((word) => [word, "off"])
]);

// src/core/text/loop.ts
var FINISH_NOW = "Write the final answer now, with what was done and what is left. Call no more tools.";
var LOOP_STOPPED_REFUSAL = `Timebox stopped this run: the model asked again for a call that was refused as a loop. ${FINISH_NOW}`;

// src/core/format.ts
var SPENT_STATUS = "Timebox: budget spent";
var WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;
var lastLabel = { ms: Number.NaN, text: "" };

// src/core/text/host-terms.ts
var WRITTEN_COMMAND = "/timebox";
var DEFAULT_TERMS = {
  name: "pi",
  command: WRITTEN_COMMAND,
  tokens: true,
  cost: true,
  dailySetting: `Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of pi's settings.json.`
};
function noDailyBudgetMessage(terms) {
  return `No daily budget is set. ${terms.dailySetting}`;
}

// src/core/text/messages.ts
var USAGE = [
  "Usage: /timebox <budget> [-- <command>] | status | off",
  "       /timebox +<budget> (extend) | pause | resume | report | suggest",
  "       /timebox subagents [<budget> | off] (a budget for each subagent: a time, steps:30, tokens:200k, cost:0.50, loop:3)",
  "  budget: 30s 15m 2h 1h30m (a bare number is minutes), turns:5 (prompts you send), steps:25 (model calls per prompt), tokens:200k, cost:2.50, loop:3 (identical tool calls per prompt)",
  "  options: aware (the model sees what is left at every call), grace:30s (time to wrap up at the limit)",
  '  e.g. /timebox 15m turns:3    /timebox turns:5 -- notify-send "Timebox done"    /timebox +10m +turns:2'
].join("\n");
var WRAP_UP_REFUSAL = `Timebox: the budget is spent. ${FINISH_NOW}`;
var NO_DAILY_BUDGET = noDailyBudgetMessage(DEFAULT_TERMS);

// src/core/daily/team.ts
var SET_WORDS = "a time (4h), turns:200, tokens:2m and cost ($50)";
var SET_KNOWN = `team set takes ${SET_WORDS}`;

// src/core/subagents/messages.ts
var SUBAGENT_WRAP_UP_BLOCK = [
  "TIMEBOX: TASK BUDGET SPENT",
  "Your budget for this task is spent. Write your final answer now: what you found, and what is left undone.",
  "Call no more tools: they are refused, and you are stopped if you ask for one again."
].join("\n");

// src/core/suggest/statistics.ts
var MINUTE_MS = 6e4;
var HOUR_MS = 60 * MINUTE_MS;

// src/core/text/model-notes.ts
var BUDGET_IN_FORCE_PROMPT = [
  "",
  "",
  "TIMEBOX",
  "The user gave this session a budget (time, turns, tokens or cost). When it runs low, or at every model call if the user asked for that, the end of the messages says what is left: follow it. When the budget runs out, the run is stopped."
].join("\n");
var WRAP_UP_PROMPT = [
  "TIMEBOX: BUDGET SPENT",
  "The budget the user gave this session is spent. Write your final answer now: what was done, and what is left to do.",
  "Call no more tools: they are refused, and the run is stopped if you ask for one again."
].join("\n");

// src/core/loop/run-calls.ts
var BITS = 5;
var WIDTH = 1 << BITS;
var MASK = WIDTH - 1;
var EMPTY_LEVEL = Array.from({ length: WIDTH }, () => void 0);

// src/adapters/node/code-cache.ts
var LAZY = "--lazy";
var NOT_LAZY = "--no-lazy";
function compileEagerly(compile, setFlags) {
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
var WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
var WRAPPER_TAIL = "\n});";
var CACHE_EXTENSION = ".v8-cache";
var DRAFT_EXTENSION = ".draft";
var DAY_MS = 24 * 3600 * 1e3;
function requireCodeBeside(entryUrl, name, source, options) {
  const file = (0, import_node_url.fileURLToPath)(new URL(`./${name}`, entryUrl));
  if (!(0, import_node_fs.existsSync)(file)) return { exports: source, fromCache: false, keep: () => {
  } };
  return requireCached(file, options());
}
function requireCached(file, options) {
  const { folder, version } = options;
  const require2 = (0, import_node_module.createRequire)(file);
  if (folder === null) return { exports: require2(file), fromCache: false, keep: () => {
  } };
  const text = (0, import_node_fs.readFileSync)(file, "utf8");
  const prefix = `${(0, import_node_path.basename)(file)}-`;
  const suffix = `-${process.version}-${process.arch}${CACHE_EXTENSION}`;
  const name = `${prefix}${version}${suffix}`;
  const ours = firstLine(text).endsWith(` Version ${version}.`);
  const cached = ours ? readCache((0, import_node_path.join)(folder, name)) : void 0;
  const compile = () => new import_node_vm.Script(`${WRAPPER_HEAD}${text}${WRAPPER_TAIL}`, { filename: file, cachedData: cached });
  const setFlags = (flags) => require2("node:v8").setFlagsFromString(flags);
  const script = options.eager && ours && cached === void 0 ? compileEagerly(compile, setFlags) : compile();
  const fromCache = cached !== void 0 && !script.cachedDataRejected;
  const module2 = { exports: {} };
  const run = script.runInThisContext();
  run.call(module2.exports, module2.exports, require2, module2, file, (0, import_node_path.dirname)(file));
  let kept2 = fromCache || !ours;
  return {
    exports: module2.exports,
    fromCache,
    keep() {
      if (kept2) return;
      kept2 = true;
      try {
        writeCache(folder, name, script.createCachedData());
        removeOld(folder, name, prefix, suffix, (options.now ?? Date.now)());
      } catch {
      }
    }
  };
}
function firstLine(text) {
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
}
function removeOld(folder, name, prefix, suffix, now) {
  const files = (0, import_node_fs.readdirSync)(folder).filter((other) => other !== name && other.startsWith(prefix)).map((other) => ({ other, path: (0, import_node_path.join)(folder, other), written: (0, import_node_fs.statSync)((0, import_node_path.join)(folder, other)).mtimeMs }));
  const versions = files.filter((file) => file.other.endsWith(suffix)).sort((a, b) => b.written - a.written);
  const old = [
    ...versions.slice(CODE_CACHE_VERSIONS_KEPT - 1),
    ...files.filter(
      (file) => file.other.endsWith(CACHE_EXTENSION) && !file.other.endsWith(suffix) && now - file.written > CODE_CACHE_OTHER_NODE_DAYS * DAY_MS
    ),
    ...files.filter((file) => file.other.endsWith(DRAFT_EXTENSION))
  ];
  for (const file of old) (0, import_node_fs.rmSync)(file.path, { force: true });
}
function readCache(path) {
  try {
    return (0, import_node_fs.readFileSync)(path);
  } catch {
    return void 0;
  }
}
function writeCache(folder, name, data) {
  (0, import_node_fs.mkdirSync)(folder, { recursive: true });
  const draft = (0, import_node_path.join)(folder, `${name}.${process.pid}${DRAFT_EXTENSION}`);
  try {
    (0, import_node_fs.writeFileSync)(draft, data);
    (0, import_node_fs.renameSync)(draft, (0, import_node_path.join)(folder, name));
  } finally {
    (0, import_node_fs.rmSync)(draft, { force: true });
  }
}

// src/entries/code-cache-folder.ts
var import_node_os = require("node:os");
var import_node_path2 = require("node:path");

// src/adapters/daily/ledger.ts
function stateDirIn(stateHome, home) {
  return stateHome?.trim() ? `${stateHome}/timebox` : `${home}/.local/state/timebox`;
}

// src/entries/code-cache-folder.ts
function codeCacheFolder(env) {
  const state = stateDirIn(env.XDG_STATE_HOME, env.HOME || (0, import_node_os.homedir)());
  return (0, import_node_path2.isAbsolute)(state) ? (0, import_node_path2.join)(state, CODE_CACHE_FOLDER) : null;
}

// code-apart:src/entries/hook-main.ts
var hook_main_exports = {};

// src/entries/hooks.ts
var CODE_FILE = "timebox-hook.cjs";
var code = requireCodeBeside(__entryUrl, CODE_FILE, hook_main_exports, () => ({
  folder: codeCacheFolder(process.env),
  version: "0069887a61aabbbe"
}));
if (typeof code.exports.runHookScript !== "function") {
  process.stderr.write(`timebox: ${CODE_FILE} is missing beside ${process.argv[1]}: install the plugin again
`);
  process.exitCode = 1;
} else {
  void code.exports.runHookScript({ url: __entryUrl, importReport: () => import("./timebox-report.mjs") }).then((answered) => {
    if (answered) code.keep();
  });
}
