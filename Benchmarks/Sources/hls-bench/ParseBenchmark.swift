internal import HLSPlaylist

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Times `PlaylistParser.parse` (strict mode) on one file held in memory, alone or followed by a
/// walk that reads every value of every tag, beside the cost of splitting the same bytes into lines.
///
/// The file is read once; a warm-up of a few runs fills caches and the allocator's free lists; then
/// each run is timed on its own with `ContinuousClock` until both `minimumSeconds` of timed work
/// and `minimumIterations` runs are reached. The parsed playlist is dropped after the clock stops,
/// so tearing the model down is not counted (the Python peer does the same).
///
///     RESULT peer=interlude file=live-24h-dvr.m3u8 bytes=4554020 iters=34 median_us=25725.5 min_us=23340.0 mb_s=177.02
struct ParseBenchmark {
    /// What each timed run does.
    enum Work: String {
        /// `PlaylistParser.parse`: what `parse` times (`peer=interlude`).
        case parse = "interlude"
        /// The parse, then ``PlaylistWalk/touchEverything(_:)``: every value a program could read,
        /// so that nothing decoded on first access escapes the clock (`peer=interlude-parse+access`).
        case parseAndAccess = "interlude-parse+access"
        /// `memchr` for every line end, counting the lines and their bytes: the floor any parser
        /// that looks at every line stands on (`peer=line-split`).
        case lineSplit = "line-split"
    }

    /// The file's name, as the result line shows it.
    var fileName: String
    /// The playlist's bytes.
    var bytes: [UInt8]
    /// Keep timing until this much time has been measured…
    var minimumSeconds: Double
    /// …and at least this many runs.
    var minimumIterations: Int
    /// What is timed.
    var work: Work = .parse

    /// Runs that happen before timing starts.
    static let warmUpIterations = 3

    /// Runs the benchmark and returns its result line.
    ///
    /// - Throws: ``PlaylistParseError`` when the file is not a valid playlist in strict mode.
    func run() throws(PlaylistParseError) -> String {
        for _ in 0..<Self.warmUpIterations { try once() }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var measured = Duration.zero
        let minimum = Duration.nanoseconds(Int64(minimumSeconds * 1e9))
        while measured < minimum || samples.count < minimumIterations {
            let elapsed = try measure(clock)
            samples.append(elapsed)
            measured += elapsed
        }
        samples.sort()
        let median = Self.microseconds(samples.count % 2 == 1
            ? samples[samples.count / 2]
            : (samples[samples.count / 2 - 1] + samples[samples.count / 2]) / 2)
        let fastest = Self.microseconds(samples[0])
        let megabytesPerSecond = Double(bytes.count) / median  // bytes per µs = MB (10⁶ bytes) per s
        return "RESULT peer=\(work.rawValue) file=\(fileName) bytes=\(bytes.count) iters=\(samples.count) "
            + "median_us=\(Self.format(median, decimals: 1)) min_us=\(Self.format(fastest, decimals: 1)) "
            + "mb_s=\(Self.format(megabytesPerSecond, decimals: 2))"
    }

    /// One untimed run (warm-up).
    private func once() throws(PlaylistParseError) {
        _ = try measure(ContinuousClock())
    }

    /// One run of ``work``, timed; whatever it made is released after the clock stops.
    private func measure(_ clock: ContinuousClock) throws(PlaylistParseError) -> Duration {
        let options = ParseOptions(mode: .strict)
        switch work {
        case .parse:
            let start = clock.now
            let result = try PlaylistParser.parse(bytes, options: options)
            let elapsed = clock.now - start
            Blackhole.consume(result)
            return elapsed
        case .parseAndAccess:
            let start = clock.now
            let result = try PlaylistParser.parse(bytes, options: options)
            let touched = PlaylistWalk.touchEverything(result.playlist)
            let elapsed = clock.now - start
            Blackhole.consume(result)
            Blackhole.checksum &+= touched
            return elapsed
        case .lineSplit:
            let start = clock.now
            let (lines, lineBytes) = Self.splitLines(bytes)
            let elapsed = clock.now - start
            Blackhole.checksum &+= lines &+ lineBytes
            return elapsed
        }
    }

    /// The number of lines and the bytes in them (terminators excluded), found with `memchr`.
    @inline(never)
    static func splitLines(_ bytes: [UInt8]) -> (lines: Int, bytes: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return (0, 0) }
            var lines = 0
            var lineBytes = 0
            var position = 0
            while position < buffer.count {
                let newline = memchr(base + position, 0x0A, buffer.count - position).map {
                    base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                } ?? buffer.count
                lines += 1
                lineBytes += newline - position
                position = newline + 1
            }
            return (lines, lineBytes)
        }
    }

    /// `duration` in microseconds.
    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    /// `value` with exactly `decimals` digits after the point (no Foundation needed).
    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        guard decimals > 0 else { return String(whole) }
        return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }
}
