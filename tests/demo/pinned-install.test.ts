// The pinned installs the tests, the bench and the demos share: an install counts as there when its binary is there and
// npm installed every pinned package at its version, read from the manifests, with no host started to ask it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installedPackageVersion, isPinnedInstalled, type PinnedCli } from "../../demo/pinned-install.ts";

let dir: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-pinned-"));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `node_modules/<name>/package.json` with `version` (or `manifest` as it is) into the install folder. */
function installed(name: string, version: string, manifest?: string): void {
	mkdirSync(join(dir, "node_modules", name), { recursive: true });
	writeFileSync(join(dir, "node_modules", name, "package.json"), manifest ?? JSON.stringify({ name, version }));
}

/** A host whose binary fails if it is ever started: the check must not start it. */
function host(extra: Partial<PinnedCli> = {}): PinnedCli {
	const bin = join(dir, "node_modules/.bin/host");
	mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
	writeFileSync(bin, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
	return { packageSpec: "@scope/host@1.2.3", installDir: dir, bin, versionText: "1.2.3", ...extra };
}

describe("a pinned install", () => {
	it("is there when every pinned package is installed at its version, without starting the host", () => {
		installed("@scope/host", "1.2.3");
		installed("bun", "1.4.5");
		expect(isPinnedInstalled(host({ withPackages: ["bun@1.4.5"] }))).toBe(true);
	});

	it("is not there when a pinned package is at another version or missing", () => {
		installed("@scope/host", "1.2.2");
		expect(isPinnedInstalled(host())).toBe(false);
		installed("@scope/host", "1.2.3");
		expect(isPinnedInstalled(host({ withPackages: ["bun@1.4.5"] }))).toBe(false);
	});

	it("is not there without its binary, or without the program that runs it", () => {
		installed("@scope/host", "1.2.3");
		const cli = host();
		expect(isPinnedInstalled({ ...cli, bin: join(dir, "missing") })).toBe(false);
		expect(isPinnedInstalled({ ...cli, runWith: join(dir, "no-node") })).toBe(false);
	});

	it("reads no version from a damaged manifest", () => {
		installed("broken", "", "{ not json");
		installed("odd", "", JSON.stringify({ version: 3 }));
		installed("none", "", "null");
		expect(installedPackageVersion(dir, "broken")).toBe("");
		expect(installedPackageVersion(dir, "odd")).toBe("");
		expect(installedPackageVersion(dir, "none")).toBe("");
		expect(installedPackageVersion(dir, "absent")).toBe("");
	});
});
