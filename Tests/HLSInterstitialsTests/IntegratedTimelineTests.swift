import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// The integrated timeline (Apple's AVPlayerItemIntegratedTimeline; S2.5–S2.8): a point break takes
/// no length, a range break its duration, primary skipped by a resumption offset is not on it; a
/// seek resolves against D.5 and X-RESTRICT (D.2). The primary is the 60 s VOD of ten 6 s segments.
@Suite("IntegratedTimeline")
struct IntegratedTimelineTests {
    typealias Snapshot = IntegratedTimeline.Snapshot
    typealias Position = IntegratedTimeline.Position

    private static func snapshot(_ tags: [String], at position: Position? = nil,
                                 options: InterstitialSchedule.Options = .init()) throws -> Snapshot {
        Snapshot(schedule: try Fixture.vodSchedule(tags, options: options), position: position)
    }

    /// Each segment as `type event source → target | primary | playout`, for whole-timeline assertions.
    private static func table(_ snapshot: Snapshot) -> [String] {
        snapshot.segments.map { segment in
            let mapping = segment.timeMapping
            return "\(segment.segmentType.rawValue) \(segment.eventID ?? "-") \(mapping.source.start)–\(mapping.source.end)"
                + " → \(mapping.target.start)–\(mapping.target.end) | \(segment.primaryRange.start)–\(segment.primaryRange.end)"
                + " | \(segment.playoutRange.start)–\(segment.playoutRange.end)"
        }
    }

    private static let pointBreak = Fixture.interstitial("ad", at: "30", "DURATION=15")
    private static let rangeBreak = Fixture.interstitial("ad", at: "30", "DURATION=15,X-TIMELINE-OCCUPIES=\"RANGE\"")

    // MARK: - Layout

