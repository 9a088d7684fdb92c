import GroupCoordination
import GroupPlayback
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing

@Suite("Participant driver")
struct ParticipantDriverTests {
    /// A participant that keeps the group clock, its movie loaded and coordinated.
    static func coordinatedRig() -> DriverParticipantRig {
        var rig = DriverParticipantRig(configuration: .init(participant: "alice", keepsGroupClock: true))
        rig.load()
        rig.step { driver, player, now in driver.connect(player: player, at: now) }
        rig.run(until: .seconds(2))
        return rig
    }

    /// Bob, his movie loaded, connected to a group whose clock he does not know yet.
    static func connectedRig() -> DriverParticipantRig {
        var rig = DriverParticipantRig(configuration: .init(participant: "bob"))
        rig.load()
        rig.run(until: .seconds(1))
        rig.step { driver, player, now in driver.connect(player: player, at: now) }
        return rig
    }

    /// Answers the participant's probes until it joins, each reply 20 ms after its probe, from a
    /// clock keeper `keeperAhead` ahead of the participant; how many were answered.
    static func synchronize(_ rig: inout DriverParticipantRig, keeperAhead: Duration) -> Int {
        var answered = 0
        while !rig.driver.isJoined, answered < 20 {
            let probes = rig.outputs.compactMap { output -> ClockProbe? in
                if case .probe(let probe) = output { return probe }
                return nil
            }
            guard answered < probes.count else {
                rig.run(until: rig.driver.nextDeadline ?? rig.now)
                continue
            }
            let probe = probes[answered]
            answered += 1
            rig.run(until: probe.clientSendTime + .milliseconds(20))
            let reply = ClockProbeReply(answering: probe, receivedAt: probe.clientSendTime + keeperAhead + .milliseconds(10),
                                        sentAt: probe.clientSendTime + keeperAhead + .milliseconds(10))
            rig.step { driver, player, now in driver.clockProbeReply(reply, player: player, at: now) }
        }
        return answered
    }

    @Test("a held player told to play waits for the start time and then plays, never playing before it")
    func heldPlayerStartsOnTime() {
        var rig = DriverParticipantRig(configuration: .init(participant: "alice", keepsGroupClock: true))
        rig.load()
        rig.run(until: .seconds(2))
        #expect(rig.machine.itemStatus == .readyToPlay)
        for input in PlayerCoordinationBinding.PlayerCommand.hold(at: .primary(.zero), rate: 1).machineInputs { rig.feed(input) }
        rig.run(until: .seconds(3))
        let start = Duration.seconds(4)
        let since = rig.playerEvents.count
        for input in PlayerCoordinationBinding.PlayerCommand.play(rate: 1, position: .primary(.zero), hostTime: start).machineInputs { rig.feed(input) }
        rig.run(until: .seconds(5))
        let playing = rig.playerEvents[since...].filter { $0.kind == .timeControlStatusChanged(.playing) }.map(\.hostTime)
        #expect(playing == [start])
        #expect(abs(rig.machine.currentTime.seconds - 1) < 0.001)
    }

    @Test("a participant joins once its clock is synchronised: probes until then, then the clock, its hello, and its ready item")
    func joinsWhenSynchronized() throws {
        var rig = Self.connectedRig()
        #expect(!rig.driver.isJoined)
        // The keeper's clock is an hour ahead.
        let answered = Self.synchronize(&rig, keeperAhead: .seconds(3600))
        #expect(rig.driver.isJoined && rig.driver.hasStartedItem)
        #expect(answered == 8)
        let joined = rig.outputs.drop { if case .probe = $0 { true } else { false } }
        guard case .event(.clockSynchronized(let estimate))? = joined.first else {
            Issue.record("joining does not begin with the clock: \(joined.prefix(3))")
            return
        }
        let error = estimate.offset(atLocalTime: rig.now) - .seconds(3600)
        #expect(error < .milliseconds(1) && error > .milliseconds(-1))
        let hello = try #require(joined.firstIndex { $0 == .send(.hello("bob"), to: .all) })
        let coordinated = try #require(joined.firstIndex { $0 == .event(.itemCoordinated("movie")) })
        #expect(joined.startIndex < hello && hello < coordinated)
        #expect(rig.driver.currentItemIdentifier == "movie")
    }

