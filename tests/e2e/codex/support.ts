// Codex CLI for the tests and the bench: the pinned binary and the throwaway CODEX_HOME's config, shared with the demo.

export { CODEX, ensureCodex, writeCodexConfig } from "../../../demo/hosts/codex.ts";
export { REPO } from "../../../demo/repo.ts";
