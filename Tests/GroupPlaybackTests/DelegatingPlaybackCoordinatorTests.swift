import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime
import Testing

/// A group clock `offset` ahead of the host clock, running `rateRatio` times as fast.
struct OffsetMapping: GroupTimeMapping {
    var offset: Duration = .seconds(3600)
    var rateRatio: Double = 1
    func groupTime(atLocalTime localTime: Duration) -> Duration { localTime + offset }
    func localTime(atGroupTime groupTime: Duration) -> Duration { groupTime - offset }
}

@Suite("Delegating playback coordinator")
struct DelegatingPlaybackCoordinatorTests {
    typealias Delegating = DelegatingPlaybackCoordinator
    typealias Command = Delegating.Command

    static let clock = OffsetMapping()
    /// Now on the host clock, and on the group clock (an hour later).
    static let now: Duration = .seconds(10)
    static let groupNow: Duration = .seconds(3610)

    static func control(_ command: PlaybackControlCommand, from originator: ParticipantID? = "bob") -> PlaybackControl {
        PlaybackControl(command: command, originator: originator, itemIdentifier: "movie")
    }

    static func commands(
        _ command: PlaybackControlCommand, player: Delegating.PlayerReport?, groupRate: Double = 1, clock: OffsetMapping = clock
    ) -> [Command] {
        Delegating.commands(for: control(command), groupRate: groupRate, player: player, clock: clock, hostTime: now)
    }

    static func standing(at seconds: String) -> Delegating.PlayerReport { .init(itemTime: t(seconds), rate: 0, hostTime: now) }
    static func playing(at seconds: String, rate: Double = 1) -> Delegating.PlayerReport { .init(itemTime: t(seconds), rate: rate, hostTime: now) }

    static func play(_ itemTime: String, at hostTime: Duration, rate: Double = 1, from originator: ParticipantID? = "bob") -> Command {
        .play(.init(originator: originator, expectedCurrentItemIdentifier: "movie", rate: rate, itemTime: t(itemTime), hostClockTime: hostTime))
    }

    static func pause(buffering rate: Double? = nil, from originator: ParticipantID? = "bob") -> Command {
        .pause(.init(originator: originator, expectedCurrentItemIdentifier: "movie", shouldBufferInAnticipationOfPlayback: rate != nil, anticipatedPlaybackRate: rate ?? 0))
    }

    static func seek(_ itemTime: String, buffering rate: Double? = nil, due: Duration? = nil, from originator: ParticipantID? = "bob") -> Command {
        .seek(.init(originator: originator, expectedCurrentItemIdentifier: "movie", itemTime: t(itemTime),
                    shouldBufferInAnticipationOfPlayback: rate != nil, anticipatedPlaybackRate: rate ?? 0, completionDueDate: due))
    }

    static func buffering(_ rate: Double, due: Duration, from originator: ParticipantID? = "bob") -> Command {
        .buffering(.init(originator: originator, expectedCurrentItemIdentifier: "movie", anticipatedPlaybackRate: rate, completionDueDate: due))
    }

    static func adjust(_ rate: Double, multiplier: Double, from originator: ParticipantID? = nil) -> Command {
        .adjustRate(.init(originator: originator, expectedCurrentItemIdentifier: "movie", rate: rate, multiplier: multiplier))
    }

    // MARK: Play

    @Test("a scheduled start for a player standing at its time is a buffering command due at the start, then the play, both on the host clock")
    func scheduledStartStanding() {
        let start = Self.commands(.play(rate: 1, position: .item(t(30)), groupTime: Self.groupNow + .milliseconds(300)), player: Self.standing(at: "30"))
        #expect(start == [Self.buffering(1, due: .milliseconds(10_300)), Self.play("30", at: .milliseconds(10_300))])
    }

    @Test("a scheduled start elsewhere than the player stands, or for a player never reported, is a seek that buffers, due at the start, then the play")
    func scheduledStartElsewhere() {
        let command = PlaybackControlCommand.play(rate: 2, position: .item(t(30)), groupTime: Self.groupNow + .milliseconds(300))
        let expected = [Self.seek("30", buffering: 2, due: .milliseconds(10_300)), Self.play("30", at: .milliseconds(10_300), rate: 2)]
        #expect(Self.commands(command, player: Self.standing(at: "12")) == expected)
        #expect(Self.commands(command, player: Self.standing(at: "30.021")) == expected)
        #expect(Self.commands(command, player: nil) == expected)
    }

