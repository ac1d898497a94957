// A vitest reporter for `npm run bench`: passes the benchmark's own output through as is, plus any failure.

import type { Reporter, SerializedError, TestModule } from "vitest/node";

type ConsoleLog = Parameters<NonNullable<Reporter["onUserConsoleLog"]>>[0];

function describeError(error: SerializedError): string {
	return error.stack ?? `${error.name ?? "Error"}: ${error.message}`;
}

/** Prints what the benchmark logs (progress on stderr, the table on stdout) and nothing of vitest's own. */
export class BenchReporter implements Reporter {
	onUserConsoleLog(log: ConsoleLog): void {
		(log.type === "stderr" ? process.stderr : process.stdout).write(log.content);
	}

	onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
		const errors = [...unhandledErrors];
		for (const module of testModules) {
			errors.push(...module.errors());
			for (const test of module.children.allTests()) {
				const result = test.result();
				if (result.state === "failed") errors.push(...result.errors);
			}
		}
		for (const error of errors) process.stderr.write(`\nbenchmark failed: ${describeError(error)}\n`);
	}
}
