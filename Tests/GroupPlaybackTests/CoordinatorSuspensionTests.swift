import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime
import Testing

@Suite struct CoordinatorSuspensionTests {
    static let builtInReasons: [Reason] = [
        .audioSessionInterrupted, .stallRecovery, .playingInterstitial, .coordinatedPlaybackNotPossible,
        .userActionRequired, .userIsChangingCurrentTime, "com.example.custom",
    ]

    /// Alice, Bob and Charlie playing from 0 since group time 1.3 s, now at 11.3 s (item time 10).
    func playingTrio(configure: (inout Coordinator) -> Void = { _ in }) -> CoordinatorTestGroup {
        var group = CoordinatorTestGroup()
        for id in ["alice", "bob", "charlie"] as [ParticipantID] { group.add(id, configure: configure) }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .milliseconds(10_300))
        return group
    }

    @Test("by default only a user changing the current time makes the group wait", arguments: builtInReasons)
    func defaultPolicy(reason: Reason) {
        var group = playingTrio()
        let suspension = group.suspend("bob", reason)
        #expect(group.coordinators["bob"]!.suspensionReasons == [reason])
        group.run(for: .seconds(5))
        let waits = reason == .userIsChangingCurrentTime
        for id in ["alice", "charlie"] as [ParticipantID] {
            #expect(group.isWaiting(id) == waits, "\(id) waiting: \(group.isWaiting(id)) for \(reason)")
            #expect(group.position(id) == (waits ? t(10) : t(15)))
            #expect(group.blockers(id) == (waits ? ["bob"] : []))
        }
        // Others see why Bob is away.
        #expect(group.coordinators["alice"]!.otherParticipants.first { $0.id == "bob" }!.suspensionReasons == [reason])
        group.perform("bob") { suspension.end(in: &$0, at: $1) }
        group.run(for: .seconds(1))
        // Either everyone resumed together where they stood, or Bob caught up with the group.
        let expected = waits ? t("10.7") : t(16)
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.position(id) == expected, "\(id) at \(group.position(id))")
            #expect(group.isPlaying(id))
        }
    }

    @Test("a reason in the waiting policy holds the group until the suspension ends", arguments: builtInReasons)
    func waitingPolicy(reason: Reason) {
        var group = playingTrio { $0.suspensionReasonsThatTriggerWaiting = [reason] }
        let suspension = group.suspend("charlie", reason)
        group.run(for: .seconds(8))
        for id in ["alice", "bob"] as [ParticipantID] {
            #expect(group.isWaiting(id))
            #expect(group.position(id) == t(10))
        }
        let status = group.groupStatus("alice")!
        #expect(status.status == .waiting)
        #expect(status.blockers.map(\.participant) == ["charlie"])
        #expect(status.blockers.first?.cause == .suspension(reason))
        group.perform("charlie") { suspension.end(in: &$0, at: $1) }
        group.run(for: .milliseconds(300))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] { #expect(group.position(id) == t(10)) }
        group.run(for: .seconds(2))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.position(id) == t(12))
            #expect(group.isPlaying(id))
        }
    }

    @Test("a participant who is not suspended for a waiting reason is not waited for, even with others waiting")
    func onlyPolicyReasonsHold() {
        var group = playingTrio { $0.suspensionReasonsThatTriggerWaiting = [.playingInterstitial] }
        _ = group.suspend("bob", .stallRecovery)
        group.run(for: .seconds(3))
        #expect(group.isPlaying("alice"))
        #expect(group.position("alice") == t(13))
    }

    @Test("end() moves the local player to the group; end(proposingNewTime:) moves the group to the local player")
    func endVariants() {
        var group = playingTrio()
        let first = group.suspend("bob", .stallRecovery)
        group.run(for: .seconds(2))
        group.perform("bob") { first.end(in: &$0, at: $1) }
        group.run(for: .milliseconds(1))
        #expect(group.position("bob") == group.position("alice"))
        let second = group.suspend("bob", "com.example.scrub")
        group.perform("bob") { second.end(proposingNewTime: .item(t(100)), in: &$0, at: $1) }
        group.run(for: .seconds(2))
        for id in ["alice", "bob", "charlie"] as [ParticipantID] {
            #expect(group.position(id) == t("101.7"), "\(id) at \(group.position(id))")
            #expect(group.coordinators[id]!.currentState!.originator == "bob")
        }
    }

    @Test("a proposed time is ignored when another suspension remains")
    func proposalIgnoredWhileSuspended() {
        var group = playingTrio()
        let interruption = group.suspend("bob", .audioSessionInterrupted)
        let scrub = group.suspend("bob", "com.example.scrub")
        #expect(group.coordinators["bob"]!.suspensionReasons == [.audioSessionInterrupted, "com.example.scrub"])
        group.perform("bob") { scrub.end(proposingNewTime: .item(t(500)), in: &$0, at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("alice") == t(11))
        #expect(group.coordinators["alice"]!.currentState!.anchorTime == .zero)
        group.perform("bob") { interruption.end(in: &$0, at: $1) }
        group.run(for: .milliseconds(1))
        #expect(group.position("bob") == group.position("alice"))
    }

    @Test("the participant limit stops waiting in groups larger than the limit", arguments: [1, 2, 3, 4])
    func participantLimit(limit: Int) {
        var group = playingTrio {
            $0.suspensionReasonsThatTriggerWaiting = [.stallRecovery]
            $0.setParticipantLimit(limit, forWaitingOutSuspensionsWithReason: .stallRecovery)
        }
        #expect(group.coordinators["bob"]!.participantLimitForWaitingOutSuspensions(withReason: .stallRecovery) == limit)
        #expect(group.coordinators["bob"]!.participantLimitForWaitingOutSuspensions(withReason: .playingInterstitial) == .max)
        _ = group.suspend("bob", .stallRecovery)
        group.run(for: .seconds(2))
        // Three participants: waiting only while the group is within the limit.
        #expect(group.isWaiting("alice") == (limit >= 3))
    }

    @Test("a wait limit lets the group go on after it, and the suspended participant catches up when it ends")
    func waitLimit() {
        var group = playingTrio {
            $0.suspensionReasonsThatTriggerWaiting = [.stallRecovery]
            $0.setWaitLimit(.seconds(10), forWaitingOutSuspensionsWithReason: .stallRecovery)
        }
        let stall = group.suspend("bob", .stallRecovery)
        group.run(for: .seconds(9))
        #expect(group.isWaiting("alice"))
        #expect(group.groupStatus("alice")!.blockers.first!.expectedEnd == group.now + .seconds(1))
        group.run(for: .seconds(3))
        // Waited 10 s, restarted 0.3 s later: 1.7 s of playing since.
        #expect(group.isPlaying("alice"))
        #expect(group.position("alice") == t("11.7"))
        group.perform("bob") { stall.end(in: &$0, at: $1) }
        group.run(for: .milliseconds(1))
        #expect(group.position("bob") == group.position("alice"))
    }

    @Test("changing the policy during a wait releases the group at once")
    func policyChangeReleases() {
        var group = playingTrio { $0.suspensionReasonsThatTriggerWaiting = [.playingInterstitial] }
        _ = group.suspend("bob", .playingInterstitial)
        group.run(for: .seconds(20))
        #expect(group.isWaiting("alice"))
        group.perform("bob") { $0.setSuspensionReasonsThatTriggerWaiting([], at: $1) }
        group.run(for: .seconds(2))
        #expect(group.isPlaying("alice"))
        // Bob's release is stamped with his group time: the restart does not depend on latency.
        #expect(group.position("alice") == t("11.7"))
    }

    @Test("a play with playImmediately ignores the suspensions holding the group")
    func playImmediately() {
        var group = playingTrio { $0.suspensionReasonsThatTriggerWaiting = [.userActionRequired] }
        _ = group.suspend("bob", .userActionRequired)
        group.run(for: .seconds(5))
        #expect(group.isWaiting("alice"))
        group.perform("alice") { $0.coordinateRateChange(to: 1, playImmediately: true, at: $1) }
        group.run(for: .seconds(3))
        #expect(group.isPlaying("alice"))
        #expect(group.isPlaying("charlie"))
        #expect(group.position("charlie") == t("12.7"))
    }

    @Test("a participant that leaves while the group waits for it releases the group")
    func departureReleasesWait() {
        var group = playingTrio { $0.suspensionReasonsThatTriggerWaiting = [.stallRecovery] }
        _ = group.suspend("bob", .stallRecovery)
        group.run(for: .seconds(5))
        group.connected.remove("bob")
        group.perform("alice") { $0.participantLeft("bob", at: $1) }
        group.perform("charlie") { $0.participantLeft("bob", at: $1) }
        group.run(for: .seconds(2))
        for id in ["alice", "charlie"] as [ParticipantID] {
            #expect(group.isPlaying(id))
            #expect(group.position(id) == t("11.7"))
            #expect(group.coordinators[id]!.otherParticipants.map(\.id) == [id == "alice" ? "charlie" : "alice"])
        }
    }

    @Test("a play waits for participants that are not ready, and starts a lead time after the last is ready")
    func readinessHoldsStart() {
        var group = CoordinatorTestGroup()
        for id in ["alice", "bob"] as [ParticipantID] { group.add(id) }
        group.run(for: .seconds(1))
        group.perform("bob") { $0.setReadyToPlay(false, at: $1) }
        group.run(for: .seconds(1))
        #expect(group.coordinators["alice"]!.otherParticipants.first!.isReadyToPlay == false)
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(3))
        #expect(group.isWaiting("alice"))
        #expect(group.blockers("alice") == ["bob"])
        #expect(group.groupStatus("alice")!.blockers.first!.cause == .notReady)
        group.perform("bob") { $0.setReadyToPlay(true, at: $1) }
        group.run(for: .seconds(2))
        for id in ["alice", "bob"] as [ParticipantID] {
            #expect(group.isPlaying(id))
            #expect(group.position(id) == t("1.7"))
        }
    }

    @Test("a participant that stops being ready while the group plays does not stop the group")
    func stallDoesNotStopRunningGroup() {
        var group = playingTrio()
        group.perform("bob") { $0.setReadyToPlay(false, at: $1) }
        group.run(for: .seconds(3))
        #expect(group.isPlaying("alice"))
        #expect(group.position("alice") == t(13))
    }

    @Test("the group waits at most the readiness limit for a participant that never gets ready")
    func readinessLimit() {
        var group = CoordinatorTestGroup()
        for id in ["alice", "bob"] as [ParticipantID] { group.add(id) { $0.configuration.readinessWaitLimit = .seconds(5) } }
        group.run(for: .seconds(1))
        group.perform("bob") { $0.setReadyToPlay(false, at: $1) }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(3))
        #expect(group.isWaiting("alice"))
        group.run(for: .seconds(4))
        // The group began waiting with the play at 2 s: the wait ends at 7 s, the start follows at 7.3 s.
        #expect(group.isPlaying("alice"))
        #expect(group.position("alice") == t("1.7"))
    }
}
