import GroupCoordination
import GroupWire
import MediaTime
import TestSupport
import Testing

/// Values at the edges of the wire's bounds, decoded and fed to a coordinator: whatever a peer or
/// the server sends within the bounds, the coordinator's arithmetic never traps.
@Suite("Wire edge of bounds") struct WireEdgeOfBoundsTests {
    static let maximum = WireBounds.maximumInteger
    /// Times at and near the bounds, in nanoseconds.
    static let nanoseconds: [Int64] = [-maximum, -maximum + 1, -1_000_000_007, -1, 0, 1, 999_999_999, maximum / 2, maximum - 1, maximum]
    /// Media times at and near the bounds, at the coarsest and the finest timescales.
    static let mediaTimes: [MediaTime] = nanoseconds.map { MediaTime(value: $0, timescale: 1_000_000_000) } + [
        MediaTime(value: maximum / 1_000_000_000, timescale: 1),
        MediaTime(value: -(maximum / 1_000_000_000), timescale: 1),
        MediaTime(value: 1, timescale: 512),
        MediaTime(value: -(maximum / 1_953_125), timescale: 512),
        MediaTime(value: 7, timescale: 390_625),
    ]
    static let rates: [Double] = [0, 1, -1, 64, -64, 63.999999, 1e-6, -1e-6, 4e-7, .leastNonzeroMagnitude, 0.5, 1.05]
    static let counters: [UInt64] = [0, 1, UInt64(maximum) - 1, UInt64(maximum)]

    /// A message through its wire form, which must accept it (it is within the bounds).
    static func roundTrip(_ message: CoordinationMessage) throws -> CoordinationMessage {
        let decoded = try CoordinationMessage(jsonBytes: message.jsonBytes)
        #expect(decoded == message)
        return decoded
    }

    @Test("the extremes are inside the bounds: each decodes as written")
    func extremesDecode() throws {
        for time in Self.mediaTimes {
            #expect(try MediaTime.decode(wire: time.wire) == time)
        }
        for nanoseconds in Self.nanoseconds {
            #expect(try Duration.decode(wire: .integer(nanoseconds)) == .nanoseconds(nanoseconds))
        }
        let text = #"{"type":"playback-state","itemIdentifier":"movie","rate":-64,"anchorTime":{"value":-9007199254740991,"timescale":1000000000},"anchorGroupTime":9007199254740991,"timestamp":{"counter":9007199254740991,"participant":"bob","issuedAt":-9007199254740991}}"#
        let message = try CoordinationMessage(jsonBytes: Array(text.utf8))
        guard case .playbackState(let state) = message else { Issue.record("not a playback state"); return }
        #expect(state.rate == -64 && state.timestamp.counter == UInt64(Self.maximum) && !state.playsImmediately)
    }

    /// A random message at the bounds, and a run of coordinator inputs around it.
    struct Run {
        var random: SeededGenerator

        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        mutating func duration() -> Duration { .nanoseconds(pick(WireEdgeOfBoundsTests.nanoseconds)) }
        mutating func span() -> Duration { .nanoseconds(pick(WireEdgeOfBoundsTests.nanoseconds.filter { $0 >= 0 })) }
        mutating func time() -> MediaTime { pick(WireEdgeOfBoundsTests.mediaTimes) }
        mutating func length() -> MediaTime { pick(WireEdgeOfBoundsTests.mediaTimes.filter { !$0.isNegative }) }

        mutating func state(item: String) -> CoordinatedPlaybackState {
            CoordinatedPlaybackState(
                itemIdentifier: item,
                rate: pick(WireEdgeOfBoundsTests.rates),
                anchorTime: time(),
                anchorGroupTime: duration(),
                timestamp: CoordinationTimestamp(counter: pick(WireEdgeOfBoundsTests.counters), participant: pick(["bob", "carol"]), issuedAt: duration()),
                playsImmediately: Bool.random(using: &random)
            )
        }

        mutating func interval() -> WaitInterval {
            WaitInterval(
                cause: Bool.random(using: &random) ? .notReady : .suspension(pick([.playingInterstitial, .userIsChangingCurrentTime, .stallRecovery])),
                start: duration(),
                end: Bool.random(using: &random) ? duration() : nil,
                holdTime: Bool.random(using: &random) ? time() : nil,
                waitLimit: Bool.random(using: &random) ? span() : nil,
                expectedDuration: Bool.random(using: &random) ? span() : nil
            )
        }

