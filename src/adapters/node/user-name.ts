// Who runs this process, by login name, the same on Node and on Bun: a team names its members `user@machine (host)`,
// and one person must be one member whichever host they use.

import { readFileSync } from "node:fs";
import { userInfo } from "node:os";

/** What finding the name needs: the runtime, its own answer, the password database and the environment. */
export interface UserNameSources {
	/** Bun (oh-my-pi) answers `os.userInfo()` from `$USER`, and with `unknown` where it is not set. */
	bun: boolean;
	/** `os.userInfo().username`; Node reads the password database, and throws for a user with no entry in it. */
	info: () => string;
	/** The password database's text (`/etc/passwd`). */
	passwd: () => string;
	uid: number | undefined;
	env: NodeJS.ProcessEnv;
}

/** The sources of the running process: its runtime, `os.userInfo()`, `/etc/passwd`, its user id and environment. */
export const processSources = (): UserNameSources => ({
	bun: process.versions.bun !== undefined,
	info: () => userInfo().username,
	passwd: () => readFileSync("/etc/passwd", "utf8"),
	uid: process.geteuid?.(),
	env: process.env,
});

/** The name of a user id in the password database's text, or null. */
function passwdName(text: string, uid: number): string | null {
	for (const line of text.split("\n")) {
		const [name = "", , id] = line.split(":");
		if (name !== "" && id === String(uid)) return name;
	}
	return null;
}

/**
 * The login name of the process's user, as Node finds it: the password database's entry for the effective user id. On
 * Bun that entry is read from the file, so that a session there is the same member as on Node, with `$USER` unset too.
 * Where no entry is found: `$USER`, `$LOGNAME`, then `uid-<id>`. Never throws.
 */
export function userName(sources: UserNameSources = processSources()): string {
	const { bun, info, passwd, uid, env } = sources;
	if (bun && uid !== undefined) {
		try {
			const name = passwdName(passwd(), uid);
			if (name !== null) return name;
		} catch {
			// No password database to read: the runtime's own answer, below.
		}
	}
	try {
		const name = info();
		// Bun's stand-in for a name it could not find in `$USER`.
		const guessed = bun && name === "unknown" && env.USER === undefined;
		if (name !== "" && !guessed) return name;
	} catch {
		// A user with no entry in the password database (a container run with an arbitrary id): the environment, below.
	}
	const fromEnv = env.USER?.trim() || env.LOGNAME?.trim();
	return fromEnv || `uid-${uid ?? "unknown"}`;
}
