#!/usr/bin/env bash
# Two `interlude serve` processes sharing one Redis, driven by groupload: a private redis-server
# (appendonly, no snapshots) on a free loopback port, serve --node a and --node b on it with one
# key file, SESSIONS new sessions (session create --server A --server B), and groupload's
# participants spread over both servers. With --kill SECONDS, server a is killed (SIGKILL) that
# long into the run, and its participants must resume on b with nothing lost.
#
#   Benchmarks/run-groupload.sh [--kill SECONDS] [-- GROUPLOAD-FLAGS…]
#
# Settings (environment): PARTICIPANTS (200), GROUP (10; the sessions are PARTICIPANTS / GROUP),
# ROLE (controller: which invitation the participants use; a viewer's playback is refused),
# DURATION (30s), DEADLINE (180: seconds for groupload; the whole script is bounded by it plus
# the setup's own limits), KEEP=1 keeps the working directory. Needs the release build
# (swift build -c release --product interlude) and scripts/bootstrap --load. groupload's report
# goes to stdout and its exit status is the script's; every process started here is stopped, by
# pid, on exit.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
interlude="$root/.build/release/interlude"
groupload="$benchmarks/.build/tools/groupload"
kill_after=""
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; }
while (($#)); do
    case $1 in
        --kill)
            [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "run-groupload: --kill needs whole seconds" >&2; exit 64; }
            kill_after=$2
            shift 2
            ;;
        --) shift; break ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run-groupload: unknown option '$1'" >&2; usage; exit 64 ;;
    esac
done
participants="${PARTICIPANTS:-200}"
group="${GROUP:-10}"
role="${ROLE:-controller}"
duration="${DURATION:-30s}"
deadline="${DEADLINE:-180}"
sessions=$(((participants + group - 1) / group))
[[ -x $interlude ]] || { echo "run-groupload: no $interlude (swift build -c release --product interlude)" >&2; exit 1; }
[[ -x $groupload ]] || { echo "run-groupload: no $groupload (scripts/bootstrap --load)" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/groupload.XXXXXX")"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    sleep 0.3
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    if [[ ${KEEP:-0} == 1 ]]; then echo "run-groupload: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
say() { echo "run-groupload: $*" >&2; }
# wait_for FILE PATTERN SECONDS PID: until FILE has PATTERN, PID is alive and time is left.
wait_for() {
    for _ in $(seq $(($3 * 10))); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        kill -0 "$4" 2>/dev/null || { say "$(basename "$1") stopped: $(tail -3 "$1")"; exit 1; }
        sleep 0.1
    done
    say "no '$2' in $1 after $3 s"
    exit 1
}

redis_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly yes --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)
wait_for "$work/redis.log" 'Ready to accept connections' 20 "${pids[-1]}"
declare -A port pid
for node in a b; do
    "$interlude" serve --port 0 --store "redis://127.0.0.1:$redis_port" --key-file "$work/keys" --node "$node" \
        >"$work/serve-$node.out" 2>"$work/serve-$node.err" &
    pid[$node]=$!
    pids+=($!)
    wait_for "$work/serve-$node.err" 'ws://127.0.0.1:[0-9]*' 60 "${pid[$node]}"
    port[$node]="$(grep -o 'ws://127.0.0.1:[0-9]*' "$work/serve-$node.err" | head -1 | sed 's/.*://')"
done
say "redis :$redis_port, serve a :${port[a]} (pid ${pid[a]}), b :${port[b]} (pid ${pid[b]}); $sessions sessions"
seq "$sessions" | timeout 600 xargs -P 4 -I{} "$interlude" session create --server "http://127.0.0.1:${port[a]}" \
    --server "http://127.0.0.1:${port[b]}" --key-file "$work/keys" --stream http://127.0.0.1:1/x.m3u8 --expires 2h --json \
    >"$work/sessions.jsonl"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    print(json.loads(line)["invitations"][sys.argv[2]].split("#", 1)[1])
' "$work/sessions.jsonl" "$role" >"$work/tokens.txt"
(($(wc -l <"$work/tokens.txt") == sessions)) || { say "made $(wc -l <"$work/tokens.txt") sessions of $sessions"; exit 1; }

"$groupload" -url "ws://127.0.0.1:${port[a]}/group,ws://127.0.0.1:${port[b]}/group" -tokens "$work/tokens.txt" \
    -n "$participants" -group "$group" -duration "$duration" -deadline "${deadline}s" "$@" &
load=$!
pids+=($load)
if [[ -n $kill_after ]]; then
    # groupload joins first (a second or so for a few thousand), then measures: the kill lands in the
    # measured phase when --kill is longer than the joins.
    sleep "$kill_after"
    kill -9 "${pid[a]}" 2>/dev/null && say "killed serve a (pid ${pid[a]}) ${kill_after} s into the run"
    { wait "${pid[a]}" || true; } 2>/dev/null
fi
status=0
wait "$load" || status=$?
for node in a b; do
    failed=$(grep -c '"store.failed"' "$work/serve-$node.out" || true)
    say "serve $node logged $failed store.failed"
done
exit "$status"
