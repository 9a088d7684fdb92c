#!/usr/bin/env bash
# The origin under load, next to nginx serving the same playlist as a static file, in one run:
# wrk against both (same threads, connections and duration, median of ROUNDS runs), then wrk
# against the origin again while WS_COUNT idle WebSocket connections are held on the same server.
# Everything listens on 127.0.0.1 only; every process started here is stopped on exit.
#
#   Benchmarks/run-origin.sh                         # about four minutes on 2 cores
#   DURATION=5s ROUNDS=1 BASELINES=0 Benchmarks/run-origin.sh
#   PLAYLIST=/live/channel/bob/main.m3u8 Benchmarks/run-origin.sh   # a live playlist
#
# Settings (environment): WRK_THREADS (1), WRK_CONNECTIONS (50), DURATION (10s), ROUNDS (3),
# WS_COUNT (10000), BASELINES (1: also measure NetworkIO's file route and a constant handler),
# PLAYLIST (/vod/movie/bob/main.m3u8: the origin path measured; nginx serves the bytes it had
# when the run began, so for a live path one window of it).
# Progress goes to stderr; the table goes to stdout.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
threads="${WRK_THREADS:-1}"
connections="${WRK_CONNECTIONS:-50}"
duration="${DURATION:-10s}"
rounds="${ROUNDS:-3}"
ws_count="${WS_COUNT:-10000}"
baselines="${BASELINES:-1}"
playlist_path="${PLAYLIST:-/vod/movie/bob/main.m3u8}"

say() { printf '%s\n' "$*" >&2; }
fail() { say "run-origin: $*"; exit 1; }

say "== packages (scripts/bootstrap --bench: nginx-light, wrk, curl, iproute2)"
"$root/scripts/bootstrap" --bench >&2
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[[ -x "$nginx_bin" ]] || fail "nginx not found"
command -v wrk >/dev/null || fail "wrk not found"
command -v curl >/dev/null || fail "curl not found"

say "== building origin-bench (release)"
swift build -c release --package-path "$benchmarks" --product origin-bench >&2
origin_bench="$(swift build -c release --package-path "$benchmarks" --show-bin-path)/origin-bench"

# Each WebSocket is a descriptor in the client and one in the server.
wanted_files=$((ws_count + 10000 > 20000 ? ws_count + 10000 : 20000))
if (($(ulimit -n) < wanted_files)); then
    ulimit -n "$wanted_files" 2>/dev/null || fail "cannot raise the open-file limit to $wanted_files (hard limit $(ulimit -Hn))"
fi

