#!/usr/bin/env python3
"""The Python peer of hls-bench: the same measurements for the PyPI `m3u8` package.

    m3u8_parse.py parse FILE MIN_SECONDS MIN_ITERATIONS
    m3u8_parse.py memory FILE

`parse` reads FILE once, decodes it to a str (m3u8.loads takes text), parses it a few times to
warm up, then times each m3u8.loads() call with time.perf_counter_ns until both minimums are
reached. The playlist is dropped after the clock stops, as hls-bench does. The cyclic garbage
collector stays on, as it is for anyone calling m3u8.loads().

`memory` parses once to warm up, then with tracemalloc on reads and parses FILE, drops the text
and collects garbage; what is still traced while the playlist is alive is the model's size.

m3u8.loads() decodes EXT-X-DATERANGE tags as part of the parse: each segment's `dateranges`
holds DateRange objects built from the tag's attribute list (DURATION and PLANNED-DURATION as
floats; dates and X- attributes stay strings). The blackhole below reads them.

Exit status: 64 on bad usage, 1 on a runtime error.
"""

import gc
import statistics
import sys
import time
import tracemalloc

import m3u8

WARM_UP_ITERATIONS = 3
checksum = 0


def consume(playlist):
    """Adds the playlist's counts to `checksum`, so the parse has a visible effect."""
    global checksum
    if playlist.is_variant:
        checksum += len(playlist.playlists) + len(playlist.media) + len(playlist.iframe_playlists)
    else:
        segments = playlist.segments
        checksum += len(segments) + sum(len(segment.dateranges) for segment in segments)


def read_text(path):
    with open(path, "rb") as file:
        data = file.read()
    return len(data), data.decode("utf-8")


def parse(path, minimum_seconds, minimum_iterations):
    byte_count, text = read_text(path)
    for _ in range(WARM_UP_ITERATIONS):
        consume(m3u8.loads(text))
    samples = []
    measured = 0
    minimum_ns = int(minimum_seconds * 1e9)
    while measured < minimum_ns or len(samples) < minimum_iterations:
        start = time.perf_counter_ns()
        playlist = m3u8.loads(text)
        elapsed = time.perf_counter_ns() - start
        consume(playlist)
        del playlist
        samples.append(elapsed)
        measured += elapsed
    median_us = statistics.median(samples) / 1000
    min_us = min(samples) / 1000
    return (
        f"RESULT peer=python-m3u8 file={path.rsplit('/', 1)[-1]} bytes={byte_count} iters={len(samples)} "
        f"median_us={median_us:.1f} min_us={min_us:.1f} mb_s={byte_count / median_us:.2f}"
    )


def memory(path):
    consume(m3u8.loads(read_text(path)[1]))
    gc.collect()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    byte_count, text = read_text(path)
    playlist = m3u8.loads(text)
    del text
    gc.collect()
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    consume(playlist)
    model_bytes = after - before
    return (
        f"RESULT peer=python-m3u8 file={path.rsplit('/', 1)[-1]} bytes={byte_count} model_bytes={model_bytes} "
        f"ratio={model_bytes / byte_count:.2f}"
    )


def main(arguments):
    usage = __doc__.split("\n\n")[1]
    try:
        if len(arguments) == 4 and arguments[0] == "parse":
            try:
                minimum_seconds = float(arguments[2])
                minimum_iterations = int(arguments[3])
            except ValueError:
                print(f"m3u8_parse.py: MIN_SECONDS and MIN_ITERATIONS must be numbers\n{usage}", file=sys.stderr)
                return 64
            print(parse(arguments[1], minimum_seconds, max(1, minimum_iterations)))
        elif len(arguments) == 2 and arguments[0] == "memory":
            print(memory(arguments[1]))
        else:
            print(f"usage:\n{usage}", file=sys.stderr)
            return 64
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"m3u8_parse.py: {error}", file=sys.stderr)
        return 1
    print(f"blackhole checksum={checksum}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
