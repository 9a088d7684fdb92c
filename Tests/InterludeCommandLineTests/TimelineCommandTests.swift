import Foundation
import InterludeCommandLine
import Testing

@Suite("interlude timeline")
struct TimelineCommandTests {
    @Test("timeline reports a malformed DATERANGE it dropped and one it repaired, each with its line, as inspect and validate do")
    func reportsDroppedAndRepairedDateRanges() async throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z
            #EXT-X-DATERANGE:ID="kept",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:06Z",DURATION=6,X-ASSET-URI="https://a/1.m3u8",X-TIMELINE-OCCUPIES=RANGE
            #EXT-X-DATERANGE:ID=dropped,CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:12Z",X-ASSET-URI="https://a/2.m3u8"
            #EXTINF:6,
            a.ts
            #EXTINF:6,
            b.ts
            #EXTINF:6,
            c.ts
            #EXT-X-ENDLIST

            """
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-timeline-\(UUID()).m3u8")
        try text.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(["timeline", path.path], io: io)
        #expect(code == 0, "\(io.capturedError)")
        let warnings = io.capturedError.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.contains { $0.contains("line 4") && $0.contains("X-TIMELINE-OCCUPIES") }, "\(io.capturedError)")
        #expect(warnings.contains { $0.contains("line 5") && $0.contains("ID") }, "\(io.capturedError)")
        #expect(io.capturedOutput.contains("kept"), "the repaired break is on the timeline")
        #expect(warnings.allSatisfy { !$0.contains("error:") }, "a warning does not call itself an error: \(warnings)")
        #expect(warnings.contains { $0.contains("line 4") && $0.hasSuffix("[parse.malformed-attribute]; read tolerantly") }, "\(warnings)")

        // What the player and timeline read past, validate reports as an error with its rule id.
        let validation = CommandIO.capturing()
        let validateCode = await InterludeCommand.run(["validate", path.path], io: validation)
        #expect(validateCode == 2)
        let lines = (validation.capturedOutput + validation.capturedError).split(separator: "\n")
        #expect(lines.contains { $0.contains(":4:") && $0.contains("error:") && $0.contains("X-TIMELINE-OCCUPIES") && $0.hasSuffix("[parse.malformed-attribute]") },
                "\(validation.capturedOutput)\(validation.capturedError)")
    }

    /// The lines of `interlude timeline --width WIDTH [--at AT]` under "Transport bar", for `text`.
    private func transportBar(_ text: String, width: Int, at: String? = nil) async throws -> [Substring] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-timeline-\(UUID()).m3u8")
        try text.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let arguments = ["timeline", "--width", String(width)] + (at.map { ["--at", $0] } ?? []) + [path.path]
        let io = CommandIO.capturing()
        #expect(await InterludeCommand.run(arguments, io: io) == 0, "\(io.capturedError)")
        let lines = io.capturedOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "Transport bar"), "\(io.capturedOutput)")
        return Array(lines[(heading + 1)...].prefix(2))
    }

    @Test("the text bar is an overview: = primary, o a point break, # a range break, a break that supplements primary as primary")
    func textBar() async throws {
        let text = """
            #EXTM3U
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-TARGETDURATION:10
            #EXT-X-DATERANGE:ID="promo",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:40.000Z",DURATION=4,X-ASSET-URI="c.m3u8",X-TIMELINE-OCCUPIES="RANGE",X-TIMELINE-STYLE="PRIMARY"
            #EXT-X-DATERANGE:ID="dot",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",DURATION=5,X-ASSET-URI="a.m3u8",X-RESUME-OFFSET=0
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:20.000Z",DURATION=10,X-ASSET-URI="b.m3u8",X-TIMELINE-OCCUPIES="RANGE"
            """ + "\n" + (0..<6).map { "#EXTINF:10.0,\ns\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        // 60 s over 30 columns: two seconds a column; the caret under 25.5 s, inside "ad".
        #expect(try await transportBar(text, width: 30, at: "25.5") == ["  [=====o====#####===============]", "               ^ 0:25 / 1:00"])
    }

    @Test("a live window that a break covering its start puts before zero: the caret's time reads -0:10, with no end")
    func textBarBeforeZero() async throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:500
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:01:00.000Z
            #EXT-X-DATERANGE:ID="covering",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:50.000Z",X-ASSET-URI="c.m3u8",DURATION=20,X-TIMELINE-OCCUPIES="RANGE"

            """ + (0..<5).map { "#EXTINF:6,\ns\($0).ts\n" }.joined()
        // The break runs -10..<10 and primary 10..<30: 40 s known over 10 columns.
        #expect(try await transportBar(text, width: 10) == ["  [#####=====]", "   ^ -0:10 (live)"])
    }
}
