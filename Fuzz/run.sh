#!/usr/bin/env bash
# Builds the HLS playlist parser fuzzer with libFuzzer and AddressSanitizer and runs it.
#
#   Fuzz/run.sh SECONDS      # for example Fuzz/run.sh 600 (what `make fuzz` runs)
#
# MediaTime and HLSPlaylist are compiled as modules straight from Sources/ (SwiftPM cannot pass
# -sanitize=fuzzer to one target), then linked into Fuzz/.build/parser-fuzzer. The corpus grows in
# Fuzz/corpus-run/ across runs; it is seeded from the example playlists, the test corpus and the
# committed regression inputs. Crashes, timeouts and out-of-memory inputs land in Fuzz/artifacts/.
# Exits 0 when the run found nothing, non-zero when it found something.
set -euo pipefail

if [[ $# -ne 1 || ! "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: Fuzz/run.sh SECONDS" >&2
    exit 64
fi
seconds=$1

cd "$(dirname "$0")/.."
# libFuzzer reports crashes itself (the Swift runtime's backtracer, under ASan, trips over its own
# memory reads and buries the report).
export SWIFT_BACKTRACE=enable=no
build=Fuzz/.build
mkdir -p "$build" Fuzz/corpus-run Fuzz/artifacts

# The package's settings (Package.swift: strictSettings), so the fuzzer compiles the same language.
flags=(
    -sanitize=fuzzer,address -parse-as-library -O -wmo -swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InferIsolatedConformances
    -enable-upcoming-feature NonisolatedNonsendingByDefault
    -I "$build" -L "$build"
)

# module NAME SOURCES...: a static library and its .swiftmodule in Fuzz/.build.
module() {
    local name=$1
    shift
    echo "fuzz: compiling $name" >&2
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$build/$name.swiftmodule" \
        -emit-library -static -o "$build/lib$name.a" "$@"
}

module MediaTime Sources/MediaTime/*.swift
module HLSPlaylist Sources/HLSPlaylist/*.swift Sources/HLSPlaylist/Tags/*.swift
echo "fuzz: linking $build/parser-fuzzer" >&2
swiftc "${flags[@]}" -module-name ParserFuzzer Fuzz/ParserFuzzer.swift -lHLSPlaylist -lMediaTime \
    -o "$build/parser-fuzzer"

shopt -s nullglob
seeds=(Examples/*.m3u8 Tests/HLSPlaylistTests/Corpus/*.m3u8 Fuzz/regressions/*)
if ((${#seeds[@]} > 0)); then
    cp -n "${seeds[@]}" Fuzz/corpus-run/
fi
echo "fuzz: ${#seeds[@]} seed files, $(find Fuzz/corpus-run -type f | wc -l) inputs in Fuzz/corpus-run" >&2

exec "$build/parser-fuzzer" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
    -dict=Fuzz/hls.dict -artifact_prefix=Fuzz/artifacts/ -print_final_stats=1 \
    Fuzz/corpus-run
