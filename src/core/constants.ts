// Every threshold, interval, limit and name Timebox uses, in one place.

/** Share of a budget at which Timebox warns the user and starts nudging the model to wrap up. */
export const NUDGE_WARNING_RATIO = 0.8;

/** Share of a budget at which the nudge turns critical. */
export const NUDGE_CRITICAL_RATIO = 0.95;

/** How often the status bar is refreshed (and the time limit re-checked) while a budget is active. */
export const STATUS_REFRESH_INTERVAL_MS = 1_000;

/**
 * How long a notification of more than one line stays up where the host shows it as a toast that goes by itself
 * (opencode's, about 4 s unless told): long enough to read, a base and a time per line, and never longer than the most.
 */
export const TOAST_BASE_MS = 5_000;
export const TOAST_PER_LINE_MS = 2_000;
export const TOAST_MAX_MS = 30_000;

/** The shortest time budget: anything under a second is no budget at all. */
export const MIN_TIME_LIMIT_MS = 1_000;

/** The longest time budget: 30 days. */
export const MAX_TIME_LIMIT_MS = 30 * 24 * 60 * 60 * 1_000;

/** The largest turn budget. */
export const MAX_TURN_LIMIT = 1_000_000;

/** The largest cap on model calls per prompt (`steps:N`). */
export const MAX_STEP_LIMIT = 10_000;

/**
 * The loop guard (`loop:N`): the Nth identical tool call of a run is refused, the one after it stops the run. At least
 * 2 (the first call of anything is no repeat), at most 1,000.
 */
export const MIN_LOOP_LIMIT = 2;
export const MAX_LOOP_LIMIT = 1_000;

/** How many characters of a repeated call's input its notices and refusals show, cut with an ellipsis beyond. */
export const LOOP_VIEW_CHARS = 60;

/** The largest token budget: a billion tokens. */
export const MAX_TOKEN_LIMIT = 1_000_000_000;

/** The smallest and largest cost budget, in US dollars. */
export const MIN_COST_LIMIT = 0.01;
export const MAX_COST_LIMIT = 10_000;

/** The shortest and longest grace period (`grace:30s`): the time the model gets to write its final answer at the limit. */
export const MIN_GRACE_MS = 1_000;
export const MAX_GRACE_MS = 10 * 60 * 1_000;

/**
 * The smallest answer a model call is sent for under a `tokens:` or `cost:` budget: a call whose room left is smaller is
 * not sent, and the budget is spent there. 2,048 output tokens hold a tool call or a short final answer after the
 * model's thinking: Anthropic's smallest thinking budget is 1,024 tokens and its `max_tokens` must exceed it, and pi
 * keeps 1,024 tokens for the answer beside a thinking budget. It is also the cap of a call made after the budget is
 * spent by design (a grace period's wrap-up, a subagent's concluding answer).
 */
export const MIN_ANSWER_TOKENS = 2_048;

/**
 * What Timebox adds to a model call beside what the host measured of it, in UTF-8 bytes, for the bound on the call's
 * input: the note at the end of its messages (the warning block, a wrap-up notice, a subagent's blocks, the daily
 * budget's line) and the system prompt's line while a budget is in force. All of them at their longest take under 2,500
 * bytes together (a unit test checks), though no call carries them all.
 */
export const NOTE_ALLOWANCE_BYTES = 4_096;

/** The budget word that gives the model a line with what is left on every model call: `/timebox 15m aware`. */
export const AWARE_WORD = "aware";

/** What the `awareness` setting may be: the warning block from 80% (the default), or a line on every model call too. */
export const AWARENESS_CHOICES: readonly string[] = ["nudge", "always"];

/** The longest delay a JavaScript timer accepts (2^31 - 1 ms); longer deadlines are re-armed in steps. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Session entry type of a record that starts a budget. */
export const ACTIVE_ENTRY_TYPE = "timebox-active";

