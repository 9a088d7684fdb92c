import HLSPlaylist
import Testing

/// RFC 8216bis §4.1: playlists are UTF-8 without control characters; `parse.invalid-text` reports
/// every line that breaks it (issue 12, item 5).
@Suite("Validator: text that is not what it claims")
struct PlaylistValidatorTextTests {
    private static func findings(_ bytes: [UInt8]) -> [PlaylistDiagnostic] {
        PlaylistValidator.validate(bytes).filter { $0.ruleID == "parse.invalid-text" }
    }

    @Test("invalid UTF-8, NUL, ESC and other control characters in URIs, titles and IDs are reported on their lines")
    func controlCharactersAndInvalidUTF8() {
        var bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z\n".utf8)
        bytes += Array("#EXT-X-DATERANGE:ID=\"a".utf8) + [0x1B] + Array("[2J\",START-DATE=\"2026-11-30T05:00:00Z\"\n".utf8)  // line 4: ESC in an ID
        bytes += Array("#EXTINF:6,title".utf8) + [0xFF] + Array("\n".utf8)  // line 5: invalid UTF-8 in a title
        bytes += Array("seg".utf8) + [0x00] + Array(".ts\n".utf8)  // line 6: NUL in a URI
        bytes += Array("#EXTINF:6,".utf8) + [0xC2, 0x85] + Array("\n".utf8)  // line 7: U+0085, a C1 control
        bytes += Array("b".utf8) + [0x07] + Array(".ts\n#EXT-X-ENDLIST\n".utf8)  // line 8: BEL in a URI
        let found = Self.findings(bytes)
        #expect(found.map(\.line) == [4, 5, 6, 7, 8], "\(found)")
        #expect(found.allSatisfy { $0.severity == .error })
        #expect(found.first?.message.contains("U+001B (ESC)") == true, "\(found)")
        #expect(found.first?.column == 23)
        #expect(found.dropFirst().first?.message.contains("invalid UTF-8") == true)
        #expect(found.dropFirst(2).first?.message.contains("U+0000 (NUL)") == true)
        #expect(found.dropFirst(2).first?.message.contains("a URI line") == true)
    }

    @Test("UTF-8 text, CRLF line ends and the tab-delimited list of EXT-X-SKIP are not invalid text")
    func validTextIsClean() {
        let text = "#EXTM3U\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-VERSION:9\r\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36\r\n"
            + "#EXT-X-MEDIA-SEQUENCE:10\r\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES=\"a\tb\"\r\n"
            + "#EXTINF:6,Café — 東京 🎬\r\nseg.ts\r\n"
        #expect(Self.findings(Array(text.utf8)).isEmpty)
    }
}
