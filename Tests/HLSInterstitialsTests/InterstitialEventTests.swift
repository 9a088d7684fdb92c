import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// RFC 8216bis Appendix D.2 and D.3: every interstitial attribute of EXT-X-DATERANGE becomes an
/// event property, with the specification's defaults; the client API has Apple's defaults.
@Suite("InterstitialEvent from EXT-X-DATERANGE and from the client API")
struct InterstitialEventTests {
    @Test("ID, START-DATE, X-ASSET-URI and DURATION become identifier, date start, asset and duration")
    func identityAndStart() throws {
        let event = try Fixture.event(Fixture.interstitial("ad-1", at: "12.5", "DURATION=15"))
        #expect(event.identifier == "ad-1")
        #expect(event.id == "ad-1")
        #expect(event.start == .date(Fixture.date("12.5")))
        #expect(event.assetURIs == ["https://ads.example.com/ad-1.m3u8"])
        #expect(event.assetListURI == nil)
        #expect(event.duration == time("15"))
        #expect(event.plannedDuration == nil)
        #expect(event.origin == .playlist)
    }

    @Test("an event with no optional attribute has the specification's defaults")
    func specificationDefaults() throws {
        let event = try Fixture.event(Fixture.interstitial("ad", at: "30"))
        #expect(event.resumptionOffset == nil, "absent X-RESUME-OFFSET means 'the duration of the interstitial' (D.2)")
        #expect(event.playoutLimit == nil)
        #expect(event.cue == .none)
        #expect(!event.willPlayOnce)
        #expect(!event.alignsStartWithPrimarySegmentBoundary)
        #expect(!event.alignsResumptionWithPrimarySegmentBoundary)
        #expect(event.restrictions == [])
        #expect(event.timelineOccupancy == .singlePoint, "X-TIMELINE-OCCUPIES defaults to POINT")
        #expect(!event.supplementsPrimaryContent, "X-TIMELINE-STYLE defaults to HIGHLIGHT")
        #expect(event.contentMayVary, "X-CONTENT-MAY-VARY defaults to YES")
        #expect(event.skipControl == nil)
        #expect(event.duration == nil)
        #expect(event.userDefinedAttributes.isEmpty)
    }

    @Test("X-ASSET-LIST is kept as written (it may be relative to the playlist)")
    func assetList() throws {
        let event = try Fixture.event(Fixture.interstitial("ad", at: "30", "X-ASSET-LIST=\"ads/list.json?slot=2\""))
        #expect(event.assetListURI == "ads/list.json?slot=2")
        #expect(event.assetURIs.isEmpty)
    }

    @Test("END-DATE without DURATION gives the duration END-DATE minus START-DATE")
    func endDateDuration() throws {
        let event = try Fixture.event(Fixture.interstitial("ad", at: "30", "END-DATE=\"\(Fixture.dateText("42.25"))\""))
        #expect(event.duration == time("12.25"))
    }

    @Test("PLANNED-DURATION is kept apart from DURATION")
    func plannedDuration() throws {
        let planned = try Fixture.event(Fixture.interstitial("ad", at: "30", "PLANNED-DURATION=20.5"))
        #expect(planned.plannedDuration == time("20.5"))
        #expect(planned.duration == nil)
        #expect(planned.statedDuration == time("20.5"))
        let both = try Fixture.event(Fixture.interstitial("ad", at: "30", "PLANNED-DURATION=20,DURATION=18"))
        #expect(both.statedDuration == time("18"), "the actual duration wins over the planned one")
    }

    @Test("X-RESUME-OFFSET is signed: positive, zero and negative values are kept")
    func resumeOffset() throws {
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESUME-OFFSET=7.5")).resumptionOffset == time("7.5"))
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESUME-OFFSET=0")).resumptionOffset == .zero)
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESUME-OFFSET=-6")).resumptionOffset == time("-6"))
    }