/** Session entry type of a record that turns the budget off. */
export const OFF_ENTRY_TYPE = "timebox-off";

/** The command name, typed as `/timebox`. */
export const COMMAND_NAME = "timebox";

/** The key under which the status text is shown. */
export const STATUS_KEY = "timebox";

/** Argument completions offered for `/timebox `. */
export const STATIC_COMPLETIONS: readonly string[] = [
	"off",
	"status",
	"subagents",
	"today",
	"team",
	"suggest",
	"15m",
	"30m",
	"1h",
	"turns:3",
	"turns:5",
	"turns:10",
	"loop:3",
];

/** Argument completions offered after `/timebox subagents `: `off`, or a subagent budget's words (no `turns:`). */
export const SUBAGENT_COMPLETIONS: readonly string[] = [
	"off",
	"2m",
	"5m",
	"15m",
	"steps:15",
	"steps:30",
	"tokens:200k",
	"loop:3",
];

/** Argument completions offered after `/timebox team set `: `off`, or the team's limits. */
export const TEAM_SET_COMPLETIONS: readonly string[] = ["off", "4h", "turns:200", "$50"];
/** Argument completions offered after `/timebox team ask `: what to ask for (the reason follows). */
export const TEAM_ASK_COMPLETIONS: readonly string[] = ["+30m", "+1h", "+turns:20", "+$5"];

/** Arguments that are sub-commands rather than budgets. */
export const OFF_WORDS: readonly string[] = ["off", "disable", "cancel"];
export const STATUS_WORD = "status";
export const PAUSE_WORD = "pause";
export const RESUME_WORD = "resume";
export const REPORT_WORD = "report";
/** `/timebox report page`: the report as a page with charts, written to a file. */
export const REPORT_PAGE_WORD = "page";
/** `/timebox suggest`: a budget suggested from the user's own past sessions of the project. */
export const SUGGEST_WORD = "suggest";
/** `TIMEBOX_DEFAULT=suggested`: the suggested budget as the default budget of every new session. */
export const SUGGESTED_DEFAULT = "suggested";
/** The fewest past sessions of a project a budget is suggested from; with fewer, nothing is suggested. */
export const SUGGEST_MIN_SESSIONS = 5;
/** How many of a project's latest sessions the suggestion is made from. */
export const SUGGEST_SESSIONS = 30;
/** The percentiles the suggestion shows: the median, and the one its budget is made of. */
export const SUGGEST_MEDIAN = 50;
export const SUGGEST_PERCENTILE = 90;
/**
 * The file under Timebox's state folder that keeps what each past session used, by its file and that file's time, so
 * that a suggestion reads only the sessions written since the last.
 */
export const PAST_SESSIONS_FILE = "past-sessions.json";
/** `/timebox today …`: the daily budgets, with what follows the word. */
export const TODAY_WORD = "today";
/** `/timebox team …`: the team's store beside its day (its limits, the requests), with what follows the word. */
export const TEAM_WORD = "team";
/** `/timebox team set <limits>` and `/timebox team ask +30m <why>`. */
export const TEAM_SET_WORD = "set";
export const TEAM_ASK_WORD = "ask";
/** Words that open an extension: `/timebox extend 10m`, `/timebox add turns:2` (or each word prefixed with `+`). */
export const EXTEND_WORDS: readonly string[] = ["extend", "add"];

/** The longest piece of user input quoted back in a message. */
export const MAX_QUOTED_INPUT_CHARS = 40;

/** The version written into every record; records without one are from the first version and still load. */
export const RECORD_VERSION = 2;

/** What a budget id may look like: it names files in the ledger, so nothing that could leave its folder. */
export const BUDGET_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/** The id given to a budget record from the first version, which had none: its start time names it. */
export const LEGACY_ID_PREFIX = "legacy-";

/** The folder of the per-user ledger, under the host's own data folder (pi's agent directory, the plugin's data). */
export const LEDGER_FOLDER = "timebox-ledger";

