import HLSPlaylist
import MediaTime
import TestSupport
import Testing

/// A well-formed EXT-X-DATERANGE is checked when the playlist is parsed and decoded the first time
/// one of its values is read. A playlist that defines a variable takes the parser's other path,
/// which decodes every tag at once; the two must agree on every value and on every error.
@Suite("Date ranges decoded on first access")
struct DateRangeSourceTests {
    /// `#EXTM3U`, the tags in `body`, and nothing else; with `eager`, an unused EXT-X-DEFINE first,
    /// which makes the parser decode every DATERANGE while it parses.
    private static func playlist(_ body: String, eager: Bool) -> String {
        "#EXTM3U\n" + (eager ? "#EXT-X-DEFINE:NAME=\"unused\",VALUE=\"x\"\n" : "") + "#EXT-X-TARGETDURATION:6\n" + body
    }

    private static func ranges(_ body: String, eager: Bool) throws -> [DateRange] {
        try MediaPlaylist(parsing: playlist(body, eager: eager)).dateRanges
    }

    /// Attribute lists with every typed attribute, client attributes of each value type, unknown
    /// attributes, a repeated attribute, the legacy X-CUE and values that contain commas.
    private static let wellFormed = [
        #"ID="a",START-DATE="2026-11-30T05:00:00Z""#,
        #"ID="ad-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.250+01:00",CUE="PRE,ONCE",END-DATE="2026-11-30T05:00:40.250+01:00",DURATION=30.000,PLANNED-DURATION=30,END-ON-NEXT=YES"#,
        #"ID="s",START-DATE="2026-11-30T05:00:00.000Z",SCTE35-CMD=0xFC30,SCTE35-OUT=0xfc3011,SCTE35-IN=0xFC3000AB"#,
        #"ID="i",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:00Z",X-ASSET-URI="https://a.example/x.m3u8?a=1,b=2",X-ASSET-LIST="list.json",X-RESUME-OFFSET=-2.5,X-PLAYOUT-LIMIT=15.015,X-SNAP="OUT,IN",X-RESTRICT="SKIP,JUMP",X-TIMELINE-OCCUPIES="RANGE",X-TIMELINE-STYLE="PRIMARY",X-CONTENT-MAY-VARY="NO""#,
        #"ID="k",START-DATE="2026-11-30T05:00:00Z",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10.5,X-SKIP-CONTROL-LABEL-ID="skip_label-1""#,
        #"ID="p",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00Z",X-URI="next.m3u8",X-TARGET-ID="ad-1",X-TARGET-CLASS="com.apple.hls.interstitial""#,
        #"ID="c",START-DATE="2026-11-30T05:00:00Z",X-COM-EXAMPLE-TEXT="a, b",X-COM-EXAMPLE-NUMBER=-1.25,X-COM-EXAMPLE-HEX=0xDEADBEEF,X-COM-EXAMPLE-TOKEN=WORD,SOMETHING-ELSE=12"#,
        #"ID="x",START-DATE="2026-11-30T05:00:00Z",X-CUE="POST""#,
        #"ID="first",ID="second",START-DATE="2026-11-30T05:00:00Z",DURATION=1,DURATION=2"#,
        #"ID="later",END-DATE="2026-11-30T05:01:00Z""#,
        #"ID="é",CLASS="caf\u{E9}",START-DATE="2026-11-30T05:00:00,5Z""#,
    ]

    @Test("a date range read on first access has the values of one decoded while parsing")
    func lazyEqualsEager() throws {
        for list in Self.wellFormed {
            let body = "#EXT-X-DATERANGE:\(list)\n#EXTINF:6,\nseg.ts\n"
            let lazy = try Self.ranges(body, eager: false)
            let eager = try Self.ranges(body, eager: true)
            #expect(lazy == eager, "\(list)")
            #expect(lazy.map(\.attributes) == eager.map(\.attributes), "\(list)")
            #expect(lazy.map(\.clientAttributes) == eager.map(\.clientAttributes), "\(list)")
            #expect(lazy.map(\.unknownAttributes) == eager.map(\.unknownAttributes), "\(list)")
            #expect(lazy.map(\.cue) == eager.map(\.cue), "\(list)")
        }
        let both = try Self.ranges("#EXT-X-DATERANGE:\(Self.wellFormed[1])\n", eager: false)
        #expect(both.first?.cue == [.pre, .once])
        #expect(both.first?.startDate == PlaylistDate(iso8601: "2026-11-30T04:00:10.250Z"))
        #expect(both.first?.duration == MediaTime(seconds: 30))
    }

