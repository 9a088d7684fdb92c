import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine
import TestSupport
import Testing

@Suite struct CoordinatorTimeMappingTests {
    static let stitched = CoordinatedTimeMapping(
        stitchedAdRanges: [
            MediaTimeRange(start: t(0), duration: t("9.009")),
            MediaTimeRange(start: t(60), duration: t(30)),
            MediaTimeRange(start: t(90), duration: t(15)),
        ],
        itemDuration: t(700)
    )

    @Test("stitched ads are removed from the coordinated timeline, exactly")
    func stitchedToCoordinated() {
        let mapping = Self.stitched
        #expect(mapping.coordinatedTime(for: .item(t("9.009"))) == .zero)
        #expect(mapping.coordinatedTime(for: .item(t(60))) == t("50.991"))
        // Inside the ads the content stands still at their start.
        #expect(mapping.coordinatedTime(for: .item(t(100))) == t("50.991"))
        #expect(mapping.coordinatedTime(for: .item(t(105))) == t("50.991"))
        // The adjacent ads at 60 and 90 form one 45 s break.
        #expect(mapping.coordinatedTime(for: .item(t(200))) == t("145.991"))
        #expect(mapping.contentDuration == t("645.991"))
        #expect(mapping.stitchedAdRanges.count == 2)
    }

    @Test("a coordinated time maps before local ads (they play next) or after them (already played)")
    func coordinatedToLocal() {
        let mapping = Self.stitched
        #expect(mapping.position(forCoordinatedTime: t("50.991")) == .item(t(60)))
        #expect(mapping.position(forCoordinatedTime: t("50.991"), afterLocalBreaks: true) == .item(t(105)))
        #expect(mapping.position(forCoordinatedTime: t(100)) == .item(t("154.009")))
        #expect(mapping.position(forCoordinatedTime: t(40)) == .item(t("49.009")))
        #expect(mapping.position(forCoordinatedTime: .zero, afterLocalBreaks: true) == .item(t("9.009")))
    }

    @Test("a player playing forward next enters or leaves a stitched ad at the boundary the mapping names; merged adjacent ads have no boundary between them")
    func stitchedAdBoundaries() {
        let mapping = Self.stitched
        #expect(mapping.stitchedAdBoundary(from: .zero) == .zero, "standing at an ad's start, entering it is next")
        #expect(mapping.stitchedAdBoundary(from: .zero, isStrict: true) == t("9.009"))
        #expect(mapping.stitchedAdBoundary(from: t(30)) == t(60))
        #expect(mapping.stitchedAdBoundary(from: t(60), isStrict: true) == t(105))
        #expect(mapping.stitchedAdBoundary(from: t(95)) == t(105))
        #expect(mapping.stitchedAdBoundary(from: t(105)) == t(105))
        #expect(mapping.stitchedAdBoundary(from: t(105), isStrict: true) == nil)
        #expect(CoordinatedTimeMapping.identity.stitchedAdBoundary(from: .zero) == nil)
    }

    @Test("round trip: every content position maps to the coordinated timeline and back", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let mapping = Self.stitched
        for _ in 0..<500 {
            let item = MediaTime(value: Int64.random(in: 0..<700_000, using: &generator), timescale: 1000)
            guard mapping.localBreak(at: .item(item)) == nil else { continue }
            let coordinated = mapping.coordinatedTime(for: .item(item))
            #expect(mapping.position(forCoordinatedTime: coordinated, afterLocalBreaks: true) == .item(item))
        }
    }

