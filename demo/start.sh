#!/bin/sh
# Demo launcher for `npm start`: opens pi's TUI with Timebox and an offline scripted model (no API key, no network).
#
# Extra arguments go to pi, e.g. `npm start -- --resume`.
# `npm start -- <host>` (claude, codex, gemini, opencode, omp) opens that host's TUI instead, as demo/start.ts says;
# `npm start -- pi` is the default.
# The demo keeps its own agent dir (sessions, settings) in ${TMPDIR:-/tmp}/pi-timebox-demo/agent, so ~/.pi is
# never touched and /resume works across runs. Delete that directory to start fresh.
# TIMEBOX_ENTRY overrides what is loaded as Timebox (a package dir with a "pi" manifest, or one extension file;
# relative to the repo root).
set -eu

repo_root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$repo_root"

case "${1:-}" in
claude | codex | gemini | opencode | omp)
	# The host demos live in the checkout's demo/ folder (not shipped); esbuild bundles them for this Node.
	if [ ! -f demo/start.ts ] || [ ! -x ./node_modules/.bin/esbuild ]; then
		echo "pi-timebox demo: the $1 demo needs a checkout of the repository and 'npm install'." >&2
		exit 1
	fi
	launcher="${TMPDIR:-/tmp}/pi-timebox-demo/start-host-$$.mjs"
	./node_modules/.bin/esbuild demo/start.ts --bundle --platform=node --format=esm --packages=external \
		--define:import.meta.dirname="\"$repo_root/demo\"" --log-level=warning --outfile="$launcher"
	exec node "$launcher" "$@"
	;;
pi) shift ;;
esac

pi_bin="./node_modules/.bin/pi"
if [ ! -x "$pi_bin" ]; then
	echo "pi-timebox demo: $pi_bin not found; run 'npm install' first." >&2
	exit 1
fi

# By default load this package the way `pi install` would: through the "pi" manifest in package.json.
timebox_entry=${TIMEBOX_ENTRY:-.}
if [ "$timebox_entry" = "." ] && ! grep -q 'plugins/pi/timebox/index.js' package.json; then
	echo "pi-timebox demo: the \"pi\" manifest in package.json does not list ./plugins/pi/timebox/index.js," >&2
	echo "so '-e .' would start pi without Timebox. Add it there, or set TIMEBOX_ENTRY to an extension." >&2
	exit 1
fi

PI_CODING_AGENT_DIR="${TMPDIR:-/tmp}/pi-timebox-demo/agent"
PI_OFFLINE=1
export PI_CODING_AGENT_DIR PI_OFFLINE

# What to try, as the other hosts' demos say it; not in print mode (`npm start -- -p …`), whose output is pi's answer.
if [ -t 1 ]; then
	pi_version=$(node -p 'require("./node_modules/@mariozechner/pi-coding-agent/package.json").version' 2>/dev/null || true)
	echo "Timebox demo in pi ${pi_version}: offline, a scripted model in pi's own process, sessions in $PI_CODING_AGENT_DIR."
	echo "Try \`/timebox turns:2\`, then three prompts: two are answered, the third is refused. Leave with Ctrl+D."
fi

exec "$pi_bin" \
	--no-extensions \
	-e ./demo/offline-model.ts \
	-e "$timebox_entry" \
	--model timebox-demo/scripted \
	"$@"
