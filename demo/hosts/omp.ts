// oh-my-pi (`omp`) for the tests and the demo: the pinned binary and Bun, installed once into node_modules/.cache, and
// a provider extension that points omp at a loopback fake of the OpenAI Responses API.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePinned, type InstallOptions } from "../pinned-install.ts";
import { cacheDir } from "../repo.ts";

export const OMP_VERSION = "18.2.3";
const BUN_VERSION = "1.4.5";
// One folder per version, so that checkouts pinned to different versions do not reinstall over each other.
const INSTALL_DIR = cacheDir(`omp-${OMP_VERSION}-bun-${BUN_VERSION}`);
/** The folder of `omp` and of the `bun` it runs on: put it first on the PATH of an omp. */
export const OMP_BIN_DIR = join(INSTALL_DIR, "node_modules/.bin");
export const OMP = join(OMP_BIN_DIR, "omp");

/** Installs the pinned oh-my-pi and Bun once (cached), and returns the `omp` binary. */
export async function ensureOmp(options: InstallOptions = {}): Promise<string> {
	await ensurePinned(
		{
			packageSpec: `@oh-my-pi/pi-coding-agent@${OMP_VERSION}`,
			withPackages: [`bun@${BUN_VERSION}`],
			installDir: INSTALL_DIR,
			bin: OMP,
			versionText: (printed) => printed.includes(OMP_VERSION),
			path: `${OMP_BIN_DIR}:${process.env.PATH}`,
		},
		options,
	);
	return OMP;
}

/** Writes an extension that registers provider `fake` (model `fake/fake-model`) at `apiUrl`, and returns its path. */
export function writeFakeProvider(folder: string, apiUrl: string): string {
	const file = join(folder, "fake-provider.ts");
	writeFileSync(
		file,
		`export default function (pi) {
	pi.registerProvider("fake", {
		baseUrl: ${JSON.stringify(apiUrl)}, apiKey: "sk-fake", api: "openai-responses",
		models: [{ id: "fake-model", name: "fake", reasoning: false, input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 32000 }],
	});
}
`,
	);
	return file;
}
