#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import MediaTime
internal import PlayerEngine
internal import VirtualTime

/// The `player-bench` command line: result lines on stdout, everything else on stderr; exit
/// status 64 on bad usage and 1 on a runtime error (unreadable fixtures, or a play that did not
/// reach the end with every break and segment expected).
enum PlayerBenchCommand {
    /// The help text.
    static let usage = """
        usage: player-bench single [--rounds N] [--trace FILE] [OPTIONS]
               player-bench memory [--players N] [--stagger SECONDS] [OPTIONS]
               player-bench write-stream DIR [--fixtures DIR]

        single        plays the 2-hour VOD with 40 breaks to its end on virtual time, N rounds (default 5),
                      and prints the CPU time (getrusage, user + system) and wall time per play:
                      RESULT peer=interlude-player bench=single rounds=N cpu_median_s=X ...
                      --trace FILE first writes the trace of one play (a JSON line per event, loads
                      included) to FILE, unmeasured
        memory        plays it on N players at once (default 100) on one virtual clock, each starting
                      SECONDS after the previous (default 5), and prints resident memory and live heap
                      with the players mid-stream, at the end and released:
                      RESULT peer=interlude-player bench=memory players=N rss_peak_bytes=B ...
        write-stream  writes the same stream into DIR (playlists and asset lists as files, segments as
                      symbolic links to the fixtures) for a peer to read; prints DIR/main.m3u8

        options:
          --fixtures DIR      the fixture media (default: Fixtures/Media of the checkout this was built from)
          --latency-ms N      time to first byte of every load (default 50)
          --mbps N            throughput of every load in megabits per second (default 20)
          --segments N        primary segments (default 1800: two hours of the 4 s fixture segments)
          -h, --help          this text
        """

    /// `Fixtures/Media` of the checkout this file was compiled in.
    static let defaultFixtures: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Benchmarks/Sources/player-bench/PlayerBenchCommand.swift
        return parts.joined(separator: "/") + "/Fixtures/Media"
    }()

    private struct UsageError: Error {
        var message: String
    }

    /// Runs the command for `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else { return usageError("missing command") }
        if command == "-h" || command == "--help" {
            print(usage)
            return 0
        }
        do {
            var positional: [String] = []
            var options: [String: String] = [:]
            var rest = arguments.dropFirst()
            while let argument = rest.popFirst() {
                if argument == "-h" || argument == "--help" {
                    print(usage)
                    return 0
                }
                if argument.hasPrefix("--") {
                    guard let value = rest.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                    options[String(argument.dropFirst(2))] = value
                } else {
                    positional.append(argument)
                }
            }
            let fixtures = options.removeValue(forKey: "fixtures") ?? defaultFixtures
            let latency = try integer(options.removeValue(forKey: "latency-ms") ?? "50", "--latency-ms", minimum: 0)
            let megabits = try integer(options.removeValue(forKey: "mbps") ?? "20", "--mbps", minimum: 1)
            let segments = try integer(options.removeValue(forKey: "segments") ?? "1800", "--segments", minimum: 1)
            let conditions = MemoryResourceLoader<ManualClock>.Conditions(latency: .milliseconds(latency), bytesPerSecond: megabits * 125_000)
            switch command {
            case "single":
                let rounds = try integer(options.removeValue(forKey: "rounds") ?? "5", "--rounds", minimum: 1)
                let tracePath = options.removeValue(forKey: "trace")
                try checkEmpty(options, positional)
                let stream = try makeStream(fixtures, segments: segments)
                let benchmark = PlayBenchmark(stream: stream, rounds: rounds, conditions: conditions)
                if let tracePath {
                    try MediaFile.write(Array(benchmark.trace().map { $0 + "\n" }.joined().utf8), to: tracePath)
                }
                print(try benchmark.run())
            case "memory":
                let players = try integer(options.removeValue(forKey: "players") ?? "100", "--players", minimum: 1)
                let stagger = try integer(options.removeValue(forKey: "stagger") ?? "5", "--stagger", minimum: 0)
                try checkEmpty(options, positional)
                let stream = try makeStream(fixtures, segments: segments)
                print(try MemoryBenchmark(stream: stream, players: players, stagger: .seconds(stagger), conditions: conditions).run())
            case "write-stream":
                guard positional.count == 1 else { throw UsageError(message: "write-stream takes one directory") }
                try checkEmpty(options, [])
                let stream = try makeStream(fixtures, segments: segments)
                try stream.write(to: positional[0], fixturesDirectory: MediaFile.absolute(fixtures))
                print(MediaFile.absolute(positional[0]) + "/" + BenchmarkStream.playlistPath)
            default:
                throw UsageError(message: "unknown command \(command)")
            }
        } catch let error as UsageError {
            return usageError(error.message)
        } catch {
            printError("player-bench: \(error)")
            return 1
        }
        return 0
    }

    private static func makeStream(_ fixtures: String, segments: Int) throws(any Error) -> BenchmarkStream {
        let media = try FixtureMedia.load(from: fixtures)
        let stream = BenchmarkStream(fixtures: media, segmentCount: segments)
        printError("stream: \(stream.contentSegmentCount) segments, \(stream.contentDuration.decimalString()) s of content, "
            + "\(stream.breaks.count) breaks (\(stream.adSegmentCount) ad segments, \(stream.adDuration.decimalString()) s), "
            + "mid-rolls every \(stream.midRollSpacingSeconds) s, \(stream.textBytes) bytes of playlists")
        return stream
    }

    private static func integer(_ text: String, _ name: String, minimum: Int) throws(UsageError) -> Int {
        guard let value = Int(text), value >= minimum else { throw UsageError(message: "\(name) takes an integer of at least \(minimum)") }
        return value
    }

    private static func checkEmpty(_ options: [String: String], _ positional: [String]) throws(UsageError) {
        if let option = options.keys.sorted().first { throw UsageError(message: "unknown option --\(option)") }
        if !positional.isEmpty { throw UsageError(message: "unexpected arguments: \(positional.joined(separator: " "))") }
    }

    private static func usageError(_ message: String) -> Int32 {
        printError("player-bench: \(message)\n\n\(usage)")
        return 64
    }

    private static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
