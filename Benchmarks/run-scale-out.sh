#!/usr/bin/env bash
# Several `interlude serve` processes sharing sessions through one redis-server, in one run, on
# loopback (the figures issue "grow past one server" asks for):
#
#   1. load: PARTICIPANTS (10,000) participants paced as Interlude's own client is
#      (Benchmarks/tools/groupload: a keep-alive and a clock probe every 2 s each, the
#      GroupClockEstimator's refresh and the protocol's keep-alive interval; a participant-state
#      command every 30 s each, standing for state changes: buffering, ads; one playback command
#      every 3 s per session) in SESSIONS (1,000) sessions of 10, spread over two servers so that
#      every session has members on both; the fan-out latency of the commands to every other member
#      of their session, the acknowledgement latency, and the servers' CPU and memory per
#      participant;
#   2. failover: the same load, and 20 s in one server is killed with SIGKILL; every participant
#      resumes on the other (the invitations list both), and every acknowledged command is checked
#      against the sessions' logs in Redis (once each, at its version, no gap);
#   3. a Redis blip: the same load, and 20 s in the second server's connections to Redis (commands
#      and doorbells, through a relay) are reset and refused for 300 ms; every participant must
#      still see every event in order, exactly once.
#
#   Benchmarks/run-scale-out.sh [--skip-failover] [--skip-blip]
#
# Settings (environment): PARTICIPANTS (10000), SESSIONS (1000), PACE ("-probe-every 2s -ping-every
# 2s -state-every 30s -command-every 3s": groupload's pacing flags), DURATION (60s: each pass's
# measured phase), FAIL_AFTER (20: seconds into the measured phase of the kill and of the blip),
# APPENDFSYNC (always: Redis's fsync policy; everysec is faster and loses at most a second on an OS
# crash), BUILD=0 uses the release build as it is, KEEP=1 keeps the working directory. Progress goes
# to stderr, the table to stdout. Every process started here is stopped on exit, by its pid.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
skip_failover=0
skip_blip=0
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; }
while (($#)); do
    case $1 in
        --skip-failover) skip_failover=1; shift ;;
        --skip-blip) skip_blip=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run-scale-out: unknown option '$1'" >&2; usage; exit 64 ;;
    esac
done
participants="${PARTICIPANTS:-10000}"
sessions="${SESSIONS:-1000}"
duration="${DURATION:-60s}"
fail_after="${FAIL_AFTER:-20}"
appendfsync="${APPENDFSYNC:-always}"
pace="${PACE:--probe-every 2s -ping-every 2s -state-every 30s -command-every 3s}"
[[ $participants =~ ^[0-9]+$ ]] && ((participants >= 20 && participants <= 20000)) || { echo "run-scale-out: PARTICIPANTS must be 20 to 20000" >&2; exit 64; }
[[ $sessions =~ ^[0-9]+$ ]] && ((sessions >= 2 && participants % sessions == 0)) || { echo "run-scale-out: SESSIONS must divide PARTICIPANTS" >&2; exit 64; }
[[ $fail_after =~ ^[0-9]+$ ]] || { echo "run-scale-out: FAIL_AFTER must be a whole number of seconds" >&2; exit 64; }
[[ $appendfsync =~ ^(always|everysec|no)$ ]] || { echo "run-scale-out: APPENDFSYNC must be always, everysec or no" >&2; exit 64; }
group=$((participants / sessions))

say() { printf '%s\n' "$*" >&2; }
fail() { say "run-scale-out: $*"; exit 1; }

say "== packages and tools (scripts/bootstrap --bench --load)"
"$root/scripts/bootstrap" --bench --load >&2
tools="$root/Benchmarks/.build/tools"
[[ -x $tools/groupload ]] || fail "no $tools/groupload (scripts/bootstrap --load builds it)"
[[ -x $tools/tcprelay ]] || fail "no $tools/tcprelay (scripts/bootstrap --load builds it)"
if [[ ${BUILD:-1} != 0 ]]; then
    say "== building interlude (release)"
    (cd "$root" && nice -n 10 swift build -c release --product interlude >&2)
fi
interlude="$root/.build/release/interlude"
[[ -x $interlude ]] || fail "no $interlude (build it: swift build -c release --product interlude)"
# 10,000 connections on one process need more than the usual 1,024 descriptors.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
(($(ulimit -n) > participants + 1000)) || fail "ulimit -n is $(ulimit -n); $((participants + 1000)) descriptors are needed"

