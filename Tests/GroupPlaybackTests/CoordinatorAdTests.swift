import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime
import Testing

/// Alice is premium (no ads); Bob has a 15 s stitched ad at item time 60, Charlie a 30 s one
/// (MISSION S1.2, S1.10).
@Suite struct CoordinatorAdTests {
    static let bobAds = CoordinatedTimeMapping(
        stitchedAdRanges: [MediaTimeRange(start: t(60), duration: t(15))],
        itemDuration: t(615)
    )
    static let charlieAds = CoordinatedTimeMapping(
        stitchedAdRanges: [MediaTimeRange(start: t(60), duration: t(30))],
        itemDuration: t(630)
    )

    /// The trio, playing from 0 since group time 1.3 s.
    func trio(policy: [Reason]? = nil) -> CoordinatorTestGroup {
        var group = CoordinatorTestGroup()
        let configure: (inout Coordinator) -> Void = { coordinator in
            if let policy { coordinator.suspensionReasonsThatTriggerWaiting = policy }
        }
        group.add("alice", mapping: CoordinatedTimeMapping(itemDuration: t(600)), configure: configure)
        group.add("bob", mapping: Self.bobAds, configure: configure)
        group.add("charlie", mapping: Self.charlieAds, configure: configure)
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        return group
    }

    @Test("by default nobody waits: ad watchers jump ahead to the group when their ad ends, missing content")
    func catchUp() {
        var group = trio()
        group.run(until: .milliseconds(62_300))
        #expect(group.coordinators["bob"]!.suspensionReasons == [.playingInterstitial])
        #expect(group.coordinators["alice"]!.otherParticipants.map(\.suspensionReasons) == [[.playingInterstitial], [.playingInterstitial]])
        #expect(group.isPlaying("alice"))
        // Bob's ad ends at 76.3 s: the group is at 75, so he continues at item 90 (content 75).
        group.run(until: .milliseconds(76_300))
        #expect(group.coordinators["bob"]!.suspensionReasons == [])
        #expect(group.position("bob") == t(90))
        // Charlie's ends at 91.3 s: item 120 (content 90).
        group.run(until: .milliseconds(101_300))
        #expect(group.position("alice") == t(100))
        #expect(group.position("bob") == t(115))
        #expect(group.position("charlie") == t(130))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] { #expect(group.coordinatedPosition(id) == t(100)) }
    }

