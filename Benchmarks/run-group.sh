#!/usr/bin/env bash
# The group server's acceptance figures, in one run:
#
#   1. skew against ground truth: origin and server in one network namespace, three participants
#      (`interlude join`, clocks drifting -100, 0 and +100 ppm) each in its own, every link behind
#      the NFQUEUE delayer (50 +- 20 ms and 1 % loss, each way); the owner pauses, resumes and seeks
#      during the run (`join --action`); Benchmarks/group-skew.py reads the traces;
#   2. a 10 s partition of one participant during that run, healed: time to `participant.lost`,
#      whether the others kept playing, time to the participant's `resumed`, and whether anyone
#      else's position moved;
#   3. load, on loopback: 2,000 WebSocket participants (wsload) in 200 sessions of one
#      `interlude serve`; each round one member of every session sends a message that the server
#      sequences, commits and fans out to the other 9 (fan-out latency); a first pass alone, a
#      second with wrk on a media segment of the origin all through it; the origin's HTTP
#      throughput then, next to wrk runs alone before and after each pass; a third pass with h2load
#      offering the origin a fixed rate (a fraction of what it serves alone) and the same rate
#      offered with the origin alone: what it serves and how fast, with and without the load.
#
#   Benchmarks/run-group.sh [--minutes N] [--skip-load] [--skip-chaos]
#
# --minutes N: the skew run's length (default 10, at least 2). Parts 1 and 2 need root (network
# namespaces, veths, iptables); without root they are skipped, with a message. Settings
# (environment): LOAD_CONNECTIONS (2000), LOAD_GROUP (10), LOAD_ROUNDS (70), LOAD_STAGGER (100ms:
# a round's sends spread over this; 0 sends all at once), WRK_CONNECTIONS (50), WRK_DURATION (10s:
# each run of wrk alone), FIXED_FRACTION (0.5: the fixed rate as a fraction of the origin's mean
# throughput alone), FIXED_DURATION (10: seconds of each fixed-rate run), GENERATOR_NICE (0: the
# niceness of the load generators wsload and h2load, which on a small machine share the cores with
# what they measure; wsload's latencies then count its own waits too), BUILD=0 uses the release build as it is, KEEP=1 keeps the working directory. Progress
# goes to stderr, the table to stdout. Every process started here is stopped on exit, and the
# namespaces are removed.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
minutes=10
skip_load=0
skip_chaos=0
usage() { sed -n '17,26p' "$0" | sed 's/^# \{0,1\}//' >&2; }
while (($#)); do
    case $1 in
        --minutes)
            [[ ${2:-} =~ ^[0-9]+$ ]] && (($2 >= 2 && $2 <= 120)) || { echo "run-group: --minutes needs a whole number from 2 to 120" >&2; exit 64; }
            minutes=$2
            shift 2
            ;;
        --skip-load) skip_load=1; shift ;;
        --skip-chaos) skip_chaos=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run-group: unknown option '$1'" >&2; usage; exit 64 ;;
    esac
done
load_connections="${LOAD_CONNECTIONS:-2000}"
load_group="${LOAD_GROUP:-10}"
load_rounds="${LOAD_ROUNDS:-70}"
load_stagger="${LOAD_STAGGER:-100ms}"
wrk_connections="${WRK_CONNECTIONS:-50}"
wrk_duration="${WRK_DURATION:-10s}"
fixed_fraction="${FIXED_FRACTION:-0.5}"
fixed_duration="${FIXED_DURATION:-10}"
generator_nice="${GENERATOR_NICE:-0}"
[[ $generator_nice =~ ^[0-9]+$ ]] && ((generator_nice <= 19)) || { echo "run-group: GENERATOR_NICE must be 0 to 19" >&2; exit 64; }
[[ $fixed_duration =~ ^[0-9]+$ ]] && ((fixed_duration >= 2 && fixed_duration <= 60)) || { echo "run-group: FIXED_DURATION must be 2 to 60 (seconds)" >&2; exit 64; }
python3 -c 'import sys; f = float(sys.argv[1]); sys.exit(0 if 0 < f <= 1 else 1)' "$fixed_fraction" 2>/dev/null || { echo "run-group: FIXED_FRACTION must be a number in (0, 1]" >&2; exit 64; }
prefix=gbench

