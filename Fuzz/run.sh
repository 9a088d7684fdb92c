#!/usr/bin/env bash
# Builds a fuzzer with libFuzzer and AddressSanitizer and runs it.
#
#   Fuzz/run.sh SECONDS [parser|documents]   # for example Fuzz/run.sh 600 (what `make fuzz` runs
#                                            # for each target)
#
# `parser` (the default) fuzzes the HLS playlist parser; `documents` the JSON documents read from
# outside: asset lists and simulation scenarios. The modules are compiled straight from Sources/
# (SwiftPM cannot pass -sanitize=fuzzer to one target), then linked into Fuzz/.build/<target>-fuzzer.
# The corpus grows in Fuzz/corpus-run/ (parser) or Fuzz/corpus-documents/ across runs; the parser's
# is seeded from the example playlists, the test corpus and the committed regression inputs, the
# documents' from Fuzz/documents/ and the example scenarios. Crashes, timeouts and out-of-memory
# inputs land in Fuzz/artifacts/. Exits 0 when the run found nothing, non-zero when it found
# something.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || ! "$1" =~ ^[0-9]+$ || ! "${2:-parser}" =~ ^(parser|documents)$ ]]; then
    echo "usage: Fuzz/run.sh SECONDS [parser|documents]" >&2
    exit 64
fi
seconds=$1
target=${2:-parser}

cd "$(dirname "$0")/.."
# libFuzzer reports crashes itself (the Swift runtime's backtracer, under ASan, trips over its own
# memory reads and buries the report).
export SWIFT_BACKTRACE=enable=no
build=Fuzz/.build
mkdir -p "$build" Fuzz/corpus-run Fuzz/corpus-documents Fuzz/artifacts

# The package's settings (Package.swift: strictSettings), so the fuzzer compiles the same language.
flags=(
    -sanitize=fuzzer,address -parse-as-library -O -wmo -swift-version 6 -package-name Interlude
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
shopt -s nullglob

if [[ $target == documents ]]; then
    module HLSInterstitials Sources/HLSInterstitials/*.swift
    # The scenario format needs PeerID (GroupWire, which needs only MediaTime) and LinkConditions
    # (compiled alone as GroupPlaybackTesting), which keeps the player, the coordinator and
    # libwebsockets out of the fuzzer.
    module GroupWire Sources/GroupWire/*.swift Sources/GroupWire/Codec/*.swift
    module GroupPlaybackTesting Sources/GroupPlaybackTesting/LinkConditions.swift
    module GroupSimulation Sources/GroupSimulation/SimulationScenario.swift Sources/GroupSimulation/SimulationScenario+Validation.swift
    echo "fuzz: linking $build/documents-fuzzer" >&2
    swiftc "${flags[@]}" -module-name DocumentFuzzer Fuzz/DocumentFuzzer.swift \
        -lGroupSimulation -lGroupPlaybackTesting -lGroupWire -lHLSInterstitials -lHLSPlaylist -lMediaTime -o "$build/documents-fuzzer"
    seeds=(Fuzz/documents/* Examples/Scenarios/*.json)
    cp -n "${seeds[@]}" Fuzz/corpus-documents/
    echo "fuzz: ${#seeds[@]} seed files, $(find Fuzz/corpus-documents -type f | wc -l) inputs in Fuzz/corpus-documents" >&2
    exec "$build/documents-fuzzer" \
        -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
        -dict=Fuzz/json.dict -artifact_prefix=Fuzz/artifacts/ -print_final_stats=1 \
        Fuzz/corpus-documents
fi

echo "fuzz: linking $build/parser-fuzzer" >&2
swiftc "${flags[@]}" -module-name ParserFuzzer Fuzz/ParserFuzzer.swift -lHLSPlaylist -lMediaTime \
    -o "$build/parser-fuzzer"

seeds=(Examples/*.m3u8 Tests/HLSPlaylistTests/Corpus/*.m3u8 Fuzz/regressions/*)
if ((${#seeds[@]} > 0)); then
    cp -n "${seeds[@]}" Fuzz/corpus-run/
fi
echo "fuzz: ${#seeds[@]} seed files, $(find Fuzz/corpus-run -type f | wc -l) inputs in Fuzz/corpus-run" >&2

exec "$build/parser-fuzzer" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
    -dict=Fuzz/hls.dict -artifact_prefix=Fuzz/artifacts/ -print_final_stats=1 \
    Fuzz/corpus-run
