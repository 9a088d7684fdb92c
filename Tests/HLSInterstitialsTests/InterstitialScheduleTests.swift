import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// Where breaks play and where primary resumes (RFC 8216bis Appendix D.2, D.5). Unless a test says
/// otherwise the primary is a 60 s VOD of ten 6 s segments dated from the epoch, so a START-DATE
/// `n` seconds after the epoch is primary time `n`.
@Suite("InterstitialSchedule")
struct InterstitialScheduleTests {
    typealias Options = InterstitialSchedule.Options

    private static func onlyBreak(_ schedule: InterstitialSchedule) throws -> InterstitialSchedule.Break {
        try #require(schedule.breaks.count == 1, "expected one break, found \(schedule.outline)")
        return schedule.breaks[0]
    }

    // MARK: - Placement and CUE

    @Test("a break without CUE plays at its START-DATE and primary resumes after its duration")
    func midRoll() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("ad", at: "30", "DURATION=15")])
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.start == time("30"))
        #expect(scheduled.duration == time("15"))
        #expect(scheduled.resumptionOffset == time("15"))
        #expect(scheduled.resumeTime == time("45"))
        #expect(schedule.items == [primaryItem("0", "30"), .interstitial(scheduled), primaryItem("45", "60")])
        #expect(schedule.exclusions.isEmpty)
    }

    @Test("a fractional START-DATE is placed exactly")
    func fractionalStart() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("ad", at: "12.345", "DURATION=0.5")])
        #expect(schedule.outline == ["primary 0–12.345", "break ad 12.345→12.845", "primary 12.845–60"])
    }

    @Test("CUE=PRE plays before primary starts, whatever its START-DATE says")
    func preRoll() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("pre", at: "20", "CUE=\"PRE\",DURATION=10,X-RESUME-OFFSET=0")])
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.start == .zero)
        #expect(scheduled.resumeTime == .zero)
        #expect(schedule.outline == ["break pre 0→0", "primary 0–60"])
    }

    @Test("CUE=PRE without X-RESUME-OFFSET replaces as much primary as it lasts, like any break")
    func preRollDefaultOffset() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=10")])
        #expect(schedule.outline == ["break pre 0→10", "primary 10–60"])
    }

    @Test("CUE=PRE plays where playback starts when it starts later in the VOD")
    func preRollAtStartPosition() throws {
        let schedule = try Fixture.vodSchedule(
            [Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=10,X-RESUME-OFFSET=0")], options: Options(startTime: time("24"))
        )
        #expect(schedule.outline == ["primary 0–24", "break pre 24→24", "primary 24–60"])
    }

    @Test("CUE=POST plays after the end of primary, and primary does not resume")
    func postRoll() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("post", at: "10", "CUE=\"POST\",DURATION=10")])
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.start == time("60"))
        #expect(scheduled.duration == time("10"))
        #expect(scheduled.resumeTime == time("60"))
        #expect(schedule.outline == ["primary 0–60", "break post 60→60"])
    }

    @Test("pre-rolls come first and post-rolls last, whatever the tag order")
    func cueOrder() throws {
        let schedule = try Fixture.vodSchedule([
            Fixture.interstitial("post", at: "0", "CUE=\"POST\",DURATION=5"),
            Fixture.interstitial("mid", at: "30", "DURATION=5,X-RESUME-OFFSET=0"),
            Fixture.interstitial("pre", at: "59", "CUE=\"PRE\",DURATION=5,X-RESUME-OFFSET=0"),
        ])
        #expect(schedule.outline == ["break pre 0→0", "primary 0–30", "break mid 30→30", "primary 30–60", "break post 60→60"])
    }

    @Test("a CUE=ONCE break that has already played is not scheduled again")
    func oncePlayed() throws {
        let tags = [Fixture.interstitial("once", at: "30", "CUE=\"ONCE\",DURATION=10,X-RESUME-OFFSET=0")]
        let first = try Fixture.vodSchedule(tags)
        #expect(first.outline == ["primary 0–30", "break once 30→30", "primary 30–60"])
        let again = try Fixture.vodSchedule(tags, options: Options(playedOnce: ["once"]))
        #expect(again.outline == ["primary 0–60"])
        #expect(again.exclusionReason("once") == .playedOnce)
    }

    @Test("a played ONCE break with a positive offset no longer skips primary")
    func oncePlayedKeepsPrimary() throws {
        let again = try Fixture.vodSchedule([Fixture.interstitial("once", at: "30", "CUE=\"ONCE\",DURATION=10")],
                                            options: Options(playedOnce: ["once"]))
        #expect(again.outline == ["primary 0–60"])
    }

    @Test("playedOnce does not affect breaks without CUE=ONCE")
    func playedOnceOnlyForOnce() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("ad", at: "30", "DURATION=10,X-RESUME-OFFSET=0")],
                                               options: Options(playedOnce: ["ad"]))
        #expect(schedule.outline == ["primary 0–30", "break ad 30→30", "primary 30–60"])
    }

    // MARK: - X-SNAP

    @Test("X-SNAP=OUT moves the start to the nearest segment boundary")
    func snapOut() throws {
        let early = try Fixture.vodSchedule([Fixture.interstitial("a", at: "32.9", "X-SNAP=\"OUT\",DURATION=10")])
        #expect(try Self.onlyBreak(early).start == time("30"))
        #expect(try Self.onlyBreak(early).resumeTime == time("40"))
        let late = try Fixture.vodSchedule([Fixture.interstitial("a", at: "33", "X-SNAP=\"OUT\",DURATION=10")])
        #expect(try Self.onlyBreak(late).start == time("36"))
        #expect(late.outline == ["primary 0–36", "break a 36→46", "primary 46–60"])
    }

    @Test("X-SNAP=IN moves the resumption point to the nearest segment boundary")
    func snapIn() throws {
        let down = try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "X-SNAP=\"IN\",DURATION=14")])
        #expect(down.outline == ["primary 0–30", "break a 30→42", "primary 42–60"])
        let up = try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "X-SNAP=\"IN\",DURATION=16")])
        #expect(up.outline == ["primary 0–30", "break a 30→48", "primary 48–60"])
        #expect(try Self.onlyBreak(up).resumptionOffset == time("16"), "the offset is as computed; only the resume point moves")
    }

    @Test("without X-SNAP, start and resume stay inside segments")
    func noSnap() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("a", at: "31", "DURATION=14")])
        #expect(schedule.outline == ["primary 0–31", "break a 31→45", "primary 45–60"])
    }

    @Test("X-SNAP=OUT past the last segment of a VOD moves the break to the end instead of dropping it")
    func snapOutPastEnd() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("a", at: "63", "X-SNAP=\"OUT\",DURATION=5")])
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.start == time("60"))
        #expect(schedule.exclusions.isEmpty)
        let unsnapped = try Fixture.vodSchedule([Fixture.interstitial("a", at: "63", "DURATION=5")])
        #expect(unsnapped.exclusions.map(\.reason) == [.afterEnd], "without X-SNAP the break stays after the end")
    }

    @Test("X-SNAP=OUT,IN snaps both ends")
    func snapBoth() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("a", at: "31", "X-SNAP=\"OUT,IN\",DURATION=14.5")])
        // Start 31 → 30; resume 30 + 14.5 = 44.5 → 42 (44.5 − 42 < 3).
        #expect(schedule.outline == ["primary 0–30", "break a 30→42", "primary 42–60"])
    }

    // MARK: - Resumption offsets

    @Test("an explicit X-RESUME-OFFSET sets where primary resumes")
    func explicitOffset() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "DURATION=15,X-RESUME-OFFSET=5")])
        #expect(try Self.onlyBreak(schedule).resumptionOffset == time("5"))
        #expect(schedule.outline == ["primary 0–30", "break a 30→35", "primary 35–60"])
    }

    @Test("X-RESUME-OFFSET=0 inserts the break: primary resumes where it left off")
    func zeroOffset() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "DURATION=15,X-RESUME-OFFSET=0")])
        #expect(schedule.outline == ["primary 0–30", "break a 30→30", "primary 30–60"])
    }

    @Test("a negative X-RESUME-OFFSET replays primary, and the break is not scheduled twice")
    func negativeOffset() throws {
        let schedule = try Fixture.vodSchedule([Fixture.interstitial("recap", at: "30", "DURATION=10,X-RESUME-OFFSET=-6")])
        #expect(try Self.onlyBreak(schedule).resumptionOffset == time("-6"))
        #expect(schedule.outline == ["primary 0–30", "break recap 30→24", "primary 24–60"])
    }

    @Test("breaks at the same start play in tag order and their offsets add up")
    func cumulativeOffsets() throws {
        let schedule = try Fixture.vodSchedule([
            Fixture.interstitial("a", at: "30", "DURATION=10"),
            Fixture.interstitial("b", at: "30", "DURATION=5"),
        ])
        #expect(schedule.outline == ["primary 0–30", "break a 30→40", "break b 30→45", "primary 45–60"])
        #expect(schedule.breaks.map(\.resumptionOffset) == [time("10"), time("5")])
        #expect(schedule.breaks.map(\.start) == [time("30"), time("30")])
    }

    @Test("cumulative offsets mix explicit and default values, in the order the tags appear")
    func cumulativeMixed() throws {
        let schedule = try Fixture.vodSchedule([
            Fixture.interstitial("b", at: "30", "DURATION=5"),
            Fixture.interstitial("a", at: "30", "DURATION=10,X-RESUME-OFFSET=0"),
            Fixture.interstitial("c", at: "30", "DURATION=8,X-RESUME-OFFSET=-2"),
        ])
        #expect(schedule.outline == ["primary 0–30", "break b 30→35", "break a 30→35", "break c 30→33", "primary 33–60"])
    }

    @Test("X-PLAYOUT-LIMIT caps the played duration and becomes the resumption offset")
    func playoutLimit() throws {
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "DURATION=30,X-PLAYOUT-LIMIT=20")]))
        #expect(scheduled.duration == time("20"))
        #expect(scheduled.resumptionOffset == time("20"))
        #expect(scheduled.resumeTime == time("50"))
    }

    @Test("X-PLAYOUT-LIMIT above the duration changes nothing, and an explicit offset wins over the limit")
    func playoutLimitOther() throws {
        let longer = try Self.onlyBreak(try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "DURATION=10,X-PLAYOUT-LIMIT=20")]))
        #expect(longer.duration == time("10"))
        #expect(longer.resumeTime == time("40"))
        let inserted = try Self.onlyBreak(try Fixture.vodSchedule([
            Fixture.interstitial("a", at: "30", "DURATION=30,X-PLAYOUT-LIMIT=20,X-RESUME-OFFSET=0"),
        ]))
        #expect(inserted.duration == time("20"))
        #expect(inserted.resumeTime == time("30"))
    }

    @Test("END-DATE gives the duration when DURATION is absent, and PLANNED-DURATION when both are")
    func durationSources() throws {
        let endDate = try Self.onlyBreak(try Fixture.vodSchedule([
            Fixture.interstitial("a", at: "30", "END-DATE=\"\(Fixture.dateText("42.5"))\""),
        ]))
        #expect(endDate.duration == time("12.5"))
        #expect(endDate.resumeTime == time("42.5"))
        let planned = try Self.onlyBreak(try Fixture.vodSchedule([Fixture.interstitial("a", at: "30", "PLANNED-DURATION=8")]))
        #expect(planned.duration == time("8"))
        #expect(planned.resumeTime == time("38"))
    }

    @Test("a break of unknown duration resumes where it started")
    func unknownDuration() throws {
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([Fixture.interstitial("a", at: "30")]))
        #expect(scheduled.duration == nil)
        #expect(scheduled.resumptionOffset == .zero)
        #expect(scheduled.resumeTime == time("30"))
    }

    // MARK: - Asset lists

    private static let listTag = Fixture.interstitial(
        "pod", at: "30", "X-ASSET-LIST=\"ads/pod.json\",DURATION=30,X-SKIP-CONTROL-OFFSET=10"
    )

    @Test("a resolved asset list's durations replace DURATION, and its skip control overrides the tag's")
    func resolvedList() throws {
        let list = try Fixture.assetList("""
            {"ASSETS":[{"URI":"https://ads.example.com/1.m3u8","DURATION":12.5},{"URI":"https://ads.example.com/2.m3u8","DURATION":10}],
             "SKIP-CONTROL":{"OFFSET":5,"DURATION":20}}
            """)
        let schedule = try Fixture.vodSchedule([Self.listTag], options: Options(assetLists: ["pod": .resolved(list)]))
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.duration == time("22.5"))
        #expect(scheduled.resumptionOffset == time("22.5"))
        #expect(scheduled.resumeTime == time("52.5"))
        #expect(scheduled.assets?.map(\.uri) == ["https://ads.example.com/1.m3u8", "https://ads.example.com/2.m3u8"])
        #expect(scheduled.skipControl == InterstitialEvent.SkipControl(offset: time("5"), duration: time("20")))
        #expect(!scheduled.playsNothing)
    }

    @Test("the D.7 example: the asset list moves the skip button, the tag's label stays, primary resumes where it left off")
    func specificationSkipExample() throws {
        let tag = "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2020-01-02T21:55:44.000Z\","
            + "DURATION=30.0,X-ASSET-LIST=\"http://example.com/adv.json\",X-RESUME-OFFSET=0,X-SKIP-CONTROL-OFFSET=2,"
            + "X-SKIP-CONTROL-DURATION=5,X-SKIP-CONTROL-LABEL-ID=\"Exit-Label\""
        let playlist = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2020-01-02T21:55:40.000Z
            #EXTINF:6,
            main1.mp4
            #EXT-X-ENDLIST
            \(tag)

            """)
        let list = try Fixture.assetList("""
            {"ASSETS": [{"URI": "http://example.com/ad1.m3u8", "DURATION": 15}, {"URI": "http://example.com/ad2.m3u8", "DURATION": 15}],
             "SKIP-CONTROL": {"OFFSET": 5, "DURATION": 20}}
            """)
        let pending = try #require(Fixture.schedule(playlist).breaks.first)
        #expect(pending.skipControl == InterstitialEvent.SkipControl(offset: time("2"), duration: time("5"), labelID: "Exit-Label"))
        let schedule = Fixture.schedule(playlist, options: Options(assetLists: ["ad1": .resolved(list)]))
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.skipControl == InterstitialEvent.SkipControl(offset: time("5"), duration: time("20"), labelID: "Exit-Label"))
        #expect(scheduled.duration == time("30"))
        #expect(schedule.outline == ["primary 0–4", "break ad1 4→4", "primary 4–6"])
        #expect(scheduled.asset(at: time("20"))! == (1, time("5")), "20 s into the break is 5 s into the second asset")
    }

    @Test("before its asset list is answered a break uses DURATION and the tag's skip control")
    func pendingList() throws {
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([Self.listTag]))
        #expect(scheduled.assetListState == .pending)
        #expect(scheduled.duration == time("30"))
        #expect(scheduled.resumeTime == time("60"))
        #expect(scheduled.assets == nil)
        #expect(scheduled.skipControl == InterstitialEvent.SkipControl(offset: time("10")))
    }

    @Test("an asset without DURATION makes the break at least as long as the tag says")
    func listWithUnknownDuration() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":10},{"URI":"https://a/2.m3u8"}]}"#)
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([Self.listTag], options: Options(assetLists: ["pod": .resolved(list)])))
        #expect(scheduled.duration == time("30"))
    }

    @Test("X-PLAYOUT-LIMIT also caps a resolved asset list")
    func listWithLimit() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":15},{"URI":"https://a/2.m3u8","DURATION":15}]}"#)
        let tag = Fixture.interstitial("pod", at: "30", "X-ASSET-LIST=\"ads/pod.json\",X-PLAYOUT-LIMIT=20")
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([tag], options: Options(assetLists: ["pod": .resolved(list)])))
        #expect(scheduled.duration == time("20"))
        #expect(scheduled.resumeTime == time("50"))
    }

    @Test("an empty asset list plays nothing and resumes with offset 0")
    func emptyList() throws {
        let schedule = try Fixture.vodSchedule([Self.listTag], options: Options(assetLists: ["pod": .resolved(AssetList(assets: []))]))
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.playsNothing)
        #expect(scheduled.duration == .zero)
        #expect(scheduled.resumptionOffset == .zero)
        #expect(schedule.outline == ["primary 0–30", "break pod 30→30", "primary 30–60"])
    }

    @Test("an empty asset list applies an explicit X-RESUME-OFFSET")
    func emptyListWithOffset() throws {
        let tag = Fixture.interstitial("pod", at: "30", "X-ASSET-LIST=\"ads/pod.json\",DURATION=30,X-RESUME-OFFSET=10")
        let schedule = try Fixture.vodSchedule([tag], options: Options(assetLists: ["pod": .resolved(AssetList(assets: []))]))
        #expect(schedule.outline == ["primary 0–30", "break pod 30→40", "primary 40–60"])
    }

    @Test("a failed asset list cancels the break with offset 0, even with X-RESUME-OFFSET")
    func failedList() throws {
        let tag = Fixture.interstitial("pod", at: "30", "X-ASSET-LIST=\"ads/pod.json\",DURATION=30,X-RESUME-OFFSET=10")
        let schedule = try Fixture.vodSchedule([tag], options: Options(assetLists: ["pod": .failed("HTTP 500")]))
        let scheduled = try Self.onlyBreak(schedule)
        #expect(scheduled.playsNothing)
        #expect(scheduled.duration == .zero)
        #expect(scheduled.resumptionOffset == .zero)
        #expect(schedule.outline == ["primary 0–30", "break pod 30→30", "primary 30–60"])
    }

    @Test("an X-ASSET-URI break has its one asset with the tag's duration")
    func singleAsset() throws {
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([Fixture.interstitial("ad", at: "30", "DURATION=15")]))
        #expect(scheduled.assets == [AssetList.Asset(uri: "https://ads.example.com/ad.m3u8", duration: time("15"))])
    }

    @Test("the asset playing at an offset into a break, and the offset into it")
    func assetAtOffset() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":10},{"URI":"https://a/2.m3u8","DURATION":15}]}"#)
        let scheduled = try Self.onlyBreak(try Fixture.vodSchedule([Self.listTag], options: Options(assetLists: ["pod": .resolved(list)])))
        #expect(scheduled.asset(at: .zero)! == (0, .zero))
        #expect(scheduled.asset(at: time("9.5"))! == (0, time("9.5")))
        #expect(scheduled.asset(at: time("10"))! == (1, .zero))
        #expect(scheduled.asset(at: time("12"))! == (1, time("2")))
        #expect(scheduled.asset(at: time("25"))! == (1, time("15")))
    }

    // MARK: - Exclusions

    @Test("a break after the end of a VOD is not scheduled, one exactly at the end is")
    func afterEnd() throws {
        let schedule = try Fixture.vodSchedule([
            Fixture.interstitial("late", at: "75", "DURATION=10"),
            Fixture.interstitial("end", at: "60", "DURATION=10,X-RESUME-OFFSET=0"),
        ])
        #expect(schedule.exclusionReason("late") == .afterEnd)
        #expect(schedule.outline == ["primary 0–60", "break end 60→60"])
    }

    @Test("a playlist without EXT-X-PROGRAM-DATE-TIME cannot place dated breaks")
    func unmappable() throws {
        let schedule = Fixture.schedule(try Fixture.playlist(firstDate: nil, tags: [Fixture.interstitial("ad", at: "30", "DURATION=10")]))
        #expect(schedule.exclusionReason("ad") == .unmappableDate)
        #expect(schedule.outline == ["primary 0–60"])
    }

    @Test("a break whose start primary skips because of an earlier resumption is not played")
    func skippedByResumption() throws {
        let schedule = try Fixture.vodSchedule([
            Fixture.interstitial("a", at: "30", "DURATION=15"),
            Fixture.interstitial("b", at: "40", "DURATION=5"),
        ])
        #expect(schedule.exclusionReason("b") == .skippedByResumption)
        #expect(schedule.outline == ["primary 0–30", "break a 30→45", "primary 45–60"])
    }

    @Test("a break right where the previous one resumes is played")
    func abutting() throws {
        let schedule = try Fixture.vodSchedule([
            Fixture.interstitial("a", at: "30", "DURATION=15"),
            Fixture.interstitial("b", at: "45", "DURATION=5"),
        ])
        #expect(schedule.outline == ["primary 0–30", "break a 30→45", "break b 45→50", "primary 50–60"])
    }

    // MARK: - Live

    /// A live window of five 6 s segments, media sequence 100, its first segment dated `firstDate`.
    private static func live(firstDate: String = "0", mediaSequence: Int = 100, tags: [String] = [],
                             segmentTags: [Int: [String]] = [:]) throws -> MediaPlaylist {
        try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: firstDate, mediaSequence: mediaSequence, live: true,
                             tags: tags, segmentTags: segmentTags)
    }

    @Test("in a live playlist a POST break is not scheduled")
    func livePost() throws {
        let schedule = Fixture.schedule(try Self.live(tags: [Fixture.interstitial("post", at: "0", "CUE=\"POST\",DURATION=10")]))
        #expect(schedule.exclusionReason("post") == .leaveCueOnLive)
        #expect(schedule.outline == ["primary 0–30"])
    }

    @Test("in a live playlist a PRE break plays at the join point and primary resumes its duration later")
    func livePre() throws {
        let schedule = Fixture.schedule(
            try Self.live(tags: [Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=10")]), options: Options(startTime: time("18"))
        )
        #expect(schedule.outline == ["primary 0–18", "break pre 18→28", "primary 28–30"])
    }

    @Test("a live PRE break with a negative offset does not resume behind the join point")
    func livePreNegative() throws {
        let schedule = Fixture.schedule(
            try Self.live(tags: [Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=10,X-RESUME-OFFSET=-5")]),
            options: Options(startTime: time("18"))
        )
        #expect(schedule.outline == ["primary 0–18", "break pre 18→18", "primary 18–30"])
    }

    @Test("a live break that started before the window is kept while it covers the window's start")
    func liveBreakCoveringStart() throws {
        // The window is dated 60–90; on a first load it is primary 0–30.
        let schedule = Fixture.schedule(try Self.live(firstDate: "60", tags: [
            Fixture.interstitial("over", at: "40", "DURATION=15"),
            Fixture.interstitial("covering", at: "50", "DURATION=20,X-TIMELINE-OCCUPIES=\"RANGE\""),
        ]))
        #expect(schedule.exclusionReason("over") == .beforeStart)
        #expect(schedule.outline == ["break covering -10→10", "primary 10–30"])
    }

    @Test("a live break before the window with an unknown duration is dropped")
    func liveBreakBeforeUnknown() throws {
        let schedule = Fixture.schedule(try Self.live(firstDate: "60", tags: [Fixture.interstitial("old", at: "50")]))
        #expect(schedule.exclusionReason("old") == .beforeStart)
        #expect(schedule.outline == ["primary 0–30"])
    }

    @Test("a live break announced ahead of the window's end is scheduled, with live primary running up to it")
    func liveAhead() throws {
        // Spec-silent; hls.js also schedules a live break ahead of the playlist's end, the primary
        // item before it running to its start (the live primary has no end).
        let schedule = Fixture.schedule(try Self.live(tags: [Fixture.interstitial("soon", at: "36", "DURATION=10")]))
        #expect(schedule.outline == ["primary 0–36", "break soon 36→46"])
    }

    @Test("live reloads add, update (same ID) and drop breaks while times stay put")
    func liveReloads() throws {
        // Load 1: MSN 100–104, dated 0–30; a break at 18 announced with PLANNED-DURATION only.
        let first = try Self.live(segmentTags: [3: [Fixture.interstitial("ad1", at: "18", "PLANNED-DURATION=12")]])
        let timeline1 = PrimaryTimeline(playlist: first)
        let schedule1 = InterstitialSchedule(primary: timeline1, events: InterstitialEvent.events(in: first).events)
        #expect(schedule1.outline == ["primary 0–18", "break ad1 18→30"])

        // Load 2: MSN 101–105, dated 6–36; the same ID gains DURATION=10 and a new break appears at 33.
        let second = try Self.live(firstDate: "6", mediaSequence: 101, segmentTags: [
            2: [Fixture.interstitial("ad1", at: "18", "PLANNED-DURATION=12")],
            3: ["#EXT-X-DATERANGE:ID=\"ad1\",DURATION=10"],
            4: [Fixture.interstitial("ad2", at: "33", "DURATION=5,X-RESUME-OFFSET=0")],
        ])
        let timeline2 = PrimaryTimeline(playlist: second, continuing: timeline1)
        let schedule2 = InterstitialSchedule(primary: timeline2, events: InterstitialEvent.events(in: second).events)
        #expect(schedule2.outline == ["primary 6–18", "break ad1 18→28", "primary 28–33", "break ad2 33→33", "primary 33–36"])
        #expect(schedule2.scheduledBreak(id: "ad1")?.duration == time("10"))
        #expect(schedule2.scheduledBreak(id: "ad1")?.event.plannedDuration == time("12"))

        // Load 3: MSN 105–109, dated 30–60; the window has passed ad1 (18–28), so its tag is gone.
        let third = try Self.live(firstDate: "30", mediaSequence: 105, segmentTags: [
            0: [Fixture.interstitial("ad2", at: "33", "DURATION=5,X-RESUME-OFFSET=0")],
        ])
        let timeline3 = PrimaryTimeline(playlist: third, continuing: timeline2)
        let schedule3 = InterstitialSchedule(primary: timeline3, events: InterstitialEvent.events(in: third).events)
        #expect(schedule3.outline == ["primary 30–33", "break ad2 33→33", "primary 33–60"])
        #expect(schedule3.scheduledBreak(id: "ad1") == nil)
        #expect(schedule3.exclusions.isEmpty)
    }

    @Test("the join point does not move breaks without CUE=PRE")
    func joinPointLeavesMidRolls() throws {
        let schedule = Fixture.schedule(try Self.live(tags: [Fixture.interstitial("mid", at: "12", "DURATION=6")]),
                                        options: Options(startTime: time("24")))
        #expect(schedule.outline == ["primary 0–12", "break mid 12→18", "primary 18–30"])
    }
}
