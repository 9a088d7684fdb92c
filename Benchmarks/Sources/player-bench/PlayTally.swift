internal import MediaTime
internal import PlayerEngine
internal import Synchronization

/// Counts what one player did, from its events: the segments it loaded, the breaks it played and
/// how they ended, warnings and failures, and whether it reached the end. It keeps counts, not the
/// events, so that it weighs next to nothing beside the player it watches.
final class PlayTally: Sendable {
    /// The counts so far.
    struct Counts: Sendable {
        /// Primary segments loaded.
        var contentSegments = 0
        /// Interstitial asset segments loaded.
        var adSegments = 0
        /// Playlists, asset playlists and asset lists loaded.
        var otherLoads = 0
        /// Failed loads (retried or not).
        var failedLoads = 0
        /// Breaks that ended, in order, with how they ended when not `completed`.
        var breaks: [String] = []
        /// Warnings, in order.
        var warnings: [String] = []
        /// Where the primary playhead stalled, and when.
        var stalls: [String] = []
        /// Events seen.
        var events = 0
        /// Whether the item played to its end.
        var playedToEnd = false
        /// Why the item failed, if it did.
        var failure: String?
        /// The host time of the last event.
        var lastEventTime = Duration.zero
    }

    /// How many of a group of players have finished (played to the end or failed).
    final class Finishers: Sendable {
        private let count = Atomic<Int>(0)
        /// A count at zero.
        init() {}
        /// The count.
        var value: Int { count.load(ordering: .relaxed) }
        /// Adds one.
        func add() { count.add(1, ordering: .relaxed) }
    }

    private let counts = Mutex(Counts())
    private let finishers: Finishers?

    /// A tally; when the player finishes (plays to its end or fails) it adds one to `finishers`.
    init(finishers: Finishers? = nil) {
        self.finishers = finishers
    }

    /// The counts so far.
    var snapshot: Counts { counts.withLock { $0 } }

    /// Whether the player played to its end or failed.
    var isOver: Bool { counts.withLock { $0.playedToEnd || $0.failure != nil } }

    /// Watches `player`'s events from now on.
    func watch(_ player: Player) {
        player.addEventHandler { [self] event in record(event) }
    }

    private func record(_ event: PlayerEvent) {
        let ended = counts.withLock { counts -> Bool in
            counts.events += 1
            counts.lastEventTime = event.hostTime
            switch event.kind {
            case .loaded(let resource, _, _):
                switch resource {
                case .segment: counts.contentSegments += 1
                case .assetSegment: counts.adSegments += 1
                default: counts.otherLoads += 1
                }
            case .loadFailed:
                counts.failedLoads += 1
            case .breakEnded(let id, let end, _):
                counts.breaks.append(end == .completed ? id : "\(id) (\(end))")
            case .warning(let message):
                counts.warnings.append(message)
            case .stalled(let time):
                counts.stalls.append("\(time.decimalString()) s at host \(event.hostTime)")
            case .itemStatusChanged(.failed(let error)):
                counts.failure = error.description
                return true
            case .playedToEnd:
                counts.playedToEnd = true
                return true
            default:
                break
            }
            return false
        }
        if ended { finishers?.add() }
    }

    /// What is wrong with `counts` for a play of `stream` to its end; empty when nothing is.
    static func problems(_ counts: Counts, stream: BenchmarkStream) -> [String] {
        var problems: [String] = []
        if let failure = counts.failure { problems.append("the item failed: \(failure)") }
        if !counts.playedToEnd { problems.append("the item did not play to its end (last event at \(counts.lastEventTime))") }
        let expected = stream.breaks.map(\.id)
        if counts.breaks != expected {
            problems.append("played \(counts.breaks.count) breaks, expected \(expected.count): \(counts.breaks.joined(separator: " "))")
        }
        if counts.contentSegments != stream.contentSegmentCount {
            problems.append("loaded \(counts.contentSegments) primary segments, expected \(stream.contentSegmentCount)")
        }
        if counts.adSegments != stream.adSegmentCount {
            problems.append("loaded \(counts.adSegments) ad segments, expected \(stream.adSegmentCount)")
        }
        if counts.failedLoads > 0 { problems.append("\(counts.failedLoads) loads failed") }
        if !counts.warnings.isEmpty { problems.append("\(counts.warnings.count) warnings, the first: \(counts.warnings[0])") }
        if !counts.stalls.isEmpty { problems.append("\(counts.stalls.count) stalls: \(counts.stalls.joined(separator: ", "))") }
        return problems
    }
}
