// Benchmark 10 (`TIMEBOX_BENCH=overshoot`): how far a `tokens:` or `cost:` budget ends past its limit on each real host,
// against a fake model API that answers every request with as many tokens as it allows (and reports its input from the
// request's size, a token per four bytes). Each run is one prompt that the model answers with a bash call, again and
// again, until Timebox stops it; what the host was charged is added up from the fake's requests. The budget differs
// from run to run (so that the limit falls at a different point of a call each time), and Timebox is loaded from a
// checkout (`TIMEBOX_BEFORE=<folder>` measures another checkout too, such as the code before the caps).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeAnthropic } from "../../demo/fakes/anthropic.ts";
import { BYTES_PER_TOKEN } from "../../demo/fakes/as-allowed.ts";
import { FakeChat } from "../../demo/fakes/chat.ts";
import { FakeGemini } from "../../demo/fakes/gemini.ts";
import { FakeResponses } from "../../demo/fakes/responses.ts";
import { ensureGemini, GEMINI, writeGeminiSettings } from "../../demo/hosts/gemini.ts";
import { ensureOmp, OMP_BIN_DIR } from "../../demo/hosts/omp.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "../../demo/hosts/opencode.ts";
import { REPO } from "../../demo/repo.ts";
import { BUNDLED_PI, PI_1, type PiHost, runPi } from "../e2e/support/pi-hosts.ts";
import { runProcess } from "../support/processes.ts";
import { progress } from "./stats.ts";

/** Runs per host and checkout: half under a `tokens:` budget, half under a `cost:` budget. */
export const OVERSHOOT_RUNS = 20;
/** Prices of the fake model in dollars per million tokens, as the hosts are told them (Sonnet's). */
const PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
/** The budgets grow by these steps from run to run, so that the limit falls at a new point of a call each time. */
const TOKEN_STEP = 7_919;
const COST_STEP = 0.0793;

/** What one run was charged, and its budget. */
export interface OvershootRun {
	budget: { tokens?: number; cost?: number };
	tokens: number;
	cost: number;
	/** The requests the fake received. */
	calls: number;
}

/** The runs of one host for one checkout. */
export interface HostOvershoot {
	host: string;
	checkout: string;
	runs: OvershootRun[];
}

/** A host as the benchmark runs it: its start-up once, and one run of a budget in a checkout. */
interface HostRunner {
	name: string;
	/** Where the token budgets start (above a first call's bound on that host). */
	tokenBase: number;
	/** Absent where the host tells Timebox no cost: every run is then under `tokens:`. */
	costBase?: number;
	ensure(): Promise<unknown>;
	run(checkout: string, budget: string): Promise<{ requests: { bytes: number; limit: number }[] }>;
}

/** The usage the fake reported for a request: its input from its size, its output its limit. */
function charged(requests: readonly { bytes: number; limit: number }[]): { tokens: number; cost: number } {
	let tokens = 0;
	let cost = 0;
	for (const { bytes, limit } of requests) {
		const input = Math.ceil(bytes / BYTES_PER_TOKEN);
		tokens += input + limit;
		cost += (input * PRICES.input + limit * PRICES.output) / 1_000_000;
	}
	return { tokens, cost };
}

function scratch(): string {
	return mkdtempSync(join(tmpdir(), "timebox-overshoot-"));
}

/** pi (`pi -p`) with a model of the Anthropic Messages API at the fake, priced, allowing 32,000 output tokens. */
function piRunner(host: PiHost, name: string): HostRunner {
	return {
		name,
		tokenBase: 60_000,
		costBase: 0.5,
		ensure: () => host.ensure(),
		run: async (checkout, budget) => {
			const api = await FakeAnthropic.start();
			const root = scratch();
			try {
				api.answerAsAllowed();
				api.respond = () => ({ tools: [{ name: "bash", input: { command: "echo step" } }] });
				const agent = join(root, "home/.pi/agent");
				mkdirSync(agent, { recursive: true });
				mkdirSync(join(root, "project"));
				const model = {
					id: "claude-fake",
					reasoning: false,
					input: ["text"],
					cost: PRICES,
					contextWindow: 200_000,
					maxTokens: 32_000,
				};
				const providers = {
					"fake-anthropic": { baseUrl: api.url, api: "anthropic-messages", apiKey: "x", models: [model] },
				};
				writeFileSync(join(agent, "models.json"), JSON.stringify({ providers }));
				const env: NodeJS.ProcessEnv = {
					...process.env,
					HOME: join(root, "home"),
					PI_OFFLINE: "1",
					PI_CODING_AGENT_DIR: agent,
				};
				delete env.PI_TIMEBOX;
				delete env.XDG_STATE_HOME;
				const entry = join(checkout, "plugins/pi/timebox/index.js");
				const args = [
					"-e",
					entry,
					"--model",
					"fake-anthropic/claude-fake",
					"-p",
					`/timebox ${budget}`,
					"loop until told otherwise",
				];
				await runPi(host, args, { cwd: join(root, "project"), env, timeoutMs: 180_000 });
				return {
					requests: api.requests.map((request) => ({ bytes: request.bytes ?? 0, limit: request.body.max_tokens ?? 0 })),
				};
			} finally {
				await api.close();
				rmSync(root, { recursive: true, force: true });
			}
		},
	};
}

