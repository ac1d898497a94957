// The pi adapter's parts one by one: completions, the transcript counter, the store, the UI bridge, the session
// context and the agent bridge.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it, vi } from "vitest";
import { PiAgentBridge } from "../../../src/adapters/pi/agent-bridge.ts";
import { argumentCompletions, COMMAND_DESCRIPTION } from "../../../src/adapters/pi/command.ts";
import { SessionContext } from "../../../src/adapters/pi/session-context.ts";
import { PiBudgetStore } from "../../../src/adapters/pi/store.ts";
import { PiTranscriptBridge } from "../../../src/adapters/pi/transcript-bridge.ts";
import { PiUIBridge } from "../../../src/adapters/pi/ui-bridge.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

const values = (prefix: string) => argumentCompletions(prefix)?.map((item) => item.value) ?? null;

describe("argument completions", () => {
	it("offers the static completions filtered by prefix", () => {
		expect(values("")).toEqual(["off", "status", "15m", "30m", "1h", "turns:3", "turns:5", "turns:10"]);
		expect(values("tu")).toEqual(["turns:3", "turns:5", "turns:10"]);
		expect(values("1")).toEqual(["15m", "1h"]);
		expect(values("ST")).toEqual(["status"]);
		expect(argumentCompletions("o")).toEqual([{ value: "off", label: "off" }]);
	});

	it("returns null when nothing matches", () => {
		expect(argumentCompletions("x")).toBeNull();
		expect(argumentCompletions("15m -- ")).toBeNull();
	});

	it("completes the last word and keeps the earlier ones, offering no sub-command after a budget", () => {
		expect(argumentCompletions("15m tu")).toEqual([
			{ value: "15m turns:3", label: "turns:3" },
			{ value: "15m turns:5", label: "turns:5" },
			{ value: "15m turns:10", label: "turns:10" },
		]);
		expect(values("15m ")).toEqual(["15m 15m", "15m 30m", "15m 1h", "15m turns:3", "15m turns:5", "15m turns:10"]);
		expect(argumentCompletions("15m o")).toBeNull();
	});

	it("has a description that shows the syntax", () => {
		expect(COMMAND_DESCRIPTION).toContain("/timebox 15m turns:3");
	});
});

function contextFor(file: FakeSessionFile, hasUI = true) {
	const pi = new FakePi({ file, hasUI });
	return pi;
}

describe("PiTranscriptBridge", () => {
	async function bridgeOn(file: FakeSessionFile) {
		const pi = await contextFor(file).start();
		const context = new SessionContext();
		const ctx = pi.instance.context();
		const getEntries = vi.spyOn(ctx.sessionManager, "getEntries");
		context.bind(ctx);
		return { bridge: new PiTranscriptBridge(context), getEntries };
	}

	it("counts user messages, then visits only what was appended since, never copying the session again", async () => {
		const file = new FakeSessionFile();
		file.appendUserMessage("one");
		file.appendCustom("timebox-active", {});
		file.appendUserMessage("two");
		const { bridge, getEntries } = await bridgeOn(file);
		expect(bridge.countUserMessages()).toBe(2);
		expect(bridge.countUserMessages()).toBe(2);
		file.appendUserMessage("three");
		file.appendCustom("other", {});
		expect(bridge.countUserMessages()).toBe(3);
		expect(getEntries).toHaveBeenCalledTimes(1);
	});

	it("counts every branch again after a /tree navigation", async () => {
		const file = new FakeSessionFile();
		file.appendUserMessage("one");
		const branchPoint = file.leafId;
		file.appendUserMessage("two");
		const { bridge, getEntries } = await bridgeOn(file);
		expect(bridge.countUserMessages()).toBe(2);
		file.leafId = branchPoint;
		bridge.invalidate();
		file.appendUserMessage("two, rewritten");
		expect(bridge.countUserMessages()).toBe(3);
		expect(getEntries).toHaveBeenCalledTimes(2);
	});

	it("scans everything when the leaf's path does not lead back to the last count", async () => {
		const file = new FakeSessionFile();
		file.appendUserMessage("one");
		file.appendUserMessage("two");
		const { bridge } = await bridgeOn(file);
		expect(bridge.countUserMessages()).toBe(2);
		file.leafId = null;
		file.appendUserMessage("a new root");
		expect(bridge.countUserMessages()).toBe(3);
		file.leafId = "missing";
		expect(bridge.countUserMessages()).toBe(3);
	});

	it("starts over on another session manager", async () => {
		const first = new FakeSessionFile();
		first.appendUserMessage("a");
		first.appendUserMessage("b");
		const second = new FakeSessionFile();
		second.appendUserMessage("c");
		const context = new SessionContext();
		const bridge = new PiTranscriptBridge(context);
		context.bind((await contextFor(first).start()).instance.context());
		expect(bridge.countUserMessages()).toBe(2);
		context.bind((await contextFor(second).start()).instance.context());
		expect(bridge.countUserMessages()).toBe(1);
	});
});

describe("PiBudgetStore", () => {
	it("reads timebox entries oldest first and ignores every other entry", async () => {
		const file = new FakeSessionFile();
		file.appendCustom("timebox-active", { turnLimit: 2 });
		file.appendUserMessage("hi");
		file.appendCustom("other-extension", { kind: "off" });
		file.appendCustom("timebox-off", { disabledAt: 5 });
		file.appendCustom("timebox-off", "garbage");
		const pi = await contextFor(file).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		expect(new PiBudgetStore(pi.instance.api, context).loadRecords()).toEqual([
			{ kind: "active", budget: { turnLimit: 2 } },
			{ kind: "off", disabledAt: 5 },
			{ kind: "off", disabledAt: undefined },
		]);
	});
});

describe("PiUIBridge", () => {
	it("sends an unchanged status once", async () => {
		const pi = await contextFor(new FakeSessionFile()).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		const ui = new PiUIBridge(context, () => undefined);
		ui.setStatus("Timebox: a");
		ui.setStatus("Timebox: a");
		ui.setStatus(undefined);
		expect(pi.screen.statusUpdates).toEqual(["Timebox: a", undefined]);
	});

	it("refuses to act before pi gave it a context", () => {
		const ui = new PiUIBridge(new SessionContext(), () => undefined);
		expect(() => ui.notify("x", "info")).toThrow("no pi session context yet");
	});
});

describe("SessionContext", () => {
	it("is live only between the first event and the session's end", async () => {
		const context = new SessionContext();
		expect(context.isLive()).toBe(false);
		const pi = await contextFor(new FakeSessionFile()).start();
		context.bind(pi.instance.context());
		expect(context.isLive()).toBe(true);
		pi.instance.stale = true;
		expect(context.isLive()).toBe(false);
	});
});

describe("PiAgentBridge", () => {
	it("returns nothing to change without an addition, and each addition once", () => {
		const bridge = new PiAgentBridge(new SessionContext());
		expect(bridge.takeSystemPrompt("base")).toBeUndefined();
		bridge.appendSystemPrompt("WARNING");
		expect(bridge.takeSystemPrompt("base")).toEqual({ systemPrompt: "base\n\nWARNING" });
		expect(bridge.takeSystemPrompt("base")).toBeUndefined();
	});

	it("aborts through the current context", () => {
		const context = new SessionContext();
		const abort = vi.fn();
		context.bind({ abort } as unknown as ExtensionContext);
		new PiAgentBridge(context).abortCurrentTurn();
		expect(abort).toHaveBeenCalledTimes(1);
	});
});
