import HLSPlaylist
import Testing

@Suite("Parse errors and lenient diagnostics")
struct ParseErrorTests {
    /// Parses strictly and returns the error, recording an issue when there is none.
    private static func strictError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> PlaylistParseError? {
        #expect(throws: PlaylistParseError.self, sourceLocation: sourceLocation) { try PlaylistParser.parse(text) }
    }

    private static func expectError(
        _ text: String, kind: PlaylistParseError.Kind, line: Int, column: Int, excerpt: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = strictError(text, sourceLocation: sourceLocation) else { return }
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.column == column, sourceLocation: sourceLocation)
        #expect(error.excerpt == excerpt, sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
    }

    // MARK: Strict mode

    @Test("a playlist that does not start with #EXTM3U fails at line 1, column 1, in either mode")
    func missingHeader() throws {
        Self.expectError("#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n", kind: .missingHeader, line: 1, column: 1,
                         excerpt: "#EXT-X-TARGETDURATION:10")
        Self.expectError("#EXTM3U8\n", kind: .missingHeader, line: 1, column: 1, excerpt: "#EXTM3U8")
        Self.expectError("", kind: .missingHeader, line: 1, column: 1, excerpt: "")
        let lenient = #expect(throws: PlaylistParseError.self) {
            try PlaylistParser.parse("\n#EXTM3U\n", options: ParseOptions(mode: .lenient))
        }
        #expect(lenient?.kind == .missingHeader)
    }

    @Test("a malformed EXTINF duration is located at the duration")
    func malformedExtinf() {
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:ten,\na.ts\n", kind: .malformedTag, line: 3, column: 9,
                         excerpt: "#EXTINF:ten,")
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:-1.5,\na.ts\n", kind: .malformedTag, line: 3, column: 9,
                         excerpt: "#EXTINF:-1.5,")
        Self.expectError("#EXTM3U\n#EXTINF:1e3,\na.ts\n", kind: .malformedTag, line: 2, column: 9, excerpt: "#EXTINF:1e3,")
    }

    @Test("a DATERANGE with a START-DATE that is not a date is located at the attribute")
    func badStartDate() {
        let line = #"#EXT-X-DATERANGE:ID="a",START-DATE="soon",DURATION=5"#
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\n", kind: .malformedAttribute, line: 3, column: 25, excerpt: line)
        let error = Self.strictError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\n")
        #expect(error?.message.contains("START-DATE") == true)
        #expect(error?.description.hasPrefix("line 3, column 25: ") == true)
        #expect(error?.description.hasSuffix("\n    " + line + "\n    " + String(repeating: " ", count: 24) + "^") == true)
    }

    @Test("an attribute is located at its own name, not inside a longer name that ends with it")
    func attributeColumnIsExact() {
        let line = #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00Z",PLANNED-DURATION=5,DURATION=-5"#
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\n", kind: .malformedAttribute, line: 3, column: 78, excerpt: line)
    }

    @Test("an attribute past the excerpt's 200 characters is still located at its name")
    func attributeColumnOnLongLine() {
        let assetURI = "https://ads.example.com/" + String(repeating: "a", count: 200) + ".m3u8"
        let line = #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00Z",X-ASSET-URI=""# + assetURI + #"",X-RESUME-OFFSET="0""#
        let error = Self.strictError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\n")
        #expect(error?.kind == .malformedAttribute)
        #expect(error?.column == line.utf8.count - #"X-RESUME-OFFSET="0""#.utf8.count + 1)
        #expect(error?.excerpt == String(line.prefix(200)))
    }

    @Test("an attribute name with lowercase letters is located at the first illegal character")
    func lowercaseAttributeName() {
        let line = #"#EXT-X-KEY:METHOD=AES-128,uri="k.bin""#
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\n", kind: .malformedTag, line: 3, column: 27, excerpt: line)
    }

    @Test("an unterminated quoted string is located at its opening quote")
    func unterminatedQuotedString() {
        let line = #"#EXT-X-MAP:URI="init.mp4"#
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(line)\n", kind: .malformedTag, line: 3, column: 16, excerpt: line)
    }

    @Test("a missing required attribute is reported on the tag's line")
    func missingRequiredAttribute() {
        let map = #"#EXT-X-MAP:BYTERANGE="720@0""#
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(map)\n", kind: .missingAttribute, line: 3, column: 1, excerpt: map)
        let error = Self.strictError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(map)\n")
        #expect(error?.message.contains("URI") == true)
        let part = #"#EXT-X-PART:URI="p.mp4""#
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(part)\n", kind: .missingAttribute, line: 3, column: 1, excerpt: part)
    }

    @Test("a variant without BANDWIDTH is reported on its EXT-X-STREAM-INF line, not on its URI line")
    func missingBandwidth() {
        let line = #"#EXT-X-STREAM-INF:CODECS="avc1.64001f",RESOLUTION=1280x720"#
        Self.expectError("#EXTM3U\n\(line)\nlow.m3u8\n", kind: .missingAttribute, line: 2, column: 1, excerpt: line)
    }

    @Test("a tag of the other playlist kind is located at its name")
    func mixedPlaylistTags() {
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", kind: .mixedPlaylistTypes,
                         line: 3, column: 2, excerpt: "#EXT-X-STREAM-INF:BANDWIDTH=1")
        Self.expectError("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:4,\na.ts\n", kind: .mixedPlaylistTypes,
                         line: 4, column: 2, excerpt: "#EXTINF:4,")
        let error = Self.strictError("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n")
        #expect(error?.message.contains("line 2") == true)
    }

    @Test("an EXTINF with no URI line after it is reported")
    func extinfWithoutURI() {
        let followedByTag = Self.strictError("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXTINF:4,\na.ts\n")
        #expect(followedByTag?.kind == .missingURI)
        #expect(followedByTag?.line == 4)
        #expect(followedByTag?.message.contains("line 3") == true)
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-ENDLIST\n", kind: .missingURI, line: 3, column: 1,
                         excerpt: "#EXTINF:4,")
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,", kind: .missingURI, line: 3, column: 1, excerpt: "#EXTINF:4,")
        Self.expectError("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-ENDLIST-IS-NOT-A-URI\n", kind: .missingURI, line: 2,
                         column: 1, excerpt: "#EXT-X-STREAM-INF:BANDWIDTH=1")
    }

    @Test("a URI line with no EXTINF before it is reported")
    func uriWithoutExtinf() {
        Self.expectError("#EXTM3U\n#EXT-X-TARGETDURATION:4\nstray.ts\n", kind: .unexpectedURI, line: 3, column: 1, excerpt: "stray.ts")
    }

    @Test("a reference to an undefined variable is located at the URI line or at the quoted value")
    func undefinedVariable() {
        let header = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"host\",VALUE=\"https://cdn.example.com\"\n#EXT-X-TARGETDURATION:4\n"
        Self.expectError(header + "#EXTINF:4,\n{$hots}/a.ts\n", kind: .undefinedVariable, line: 5, column: 1, excerpt: "{$hots}/a.ts")
        let key = #"#EXT-X-KEY:METHOD=AES-128,URI="{$keyhost}/k.bin""#
        Self.expectError(header + key + "\n", kind: .undefinedVariable, line: 4, column: 31, excerpt: key)
    }

    @Test("CRLF line endings do not change lines, columns or excerpts")
    func crlfLocations() {
        Self.expectError("#EXTM3U\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-MAP:URI=\"init.mp4\r\n", kind: .malformedTag, line: 3,
                         column: 16, excerpt: "#EXT-X-MAP:URI=\"init.mp4")
    }

    // MARK: Lenient mode

    @Test("strict mode throws the problem lenient mode reports first", arguments: Corpus.malformedNames)
    func strictThrowsTheFirstDiagnostic(name: String) throws {
        let lenient = try Corpus.parse(name)
        let first = try #require(lenient.diagnostics.first)
        let strict = #expect(throws: PlaylistParseError.self) { try Corpus.parse(name, mode: .strict) }
        #expect(strict.map { "parse.\($0.kind.rawValue)" } == first.ruleID)
        #expect(strict?.line == first.line)
        #expect(strict?.column == first.column)
        #expect(lenient.diagnostics.allSatisfy { $0.severity == .error && $0.ruleID.hasPrefix("parse.") })
    }

    @Test("lenient mode skips a DATERANGE with a bad START-DATE and keeps the rest")
    func lenientDateRange() throws {
        let result = try Corpus.parse("malformed-daterange-start-date")
        #expect(result.diagnostics.map(\.ruleID) == ["parse.malformed-attribute"])
        #expect(result.diagnostics.map(\.line) == [8])
        #expect(result.diagnostics.map(\.column) == [27])
        let playlist = try #require(result.playlist.media)
        #expect(playlist.dateRanges.map(\.id) == ["good-1", "good-2"])
        #expect(playlist.segments.map(\.uri) == ["s0.ts", "s1.ts", "s2.ts"])
        #expect(playlist.hasEndList)
    }

    @Test("lenient mode drops segments with malformed EXTINF durations and reports their orphaned URIs")
    func lenientExtinf() throws {
        let result = try Corpus.parse("malformed-extinf")
        #expect(result.diagnostics.map(\.ruleID) == [
            "parse.malformed-tag", "parse.unexpected-uri", "parse.malformed-tag", "parse.unexpected-uri", "parse.missing-uri",
        ])
        #expect(result.diagnostics.map(\.line) == [5, 6, 7, 8, 11])
        #expect(result.diagnostics.map(\.column) == [9, 1, 9, 1, 1])
        let playlist = try #require(result.playlist.media)
        #expect(playlist.segments.map(\.uri) == ["good-0.ts", "good-1.ts"])
        #expect(playlist.hasEndList)
    }

    @Test("lenient mode skips tags with malformed attribute lists and keeps the segments")
    func lenientAttributes() throws {
        let result = try Corpus.parse("malformed-attribute-syntax")
        #expect(result.diagnostics.map(\.ruleID) == [
            "parse.malformed-tag", "parse.malformed-tag", "parse.missing-attribute", "parse.malformed-attribute",
        ])
        #expect(result.diagnostics.map(\.line) == [4, 5, 8, 12])
        #expect(result.diagnostics.map(\.column) == [27, 16, 1, 13])
        let playlist = try #require(result.playlist.media)
        #expect(playlist.segments.map(\.uri) == ["s0.m4s", "s1.m4s", "s2.m4s"])
        #expect(playlist.segments.allSatisfy { $0.keys.isEmpty })
        #expect(playlist.segments.map(\.map?.uri) == [nil, nil, "init-2.mp4"])
        #expect(playlist.segments[2].parts.map(\.uri) == ["s2.p1.m4s"])
        #expect(playlist.version == 7)
    }

    @Test("lenient mode skips tags of the other playlist kind and keeps every segment")
    func lenientMixedTags() throws {
        let result = try Corpus.parse("malformed-mixed-playlist-tags")
        #expect(result.diagnostics.map(\.ruleID) == [
            "parse.mixed-playlist-types", "parse.unexpected-uri", "parse.mixed-playlist-types",
        ])
        #expect(result.diagnostics.map(\.line) == [5, 6, 9])
        let playlist = try #require(result.playlist.media)
        #expect(playlist.segments.map(\.uri) == ["a.ts", "b.ts", "c.ts"])
    }

    @Test("lenient mode keeps an undefined variable reference verbatim and reports each one")
    func lenientUndefinedVariables() throws {
        let result = try Corpus.parse("malformed-undefined-variable")
        #expect(result.diagnostics.map(\.ruleID) == ["parse.undefined-variable", "parse.undefined-variable"])
        #expect(result.diagnostics.map(\.line) == [8, 9])
        #expect(result.diagnostics.map(\.column) == [1, 31])
        let playlist = try #require(result.playlist.media)
        #expect(playlist.segments.map(\.uri) == [
            "https://cdn.example.com/s0.ts", "{$hots}/s1.ts", "https://cdn.example.com/s2.ts",
        ])
        #expect(playlist.segments[2].keys.first?.uri == "{$keyhost}/k.bin")
    }

    @Test("a diagnostic describes itself with its line, column, severity and rule")
    func diagnosticDescription() throws {
        let result = try Corpus.parse("malformed-daterange-start-date")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.description.hasPrefix("line 8, column 27: error: "))
        #expect(diagnostic.description.hasSuffix(" [parse.malformed-attribute]"))
    }
}