/** The folder, in a hook host's data folder, of what each session was told by its daily ledger (said once a session). */
export const TOLD_FOLDER = "told";

/** The folder, in Timebox's opencode data folder, of the marks of the sessions opencode's TUI shows. */
export const OPENED_FOLDER = "opened";

/** The folder of V8's code cache of Timebox's code: in pi's agent directory (pi), in Timebox's state folder (hooks). */
export const CODE_CACHE_FOLDER = "timebox-code-cache";

/** The caches of one file kept per Node, newest first: two versions in use at once (hosts updated apart) keep both. */
export const CODE_CACHE_VERSIONS_KEPT = 3;

/** The days another Node's cache is kept after it was written: hosts on two Nodes keep theirs, an unused Node's go. */
export const CODE_CACHE_OTHER_NODE_DAYS = 30;

/**
 * How old a claim of an on-stop command may grow with no start mark, while its claiming process still seems to run,
 * before another process starts the command in its place. A process that claims starts the command at once: the
 * claim's fsync, one spawn and a shell's start, then the wrapper's `mkdir`; the hook script waits at most 1 s for that
 * (and takes longer only when the machine is stalled). A claimant that seems alive past 30 times that is not the process
 * that claimed (its pid was reused) or is frozen. Starting the command then is safe: the mark lets one wrapper run it.
 */
export const ON_STOP_RECOVERY_MS = 30_000;

/** The prompt key of a run that has no prompt at all (one a host started by itself): it counts once. */
export const UNNAMED_RUN = "\u0000run-without-a-prompt";

/** What "ask at the limit" offers besides stopping: this much more time, or this many more prompts. */
export const LIMIT_MORE_TIME = "5m";
export const LIMIT_MORE_TURNS = 1;

/** How long the limit question waits for an answer before it stops, as if "Stop now" was chosen. */
export const LIMIT_QUESTION_TIMEOUT_MS = 30_000;
/** How long the question whether to replace the active budget waits; unanswered, the current budget stays. */
export const REPLACE_QUESTION_TIMEOUT_MS = 30_000;

/** What `onLimit` may be: stop at the limit (the default), or ask first where the host can ask. */
export const ON_LIMIT_CHOICES: readonly string[] = ["stop", "ask"];

/**
 * How long after a reload or a resume pi's TUI has printed its own "Reloaded …" line, or replayed the chat, over the
 * notice of a restored budget: the notice is shown again then.
 */
export const RELOAD_NOTICE_DELAY_MS = 500;

/** The environment variable of a default budget for new sessions, where a host has no settings of its own. */
export const DEFAULT_ENV = "TIMEBOX_DEFAULT";
/** The environment variable of the daily budget every session of the user shares, where a host has no settings. */
export const DAILY_ENV = "TIMEBOX_DAILY";

/** The environment variable of the subagent budget (`5m steps:30`), where a host has no settings of its own. */
export const SUBAGENTS_ENV = "TIMEBOX_SUBAGENTS";
/** `/timebox subagents …`: the budget every subagent gets, with what follows the word. */
export const SUBAGENTS_WORD = "subagents";
/** The agent type of the subagent budget that applies to every type without one of its own. */
export const ANY_AGENT_TYPE = "*";
/** The time a subagent gets to write its final answer at its budget, where the session sets no grace period. */
export const SUBAGENT_GRACE_MS = 30_000;
/** How many words of a subagent's task the notices and the report show. */
export const SUBAGENT_TASK_WORDS = 6;
/** Model calls a subagent may make once its budget is spent: the one that concludes, and the one that reads a refusal. */
export const SUBAGENT_CALLS_AFTER_SPENT = 2;
/** Session entry types of the subagent budget and of a subagent's standing (hosts that keep typed entries, like pi). */
export const SUBAGENTS_ENTRY_TYPE = "timebox-subagents";
export const SUBAGENT_ENTRY_TYPE = "timebox-subagent";