    @Test("a player already playing into a scheduled start gets the play alone")
    func scheduledStartWhilePlaying() {
        let command = PlaybackControlCommand.play(rate: 1, position: .item(t(30)), groupTime: Self.groupNow + .milliseconds(300))
        #expect(Self.commands(command, player: Self.playing(at: "29.7")) == [Self.play("30", at: .milliseconds(10_300))])
        // Playing, but not towards that time: a seek.
        #expect(Self.commands(command, player: Self.playing(at: "50"))
            == [Self.seek("30", buffering: 1, due: .milliseconds(10_300)), Self.play("30", at: .milliseconds(10_300))])
    }

    @Test("a start whose anchor is past is the play alone, with the past host time: the player starts where the anchor says for now")
    func pastAnchor() {
        let command = PlaybackControlCommand.play(rate: 1, position: .item(t(30)), groupTime: Self.groupNow - .milliseconds(500))
        for player in [nil, Self.standing(at: "0"), Self.playing(at: "30.5")] {
            #expect(Self.commands(command, player: player) == [Self.play("30", at: .milliseconds(9_500))])
        }
    }

    @Test("a host clock at another pace than the group clock gets the exact rate in an adjustment after the play")
    func playOnDriftingClock() {
        var clock = Self.clock
        clock.rateRatio = 1.0001
        let command = PlaybackControlCommand.play(rate: 1, position: .item(t(30)), groupTime: Self.groupNow)
        #expect(Self.commands(command, player: nil, clock: clock) == [Self.play("30", at: Self.now), Self.adjust(1.0001, multiplier: 1, from: "bob")])
    }

    // MARK: Pause, wait, rate

    @Test("a pause without a time is a pause command alone, anticipating nothing")
    func pauseWhereItIs() {
        #expect(Self.commands(.pause(position: nil), player: Self.playing(at: "44")) == [Self.pause()])
        #expect(Self.commands(.pause(position: nil), player: nil) == [Self.pause()])
    }

    @Test("a pause snapping to the originator's time adds a seek only when the player is not there")
    func pauseSnaps() {
        #expect(Self.commands(.pause(position: .item(t(30))), player: Self.playing(at: "30.05")) == [Self.pause(), Self.seek("30")])
        #expect(Self.commands(.pause(position: .item(t(30))), player: Self.playing(at: "30.01")) == [Self.pause()])
        #expect(Self.commands(.pause(position: .item(t(30))), player: Self.standing(at: "30")) == [Self.pause()])
        #expect(Self.commands(.pause(position: .item(t(30))), player: nil) == [Self.pause(), Self.seek("30")])
    }

    @Test("waiting for coordinated playback is a pause that buffers for the group's rate, and a seek that buffers when the player passed the hold time")
    func waitForCoordinatedPlayback() {
        let command = PlaybackControlCommand.waitForCoordinatedPlayback(position: .item(t(20)), rate: 1.5)
        #expect(Self.commands(command, player: Self.playing(at: "20.08")) == [Self.pause(buffering: 1.5), Self.seek("20", buffering: 1.5)])
        #expect(Self.commands(command, player: Self.standing(at: "20")) == [Self.pause(buffering: 1.5)])
    }

    @Test("a drift correction is the group's rate times the multiplier times the host clock's pace, with no originator")
    func adjustRate() {
        var clock = Self.clock
        clock.rateRatio = 1.0001
        let commands = Delegating.commands(for: Self.control(.adjustRate(multiplier: 1.02), from: nil), groupRate: 2, player: Self.playing(at: "5", rate: 2), clock: clock, hostTime: Self.now)
        #expect(commands == [Self.adjust(2 * 1.02 * 1.0001, multiplier: 1.02)])
    }

    @Test("a rate change while suspended moves only the local player: a pause, or a play from where it is now")
    func localRate() {
        #expect(Self.commands(.setLocalRate(0), player: Self.playing(at: "40")) == [Self.pause()])
        let player = Delegating.PlayerReport(itemTime: t(40), rate: 1, hostTime: .seconds(9))
        #expect(Self.commands(.setLocalRate(0.5), player: player) == [Self.play("41", at: Self.now, rate: 0.5)])
    }

    // MARK: Two coordinators

    /// Alice and Bob's delegating coordinators, messages delivered at once, the commands each got.
    struct Pair {
        var alice = Delegating(participant: "alice")
        var bob = Delegating(participant: "bob")
        var commands: [ParticipantID: [Command]] = [:]
        var events: [ParticipantID: [PlaybackCoordinatorStateMachine.Event]] = [:]
        let clock = SharedClock()

        mutating func step(_ who: ParticipantID, at hostTime: Duration, _ body: (inout Delegating) -> [Delegating.Output]) {
            var outputs = who == "alice" ? body(&alice) : body(&bob)
            var sender = who
            var pending: [(ParticipantID, [Delegating.Output])] = []
            while true {
                for output in outputs {
                    switch output {
                    case .command(let command): commands[sender, default: []].append(command)
                    case .event(let event): events[sender, default: []].append(event)
                    case .send(let message, _):
                        let target: ParticipantID = sender == "alice" ? "bob" : "alice"
                        let received = target == "alice"
                            ? alice.receive(message, from: sender, clock: clock, atHostTime: hostTime)
                            : bob.receive(message, from: sender, clock: clock, atHostTime: hostTime)
                        pending.append((target, received))
                    }
                }
                guard !pending.isEmpty else { return }
                (sender, outputs) = pending.removeFirst()
            }
        }

        mutating func take(_ who: ParticipantID) -> [Command] {
            defer { commands[who] = [] }
            return commands[who] ?? []
        }
    }

    @Test("two delegating coordinators: a start, an ad range with the default policy caught up by skipping, a pause snapping, a seek while paused, a resume")
    func twoParticipants() {
        var pair = Pair()
        pair.step("alice", at: .zero) { $0.connect(clock: SharedClock(), atHostTime: .zero) }
        pair.step("bob", at: .zero) { $0.connect(clock: SharedClock(), atHostTime: .zero) }
        pair.step("alice", at: .zero) { $0.transitionToItem(withIdentifier: "movie", itemDuration: t(600), clock: SharedClock(), atHostTime: .zero) }
        // Bob's copy has a 15-second ad stitched in at 10 s.
        pair.step("bob", at: .zero) {
            $0.transitionToItem(withIdentifier: "movie", interstitialTimeRanges: [MediaTimeRange(start: t(10), duration: t(15))], itemDuration: t(615), clock: SharedClock(), atHostTime: .zero)
        }
        _ = (pair.take("alice"), pair.take("bob"))

        // Alice presses play at 1 s: both buffer, then start at 1.3 s, Bob's from Alice.
        pair.step("alice", at: .seconds(1)) { $0.coordinateRateChange(to: 1, clock: SharedClock(), atHostTime: .seconds(1)) }
        #expect(pair.take("alice") == [Self.buffering(1, due: .milliseconds(1300), from: nil), Self.play("0", at: .milliseconds(1300), from: nil)])
        #expect(pair.take("bob") == [Self.buffering(1, due: .milliseconds(1300), from: "alice"), Self.play("0", at: .milliseconds(1300), from: "alice")])

        // Bob's player enters his ad at 11.3 s: he is suspended; Alice plays on.
        pair.step("bob", at: .milliseconds(11_300)) { $0.reportPlayback(itemTime: t(10), rate: 1, clock: SharedClock(), atHostTime: .milliseconds(11_300)) }
        #expect(pair.bob.suspensionReasons == [.playingInterstitial])
        #expect(pair.alice.otherParticipants.first?.suspensionReasons == [.playingInterstitial])
        #expect(pair.take("alice").isEmpty && pair.take("bob").isEmpty)

        // It ends at 26.3 s: Bob is sent to where the group is, 15 s on (item 40 s, film 25 s).
        pair.step("bob", at: .milliseconds(26_300)) { $0.reportPlayback(itemTime: t(25), rate: 1, clock: SharedClock(), atHostTime: .milliseconds(26_300)) }
        #expect(pair.bob.suspensionReasons.isEmpty)
        #expect(pair.take("bob") == [Self.play("40", at: .milliseconds(26_300), from: nil)])
        #expect(pair.bob.expectedItemTime(atHostTime: .seconds(30), clock: SharedClock()) == t("43.7"))

        // Bob's player runs 50 ms ahead; Alice pauses at 30 s: Bob pauses and snaps back to her
        // time (film 28.7 s, his item 43.7 s).
        pair.step("bob", at: .seconds(30)) { $0.reportPlayback(itemTime: t("43.75"), rate: 1, clock: SharedClock(), atHostTime: .seconds(30)) }
        _ = pair.take("bob")
        pair.step("alice", at: .seconds(30)) { $0.coordinateRateChange(to: 0, clock: SharedClock(), atHostTime: .seconds(30)) }
        #expect(pair.take("alice") == [Self.pause(from: nil)])
        #expect(pair.take("bob") == [Self.pause(from: "alice"), Self.seek("43.7", from: "alice")])
        #expect(pair.alice.expectedItemTime(atHostTime: .seconds(35), clock: SharedClock()) == t("28.7"))

        // Bob seeks to 60 s of his item (film 45 s) while paused: Alice goes to 45 s and stays paused.
        pair.step("bob", at: .seconds(31)) { $0.coordinateSeek(to: t(60), clock: SharedClock(), atHostTime: .seconds(31)) }
        #expect(pair.take("alice") == [Self.pause(from: "bob"), Self.seek("45", from: "bob")])
        #expect(pair.take("bob") == [Self.pause(from: nil), Self.seek("60", from: nil)])

        // Alice resumes at 40 s: both stand where they should, so they buffer and start at 40.3 s;
        // Bob's player, found running fast, keeps the trim the coordinator learned (-0.1%).
        pair.step("alice", at: .seconds(40)) { $0.coordinateRateChange(to: 1, clock: SharedClock(), atHostTime: .seconds(40)) }
        #expect(pair.take("alice") == [Self.buffering(1, due: .milliseconds(40_300), from: nil), Self.play("45", at: .milliseconds(40_300), from: nil)])
        #expect(pair.take("bob") == [
            Self.buffering(1, due: .milliseconds(40_300), from: "alice"), Self.play("60", at: .milliseconds(40_300), from: "alice"),
            Self.adjust(0.999, multiplier: 0.999),
        ])
    }

    @Test("with the waiting policy, the other participant's commands hold it at the ad's start and restart it with the ad watcher")
    func twoParticipantsWaiting() {
        var pair = Pair()
        for who: ParticipantID in ["alice", "bob"] {
            pair.step(who, at: .zero) { coordinator in
                coordinator.configure { $0.suspensionReasonsThatTriggerWaiting = [.playingInterstitial] }
                return coordinator.connect(clock: SharedClock(), atHostTime: .zero)
            }
        }
        pair.step("alice", at: .zero) { $0.transitionToItem(withIdentifier: "movie", clock: SharedClock(), atHostTime: .zero) }
        pair.step("bob", at: .zero) {
            $0.transitionToItem(withIdentifier: "movie", interstitialTimeRanges: [MediaTimeRange(start: t(10), duration: t(15))], clock: SharedClock(), atHostTime: .zero)
        }
        pair.step("alice", at: .seconds(1)) { $0.coordinateRateChange(to: 1, clock: SharedClock(), atHostTime: .seconds(1)) }
        _ = (pair.take("alice"), pair.take("bob"))
        // Alice's player is 50 ms past 10 s when Bob's ad starts: she is held at 10 s.
        pair.step("alice", at: .milliseconds(11_350)) { $0.reportPlayback(itemTime: t("10.05"), rate: 1, clock: SharedClock(), atHostTime: .milliseconds(11_350)) }
        pair.step("bob", at: .milliseconds(11_350)) { $0.reportPlayback(itemTime: t("10.05"), rate: 1, clock: SharedClock(), atHostTime: .milliseconds(11_350)) }
        #expect(pair.take("alice") == [Self.pause(buffering: 1, from: nil), Self.seek("10", buffering: 1, from: nil)])
        // His ad ends at 26.35 s: both restart at 26.65 s (the lead time), from film 10 s; Bob,
        // still playing, is sent back to the end of his ad to start from there.
        pair.step("bob", at: .milliseconds(26_350)) { $0.reportPlayback(itemTime: t(25), rate: 1, clock: SharedClock(), atHostTime: .milliseconds(26_350)) }
        #expect(pair.take("alice") == [Self.buffering(1, due: .milliseconds(26_650), from: nil), Self.play("10", at: .milliseconds(26_650), from: nil)])
        #expect(pair.take("bob") == [Self.seek("25", buffering: 1, due: .milliseconds(26_650), from: nil), Self.play("25", at: .milliseconds(26_650), from: nil)])
    }
}
