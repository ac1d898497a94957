# Timebox's hook gate, run by the host for each hook event before any Node starts: a session where Timebox has nothing
# to do (no budget was ever set in it, no TIMEBOX_DEFAULT, TIMEBOX_DAILY, TIMEBOX_SUBAGENTS, TIMEBOX_DAILY_STORE or
# TIMEBOX_TEAM) gets nothing, in a few milliseconds, for every event but a prompt that may be a budget line; every
# other event goes whole to the hook script beside it, which then decides everything as before. On Codex, a default budget's session start gets nothing either
# until a budget is in the session's log: the default budget starts at the first prompt. Whatever the gate cannot read
# for sure goes to the hook script too. POSIX sh (not for Windows). Copied into each host package's bin/ by npm run build.
# usage: sh timebox-gate.sh <claude|gemini|codex> [BeforeModel]  (the hook's JSON on stdin)

host=$1
# A request about to be sent (Gemini CLI's BeforeModel) is Timebox's only under a budget of tokens or cost: its answer is
# capped. Every other budget leaves it alone, so it starts no Node.
request=
[ "${2-}" = BeforeModel ] && request=1

# Claude Code loaded Timebox's hooks module (function hooks), which does everything in Claude Code's own process: the
# classic hooks stand down before anything else runs, so that no prompt is counted and no command answered twice.
[ "$host" = claude ] && [ "${TIMEBOX_MODULE_LOADED-}" = 1 ] && exit 0
case $0 in
*/*) script=${0%/*}/timebox.cjs ;;
*) script=timebox.cjs ;;
esac

# Hands the event to the hook script: what the gate read of stdin first, then the rest of it.
hand_on() {
	{
		printf '%s' "$head"
		exec cat
	} | node "$script" hook --host "$host"
	exit
}

# A daily or subagent budget is in force in every session: each event is Timebox's. So is a team's store (the limits
# its admin keeps there cover every session, with no TIMEBOX_DAILY here; a store or team set alone is said). So is a
# default budget, except on Codex, where a session's start with nothing in its log starts no Node: the hook script
# starts the default budget at the session's first prompt (Codex runs three hooks for a one-answer `codex exec`, each
# a Node start). A request about to be sent is Timebox's only under a budget of tokens or cost (below).
if [ -z "$request" ] && { [ -n "${TIMEBOX_DAILY-}" ] || [ -n "${TIMEBOX_SUBAGENTS-}" ] || [ -n "${TIMEBOX_DAILY_STORE-}" ] || [ -n "${TIMEBOX_TEAM-}" ]; }; then
	exec node "$script" hook --host "$host"
fi
default=
if [ -n "${TIMEBOX_DEFAULT-}" ]; then
	if [ -n "$request" ]; then
		case $TIMEBOX_DEFAULT in
		*[Tt][Oo][Kk][Ee][Nn][Ss]:* | *[Cc][Oo][Ss][Tt]:* | *'$'*) exec node "$script" hook --host "$host" ;;
		esac
	else
		[ "$host" = codex ] || exec node "$script" hook --host "$host"
		default=1
	fi
fi

# The data folder, as the hook script finds it; any doubt (an empty or unset variable it reads) goes to it.
if [ -n "${CLAUDE_PLUGIN_DATA+set}" ]; then
	data=$CLAUDE_PLUGIN_DATA
elif [ -z "${HOME-}" ]; then
	exec node "$script" hook --host "$host"
else
	case $host in
	codex)
		if [ -z "${CODEX_HOME+set}" ]; then
			data=$HOME/.codex/timebox
		elif [ -n "$CODEX_HOME" ]; then
			data=$CODEX_HOME/timebox
		else
			data=
		fi
		;;
	gemini) data=$HOME/.gemini/timebox ;;
	*) data= ;;
	esac
fi
[ -n "$data" ] || exec node "$script" hook --host "$host"

# One read of stdin, at most 8 KiB: the session id and the event's name come first in every host's JSON.
head=$(dd bs=8192 count=1 2>/dev/null)

# The value of a top-level string field (the first with that name), or nothing; a value cut off by the end of what
# was read is nothing too, so that the event goes to the hook script.
field() {
	case $head in
	*"\"$1\":\""*)
		value=${head#*\"$1\":\"}
		case $value in
		*\"*) value=${value%%\"*} ;;
		*) value= ;;
		esac
		;;
	*) value= ;;
	esac
}

field session_id
id=$value
case $id in
'' | .* | *[!A-Za-z0-9._-]*) hand_on ;;
esac
# A request goes to the hook script where a budget of tokens or cost was ever set in the session (its log says so).
if [ -n "$request" ]; then
	grep -q -e '"tokenLimit"' -e '"costLimit"' "$data/sessions/$id.jsonl" 2>/dev/null && hand_on
	exit 0
fi
# A budget was set in this session: its log exists.
[ -e "$data/sessions/$id.jsonl" ] && hand_on

field hook_event_name
# With a default budget, every event but the session's start is Timebox's.
[ -n "$default" ] && [ "$value" != SessionStart ] && hand_on
case $value in
'') hand_on ;;
UserPromptSubmit | BeforeAgent)
	# A prompt whose first word may be `timebox` (`/timebox …`, `timebox …`, Gemini's `TIMEBOX-CMD …`) may be a budget
	# line. Whatever comes before its first letter or digit (spaces, escapes, signs) is passed over, at most 64 of them;
	# a prompt with no letter or digit is no budget line.
	case $head in
	*'"prompt":"'*) rest=${head#*\"prompt\":\"} ;;
	*) hand_on ;;
	esac
	skipped=0
	while [ "$skipped" -lt 64 ]; do
		case $rest in
		[A-Za-z0-9]*) break ;;
		'"'*) exit 0 ;;
		'') hand_on ;;
		'\u'*) rest=${rest#??????} ;;
		'\'*) rest=${rest#??} ;;
		*) rest=${rest#?} ;;
		esac
		skipped=$((skipped + 1))
	done
	case $rest in
	[Tt][Ii][Mm][Ee][Bb][Oo][Xx]*) hand_on ;;
	[A-Za-z0-9]*) ;;
	*) hand_on ;;
	esac
	;;
esac
exit 0