    @Test("a date range read on first access can be edited, and the edit does not reach other copies")
    func editing() throws {
        let parsed = try #require(try Self.ranges("#EXT-X-DATERANGE:\(Self.wellFormed[3])\n", eager: false).first)
        var edited = parsed
        edited.assetList = "other.json"
        edited.clientAttributes.append(Attribute(name: "X-NEW", value: .decimal("1")))
        #expect(parsed.assetList == "list.json")
        #expect(parsed.clientAttributes.isEmpty)
        #expect(edited.assetList == "other.json")
        #expect(edited.snap == [.out, .in], "the values decoded before the edit are kept")
        #expect(edited != parsed)
    }

    /// Lists each of which breaks one rule the parse checks: the grammar, a value's type, a date,
    /// a number, YES, a missing ID.
    private static let malformed = [
        #"ID="a",START-DATE="2026-11-30T05:00:00Z","#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z"#,
        #"ID="a",start-date="2026-11-30T05:00:00Z""#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z"X-A=1"#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",X-A="#,
        #"ID=a,START-DATE="2026-11-30T05:00:00Z""#,
        #"ID="a",START-DATE=2026"#,
        #"ID="a",START-DATE="2026-02-29T05:00:00Z""#,
        #"ID="a",START-DATE="2026-11-30T05:00:61.000Z""#,
        #"ID="a",START-DATE="2026-11-30T05:00:00.000Q""#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",END-DATE="soon""#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",DURATION=-1"#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",DURATION="15""#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",PLANNED-DURATION=1.0000000001"#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",X-RESUME-OFFSET=abc"#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",END-ON-NEXT=NO"#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",SCTE35-OUT="0xFC""#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",X-SNAP=OUT"#,
        #"ID="a",START-DATE="2026-11-30T05:00:00Z",X-SKIP-CONTROL-OFFSET=+5"#,
        #"CLASS="x",START-DATE="2026-11-30T05:00:00Z""#,
        "",
    ]

    @Test("strict parsing reports every malformed date range while it parses, with the message it always had")
    func errorsAtParse() {
        for list in Self.malformed {
            let body = "#EXT-X-DATERANGE:\(list)\n#EXTINF:6,\nseg.ts\n"
            let lazy = #expect(throws: PlaylistParseError.self, "\(list)") { try MediaPlaylist(parsing: Self.playlist(body, eager: false)) }
            let eager = #expect(throws: PlaylistParseError.self, "\(list)") { try MediaPlaylist(parsing: Self.playlist(body, eager: true)) }
            guard let lazy, let eager else { continue }
            #expect(lazy.line == 3 && eager.line == 4, "\(list)")
            // (Columns differ: the other path reads the tag after substituting variables.)
            #expect(lazy.kind == eager.kind && lazy.message == eager.message, "\(list)")
            let lenient = try? PlaylistParser.parse(Self.playlist(body, eager: false), options: ParseOptions(mode: .lenient))
            #expect(lenient?.diagnostics.first?.message == lazy.message, "\(list)")
        }
    }

