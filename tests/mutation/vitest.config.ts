// vitest configuration for Stryker (npm run mutate): the "unit" project of the root vitest.config.ts alone, never the e2e
// suites.

import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import root from "../../vitest.config.ts";

// The Stryker vitest runner has no option to pick a project: it would run every project of the config it is given.
const unit = root.test?.projects?.find(
	(project): project is TestProjectInlineConfiguration =>
		typeof project === "object" && "test" in project && project.test?.name === "unit",
);
if (unit === undefined) throw new Error('vitest.config.ts has no "unit" project');

export default defineConfig(unit);
