// Gemini CLI for the tests and the bench: the pinned binary, the extension, the throwaway HOME's settings and the fake
// Gemini API, shared with the demo.

export { FakeGemini, type Reply } from "../../../demo/fakes/gemini.ts";
export { EXTENSION, ensureGemini, GEMINI, writeGeminiSettings } from "../../../demo/hosts/gemini.ts";