    @Test("a participant that keeps the group clock joins when it connects and sends no probes")
    func keeperJoinsAtOnce() {
        let rig = Self.coordinatedRig()
        #expect(rig.driver.isJoined && rig.driver.hasStartedItem)
        #expect(rig.driver.clockEstimate == .exact)
        #expect(!rig.outputs.contains { if case .probe = $0 { true } else { false } })
        #expect(rig.outputs.first == .event(.clockSynchronized(.exact)))
    }

    @Test("observations keep to the participant's own clock: every interval from the item's start, a late timer shifting none of the later ones")
    func observationCadence() throws {
        var rig = Self.coordinatedRig()
        // The item was coordinated when it became ready; nothing else is due in a paused group.
        let deadline = try #require(rig.driver.nextDeadline)
        let interval = rig.driver.configuration.observationInterval
        rig.now = deadline + .milliseconds(100)
        rig.step { driver, player, now in driver.timerFired(player: player, at: now) }
        #expect(rig.driver.nextDeadline == deadline + interval)
        // More than an interval late, the next one is an interval from now.
        rig.now = deadline + interval * 3 + .milliseconds(10)
        rig.step { driver, player, now in driver.timerFired(player: player, at: now) }
        #expect(rig.driver.nextDeadline == rig.now + interval)
    }

    @Test("an observation due when the driver commands the player waits until the commands are carried out, and is made then")
    func observationAfterCommands() throws {
        var rig = Self.coordinatedRig()
        rig.feed(.setRate(1, originator: .user))
        rig.run(until: .seconds(10))
        #expect(rig.machine.timeControlStatus == .playing)
        let stalled = PlayerEvent(hostTime: rig.now, kind: .stalled(at: rig.machine.currentTime))
        rig.step { driver, player, now in driver.playerEvent(stalled, player: player, at: now) }
        #expect(rig.driver.binding.coordinator.suspensionReasons == [.stallRecovery])
        // Ending the stall when an observation is due: the player is moved to the group first.
        let observation = try #require(rig.driver.nextDeadline)
        rig.now = observation
        let playing = PlayerEvent(hostTime: observation, kind: .timeControlStatusChanged(.playing))
        let outputs = rig.driver.playerEvent(playing, player: rig.machine, at: observation)
        #expect(outputs.contains { $0.playerCommand != nil })
        #expect(rig.driver.nextDeadline == observation)
        _ = rig.driver.timerFired(player: rig.machine, at: observation)
        #expect(rig.driver.nextDeadline == observation + rig.driver.configuration.observationInterval)
    }