    @Test("with the waiting policy the others wait at the break until every ad is over, then all resume together")
    func waitForAds() {
        var group = trio(policy: [.playingInterstitial])
        group.run(until: .milliseconds(62_000))
        // Alice stopped exactly where the ads begin, waiting for both.
        #expect(group.isWaiting("alice"))
        #expect(group.position("alice") == t(60))
        let blockers = group.groupStatus("alice")!.blockers
        #expect(blockers.map(\.participant) == ["bob", "charlie"])
        #expect(blockers.map(\.expectedEnd) == [.milliseconds(76_300), .milliseconds(91_300)])
        // Bob's ad ends first: he waits after it, for Charlie.
        group.run(until: .milliseconds(80_000))
        #expect(group.isWaiting("bob"))
        #expect(group.position("bob") == t(75))
        #expect(group.blockers("bob") == ["charlie"])
        // Charlie's ends at 91.3 s; everyone restarts at 91.6 s and nobody missed content.
        group.run(until: .milliseconds(101_600))
        #expect(group.position("alice") == t(70))
        #expect(group.position("bob") == t(85))
        #expect(group.position("charlie") == t(100))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.coordinatedPosition(id) == t(70))
            #expect(group.isPlaying(id))
        }
    }

    @Test("with the waiting policy a seek made while the group waits for ads moves the whole group; it waits there and resumes from the seek")
    func seekWhileWaitingForAds() {
        var group = trio(policy: [.playingInterstitial])
        group.run(until: .milliseconds(65_000))
        #expect(group.isWaiting("alice"))
        #expect(group.position("alice") == t(60))
        // Alice seeks to 200 while Bob and Charlie are in their ads: the group is now held at 200,
        // not put back at the break.
        group.perform("alice") { $0.coordinateSeek(to: .item(t(200)), at: $1) }
        group.run(until: .milliseconds(70_000))
        #expect(group.position("alice") == t(200))
        #expect(group.isWaiting("alice"))
        #expect(group.blockers("alice") == ["bob", "charlie"])
        // Bob's ad ends at 76.3 s: he joins the group at 200 (item 215) and waits for Charlie.
        group.run(until: .milliseconds(80_000))
        #expect(group.position("bob") == t(215))
        #expect(group.isWaiting("bob"))
        // Charlie's ends at 91.3 s; everyone restarts from 200 at 91.6 s.
        group.run(until: .milliseconds(101_600))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.coordinatedPosition(id) == t(210))
            #expect(group.isPlaying(id))
        }
    }

    @Test("with the waiting policy a premium participant holds at a break where others have ads and never plays past it")
    func premiumHoldsAtOthersBreak() {
        var group = trio(policy: [.playingInterstitial])
        // The group reaches the ads at 61.3 s; Bob's and Charlie's reports that they play them take
        // 50 ms to arrive. Alice knows from their ad schedules that the group will wait there.
        group.run(until: .milliseconds(61_000))
        group.clearControls()
        var furthest = MediaTime.zero
        while group.now < .milliseconds(61_500) {
            group.run(for: .milliseconds(1))
            furthest = MediaTime.max(furthest, group.position("alice"))
        }
        #expect(furthest == t(60))
        #expect(group.isWaiting("alice"))
        #expect(group.blockers("alice") == ["bob", "charlie"])
        // One hold, from the instant the group reaches the break: no jump back when the reports come.
        let controls = group.controls["alice"] ?? []
        #expect(controls.map(\.1.command) == [.waitForCoordinatedPlayback(position: .item(t(60)), rate: 1)])
        #expect(controls.map(\.0) == [.milliseconds(61_300)])
        // Everyone resumes together when Charlie's ad ends, as before.
        group.run(until: .milliseconds(101_600))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.coordinatedPosition(id) == t(70))
            #expect(group.isPlaying(id))
        }
    }

    @Test("a premium participant whose player runs a little ahead holds at the others' break as soon as her player gets there")
    func premiumAheadHoldsOnArrival() {
        var group = trio(policy: [.playingInterstitial])
        // 100 ppm fast: her player is 6 ms ahead of the group when it gets to the break.
        group.players["alice"]!.clockRate = 1.0001
        group.run(until: .milliseconds(61_295))
        let arrived = group.position("alice")
        #expect(arrived > t(60) && arrived < t("60.001"))
        // Her player reports the break's boundary (her own empty break there, or an observation).
        group.perform("alice") { $0.observeBreakBoundary(.item(arrived), at: $1) }
        #expect(group.isWaiting("alice"))
        #expect(group.position("alice") == t(60))
        group.run(until: .milliseconds(61_500))
        #expect(group.isWaiting("alice") && group.position("alice") == t(60))
        #expect(group.blockers("alice") == ["bob", "charlie"])
        // A position further past the break is a seek the group hears of next, not an arrival.
        var seeker = trio(policy: [.playingInterstitial])
        seeker.run(until: .milliseconds(50_000))
        seeker.perform("alice") { $0.observeBreakBoundary(.item(t(100)), at: $1) }
        #expect(!seeker.isWaiting("alice"))
    }

    @Test("a premium participant held at a break for others' ads goes on with the group when no report that they play them comes within the bound")
    func premiumHoldIsBounded() {
        var group = trio(policy: [.playingInterstitial])
        // Nobody's player reports entering its ads: the schedules promise a wait that never comes.
        group.observesBoundaries = false
        group.run(until: .milliseconds(61_300))
        #expect(group.isWaiting("alice"))
        #expect(group.position("alice") == t(60))
        group.run(until: .milliseconds(61_599))
        #expect(group.isWaiting("alice"))
        // Held at most the command lead time (300 ms), then with the group again.
        group.run(until: .milliseconds(62_000))
        #expect(group.isPlaying("alice"))
        #expect(group.position("alice") == t("60.7"))
        #expect(group.blockers("alice").isEmpty)
    }

    @Test("a waiting participant knows from the shared ad schedules whom it will wait for and how long (S1.11)")
    func adSchedules() {
        var group = trio(policy: [.playingInterstitial])
        group.run(for: .seconds(1))
        let alice = group.coordinators["alice"]!
        #expect(alice.adSchedules["charlie"]!.entries == [AdSchedule.Entry(coordinatedTime: t(60), duration: t(30), source: .stitched)])
        #expect(
            alice.expectedWaits(from: .zero, through: t(600))
                == [.init(coordinatedTime: t(60), breaks: ["bob": t(15), "charlie": t(30)], wait: t(30))]
        )
        #expect(group.coordinators["bob"]!.expectedWaits(from: .zero, through: t(600)).map(\.wait) == [t(15)])
        #expect(group.coordinators["charlie"]!.expectedWaits(from: .zero, through: t(600)).isEmpty)
        // Nobody waits under the default policy, so nothing is expected.
        #expect(trio().coordinators["alice"]!.expectedWaits(from: .zero, through: t(600)).isEmpty)
    }

    @Test("seeking into one's own stitched ad snaps the whole group to the ad's start (S1.5)")
    func seekIntoStitchedRange() {
        var group = trio()
        group.run(for: .seconds(5))
        group.perform("bob") { $0.coordinateSeek(to: .item(t(70)), at: $1) }
        group.run(for: .milliseconds(300))
        #expect(group.position("alice") == t(60))
        #expect(group.position("bob") == t(60))
        #expect(group.coordinators["bob"]!.suspensionReasons == [.playingInterstitial])
        // Charlie, whose ad sits at the same place, lands at its start too.
        #expect(group.position("charlie") == t(60))
        group.run(for: .seconds(20))
        // Alice went on; Bob and Charlie play their ads and catch up.
        #expect(group.position("alice") == t(80))
        #expect(group.position("bob") == t(95))
        #expect(group.coordinatedPosition("bob") == t(80))
    }

    @Test("seeking into another participant's ad position makes that participant play its ad from the start")
    func seekToOthersAd() {
        var group = trio(policy: [.playingInterstitial])
        group.run(for: .seconds(5))
        group.perform("alice") { $0.coordinateSeek(to: .item(t(60)), at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("bob") == t("60.7"))
        #expect(group.coordinators["bob"]!.suspensionReasons == [.playingInterstitial])
        #expect(group.isWaiting("alice"))
        #expect(group.position("alice") == t(60))
    }

    @Test("participants whose content durations differ are reported; different ads alone are not (S1.7)")
    func contentMismatch() {
        var group = trio()
        group.run(for: .seconds(1))
        let mismatches = group.events.mapValues { events in
            events.compactMap { event -> Coordinator.ContentDurationMismatch? in
                if case .contentDurationMismatch(let mismatch) = event { return mismatch }
                return nil
            }
        }
        #expect(mismatches.values.allSatisfy { $0.isEmpty })
        group.add("dave", mapping: CoordinatedTimeMapping(itemDuration: t("600.5")))
        group.run(for: .seconds(1))
        let reported = group.events["alice"]!.compactMap { event -> Coordinator.ContentDurationMismatch? in
            if case .contentDurationMismatch(let mismatch) = event { return mismatch }
            return nil
        }
        #expect(reported == [.init(itemIdentifier: "movie", participant: "dave", localDuration: t(600), participantDuration: t("600.5"))])
        let daveReported = group.events["dave"]!.compactMap { event -> ParticipantID? in
            if case .contentDurationMismatch(let mismatch) = event { return mismatch.participant }
            return nil
        }
        #expect(daveReported == ["alice", "bob", "charlie"])
    }

    @Test("a tolerance absorbs small content-duration differences")
    func contentMismatchTolerance() {
        var group = CoordinatorTestGroup()
        let tolerant: (inout Coordinator) -> Void = { $0.configuration.contentDurationTolerance = t("0.5") }
        group.add("alice", mapping: CoordinatedTimeMapping(itemDuration: t(600)), configure: tolerant)
        group.add("bob", mapping: CoordinatedTimeMapping(itemDuration: t("600.5")), configure: tolerant)
        group.run(for: .seconds(1))
        #expect(!group.events.values.joined().contains { if case .contentDurationMismatch = $0 { return true } else { return false } })
    }
}

