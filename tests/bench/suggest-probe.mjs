// One fresh process's part of a session start with TIMEBOX_DEFAULT=suggested: the report module (bundled, as hosts load
// it) imported and the project's past sessions read through the cache; prints the milliseconds from the import on.
// usage: node suggest-probe.mjs <report module> <home> <state> <project>

const [, , module, home, state, project] = process.argv;
const started = performance.now();
const report = await import(module);
const env = { HOME: home, XDG_STATE_HOME: state };
const history = report.readProjectHistory(env, home, project, null, report.fileCache(env));
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, sessions: history.sessions.length })}\n`);
