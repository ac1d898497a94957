// opencode for the tests and the bench: the pinned binary and the throwaway HOME that loads Timebox from this checkout,
// shared with the demo.

export {
	ensureOpencode,
	OPENCODE,
	OPENCODE_VERSION,
	opencodeEnv,
	preinstallPluginPackage,
	writeOpencodeHome,
} from "../../../demo/hosts/opencode.ts";
export { REPO } from "../../../demo/repo.ts";