/// HLS interstitials on the shared primary timeline (S1.8, S1.9, S2.10).
@Suite struct CoordinatorInterstitialTests {
    static let liveBreak = CoordinatedTimeMapping(
        breaks: [.init(eventIdentifier: "ad1", itemTime: t(30), duration: t(20), resumptionOffset: t(20))]
    )

    @Test("live with the default resumption offset: an ad watcher comes back exactly where the others are (S1.9)")
    func liveCatchUp() {
        var group = CoordinatorTestGroup()
        group.observesBoundaries = false
        group.add("alice", item: "live")
        group.add("bob", item: "live", mapping: Self.liveBreak)
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(until: .milliseconds(31_300))
        group.perform("bob") { $0.observeLocalPlayback(.interstitial(eventIdentifier: "ad1", offset: .zero), at: $1) }
        #expect(group.coordinators["bob"]!.suspensionReasons == [.playingInterstitial])
        group.run(until: .milliseconds(51_300))
        #expect(group.isPlaying("alice"))
        // The break is over; Bob's player resumed primary at 30 + 20 and tells the coordinator.
        let actions = group.perform("bob") { $0.observeLocalPlayback(.item(t(50)), at: $1) }
        #expect(group.coordinators["bob"]!.suspensionReasons == [])
        let commands = actions.compactMap { action -> PlaybackControlCommand? in
            if case .control(let control) = action { return control.command }
            return nil
        }
        #expect(commands == [.play(rate: 1, position: .item(t(50)), groupTime: .milliseconds(51_300))])
    }

