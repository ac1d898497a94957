// The torn-line rule as one table of cases, which both of its implementations run: Node's (`append-line.ts`, the
// session log and the daily ledger of every Node host) and the shell's (the daily ledger of Claude Code's hooks module,
// `WRITE_SCRIPT` in `function-hooks/daily.ts`, through a real `sh`). A process killed mid-write leaves a line with no
// newline at the end of the file; a line appended after it must stay a line of its own, so a newline goes first
// whenever the file's last byte is not one, and never otherwise.

export interface TornLineCase {
	/** What the file holds before the append (bytes, as latin1 where they are not text); null: there is no file. */
	before: string | Buffer | null;
	/** The line appended, newline included. */
	line: string;
	/** Whether the file's last byte is no newline, so that one goes first. */
	torn: boolean;
}

const LINE = '{"kind":"prompt","promptId":"p2","at":2}\n';

export const TORN_LINE_CASES: Record<string, TornLineCase> = {
	"no file yet": { before: null, line: LINE, torn: false },
	"an empty file": { before: "", line: LINE, torn: false },
	"whole lines": { before: '{"kind":"prompt","promptId":"p1","at":1}\n', line: LINE, torn: false },
	"a file of one newline": { before: "\n", line: LINE, torn: false },
	"a line cut short": { before: '{"kind":"prompt","promptId":"p1","at":1}\n{"kind":"pro', line: LINE, torn: true },
	"a line cut after a space": { before: '{"kind": ', line: LINE, torn: true },
	"a line cut between \\r and \\n": { before: '{"a":1}\r', line: LINE, torn: true },
	"whole lines ending in \\r\\n": { before: '{"a":1}\r\n', line: LINE, torn: false },
	"a character cut in two (é's first byte)": { before: Buffer.from([0x7b, 0x22, 0xc3]), line: LINE, torn: true },
	"a block zeroed by a crash (a NUL last)": {
		before: Buffer.from([0x7b, 0x7d, 0x0a, 0x00, 0x00]),
		line: LINE,
		torn: true,
	},
	"a line of text the shell could misread": {
		before: "{}\n",
		line: '{"task":"50% done \\\\n é $HOME `pwd` \\"quoted\\" -n"}\n',
		torn: false,
	},
};

/** What the file holds after the append, by the rule. */
export function afterAppend(one: TornLineCase): Buffer {
	const before = one.before === null ? Buffer.alloc(0) : Buffer.from(one.before);
	return Buffer.concat([before, Buffer.from(one.torn ? `\n${one.line}` : one.line)]);
}
