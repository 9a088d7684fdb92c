#!/usr/bin/env bash
# Switch timing on real playback: `interlude origin` (the root's release build, its embedded
# configuration) serves charlie's VOD of `movie` (breaks at 40 s and 80 s, a pod of a 10 s and a
# 20 s ad at each); interlude-video plays it with every break in its measuring mode (fakesinks
# that log each rendered buffer) and prints, per break, the first ad frame and the first frame
# after the break against the schedule and the A/V offset; then gst-play-1.0 plays the same
# primary stream (no breaks: the baseline for start-up time and CPU). One run each.
#
#     make release && make video && Video/run-switch-timing.sh [SECONDS_OF_GST_PLAY]
#
# Beside Video/ rather than in Benchmarks/: it needs the Video package's product and GStreamer,
# which the Benchmarks package (built by `make bench` on any machine) does not.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
baseline_seconds="${1:-30}"
origin_bin="$root/.build/release/interlude"
video_bin=""
for candidate in "$root/Video/.build/release/interlude-video" "$root/Video/.build/debug/interlude-video"; do
    if [[ -x "$candidate" ]]; then video_bin="$candidate"; break; fi
done
[[ -x "$origin_bin" ]] || { echo "run-switch-timing: no $origin_bin: run 'make release'" >&2; exit 1; }
[[ -n "$video_bin" ]] || { echo "run-switch-timing: no interlude-video: run 'make video'" >&2; exit 1; }
command -v gst-play-1.0 >/dev/null || { echo "run-switch-timing: no gst-play-1.0: run 'scripts/bootstrap --video'" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$origin_bin" origin --port "$port" >"$work/origin.out" 2>"$work/origin.err" &
pids+=($!)
url="http://127.0.0.1:$port/vod/movie/charlie/main.m3u8"
for _ in $(seq 100); do curl -sf -o /dev/null "$url" && break; sleep 0.1; done
curl -sf -o /dev/null "$url" || { echo "run-switch-timing: the origin did not answer at $url" >&2; cat "$work/origin.err" >&2; exit 1; }

echo "interlude-video: $video_bin --measure $url"
# The VOD is 120 s plus 60 s of ads; 240 s bounds it.
video_start_ns=$(date +%s%N)
timeout 240 "$video_bin" --measure "$url" >"$work/video.out" 2>"$work/video.err" &
video_pid=$!
pids+=($video_pid)
wait "$video_pid" && video_status=0 || video_status=$?
video_wall=$(( ($(date +%s%N) - video_start_ns) / 1000000 ))
cat "$work/video.out" | grep -v '^timing' || true
[[ "$video_status" == 0 ]] || { echo "interlude-video exited with $video_status:" >&2; cat "$work/video.err" >&2; }

echo "gst-play-1.0 on the same primary stream, $baseline_seconds s"
start_ns=$(date +%s%N)
gst-play-1.0 --no-interactive --videosink="fakesink sync=true" --audiosink="fakesink sync=true" "$url" >"$work/gst.out" 2>&1 &
gst_pid=$!
pids+=($gst_pid)
# Start-up: until its position first reads past zero (gst-play prints it on a line it rewrites).
startup_ms=""
deadline=$((start_ns + 20000000000))
while [[ -z "$startup_ms" && $(date +%s%N) -lt $deadline ]]; do
    if tr '\r' '\n' <"$work/gst.out" | grep -qE '^0:00:00\.[1-9]|^0:00:0[1-9]'; then
        startup_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
    fi
    sleep 0.02
done
sleep "$baseline_seconds"
ticks=$(getconf CLK_TCK)
gst_cpu=$(awk -v t="$ticks" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$gst_pid/stat")
kill "$gst_pid"; wait "$gst_pid" 2>/dev/null || true
gst_wall=$(( ($(date +%s%N) - start_ns) / 1000000 ))

echo
echo "| break | start | first ad frame vs schedule | first frame after vs schedule | resumed at | A/V offset in the ad / after |"
echo "|---|---|---|---|---|---|"
grep '^timing' "$work/video.out" | awk -F'\t' '{ if (NF < 8) printf "| %s | %s | | | | |\n", $2, $3; else printf "| %s | %s | %s ms | %s ms | %s | %s / %s ms |\n", $2, $3, $4, $5, $6, $7, $8 }'
echo
video_startup=$(grep '^startup' "$work/video.out" | cut -f2 | sed 's/ ms.*//')
video_cpu=$(grep '^cpu' "$work/video.out" | cut -f2 | sed 's/ s//')
percent() { awk -v c="$1" -v w="$2" 'BEGIN { if (c == "" || w == 0) print "?"; else printf "%.1f", 100 * c / (w / 1000) }'; }
echo "| player | start-up (launch to first frame) | CPU | wall | CPU per wall second |"
echo "|---|---|---|---|---|"
echo "| $(basename "$(dirname "$video_bin")") interlude-video --measure (primary + every break) | ${video_startup:-?} ms | ${video_cpu:-?} s | $video_wall ms | $(percent "$video_cpu" "$video_wall") % |"
echo "| gst-play-1.0 (primary only, fakesinks) | ${startup_ms:-?} ms (first position past 0) | $gst_cpu s | $gst_wall ms | $(percent "$gst_cpu" "$gst_wall") % |"
exit "$video_status"
