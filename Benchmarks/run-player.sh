#!/usr/bin/env bash
# Issue 4's benchmark, in one run: the player engine playing a 2-hour VOD with 40 interstitial
# breaks to its end on virtual time (CPU per play), 100 such players in one process (memory), and
# ffmpeg reading every segment of the same VOD from files (`-c copy -f null`) as the peer for
# "getting through a 2-hour HLS stream". Nothing listens on a network: the players' network is in
# memory and ffmpeg reads files.
#
#   Benchmarks/run-player.sh                     # about a minute on 2 cores, after the build
#   ROUNDS=3 PLAYERS=20 Benchmarks/run-player.sh
#
# Settings (environment): ROUNDS (5: plays of `single` and runs of ffmpeg, medians reported),
# PLAYERS (100), STAGGER (5: virtual seconds between the players' starts).
# Progress and the raw lines go to stderr; the table goes to stdout.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
fixtures="$root/Fixtures/Media"
rounds="${ROUNDS:-5}"
players="${PLAYERS:-100}"
stagger="${STAGGER:-5}"
cpu_goal="1.0"        # seconds of CPU for one play of the stream
memory_goal="200"     # MB (10^6 bytes) for $players players in one process

say() { printf '%s\n' "$*" >&2; }
fail() { say "run-player: $*"; exit 1; }

say "== packages (scripts/bootstrap --bench: ffmpeg, time)"
"$root/scripts/bootstrap" --bench >&2
command -v ffmpeg >/dev/null || fail "ffmpeg not found"
[[ -x /usr/bin/time ]] || fail "/usr/bin/time not found (Debian package time)"

say "== building player-bench (release)"
swift build -c release --package-path "$benchmarks" --product player-bench >&2
player_bench="$(swift build -c release --package-path "$benchmarks" --show-bin-path)/player-bench"

work="$(mktemp -d /tmp/interlude-player-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# field LINE KEY: the value of KEY=value in a RESULT line.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

say "== writing the stream into $work/stream (player-bench write-stream)"
"$player_bench" write-stream "$work/stream" --fixtures "$fixtures" >"$work/write.out"
playlist="$(cat "$work/write.out")"
[[ -f "$playlist" ]] || fail "write-stream did not write $playlist"

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
say "   load average before: $load_before"

say "== peer: ffmpeg -v error -i main.m3u8 -c copy -f null - ($rounds runs)"
ffmpeg_cpu=()
ffmpeg_rss=()
for ((run = 1; run <= rounds; run++)); do
    /usr/bin/time -f "%U %S %M" -o "$work/ffmpeg.time" \
        ffmpeg -nostdin -v error -progress "$work/ffmpeg.progress" -i "$playlist" -c copy -f null - 2>"$work/ffmpeg.err" \
        || { cat "$work/ffmpeg.err" >&2; fail "ffmpeg failed"; }
    # Looping the fixtures makes the audio time stamps step back a little where the loop wraps;
    # ffmpeg says so ("non monotonically increasing dts") and carries on. Anything else is an error.
    if grep -v "non monotonically increasing dts" "$work/ffmpeg.err" | grep -q .; then
        cat "$work/ffmpeg.err" >&2
        fail "ffmpeg reported errors"
    fi
    out_time="$(awk -F= '$1 == "out_time_us" { t = $2 } END { print t / 1e6 }' "$work/ffmpeg.progress")"
    awk -v t="$out_time" 'BEGIN { exit !(t >= 7199) }' || fail "ffmpeg stopped at $out_time s, before the end"
    read -r user system rss_kb <"$work/ffmpeg.time"
    cpu="$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')"
    say "   run $run: ${cpu} s CPU, ${rss_kb} kB max RSS, read to ${out_time} s ($(grep -c "non monotonically" "$work/ffmpeg.err" || true) dts notes)"
    ffmpeg_cpu+=("$cpu")
    ffmpeg_rss+=("$rss_kb")
done
ffmpeg_cpu_median="$(printf '%s\n' "${ffmpeg_cpu[@]}" | median)"
ffmpeg_rss_max="$(printf '%s\n' "${ffmpeg_rss[@]}" | sort -n | tail -n 1)"

