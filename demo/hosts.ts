// The host demos of `npm start -- <host>`: for each host, its pinned install, and a session that starts the fake of its
// model API (answered by the scripted model) and writes a throwaway HOME with Timebox installed, ready for its TUI.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeAnthropic } from "./fakes/anthropic.ts";
import { FakeChat } from "./fakes/chat.ts";
import { FakeGemini } from "./fakes/gemini.ts";
import { FakeResponses } from "./fakes/responses.ts";
import { CLAUDE_BIN, CLAUDE_CODE_VERSION, ensureClaudeCode, PLUGIN_DIR } from "./hosts/claude.ts";
import { CODEX, CODEX_VERSION, ensureCodex, writeCodexConfig } from "./hosts/codex.ts";
import { EXTENSION, ensureGemini, GEMINI, GEMINI_VERSION, writeGeminiSettings } from "./hosts/gemini.ts";
import { ensureOmp, OMP, OMP_BIN_DIR, OMP_VERSION, writeFakeProvider } from "./hosts/omp.ts";
import { ensureOpencode, OPENCODE, OPENCODE_VERSION, opencodeEnv, writeOpencodeHome } from "./hosts/opencode.ts";
import type { InstallOptions } from "./pinned-install.ts";
import { execFileQuiet } from "./process.ts";
import { REPO } from "./repo.ts";
import {
	anthropicCall,
	chatCall,
	DEMO_STEP,
	demoReply,
	geminiCall,
	offersTools,
	parseBody,
	responsesCall,
} from "./scripted.ts";

/** The hosts `npm start -- <host>` knows (pi, the default, is started by start.sh itself). */
export const DEMO_HOSTS = ["claude", "codex", "gemini", "opencode", "omp"] as const;
export type DemoHost = (typeof DEMO_HOSTS)[number];

/** A host's TUI, ready to start: its command line and environment, and the fake API to close after it. */
export interface DemoSession {
	bin: string;
	args: string[];
	env: NodeJS.ProcessEnv;
	cwd: string;
	/** The fake model API's address. */
	apiUrl: string;
	/** Installs Timebox into the HOME with the host's own command, where the host needs one (Codex, Gemini CLI). */
	installTimebox(): Promise<void>;
	close(): Promise<void>;
}

export interface HostDemo {
	/** The host's name as its users know it. */
	title: string;
	/** How the budget line is typed there. */
	budgetLine: string;
	/** The keys that leave its TUI. */
	leave: string;
	install(options: InstallOptions): Promise<void>;
	/**
	 * Starts the fake API (streaming a reply's chunks `chunkDelayMs` apart) and writes the throwaway HOME (`<root>/home`)
	 * and working folder (`<root>/work`).
	 */
	prepare(root: string, extraArgs: readonly string[], chunkDelayMs?: number): Promise<DemoSession>;
}

/** The pause between the chunks of a streamed reply, as pi's demo model streams. */
const CHUNK_DELAY_MS = 60;
/** The text a host's side request (a title, a summary) gets. */
const SIDE_TEXT = "Timebox demo";
/** A key the fakes take; it is never sent anywhere else. */
const DEMO_KEY = "sk-ant-timebox-demo-offline-key-0000000000";

