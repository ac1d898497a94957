// A team's member is named by the login name of the user, found the same way on Node and on Bun (oh-my-pi).

import { userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { processSources, type UserNameSources, userName } from "../../../src/adapters/node/user-name.ts";

const PASSWD = [
	"root:x:0:0:root:/root:/bin/bash",
	"# a comment",
	"",
	"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin",
	"alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash",
].join("\n");

const sources = (over: Partial<UserNameSources>): UserNameSources => ({
	bun: false,
	info: () => "from-info",
	passwd: () => PASSWD,
	uid: 1000,
	env: {},
	...over,
});

describe("the user's name, for a team's member", () => {
	it("is Node's own answer on Node, which reads the password database itself", () => {
		expect(userName(sources({}))).toBe("from-info");
		expect(userName()).toBe(userInfo().username);
		// This machine's password database, read as Bun's lookup reads it, names the same user.
		expect(userName({ ...processSources(), bun: true, info: () => "unknown", env: {} })).toBe(userInfo().username);
	});

	it("is the password database's entry for the user on Bun, whatever $USER says or when it is unset", () => {
		// Bun answers os.userInfo() from $USER, and with `unknown` where it is not set.
		expect(userName(sources({ bun: true, info: () => "unknown" }))).toBe("alice");
		expect(userName(sources({ bun: true, info: () => "someone", env: { USER: "someone" } }))).toBe("alice");
		expect(userName(sources({ bun: true, uid: 0 }))).toBe("root");
		// A line with no name before its id is no entry.
		expect(userName(sources({ bun: true, passwd: () => `:x:1000:1000::/:/bin/sh\n${PASSWD}` }))).toBe("alice");
	});

	it("falls back to Bun's answer, then $USER, $LOGNAME and the user id, where the database has no entry", () => {
		const none = { bun: true, passwd: () => "root:x:0:0::/root:/bin/sh\n" };
		expect(userName(sources({ ...none, info: () => "bob", env: { USER: "bob" } }))).toBe("bob");
		expect(userName(sources({ ...none, info: () => "unknown", env: { USER: "unknown" } }))).toBe("unknown");
		expect(userName(sources({ ...none, info: () => "unknown", env: { LOGNAME: "carol" } }))).toBe("carol");
		expect(userName(sources({ ...none, info: () => "unknown" }))).toBe("uid-1000");
		const unreadable = () => {
			throw new Error("EACCES: /etc/passwd");
		};
		expect(userName(sources({ bun: true, passwd: unreadable, info: () => "dave", env: { USER: "dave" } }))).toBe(
			"dave",
		);
		expect(userName(sources({ bun: true, uid: undefined, info: () => "erin", env: { USER: "erin" } }))).toBe("erin");
	});

	it("never throws: a user Node finds no entry for is named by the environment, else by the user id", () => {
		const throws = () => {
			throw new Error("uv_os_get_passwd returned ENOENT");
		};
		expect(userName(sources({ info: throws, env: { USER: " frank " } }))).toBe("frank");
		expect(userName(sources({ info: throws, env: { USER: "", LOGNAME: " gina " } }))).toBe("gina");
		// On Node, a user whose name really is `unknown` is named so.
		expect(userName(sources({ info: () => "unknown" }))).toBe("unknown");
		expect(userName(sources({ info: throws }))).toBe("uid-1000");
		expect(userName(sources({ info: throws, uid: undefined }))).toBe("uid-unknown");
		expect(userName(sources({ info: () => "", env: { USER: "hal" } }))).toBe("hal");
	});
});
