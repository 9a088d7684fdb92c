#!/usr/bin/env bash
# Autobahn|Testsuite's fuzzing client against the group server's own WebSocket stack (NetworkIO
# over libwebsockets), as this checkout builds it: builds `interlude`, starts
# `interlude serve --websocket-echo /echo` on 127.0.0.1 on a free port with a throw-away database
# and key file, runs Benchmarks/tools/autobahn/run.sh against the echo path, stops the server by
# its pid, and prints the summary.
#
#   scripts/bootstrap --autobahn                       # once: wstest under pyenv's Python 2.7.18
#   Benchmarks/run-autobahn.sh                         # about half a minute after the build
#   CONFIGURATION=debug Benchmarks/run-autobahn.sh --cases '6.* 7.*'
#
# Arguments go to run.sh (--cases, --exclude, --allow-failed, --timeout, --reports). Settings
# (environment): CONFIGURATION (release). Progress goes to stderr, the summary to stdout. Exit
# status: run.sh's (0 when no case FAILED beyond 2.10 and 2.11), 1 when the server did not start.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
configuration="${CONFIGURATION:-release}"

say() { printf '%s\n' "$*" >&2; }
fail() { say "run-autobahn: $*"; exit 1; }

case $configuration in
    release | debug) ;;
    *) say "run-autobahn: CONFIGURATION must be release or debug, not '$configuration'"; exit 64 ;;
esac

say "== building interlude ($configuration)"
swift build -c "$configuration" --package-path "$root" --product interlude >&2
interlude="$(swift build -c "$configuration" --package-path "$root" --show-bin-path)/interlude"

work="$(mktemp -d /tmp/interlude-autobahn.XXXXXX)"
server_pid=""
cleanup() {
    if [[ -n $server_pid ]]; then
        kill -TERM "$server_pid" 2>/dev/null || true
        local waited=0
        while kill -0 "$server_pid" 2>/dev/null && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$interlude" serve --host 127.0.0.1 --port 0 --websocket-echo /echo \
    --db "$work/sessions.sqlite" --key-file "$work/keys" >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!

# The banner's first line names the port it picked.
port=""
for _ in $(seq 1 300); do
    port="$(sed -n 's|^Interlude group server on ws://127\.0\.0\.1:\([0-9][0-9]*\)/group$|\1|p' "$work/serve.err")"
    [[ -n $port ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; fail "interlude serve exited before listening"; }
    sleep 0.1
done
[[ -n $port ]] || fail "interlude serve printed no port within 30 s"

say "== Autobahn against ws://127.0.0.1:$port/echo (interlude serve, pid $server_pid)"
status=0
"$benchmarks/tools/autobahn/run.sh" "ws://127.0.0.1:$port/echo" "$@" || status=$?
kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; fail "interlude serve died during the run"; }
exit "$status"