    @Test("local breaks say where the group stands during them and how much is left")
    func localBreaks() {
        let mapping = Self.stitched
        let inside = mapping.localBreak(at: .item(t(70)))!
        #expect(inside.kind == .stitched(MediaTimeRange(start: t(60), duration: t(45))))
        #expect(inside.coordinatedTime == t("50.991"))
        #expect(inside.remaining == t(35))
        #expect(mapping.localBreak(at: .item(t(59))) == nil)
        #expect(
            mapping.localBreakSchedule.map(\.duration) == [t("9.009"), t(45)]
        )
    }

    @Test("a shared break occupies coordinated time; its resumption offset decides the primary after it")
    func sharedBreaks() {
        let vod = CoordinatedTimeMapping(
            breaks: [.init(eventIdentifier: "promo", itemTime: t(30), duration: t(10), contentMayVary: false)]
        )
        #expect(vod.coordinatedTime(for: .interstitial(eventIdentifier: "promo", offset: t(4))) == t(34))
        #expect(vod.coordinatedTime(for: .item(t(31))) == t(41))
        #expect(vod.position(forCoordinatedTime: t(30)) == .interstitial(eventIdentifier: "promo", offset: .zero))
        #expect(vod.position(forCoordinatedTime: t(41)) == .item(t(31)))
        let live = CoordinatedTimeMapping(
            breaks: [.init(eventIdentifier: "promo", itemTime: t(30), duration: t(10), resumptionOffset: t(10), contentMayVary: false)]
        )
        // Live: the break replaces the primary it covers, so the primary after it keeps its time.
        #expect(live.coordinatedTime(for: .item(t(45))) == t(45))
        #expect(live.position(forCoordinatedTime: t(45)) == .item(t(45)))
        #expect(live.position(forCoordinatedTime: t(35)) == .interstitial(eventIdentifier: "promo", offset: t(5)))
    }

    @Test("a break whose content may vary is local: coordinated time stands at its start")
    func varyingBreak() {
        let mapping = CoordinatedTimeMapping(breaks: [.init(eventIdentifier: "ad", itemTime: t(30), duration: t(20))])
        #expect(mapping.coordinatedTime(for: .interstitial(eventIdentifier: "ad", offset: t(12))) == t(30))
        #expect(mapping.localBreak(at: .interstitial(eventIdentifier: "ad", offset: t(12)))?.remaining == t(8))
        #expect(mapping.coordinatedTime(for: .item(t(40))) == t(40))
    }

    @Test("messages round-trip through their wire form unchanged")
    func messagesRoundTrip() throws {
        let messages: [CoordinationMessage] = [
            .hello("alice"),
            .playbackState(
                CoordinatedPlaybackState(
                    itemIdentifier: "movie",
                    rate: 1,
                    anchorTime: t("12.5"),
                    anchorGroupTime: .milliseconds(1_300),
                    timestamp: CoordinationTimestamp(counter: 3, participant: "bob", issuedAt: .seconds(1)),
                    playsImmediately: true
                )
            ),
            .participantState(
                ParticipantStateUpdate(
                    participant: "carol",
                    sequence: 7,
                    itemIdentifier: "movie",
                    isReadyToPlay: false,
                    suspensionReasons: [.playingInterstitial, "com.example.custom"],
                    waitIntervals: [
                        WaitInterval(cause: .suspension(.playingInterstitial), start: .seconds(61), holdTime: t(60), expectedDuration: .seconds(30)),
                        WaitInterval(cause: .notReady, start: .seconds(2), end: .seconds(3), waitLimit: .seconds(60)),
                    ],
                    contentDuration: t(600),
                    sharedBreakDurations: ["promo": t(10)]
                )
            ),
            .adSchedule(AdSchedule(participant: "bob", itemIdentifier: "movie", entries: [.init(coordinatedTime: t(60), duration: t(15), source: .interstitial(eventIdentifier: "ad1"))])),
        ]
        for message in messages {
            #expect(try CoordinationMessage(jsonBytes: message.jsonBytes) == message)
        }
    }

    @Test("timestamps order by counter, then participant; initial proposals oldest first")
    func timestampOrder() {
        let a = CoordinationTimestamp(counter: 2, participant: "zoe", issuedAt: .seconds(9))
        let b = CoordinationTimestamp(counter: 3, participant: "adam", issuedAt: .seconds(1))
        let c = CoordinationTimestamp(counter: 3, participant: "bob", issuedAt: .seconds(0))
        #expect(a < b && b < c)
        let older = CoordinationTimestamp(counter: 0, participant: "zoe", issuedAt: .seconds(1))
        let newer = CoordinationTimestamp(counter: 0, participant: "adam", issuedAt: .seconds(5))
        #expect(newer < older)
        #expect(older < CoordinationTimestamp(counter: 1, participant: "adam", issuedAt: .seconds(0)))
    }
}

@Suite struct CoordinatorConvergenceTests {
    @Test("random concurrent commands from every participant always converge to one state and one position",
          arguments: [11, 12, 13, 14, 15] as [UInt64])
    func convergence(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var group = CoordinatorTestGroup(latency: .milliseconds(Int64.random(in: 5...400, using: &generator)))
        let ids: [ParticipantID] = ["alice", "bob", "charlie", "dave"]
        for id in ids { group.add(id) }
        group.run(for: .seconds(1))
        for _ in 0..<40 {
            let id = generator.pick(ids)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: group.perform(id) { $0.coordinateRateChange(to: 1, at: $1) }
            case 1: group.perform(id) { $0.coordinateRateChange(to: 0, at: $1) }
            default:
                let target = MediaTime(seconds: Int64.random(in: 0..<1_000, using: &generator))
                group.perform(id) { $0.coordinateSeek(to: .item(target), at: $1) }
            }
            if generator.chance(0.5) { group.run(for: .milliseconds(Int64.random(in: 0...300, using: &generator))) }
        }
        group.run(for: .seconds(3))
        let states = Set(ids.map { group.coordinators[$0]!.currentState! })
        #expect(states.count == 1)
        let positions = Set(ids.map { group.position($0) })
        #expect(positions.count == 1, "positions \(positions)")
    }
}

@Suite("What may change a player's coordinated mapping")
struct BindingMappingChangeTests {
    @Test("an asset list's arrival asks the binding for the mapping again, even when no segment changed (a RANGE break with DURATION)")
    func assetListArrivalMayChangeTheMapping() {
        let arrived = PlayerEvent(hostTime: .seconds(3), kind: .assetListResponse(eventID: "trailer", status: .available(assets: 1)))
        let failed = PlayerEvent(hostTime: .seconds(3), kind: .assetListResponse(eventID: "trailer", status: .failed("404")))
        #expect(PlayerCoordinationBinding.mayChangeMapping(arrived))
        #expect(PlayerCoordinationBinding.mayChangeMapping(failed), "a failed list drops the break from the mapping")
    }

    @Test("a timeline change asks for the mapping again only when the segments changed, not when only the current one did")
    func onlySegmentChangesMayChangeTheMapping() {
        let segments = PlayerEvent(hostTime: .seconds(1), kind: .timelineChanged(reasons: [.segmentsChanged, .currentSegmentChanged]))
        let current = PlayerEvent(hostTime: .seconds(1), kind: .timelineChanged(reasons: [.currentSegmentChanged]))
        #expect(PlayerCoordinationBinding.mayChangeMapping(segments))
        #expect(!PlayerCoordinationBinding.mayChangeMapping(current))
        #expect(!PlayerCoordinationBinding.mayChangeMapping(PlayerEvent(hostTime: .seconds(1), kind: .playedToEnd)))
    }
}