        mutating func update(item: String, participant: CoordinatedPlaybackParticipant.ID) -> ParticipantStateUpdate {
            ParticipantStateUpdate(
                participant: participant,
                sequence: pick(WireEdgeOfBoundsTests.counters),
                itemIdentifier: item,
                isReadyToPlay: Bool.random(using: &random),
                suspensionReasons: [pick([.playingInterstitial, .userIsChangingCurrentTime])],
                waitIntervals: (0..<Int.random(in: 1...6, using: &random)).map { _ in interval() },
                contentDuration: length(),
                sharedBreakDurations: ["promo": length()]
            )
        }

        mutating func schedule(item: String, participant: CoordinatedPlaybackParticipant.ID) -> AdSchedule {
            // The most entries a schedule may hold, many at one coordinated time: the coordinator
            // adds their durations up.
            let at = time()
            let entries = (0..<AdSchedule.maximumEntries).map { index in
                AdSchedule.Entry(
                    coordinatedTime: index % 4 == 0 ? time() : at,
                    duration: length(),
                    source: index % 2 == 0 ? .stitched : .interstitial(eventIdentifier: "ad\(index)")
                )
            }
            return AdSchedule(participant: participant, itemIdentifier: item, entries: entries)
        }
    }

    static let stitched = CoordinatedTimeMapping(
        stitchedAdRanges: [MediaTimeRange(start: MediaTime(seconds: 60), duration: MediaTime(seconds: 15))],
        itemDuration: MediaTime(seconds: 675),
        breaks: [
            .init(eventIdentifier: "promo", itemTime: MediaTime(seconds: 300), duration: MediaTime(seconds: 10), contentMayVary: false),
            .init(eventIdentifier: "ad2", itemTime: MediaTime(seconds: 400), duration: MediaTime(seconds: 20)),
        ]
    )

    @Test("coordinators fed messages at the edges of the bounds do not trap", arguments: [UInt64(1), 2, 3])
    func coordinatorSurvivesExtremes(seed: UInt64) throws {
        var run = Run(random: SeededGenerator(seed: seed))
        var answered = 0
        for _ in 0..<80 {
            var coordinator = PlaybackCoordinatorStateMachine(localParticipant: "alice")
            coordinator.suspensionReasonsThatTriggerWaiting = [.playingInterstitial, .userIsChangingCurrentTime, .stallRecovery]
            let mapping = run.pick([CoordinatedTimeMapping.identity, Self.stitched])
            _ = coordinator.transitionToItem(withIdentifier: "movie", mapping: mapping, proposingInitialTime: .item(run.time()), rate: 1, at: run.duration())
            _ = coordinator.connect(at: run.duration())
            for _ in 0..<3 {
                let sender: CoordinatedPlaybackParticipant.ID = run.pick(["bob", "carol"])
                let message: CoordinationMessage = switch Int.random(in: 0..<4, using: &run.random) {
                case 0: .playbackState(run.state(item: "movie"))
                case 1: .participantState(run.update(item: "movie", participant: sender))
                case 2: .adSchedule(run.schedule(item: "movie", participant: sender))
                default: .hello(sender)
                }
                _ = coordinator.receive(try Self.roundTrip(message), from: sender, at: run.duration())
            }
            for _ in 0..<4 {
                let now = run.duration()
                _ = coordinator.advance(to: now)
                _ = coordinator.nextDeadline(after: now)
                if coordinator.groupStatus(at: now) != nil { answered += 1 }
                _ = coordinator.expectedCoordinatedTime(atGroupTime: now)
                _ = coordinator.expectedItemTime(atGroupTime: now)
                _ = coordinator.expectedWaits(from: run.time(), through: run.time())
                _ = coordinator.observeLocalPlayback(.item(run.length()), at: now)
                _ = coordinator.observeLocalPlayback(.interstitial(eventIdentifier: run.pick(["promo", "ad2"]), offset: run.length()), at: now)
            }
            let now = run.duration()
            _ = coordinator.coordinateRateChange(to: run.pick(Self.rates), at: now)
            _ = coordinator.coordinateSeek(to: .item(run.length()), at: run.duration())
            let (suspension, _) = coordinator.beginSuspension(for: .userIsChangingCurrentTime, at: run.duration())
            _ = suspension.end(proposingNewTime: .item(run.length()), in: &coordinator, at: run.duration())
            _ = coordinator.setReadyToPlay(false, at: run.duration())
            _ = coordinator.setReadyToPlay(true, at: run.duration())
            _ = coordinator.participantLeft("bob", at: run.duration())
            _ = coordinator.advance(to: run.duration())
            _ = coordinator.nextDeadline(after: run.duration())
        }
        // The coordinators kept working: they answered for the group rather than giving up.
        #expect(answered > 0)
    }
}