work="$(mktemp -d /tmp/interlude-scale-out.XXXXXX)"
pids=()
cleanup() {
    local pid waited
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        waited=0
        while kill -0 "$pid" 2>/dev/null && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [[ ${KEEP:-0} == 1 ]]; then say "run-scale-out: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

start() {
    local name="$1"
    shift
    "$@" >"$work/$name.out" 2>"$work/$name.err" &
    started=$!
    pids+=("$started")
}
stop() {
    local pid="$1" waited=0
    kill -TERM "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
wait_for() {
    local file="$1" pattern="$2" tenths=$(($3 * 10)) pid="$4"
    while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { tail -5 "$file" >&2 || true; fail "$(basename "${file%.*}") exited before printing '$pattern'"; }
        ((tenths-- > 0)) || fail "timed out waiting for '$pattern' in $(basename "$file")"
        sleep 0.1
    done
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat" 2>/dev/null || echo nan; }
rss_mib() { awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status" 2>/dev/null || echo nan; }
load_before="$(loadavg)"
say "load average before: $load_before"

say "== redis-server (appendonly yes, appendfsync $appendfsync)"
redis_port="$(free_port)"
mkdir -p "$work/redis"
start redis redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$work/redis" --appendonly yes --appendfsync "$appendfsync" \
    --save '' --daemonize no --maxclients 1000
redis_pid=$started
for _ in $(seq 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis-cli -p "$redis_port" ping >/dev/null || fail "redis-server did not start"
relay_port="$(free_port)"
start relay "$tools/tcprelay" "$relay_port" "$redis_port" 300
relay_pid=$started
wait_for "$work/relay.out" relaying 10 "$relay_pid"

# start_server NODE REDIS_PORT: an `interlude serve` on a free port; its port in $server_port.
start_server() {
    local node="$1" port="$2"
    start "serve-$node" "$interlude" serve --port 0 --store "redis://127.0.0.1:$port" --node "$node" --key-file "$work/keys"
    server_pid=$started
    wait_for "$work/serve-$node.err" 'Interlude group server on' 30 "$server_pid"
    server_port="$(grep -o 'ws://127.0.0.1:[0-9]*' "$work/serve-$node.err" | head -1 | sed 's/.*://')"
}

say "== $sessions sessions on both servers (interlude session create, 4 at a time)"
"$interlude" serve --help >/dev/null
start_server setup "$redis_port"
setup_pid=$server_pid
setup_port=$server_port
seq "$sessions" | xargs -P 4 -I{} "$interlude" session create --server "http://127.0.0.1:$setup_port" --key-file "$work/keys" \
    --stream "http://127.0.0.1:1/vod/movie/{viewer}/main.m3u8" --expires 2h --json >"$work/sessions.jsonl"
stop "$setup_pid"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    print(json.loads(line)["invitations"]["controller"].split("#", 1)[1])
' "$work/sessions.jsonl" >"$work/tokens.txt"
(($(wc -l <"$work/tokens.txt") == sessions)) || fail "made $(wc -l <"$work/tokens.txt") sessions of $sessions"

printf '%-10s %8s %9s %9s %9s %9s %9s %8s %10s %10s %10s %s\n' pass joined fanout_p50 fanout_p95 fanout_p99 ack_p99 acked lost \
    cpu_us/p/s rss_KiB/p resumed checks
# server_metrics LABEL PID PORT: what a server still running says of its turns, from /metrics.
server_metrics() {
    kill -0 "$2" 2>/dev/null || return 0
    curl -s --max-time 20 "http://127.0.0.1:$3/metrics" | python3 -c '
import sys
label = sys.argv[1]
values = {}
for line in sys.stdin:
    if line.startswith("#") or " " not in line:
        continue
    key, value = line.rsplit(" ", 1)
    values[key] = float(value)
def get(key):
    return values.get(key, 0)
commits = get("interlude_group_store_commit_seconds_count")
mean = get("interlude_group_store_commit_seconds_sum") / commits * 1000 if commits else 0
events = get("interlude_group_events_total")
conflicts = get("interlude_group_store_conflicts_total")
failures = get("interlude_group_store_failures_total")
remote = get("interlude_group_remote_changes_total")
slow = get("interlude_group_slow_consumers_total")
print(f"   server {label}: {commits:.0f} commits (mean {mean:.2f} ms), {events:.0f} events, {conflicts:.0f} turns run again "
      f"after a conflict, {failures:.0f} failed commits, {remote:.0f} remote changes taken in, {slow:.0f} slow consumers closed",
      file=sys.stderr)
' "$1" || true
}

# pass NAME: runs groupload against two fresh servers a and b and reports. In the blip pass b reaches
# Redis through the relay, which cuts it; in the others both connect to Redis directly, so the
# figures are the servers' and not the relay's (a process copying every byte b exchanges
# with Redis, on the same 2 cores).
pass() {
    local name="$1" a_pid b_pid a_port b_port b_redis_port="$redis_port" load_pid cpu_before cpu_after rss_a rss_b a_cpu redis_cpu_before redis_cpu_after relay_cpu_before status=0 check="-"
    [[ $name == blip ]] && b_redis_port="$relay_port"
    start_server "$name-a" "$redis_port"
    a_pid=$server_pid a_port=$server_port
    start_server "$name-b" "$b_redis_port"
    b_pid=$server_pid b_port=$server_port
    cpu_before="$(python3 -c "print($(cpu_seconds "$a_pid") + $(cpu_seconds "$b_pid"))")"
    redis_cpu_before="$(cpu_seconds "$redis_pid")"
    relay_cpu_before="$(cpu_seconds "$relay_pid")"
    say "== pass $name: $participants participants in $sessions sessions on two servers (groupload, $duration)"
    start "groupload-$name" "$tools/groupload" -url "ws://127.0.0.1:$a_port/group,ws://127.0.0.1:$b_port/group" -tokens "$work/tokens.txt" \
        -n "$participants" -group "$group" -in-flight 200 -duration "$duration" $pace \
        -ramp 10s -drain 10s -deadline 600s -format json -record "$work/record-$name.jsonl"
    load_pid=$started
    wait_for "$work/groupload-$name.err" 'measured phase begins' 300 "$load_pid"
    say "   $(grep 'measured phase begins' "$work/groupload-$name.err")"
    sleep "$fail_after"
    rss_a="$(rss_mib "$a_pid")" rss_b="$(rss_mib "$b_pid")"
    a_cpu="$(cpu_seconds "$a_pid")"
    case $name in
        failover) say "   kill -9 of server a (pid $a_pid)"; kill -KILL "$a_pid" ;;
        blip) say "   300 ms cut of server b's connections to Redis"; kill -USR1 "$relay_pid" ;;
    esac
    wait "$load_pid" && status=0 || status=$?
    server_metrics a "$a_pid" "$a_port"
    server_metrics b "$b_pid" "$b_port"
    # A killed server's CPU is what it had used at the kill.
    kill -0 "$a_pid" 2>/dev/null && a_cpu="$(cpu_seconds "$a_pid")"
    cpu_after="$(python3 -c "print($a_cpu + $(cpu_seconds "$b_pid"))")"
    redis_cpu_after="$(cpu_seconds "$redis_pid")"
    [[ $name == blip ]] && say "   relay cpu $(python3 -c "print(round($(cpu_seconds "$relay_pid") - $relay_cpu_before, 1))") s"
    if [[ $name == failover ]]; then
        check="$(python3 "$benchmarks/tools/scaleout/check-streams.py" "$redis_port" "$work/record-$name.jsonl" "$work/sessions.jsonl")" || status=1
        say "   $check"
    fi
    python3 - "$work/groupload-$name.out" "$name" "$cpu_before" "$cpu_after" "$redis_cpu_before" "$redis_cpu_after" "$rss_a" "$rss_b" "$participants" "$duration" "$check" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
name, cpu0, cpu1, r0, r1, rss_a, rss_b, n, duration, check = sys.argv[2:]
n = int(n)
seconds = float(report.get("seconds") or duration.rstrip("s"))
servers_cpu = float(cpu1) - float(cpu0)
cpu_us = servers_cpu / n / seconds * 1e6
rss = (float(rss_a) + float(rss_b)) * 1024 / n
verdict = "ok" if report.get("ok") else "FAILED"
checks = (f"{verdict}: {report['duplicated']} dup, {report['missed']} missed, {report['commands_missing']} missing, "
          f"{len(report.get('disagreeing_sessions') or [])} orders differ")
if check != "-":
    checks += "; " + check.split(": ", 1)[1]
print(f"{name:<10} {report['opened']:>8} {report['fanout_p50_ms']:>9.2f} {report['fanout_p95_ms']:>9.2f} {report['fanout_p99_ms']:>9.2f} "
      f"{report['ack_p99_ms']:>9.2f} {report['commands_acked']:>9} {report['lost']:>8} {cpu_us:>10.1f} {rss:>10.1f} "
      f"{report['resumed']:>10} {checks}")
print(f"   {name}: redis cpu {float(r1) - float(r0):.1f} s, servers cpu {servers_cpu:.1f} s over {seconds:.0f} s; "
      f"resume p50/p99/max ms {report['resume_p50_ms']}/{report['resume_p99_ms']}/{report['resume_max_ms']}", file=sys.stderr)
PY
    ((status == 0)) || say "run-scale-out: pass $name: groupload or the check failed (exit $status); see $work/groupload-$name.out"
    stop "$a_pid"
    stop "$b_pid"
    return 0
}

pass load
((skip_failover)) || pass failover
((skip_blip)) || pass blip
say "load average before: $load_before; after: $(loadavg)"
