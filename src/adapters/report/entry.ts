// The report page's code as one module, which hosts load only when a page or a suggested budget is asked for: `npm run
// build` bundles it into a file of its own beside each host's bundle, so that the chart library never weighs on a
// host's start-up.

export { runReport } from "./cli.ts";
export { fileCache } from "./past-sessions-cache.ts";
export { readProjectHistory } from "./project-history.ts";
export { homeOf } from "./sources.ts";
export { writeReportPage } from "./write-page.ts";
