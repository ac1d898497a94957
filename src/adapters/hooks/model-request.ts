// A model request about to be sent, where the host lets a hook change it (Gemini CLI's BeforeModel): its input bounded
// from the session's transcript (the prompt of the latest answer, and every byte the transcript gained from that
// answer's line on: the answer itself, the tool results, the messages since), the rules' cap on its answer, or the stop
// when not even a minimal answer fits. Before a session's first answer nothing bounds the request (its system prompt and
// tools are shown to no hook): it goes as it is.

import type { ModelRequest } from "../../core/index.ts";
import type { HookRuntime } from "./hook-runtime.ts";
import type { HookEvent, HookReply, TranscriptSize } from "./roles.ts";

export async function modelRequest(
	event: HookEvent,
	hook: HookRuntime,
	now: number,
	size: TranscriptSize,
): Promise<HookReply | null> {
	const prompt = hook.deps.store.latestPrompt();
	const bytes = event.transcriptPath === null ? null : size(event.transcriptPath);
	if (prompt === null || bytes === null) return null;
	const request: ModelRequest = { answeredInput: prompt.input, addedBytes: Math.max(0, bytes - prompt.from) };
	hook.load(now, { running: event.promptId });
	const answer = hook.handle({ type: "modelRequest", request });
	const reply = await hook.reply(answer);
	return answer.maxOutputTokens === undefined ? reply : { ...reply, maxOutputTokens: answer.maxOutputTokens };
}
