import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime

typealias Coordinator = PlaybackCoordinatorStateMachine
typealias ParticipantID = CoordinatedPlaybackParticipant.ID
typealias Reason = CoordinatedPlaybackSuspension.Reason

/// Seconds as an exact media time, from a decimal literal such as `"60.5"`.
func t(_ decimal: String) -> MediaTime { MediaTime(decimal: decimal)! }

/// Whole seconds as an exact media time.
func t(_ seconds: Int64) -> MediaTime { MediaTime(seconds: seconds) }

/// A player that does what the coordinator tells it, exactly, on the group clock: it plays its
/// item linearly (through its stitched ads), stands still when told to pause or wait, and has an
/// optional clock error (`clockRate`, 1.0001 runs 100 ppm fast).
struct SimulatedPlayer {
    enum Mode: Equatable {
        case standing
        case waiting
        case playing
    }

    var mode: Mode = .standing
    var anchorTime: MediaTime = .zero
    var anchorGroupTime: Duration = .zero
    var rate: Double = 1
    var multiplier: Double = 1
    var clockRate: Double = 1
    var localRate: Double?

    func itemTime(at groupTime: Duration) -> MediaTime {
        guard mode == .playing, groupTime > anchorGroupTime else { return anchorTime }
        let effective = rate * multiplier * clockRate
        let (numerator, denominator) = Self.fraction(effective)
        return anchorTime + MediaTime(groupTime - anchorGroupTime).multiplied(byRatio: numerator, denominator)!
    }

    static func fraction(_ rate: Double) -> (Int64, Int64) {
        let denominator: Int64 = 1_000_000_000
        return (Int64((rate * Double(denominator)).rounded()), denominator)
    }

    mutating func reanchor(at groupTime: Duration) {
        // A scheduled start keeps its anchor.
        guard groupTime > anchorGroupTime else { return }
        anchorTime = itemTime(at: groupTime)
        anchorGroupTime = groupTime
    }

    mutating func apply(_ command: PlaybackControlCommand, at now: Duration) {
        switch command {
        case .play(let rate, let position, let groupTime):
            guard case .item(let time) = position else { return }
            self.rate = rate
            multiplier = 1
            mode = .playing
            anchorTime = time
            anchorGroupTime = groupTime
            if groupTime < now { reanchor(at: now) }
        case .pause(let position):
            reanchor(at: now)
            mode = .standing
            if case .item(let time)? = position { anchorTime = time }
        case .waitForCoordinatedPlayback(let position, let rate):
            reanchor(at: now)
            mode = .waiting
            self.rate = rate
            if case .item(let time) = position { anchorTime = time }
        case .adjustRate(let multiplier):
            reanchor(at: now)
            self.multiplier = multiplier
        case .setLocalRate(let rate):
            reanchor(at: now)
            if rate == 0 {
                mode = .standing
            } else {
                mode = .playing
                self.rate = rate
            }
            localRate = rate
        }
    }

    /// When the playhead next crosses a boundary of one of `ranges` after `now`.
    func nextBoundary(in ranges: [MediaTimeRange], after now: Duration) -> Duration? {
        guard mode == .playing else { return nil }
        let position = itemTime(at: now)
        let effective = rate * multiplier * clockRate
        var best: Duration?
        for range in ranges {
            for edge in [range.start, range.end] where position < edge {
                let distance = edge - position
                let seconds = distance.seconds / effective
                let at = max(now, anchorGroupTime) + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
                if at > now, best.map({ at < $0 }) ?? true { best = at }
            }
        }
        return best
    }
}

/// A group of coordinators and simulated players joined by an in-memory network with a fixed
/// one-way latency, run on virtual group time (no clock reads, no sleeping).
struct CoordinatorTestGroup {
    struct Delivery {
        var at: Duration
        var order: Int
        var from: ParticipantID
        var to: ParticipantID
        var message: CoordinationMessage
    }

    var now: Duration = .zero
    var latency: Duration
    var coordinators: [ParticipantID: Coordinator] = [:]
    var players: [ParticipantID: SimulatedPlayer] = [:]
    var connected: Set<ParticipantID> = []
    var inFlight: [Delivery] = []
    var events: [ParticipantID: [Coordinator.Event]] = [:]
    var controls: [ParticipantID: [(Duration, PlaybackControl)]] = [:]
    var sent = 0
    /// Whether players report their position when they enter or leave a stitched ad.
    var observesBoundaries = true

    init(latency: Duration = .milliseconds(50)) {
        self.latency = latency
    }

