import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime
import Testing

@Suite struct CoordinatorCommandTests {
    static let trio: [ParticipantID] = ["alice", "bob", "charlie"]

    func playingTrio() -> CoordinatorTestGroup {
        var group = CoordinatorTestGroup()
        for id in Self.trio { group.add(id) }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(10))
        return group
    }

    @Test("a play from any participant starts everyone together, a lead time later, at the same position")
    func playStartsTogether() {
        var group = CoordinatorTestGroup()
        for id in Self.trio { group.add(id) }
        group.run(for: .seconds(1))
        group.perform("bob") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .milliseconds(299))
        for id in Self.trio { #expect(!group.isPlaying(id), "\(id) started before the scheduled start") }
        group.run(for: .seconds(10))
        for id in Self.trio { #expect(group.position(id) == t("9.999"), "\(id) is at \(group.position(id))") }
        #expect(group.controls["alice"]!.last!.1.originator == "bob")
        #expect(group.controls["bob"]!.last!.1.originator == nil)
    }

    @Test("a pause snaps every participant to the originator's stop time")
    func pauseSnaps() {
        var group = playingTrio()
        group.perform("bob") { $0.coordinateRateChange(to: 0, at: $1) }
        let stop = group.position("bob")
        group.run(for: .seconds(2))
        for id in Self.trio {
            #expect(group.position(id) == stop, "\(id) stopped at \(group.position(id)), not \(stop)")
            #expect(!group.isPlaying(id))
        }
    }

    @Test("without pause snapping, a remote pause stops the player where it is, without a jump back")
    func pauseWithoutSnapping() {
        var group = CoordinatorTestGroup()
        group.add("alice")
        group.add("bob") { $0.pauseSnapsToMediaTimeOfOriginator = false }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(10))
        group.perform("alice") { $0.coordinateRateChange(to: 0, at: $1) }
        let stop = group.position("alice")
        group.run(for: .seconds(1))
        #expect(group.position("alice") == stop)
        // Bob heard of the pause 50 ms later and stayed where he was then.
        #expect(group.position("bob") == stop + t("0.05"))
        let command = group.controls["bob"]!.last!.1.command
        #expect(command == .pause(position: nil))
    }

    @Test("a participant that may not command the group (a viewer) sends nothing for its pause or seek: its player is put back where the group is, and the app is told")
    func viewerIsPutBack() {
        var group = CoordinatorTestGroup()
        for id in Self.trio { group.add(id) }
        group.add("dana") { $0.mayCommandGroup = false }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(10))
        let controlsBefore = group.controls["dana"]!.count
        let actions = group.perform("dana") { $0.coordinateRateChange(to: 0, at: $1) }
        #expect(!actions.contains { if case .send = $0 { true } else { false } }, "nothing goes to the group")
        #expect(actions.contains(.event(.commandNotAllowed)))
        #expect(group.controls["dana"]!.count == controlsBefore + 1, "the group's state is applied to the player again")
        _ = group.perform("dana") { $0.coordinateSeek(to: .item(t(600)), at: $1) }
        group.run(for: .seconds(2))
        for id in Self.trio + ["dana"] {
            #expect(group.isPlaying(id), "\(id)")
            #expect(group.position(id) < t(20), "\(id) at \(group.position(id)): the viewer's seek moved nobody")
        }
        #expect(group.events["dana"]!.filter { $0 == .commandNotAllowed }.count == 2)
    }

    @Test("a seek moves everyone and keeps the group's rate")
    func seekKeepsRate() {
        var group = playingTrio()
        group.perform("charlie") { $0.coordinateSeek(to: .item(t(600)), at: $1) }
        group.run(for: .seconds(5))
        for id in Self.trio {
            #expect(group.position(id) == t("604.7"), "\(id) at \(group.position(id))")
            #expect(group.isPlaying(id))
        }
    }

    @Test("a seek while paused stays paused at the new time")
    func seekWhilePaused() {
        var group = CoordinatorTestGroup()
        for id in Self.trio { group.add(id) }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateSeek(to: .item(t(42)), at: $1) }
        group.run(for: .seconds(3))
        for id in Self.trio {
            #expect(group.position(id) == t(42))
            #expect(!group.isPlaying(id))
        }
    }

    @Test("concurrent commands resolve to the same winner everywhere, whatever the delivery order",
          arguments: [Duration.milliseconds(10), .milliseconds(50), .milliseconds(400)])
    func concurrentCommands(latency: Duration) {
        var group = CoordinatorTestGroup(latency: latency)
        for id in Self.trio { group.add(id) }
        group.run(for: .seconds(2))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(5))
        // Alice pauses and Charlie seeks at the same instant, each unaware of the other.
        group.perform("alice") { $0.coordinateRateChange(to: 0, at: $1) }
        group.perform("charlie") { $0.coordinateSeek(to: .item(t(100)), at: $1) }
        group.run(for: .seconds(3))
        // Same counter: the tie goes to the greater participant, Charlie; the group plays from 100.
        let states = Self.trio.map { group.coordinators[$0]!.currentState! }
        #expect(Set(states).count == 1)
        #expect(states[0].originator == "charlie")
        let positions = Set(Self.trio.map { group.position($0) })
        #expect(positions.count == 1)
        #expect(group.isPlaying("alice"))
    }

    @Test("a command issued after seeing another wins over it, whatever the participants' identifiers")
    func causalOrderWins() {
        var group = playingTrio()
        group.perform("charlie") { $0.coordinateSeek(to: .item(t(50)), at: $1) }
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 0, at: $1) }
        group.run(for: .seconds(1))
        for id in Self.trio {
            #expect(group.coordinators[id]!.currentState!.originator == "alice")
            #expect(!group.isPlaying(id))
        }
    }

    @Test("a stale or duplicated command is ignored and does not move anyone")
    func staleCommandsIgnored() {
        var group = playingTrio()
        let old = group.coordinators["alice"]!.currentState!
        group.perform("bob") { $0.coordinateSeek(to: .item(t(300)), at: $1) }
        group.run(for: .seconds(2))
        let before = group.position("charlie")
        group.clearControls()
        // The first play arrives again, late, and a copy of the seek arrives twice.
        let seek = group.coordinators["bob"]!.currentState!
        let stale = group.perform("charlie") { $0.receive(.playbackState(old), from: "alice", at: $1) }
        let duplicate = group.perform("charlie") { $0.receive(.playbackState(seek), from: "bob", at: $1) }
        #expect(stale.isEmpty)
        #expect(duplicate.isEmpty)
        #expect(group.controls["charlie"] == nil)
        #expect(group.position("charlie") == before)
    }

    @Test("the group's expected time is the anchor moved on at the rate, and the local item time maps through local ads")
    func expectedItemTime() {
        var group = CoordinatorTestGroup()
        group.add("alice")
        group.add("bob", mapping: CoordinatedTimeMapping(stitchedAdRanges: [MediaTimeRange(start: t(10), duration: t(30))]))
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 2, at: $1) }
        let start = group.now + .milliseconds(300)
        let bob = group.coordinators["bob"]!
        group.run(for: .seconds(1))
        // Before the play reaches Bob, he expects the group to stay paused at zero.
        #expect(bob.expectedCoordinatedTime(atGroupTime: start + .seconds(3)) == .zero)
        let bobNow = group.coordinators["bob"]!
        #expect(bobNow.expectedCoordinatedTime(atGroupTime: start + .seconds(3)) == t(6))
        #expect(bobNow.expectedItemTime(atGroupTime: start + .seconds(3)) == .item(t(6)))
        // Coordinated 20 is after Bob's 30 s ad at 10: item time 50.
        #expect(bobNow.expectedItemTime(atGroupTime: start + .seconds(10)) == .item(t(50)))
    }

    @Test("participants on different items keep independent playback; the same item identifier coordinates different URLs")
    func itemIdentity() {
        var group = CoordinatorTestGroup()
        group.add("alice", item: "movie")
        group.add("bob", item: "movie")
        group.add("charlie", item: "trailer")
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(5))
        #expect(group.isPlaying("bob"))
        #expect(!group.isPlaying("charlie"))
        #expect(group.coordinators["charlie"]!.otherParticipants.map(\.itemIdentifier) == ["movie", "movie"])
        // Charlie moves to the movie: he adopts where the group is rather than restarting it.
        group.perform("charlie") { $0.transitionToItem(withIdentifier: "movie", at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("charlie") == group.position("alice"))
        #expect(group.isPlaying("charlie"))
    }

    @Test("a suspended participant's rate change affects only its own player")
    func rateChangeWhileSuspended() {
        var group = playingTrio()
        let suspension = group.suspend("bob", "com.example.catch-up")
        let actions = group.perform("bob") { $0.coordinateRateChange(to: 2, at: $1) }
        #expect(!actions.contains { if case .send = $0 { return true } else { return false } })
        group.run(for: .seconds(4))
        #expect(group.position("bob") == group.position("alice") + t(4))
        // Ending the suspension brings Bob back to the group.
        group.perform("bob") { suspension.end(in: &$0, at: $1) }
        group.run(for: .seconds(1))
        #expect(group.position("bob") == group.position("alice"))
    }
}