/** A team's daily budget: the store every member shares (`redis://[user:password@]host:port[/db]`, `rediss://`). */
export const DAILY_STORE_ENV = "TIMEBOX_DAILY_STORE";
/** The team whose daily budget the sessions share, in the store. */
export const TEAM_ENV = "TIMEBOX_TEAM";
/** The IANA time zone whose midnight starts the team's day; UTC when unset. */
export const TEAM_TZ_ENV = "TIMEBOX_TEAM_TZ";
/** What a session does while the store cannot be reached: `open` (count locally, send later) or `closed`. */
export const DAILY_STORE_FAILURE_ENV = "TIMEBOX_DAILY_STORE_FAILURE";
/** How long the client may take to connect to the team's store (a store that cannot be reached fails at once). */
export const TEAM_CONNECT_MS = 1_000;
/** How long the store may take to answer one call (a call on localhost takes well under 1 ms). */
export const TEAM_CALL_MS = 2_000;
/**
 * How long a session waits for its first call's answer at most: the worker's start and the client's load come first,
 * which take seconds on a machine busy starting many agents at once. The client's own timeouts above bound the network.
 */
export const TEAM_FIRST_CALL_MS = 30_000;
/** How long a session waits for any later call's answer at most, beyond the client's own timeouts. */
export const TEAM_WAIT_MS = 10_000;
/**
 * How long one call waits at most in the plugin's batch script of a session of Claude Code's hooks module (a process
 * per batch, `timebox-team.cjs`): the module's hook must be done within Claude Code's 10 s, the connection included.
 */
export const TEAM_HOP_WAIT_MS = 3_000;
/**
 * How long Claude Code's hooks module waits for the plugin's batch script before it takes it as failed: a prompt's two
 * batches (a read, the count) stay inside Claude Code's 10 s for a hook.
 */
export const TEAM_HOP_MS = 4_500;
/** A team's day the hooks module read this recently (with its last batch) is not read again before an event. */
export const TEAM_HOP_FRESH_MS = 2_000;
/** How long a session waits after the store failed before it tries it again. */
export const TEAM_RETRY_MS = 5_000;
/** How long a hook host's record of what a session was told is kept after the session last changed it. */
export const SESSION_TOLD_KEPT_MS = 7 * 24 * 3_600_000;
/** How long a model call's reservation holds if its answer never settles it. */
export const TEAM_RESERVATION_MS = 10 * 60_000;
/** How long a team's keys outlive the end of their day, in seconds. */
export const TEAM_KEYS_OUTLIVE_S = 24 * 3_600;
/** How many of a team's days its store keeps: today, and yesterday until today ends (the keys outlive a day by a day). */
export const TEAM_DAYS_KEPT = 2;
/** The scope of a team's budget from its store, beside a member's own (`user`, `project:<path>`). */
export const TEAM_SCOPE = "team";
/** How many requests a team's day keeps open at most: one more is refused until the admin answers some. */
export const TEAM_ASKS_KEPT = 100;
/** How many characters of a request's reason the store keeps. */
export const TEAM_ASK_WHY_CHARS = 200;

/**
 * A hook host's session log is kept summed up to a byte offset (the log's fold, `model/log-fold.ts`), so that a hook
 * reads only the lines after it: a hook that read this many bytes or more past the kept summary keeps a new one.
 */
export const LOG_FOLD_KEEP_BYTES = 16_384;
/**
 * The version of a kept summary of a session's log: a summary of another version is ignored. 2: the ids of the calls,
 * the runs' ends and the responses kept as one text each, and prompts one after another as one run.
 */
export const LOG_FOLD_VERSION = 2;
/** How many bytes of the log, at its start and before the summary's offset, the summary checks are still the same. */
export const LOG_FOLD_CHECK_BYTES = 256;