    @Test("a stitched ad's suspension begins the instant the player enters the ad and ends the instant it leaves, between observations, as an interstitial's events make it")
    func stitchedAdBoundaries() throws {
        var configuration = ParticipantDriver.Configuration(participant: "alice", keepsGroupClock: true)
        configuration.observationInterval = .seconds(10)
        var rig = DriverParticipantRig(configuration: configuration)
        rig.driver.configure { $0.suspensionReasonsThatTriggerWaiting = [.playingInterstitial] }
        rig.load(url: DriverParticipantRig.stitchedURL)
        rig.step { driver, player, now in driver.connect(player: player, at: now) }
        rig.run(until: .seconds(2))
        #expect(rig.driver.binding.coordinator.mapping.stitchedAdRanges == [MediaTimeRange(start: MediaTime(seconds: 40), duration: MediaTime(seconds: 12))])
        #expect(rig.machine.hostTime(whenPrimaryReaches: MediaTime(seconds: 40)) == nil, "paused, the player gets nowhere")
        rig.feed(.setRate(1, originator: .user))
        rig.run(until: .seconds(3))
        let enters = try #require(rig.machine.hostTime(whenPrimaryReaches: MediaTime(seconds: 40)))
        rig.run(until: enters - .nanoseconds(1))
        #expect(rig.driver.binding.coordinator.suspensionReasons == [])
        rig.run(until: enters)
        #expect(rig.driver.binding.coordinator.suspensionReasons == [.playingInterstitial])
        let leaves = try #require(rig.machine.hostTime(whenPrimaryReaches: MediaTime(seconds: 52)))
        #expect(leaves == enters + .seconds(12))
        rig.run(until: leaves - .nanoseconds(1))
        #expect(rig.driver.binding.coordinator.suspensionReasons == [.playingInterstitial])
        let since = rig.outputs.count
        rig.run(until: leaves)
        #expect(rig.driver.binding.coordinator.suspensionReasons == [])
        // The group waited for the ad at 40 s of the film: it goes on from there, which for the
        // ad's watcher is the end of the ad, where her player already is.
        let positions = rig.outputs[since...].compactMap { output -> IntegratedTimeline.Position? in
            switch output.playerCommand {
            case .play(_, let position, _)?, .hold(let position, _)?: position
            default: nil
            }
        }
        #expect(!positions.isEmpty && positions.allSatisfy { $0 == .primary(MediaTime(seconds: 52)) }, "\(positions)")
        rig.run(until: leaves + .seconds(1))
        #expect(rig.machine.timeControlStatus == .playing)
        #expect(rig.machine.currentTime > MediaTime(seconds: 52))
    }

    @Test("what the group says before the participant has joined is kept for its coordinator: the joiner follows the group instead of proposing its own start, and a departure is not forgotten")
    func messagesBeforeJoining() throws {
        var rig = Self.connectedRig()
        #expect(!rig.driver.isJoined)
        // A server's welcome: the group plays from 100 s since group time 0; carol was there and left.
        let state = CoordinatedPlaybackState(
            itemIdentifier: "movie", rate: 1, anchorTime: MediaTime(seconds: 100), anchorGroupTime: .zero,
            timestamp: CoordinationTimestamp(counter: 3, participant: "alice", issuedAt: .zero))
        let carol = ParticipantStateUpdate(
            participant: "carol", sequence: 1, itemIdentifier: "movie", isReadyToPlay: true, suspensionReasons: [],
            waitIntervals: [], contentDuration: nil, sharedBreakDurations: [:])
        rig.step { driver, _, now in driver.receive(.playbackState(state), from: "alice", at: now) }
        rig.step { driver, _, now in driver.receive(.participantState(carol), from: "carol", at: now) }
        rig.step { driver, _, now in driver.participantLeft("carol", at: now) }
        #expect(rig.driver.binding.coordinator.otherParticipants.isEmpty, "nothing reaches the coordinator before the clock is known")

        _ = Self.synchronize(&rig, keeperAhead: .zero)
        try #require(rig.driver.hasStartedItem)
        let proposals = rig.outputs.compactMap { output -> CoordinatedPlaybackState? in
            if case .send(.playbackState(let state), _) = output, state.originator == "bob" { return state }
            return nil
        }
        #expect(proposals.isEmpty, "bob proposed \(proposals) although the group was playing")
        guard case .play(_, .primary(let time), let hostTime)? = rig.outputs.compactMap(\.playerCommand).last else {
            Issue.record("bob was not told to play: \(rig.outputs.compactMap(\.playerCommand))")
            return
        }
        // Bob's clock is the group's: at host time t the group is at 100 + t.
        #expect(abs((time - MediaTime(seconds: 100)).seconds - Double(hostTime / .milliseconds(1)) / 1000) < 0.001)
        #expect(!rig.driver.binding.coordinator.otherParticipants.contains { $0.id == "carol" })
    }

