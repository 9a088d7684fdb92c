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
}
