import Foundation
import HLSPlaylist
import MediaTime
import Testing

/// Inputs the parser fuzzer (`Fuzz/run.sh`) found to trap or to break an invariant. Each is also
/// a file in `Fuzz/regressions/`, which seeds every fuzz run; the literal here is that file's text.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// `Fuzz/regressions/`, found from this file's path (the inputs are not test resources, so
    /// that the fuzzer and the tests share one copy).
    static let regressionsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions")

    static let regressionFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: regressionsDirectory.path)) ?? []
        return names.sorted()
    }()

    @Test("every committed fuzz input parses in both modes without trapping and writes back byte for byte",
          arguments: regressionFiles)
    func regressionInputIsLossless(name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.regressionsDirectory.appendingPathComponent(name)))
        let lenient = try PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient))
        #expect(lenient.playlist.serialized() == bytes)
        if let strict = try? PlaylistParser.parse(bytes, options: ParseOptions(mode: .strict)) {
            #expect(strict.playlist.serialized() == bytes)
            #expect(strict.playlist == lenient.playlist)
        }
    }

    @Test("the regressions directory is found, so the sweep above runs")
    func regressionFilesExist() {
        #expect(!Self.regressionFiles.isEmpty)
    }

    // daterange-stray-equals-sign.m3u8
    @Test("a DATERANGE with a stray '=' after a comma is read tolerantly in lenient mode instead of looping forever")
    func dateRangeStrayEqualsSign() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DATERANGE:ID=\"bad\",START-DATE=\"2026-11-30T05:00:00Z\",DURATION,=DUR,X-A=1\n#EXTINF:6,\na.ts\n"
        #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(text) }
        let lenient = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        let range = try #require(lenient.playlist.media?.dateRanges.first)
        #expect(range.id == "bad")
        #expect(range.duration == nil)
        #expect(range.clientAttribute(named: "X-A") == .decimal("1"))
        #expect(lenient.diagnostics.map(\.line) == [3])
    }

    // variable-reference-before-define.m3u8
    @Test("a variable reference before its EXT-X-DEFINE is an undefined variable at the reference, so no canonical form can change its meaning")
    func variableReferenceBeforeDefinition() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$x}.ts\n#EXT-X-DEFINE:NAME=\"x\",VALUE=\"a\"\n#EXTINF:6,\n{$x}b.ts\n#EXT-X-ENDLIST\n"
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(text) }
        #expect(error?.kind == .undefinedVariable)
        #expect(error?.line == 4)
        #expect(error?.column == 1)
        #expect(error?.message.contains("before the first EXT-X-DEFINE (line 5)") == true)

        let lenient = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        #expect(lenient.diagnostics.map(\.ruleID) == ["parse.undefined-variable"])
        #expect(lenient.diagnostics.first?.line == 4)
        #expect(lenient.playlist.media?.segments.map(\.uri) == ["{$x}.ts", "ab.ts"])
        #expect(lenient.playlist.serialized() == Array(text.utf8))
    }

    // daterange-year-5879.m3u8
    @Test("a DATERANGE START-DATE after 2262 is a malformed attribute, not an Int64 overflow trap")
    func dateRangeStartDateBeyondNanosecondRange() throws {
        let text = "#EXTM3U\n#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"5879-11-30T20:44:24.000Z\"\n"
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(text) }
        #expect(error?.kind == .malformedAttribute)
        #expect(error?.line == 2)

        let lenient = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        #expect(lenient.diagnostics.map(\.ruleID) == ["parse.malformed-attribute"])
        #expect(lenient.playlist.media?.dateRanges.isEmpty == true)
    }

    // program-date-time-local-overflow.m3u8
    @Test("a PROGRAM-DATE-TIME whose local time is past 2262 is malformed, so writing it back cannot overflow")
    func programDateTimeLocalTimeBeyondNanosecondRange() throws {
        let text = "#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2262-04-11T23:59:59+23:59\n#EXTINF:1,\na.ts\n"
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(text) }
        #expect(error?.kind == .malformedTag)
        #expect(error?.line == 2)

        let lenient = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        let media = try #require(lenient.playlist.media)
        #expect(media.segments.map(\.programDateTime) == [nil])
        #expect(media.canonicalText().contains("PROGRAM-DATE-TIME") == false)
        // The latest date that does fit still writes back.
        #expect(PlaylistDate(iso8601: "2262-04-11T23:47:16.854775807Z")?.iso8601String == "2262-04-11T23:47:16.854775807Z")
    }

    // duration-overflow.m3u8
    @Test("a playlist whose total duration exceeds MediaTime has an infinite duration instead of trapping")
    func durationSumBeyondMediaTime() throws {
        let text = "#EXTM3U\n#EXTINF:60\n.\n#EXTINF:9223372036854775800\nT"
        let media = try MediaPlaylist(parsing: text)
        #expect(media.segments.count == 2)
        #expect(media.duration == .positiveInfinity)
        #expect(media.segmentStartTimes == [.zero, MediaTime(seconds: 60)])
    }

    // stream-inf-closed-captions-twice.m3u8
    @Test("an invalid CLOSED-CAPTIONS value is reported even when a second CLOSED-CAPTIONS=NONE follows it")
    func closedCaptionsInvalidValueIsNotDropped() throws {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=s,CLOSED-CAPTIONS=NONE\nv\n"
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(text) }
        #expect(error?.kind == .malformedAttribute)
        #expect(error?.line == 2)

        let lenient = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        #expect(lenient.diagnostics.map(\.ruleID) == ["parse.malformed-attribute"])
        #expect(lenient.playlist.multivariant?.variants.isEmpty == true)

        // Each accepted form still reads.
        let group = try MultivariantPlaylist(parsing: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"cc\"\nv\n")
        #expect(group.variants.first?.closedCaptions == .group("cc"))
        let none = try MultivariantPlaylist(parsing: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE\nv\n")
        #expect(none.variants.first?.closedCaptions == VariantStream.ClosedCaptions.none)
    }

    // delta-update-skipped-segments-overflow.m3u8
    @Test("a delta update whose SKIPPED-SEGMENTS runs past Int.max is refused instead of trapping")
    func deltaUpdateSkippedSegmentsOverflow() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-SKIP:SKIPPED-SEGMENTS=9223372036854775807\n"
        let delta = try MediaPlaylist(parsing: text)
        #expect(delta.skip?.skippedSegments == Int.max)
        let previous = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:1,\na.ts\n")
        let error = #expect(throws: DeltaUpdateError.self) { try previous.applying(deltaUpdate: delta) }
        #expect(error?.message.contains("1…9223372036854775807") == true)
        #expect(throws: DeltaUpdateError.self) { try delta.applying(deltaUpdate: delta) }
    }
}