work="$(mktemp -d /tmp/interlude-origin-bench.XXXXXX)"
chmod 755 "$work" # nginx's worker runs as an unprivileged user and must read the static file
pids=()
cleanup() {
    local pid waited
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        waited=0
        while kill -0 "$pid" 2>/dev/null && ((waited < 150)); do sleep 0.1; waited=$((waited + 1)); done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# start NAME COMMAND...: runs COMMAND in the background, stdout and stderr into $work/NAME.*;
# its pid ends up in $started.
start() {
    local name="$1"
    shift
    "$@" >"$work/$name.out" 2>"$work/$name.err" &
    started=$!
    pids+=("$started")
}

# wait_for FILE PATTERN SECONDS PID: until a line of FILE matches PATTERN; fails if PID exits first.
wait_for() {
    local file="$1" pattern="$2" tenths=$(($3 * 10)) pid="$4"
    while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { cat "${file%.out}.err" >&2 || true; fail "$(basename "${file%.out}") exited before printing '$pattern'"; }
        ((tenths-- > 0)) || fail "timed out waiting for '$pattern' in $(basename "$file")"
        sleep 0.1
    done
}

free_port() {
    local port
    for port in $(seq 18080 18180); do
        if [[ -z "$(ss -Hltn "( sport = :$port )")" ]]; then echo "$port"; return; fi
    done
    fail "no free port in 18080-18180"
}

say "== origin (origin-bench serve: OriginServer's router plus /ws echo, one NetworkIO server)"
start serve "$origin_bench" serve --media "$root/Fixtures/Media" --port 0
serve_pid=$started
wait_for "$work/serve.out" '^listening ' 30 "$serve_pid"
origin_port="$(awk '/^listening /{print $2; exit}' "$work/serve.out")"
origin_url="http://127.0.0.1:$origin_port$playlist_path"

say "== nginx, one worker, serving the same bytes as a static file"
mkdir -p "$work/www${playlist_path%/*}" "$work/nginx-temp"
curl -fsS -o "$work/www$playlist_path" "$origin_url"
chmod -R a+rX "$work/www"
nginx_port="$(free_port)"
cat >"$work/nginx.conf" <<EOF
# Debian's defaults for static files (sendfile, tcp_nopush), one worker, no access log, and
# unlimited keep-alive requests, as NetworkIO does (nginx's default closes after 1000).
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx-temp;
    proxy_temp_path $work/nginx-temp;
    fastcgi_temp_path $work/nginx-temp;
    uwsgi_temp_path $work/nginx-temp;
    scgi_temp_path $work/nginx-temp;
    types { application/vnd.apple.mpegurl m3u8; }
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 1000000000;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/www;
        add_header Cache-Control "max-age=60";
        add_header Access-Control-Allow-Origin "*";
    }
}
EOF
start nginx "$nginx_bin" -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log"
nginx_pid=$started
nginx_url="http://127.0.0.1:$nginx_port$playlist_path"
for _ in $(seq 50); do curl -fsS -o "$work/from-nginx" "$nginx_url" 2>/dev/null && break; sleep 0.1; done
cmp -s "$work/from-nginx" "$work/www$playlist_path" || fail "nginx does not serve the playlist's bytes"
case $playlist_path in
    /live/*) ;; # its window moves with every segment published: nginx serves the one fetched above
    *) curl -fsS -o "$work/from-origin" "$origin_url"
       cmp -s "$work/from-origin" "$work/www$playlist_path" || fail "the origin's playlist changed between two requests" ;;
esac
playlist_bytes="$(wc -c <"$work/www$playlist_path")"

targets=(nginx interlude)
declare -A urls=([nginx]="$nginx_url" [interlude]="$origin_url")
declare -A server_pids=([nginx]="$nginx_pid" [interlude]="$serve_pid")
if [[ "$baselines" == 1 ]]; then
    say "== baseline (origin-bench baseline: the same bytes from NetworkIO without the origin)"
    start baseline "$origin_bench" baseline --file "$work/www$playlist_path" --port 0
    baseline_pid=$started
    wait_for "$work/baseline.out" '^listening ' 30 "$baseline_pid"
    baseline_port="$(awk '/^listening /{print $2; exit}' "$work/baseline.out")"
    urls[file]="http://127.0.0.1:$baseline_port/static/main.m3u8"
    urls[constant]="http://127.0.0.1:$baseline_port/constant"
    server_pids[file]="$baseline_pid"
    server_pids[constant]="$baseline_pid"
    for target in file constant; do
        curl -fsS "${urls[$target]}" | cmp -s - "$work/www$playlist_path" || fail "baseline $target does not serve the playlist's bytes"
    done
    targets+=(file constant)
fi

# to_ms VALUE: wrk's latency (850.00us, 1.20ms, 1.02s) in milliseconds.
to_ms() {
    awk -v v="$1" 'BEGIN {
        if (v ~ /us$/) { sub(/us$/, "", v); printf "%.3f", v / 1000 }
        else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.3f", v }
        else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.3f", v * 1000 }
        else { printf "nan" }
    }'
}

# cpu_ticks PID: the CPU time (user + system, in clock ticks) of PID and its child processes
# (nginx's worker is the master's child), all threads included.
cpu_ticks() {
    local pid="$1" total=0 child
    for child in "$pid" $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
        total=$((total + $(awk '{print $14 + $15}' /proc/"$child"/stat 2>/dev/null || echo 0)))
    done
    echo "$total"
}
clock_ticks="$(getconf CLK_TCK)"

# measure LABEL URL PID: one wrk run against the server process PID; appends
# "LABEL req/s p50_ms p99_ms cpu_us_per_request" to $work/results.
measure() {
    local label="$1" url="$2" pid="$3" output rps p50 p99 errors requests ticks_before ticks cpu
    output="$work/wrk-$label-$((++run_number)).txt"
    ticks_before="$(cpu_ticks "$pid")"
    wrk -t"$threads" -c"$connections" -d"$duration" --latency "$url" >"$output"
    ticks=$(($(cpu_ticks "$pid") - ticks_before))
    rps="$(awk '/^Requests\/sec:/ {print $2}' "$output")"
    p50="$(to_ms "$(awk '$1 == "50%" {print $2}' "$output")")"
    p99="$(to_ms "$(awk '$1 == "99%" {print $2}' "$output")")"
    requests="$(awk '/ requests in / {print $1}' "$output")"
    cpu="$(awk -v t="$ticks" -v hz="$clock_ticks" -v n="$requests" 'BEGIN {printf "%.1f", t * 1e6 / hz / n}')"
    errors="$(awk '/^  Non-2xx or 3xx responses:/ {n += $NF} /^  Socket errors:/ {gsub(/[^0-9 ]/, ""); for (i = 1; i <= NF; i++) n += $i} END {print n + 0}' "$output")"
    ((errors == 0)) || { cat "$output" >&2; fail "wrk saw $errors errors or non-2xx responses from $label"; }
    say "   $label: $rps req/s, p50 $p50 ms, p99 $p99 ms, server CPU $cpu us per request"
    echo "$label $rps $p50 $p99 $cpu" >>"$work/results"
}
run_number=0

if [[ "$baselines" == 1 ]]; then
    say "== the origin's own cost per playlist (origin-bench render, 3 s, no network)"
    render_line="$("$origin_bench" render --media "$root/Fixtures/Media" "$playlist_path" 3 2>/dev/null)"
    say "   $render_line"
    render_median="$(tr ' ' '\n' <<<"$render_line" | sed -n 's/^median_us=//p')"
    render_min="$(tr ' ' '\n' <<<"$render_line" | sed -n 's/^min_us=//p')"
fi

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
say "== warm-up (2 s each); load average $load_before"
for target in "${targets[@]}"; do wrk -t"$threads" -c"$connections" -d2s "${urls[$target]}" >/dev/null; done

say "== $rounds rounds of wrk -t$threads -c$connections -d$duration, targets interleaved"
for round in $(seq "$rounds"); do
    say "-- round $round"
    for target in "${targets[@]}"; do measure "$target" "${urls[$target]}" "${server_pids[$target]}"; done
done

# server_open PID OUT: the server's own count of open /ws sessions (it prints it on SIGUSR1).
server_open() {
    local pid="$1" out="$2" before
    before="$(grep -c '^websockets ' "$out" || true)"
    kill -USR1 "$pid"
    for _ in $(seq 50); do
        (($(grep -c '^websockets ' "$out" || true) > before)) && break
        sleep 0.1
    done
    awk '/^websockets / {sub("open=", "", $2); n = $2} END {print n}' "$out"
}

# hold_and_measure NAME SERVER_PID SERVER_OUT PORT LABEL URL: holds ws_count idle WebSockets on
# the server, runs wrk on URL rounds times while they are held (results under LABEL), checks that
# every connection is still open on both sides and still echoes, then lets the client go.
# Sets ws_summary.
hold_and_measure() {
    local name="$1" server_pid="$2" server_out="$3" port="$4" label="$5" url="$6"
    local opened failed hold_pid open_at_end established_at_end result held still_open echoed
    say "== holding $ws_count idle WebSockets on ws://127.0.0.1:$port/ws ($name; origin-bench hold, NetworkIO's client)"
    start "hold-$name" "$origin_bench" hold "$ws_count" "ws://127.0.0.1:$port/ws"
    hold_pid=$started
    wait_for "$work/hold-$name.out" '^held ' 300 "$hold_pid"
    read -r opened failed <<<"$(awk '/^held / {sub("opened=", "", $2); sub("failed=", "", $3); print $2, $3}' "$work/hold-$name.out")"
    say "   $(grep '^held ' "$work/hold-$name.out")"
    ((opened == ws_count)) || fail "only $opened of $ws_count WebSockets opened ($failed failed): $(grep 'first failure' "$work/hold-$name.err" || true)"
    say "   the server counts $(server_open "$server_pid" "$server_out") open; $(established "$port") established sockets on its port"
    say "== $rounds rounds of wrk on $url while they are held"
    for _ in $(seq "$rounds"); do measure "$label" "$url" "$server_pid"; done
    open_at_end="$(server_open "$server_pid" "$server_out")"
    established_at_end="$(established "$port")"
    kill -USR1 "$hold_pid"
    wait_for "$work/hold-$name.out" '^RESULT ' 120 "$hold_pid"
    result="$(grep '^RESULT ' "$work/hold-$name.out")"
    say "   after the runs: the server counts $open_at_end open, $established_at_end established sockets; client $result"
    # The client has checked its side; closing 10,000 connections cleanly takes a while and is not measured.
    kill -TERM "$hold_pid" 2>/dev/null || true
    for _ in $(seq 600); do (($(established "$port") == 0)) && break; sleep 0.1; done
    read -r held still_open echoed <<<"$(awk '{sub("held=", "", $2); sub("open=", "", $3); sub("echoed=", "", $4); print $2, $3, $4}' <<<"$result")"
    ((held == ws_count && still_open == ws_count && echoed == ws_count && open_at_end == ws_count)) \
        || fail "WebSockets were lost while held ($name): server $open_at_end open, client $still_open open, $echoed echoed"
    ws_summary="$opened opened in $(awk '/^held / {sub("seconds=", "", $4); print $4}' "$work/hold-$name.out") s; after the runs the server counted $open_at_end open ($established_at_end established sockets), the client $still_open open and $echoed echoed"
}
established() { ss -Htn state established "( sport = :$1 )" | wc -l; }

hold_and_measure origin "$serve_pid" "$work/serve.out" "$origin_port" "interlude+ws" "$origin_url"
origin_ws_summary="$ws_summary"
if [[ "$baselines" == 1 ]]; then
    hold_and_measure baseline "$baseline_pid" "$work/baseline.out" "$baseline_port" "constant+ws" "${urls[constant]}"
    baseline_ws_summary="$ws_summary"
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# median LABEL: "req/s p50 p99 cpu all-runs" of the run with the median req/s.
median() {
    awk -v label="$1" '$1 == label {print $2, $3, $4, $5}' "$work/results" | sort -n | awk '
        { line[NR] = $0; all = all (NR > 1 ? " " : "") sprintf("%.0f", $1) }
        END { m = int((NR + 1) / 2); print line[m], all }'
}

row() {
    local name="$1" label="$2" rps p50 p99 cpu all
    read -r rps p50 p99 cpu all <<<"$(median "$label")"
    printf '%-48s %9.0f %8.2f %8.2f %12.1f   %s\n' "$name" "$rps" "$p50" "$p99" "$cpu" "$all" >&3
    echo "$rps"
}

exec 3>&1
echo
echo "Origin benchmark, $playlist_bytes-byte playlist $playlist_path; wrk -t$threads -c$connections -d$duration --latency on 127.0.0.1; median of $rounds runs"
echo "$(swift --version 2>/dev/null | head -n 1) | $("$nginx_bin" -v 2>&1 | sed 's/.*: //') | wrk $(wrk -v 2>&1 | awk 'NR == 1 {print $2}') | $(nproc) cores, shared by wrk, the server and the WebSocket client | load average $load_before before, $load_after after"
echo "interlude $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)')$(git -C "$root" diff --quiet HEAD -- Sources 2>/dev/null || echo ' with uncommitted changes under Sources/')"
echo "nginx: worker_processes 1 (one single-threaded worker). interlude: one libwebsockets service thread; handlers on Swift's concurrency pool ($(nproc) threads)."
echo
printf '%-48s %9s %8s %8s %12s   %s\n' "target" "req/s" "p50 ms" "p99 ms" "CPU us/req" "runs (req/s)"
nginx_rps="$(row "nginx, static file" nginx)"
interlude_rps="$(row "interlude origin, personalised (per viewer)" interlude)"
if [[ "$baselines" == 1 ]]; then
    row "  NetworkIO file route, same bytes" file >/dev/null
    row "  NetworkIO constant handler, same bytes" constant >/dev/null
fi
ws_rps="$(row "interlude origin, personalised, $ws_count WS held" "interlude+ws")"
if [[ "$baselines" == 1 ]]; then
    row "  NetworkIO constant handler, $ws_count WS held" "constant+ws" >/dev/null
fi
echo
# The targets: 1.0x nginx's requests per second for a VOD playlist, 0.7x for a live one (which
# changes with every segment published).
case $playlist_path in /live/*) target=0.70 ;; *) target=1.00 ;; esac
awk -v a="$interlude_rps" -v b="$nginx_rps" -v t="$target" 'BEGIN {
    r = a / b; printf "interlude / nginx = %.2f (target >= %.2f: %s)\n", r, t, (r >= t ? "met" : "MISSED") }'
awk -v a="$ws_rps" -v n="$ws_count" 'BEGIN {
    printf "HTTP with %d WebSockets held: %.0f req/s (target >= 20000: %s)\n", n, a, (a >= 20000 ? "met" : "MISSED") }'
echo "CPU us/req: the server process's CPU time (all threads; nginx: master and worker) over the requests wrk completed, in the median run."
echo "WebSockets on the origin: $origin_ws_summary"
if [[ "$baselines" == 1 ]]; then
    echo "WebSockets on the baseline: $baseline_ws_summary"
    echo "Origin.respond alone for $playlist_path, one thread, no network: $render_median us median ($render_min us best); a VOD playlist is rendered once per viewer and kept, a live one once per segment published"
fi
