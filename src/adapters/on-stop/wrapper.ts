// The wrapper every host starts its on-stop command through: a few words of `sh` that take the command's start mark
// and only then run the command, as typed, in a shell of its own. Whoever takes the mark runs the command; every other
// start of it (a process that recovers a stop whose claimant was killed, racing the claimant's own start) ends there.

/**
 * Run as `sh -c <ON_STOP_WRAPPER> sh <mark> <command>`: the mark and the command are arguments, never part of the
 * line, so nothing of either is read as shell words. The mark is a file made under noclobber (`set -C`), which dash,
 * bash and POSIX sh create with `O_EXCL` when no file is there: one process alone makes it. A mark that could not be
 * made because it exists (a file, or anything else in its place) ends the wrapper; one that could not be made for
 * another reason (its folder is missing or read-only: the ledger could not be written, and a claim that cannot be
 * written counts as won) runs the command unmarked, as before there were marks. `true` makes it, not `:`: a
 * redirection that fails on a special built-in ends a non-interactive shell before it can look. The command then runs
 * as `sh -c -- <command>` (`--`: a command that begins with `-` or `+` is the command, not options), with the
 * descriptor 3 closed, which a starter that waits for the mark reads to its end. Given a third argument, a wrapper that
 * ends at a mark taken first writes `t` to descriptor 3, so that its starter can tell it started nothing; without one it
 * writes nothing there, as descriptor 3 is then none of the starter's.
 */
export const ON_STOP_WRAPPER =
	'set -C; if ! true 2>/dev/null >"$1" && [ -e "$1" ]; then [ -z "$3" ] || printf t 2>/dev/null >&3; exit 0; fi; exec /bin/sh -c -- "$2" 3>&-';

/** What a wrapper told to say a mark taken writes to descriptor 3 before it ends there. */
export const MARK_TAKEN = "t";

/**
 * The arguments of `sh` that run `command` through the wrapper, behind `mark`; with `sayTaken`, a wrapper that finds the
 * mark taken writes `MARK_TAKEN` to descriptor 3 as it ends.
 */
export function wrapperArgs(mark: string, command: string, sayTaken = false): string[] {
	return ["-c", ON_STOP_WRAPPER, "sh", mark, command, ...(sayTaken ? [MARK_TAKEN] : [])];
}
