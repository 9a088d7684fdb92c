import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime
import Testing

@Suite struct CoordinatorJoinTests {
    func playingPair() -> CoordinatorTestGroup {
        var group = CoordinatorTestGroup()
        group.add("alice")
        group.add("bob")
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .milliseconds(100_300))
        return group
    }

    @Test("a late joiner adopts the group's time and nobody else is moved")
    func lateJoiner() {
        var group = playingPair()
        group.clearControls()
        group.add("dave")
        group.run(for: .seconds(1))
        #expect(group.position("dave") == group.position("alice"))
        #expect(group.position("alice") == t(101))
        #expect(group.isPlaying("dave"))
        #expect(group.controls["alice"] == nil)
        #expect(group.controls["bob"] == nil)
        #expect(group.coordinators["alice"]!.otherParticipants.map(\.id) == ["bob", "dave"])
    }

    @Test("a joiner's own initial proposal never resets a group that was there first")
    func joinerProposalLoses() {
        var group = playingPair()
        group.coordinators["erin"] = Coordinator(localParticipant: "erin")
        group.players["erin"] = SimulatedPlayer()
        group.connected.insert("erin")
        group.perform("erin") { $0.transitionToItem(withIdentifier: "movie", proposingInitialTime: .item(t(900)), rate: 1, at: $1) }
        group.perform("erin") { $0.connect(at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("alice") == t(101))
        #expect(group.position("erin") == t(101))
    }

    @Test("of two concurrent initial proposals, the older wins everywhere")
    func olderInitialProposalWins() {
        var group = CoordinatorTestGroup(latency: .milliseconds(200))
        group.coordinators["zoe"] = Coordinator(localParticipant: "zoe")
        group.coordinators["adam"] = Coordinator(localParticipant: "adam")
        for id in ["zoe", "adam"] as [ParticipantID] {
            group.players[id] = SimulatedPlayer()
            group.connected.insert(id)
        }
        group.perform("zoe") { $0.transitionToItem(withIdentifier: "movie", proposingInitialTime: .item(t(10)), at: $1) }
        group.run(for: .milliseconds(100))
        group.perform("adam") { $0.transitionToItem(withIdentifier: "movie", proposingInitialTime: .item(t(20)), at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("zoe") == t(10))
        #expect(group.position("adam") == t(10))
    }

    @Test("a participant reconnecting after missing commands is aligned to the group, and resets nobody")
    func reconnect() {
        var group = playingPair()
        group.add("carol")
        group.run(for: .seconds(1))
        group.connected.remove("carol")
        group.perform("alice") { $0.participantLeft("carol", at: $1) }
        group.perform("bob") { $0.participantLeft("carol", at: $1) }
        group.perform("bob") { $0.coordinateSeek(to: .item(t(1_000)), at: $1) }
        group.run(for: .seconds(5))
        // Carol missed the seek and played on.
        #expect(group.position("carol") == t(106))
        group.clearControls()
        group.connected.insert("carol")
        group.perform("carol") { $0.connect(at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("carol") == group.position("alice"))
        #expect(group.position("alice") == t("1005.7"))
        #expect(group.controls["alice"] == nil)
        #expect(group.controls["bob"] == nil)
    }

    @Test("a participant that joins while the group waits for someone waits too, at the same place")
    func joinDuringWait() {
        var group = CoordinatorTestGroup()
        let policy: (inout Coordinator) -> Void = { $0.suspensionReasonsThatTriggerWaiting = [.stallRecovery] }
        group.add("alice", configure: policy)
        group.add("bob", configure: policy)
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .milliseconds(10_300))
        _ = group.suspend("bob", .stallRecovery)
        group.run(for: .seconds(5))
        group.add("carol", configure: policy)
        group.run(for: .seconds(1))
        #expect(group.isWaiting("carol"))
        #expect(group.position("carol") == t(10))
        #expect(group.blockers("carol") == ["bob"])
    }
}