/** oh-my-pi (`omp -p`) with a provider of the Responses API at the fake, priced, allowing 32,000 output tokens. */
const ompRunner: HostRunner = {
	name: "oh-my-pi 18.2.3 (openai-responses)",
	tokenBase: 200_000,
	costBase: 1.5,
	ensure: () => ensureOmp(),
	run: async (checkout, budget) => {
		const api = await FakeResponses.start();
		const root = scratch();
		try {
			api.answerAsAllowed();
			api.respond = () => ({ bash: "echo step" });
			mkdirSync(join(root, "home"));
			mkdirSync(join(root, "work"));
			const provider = join(root, "fake-provider.ts");
			writeFileSync(
				provider,
				`export default function (pi) {
	pi.registerProvider("fake", { baseUrl: ${JSON.stringify(api.url)}, apiKey: "sk-fake", api: "openai-responses",
		models: [{ id: "fake-model", name: "fake", reasoning: false, input: ["text"], cost: ${JSON.stringify(PRICES)},
			contextWindow: 200000, maxTokens: 32000 }] });
}
`,
			);
			const args = [
				"-e",
				checkout,
				"-e",
				provider,
				"--model",
				"fake/fake-model",
				"-p",
				`/timebox ${budget}`,
				"loop until told otherwise",
			];
			const env = { PATH: `${OMP_BIN_DIR}:${process.env.PATH}`, HOME: join(root, "home") };
			await runProcess(join(OMP_BIN_DIR, "omp"), args, { cwd: join(root, "work"), env, timeoutMs: 300_000 });
			return {
				requests: api.requests.map((body) => {
					const limit = (JSON.parse(body) as { max_output_tokens?: number }).max_output_tokens;
					return { bytes: Buffer.byteLength(body, "utf8"), limit: limit ?? 32_000 };
				}),
			};
		} finally {
			await api.close();
			rmSync(root, { recursive: true, force: true });
		}
	},
};

/** opencode (`opencode run`) with its openai-compatible provider at the fake, priced as the demo's model. */
const opencodeRunner: HostRunner = {
	name: "opencode 1.18.33 (chat completions)",
	tokenBase: 150_000,
	costBase: 1,
	ensure: () => ensureOpencode(),
	run: async (checkout, budget) => {
		const api = await FakeChat.start();
		const root = scratch();
		try {
			api.answerAsAllowed();
			api.respond = () => ({ bash: "echo step" });
			const home = join(root, "home");
			mkdirSync(join(root, "work"));
			writeOpencodeHome(home, api.url);
			const config = join(home, ".config/opencode");
			for (const file of ["opencode.json", "tui.json"]) {
				const settings = JSON.parse(readFileSync(join(config, file), "utf8")) as { plugin: unknown[] };
				settings.plugin = [checkout];
				writeFileSync(join(config, file), JSON.stringify(settings));
			}
			const env = opencodeEnv(home, { TIMEBOX_DEFAULT: budget });
			await runProcess(OPENCODE, ["run", "loop until told otherwise"], {
				cwd: join(root, "work"),
				env,
				timeoutMs: 300_000,
			});
			return {
				requests: api.main.map((request) => ({
					bytes: Buffer.byteLength(request.text, "utf8"),
					limit: Number(request.body.max_tokens ?? 32_000),
				})),
			};
		} finally {
			await api.close();
			rmSync(root, { recursive: true, force: true });
		}
	},
};

/** Gemini's own limit on an answer where a request names none, as the fake answers it. */
const GEMINI_DEFAULT_LIMIT = 65_536;
/** The fake Gemini model answers in text at this call: where Timebox counts no tokens, the loop ends there. */
const GEMINI_LAST_CALL = 10;