    /// Bob's 15 s and Charlie's 30 s pods at item time 60 of a live channel, in place of the live
    /// content under them.
    static func liveStitched(_ seconds: Int64) -> CoordinatedTimeMapping {
        CoordinatedTimeMapping(stitchedAdRanges: [MediaTimeRange(start: t(60), duration: t(seconds))], stitchedAdPlacement: .replacing)
    }

    @Test("live stitched ads replace the content under them: an ad watcher comes out of its pod where the others are, with no seek")
    func liveStitchedCatchUp() {
        var group = CoordinatorTestGroup()
        group.add("alice", item: "live")
        group.add("bob", item: "live", mapping: Self.liveStitched(15))
        group.add("charlie", item: "live", mapping: Self.liveStitched(30))
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(until: .milliseconds(62_300))
        #expect(group.coordinators["bob"]!.suspensionReasons == [.playingInterstitial])
        #expect(group.coordinatedPosition("bob") == t(60), "coordinated time stands at the pod's start while it plays")
        group.run(until: .milliseconds(101_300))
        #expect(group.coordinators["bob"]!.suspensionReasons == [])
        #expect(group.coordinators["charlie"]!.suspensionReasons == [])
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.position(id) == t(100), "\(id): the same item time, nothing skipped")
            #expect(group.coordinatedPosition(id) == t(100))
        }
        // When the pod ends Bob rejoins the group where his player already is (VOD ads would send
        // him 15 s on, to the content the others played meanwhile).
        #expect(group.controls["bob"]!.last!.1.command == .play(rate: 1, position: .item(t(75)), groupTime: .milliseconds(76_300)))
        #expect(group.coordinators["bob"]!.mapping.localBreakSchedule.map(\.coordinatedTime) == [t(60)])
        #expect(group.coordinators["bob"]!.mapping.position(forCoordinatedTime: t(80)) == .item(t(80)))
    }

    @Test("a live ad watcher whose player runs a little fast leaves its pod before the group's time gets there, and is not put back into it")
    func liveStitchedFastPlayerLeavesPod() throws {
        var group = CoordinatorTestGroup()
        group.add("alice", item: "live")
        group.add("bob", item: "live", mapping: Self.liveStitched(15))
        group.players["bob"]!.clockRate = 1.0001
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(until: .milliseconds(70_000))
        #expect(group.coordinators["bob"]!.suspensionReasons == [.playingInterstitial])
        group.clearControls()
        // 100 ppm fast, Bob's player reaches the pod's end (75 s) about 7 ms before the group's
        // time does: the group's time at his exit is inside his pod.
        group.run(until: .milliseconds(76_300))
        #expect(group.coordinators["bob"]!.suspensionReasons == [])
        let (at, control) = try #require(group.controls["bob"]?.first)
        #expect(group.coordinators["bob"]!.expectedCoordinatedTime(atGroupTime: at)! < t(75))
        guard case .play(_, let position, _) = control.command else {
            Issue.record("\(control.command)")
            return
        }
        #expect(position == .item(t(75)), "put back into the pod, to replay its last moment")
        #expect(group.coordinatedPosition("bob") >= t(75))
    }

    @Test("a live item that has seen more breaks than an ad schedule may list tells the others about the latest")
    func longLiveSchedule() throws {
        let ranges = (0..<300).map { MediaTimeRange(start: t(Int64($0) * 60), duration: t(15)) }
        var group = CoordinatorTestGroup()
        group.add("alice", item: "live")
        group.add("bob", item: "live", mapping: CoordinatedTimeMapping(stitchedAdRanges: ranges, stitchedAdPlacement: .replacing))
        group.run(for: .seconds(1))
        let schedule = try #require(group.coordinators["alice"]!.adSchedules["bob"])
        #expect(schedule.entries.count == AdSchedule.maximumEntries)
        #expect(schedule.entries.last?.coordinatedTime == t(299 * 60))
        #expect(try AdSchedule(wire: schedule.wire) == schedule, "within the wire's bounds")
    }

    @Test("a participant held inside its pod while the group is paused plays it when the group plays")
    func pausedInsidePod() {
        var group = CoordinatorTestGroup()
        group.add("alice", item: "live")
        group.add("charlie", item: "live", mapping: Self.liveStitched(30))
        group.run(for: .seconds(1))
        // The paused group stands at 70: 10 s into Charlie's pod.
        group.perform("alice") { $0.coordinateSeek(to: .item(t(70)), at: $1) }
        group.run(for: .seconds(2))
        #expect(group.position("charlie") == t(70))
        #expect(group.coordinators["charlie"]!.suspensionReasons == [], "held, not playing its pod")
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(5))
        #expect(group.isPlaying("charlie"))
        #expect(group.coordinators["charlie"]!.suspensionReasons == [.playingInterstitial])
        group.run(for: .seconds(20))
        #expect(group.coordinators["charlie"]!.suspensionReasons == [])
        #expect(group.position("charlie") == group.position("alice"))
    }

    @Test("a VOD break with the waiting policy holds the others at the break and resumes primary where it left")
    func vodBreakWaits() {
        var group = CoordinatorTestGroup()
        group.observesBoundaries = false
        let policy: (inout Coordinator) -> Void = { $0.suspensionReasonsThatTriggerWaiting = [.playingInterstitial] }
        group.add("alice", configure: policy)
        group.add(
            "bob",
            mapping: CoordinatedTimeMapping(breaks: [.init(eventIdentifier: "ad1", itemTime: t(30), duration: t(20))]),
            configure: policy
        )
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(until: .milliseconds(31_300))
        group.perform("bob") { $0.observeLocalPlayback(.interstitial(eventIdentifier: "ad1", offset: .zero), at: $1) }
        group.run(until: .milliseconds(40_000))
        #expect(group.isWaiting("alice"))
        #expect(group.position("alice") == t(30))
        group.run(until: .milliseconds(51_300))
        group.perform("bob") { $0.observeLocalPlayback(.item(t(30)), at: $1) }
        group.run(until: .milliseconds(61_600))
        #expect(group.position("alice") == t(40))
        #expect(group.position("bob") == t(40))
    }

    @Test("a late joiner whose break is still loading its asset list, or turns out empty, is not playing an interstitial and is never waited for")
    func joinerAtBreakWithoutAds() {
        var group = CoordinatorTestGroup()
        group.observesBoundaries = false
        let policy: (inout Coordinator) -> Void = { $0.suspensionReasonsThatTriggerWaiting = [.playingInterstitial] }
        let ads = CoordinatedTimeMapping(breaks: [.init(eventIdentifier: "ad1", itemTime: t(30), duration: t(20))])
        group.add("alice", configure: policy)
        group.add("bob", mapping: ads, configure: policy)
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(until: .milliseconds(31_300))
        group.perform("bob") { $0.observeLocalPlayback(.interstitial(eventIdentifier: "ad1", offset: .zero), at: $1) }
        group.run(until: .seconds(35))
        // Erin (premium) and Dave join while the group waits for Bob; each is put at the break
        // before its asset list arrives.
        func pending(_ assets: CoordinatedTimeMapping.Break.Assets, duration: MediaTime = .zero) -> CoordinatedTimeMapping {
            CoordinatedTimeMapping(breaks: [.init(eventIdentifier: "ad1", itemTime: t(30), duration: duration, assets: assets)])
        }
        group.add("erin", mapping: pending(.pending), configure: policy)
        group.add("dave", mapping: pending(.pending), configure: policy)
        group.run(for: .milliseconds(200))
        #expect(group.isWaiting("erin") && group.position("erin") == t(30))
        for id in ["erin", "dave"] as [ParticipantID] {
            group.perform(id) { $0.observeBreakBoundary(.interstitial(eventIdentifier: "ad1", offset: .zero), at: $1) }
        }
        group.run(for: .milliseconds(100))
        for id in ["alice", "bob", "erin", "dave"] as [ParticipantID] {
            #expect(group.blockers(id) == ["bob"], "as \(id) sees it")
        }
        #expect(group.coordinators["erin"]!.suspensionReasons.isEmpty)
        #expect(group.coordinators["alice"]!.otherParticipants.allSatisfy { $0.id == "bob" || $0.suspensionReasons.isEmpty })
        // Erin's list is empty: her player leaves the break and she waits with the group.
        group.perform("erin") { $0.updateMapping(pending(.empty), at: $1) }
        group.perform("erin") { $0.observeBreakBoundary(.item(t(30)), at: $1) }
        // Dave's has 10 s of ads: he plays an interstitial from the moment the first one starts.
        group.perform("dave") { $0.updateMapping(pending(.present, duration: t(10)), at: $1) }
        group.perform("dave") { $0.observeBreakBoundary(.interstitial(eventIdentifier: "ad1", offset: .zero), at: $1) }
        #expect(group.coordinators["dave"]!.suspensionReasons == [.playingInterstitial])
        group.run(for: .milliseconds(100))
        #expect(group.blockers("alice") == ["bob", "dave"])
        #expect(group.coordinators["erin"]!.suspensionReasons.isEmpty)
        #expect(group.isWaiting("erin") && group.position("erin") == t(30))
    }

    static let promo = CoordinatedTimeMapping(
        breaks: [.init(eventIdentifier: "promo", itemTime: t(30), duration: t(10), contentMayVary: false)]
    )

    @Test("leaving a shared break by the user's seek does not pull the player back in before the seek reaches the group (S2.10)")
    func breakBoundaryBeforeSeek() {
        var group = CoordinatorTestGroup()
        group.observesBoundaries = false
        group.add("alice", mapping: Self.promo)
        group.add("bob", mapping: Self.promo)
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(until: .milliseconds(34_300))
        // Bob's player, seeking to 100 from 4 s into the promo, reports the break's end first.
        let boundary = group.perform("bob") { $0.observeBreakBoundary(.item(t(100)), at: $1) }
        #expect(boundary.isEmpty)
        group.perform("bob") { $0.coordinateSeek(to: .item(t(100)), at: $1) }
        group.run(for: .seconds(1))
        #expect(group.coordinators["alice"]!.currentState!.anchorTime == t(110))
        #expect(group.controls["alice"]!.last!.1.command == .play(rate: 1, position: .item(t(100)), groupTime: group.now - .milliseconds(700)))
        // A periodic observation still measures drift and corrects it.
        let observed = group.perform("bob") { $0.observeLocalPlayback(.item(t(50)), at: $1) }
        #expect(!observed.isEmpty)
    }

    @Test("a break whose content may not vary is played in sync by the whole group, and seeks into it are shared (S2.10)")
    func sharedBreak() {
        var group = CoordinatorTestGroup()
        group.observesBoundaries = false
        group.add("alice", mapping: Self.promo)
        group.add("bob", mapping: Self.promo)
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(1))
        let start = Duration.milliseconds(1_300)
        for id in ["alice", "bob"] as [ParticipantID] {
            let coordinator = group.coordinators[id]!
            #expect(coordinator.expectedItemTime(atGroupTime: start + .seconds(35)) == .interstitial(eventIdentifier: "promo", offset: t(5)))
            #expect(coordinator.expectedItemTime(atGroupTime: start + .seconds(45)) == .item(t(35)))
        }
        // Nobody is suspended in a shared break: it is part of the coordinated timeline.
        group.perform("bob") { $0.observeLocalPlayback(.interstitial(eventIdentifier: "promo", offset: t(1)), at: $1) }
        #expect(group.coordinators["bob"]!.suspensionReasons.isEmpty)
        // Alice seeks into the promo: Bob is told to play it from the same offset.
        group.perform("alice") { $0.coordinateSeek(to: .interstitial(eventIdentifier: "promo", offset: t(2)), at: $1) }
        group.run(for: .seconds(1))
        let bobCommand = group.controls["bob"]!.last!.1.command
        #expect(bobCommand == .play(rate: 1, position: .interstitial(eventIdentifier: "promo", offset: t(2)), groupTime: group.now - .milliseconds(700)))
        // And out of it, onto primary after it.
        group.perform("bob") { $0.coordinateSeek(to: .item(t(50)), at: $1) }
        group.run(for: .seconds(1))
        #expect(group.coordinators["alice"]!.currentState!.anchorTime == t(60))
        #expect(group.controls["alice"]!.last!.1.command == .play(rate: 1, position: .item(t(50)), groupTime: group.now - .milliseconds(700)))
    }

    @Test("a shared break whose duration differs is reported; one a participant does not know yet (its asset list still on its way) is not")
    func sharedBreakMismatch() {
        var group = CoordinatorTestGroup()
        group.add("alice", mapping: Self.promo)
        group.add("bob", mapping: CoordinatedTimeMapping(breaks: [.init(eventIdentifier: "promo", itemTime: t(30), duration: t(12), contentMayVary: false)]))
        group.add("charlie")
        group.run(for: .seconds(1))
        let reported = group.events["alice"]!.compactMap { event -> Coordinator.SharedBreakMismatch? in
            if case .sharedBreakMismatch(let mismatch) = event { return mismatch }
            return nil
        }
        #expect(
            reported == [
                .init(itemIdentifier: "movie", eventIdentifier: "promo", participant: "bob", localDuration: t(10), participantDuration: t(12))
            ]
        )
    }
}