    @Test("the coordinator's deadline moves on the local clock with the estimate of the group clock, as if the coordinator were asked again")
    func deadlineFollowsTheEstimate() throws {
        var configuration = ParticipantDriver.Configuration(participant: "bob")
        configuration.observationInterval = .seconds(60)
        configuration.coordinator.commandLeadTime = .seconds(5)
        configuration.clockEstimator.refreshInterval = .seconds(3)
        var rig = DriverParticipantRig(configuration: configuration)
        rig.load()
        rig.run(until: .seconds(1))
        rig.step { driver, player, now in driver.connect(player: player, at: now) }
        rig.answerProbes { $0.driver.isJoined }
        // The group starts in 5 s: the coordinator's deadline is the start, after the next probe
        // (in 3 s) and before the one after.
        rig.feed(.setRate(1, originator: .user))
        let before = try #require(rig.driver.clockEstimate)
        let start = try #require(rig.driver.binding.nextGroupDeadline(clock: before, localTime: rig.now))
        // A quicker exchange moves the estimate; the coordinator has had no input.
        rig.answerProbes(roundTrip: .milliseconds(2), offset: .seconds(3600) + .milliseconds(8)) { $0.driver.clockEstimate != before }
        let after = try #require(rig.driver.clockEstimate)
        #expect(after.localTime(atGroupTime: start) != before.localTime(atGroupTime: start))
        #expect(rig.driver.nextDeadline == after.localTime(atGroupTime: start))
        #expect(rig.driver.binding.nextGroupDeadline(clock: after, localTime: rig.now) == start)
    }

    @Test("the group's state that arrives while the clock is being synchronised is followed once the participant joins, and no start of its own is proposed")
    func followsStateFromBeforeJoining() throws {
        var rig = DriverParticipantRig(configuration: .init(participant: "bob"))
        rig.load()
        rig.run(until: .seconds(1))
        rig.step { driver, player, now in driver.connect(player: player, at: now) }
        // As a server's welcome brings it: alice's group plays the movie from 10 s at group time 1 h.
        let hour = Duration.seconds(3600)
        let state = CoordinatedPlaybackState(
            itemIdentifier: "movie", rate: 1, anchorTime: MediaTime(seconds: 10), anchorGroupTime: hour,
            timestamp: CoordinationTimestamp(counter: 3, participant: "alice", issuedAt: hour))
        rig.step { driver, _, now in driver.receive(.playbackState(state), from: "alice", at: now) }
        #expect(!rig.driver.isJoined)
        var answered = 0
        while !rig.driver.isJoined, answered < 20 {
            let probes = rig.outputs.compactMap { output -> ClockProbe? in
                if case .probe(let probe) = output { return probe }
                return nil
            }
            guard answered < probes.count else {
                rig.run(until: rig.driver.nextDeadline ?? rig.now)
                continue
            }
            let probe = probes[answered]
            answered += 1
            rig.run(until: probe.clientSendTime + .milliseconds(20))
            // The group clock is the local clock plus an hour, less a second.
            let groupTime = probe.clientSendTime + hour - .seconds(1) + .milliseconds(10)
            let reply = ClockProbeReply(answering: probe, receivedAt: groupTime, sentAt: groupTime)
            rig.step { driver, player, now in driver.clockProbeReply(reply, player: player, at: now) }
        }
        #expect(rig.driver.isJoined && rig.driver.hasStartedItem)
        let proposals = rig.outputs.filter { if case .send(.playbackState(let sent), _) = $0 { sent.timestamp.participant == "bob" } else { false } }
        #expect(proposals.isEmpty)
        // Five seconds into the group's play, the group expects 15 s.
        let expected = try #require(rig.driver.binding.coordinator.expectedItemTime(atGroupTime: hour + .seconds(5)))
        guard case .item(let time) = expected else {
            Issue.record("the group is expected in a break: \(expected)")
            return
        }
        #expect(abs(time.seconds - 15) < 0.001)
    }
}
