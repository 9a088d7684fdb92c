#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import HLSPlaylist

/// The `hls-bench` command line: result lines on stdout, everything else on stderr; exit status 64
/// on bad usage and 1 on a runtime error.
enum BenchmarkCommand {
    /// The help text.
    static let usage = """
        usage: hls-bench generate DIR [--seed N]
               hls-bench parse FILE MIN_SECONDS MIN_ITERATIONS
               hls-bench parse-access FILE MIN_SECONDS MIN_ITERATIONS
               hls-bench lines FILE MIN_SECONDS MIN_ITERATIONS
               hls-bench memory FILE
               hls-bench timeline FILE MIN_SECONDS MIN_ITERATIONS

        generate  writes the benchmark playlists into DIR (byte-identical for a given seed, 1234 by default)
        parse     times strict parses of FILE from memory and prints
                  RESULT peer=interlude file=NAME bytes=N iters=K median_us=X min_us=Y mb_s=Z
        parse-access  times the same parses, each followed by reading every value of every tag:
                  RESULT peer=interlude-parse+access file=NAME … (the same fields)
        lines     times splitting FILE into lines with memchr, the floor under any parse:
                  RESULT peer=line-split file=NAME … (the same fields)
        memory    measures the heap a parsed FILE keeps alive and prints
                  RESULT peer=interlude file=NAME bytes=N model_bytes=M ratio=R
        timeline  times building the interstitial events, schedule and integrated-timeline snapshot of
                  a parsed FILE, and the rebuild after a live reload that adds one segment and one event:
                  RESULT peer=interlude file=NAME events=E segments=S build_median_us=X build_min_us=Y reload_median_us=Z reload_min_us=W
        """

    /// Runs the command for `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        do {
            switch arguments.first {
            case "generate" where arguments.count == 2:
                try generate(into: arguments[1], seed: 1234)
            case "generate" where arguments.count == 4 && arguments[2] == "--seed":
                guard let seed = UInt64(arguments[3]) else { return usageError("--seed takes a non-negative integer") }
                try generate(into: arguments[1], seed: seed)
            case "parse" where arguments.count == 4, "parse-access" where arguments.count == 4, "lines" where arguments.count == 4:
                guard let minimumSeconds = Double(arguments[2]), minimumSeconds >= 0 else {
                    return usageError("MIN_SECONDS must be a non-negative number")
                }
                guard let minimumIterations = Int(arguments[3]), minimumIterations >= 1 else {
                    return usageError("MIN_ITERATIONS must be a positive integer")
                }
                let benchmark = ParseBenchmark(
                    fileName: PlaylistFile.name(of: arguments[1]), bytes: try PlaylistFile.read(arguments[1]),
                    minimumSeconds: minimumSeconds, minimumIterations: minimumIterations,
                    work: arguments[0] == "parse" ? .parse : arguments[0] == "lines" ? .lineSplit : .parseAndAccess
                )
                print(try benchmark.run())
                printError("blackhole checksum=\(Blackhole.checksum)")
            case "timeline" where arguments.count == 4:
                guard let minimumSeconds = Double(arguments[2]), minimumSeconds >= 0,
                    let minimumIterations = Int(arguments[3]), minimumIterations >= 1
                else { return usageError("MIN_SECONDS must be a non-negative number and MIN_ITERATIONS a positive integer") }
                let benchmark = TimelineBenchmark(
                    fileName: PlaylistFile.name(of: arguments[1]), bytes: try PlaylistFile.read(arguments[1]),
                    minimumSeconds: minimumSeconds, minimumIterations: minimumIterations
                )
                print(try benchmark.run())
                printError("blackhole checksum=\(Blackhole.checksum)")
            case "memory" where arguments.count == 2:
                print(try MemoryBenchmark(path: arguments[1]).run())
                printError("blackhole checksum=\(Blackhole.checksum)")
            case "-h", "--help":
                print(usage)
                return 0
            default:
                return usageError(arguments.isEmpty ? "missing command" : "unexpected arguments: \(arguments.joined(separator: " "))")
            }
        } catch let error as PlaylistParseError {
            printError("hls-bench: \(arguments.count > 1 ? arguments[1] : ""): \(error)")
            return 1
        } catch {
            printError("hls-bench: \(error)")
            return 1
        }
        return 0
    }

    private static func generate(into directory: String, seed: UInt64) throws(PlaylistFile.Failure) {
        try PlaylistFile.makeDirectory(directory)
        for file in PlaylistGenerator(seed: seed).makeFiles() {
            let path = directory.hasSuffix("/") ? directory + file.name : directory + "/" + file.name
            try PlaylistFile.write(file.text, to: path)
            print("\(path) \(file.text.utf8.count) bytes")
        }
    }

    private static func usageError(_ message: String) -> Int32 {
        printError("hls-bench: \(message)\n\n\(usage)")
        return 64
    }

    private static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