    @Test("threads reading a parsed playlist's date ranges for the first time at once all read the same values")
    func concurrentFirstAccess() async throws {
        let body = Self.wellFormed.map { "#EXT-X-DATERANGE:\($0)\n" }.joined() + "#EXTINF:6,\nseg.ts\n"
        let expected = try Self.ranges(body, eager: true).map(\.attributes)
        for _ in 0..<20 {
            let playlist = try MediaPlaylist(parsing: Self.playlist(body, eager: false))
            let readings = await withTaskGroup(of: [[Attribute]].self) { group in
                for _ in 0..<4 { group.addTask { playlist.dateRanges.map(\.attributes) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(readings.allSatisfy { $0 == expected })
        }
    }

    @Test("decoding one DATERANGE with many client attributes on first access takes time linear in their number")
    func decodingScales() throws {
        func text(_ count: Int) -> String {
            var list = #"ID="big",START-DATE="2026-11-30T05:00:00Z""#
            for index in 0..<count { list += ",X-A\(index)=\"\(index)\"" }
            return Self.playlist("#EXT-X-DATERANGE:\(list)\n", eager: false)
        }
        let small = text(5_000)
        let large = text(20_000)
        let ratio = try growthRatio(small: 1, large: 4) { size in
            let range = try #require(try MediaPlaylist(parsing: size == 1 ? small : large).trailingDateRanges.first)
            #expect(range.clientAttributes.count == (size == 1 ? 5_000 : 20_000))
        }
        #expect(ratio < 10, "4× the attributes took \(ratio)× the time to parse and read")
    }
}

@Suite("Segment durations and dates read on the parser's fast paths")
struct SegmentFastPathTests {
    @Test("an EXTINF duration is the exact time MediaTime(decimal:) reads, in the same units, whatever its form")
    func durations() throws {
        var random = SeededGenerator(seed: 18)
        var texts = ["0", "0.0", "2", "2.000", "2.5", "2.50", "9.009", "10.0000001", ".5", "5.", "0.000000001", "123456789012345678",
                     "12345678901234567.8", "1.0000000000", "999999999999999999", "9223372036854775807", "1.0000000001", "-0", "+2"]
        for _ in 0..<300 {
            var bound: UInt64 = 1
            for _ in 0..<Int.random(in: 0...12, using: &random) { bound *= 10 }
            let whole = String(UInt64.random(in: 0...bound, using: &random))
            var fraction = ""
            for _ in 0..<Int.random(in: 0...11, using: &random) { fraction += random.chance(0.4) ? "0" : String(Int.random(in: 0...9, using: &random)) }
            texts.append(random.chance(0.8) ? "\(whole).\(fraction)" : whole)
        }
        for text in texts {
            let expected = MediaTime(decimal: text).flatMap { $0.isNegative ? nil : $0 }
            let source = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z\n#EXTINF:6,\na.ts\n#EXTINF:\(text),\nb.ts\n"
            let parsed = try? MediaPlaylist(parsing: source)
            #expect((parsed != nil) == (expected != nil), "\(text)")
            guard let parsed, let expected else { continue }
            let duration = parsed.segments[1].duration
            #expect(duration.value == expected.value && duration.timescale == expected.timescale, "\(text)")
        }
    }

    @Test("a PROGRAM-DATE-TIME written as :ss.sssZ is the instant other forms of it name, across minutes, days and years")
    func dates() throws {
        var random = SeededGenerator(seed: 1812)
        var lines = ""
        var expected: [PlaylistDate] = []
        var seconds: Int64 = 1_798_761_000  // 2026-12-31T23:50:00Z
        for _ in 0..<400 {
            seconds += Int64.random(in: 0...40, using: &random)
            let millis = Int64.random(in: 0...999, using: &random)
            let date = PlaylistDate(nanosecondsSince1970: (seconds * 1000 + millis) * 1_000_000)
            let text = date.iso8601String
            #expect(text.hasSuffix("Z") && text.count == 24)
            let other = try #require(PlaylistDate(iso8601: text.dropLast() + "+00:00"))
            #expect(other == date)
            expected.append(date)
            lines += "#EXT-X-PROGRAM-DATE-TIME:\(text)\n#EXTINF:2,\ns.ts\n"
        }
        let parsed = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + lines)
        #expect(parsed.segments.map(\.programDateTime) == expected)
        for bad in ["2026-11-30T05:00:61.000Z", "2026-11-30T05:00:0a.000Z", "2026-11-30T05:00:00.000z", "2026-02-29T05:00:00.000Z",
                    "2026-11-30T05:00:00;000Z", "2026-11-30T05:00:00.000ZZ"]
        {
            let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z\n#EXTINF:2,\na.ts\n"
                + "#EXT-X-PROGRAM-DATE-TIME:\(bad)\n#EXTINF:2,\nb.ts\n"
            let parsed = try? MediaPlaylist(parsing: text)
            #expect((parsed != nil) == (PlaylistDate(iso8601: bad) != nil), "\(bad)")
        }
    }
}
