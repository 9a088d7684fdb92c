import Foundation
import Testing

/// Text from a playlist reaches the terminal escaped, so a file cannot retitle, clear or recolour it.
@Suite("interlude escapes control characters from its input")
struct TerminalEscapingTests {
    private static func withFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-escape-\(UUID()).m3u8")
        try Data(text.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        return try await body(path.path)
    }

    @Test("a parse error prints its excerpt with control characters escaped and the caret under the column")
    func parseErrorExcerpt() async throws {
        let result = try await Self.withFile("#EXTM3U\u{1B}]0;pwned\u{7}\u{1B}[2J\n") { await run("format", $0) }
        #expect(result.code == 1)
        #expect(!result.err.contains("\u{1B}"), "no raw ESC reaches the terminal")
        #expect(!result.err.contains("\u{7}"))
        #expect(result.err.contains("\\x1B]0;pwned\\x07\\x1B[2J"))

        let late = try await Self.withFile("#EXTM3U\n#EXT-X-TARGETDURATION:\u{1B}[31m6\n") { await run("format", $0) }
        #expect(late.code == 1)
        #expect(!late.err.contains("\u{1B}"))
        let lines = late.err.split(separator: "\n", omittingEmptySubsequences: false)
        let excerpt = try #require(lines.firstIndex { $0.contains("#EXT-X-TARGETDURATION:") })
        #expect(lines[excerpt] == "    #EXT-X-TARGETDURATION:\\x1B[31m6")
        let caret = try #require(lines[excerpt + 1].firstIndex(of: "^"))
        let column = lines[excerpt + 1].distance(from: lines[excerpt + 1].startIndex, to: caret)
        let marked = lines[excerpt].dropFirst(column)
        #expect(marked.first == "\\" || marked.first == "6" || marked.first == ":", "the caret points into the escaped text: \(marked)")
    }

    @Test("inspect's tables show a playlist's control characters as escapes")
    func inspectTables() async throws {
        let playlist = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nlow\u{1B}]0;pwned\u{7}.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2000\nhigh\u{9B}31m.m3u8\n"
        let result = try await Self.withFile(playlist) { await run("inspect", $0) }
        #expect(result.code == 0, "\(result.err)")
        #expect(!result.out.contains("\u{1B}"))
        #expect(!result.out.contains("\u{9B}"))
        #expect(result.out.contains("low\\x1B]0;pwned\\x07.m3u8"))
        #expect(result.out.contains("high\\u{9B}31m.m3u8"))
    }

    @Test("validate's diagnostics show a playlist's control characters as escapes")
    func validateDiagnostics() async throws {
        let result = try await Self.withFile("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:bad\u{1B}[2J,\nsegment.ts\n") { await run("validate", $0) }
        #expect(!result.out.contains("\u{1B}"))
        #expect(!result.err.contains("\u{1B}"))
    }
}

extension TerminalEscapingTests {
    @Test("timeline's tables show an interstitial's control characters as escapes")
    func timelineTables() async throws {
        let source = try String(contentsOfFile: example("vod-with-interstitials.m3u8"), encoding: .utf8)
        let hostile = source.replacingOccurrences(of: "ID=\"midroll-1\"", with: "ID=\"mid\u{1B}]0;pwned\u{7}\"")
        #expect(hostile != source)
        let result = try await Self.withFile(hostile) { await run("timeline", $0) }
        #expect(result.code == 0, "\(result.err)")
        #expect(!result.out.contains("\u{1B}"))
        #expect(!result.err.contains("\u{1B}"))
        #expect(result.out.contains("mid\\x1B]0;pwned\\x07"))
    }
}

extension TerminalEscapingTests {
    @Test("play's failure message shows a segment URI's control characters as escapes")
    func playFailure() async throws {
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\nseg\u{1B}[2J.ts\n#EXT-X-ENDLIST\n"
        let result = try await Self.withFile(playlist) { await run("play", "--virtual", $0) }
        #expect(result.code == 1)
        #expect(!result.out.contains("\u{1B}"))
        #expect(!result.err.contains("\u{1B}"))
        #expect(result.err.contains("seg\\x1B[2J.ts"))
    }
}