function folders(root: string): { home: string; cwd: string } {
	const home = join(root, "home");
	const cwd = join(root, "work");
	mkdirSync(home, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	return { home, cwd };
}

/** The terminal settings a TUI needs from the user's environment, and nothing else of it. */
function terminal(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
	for (const name of ["TERM", "COLORTERM", "LANG", "LC_ALL", "TMUX", "TERM_PROGRAM"]) {
		if (process.env[name] !== undefined) env[name] = process.env[name];
	}
	return env;
}

const nothing = async (): Promise<void> => {};

async function setUp(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
	const done = await execFileQuiet(bin, args, { cwd, env, timeoutMs: 120_000 });
	if (done.code !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${done.code}):\n${done.stderr}`);
}

const claude: HostDemo = {
	title: `Claude Code ${CLAUDE_CODE_VERSION}`,
	budgetLine: "/timebox turns:2",
	leave: "Ctrl+C twice, quickly",
	install: async (options) => {
		await ensureClaudeCode(options);
	},
	prepare: async (root, extraArgs, chunkDelayMs = CHUNK_DELAY_MS) => {
		const { home, cwd } = folders(root);
		const api = await FakeAnthropic.start();
		api.chunkDelayMs = chunkDelayMs;
		api.sideText = SIDE_TEXT;
		api.respond = (body) => {
			const reply = demoReply(anthropicCall(parseBody(JSON.stringify(body))));
			return "step" in reply
				? { tools: [{ name: "Bash", input: { command: reply.step, description: "Demo step" } }] }
				: reply;
		};
		// No first-run screens: onboarding done, the key approved, the folder trusted, the demo step allowed.
		const state = {
			hasCompletedOnboarding: true,
			lastOnboardingVersion: CLAUDE_CODE_VERSION,
			theme: "dark",
			customApiKeyResponses: { approved: [DEMO_KEY.slice(-20)], rejected: [] },
			projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
		};
		writeFileSync(join(home, ".claude.json"), JSON.stringify(state, null, 2));
		mkdirSync(join(home, ".claude"), { recursive: true });
		const settings = { permissions: { allow: [`Bash(${DEMO_STEP})`] } };
		writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
		const env = {
			...terminal(),
			HOME: home,
			ANTHROPIC_BASE_URL: api.url,
			ANTHROPIC_API_KEY: DEMO_KEY,
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
			DISABLE_TELEMETRY: "1",
			DISABLE_AUTOUPDATER: "1",
		};
		const args = ["--plugin-dir", PLUGIN_DIR, ...extraArgs];
		return { bin: CLAUDE_BIN, args, env, cwd, apiUrl: api.url, installTimebox: nothing, close: () => api.close() };
	},
};

const codex: HostDemo = {
	title: `Codex CLI ${CODEX_VERSION}`,
	budgetLine: "timebox turns:2",
	leave: "Ctrl+C",
	install: ensureCodex,
	prepare: async (root, extraArgs, chunkDelayMs = CHUNK_DELAY_MS) => {
		const { home, cwd } = folders(root);
		const api = await FakeResponses.start();
		api.chunkDelayMs = chunkDelayMs;
		api.respond = (text) => {
			const body = parseBody(text);
			if (!offersTools(body)) return { text: SIDE_TEXT };
			const reply = demoReply(responsesCall(body));
			return "step" in reply ? { tool: "exec_command", args: { cmd: reply.step } } : reply;
		};
		const codexHome = join(home, ".codex");
		// No first-run screens: the folder trusted; the demo step runs in the workspace sandbox without asking.
		const extra = ['approval_policy = "never"', 'sandbox_mode = "workspace-write"'];
		writeCodexConfig(codexHome, api.url, [...extra, `[projects.${JSON.stringify(cwd)}]`, 'trust_level = "trusted"']);
		const env = { ...terminal(), HOME: home, CODEX_HOME: codexHome, FAKE_API_KEY: "sk-fake" };
		const installTimebox = async () => {
			await setUp(CODEX, ["plugin", "marketplace", "add", REPO], cwd, env);
			await setUp(CODEX, ["plugin", "add", "timebox@timebox"], cwd, env);
		};
		// The plugin's hooks are trusted for this run, as a user trusts them once at start-up; no daemon is left behind.
		const args = ["--dangerously-bypass-hook-trust", "--no-daemon", ...extraArgs];
		return { bin: CODEX, args, env, cwd, apiUrl: api.url, installTimebox, close: () => api.close() };
	},
};

const gemini: HostDemo = {
	title: `Gemini CLI ${GEMINI_VERSION}`,
	budgetLine: "/timebox turns:2",
	leave: "Ctrl+C twice, quickly",
	install: ensureGemini,
	prepare: async (root, extraArgs, chunkDelayMs = CHUNK_DELAY_MS) => {
		const { home, cwd } = folders(root);
		const api = await FakeGemini.start();
		api.chunkDelayMs = chunkDelayMs;
		api.respond = (text) => {
			const body = parseBody(text);
			if (!offersTools(body)) return { text: SIDE_TEXT };
			const reply = demoReply(geminiCall(body));
			return "step" in reply ? { shell: reply.step } : reply;
		};
		// No update check; no "This request failed. Press F12 for diagnostics" after each of Timebox's replies (which
		// reach Gemini as a blocked prompt: nothing failed); and the demo step runs without asking (a rule of Gemini's
		// policy engine).
		writeGeminiSettings(home, {
			general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
			ui: { errorVerbosity: "full" },
		});
		mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
		const rule = ["[[rule]]", 'toolName = "run_shell_command"', `commandPrefix = "${DEMO_STEP}"`, 'decision = "allow"'];
		writeFileSync(join(home, ".gemini", "policies", "timebox-demo.toml"), [...rule, "priority = 100", ""].join("\n"));
		const env = {
			...terminal(),
			HOME: home,
			GEMINI_API_KEY: "fake-key",
			GOOGLE_GEMINI_BASE_URL: api.url,
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			GEMINI_CLI_NO_RELAUNCH: "true",
		};
		const installTimebox = () => setUp(GEMINI, ["extensions", "install", EXTENSION, "--consent"], cwd, env);
		return { bin: GEMINI, args: [...extraArgs], env, cwd, apiUrl: api.url, installTimebox, close: () => api.close() };
	},
};

const opencode: HostDemo = {
	title: `opencode ${OPENCODE_VERSION}`,
	budgetLine: "/timebox turns:2",
	leave: "Ctrl+C",
	install: ensureOpencode,
	prepare: async (root, extraArgs, chunkDelayMs = CHUNK_DELAY_MS) => {
		const { home, cwd } = folders(root);
		const api = await FakeChat.start();
		api.chunkDelayMs = chunkDelayMs;
		api.respond = (request) => {
			const reply = demoReply(chatCall(parseBody(request.text)));
			return "step" in reply ? { bash: reply.step } : reply;
		};
		api.titleText = SIDE_TEXT;
		writeOpencodeHome(home, api.url);
		const env = opencodeEnv(home, terminal());
		return {
			bin: OPENCODE,
			args: [...extraArgs],
			env,
			cwd,
			apiUrl: api.url,
			installTimebox: nothing,
			close: () => api.close(),
		};
	},
};

const omp: HostDemo = {
	title: `oh-my-pi ${OMP_VERSION}`,
	budgetLine: "/timebox turns:2",
	leave: "Ctrl+C twice, quickly",
	install: async (options) => {
		await ensureOmp(options);
	},
	prepare: async (root, extraArgs, chunkDelayMs = CHUNK_DELAY_MS) => {
		const { home, cwd } = folders(root);
		const api = await FakeResponses.start();
		api.chunkDelayMs = chunkDelayMs;
		api.respond = (text) => {
			const body = parseBody(text);
			if (!offersTools(body)) return { text: SIDE_TEXT };
			const reply = demoReply(responsesCall(body));
			return "step" in reply ? { bash: reply.step } : reply;
		};
		const provider = writeFakeProvider(root, api.url);
		// No first-run setup wizard and no update check.
		mkdirSync(join(home, ".omp", "agent"), { recursive: true });
		const config = ["startup:", "  setupWizard: false", "  checkUpdate: false", ""].join("\n");
		writeFileSync(join(home, ".omp", "agent", "config.yml"), config);
		const env = { ...terminal(), PATH: `${OMP_BIN_DIR}:${process.env.PATH}`, HOME: home };
		const args = ["-e", REPO, "-e", provider, "--model", "fake/fake-model", ...extraArgs];
		return { bin: OMP, args, env, cwd, apiUrl: api.url, installTimebox: nothing, close: () => api.close() };
	},
};

export const HOST_DEMOS: Record<DemoHost, HostDemo> = { claude, codex, gemini, opencode, omp };

export function isDemoHost(name: string | undefined): name is DemoHost {
	return (DEMO_HOSTS as readonly (string | undefined)[]).includes(name);
}