    @Test("a point break takes zero length on the integrated timeline and its full duration on the playout timeline")
    func pointBreak() throws {
        let snapshot = try Self.snapshot([Self.pointBreak])
        #expect(Self.table(snapshot) == [
            "primary - 0–30 → 0–30 | 0–30 | 0–30",
            "interstitial ad 0–15 → 30–30 | 30–45 | 30–45",
            "primary - 45–60 → 30–45 | 45–60 | 45–60",
        ])
        #expect(snapshot.segments[1].timeMapping.target.duration == .zero)
        #expect(snapshot.segments[1].interstitialEvent?.identifier == "ad")
        #expect(snapshot.duration == time("45"), "primary 45–60 follows the break; 30–45 was replaced by it")
        #expect(snapshot.knownDuration == time("45"))
        #expect(snapshot.playoutDuration == time("60"))
    }

    @Test("a range break takes its duration, and the primary it replaces is not on the timeline")
    func rangeBreak() throws {
        let snapshot = try Self.snapshot([Self.rangeBreak])
        #expect(Self.table(snapshot) == [
            "primary - 0–30 → 0–30 | 0–30 | 0–30",
            "interstitial ad 0–15 → 30–45 | 30–45 | 30–45",
            "primary - 45–60 → 45–60 | 45–60 | 45–60",
        ])
        #expect(snapshot.duration == time("60"))
        #expect(snapshot.playoutDuration == time("60"))
    }

    @Test("a range break with resumption offset zero adds its duration to the timeline")
    func rangeInserted() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("ad", at: "30", "DURATION=15,X-RESUME-OFFSET=0,X-TIMELINE-OCCUPIES=\"RANGE\"")])
        #expect(Self.table(snapshot) == [
            "primary - 0–30 → 0–30 | 0–30 | 0–30",
            "interstitial ad 0–15 → 30–45 | 30–30 | 30–45",
            "primary - 30–60 → 45–75 | 30–60 | 45–75",
        ])
        #expect(snapshot.duration == time("75"))
        #expect(snapshot.playoutDuration == time("75"))
    }

    @Test("a point break with resumption offset zero leaves the timeline as long as primary")
    func pointInserted() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("ad", at: "30", "DURATION=15,X-RESUME-OFFSET=0")])
        #expect(Self.table(snapshot) == [
            "primary - 0–30 → 0–30 | 0–30 | 0–30",
            "interstitial ad 0–15 → 30–30 | 30–30 | 30–45",
            "primary - 30–60 → 30–60 | 30–60 | 45–75",
        ])
        #expect(snapshot.duration == time("60"))
        #expect(snapshot.playoutDuration == time("75"))
    }

    @Test("a negative offset puts the replayed primary on the timeline again after the break")
    func negativeOffsetLayout() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("recap", at: "30", "DURATION=10,X-RESUME-OFFSET=-6")])
        #expect(Self.table(snapshot) == [
            "primary - 0–30 → 0–30 | 0–30 | 0–30",
            "interstitial recap 0–10 → 30–30 | 24–30 | 30–40",
            "primary - 24–60 → 30–66 | 24–60 | 40–76",
        ])
        #expect(snapshot.duration == time("66"))
    }

    @Test("a pre-roll sits at time zero before primary and is where playback starts")
    func preRollFirst() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=8,X-RESUME-OFFSET=0")])
        #expect(Self.table(snapshot) == [
            "interstitial pre 0–8 → 0–0 | 0–0 | 0–8",
            "primary - 0–60 → 0–60 | 0–60 | 8–68",
        ])
        #expect(snapshot.currentSegment?.eventID == "pre")
        #expect(snapshot.currentPosition == .interstitial(eventID: "pre", offset: .zero))
        #expect(snapshot.currentTime == .zero)
    }

    @Test("a post-roll range break ends the timeline, with no primary after it")
    func postRollRange() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("post", at: "0", "CUE=\"POST\",DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\"")])
        #expect(Self.table(snapshot) == [
            "primary - 0–60 → 0–60 | 0–60 | 0–60",
            "interstitial post 0–10 → 60–70 | 60–60 | 60–70",
        ])
        #expect(snapshot.duration == time("70"))
    }

    @Test("the range of a break whose duration is not known yet is empty until it is")
    func unknownDurationRange() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("ad", at: "30", "X-TIMELINE-OCCUPIES=\"RANGE\",X-RESUME-OFFSET=0")])
        #expect(Self.table(snapshot)[1] == "interstitial ad 0–0 → 30–30 | 30–30 | 30–30")
    }

    @Test("segments are contiguous on the integrated and playout timelines")
    func contiguity() throws {
        let snapshot = try Self.snapshot([
            Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=5"),
            Fixture.interstitial("a", at: "12", "DURATION=6,X-TIMELINE-OCCUPIES=\"RANGE\""),
            Fixture.interstitial("b", at: "30", "DURATION=10,X-RESUME-OFFSET=0"),
            Fixture.interstitial("c", at: "30", "DURATION=4,X-RESUME-OFFSET=-3,X-TIMELINE-OCCUPIES=\"RANGE\""),
            Fixture.interstitial("post", at: "0", "CUE=\"POST\",DURATION=7"),
        ])
        #expect(snapshot.segments.count == 8)
        for (previous, next) in zip(snapshot.segments, snapshot.segments.dropFirst()) {
            #expect(next.timeMapping.target.start == previous.timeMapping.target.end)
            #expect(next.playoutRange.start == previous.playoutRange.end)
        }
        #expect(snapshot.segments.first?.timeMapping.target.start == .zero)
        #expect(snapshot.segments.last?.timeMapping.target.end == snapshot.duration)
    }

    // MARK: - Mapping

    @Test("an integrated time maps to the primary time or the break offset playing there, and back")
    func positionMapping() throws {
        let point = try Self.snapshot([Self.pointBreak])
        #expect(point.position(atTimelineTime: time("12.5")) == .primary(time("12.5")))
        #expect(point.position(atTimelineTime: time("37.5")) == .primary(time("52.5")))
        #expect(point.position(atTimelineTime: time("45")) == .primary(time("60")), "the end of the timeline is the end of primary")
        #expect(point.position(atTimelineTime: time("45.001")) == nil)
        #expect(point.position(atTimelineTime: time("-1")) == nil)
        #expect(point.timelineTime(for: .primary(time("52.5"))) == time("37.5"))
        #expect(point.timelineTime(for: .primary(time("40"))) == nil, "primary replaced by the break is not on the timeline")
        #expect(point.timelineTime(for: .interstitial(eventID: "ad", offset: time("5"))) == time("30"), "time stands still in a point break")
        #expect(point.timelineTime(for: .interstitial(eventID: "nope", offset: .zero)) == nil)

        let ranged = try Self.snapshot([Self.rangeBreak])
        #expect(ranged.position(atTimelineTime: time("37.5")) == .interstitial(eventID: "ad", offset: time("7.5")))
        #expect(ranged.timelineTime(for: .interstitial(eventID: "ad", offset: time("7.5"))) == time("37.5"))
        #expect(ranged.position(atTimelineTime: time("45")) == .primary(time("45")))
    }

    @Test("where a point break and the primary after it start together, the time belongs to the break")
    func firstSegmentRule() throws {
        let point = try Self.snapshot([Self.pointBreak])
        let (segment, offset) = try #require(point.segmentAndOffset(forTimelineTime: time("30")))
        #expect(segment.eventID == "ad")
        #expect(offset == .zero)
        #expect(point.position(atTimelineTime: time("30")) == .interstitial(eventID: "ad", offset: .zero))
        #expect(point.segmentAndOffset(forTimelineTime: time("30.5"))?.segment.segmentType == .primary)
        #expect(point.segmentAndOffset(forTimelineTime: time("30.5"))?.offset == time("0.5"))

        let group = try Self.snapshot([
            Fixture.interstitial("a", at: "30", "DURATION=10,X-RESUME-OFFSET=0"),
            Fixture.interstitial("b", at: "30", "DURATION=5,X-RESUME-OFFSET=0"),
        ])
        #expect(group.segmentAndOffset(forTimelineTime: time("30"))?.segment.eventID == "a")

        let ranged = try Self.snapshot([Self.rangeBreak])
        #expect(ranged.segmentAndOffset(forTimelineTime: time("30"))?.segment.eventID == "ad", "primary before it ends at 30, exclusive")

        let pre = try Self.snapshot([Fixture.interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=8,X-RESUME-OFFSET=0")])
        #expect(pre.segmentAndOffset(forTimelineTime: .zero)?.segment.eventID == "pre")
    }

    @Test("the current time follows the position: it stands still in a point break and advances in a range break")
    func currentTime() throws {
        let point = try Self.snapshot([Self.pointBreak], at: .interstitial(eventID: "ad", offset: time("9")))
        #expect(point.currentTime == time("30"))
        #expect(point.currentSegment?.eventID == "ad")
        let ranged = try Self.snapshot([Self.rangeBreak], at: .interstitial(eventID: "ad", offset: time("9")))
        #expect(ranged.currentTime == time("39"))
        let primary = try Self.snapshot([Self.pointBreak], at: .primary(time("50")))
        #expect(primary.currentTime == time("35"))
        #expect(primary.currentSegment?.timeMapping.source == range("45", "60"))
        #expect(primary.currentDate == Fixture.date("50"))
    }

    // MARK: - Seeking

    @Test("a seek into the middle of a range break whose asset list is not loaded lands that far into the break")
    func seekIntoUnloadedRange() throws {
        let snapshot = try Self.snapshot([
            Fixture.interstitial("pod", at: "30", "X-ASSET-LIST=\"pod.json\",PLANNED-DURATION=20,X-TIMELINE-OCCUPIES=\"RANGE\""),
        ])
        #expect(snapshot.schedule.scheduledBreak(id: "pod")?.assetListState == .pending)
        #expect(snapshot.resolveSeek(toTimelineTime: time("42")) == .position(.interstitial(eventID: "pod", offset: time("12"))))
    }

    @Test("a seek to a primary time between a break's start and its resumption point restarts the break")
    func primarySeekRestartsBreak() throws {
        for tag in [Self.pointBreak, Self.rangeBreak] {
            let snapshot = try Self.snapshot([tag], at: .primary(time("10")))
            #expect(snapshot.resolveSeek(toPrimaryTime: time("30")) == .position(.interstitial(eventID: "ad", offset: .zero)))
            #expect(snapshot.resolveSeek(toPrimaryTime: time("44.9")) == .position(.interstitial(eventID: "ad", offset: .zero)))
            #expect(snapshot.resolveSeek(toPrimaryTime: time("45")) == .position(.primary(time("45"))))
            #expect(snapshot.resolveSeek(toPrimaryTime: time("29.9")) == .position(.primary(time("29.9"))))
        }
    }

    @Test("with resumption offset zero there is nothing between start and resumption to restart")
    func primarySeekZeroOffset() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("ad", at: "30", "DURATION=15,X-RESUME-OFFSET=0")], at: .primary(time("10")))
        #expect(snapshot.resolveSeek(toPrimaryTime: time("30")) == .position(.primary(time("30"))))
        #expect(snapshot.resolveSeek(toPrimaryTime: time("40")) == .position(.primary(time("40"))))
    }

    @Test("a seek into the span of breaks sharing a start restarts them from the first")
    func primarySeekRestartsGroup() throws {
        let snapshot = try Self.snapshot([
            Fixture.interstitial("a", at: "30", "DURATION=10"),
            Fixture.interstitial("b", at: "30", "DURATION=5"),
        ], at: .primary(time("10")))
        #expect(snapshot.resolveSeek(toPrimaryTime: time("35")) == .position(.interstitial(eventID: "a", offset: .zero)))
        #expect(snapshot.resolveSeek(toPrimaryTime: time("42")) == .position(.interstitial(eventID: "a", offset: .zero)),
                "primary 40–45 is inside the group's span, which starts with a")
        #expect(snapshot.resolveSeek(toPrimaryTime: time("45")) == .position(.primary(time("45"))))
    }

    @Test("a forward seek across a JUMP break plays the break first, then goes on")
    func jump() throws {
        let tags = [Fixture.interstitial("ad", at: "30", "DURATION=10,X-RESUME-OFFSET=0,X-RESTRICT=\"JUMP\"")]
        let before = try Self.snapshot(tags, at: .primary(time("10")))
        #expect(before.resolveSeek(toTimelineTime: time("50")) == .playInterstitialFirst(eventID: "ad", then: .primary(time("50"))))
        #expect(before.resolveSeek(toPrimaryTime: time("50")) == .playInterstitialFirst(eventID: "ad", then: .primary(time("50"))))
        #expect(before.resolveSeek(toTimelineTime: time("20")) == .position(.primary(time("20"))), "not across the break")
        #expect(before.resolveSeek(toTimelineTime: time("30")) == .position(.interstitial(eventID: "ad", offset: .zero)),
                "landing on the break plays it anyway")
        let after = try Self.snapshot(tags, at: .primary(time("50")))
        #expect(after.resolveSeek(toTimelineTime: time("10")) == .position(.primary(time("10"))), "backward seeks are free")
    }

    @Test("a forward seek across a break without JUMP just seeks")
    func noJump() throws {
        let snapshot = try Self.snapshot([Fixture.interstitial("ad", at: "30", "DURATION=10,X-RESUME-OFFSET=0")], at: .primary(time("10")))
        #expect(snapshot.resolveSeek(toTimelineTime: time("50")) == .position(.primary(time("50"))))
    }

    @Test("a seek across several JUMP breaks plays the first of them")
    func severalJumps() throws {
        let snapshot = try Self.snapshot([
            Fixture.interstitial("plain", at: "12", "DURATION=5,X-RESUME-OFFSET=0"),
            Fixture.interstitial("first", at: "24", "DURATION=5,X-RESUME-OFFSET=0,X-RESTRICT=\"JUMP\""),
            Fixture.interstitial("second", at: "36", "DURATION=5,X-RESUME-OFFSET=0,X-RESTRICT=\"JUMP\""),
        ], at: .primary(time("6")))
        #expect(snapshot.resolveSeek(toTimelineTime: time("48")) == .playInterstitialFirst(eventID: "first", then: .primary(time("48"))))
    }

    @Test("during a SKIP break forward seeks are refused and backward seeks allowed")
    func skip() throws {
        let tag = Fixture.interstitial("ad", at: "30", "DURATION=15,X-TIMELINE-OCCUPIES=\"RANGE\",X-RESTRICT=\"SKIP\"")
        let playing = try Self.snapshot([tag], at: .interstitial(eventID: "ad", offset: time("3")))
        #expect(playing.currentTime == time("33"))
        guard case .refused = playing.resolveSeek(toTimelineTime: time("40")) else {
            Issue.record("a forward seek inside a SKIP break must be refused")
            return
        }
        guard case .refused = playing.resolveSeek(toTimelineTime: time("50")) else {
            Issue.record("a forward seek out of a SKIP break must be refused")
            return
        }
        #expect(playing.resolveSeek(toTimelineTime: time("31")) == .position(.interstitial(eventID: "ad", offset: time("1"))))
        #expect(playing.resolveSeek(toTimelineTime: time("10")) == .position(.primary(time("10"))))
        let finished = try Self.snapshot([tag], at: .primary(time("50")))
        #expect(finished.resolveSeek(toTimelineTime: time("55")) == .position(.primary(time("55"))), "SKIP only holds while the break plays")
    }

    @Test("during a SKIP point break every forward seek is refused")
    func skipPoint() throws {
        let tag = Fixture.interstitial("ad", at: "30", "DURATION=15,X-RESTRICT=\"SKIP\"")
        let playing = try Self.snapshot([tag], at: .interstitial(eventID: "ad", offset: time("3")))
        guard case .refused = playing.resolveSeek(toTimelineTime: time("40")) else {
            Issue.record("a forward seek out of a SKIP break must be refused")
            return
        }
        guard case .refused = playing.resolveSeek(toPrimaryTime: time("50")) else {
            Issue.record("a forward primary seek out of a SKIP break must be refused")
            return
        }
        #expect(playing.resolveSeek(toTimelineTime: time("10")) == .position(.primary(time("10"))))
    }

    // MARK: - Change reasons

    @Test("moving inside the same segment changes nothing; crossing into a break changes the current segment")
    func changeReasonsForPosition() throws {
        let schedule = try Fixture.vodSchedule([Self.pointBreak])
        let at10 = Snapshot(schedule: schedule, position: .primary(time("10")))
        let at20 = Snapshot(schedule: schedule, position: .primary(time("20")))
        let inBreak = Snapshot(schedule: schedule, position: .interstitial(eventID: "ad", offset: time("2")))
        let after = Snapshot(schedule: schedule, position: .primary(time("50")))
        #expect(at20.changeReasons(since: at10).isEmpty)
        #expect(inBreak.changeReasons(since: at20) == [.currentSegmentChanged])
        #expect(after.changeReasons(since: inBreak) == [.currentSegmentChanged])
    }

    @Test("an asset list that changes a range break's length changes the segments")
    func changeReasonsForSegments() throws {
        let tag = Fixture.interstitial("pod", at: "30", "X-ASSET-LIST=\"pod.json\",PLANNED-DURATION=20,X-TIMELINE-OCCUPIES=\"RANGE\"")
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":15},{"URI":"https://a/2.m3u8","DURATION":10}]}"#)
        let pending = try Self.snapshot([tag], at: .primary(time("10")))
        let resolved = try Self.snapshot([tag], at: .primary(time("10")), options: .init(assetLists: ["pod": .resolved(list)]))
        #expect(resolved.changeReasons(since: pending) == [.segmentsChanged])
        let resolvedInBreak = try Self.snapshot([tag], at: .interstitial(eventID: "pod", offset: .zero),
                                                options: .init(assetLists: ["pod": .resolved(list)]))
        #expect(resolvedInBreak.changeReasons(since: pending) == [.segmentsChanged, .currentSegmentChanged])
    }

    // MARK: - Live

    @Test("a live timeline has an indefinite duration and starts where its primary timeline starts")
    func liveTimeline() throws {
        let playlist = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], mediaSequence: 100, live: true,
                                            segmentTags: [3: [Fixture.interstitial("ad", at: "18", "DURATION=6,X-TIMELINE-OCCUPIES=\"RANGE\"")]])
        let snapshot = Snapshot(schedule: Fixture.schedule(playlist))
        #expect(snapshot.duration == .indefinite)
        #expect(snapshot.knownDuration == time("30"))
        #expect(Self.table(snapshot) == [
            "primary - 0–18 → 0–18 | 0–18 | 0–18",
            "interstitial ad 0–6 → 18–24 | 18–24 | 18–24",
            "primary - 24–30 → 24–30 | 24–30 | 24–30",
        ])
    }

    @Test("as the live window slides, segments keep their integrated times and the current segment stays current")
    func liveSlide() throws {
        let first = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], mediaSequence: 100, live: true,
                                         segmentTags: [4: [Fixture.interstitial("ad", at: "24", "DURATION=6,X-TIMELINE-OCCUPIES=\"RANGE\"")]])
        let timeline1 = PrimaryTimeline(playlist: first)
        let snapshot1 = Snapshot(
            schedule: InterstitialSchedule(primary: timeline1, events: InterstitialEvent.events(in: first).events),
            position: .primary(time("20"))
        )
        let second = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: "6", mediaSequence: 101, live: true,
                                          segmentTags: [3: [Fixture.interstitial("ad", at: "24", "DURATION=6,X-TIMELINE-OCCUPIES=\"RANGE\"")]])
        let timeline2 = PrimaryTimeline(playlist: second, continuing: timeline1)
        let snapshot2 = Snapshot(
            schedule: InterstitialSchedule(primary: timeline2, events: InterstitialEvent.events(in: second).events),
            position: .primary(time("20"))
        )
        #expect(Self.table(snapshot2) == [
            "primary - 6–24 → 6–24 | 6–24 | 6–24",
            "interstitial ad 0–6 → 24–30 | 24–30 | 24–30",
            "primary - 30–36 → 30–36 | 30–36 | 30–36",
        ])
        #expect(snapshot2.currentTime == snapshot1.currentTime)
        #expect(snapshot2.changeReasons(since: snapshot1) == [.segmentsChanged])
    }

    @Test("a live break covering the window's start does not shift primary off its own times", arguments: ["RANGE", "POINT"])
    func liveBreakCoveringStart(occupancy: String) throws {
        // The window is dated 60–90, primary 0–30 on a first load; the break runs from -10 to 10.
        let covering = Fixture.interstitial("covering", at: "50", "DURATION=20,X-TIMELINE-OCCUPIES=\"\(occupancy)\"")
        let first = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: "60", mediaSequence: 500, live: true,
                                         tags: [covering])
        let timeline1 = PrimaryTimeline(playlist: first)
        let snapshot1 = Snapshot(schedule: InterstitialSchedule(primary: timeline1, events: InterstitialEvent.events(in: first).events))
        let primary1 = try #require(snapshot1.segments.last)
        #expect(primary1.timeMapping.source == range("10", "30"))
        #expect(primary1.timeMapping.target == range("10", "30"))
        let breakTarget = try #require(snapshot1.segments.first?.timeMapping.target)
        #expect(breakTarget == (occupancy == "RANGE" ? range("-10", "10") : range("10", "10")))

        // Two segments later the break has left the window; primary keeps its integrated times.
        let second = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: "72", mediaSequence: 502, live: true)
        let timeline2 = PrimaryTimeline(playlist: second, continuing: timeline1)
        let snapshot2 = Snapshot(schedule: InterstitialSchedule(primary: timeline2, events: InterstitialEvent.events(in: second).events))
        #expect(snapshot2.segments.map(\.timeMapping.target) == [range("12", "42")])
        #expect(snapshot2.timelineTime(for: .primary(time("20"))) == snapshot1.timelineTime(for: .primary(time("20"))))
    }

    @Test("a live reload that announces a break ahead changes the segments, not the current segment")
    func liveBreakAdded() throws {
        let first = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], mediaSequence: 100, live: true)
        let timeline1 = PrimaryTimeline(playlist: first)
        let snapshot1 = Snapshot(schedule: InterstitialSchedule(primary: timeline1, events: []), position: .primary(time("20")))
        let second = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: "6", mediaSequence: 101, live: true,
                                          segmentTags: [4: [Fixture.interstitial("ad", at: "30", "DURATION=6")]])
        let timeline2 = PrimaryTimeline(playlist: second, continuing: timeline1)
        let snapshot2 = Snapshot(
            schedule: InterstitialSchedule(primary: timeline2, events: InterstitialEvent.events(in: second).events),
            position: .primary(time("20"))
        )
        #expect(snapshot2.segments.map(\.segmentType) == [.primary, .interstitial])
        #expect(snapshot2.changeReasons(since: snapshot1) == [.segmentsChanged])
    }
}
