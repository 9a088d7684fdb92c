#!/usr/bin/env bash
# Parse throughput and model size of Interlude's playlist parser next to the PyPI m3u8 package,
# measured in the same run on the same generated playlists, with two figures of Interlude's beside
# them: the parse followed by reading every value, and splitting the file into lines (the floor).
#
#   Benchmarks/run-parse.sh                      # about two minutes on 2 cores
#   MIN_SECONDS=10 MIN_ITERATIONS=20 Benchmarks/run-parse.sh
#
# Progress and the raw RESULT lines go to stderr; the table goes to stdout.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
min_seconds="${MIN_SECONDS:-5}"
min_iterations="${MIN_ITERATIONS:-10}"
m3u8_version="6.0.0"

say() { printf '%s\n' "$*" >&2; }

say "== building hls-bench (release)"
swift build -c release --package-path "$benchmarks" >&2
hls_bench="$(swift build -c release --package-path "$benchmarks" --show-bin-path)/hls-bench"

say "== python peer: m3u8 $m3u8_version in $benchmarks/.venv"
python="$benchmarks/.venv/bin/python"
if [[ ! -x "$python" ]]; then
    if ! python3 -m venv "$benchmarks/.venv" >&2; then
        say "python3 -m venv failed; on Debian, apt-get install python3-venv"
        exit 1
    fi
fi
if ! "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('m3u8') != '$m3u8_version')" 2>/dev/null; then
    "$python" -m pip install --quiet --disable-pip-version-check "m3u8==$m3u8_version" >&2
fi

say "== generating playlists into $benchmarks/data"
"$hls_bench" generate "$benchmarks/data" >&2

# field LINE KEY: the value of KEY=value in a RESULT line.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

run() {
    local line
    line="$("$@")"
    say "$line"
    printf '%s\n' "$line"
}

say "== measuring (at least ${min_seconds}s and ${min_iterations} runs per file and figure)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
say "   load average before: $load_before"
rows=()
for file in vod-2h-interstitials.m3u8 live-24h-dvr.m3u8 multivariant-12.m3u8; do
    path="$benchmarks/data/$file"
    lines="$(run "$hls_bench" lines "$path" "$min_seconds" "$min_iterations")"
    ours="$(run "$hls_bench" parse "$path" "$min_seconds" "$min_iterations")"
    accessed="$(run "$hls_bench" parse-access "$path" "$min_seconds" "$min_iterations")"
    theirs="$(run "$python" "$benchmarks/peers/m3u8_parse.py" parse "$path" "$min_seconds" "$min_iterations")"
    our_memory="$(run "$hls_bench" memory "$path")"
    their_memory="$(run "$python" "$benchmarks/peers/m3u8_parse.py" memory "$path")"
    rows+=("$file $(field "$ours" bytes) $(field "$lines" mb_s) $(field "$ours" mb_s) $(field "$accessed" mb_s) $(field "$theirs" mb_s) $(field "$our_memory" ratio) $(field "$their_memory" ratio)")
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
say "   load average after: $load_after"

echo
echo "Parse throughput (median, MB = 10^6 bytes) and model size relative to the file; strict Interlude parse vs m3u8.loads"
echo "$(swift --version 2>/dev/null | head -n 1) | Python $("$python" -c 'import platform; print(platform.python_version())') m3u8 $m3u8_version | $(nproc) cores | load average $load_before before, $load_after after"
echo
printf '%-26s %10s %11s %15s %9s %14s %11s %9s %15s %11s\n' "file" "size" "lines MB/s" "interlude MB/s" "of lines" \
    "+access MB/s" "m3u8 MB/s" "speed-up" "interlude mem" "m3u8 mem"
for row in "${rows[@]}"; do
    read -r file bytes lines ours accessed theirs our_ratio their_ratio <<<"$row"
    awk -v file="$file" -v bytes="$bytes" -v lines="$lines" -v ours="$ours" -v accessed="$accessed" -v theirs="$theirs" \
        -v our_ratio="$our_ratio" -v their_ratio="$their_ratio" 'BEGIN {
        size = bytes >= 1e6 ? sprintf("%.2f MB", bytes / 1e6) : sprintf("%.1f kB", bytes / 1e3)
        printf "%-26s %10s %11.1f %15.1f %8.1f%% %14.1f %11.2f %8.1fx %14.2fx %10.2fx\n", file, size, lines, ours, 100 * ours / lines,
            accessed, theirs, ours / theirs, our_ratio, their_ratio
    }'
done
echo
echo "lines = splitting the file into lines with memchr; of lines = interlude / lines; +access = the parse followed by"
echo "reading every value of every tag; speed-up = interlude MB/s / m3u8 MB/s; mem = bytes the parsed playlist keeps alive / file size"
