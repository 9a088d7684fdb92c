import HLSPlaylist
import MediaTime
import Testing

@Suite("EXT-X-DATERANGE and HLS interstitials")
struct DateRangeTests {
    private static func date(_ text: String) -> PlaylistDate { PlaylistDate(iso8601: text)! }

    private static func range(_ id: String, in playlist: MediaPlaylist, occurrence: Int = 0) throws -> DateRange {
        let matches = playlist.dateRanges.filter { $0.id == id }
        try #require(matches.count > occurrence, "no EXT-X-DATERANGE ID=\"\(id)\" #\(occurrence)")
        return matches[occurrence]
    }

    /// Reads one attribute list as a date range, the way the parser reads the tag.
    private static func parse(_ attributeList: String) throws -> DateRange {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DATERANGE:\(attributeList)\n"
        return try #require(try MediaPlaylist(parsing: text).trailingDateRanges.first)
    }

    @Test("every base attribute of EXT-X-DATERANGE is typed, and client attributes keep their value type")
    func baseAttributes() throws {
        let playlist = try Corpus.media("media-daterange-base")
        let chapter = try Self.range("chapter-2", in: playlist)
        #expect(chapter.className == "com.example.chapter")
        #expect(chapter.startDate == Self.date("2026-11-30T05:00:12.500Z"))
        #expect(chapter.endDate == Self.date("2026-11-30T05:00:42.500Z"))
        #expect(chapter.duration == MediaTime(seconds: 30))
        #expect(chapter.cue == [.once])
        #expect(chapter.plannedDuration == nil)
        #expect(chapter.endOnNext == nil)
        #expect(!chapter.isInterstitial)
        #expect(chapter.clientAttributes == [
            Attribute(name: "X-COM-EXAMPLE-TITLE", value: .quotedString("Second chapter")),
            Attribute(name: "X-COM-EXAMPLE-BEACON", value: .decimal("123")),
            Attribute(name: "X-COM-EXAMPLE-OFFSET", value: .decimal("-1.25")),
            Attribute(name: "X-COM-EXAMPLE-BLOB", value: .hexadecimal("0xDEADBEEF")),
        ])
        #expect(chapter.clientAttribute(named: "X-COM-EXAMPLE-BEACON") == .decimal("123"))
        #expect(chapter.clientAttribute(named: "X-COM-EXAMPLE-MISSING") == nil)
        #expect(chapter.unknownAttributes.isEmpty)
        #expect(chapter.resolvedDuration == MediaTime(seconds: 30))
        #expect(chapter.resolvedEndDate == Self.date("2026-11-30T05:00:42.5Z"))
    }

    @Test("SCTE35-OUT, -IN and -CMD keep their hexadecimal sequences and PLANNED-DURATION is exact")
    func scte35Attributes() throws {
        let playlist = try Corpus.media("media-daterange-base")
        let out = try Self.range("splice-6FFFFFF0", in: playlist)
        #expect(out.plannedDuration == MediaTime(decimal: "59.993")!)
        #expect(out.duration == nil)
        #expect(out.resolvedDuration == nil)
        #expect(out.scte35Out == "0xFC002F0000000000FF000014056FFFFFF000E011622DCAFF000052636200000000000A0008029896F50000008700000000")
        #expect(out.scte35In == nil)
        let into = try Self.range("splice-6FFFFFF0", in: playlist, occurrence: 1)
        #expect(into.duration == MediaTime(decimal: "59.993")!)
        #expect(into.scte35In == "0xFC002A0000000000FF00000F056FFFFFF000401162802E6100000000000A0008029896F50000008700000000")
        #expect(into.resolvedEndDate == Self.date("2026-11-30T05:01:09.993Z"))
        let command = try Self.range("scte-cmd", in: playlist)
        #expect(command.scte35Command == "0xFC301100000000000000FFF0000000007A4F8FB6")
        #expect(command.className == nil)
    }

    @Test("END-ON-NEXT=YES is read, and a date range after the last segment is kept as trailing")
    func endOnNextAndTrailingRanges() throws {
        let playlist = try Corpus.media("media-daterange-base")
        let third = try Self.range("chapter-3", in: playlist)
        #expect(third.endOnNext == true)
        #expect(third.resolvedEndDate == nil)
        #expect(playlist.segments[3].dateRanges.map(\.id) == ["chapter-3"])
        #expect(playlist.trailingDateRanges.map(\.id) == ["chapter-4"])
        #expect(playlist.trailingDateRanges.first?.startDate == Self.date("2026-11-30T05:01:00Z"))
        #expect(playlist.dateRanges.map(\.id) == [
            "splice-6FFFFFF0", "chapter-2", "scte-cmd", "splice-6FFFFFF0", "chapter-3", "chapter-4",
        ])
    }

    @Test("consolidatedDateRanges merges tags with the same ID in order of first appearance")
    func consolidatedBaseRanges() throws {
        let playlist = try Corpus.media("media-daterange-base")
        let consolidated = playlist.consolidatedDateRanges
        #expect(consolidated.map(\.id) == ["splice-6FFFFFF0", "chapter-2", "scte-cmd", "chapter-3", "chapter-4"])
        let splice = consolidated[0]
        #expect(splice.plannedDuration == MediaTime(decimal: "59.993")!)
        #expect(splice.duration == MediaTime(decimal: "59.993")!)
        #expect(splice.scte35Out != nil)
        #expect(splice.scte35In != nil)
        #expect(splice.startDate == Self.date("2026-11-30T05:00:10Z"))
    }

    @Test("every interstitial attribute is typed: asset URI, resumption offset, restrictions, timeline, may-vary")
    func interstitialPreroll() throws {
        let playlist = try Corpus.media("media-interstitials-vod")
        let preroll = try Self.range("preroll", in: playlist)
        #expect(preroll.isInterstitial)
        #expect(preroll.className == DateRange.interstitialClass)
        #expect(preroll.cue == [.pre, .once])
        #expect(preroll.duration == MediaTime(seconds: 15))
        #expect(preroll.assetURI == "http://example.com/preroll.m3u8")
        #expect(preroll.assetList == nil)
        #expect(preroll.resumeOffset == .zero)
        #expect(preroll.playoutLimit == nil)
        #expect(preroll.restrict == [.skip, .jump])
        #expect(preroll.timelineOccupies == .point)
        #expect(preroll.timelineStyle == .highlight)
        #expect(preroll.contentMayVary == .no)
        #expect(preroll.contentMayVary?.boolValue == false)
        #expect(preroll.snap == nil)
        #expect(preroll.clientAttributes.isEmpty)
    }

    @Test("an asset-list interstitial has a negative resumption offset, a playout limit, snapping and skip control")
    func interstitialAssetList() throws {
        let playlist = try Corpus.media("media-interstitials-vod")
        let break1 = try Self.range("ad1", in: playlist)
        #expect(break1.isInterstitial)
        #expect(break1.cue == nil)
        #expect(break1.startDate == Self.date("2020-01-02T21:55:44Z"))
        #expect(break1.duration == MediaTime(seconds: 30))
        #expect(break1.assetURI == nil)
        #expect(break1.assetList == "ads/pod1.json?_HLS_interstitial_id=ad1")
        #expect(break1.resumeOffset == MediaTime(decimal: "-5.5")!)
        #expect(break1.playoutLimit == MediaTime(decimal: "25.5")!)
        #expect(break1.snap == [.out, .in])
        #expect(break1.restrict == nil)
        #expect(break1.timelineOccupies == .range)
        #expect(break1.timelineStyle == .primary)
        #expect(break1.contentMayVary == .yes)
        #expect(break1.contentMayVary?.boolValue == true)
        #expect(break1.skipControlOffset == MediaTime(seconds: 5))
        #expect(break1.skipControlDuration == MediaTime(seconds: 20))
        #expect(break1.skipControlLabelID == "Skip_Ad-Label")
        #expect(break1.clientAttributes == [Attribute(name: "X-COM-EXAMPLE-BEACON", value: .decimal("123"))])
    }

    @Test("a post-roll keeps unknown X-SNAP and X-RESTRICT tokens, marked as not known")
    func interstitialPostrollTokens() throws {
        let playlist = try Corpus.media("media-interstitials-vod")
        let postroll = try Self.range("postroll", in: playlist)
        #expect(postroll.cue == [.post])
        #expect(postroll.snap == [.out, DateRange.Snap(rawValue: "BOGUS")])
        #expect(postroll.snap?.map(\.isKnown) == [true, false])
        #expect(postroll.restrict == [.jump, DateRange.Restriction(rawValue: "WHATEVER")])
        #expect(postroll.restrict?.map(\.isKnown) == [true, false])
        #expect(postroll.duration == nil)
        #expect(postroll.resumeOffset == nil)
        #expect(playlist.segments[3].dateRanges.map(\.id) == ["postroll"])
    }

    @Test("a preload range (Appendix F) carries X-URI, X-TARGET-ID and X-TARGET-CLASS")
    func preloadRange() throws {
        let playlist = try Corpus.media("media-interstitials-live-updates")
        let preload = try Self.range("preload-break-1", in: playlist)
        #expect(preload.className == DateRange.preloadClass)
        #expect(!preload.isInterstitial)
        #expect(preload.duration == MediaTime(seconds: 12))
        #expect(preload.preloadURI == "https://ads.example.com/list.json")
        #expect(preload.preloadTargetID == "break-1")
        #expect(preload.preloadTargetClass == DateRange.interstitialClass)
        #expect(preload.clientAttributes.isEmpty)
    }

    @Test("later tags with the same ID add attributes to a live break without changing the first tag's")
    func liveBreakUpdates() throws {
        let playlist = try Corpus.media("media-interstitials-live-updates")
        let tags = playlist.dateRanges.filter { $0.id == "break-1" }
        #expect(tags.count == 3)
        #expect(tags[0].plannedDuration == MediaTime(seconds: 30))
        #expect(tags[0].duration == nil)
        #expect(tags[1].className == nil)
        #expect(tags[1].playoutLimit == MediaTime(seconds: 15))
        #expect(tags[2].startDate == nil)
        let consolidated = playlist.consolidatedDateRanges
        #expect(consolidated.map(\.id) == ["preload-break-1", "break-1", "break-2"])
        let merged = consolidated[1]
        #expect(merged.className == DateRange.interstitialClass)
        #expect(merged.startDate == Self.date("2026-11-30T05:00:12Z"))
        #expect(merged.plannedDuration == MediaTime(seconds: 30))
        #expect(merged.duration == MediaTime(seconds: 15))
        #expect(merged.endDate == Self.date("2026-11-30T05:00:27Z"))
        #expect(merged.playoutLimit == MediaTime(seconds: 15))
        #expect(merged.assetList == "https://ads.example.com/list.json?_HLS_interstitial_id=break-1")
        #expect(merged.snap == [.out, .in])
        #expect(merged.timelineOccupies == .range)
    }

    @Test("the legacy X-CUE attribute is read as CUE")
    func legacyCue() throws {
        let playlist = try Corpus.media("media-interstitials-live-updates")
        let bumper = try Self.range("break-2", in: playlist)
        #expect(bumper.cue == [.once])
        #expect(bumper.clientAttributes.isEmpty)
        #expect(playlist.trailingDateRanges.map(\.id) == ["break-2"])
    }

    @Test("an unquoted X-CUE is not a legacy CUE and is kept as a client attribute, not dropped")
    func unquotedLegacyCueIsKept() throws {
        let range = try Self.parse(#"ID="x",START-DATE="2026-11-30T05:00:00Z",X-CUE=ONCE"#)
        #expect(range.cue == nil)
        #expect(range.clientAttributes == [Attribute(name: "X-CUE", value: .enumerated("ONCE"))])
        #expect(range.attributes.last == Attribute(name: "X-CUE", value: .enumerated("ONCE")))
    }

    @Test("merging adds the attributes only the later tag has")
    func mergingAddsAttributes() throws {
        let first = try Self.parse(#"ID="b",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:00Z",PLANNED-DURATION=30,X-COM-A="1""#)
        let later = try Self.parse(#"ID="b",DURATION=29.5,X-PLAYOUT-LIMIT=20,X-COM-B=0x0A"#)
        let merged = try first.merging(later)
        #expect(merged.className == DateRange.interstitialClass)
        #expect(merged.startDate == Self.date("2026-11-30T05:00:00Z"))
        #expect(merged.plannedDuration == MediaTime(seconds: 30))
        #expect(merged.duration == MediaTime(decimal: "29.5")!)
        #expect(merged.playoutLimit == MediaTime(seconds: 20))
        #expect(merged.clientAttributes == [
            Attribute(name: "X-COM-A", value: .quotedString("1")), Attribute(name: "X-COM-B", value: .hexadecimal("0x0A")),
        ])
        #expect(try merged.merging(first) == merged)
        #expect(try first.merging(first) == first)
    }

    @Test("merging compares values by meaning: DURATION=15 equals 15.000 and dates compare as instants")
    func mergingComparesByMeaning() throws {
        let first = try Self.parse(#"ID="b",START-DATE="2026-11-30T05:00:12.000Z",DURATION=15"#)
        let later = try Self.parse(#"ID="b",START-DATE="2026-11-30T06:00:12+01:00",DURATION=15.000,END-DATE="2026-11-30T05:00:27Z""#)
        let merged = try first.merging(later)
        #expect(merged.duration == MediaTime(seconds: 15))
        #expect(merged.endDate == Self.date("2026-11-30T05:00:27Z"))
    }

    @Test("merging a tag that changes an attribute throws DateRangeConflict naming it and both values")
    func mergingConflicts() throws {
        let first = try Self.parse(#"ID="b",START-DATE="2026-11-30T05:00:12Z",DURATION=15,X-COM-A="x""#)
        let changedDuration = try Self.parse(#"ID="b",DURATION=15.5"#)
        let error = #expect(throws: DateRangeConflict.self) { try first.merging(changedDuration) }
        #expect(error?.id == "b")
        #expect(error?.attribute == "DURATION")
        #expect(error?.earlierValue == "15")
        #expect(error?.laterValue == "15.5")
        #expect(error?.description.contains("may add attributes but not change them") == true)

        let changedStart = try Self.parse(#"ID="b",START-DATE="2026-11-30T05:00:13Z""#)
        #expect(throws: DateRangeConflict.self) { try first.merging(changedStart) }

        let changedType = try Self.parse(#"ID="b",X-COM-A=0x78"#)
        let typeError = #expect(throws: DateRangeConflict.self) { try first.merging(changedType) }
        #expect(typeError?.attribute == "X-COM-A")
    }

    @Test("consolidatedDateRanges keeps the first value of a changed attribute and the later tag's other attributes")
    func consolidationSkipsConflicts() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z
            #EXT-X-DATERANGE:ID="b",START-DATE="2026-11-30T05:00:02Z",DURATION=10
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="b",DURATION=12,X-COM-A="kept too"
            #EXT-X-DATERANGE:ID="b",X-COM-B="kept"
            #EXTINF:6,
            b.ts

            """
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.dateRanges.count == 3)
        let consolidated = playlist.consolidatedDateRanges
        #expect(consolidated.count == 1)
        #expect(consolidated.first?.duration == MediaTime(seconds: 10))
        #expect(consolidated.first?.clientAttributes == [
            Attribute(name: "X-COM-A", value: .quotedString("kept too")),
            Attribute(name: "X-COM-B", value: .quotedString("kept")),
        ], "a tag that changes one attribute still adds its others (issue 11, item 16)")
    }
}