say "== interlude: player-bench single --rounds $rounds"
/usr/bin/time -f "%U %S %M" -o "$work/single.time" \
    "$player_bench" single --rounds "$rounds" --fixtures "$fixtures" >"$work/single.out" 2>"$work/single.err" \
    || { cat "$work/single.err" >&2; fail "player-bench single failed"; }
single="$(cat "$work/single.out")"
say "$single"
read -r _ _ single_rss_kb <"$work/single.time"

say "== interlude: player-bench memory --players $players --stagger $stagger"
/usr/bin/time -f "%U %S %M" -o "$work/memory.time" \
    "$player_bench" memory --players "$players" --stagger "$stagger" --fixtures "$fixtures" >"$work/memory.out" 2>"$work/memory.err" \
    || { cat "$work/memory.err" >&2; fail "player-bench memory failed"; }
memory="$(cat "$work/memory.out")"
say "$memory"
read -r _ _ memory_rss_kb <"$work/memory.time"

load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
say "   load average after: $load_after"

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
kb_mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }
single_cpu="$(field "$single" cpu_median_s)"
memory_cpu="$(field "$memory" cpu_s)"
memory_peak="$(field "$memory" rss_peak_bytes)"

echo
echo "Getting through a 2-hour HLS VOD (1,800 segments of the MPEG-TS fixtures, 40 interstitial breaks): CPU and memory"
echo "$(swift --version 2>/dev/null | head -n 1) | $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3) | $(nproc) cores | load average $load_before before, $load_after after"
echo
printf '%-58s %12s %12s   %s\n' "run" "CPU s" "max RSS MB" "notes"
printf '%-58s %12.3f %12s   %s\n' "ffmpeg -c copy -f null, reads every segment from files" "$ffmpeg_cpu_median" "$(kb_mb "$ffmpeg_rss_max")" \
    "median of $rounds runs: ${ffmpeg_cpu[*]}"
printf '%-58s %12.3f %12s   %s\n' "interlude player, one play on virtual time" "$single_cpu" "$(kb_mb "$single_rss_kb")" \
    "median of $rounds plays: $(field "$single" cpu_rounds | tr ',' ' '); $(field "$single" virtual_s) s virtual in $(field "$single" wall_median_s) s wall"
printf '%-58s %12.3f %12s   %s\n' "interlude, $players players at once in one process" "$memory_cpu" "$(mb "$memory_peak")" \
    "$(field "$memory" cpu_per_player_s) s CPU per play; VmHWM (time -f %M: $(kb_mb "$memory_rss_kb") MB)"
echo
echo "segments loaded per play: $(field "$single" segments) primary + $(field "$single" ad_segments) ad, $(field "$single" other_loads) playlists and asset lists; $(field "$single" breaks) breaks played, $(field "$single" warnings) warnings"
echo "$players players: RSS $(mb "$(field "$memory" rss_base_bytes)") MB before them, $(mb "$(field "$memory" rss_middle_bytes)") MB mid-stream, $(mb "$(field "$memory" rss_end_bytes)") MB at the end, $(mb "$memory_peak") MB peak;" \
    "live heap per player $(awk -v b="$(field "$memory" heap_per_player_middle_bytes)" 'BEGIN { printf "%.0f", b / 1e3 }') kB mid-stream," \
    "$(awk -v b="$(field "$memory" heap_per_player_end_bytes)" 'BEGIN { printf "%.0f", b / 1e3 }') kB at the end;" \
    "the in-memory network's request log $(mb "$(field "$memory" loader_log_bytes)") MB"
echo
awk -v ours="$single_cpu" -v theirs="$ffmpeg_cpu_median" -v goal="$cpu_goal" 'BEGIN {
    printf "one play: %.3f s CPU, %.2f x ffmpeg'"'"'s %.3f s (target < %.1f s: %s)\n", ours, ours / theirs, theirs, goal, ours < goal ? "MET" : "MISSED"
}'
awk -v peak="$memory_peak" -v players="$players" -v goal="$memory_goal" -v ffmpeg_kb="$ffmpeg_rss_max" 'BEGIN {
    printf "%d players: %.1f MB peak RSS, %.2f MB a player, %.3f x one ffmpeg'"'"'s %.1f MB (target < %d MB: %s)\n", players, peak / 1e6, peak / players / 1e6, peak / players / (ffmpeg_kb * 1024), ffmpeg_kb * 1024 / 1e6, goal, peak / 1e6 < goal ? "MET" : "MISSED"
}'
