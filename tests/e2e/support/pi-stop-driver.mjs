// A light pi for the kill tests: one Node process with pi's SDK and Timebox loaded from the package's manifest (the real
// bundle), on a file-backed session, with an offline model. It opens the session (a new one the first time), which is
// where Timebox loads its budget and the ledger; then, unless told to stop there, it sets `turns:1 -- <command>` and
// sends two prompts, the second of which is past the limit: a kill test kills the process at that stop's claim. What
// the user would read comes on stdout, one JSON line per notice, written at once (a killed process keeps what it wrote).
// usage: node pi-stop-driver.mjs <session folder> <command or ""> (HOME, PI_CODING_AGENT_DIR, PI_OFFLINE set)

import { writeSync } from "node:fs";
import { fauxAssistantMessage, fauxText, registerFauxProvider } from "@mariozechner/pi-ai";
import {
	AuthStorage,
	createAgentSession,
	DefaultResourceLoader,
	ModelRegistry,
	SessionManager,
} from "@mariozechner/pi-coding-agent";

const [sessionDir = "", command = ""] = process.argv.slice(2);
const cwd = process.cwd();
const agentDir = process.env.PI_CODING_AGENT_DIR ?? "";
const packageRoot = new URL("../../..", import.meta.url).pathname;

function say(line) {
	writeSync(1, `${JSON.stringify(line)}\n`);
}

const faux = registerFauxProvider({ provider: "timebox-e2e" });
const authStorage = AuthStorage.inMemory();
authStorage.setRuntimeApiKey("timebox-e2e", "x");
const resourceLoader = new DefaultResourceLoader({
	cwd,
	agentDir,
	additionalExtensionPaths: [packageRoot],
	noExtensions: true,
	noSkills: true,
	noPromptTemplates: true,
	noThemes: true,
	noContextFiles: true,
});
await resourceLoader.reload();
const { session } = await createAgentSession({
	cwd,
	agentDir,
	resourceLoader,
	// The latest session of the folder, as `pi --continue` takes it up; a new one the first time.
	sessionManager: SessionManager.continueRecent(cwd, sessionDir),
	authStorage,
	modelRegistry: ModelRegistry.inMemory(authStorage),
	model: faux.getModel(),
});
const ui = {
	notify: (message, level) => say({ notice: message, level: level ?? "info" }),
	setStatus: () => {},
	select: async () => undefined,
};
await session.bindExtensions({ uiContext: ui });
say({ loaded: true });
if (command !== "") {
	faux.setResponses([fauxAssistantMessage(fauxText("done"))]);
	await session.prompt(`/timebox turns:1 -- ${command}`);
	await session.prompt("one");
	say({ stopping: true });
	await session.prompt("two");
	// pi goes on after a stop, its session open: a while, as a person reads the stop.
	await new Promise((resolve) => setTimeout(resolve, 3_000));
}
await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
session.dispose();
faux.unregister();
say({ done: true });
