internal import HLSPlaylist

/// Times `PlaylistParser.parse` (strict mode) on one file held in memory.
///
/// The file is read once; a warm-up of a few parses fills caches and the allocator's free lists;
/// then each parse is timed on its own with `ContinuousClock` until both `minimumSeconds` of
/// timed parsing and `minimumIterations` parses are reached. The parsed playlist is dropped after
/// the clock stops, so tearing the model down is not counted (the Python peer does the same).
///
///     RESULT peer=interlude file=live-24h-dvr.m3u8 bytes=4554020 iters=34 median_us=25725.5 min_us=23340.0 mb_s=177.02
struct ParseBenchmark {
    /// The file's name, as the result line shows it.
    var fileName: String
    /// The playlist's bytes.
    var bytes: [UInt8]
    /// Keep timing until this much time has been measured…
    var minimumSeconds: Double
    /// …and at least this many parses.
    var minimumIterations: Int

    /// Parses that run before timing starts.
    static let warmUpIterations = 3

    /// Runs the benchmark and returns its result line.
    ///
    /// - Throws: ``PlaylistParseError`` when the file is not a valid playlist in strict mode.
    func run() throws(PlaylistParseError) -> String {
        let options = ParseOptions(mode: .strict)
        for _ in 0..<Self.warmUpIterations {
            Blackhole.consume(try PlaylistParser.parse(bytes, options: options))
        }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var measured = Duration.zero
        let minimum = Duration.nanoseconds(Int64(minimumSeconds * 1e9))
        while measured < minimum || samples.count < minimumIterations {
            let start = clock.now
            let result = try PlaylistParser.parse(bytes, options: options)
            let elapsed = clock.now - start
            Blackhole.consume(result)
            samples.append(elapsed)
            measured += elapsed
        }
        samples.sort()
        let median = Self.microseconds(samples.count % 2 == 1
            ? samples[samples.count / 2]
            : (samples[samples.count / 2 - 1] + samples[samples.count / 2]) / 2)
        let fastest = Self.microseconds(samples[0])
        let megabytesPerSecond = Double(bytes.count) / median  // bytes per µs = MB (10⁶ bytes) per s
        return "RESULT peer=interlude file=\(fileName) bytes=\(bytes.count) iters=\(samples.count) "
            + "median_us=\(Self.format(median, decimals: 1)) min_us=\(Self.format(fastest, decimals: 1)) "
            + "mb_s=\(Self.format(megabytesPerSecond, decimals: 2))"
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