    /// Adds a participant on `item` and connects it.
    mutating func add(
        _ id: ParticipantID,
        item: String = "movie",
        mapping: CoordinatedTimeMapping = .identity,
        configure: (inout Coordinator) -> Void = { _ in }
    ) {
        var coordinator = Coordinator(localParticipant: id)
        configure(&coordinator)
        coordinators[id] = coordinator
        players[id] = SimulatedPlayer()
        connected.insert(id)
        perform(id) { $0.transitionToItem(withIdentifier: item, mapping: mapping, at: $1) }
        perform(id) { $0.connect(at: $1) }
    }

    /// Runs an input on a participant's coordinator at the current time and performs its actions.
    @discardableResult
    mutating func perform(_ id: ParticipantID, _ input: (inout Coordinator, Duration) -> [Coordinator.Action])
        -> [Coordinator.Action]
    {
        let actions = input(&coordinators[id]!, now)
        handle(actions, of: id)
        return actions
    }

    /// Begins a suspension on a participant.
    mutating func suspend(_ id: ParticipantID, _ reason: Reason) -> CoordinatedPlaybackSuspension {
        var suspension: CoordinatedPlaybackSuspension?
        perform(id) { coordinator, now in
            let (begun, actions) = coordinator.beginSuspension(for: reason, at: now)
            suspension = begun
            return actions
        }
        return suspension!
    }

    mutating func handle(_ actions: [Coordinator.Action], of id: ParticipantID) {
        for action in actions {
            switch action {
            case .send(let message, let recipients):
                let targets: [ParticipantID] =
                    switch recipients {
                    case .all: connected.filter { $0 != id }.sorted()
                    case .participant(let target): [target]
                    }
                for target in targets where connected.contains(id) {
                    sent += 1
                    inFlight.append(Delivery(at: now + latency, order: sent, from: id, to: target, message: message))
                }
            case .control(let control):
                controls[id, default: []].append((now, control))
                players[id]!.apply(control.command, at: now)
            case .event(let event):
                events[id, default: []].append(event)
            }
        }
    }

    /// Runs group time forward to `end`, delivering messages, honouring deadlines and reporting
    /// ad boundaries, in time order.
    mutating func run(until end: Duration) {
        while true {
            var next = end
            if let delivery = inFlight.map(\.at).min(), delivery < next { next = delivery }
            for id in coordinators.keys.sorted() {
                if let deadline = coordinators[id]!.nextDeadline(after: now), deadline < next { next = deadline }
                if observesBoundaries,
                    let boundary = players[id]!.nextBoundary(in: coordinators[id]!.mapping.stitchedAdRanges, after: now),
                    boundary < next
                {
                    next = boundary
                }
            }
            now = max(now, next)
            let due = inFlight.filter { $0.at <= now }.sorted { ($0.at, $0.order) < ($1.at, $1.order) }
            inFlight.removeAll { $0.at <= now }
            for delivery in due where connected.contains(delivery.to) {
                perform(delivery.to) { $0.receive(delivery.message, from: delivery.from, at: $1) }
            }
            for id in coordinators.keys.sorted() {
                perform(id) { $0.advance(to: $1) }
                if observesBoundaries, !coordinators[id]!.mapping.stitchedAdRanges.isEmpty {
                    let position = players[id]!.itemTime(at: now)
                    perform(id) { $0.observeLocalPlayback(.item(position), at: $1) }
                }
            }
            if now >= end, inFlight.allSatisfy({ $0.at > end }) { break }
        }
    }

    /// Runs for a while.
    mutating func run(for duration: Duration) { run(until: now + duration) }

    /// A participant's player position (item time).
    func position(_ id: ParticipantID) -> MediaTime { players[id]!.itemTime(at: now) }

    /// A participant's position on the coordinated timeline.
    func coordinatedPosition(_ id: ParticipantID) -> MediaTime {
        coordinators[id]!.mapping.coordinatedTime(for: .item(position(id)))
    }

    /// The last group status a participant reported.
    func groupStatus(_ id: ParticipantID) -> Coordinator.GroupPlaybackStatus? {
        coordinators[id]!.groupStatus(at: now)
    }

    func isWaiting(_ id: ParticipantID) -> Bool { players[id]!.mode == .waiting }

    func isPlaying(_ id: ParticipantID) -> Bool { players[id]!.mode == .playing && now >= players[id]!.anchorGroupTime }

    /// Whom the group waits for, as `id` sees it.
    func blockers(_ id: ParticipantID) -> [ParticipantID] {
        coordinators[id]!.groupStatus(at: now)?.blockers.map(\.participant) ?? []
    }

    mutating func clearControls() { controls = [:] }
}