say() { printf '%s\n' "$*" >&2; }
fail() { say "run-group: $*"; exit 1; }

if ((!skip_chaos)) && [[ $(id -u) -ne 0 ]]; then
    say "run-group: NOT ROOT: the skew and partition run needs root (network namespaces, veths and iptables);"
    say "run-group: skipping it. Run as root for the whole benchmark (--skip-chaos silences this)."
    skip_chaos=1
fi
((skip_chaos && skip_load)) && { say "run-group: nothing to do"; exit 0; }

flags=(--bench --load)
((skip_chaos)) || flags+=(--chaos)
say "== packages and tools (scripts/bootstrap ${flags[*]})"
"$root/scripts/bootstrap" "${flags[@]}" >&2
tools="$root/Benchmarks/.build/tools"

if [[ ${BUILD:-1} != 0 ]]; then
    say "== building interlude (release)"
    (cd "$root" && nice -n 10 swift build -c release --product interlude >&2)
fi
interlude="$root/.build/release/interlude"
[[ -x $interlude ]] || fail "no $interlude (build it: swift build -c release --product interlude)"

work="$(mktemp -d /tmp/interlude-group-bench.XXXXXX)"
pids=()
namespaces_up=0
cleanup() {
    local pid waited
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        waited=0
        while kill -0 "$pid" 2>/dev/null && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    ((namespaces_up)) && "$root/scripts/netchaos" down "$prefix" || true
    if [[ ${KEEP:-0} == 1 ]]; then say "run-group: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# start NAME COMMAND...: runs COMMAND in the background, output into $work/NAME.out and .err; its
# pid ends up in $started.
start() {
    local name="$1"
    shift
    "$@" >"$work/$name.out" 2>"$work/$name.err" &
    started=$!
    pids+=("$started")
}

# stop PID: TERM, then KILL after 10 s.
stop() {
    local pid="$1" waited=0
    kill -TERM "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# wait_for FILE PATTERN SECONDS PID: until a line of FILE matches PATTERN; fails if PID exits first.
wait_for() {
    local file="$1" pattern="$2" tenths=$(($3 * 10)) pid="$4"
    while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { tail -5 "${file%.*}.err" >&2 || true; fail "$(basename "${file%.*}") exited before printing '$pattern'"; }
        ((tenths-- > 0)) || fail "timed out waiting for '$pattern' in $(basename "$file")"
        sleep 0.1
    done
}

now_ns() { date +%s%N; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat" 2>/dev/null || echo nan; }
load_before="$(loadavg)"
say "load average before: $load_before"

# ---------------------------------------------------------------------------------------------
# 1 and 2: skew and the partition, in namespaces.
if ((!skip_chaos)); then
    run_seconds=$((minutes * 60))
    content_seconds=$((run_seconds + 120 > 720 ? run_seconds + 120 : 720))
    # The owner's script, in seconds after its start: a pause and a resume, a seek forward, the
    # partition of bob (by this script), a seek back.
    pause_at=$((run_seconds * 25 / 100)) play_at=$((run_seconds * 25 / 100 + 8))
    seek1_at=$((run_seconds * 45 / 100)) seek1_to=$((run_seconds * 45 / 100 + 60))
    cut_at=$((run_seconds * 65 / 100)) partition_seconds=10
    seek2_at=$((run_seconds * 85 / 100)) seek2_to=$((run_seconds * 30 / 100))

    say "== the stream: one ${content_seconds}-second VOD without breaks (the content segments loop)"
    "$interlude" origin --print-config | python3 -c '
import json, sys
config = json.load(sys.stdin)
config["streams"] = [{"id": "movie", "kind": "vod", "mode": "interstitials", "durationSeconds": int(sys.argv[1]), "breaks": []}]
json.dump(config, sys.stdout, indent=2)
' "$content_seconds" >"$work/origin.json"

    say "== namespaces: $prefix-1 (origin, server), $prefix-2..4 (alice, bob, charlie), through $prefix-r"
    "$root/scripts/netchaos" down "$prefix" 2>/dev/null || true
    namespaces_up=1
    "$root/scripts/netchaos" up "$prefix" 4
    host="$("$root/scripts/netchaos" addr "$prefix" 1)"
    # netchaos exec execs the command, so a pid from start is the command's own.
    in_host=("$root/scripts/netchaos" exec "$prefix")

    start origin "${in_host[@]}" 1 "$interlude" origin --host "$host" --port 8080 --config "$work/origin.json"
    origin_pid=$started
    start serve "${in_host[@]}" 1 "$interlude" serve --host "$host" --port 7400 --db "$work/chaos.sqlite" --key-file "$work/chaos-keys"
    serve_pid=$started
    wait_for "$work/serve.err" 'Interlude group server on' 60 "$serve_pid"
    for _ in $(seq 100); do "${in_host[@]}" 1 curl -fsS -o /dev/null "http://$host:8080/vod/movie/alice/main.m3u8" 2>/dev/null && break; sleep 0.1; done
    "${in_host[@]}" 1 curl -fsS -o /dev/null "http://$host:8080/vod/movie/alice/main.m3u8" || fail "the origin does not answer"

    say "== delayers: 50 +- 20 ms, 1 % loss on the router's egress to every host (each way for a participant)"
    for k in 1 2 3 4; do
        "$root/scripts/netchaos" delay "$prefix" "$k" 50 20 1 $((run_seconds + 180)) >/dev/null
    done

    say "== a session, and three participants for $minutes minutes"
    "${in_host[@]}" 1 "$interlude" session create --server "http://$host:7400" --key-file "$work/chaos-keys" \
        --stream "http://$host:8080/vod/movie/{viewer}/main.m3u8" --json >"$work/session.json"
    invitation() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["invitations"][sys.argv[2]])' "$work/session.json" "$1"; }
    started_ns="$(now_ns)"
    start alice "${in_host[@]}" 2 "$interlude" join "$(invitation owner)" --name alice --clock-drift-ppm -100 -q \
        --duration "$run_seconds" --trace "$work/alice.jsonl" \
        --action "$pause_at:pause" --action "$play_at:play" --action "$seek1_at:seek:$seek1_to" --action "$seek2_at:seek:$seek2_to"
    alice_pid=$started
    start bob "${in_host[@]}" 3 "$interlude" join "$(invitation controller)" --name bob -q --duration "$run_seconds" --trace "$work/bob.jsonl"
    bob_pid=$started
    start charlie "${in_host[@]}" 4 "$interlude" join "$(invitation viewer)" --name charlie --clock-drift-ppm 100 -q \
        --duration "$run_seconds" --trace "$work/charlie.jsonl"
    charlie_pid=$started
    say "   owner alice: pause at ${pause_at} s, play at ${play_at} s, seek to ${seek1_to} s at ${seek1_at} s, to ${seek2_to} s at ${seek2_at} s"

    sleep_until() { local due_ns="$1" left; left=$(((due_ns - $(now_ns)) / 1000000)); ((left > 0)) && sleep "$(awk -v ms="$left" 'BEGIN {print ms / 1000}')" || true; }
    sleep_until $((started_ns + cut_at * 1000000000))
    cut_ns="$(now_ns)"
    "$root/scripts/netchaos" partition "$prefix" 3
    say "   bob partitioned at $cut_at s (load average $(loadavg))"
    sleep_until $((cut_ns + partition_seconds * 1000000000))
    heal_ns="$(now_ns)"
    "$root/scripts/netchaos" heal "$prefix" 3
    say "   healed after $(((heal_ns - cut_ns) / 1000000)) ms"

    # Each participant leaves after its --duration; a minute later, whoever is left is stopped.
    give_up_ns=$((started_ns + (run_seconds + 60) * 1000000000))
    for pid in "$alice_pid" "$bob_pid" "$charlie_pid"; do
        while kill -0 "$pid" 2>/dev/null && (($(now_ns) < give_up_ns)); do sleep 0.2; done
        kill -0 "$pid" 2>/dev/null && say "run-group: a participant did not leave 60 s after its duration; stopping it"
        stop "$pid"
    done
    "${in_host[@]}" 1 curl -fsS "http://$host:7400/metrics" >"$work/chaos-metrics.txt" || true
    stop "$serve_pid"
    stop "$origin_pid"
    load_after_chaos="$(loadavg)"
    say "   load average after the skew run: $load_after_chaos"
    for name in alice bob charlie; do
        grep -v '^$' "$work/$name.err" | grep -v '^join: connecting\|^join: in session' | sed "s/^/   $name: /" | tail -5 >&2 || true
    done
    for k in 1 2 3 4; do
        [[ -f ${TMPDIR:-/tmp}/netchaos-$prefix/delay-$k.log ]] && sed "s/^/   delayer $k: /" "${TMPDIR:-/tmp}/netchaos-$prefix/delay-$k.log" >&2 || true
    done
    "$root/scripts/netchaos" down "$prefix"
    namespaces_up=0

    say "== skew against ground truth (Benchmarks/group-skew.py)"
    python3 "$benchmarks/group-skew.py" "$work/alice.jsonl" "$work/bob.jsonl" "$work/charlie.jsonl" \
        --server-log "$work/serve.out" --partition "$cut_ns" "$heal_ns" --partitioned bob --format json >"$work/skew.json"
    python3 "$benchmarks/group-skew.py" "$work/alice.jsonl" "$work/bob.jsonl" "$work/charlie.jsonl" \
        --server-log "$work/serve.out" --partition "$cut_ns" "$heal_ns" --partitioned bob >"$work/skew.txt"
    sed 's/^/   /' "$work/skew.txt" >&2
fi

# ---------------------------------------------------------------------------------------------
# 3: load on loopback.
if ((!skip_load)); then
    command -v wrk >/dev/null || fail "wrk not found (scripts/bootstrap --bench installs it)"
    command -v h2load >/dev/null || fail "h2load not found (scripts/bootstrap --bench installs it)"
    wanted_files=$((load_connections * 2 + 4000))
    if (($(ulimit -n) < wanted_files)); then
        ulimit -n "$wanted_files" 2>/dev/null || fail "cannot raise the open-file limit to $wanted_files (hard limit $(ulimit -Hn))"
    fi
    sessions=$(((load_connections + load_group - 1) / load_group))

    say "== load: origin and group server on 127.0.0.1"
    start load-origin "$interlude" origin --port 0
    load_origin_pid=$started
    wait_for "$work/load-origin.out" 'http://127.0.0.1:[0-9]*' 60 "$load_origin_pid"
    origin_port="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/load-origin.out" | head -1 | sed 's/.*://')"
    start load-serve "$interlude" serve --port 0 --db "$work/load.sqlite" --key-file "$work/load-keys"
    load_serve_pid=$started
    wait_for "$work/load-serve.err" 'Interlude group server on' 60 "$load_serve_pid"
    serve_port="$(grep -o 'ws://127.0.0.1:[0-9]*' "$work/load-serve.err" | head -1 | sed 's/.*://')"
    playlist="http://127.0.0.1:$origin_port/vod/movie/bob/main.m3u8"
    segment="$(curl -fsS "$playlist" | grep -v '^#' | grep -m1 .)"
    case $segment in
        http*) segment_url="$segment" ;;
        /*) segment_url="http://127.0.0.1:$origin_port$segment" ;;
        *) segment_url="${playlist%/*}/$segment" ;;
    esac
    segment_bytes="$(curl -fsS "$segment_url" | wc -c)"
    ((segment_bytes > 0)) || fail "the segment $segment_url is empty"
    say "   segment: $segment_url ($segment_bytes bytes)"

    say "== $sessions sessions (interlude session create, 4 at a time)"
    seq "$sessions" | xargs -P 4 -I{} "$interlude" session create --server "http://127.0.0.1:$serve_port" --key-file "$work/load-keys" \
        --stream "http://127.0.0.1:$origin_port/vod/movie/{viewer}/main.m3u8" --expires 2h --json >"$work/sessions.jsonl"
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    print(json.loads(line)["invitations"]["controller"].split("#", 1)[1])
' "$work/sessions.jsonl" >"$work/tokens.txt"
    (($(wc -l <"$work/tokens.txt") == sessions)) || fail "made $(wc -l <"$work/tokens.txt") sessions of $sessions"

    # wrk_begin NAME DURATION starts wrk on the segment in the background (pid in $wrk_pid);
    # wrk_end NAME [stop] waits for it (with stop: interrupts it first; wrk then reports what it
    # did so far) and writes "req/s MB/s p99_ms origin_us_per_request server_cores" to $work/NAME:
    # the origin's CPU per request and the cores the group server used meanwhile.
    wrk_begin() {
        echo "$(now_ns) $(cpu_seconds "$load_origin_pid") $(cpu_seconds "$load_serve_pid")" >"$work/wrk-$1.before"
        wrk -t1 -c"$wrk_connections" -d"$2" --latency "$segment_url" >"$work/wrk-$1.txt" &
        wrk_pid=$!
    }
    wrk_end() {
        local output="$work/wrk-$1.txt" started_ns origin_before serve_before
        [[ ${2:-} == stop ]] && kill -INT "$wrk_pid" 2>/dev/null
        wait "$wrk_pid" || fail "wrk failed: $(cat "$output")"
        read -r started_ns origin_before serve_before <"$work/wrk-$1.before"
        echo "cpu $((($(now_ns) - started_ns) / 1000000)) $origin_before $(cpu_seconds "$load_origin_pid") $serve_before $(cpu_seconds "$load_serve_pid")" >>"$output"
        python3 - "$output" >"$work/$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
transfer = re.search(r"Transfer/sec:\s+([\d.]+)(\w+)", text)
mb = float(transfer.group(1)) * {"B": 1e-6, "KB": 1.024e-3, "MB": 1.048576, "GB": 1073.741824}[transfer.group(2)]
p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text)) + sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", text))
if errors:
    sys.exit(f"wrk saw {errors} errors:\n{text}")
requests = int(re.search(r"(\d+) requests in", text).group(1))
cpu = re.search(r"^cpu (\d+) (\S+) (\S+) (\S+) (\S+)$", text, re.M)
wall = int(cpu.group(1)) / 1000
def used(before, after):
    try:
        return (float(after) - float(before)) / wall
    except ValueError:
        return float("nan")
origin_us = (float(cpu.group(3)) - float(cpu.group(2))) * 1e6 / requests
print(f"{rps:.0f} {mb:.1f} {p99_ms:.2f} {origin_us:.1f} {used(cpu.group(4), cpu.group(5)):.2f}")
EOF
        [[ -s $work/$1 ]] || fail "no figures from wrk ($1)"
    }

    # fixed_begin NAME RATE starts h2load in the background (pid in $fixed_pid): RATE requests a
    # second on the segment, over $wrk_connections HTTP/1.1 connections each sending RATE /
    # connections a second on its own timer (open loop: a slow answer does not slow the offer), for
    # $fixed_duration s, every request logged. fixed_end NAME waits for it and writes
    # "offered served_rps p50_ms p99_ms origin_us_per_request server_cores failed" to $work/NAME.
    fixed_begin() {
        local per_connection=$(($2 / wrk_connections))
        ((per_connection >= 1)) || fail "a fixed rate of $2 req/s is less than one a second per connection"
        echo "$(now_ns) $(cpu_seconds "$load_origin_pid") $(cpu_seconds "$load_serve_pid") $((per_connection * wrk_connections))" >"$work/fixed-$1.before"
        nice -n "$generator_nice" h2load --h1 -t1 -c"$wrk_connections" --rps="$per_connection" -D "$fixed_duration" --log-file "$work/fixed-$1.log" \
            "$segment_url" >"$work/fixed-$1.txt" 2>&1 &
        fixed_pid=$!
    }
    fixed_end() {
        local output="$work/fixed-$1.txt" started_ns origin_before serve_before offered
        wait "$fixed_pid" || fail "h2load failed: $(tail -5 "$output")"
        read -r started_ns origin_before serve_before offered <"$work/fixed-$1.before"
        echo "cpu $((($(now_ns) - started_ns) / 1000000)) $origin_before $(cpu_seconds "$load_origin_pid") $serve_before $(cpu_seconds "$load_serve_pid") $offered" >>"$output"
        python3 - "$output" "$work/fixed-$1.log" "$fixed_duration" >"$work/$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
done = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", text)
if not done:
    sys.exit(f"no figures from h2load:\n{text}")
succeeded = int(done.group(4))
failed = int(done.group(5)) + int(done.group(6)) + int(done.group(7))
times = sorted(int(line.split("\t")[2]) for line in open(sys.argv[2]) if line.count("\t") == 2 and line.split("\t")[1] == "200")
if not times:
    sys.exit("h2load logged no successful request")
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] / 1000
cpu = re.search(r"^cpu (\d+) (\S+) (\S+) (\S+) (\S+) (\d+)$", text, re.M)
wall = int(cpu.group(1)) / 1000
def used(before, after):
    try:
        return (float(after) - float(before)) / wall
    except ValueError:
        return float("nan")
origin_us = (float(cpu.group(3)) - float(cpu.group(2))) * 1e6 / max(1, succeeded)
print(f"{cpu.group(6)} {succeeded / float(sys.argv[3]):.0f} {pick(0.5):.2f} {pick(0.99):.2f} {origin_us:.1f} {used(cpu.group(4), cpu.group(5)):.2f} {failed}")
EOF
        [[ -s $work/$1 ]] || fail "no figures from h2load ($1)"
    }

    say "== HTTP throughput alone (wrk -t1 -c$wrk_connections -d$wrk_duration on the segment; warm-up 2 s)"
    wrk -t1 -c"$wrk_connections" -d2s "$segment_url" >/dev/null
    wrk_begin alone-0 "$wrk_duration"
    wrk_end alone-0
    say "   alone: $(cat "$work/alone-0") (req/s MB/s p99_ms origin_us/request; load average $(loadavg))"

    hello='{"type":"hello","protocol":1,"token":"{v}","name":"w{i}"}'
    send='{"type":"custom","id":"b{r}","messageType":"bench.fanout","body":{"round":"{g}-{r}"}}'
    # Pass 1: the participants alone. Pass 2: the same with wrk on the origin all through it. Pass
    # 3: the same with h2load offering the origin a fixed rate, after the same rate offered alone.
    for pass in 1 2 3; do
        if ((pass == 1)); then
            say "== pass 1: $load_connections participants in $sessions sessions (wsload), rounds staggered over $load_stagger"
        elif ((pass == 2)); then
            say "== pass 2: the same, with wrk on the origin from when all have joined until wsload ends"
        else
            fixed_rate="$(python3 -c '
import sys
rates = [float(open(f).read().split()[0]) for f in sys.argv[3:]]
per = max(1, round(sum(rates) / len(rates) * float(sys.argv[1]) / int(sys.argv[2])))
print(per * int(sys.argv[2]))
' "$fixed_fraction" "$wrk_connections" "$work"/alone-[0-2])"
            say "== the origin alone at a fixed $fixed_rate req/s (h2load, $wrk_connections connections, ${fixed_duration} s)"
            fixed_begin fixed-alone "$fixed_rate"
            fixed_end fixed-alone
            say "   alone: $(cat "$work/fixed-alone") (offered served_rps p50_ms p99_ms origin_us/request server_cores failed)"
            say "== pass 3: the participants again, with h2load at $fixed_rate req/s from when all have joined"
        fi
        serve_cpu_before="$(cpu_seconds "$load_serve_pid")"
        start "wsload-$pass" /usr/bin/time -f "%e %U %S" -o "$work/wsload-$pass.time" nice -n "$generator_nice" "$tools/wsload" -url "ws://127.0.0.1:$serve_port/group" -n "$load_connections" -group "$load_group" \
            -group-values "$work/tokens.txt" -hello "$hello" -hello-expect '"type":"welcome"' -ping-every 1s \
            -send "$send" -expect '"round":"{g}-{r}"' -rounds "$load_rounds" -gap 200ms -stagger "$load_stagger" -settle 2s \
            -deadline 300s -format json
        wsload_pid=$started
        if ((pass >= 2)); then
            # The HTTP load starts once every participant is present (wsload then settles 2 s
            # before round 0).
            for _ in $(seq 1200); do
                present="$(curl -fsS "http://127.0.0.1:$serve_port/metrics" 2>/dev/null | awk '$1 == "interlude_group_participants" {print $2}')"
                [[ ${present:-0} -ge $load_connections ]] && break
                kill -0 "$wsload_pid" 2>/dev/null || break
                sleep 0.1
            done
            [[ ${present:-0} -ge $load_connections ]] || { cat "$work/wsload-$pass.err" >&2; fail "only ${present:-0} of $load_connections participants joined"; }
            if ((pass == 2)); then
                # As long as the pass lasts: wrk is interrupted when wsload ends.
                wrk_begin beside 600s
            else
                # For $fixed_duration s, which must end before wsload does (checked).
                fixed_begin fixed-beside "$fixed_rate"
                fixed_end fixed-beside
                if kill -0 "$wsload_pid" 2>/dev/null; then echo yes; else echo no; fi >"$work/fixed-overlap"
                say "   beside: $(cat "$work/fixed-beside") (load still running when it ended: $(cat "$work/fixed-overlap"); load average $(loadavg))"
            fi
        fi
        wait "$wsload_pid" && wsload_status=0 || wsload_status=$?
        if ((pass == 2)); then
            wrk_end beside stop
            say "   beside: $(cat "$work/beside") (req/s MB/s p99_ms origin_us/request, cores of the server; load average $(loadavg))"
        fi
        awk -v a="$serve_cpu_before" -v b="$(cpu_seconds "$load_serve_pid")" 'BEGIN {printf "%.1f\n", b - a}' >"$work/serve-cpu-$pass"
        cp "$work/wsload-$pass.out" "$work/fanout-$pass.json"
        cat "$work/wsload-$pass.err" >&2
        ((wsload_status == 0)) || say "run-group: wsload exited with $wsload_status (connections lost or receipts missed; see the table)"
        wsload_pid=0
        if ((pass <= 2)); then
            wrk_begin "alone-$pass" "$wrk_duration"
            wrk_end "alone-$pass"
            say "   alone: $(cat "$work/alone-$pass") (load average $(loadavg))"
        fi
    done
    curl -fsS "http://127.0.0.1:$serve_port/metrics" >"$work/load-metrics.txt" || true
    stop "$load_serve_pid"
    stop "$load_origin_pid"
fi

# ---------------------------------------------------------------------------------------------
load_after="$(loadavg)"
say "load average after: $load_after"
export load_before load_after minutes skip_chaos skip_load work load_connections segment_bytes
python3 - <<'EOF'
import json, math, os
env = os.environ
work = env["work"]

def fmt(value, digits=1):
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"

def verdict(ok):
    return "MET" if ok else "MISSED"

rows = []
if env["skip_chaos"] == "0":
    skew = json.load(open(os.path.join(work, "skew.json")))
    s, a, p = skew["steady"], skew["after_events"], skew["partition"]
    kinds = ", ".join(e["kind"] for e in skew["group_events"])
    rows.append((f"steady skew p50 / p95 / p99 / max, {env['minutes']} min, 3 pairs",
                 f"{fmt(s['p50_ms'])} / {fmt(s['p95_ms'])} / {fmt(s['p99_ms'])} / {fmt(s['max_ms'])} ms ({s['samples']} samples)",
                 "p95 <= 20, p99 <= 40", verdict(s["p95_ms"] is not None and s["p95_ms"] <= 20 and s["p99_ms"] <= 40)))
    rows.append((f"skew 1-2 s after start/resume/seek, p95 / max", f"{fmt(a['p95_ms'])} / {fmt(a['max_ms'])} ms ({a['events']} events: {kinds})",
                 "p95 <= 50", verdict(a["p95_ms"] is not None and a["p95_ms"] <= 50)))
    own = skew["self_reported"]
    rows.append(("participants' own skew estimate p95 / p99", f"{fmt(own['p95_ms'])} / {fmt(own['p99_ms'])} ms", "(for comparison)", ""))
    limit = 2 * p["keep_alive_s"]
    rows.append(("partition 10 s: lost after the cut", f"{fmt(p['lost_after_s'], 2)} s", f"<= {limit:.0f} s (2 keep-alives)",
                 verdict(p["lost_after_s"] is not None and p["lost_after_s"] <= limit)))
    longest = max(o["longest_not_playing_s"] for o in p["others"])
    rows.append(("partition: the others kept playing", f"longest stop {fmt(longest, 2)} s; waited-for samples {sum(o['samples_waiting_for_it'] for o in p['others'])}",
                 "no wait", verdict(longest < 1)))
    rows.append(("partition: rejoined after the heal", f"{fmt(p['resumed_after_heal_s'], 2)} s", "<= 2 s",
                 verdict(p["resumed_after_heal_s"] is not None and p["resumed_after_heal_s"] <= 2)))
    moved = max(o["max_discontinuity_ms"] for o in p["others"])
    rows.append(("partition: others' largest jump around the heal", f"{fmt(moved, 1)} ms", "< 20 ms", verdict(moved < 20)))
if env["skip_load"] == "0":
    def wrk(name):
        rps, mb, p99, us, serve = open(os.path.join(work, name)).read().split()
        return {"rps": float(rps), "mb": float(mb), "p99": float(p99), "us": float(us), "serve": float(serve)}
    for k, label in ((1, "alone"), (2, "with wrk beside"), (3, "with h2load beside")):
        f = json.load(open(os.path.join(work, f"fanout-{k}.json")))
        serve_cpu = open(os.path.join(work, f"serve-cpu-{k}")).read().strip()
        rows.append((f"fan-out, {f['opened']} in {f['groups']} sessions, {label}: p50 / p95 / p99 / max",
                     f"{fmt(f['p50_ms'], 2)} / {fmt(f['p95_ms'], 2)} / {fmt(f['p99_ms'], 2)} / {fmt(f['max_ms'], 2)} ms",
                     "p99 < 50", verdict(0 <= f["p99_ms"] < 50)))
        rows.append((f"  receipts, lost connections, errors; server CPU",
                     f"{f['received']} of {f['expected']}, {f['lost']} lost, {sum(f['errors'].values())} errors; {serve_cpu} s in {f['seconds']:.0f} s",
                     "none missed", verdict(f["missed"] == 0 and f["lost"] == 0)))
    alone = [wrk(f"alone-{k}") for k in range(0, 3)]
    beside = wrk("beside")
    mean = lambda values: sum(values) / len(values)
    alone_rps = mean([a["rps"] for a in alone])
    rows.append((f"origin HTTP, {int(env['segment_bytes']) // 1000} kB segment, alone (3 runs)",
                 ", ".join(f"{a['rps']:.0f}" for a in alone) + f" req/s; mean {alone_rps:.0f} ({mean([a['mb'] for a in alone]):.0f} MB/s)", "", ""))
    rows.append(("origin HTTP beside the load / alone",
                 f"{beside['rps']:.0f} req/s ({beside['mb']:.0f} MB/s): {beside['rps'] / alone_rps:.2f}", ">= 0.90",
                 verdict(beside["rps"] / alone_rps >= 0.9)))
    alone_us = mean([a["us"] for a in alone])
    rows.append(("origin CPU per request, alone / beside the load",
                 f"{alone_us:.1f} / {beside['us']:.1f} us: {beside['us'] / alone_us:.2f}", "", ""))
    wall, user, system = (float(v) for v in open(os.path.join(work, "wsload-2.time")).read().split()[-3:])
    rows.append(("cores used beside wrk: server, wsload", f"{beside['serve']:.2f}, {(user + system) / wall:.2f} (of 2, with wrk and the origin)", "", ""))
    def fixed(name):
        offered, served, p50, p99, us, serve, failed = open(os.path.join(work, name)).read().split()
        return {"offered": int(offered), "served": float(served), "p50": float(p50), "p99": float(p99), "us": float(us),
                "serve": float(serve), "failed": int(failed)}
    fa, fb = fixed("fixed-alone"), fixed("fixed-beside")
    overlap = open(os.path.join(work, "fixed-overlap")).read().strip() == "yes"
    rows.append((f"origin at a fixed {fa['offered']} req/s ({fa['offered'] / alone_rps:.2f} of alone), served alone / beside",
                 f"{fa['served']:.0f} / {fb['served']:.0f} req/s: {fb['served'] / fa['served']:.2f}; failed {fa['failed']} / {fb['failed']}"
                 + ("" if overlap else " (the load ended first)"),
                 ">= 0.90", verdict(fb["served"] / fa["served"] >= 0.9 and fb["failed"] == 0 and overlap)))
    rows.append(("  request time p50 / p99, alone; beside the load",
                 f"{fa['p50']:.2f} / {fa['p99']:.2f}; {fb['p50']:.2f} / {fb['p99']:.2f} ms", "", ""))
    rows.append(("  origin CPU per request, alone / beside; server cores beside",
                 f"{fa['us']:.1f} / {fb['us']:.1f} us: {fb['us'] / fa['us']:.2f}; {fb['serve']:.2f}", "", ""))
width = max(len(r[0]) for r in rows)
vwidth = max(len(r[1]) for r in rows)
print(f"load average {env['load_before']} before, {env['load_after']} after")
print(f"{'measure':{width}}   {'value':{vwidth}}   {'target':22}   ")
for r in rows:
    print(f"{r[0]:{width}}   {r[1]:{vwidth}}   {r[2]:22}   {r[3]}")
EOF