    @Test("X-PLAYOUT-LIMIT becomes the playout limit and caps the stated duration")
    func playoutLimit() throws {
        let event = try Fixture.event(Fixture.interstitial("a", at: "30", "DURATION=30,X-PLAYOUT-LIMIT=20"))
        #expect(event.playoutLimit == time("20"))
        #expect(event.statedDuration == time("20"))
        let longer = try Fixture.event(Fixture.interstitial("a", at: "30", "DURATION=10,X-PLAYOUT-LIMIT=20"))
        #expect(longer.statedDuration == time("10"), "a limit above the duration changes nothing")
    }

    @Test("CUE PRE, POST and ONCE become the join cue, the leave cue and play-once")
    func cue() throws {
        let pre = try Fixture.event(Fixture.interstitial("a", at: "0", "CUE=\"PRE\""))
        #expect(pre.cue == .join)
        #expect(!pre.willPlayOnce)
        let post = try Fixture.event(Fixture.interstitial("a", at: "0", "CUE=\"POST\""))
        #expect(post.cue == .leave)
        let once = try Fixture.event(Fixture.interstitial("a", at: "30", "CUE=\"ONCE\""))
        #expect(once.cue == .none)
        #expect(once.willPlayOnce)
        let preOnce = try Fixture.event(Fixture.interstitial("a", at: "0", "CUE=\"PRE,ONCE\""))
        #expect(preOnce.cue == .join)
        #expect(preOnce.willPlayOnce)
    }

    @Test("unknown CUE tokens are ignored and the known ones kept")
    func unknownCueTokens() throws {
        let event = try Fixture.event(Fixture.interstitial("a", at: "0", "CUE=\"LATER,POST\""))
        #expect(event.cue == .leave)
        #expect(!event.willPlayOnce)
        let onlyUnknown = try Fixture.event(Fixture.interstitial("a", at: "30", "CUE=\"SOMETIMES\""))
        #expect(onlyUnknown.cue == .none)
    }

    @Test("a CUE with both PRE and POST makes the tag invalid, so it is ignored")
    func preAndPost() throws {
        // §4.4.5.1: the CUE attribute "MUST NOT include both PRE and POST"; hls.js treats such a
        // tag as invalid and ignores it.
        let error = try Fixture.eventError(Fixture.interstitial("both", at: "0", "CUE=\"PRE,POST\""))
        #expect(error.identifier == "both")
        #expect(error.description.contains("PRE and POST"))
    }

    @Test("the legacy X-CUE attribute is honoured when CUE is absent, and not kept as a user attribute")
    func legacyXCue() throws {
        let event = try Fixture.event(Fixture.interstitial("a", at: "0", "X-CUE=\"PRE,ONCE\""))
        #expect(event.cue == .join)
        #expect(event.willPlayOnce)
        #expect(event.userDefinedAttributes["X-CUE"] == nil)
    }

    @Test("X-SNAP OUT and IN set the two alignments; unknown tokens are ignored")
    func snap() throws {
        let out = try Fixture.event(Fixture.interstitial("a", at: "30", "X-SNAP=\"OUT\""))
        #expect(out.alignsStartWithPrimarySegmentBoundary)
        #expect(!out.alignsResumptionWithPrimarySegmentBoundary)
        let into = try Fixture.event(Fixture.interstitial("a", at: "30", "X-SNAP=\"IN\""))
        #expect(!into.alignsStartWithPrimarySegmentBoundary)
        #expect(into.alignsResumptionWithPrimarySegmentBoundary)
        let both = try Fixture.event(Fixture.interstitial("a", at: "30", "X-SNAP=\"SIDEWAYS,IN,OUT\""))
        #expect(both.alignsStartWithPrimarySegmentBoundary)
        #expect(both.alignsResumptionWithPrimarySegmentBoundary)
    }

