internal import CHeapStatistics
internal import HLSPlaylist

/// Measures how much heap a parsed playlist keeps alive.
///
/// A warm-up parse first, so one-time allocations of the runtime and the parser's tables are not
/// counted; then, with glibc's `mallinfo2()` before and after, the file is read and parsed, the
/// caller's copy of the bytes is dropped, and what is still allocated while the model is alive is
/// the model's size. That includes the source bytes when the model keeps them (Interlude keeps its
/// input for byte-exact round trips), as a program that holds the parsed playlist pays for them.
///
///     RESULT peer=interlude file=vod-2h-interstitials.m3u8 bytes=114013 model_bytes=691136 ratio=6.06
struct MemoryBenchmark {
    /// The playlist's path.
    var path: String

    /// Runs the measurement and returns its result line.
    func run() throws(any Error) -> String {
        let options = ParseOptions(mode: .strict)
        Blackhole.consume(try PlaylistParser.parse(try PlaylistFile.read(path), options: options))

        let before = heap_bytes_in_use()
        let (result, byteCount) = try Self.readAndParse(path, options: options)
        let modelBytes = withExtendedLifetime(result) { Int(heap_bytes_in_use()) - Int(before) }
        Blackhole.consume(result)
        let ratio = Double(modelBytes) / Double(byteCount)
        return "RESULT peer=interlude file=\(PlaylistFile.name(of: path)) bytes=\(byteCount) model_bytes=\(modelBytes) "
            + "ratio=\(ParseBenchmark.format(ratio, decimals: 2))"
    }

    /// Reads and parses in a scope of its own, so the bytes read are released unless the model
    /// holds them.
    @inline(never)
    private static func readAndParse(_ path: String, options: ParseOptions) throws(any Error) -> (ParseResult, Int) {
        let bytes = try PlaylistFile.read(path)
        return (try PlaylistParser.parse(bytes, options: options), bytes.count)
    }
}
