import Foundation
import HLSPlaylist
import MediaTime
import Testing

/// Issue 11, items 9 and 10: the lenient parser (what the player and `timeline` use) keeps a
/// DATERANGE whose attribute is malformed, takes the value when its meaning is unambiguous, treats
/// it as absent otherwise (Appendix D: an unrecognized value counts as missing), and records the
/// problem on the tag's line; the strict parser and the validator keep rejecting it.
@Suite("Tolerant reading of EXT-X-DATERANGE")
struct DateRangeLenientTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var attributes: String
        var check: @Sendable (DateRange) -> Bool
        var testDescription: String { label }
    }

    static let base = #"ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10Z",X-ASSET-URI="https://a/1.m3u8""#

    static let cases: [Case] = [
        Case(label: "an unquoted enumerated value is read", attributes: base + ",X-TIMELINE-OCCUPIES=RANGE,DURATION=15") {
            $0.timelineOccupies == .range && $0.duration == MediaTime(seconds: 15)
        },
        Case(label: "a space after a comma is skipped", attributes: base + ", DURATION=15,X-TIMELINE-OCCUPIES=\"RANGE\"") {
            $0.duration == MediaTime(seconds: 15) && $0.timelineOccupies == .range
        },
        Case(label: "a missing comma between attributes is supplied", attributes: base + "DURATION=15 X-RESUME-OFFSET=0") {
            $0.assetURI == "https://a/1.m3u8" && $0.duration == MediaTime(seconds: 15) && $0.resumeOffset == .zero
        },
        Case(label: "a trailing comma is ignored", attributes: base + ",DURATION=15,") { $0.duration == MediaTime(seconds: 15) },
        Case(label: "a quoted DURATION is read as its number", attributes: base + #",DURATION="15""#) { $0.duration == MediaTime(seconds: 15) },
        Case(label: "a negative DURATION counts as absent", attributes: base + ",DURATION=-15,X-RESUME-OFFSET=0") {
            $0.duration == nil && $0.resumeOffset == .zero
        },
        Case(label: "a quoted negative PLANNED-DURATION counts as absent", attributes: base + #",PLANNED-DURATION="-3""#) { $0.plannedDuration == nil },
        Case(label: "a negative X-PLAYOUT-LIMIT counts as absent", attributes: base + ",X-PLAYOUT-LIMIT=-1,DURATION=10") {
            $0.playoutLimit == nil && $0.duration == MediaTime(seconds: 10)
        },
        Case(label: "a quoted PLANNED-DURATION is read as its number", attributes: base + #",PLANNED-DURATION="30""#) {
            $0.plannedDuration == MediaTime(seconds: 30)
        },
        Case(label: "an unquoted negative PLANNED-DURATION counts as absent", attributes: base + ",PLANNED-DURATION=-30,DURATION=10") {
            $0.plannedDuration == nil && $0.duration == MediaTime(seconds: 10)
        },
        Case(label: "a quoted X-PLAYOUT-LIMIT is read as its number", attributes: base + #",X-PLAYOUT-LIMIT="20""#) {
            $0.playoutLimit == MediaTime(seconds: 20)
        },
        Case(label: "a non-numeric X-SKIP-CONTROL-DURATION counts as absent", attributes: base + ",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=later") {
            $0.skipControlDuration == nil && $0.skipControlOffset == MediaTime(seconds: 5)
        },
        Case(label: "a non-numeric X-SKIP-CONTROL-OFFSET counts as absent", attributes: base + ",X-SKIP-CONTROL-OFFSET=soon,X-SKIP-CONTROL-DURATION=5") {
            $0.skipControlOffset == nil && $0.skipControlDuration == MediaTime(seconds: 5)
        },
        Case(label: "an unknown client attribute of a bad form is kept", attributes: base + #", X-COM-EXAMPLE-NOTE="x",DURATION=15,"#) {
            $0.clientAttribute(named: "X-COM-EXAMPLE-NOTE") == .quotedString("x") && $0.duration == MediaTime(seconds: 15)
        },
    ]

    private static func playlist(_ attributes: String) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z\n#EXT-X-DATERANGE:\(attributes)\n#EXTINF:6,\nseg.ts\n#EXT-X-ENDLIST\n"
    }

    @Test("a malformed attribute costs that attribute, not the interstitial, and is reported on its line", arguments: cases)
    func lenientKeepsTheEvent(_ testCase: Case) throws {
        let text = Self.playlist(testCase.attributes)
        #expect(throws: PlaylistParseError.self, "the strict parser rejects it") { try PlaylistParser.parse(text) }
        let result = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        let range = try #require(result.playlist.media?.dateRanges.first, "the tag is kept")
        #expect(range.id == "ad")
        #expect(range.isInterstitial)
        #expect(testCase.check(range), "\(range)")
        #expect(!result.diagnostics.isEmpty)
        #expect(result.diagnostics.allSatisfy { $0.line == 4 }, "\(result.diagnostics)")
        #expect(result.playlist.serialized() == Array(text.utf8), "still lossless")
        let findings = PlaylistValidator.validate(Array(text.utf8))
        #expect(findings.contains { $0.severity == .error && $0.line == 4 }, "validate still reports it: \(findings)")
    }

    @Test("the same holds in a playlist with variables: references are substituted, then the tag is read as tolerantly", arguments: cases)
    func lenientKeepsTheEventWithVariables(_ testCase: Case) throws {
        let attributes = testCase.attributes.replacingOccurrences(of: "https://a/1.m3u8", with: "https://{$host}/1.m3u8")
        let text = Self.playlist(attributes).replacingOccurrences(of: "#EXT-X-TARGETDURATION:6\n", with: "#EXT-X-TARGETDURATION:6\n#EXT-X-DEFINE:NAME=\"host\",VALUE=\"a\"\n")
        #expect(throws: PlaylistParseError.self, "the strict parser rejects it") { try PlaylistParser.parse(text) }
        let result = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        let range = try #require(result.playlist.media?.dateRanges.first, "the tag is kept")
        #expect(range.id == "ad")
        #expect(range.isInterstitial)
        #expect(testCase.check(range), "\(range)")
        #expect(!result.diagnostics.isEmpty)
        #expect(result.diagnostics.allSatisfy { $0.line == 5 }, "\(result.diagnostics)")
        #expect(result.playlist.serialized() == Array(text.utf8), "still lossless")
    }

    @Test("a DATERANGE without a readable ID or START-DATE is still dropped in lenient mode")
    func unreadableIdentityDropsTheTag() throws {
        let text = Self.playlist(#"ID=ad,START-DATE="2026-11-30T05:00:10Z",DURATION=15"#)
        let result = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        #expect(result.playlist.media?.dateRanges.isEmpty == true)
        #expect(result.diagnostics.map(\.line) == [4])
    }
}