    @Test("X-RESTRICT SKIP and JUMP map to Apple's restrictions; unknown tokens are ignored")
    func restrict() throws {
        let skip = try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESTRICT=\"SKIP\""))
        #expect(skip.restrictions == .requiresPlaybackAtPreferredRateForAdvancement)
        let jump = try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESTRICT=\"JUMP\""))
        #expect(jump.restrictions == .constrainsSeekingForwardInPrimaryContent)
        let both = try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESTRICT=\"JUMP,REWIND,SKIP\""))
        #expect(both.restrictions == [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement])
        let unknown = try Fixture.event(Fixture.interstitial("a", at: "30", "X-RESTRICT=\"REWIND\""))
        #expect(unknown.restrictions == [])
    }

    @Test("X-TIMELINE-OCCUPIES: RANGE fills, POINT is a point, an unknown value counts as absent (POINT)")
    func timelineOccupies() throws {
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-OCCUPIES=\"RANGE\"")).timelineOccupancy == .fill)
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-OCCUPIES=\"POINT\"")).timelineOccupancy == .singlePoint)
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-OCCUPIES=\"AREA\"")).timelineOccupancy == .singlePoint)
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-OCCUPIES=\"range\"")).timelineOccupancy == .singlePoint,
                "enumerated values are case-sensitive")
    }

    @Test("X-TIMELINE-STYLE: PRIMARY supplements primary content, HIGHLIGHT and unknown values do not")
    func timelineStyle() throws {
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-STYLE=\"PRIMARY\"")).supplementsPrimaryContent)
        #expect(!(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-STYLE=\"HIGHLIGHT\"")).supplementsPrimaryContent))
        #expect(!(try Fixture.event(Fixture.interstitial("a", at: "30", "X-TIMELINE-STYLE=\"LOUD\"")).supplementsPrimaryContent))
    }

    @Test("X-CONTENT-MAY-VARY: NO turns it off, YES and unknown values keep the default YES")
    func contentMayVary() throws {
        #expect(!(try Fixture.event(Fixture.interstitial("a", at: "30", "X-CONTENT-MAY-VARY=\"NO\"")).contentMayVary))
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-CONTENT-MAY-VARY=\"YES\"")).contentMayVary)
        #expect(try Fixture.event(Fixture.interstitial("a", at: "30", "X-CONTENT-MAY-VARY=\"MAYBE\"")).contentMayVary)
    }

    @Test("X-SKIP-CONTROL-OFFSET, -DURATION and -LABEL-ID become the skip control")
    func skipControl() throws {
        let event = try Fixture.event(Fixture.interstitial(
            "a", at: "30", "X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=20,X-SKIP-CONTROL-LABEL-ID=\"Skip-Ad_label\""
        ))
        #expect(event.skipControl == InterstitialEvent.SkipControl(offset: time("5"), duration: time("20"), labelID: "Skip-Ad_label"))
        let immediate = try Fixture.event(Fixture.interstitial("a", at: "30", "X-SKIP-CONTROL-OFFSET=0"))
        #expect(immediate.skipControl == InterstitialEvent.SkipControl(offset: .zero, duration: nil, labelID: nil),
                "offset 0 shows the button at once, for the whole break")
    }

    @Test("without X-SKIP-CONTROL-OFFSET there is no skip button, whatever the other skip attributes say")
    func skipControlNeedsOffset() throws {
        let event = try Fixture.event(Fixture.interstitial("a", at: "30", "X-SKIP-CONTROL-DURATION=20,X-SKIP-CONTROL-LABEL-ID=\"skip\""))
        #expect(event.skipControl == nil)
    }

    @Test("other X- attributes are kept as user-defined attributes with their values")
    func userDefinedAttributes() throws {
        let event = try Fixture.event(Fixture.interstitial(
            "a", at: "30", "X-COM-EXAMPLE-BEACON=123,X-COM-EXAMPLE-NAME=\"spring sale\",X-COM-EXAMPLE-BLOB=0xBEEF"
        ))
        #expect(event.userDefinedAttributes == [
            "X-COM-EXAMPLE-BEACON": "123", "X-COM-EXAMPLE-NAME": "spring sale", "X-COM-EXAMPLE-BLOB": "0xBEEF",
        ])
    }

    @Test("a tag without START-DATE (and no earlier tag with its ID) cannot become an event")
    func missingStartDate() throws {
        let error = try Fixture.eventError(
            "#EXT-X-DATERANGE:ID=\"nodate\",CLASS=\"com.apple.hls.interstitial\",X-ASSET-URI=\"https://ads.example.com/a.m3u8\""
        )
        #expect(error.identifier == "nodate")
        #expect(error.description.contains("START-DATE"))
    }

    @Test("an interstitial needs exactly one of X-ASSET-URI and X-ASSET-LIST")
    func assetAttributes() throws {
        let neither = try Fixture.eventError(
            "#EXT-X-DATERANGE:ID=\"none\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(Fixture.dateText("30"))\""
        )
        #expect(neither.identifier == "none")
        #expect(neither.description.contains("X-ASSET-URI or X-ASSET-LIST"))
        let both = try Fixture.eventError(Fixture.interstitial(
            "both", at: "30", "X-ASSET-URI=\"https://ads.example.com/a.m3u8\",X-ASSET-LIST=\"list.json\""
        ))
        #expect(both.identifier == "both")
        #expect(both.description.contains("both X-ASSET-URI and X-ASSET-LIST"))
    }

    @Test("a date range of another CLASS is not an interstitial")
    func otherClass() throws {
        let playlist = try Fixture.playlist(tags: [
            "#EXT-X-DATERANGE:ID=\"chapter\",CLASS=\"com.example.chapter\",START-DATE=\"\(Fixture.dateText("30"))\",X-ASSET-URI=\"https://a/b.m3u8\"",
            "#EXT-X-DATERANGE:ID=\"plural\",CLASS=\"com.apple.hls.interstitials\",START-DATE=\"\(Fixture.dateText("30"))\",X-ASSET-URI=\"https://a/b.m3u8\"",
        ])
        let result = InterstitialEvent.events(in: playlist)
        #expect(result.events.isEmpty)
        #expect(result.errors.isEmpty, "other classes are not errors, just not interstitials")
        let range = try #require(playlist.dateRanges.first)
        #expect(throws: InterstitialEventError.self) { try InterstitialEvent(dateRange: range) }
    }

    @Test("events come in tag order with invalid tags reported beside them")
    func eventsInTagOrder() throws {
        let playlist = try Fixture.playlist(
            tags: [Fixture.interstitial("late", at: "40")],
            segmentTags: [
                2: [Fixture.interstitial("early", at: "10")],
                5: ["#EXT-X-DATERANGE:ID=\"bad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(Fixture.dateText("31"))\""],
            ],
            trailingTags: [Fixture.interstitial("last", at: "50")]
        )
        let result = InterstitialEvent.events(in: playlist)
        #expect(result.events.map(\.identifier) == ["late", "early", "last"])
        #expect(result.errors.map(\.identifier) == ["bad"])
    }

    @Test("tags with the same ID are consolidated: a later tag adds attributes (§4.4.5.1)")
    func sameIDConsolidated() throws {
        let playlist = try Fixture.playlist(
            live: true,
            tags: [Fixture.interstitial("live-1", at: "30", "PLANNED-DURATION=30")],
            segmentTags: [6: ["#EXT-X-DATERANGE:ID=\"live-1\",DURATION=24.5,X-PLAYOUT-LIMIT=20"]]
        )
        let result = InterstitialEvent.events(in: playlist)
        #expect(result.errors.isEmpty)
        let event = try #require(result.events.first)
        #expect(result.events.count == 1)
        #expect(event.start == .date(Fixture.date("30")))
        #expect(event.plannedDuration == time("30"))
        #expect(event.duration == time("24.5"))
        #expect(event.playoutLimit == time("20"))
        #expect(event.statedDuration == time("20"))
    }

    @Test("END-ON-NEXT ends a break where the next interstitial (by START-DATE) begins")
    func endOnNext() throws {
        // §4.4.5.1: the end of an END-ON-NEXT range is the START-DATE of its Following Range, the
        // range of the same CLASS with the earliest START-DATE after its own.
        let playlist = try Fixture.playlist(tags: [
            Fixture.interstitial("a", at: "30", "END-ON-NEXT=YES"),
            Fixture.interstitial("c", at: "50", "DURATION=5"),
            Fixture.interstitial("b", at: "42.5", "DURATION=5"),
            Fixture.interstitial("last", at: "55", "END-ON-NEXT=YES"),
        ])
        let events = InterstitialEvent.events(in: playlist).events
        #expect(events.map(\.identifier) == ["a", "c", "b", "last"])
        #expect(events[0].duration == time("12.5"))
        #expect(events[3].duration == nil, "no following range yet: the end is not known")
        let schedule = Fixture.schedule(playlist)
        #expect(schedule.scheduledBreak(id: "a")?.resumeTime == time("42.5"))
    }

    @Test("a client event has Apple's defaults: resumption offset zero, point occupancy, content may vary")
    func clientDefaults() {
        let event = InterstitialEvent(identifier: "promo", start: .time(time("30")), assetURIs: ["https://ads.example.com/p.m3u8"])
        #expect(event.origin == .client)
        #expect(event.resumptionOffset == .zero, "AVPlayerInterstitialEvent.resumptionOffset defaults to .zero")
        #expect(event.timelineOccupancy == .singlePoint)
        #expect(event.contentMayVary)
        #expect(!event.supplementsPrimaryContent)
        #expect(event.restrictions == [])
        #expect(event.cue == .none)
        #expect(!event.willPlayOnce)
        #expect(event.playoutLimit == nil)
        #expect(event.plannedDuration == nil)
        #expect(!event.alignsStartWithPrimarySegmentBoundary)
        #expect(!event.alignsResumptionWithPrimarySegmentBoundary)
    }

    @Test("the same break resumes where it left off from the client API, but after its duration from a playlist")
    func defaultsDiffer() throws {
        var client = InterstitialEvent(identifier: "ad", start: .date(Fixture.date("30")), assetURIs: ["https://ads.example.com/ad.m3u8"])
        client.duration = time("15")
        let playlist = try Fixture.playlist(tags: [Fixture.interstitial("ad", at: "30", "DURATION=15")])
        let fromPlaylist = try #require(InterstitialEvent.events(in: playlist).events.first)
        let primary = PrimaryTimeline(playlist: playlist)
        let clientBreak = try #require(InterstitialSchedule(primary: primary, events: [client]).breaks.first)
        let playlistBreak = try #require(InterstitialSchedule(primary: primary, events: [fromPlaylist]).breaks.first)
        #expect(clientBreak.resumptionOffset == .zero)
        #expect(clientBreak.resumeTime == time("30"))
        #expect(playlistBreak.resumptionOffset == time("15"))
        #expect(playlistBreak.resumeTime == time("45"))
    }

    @Test("a client event with an indefinite resumption offset resumes after the time the break took")
    func indefiniteOffset() throws {
        var event = InterstitialEvent(identifier: "live-ad", start: .time(time("30")), assetURIs: ["https://a/b.m3u8"],
                                      resumptionOffset: .indefinite)
        event.duration = time("12")
        let primary = PrimaryTimeline(playlist: try Fixture.playlist())
        let scheduled = try #require(InterstitialSchedule(primary: primary, events: [event]).breaks.first)
        #expect(scheduled.resumptionOffset == time("12"))
        #expect(scheduled.resumeTime == time("42"))
    }
}
