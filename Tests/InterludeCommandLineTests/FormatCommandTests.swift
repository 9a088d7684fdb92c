import Foundation
import InterludeCommandLine
import Testing

@Suite("interlude format")
struct FormatCommandTests {
    private static func file(_ bytes: [UInt8]) throws -> URL {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-format-\(UUID()).m3u8")
        try Data(bytes).write(to: path)
        return path
    }

    private static func runBytes(_ arguments: String...) async -> (code: Int32, out: [UInt8], err: String) {
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(arguments, io: io)
        return (code, io.capturedOutputBytes, io.capturedError)
    }

    @Test("format writes a playlist whose title and URI are not valid UTF-8 back byte for byte")
    func invalidUTF8IsWrittenBackVerbatim() async throws {
        var bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,caf".utf8) + [0xE9, 0xFF]
        bytes += Array("\nseg".utf8) + [0xC3, 0x28] + Array(".ts\n#EXT-X-ENDLIST\n".utf8)
        let path = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = await Self.runBytes("format", path.path)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == bytes, "\(result.out.count) bytes written for \(bytes.count)")
    }

    @Test("format --lenient writes a malformed playlist back byte for byte and warns about each problem with its line")
    func lenientWritesBackVerbatim() async throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:00Z",X-ASSET-URI="https://a/1.m3u8",X-TIMELINE-OCCUPIES=RANGE, DURATION=15,
            #EXTINF:6,
            seg.ts
            #EXT-X-ENDLIST

            """
        let path = try Self.file(Array(text.utf8))
        defer { try? FileManager.default.removeItem(at: path) }
        let strict = await Self.runBytes("format", path.path)
        #expect(strict.code == 1, "the strict parse rejects it")
        let lenient = await Self.runBytes("format", "--lenient", path.path)
        #expect(lenient.code == 0, "\(lenient.err)")
        #expect(lenient.out == Array(text.utf8))
        #expect(lenient.err.contains("warning: line 4"), "\(lenient.err)")
    }
}