/**
 * Gemini CLI (`gemini --yolo -p`) with its extension installed from the checkout, at the fake Gemini API. Only under
 * `tokens:` (no Gemini hook sees a price), the budget from `TIMEBOX_DEFAULT`.
 */
const geminiRunner: HostRunner = {
	name: "Gemini CLI 0.61.0 (Gemini API)",
	tokenBase: 100_000,
	ensure: () => ensureGemini(),
	run: async (checkout, budget) => {
		const api = await FakeGemini.start();
		const root = scratch();
		try {
			api.answerAsAllowed();
			api.respond = () => (api.requests.length < GEMINI_LAST_CALL ? { shell: "echo step" } : { text: "done" });
			const home = join(root, "home");
			mkdirSync(join(root, "work"));
			writeGeminiSettings(home);
			const env = {
				PATH: process.env.PATH,
				HOME: home,
				GEMINI_API_KEY: "fake-key",
				GOOGLE_GEMINI_BASE_URL: api.url,
				GEMINI_CLI_TRUST_WORKSPACE: "true",
				GEMINI_CLI_NO_RELAUNCH: "true",
			};
			const options = { cwd: join(root, "work"), timeoutMs: 300_000 };
			const extension = join(checkout, "plugins/gemini-cli");
			await runProcess(GEMINI, ["extensions", "install", extension, "--consent"], { ...options, env });
			const words = { ...env, TIMEBOX_DEFAULT: budget };
			await runProcess(GEMINI, ["--yolo", "-p", "loop until told otherwise"], { ...options, env: words });
			return {
				requests: api.requests.map((body) => {
					const config = (JSON.parse(body) as { generationConfig?: { maxOutputTokens?: number } }).generationConfig;
					return { bytes: Buffer.byteLength(body, "utf8"), limit: config?.maxOutputTokens ?? GEMINI_DEFAULT_LIMIT };
				}),
			};
		} finally {
			await api.close();
			rmSync(root, { recursive: true, force: true });
		}
	},
};

/** The hosts measured: the ones whose requests Timebox can cap (`TIMEBOX_OVERSHOOT_HOSTS=gemini,pi` picks some). */
const RUNNERS: readonly HostRunner[] = [
	piRunner(BUNDLED_PI, "pi 0.73.1 (anthropic-messages)"),
	piRunner(PI_1, "pi 1.6.0 (anthropic-messages)"),
	ompRunner,
	opencodeRunner,
	geminiRunner,
].filter((runner) => {
	const picked = process.env.TIMEBOX_OVERSHOOT_HOSTS?.split(",");
	return picked === undefined || picked.some((word) => runner.name.toLowerCase().startsWith(word.toLowerCase()));
});

/** The checkouts measured: this one, and `TIMEBOX_BEFORE` when set (its bundles built). */
function checkouts(): { label: string; folder: string }[] {
	const list = [{ label: "with the caps", folder: REPO }];
	const before = process.env.TIMEBOX_BEFORE;
	if (before !== undefined && existsSync(before)) list.unshift({ label: "before the caps", folder: before });
	return list;
}

/** Runs every host, `OVERSHOOT_RUNS` times per checkout, half of the runs under tokens and half under cost. */
export async function measureOvershoot(): Promise<HostOvershoot[]> {
	const results: HostOvershoot[] = [];
	for (const runner of RUNNERS) {
		await runner.ensure();
		for (const { label, folder } of checkouts()) {
			const runs: OvershootRun[] = [];
			for (let index = 0; index < OVERSHOOT_RUNS; index++) {
				const costBase = runner.costBase;
				const half = costBase === undefined ? index : Math.floor(index / 2);
				const costRun = costBase !== undefined && index % 2 === 1;
				const tokens = costRun ? undefined : runner.tokenBase + half * TOKEN_STEP;
				const cost = costRun ? Math.round((costBase + half * COST_STEP) * 100) / 100 : undefined;
				const words = tokens !== undefined ? `tokens:${tokens}` : `cost:${cost?.toFixed(2)}`;
				const { requests } = await runner.run(folder, words);
				const used = charged(requests);
				runs.push({ budget: tokens !== undefined ? { tokens } : { cost: cost ?? 0 }, ...used, calls: requests.length });
				progress(
					`${runner.name}, ${label}, ${words}: ${used.tokens} tokens, $${used.cost.toFixed(4)}, ${requests.length} calls`,
				);
			}
			results.push({ host: runner.name, checkout: label, runs });
		}
	}
	return results;
}
