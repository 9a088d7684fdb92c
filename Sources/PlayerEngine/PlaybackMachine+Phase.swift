import MediaTime

extension PlaybackMachine {
    /// Where the current item stands between a command and its effect, in one value: whether there
    /// is an item, a seek waiting for media at its destination, a coordinated start waiting for its
    /// host time, an anchor waiting for media. They used to be four optionals that could disagree
    /// (an anchor outliving its item); a start waiting for its time now carries the anchor it
    /// leads to.
    enum Phase: Sendable {
        /// No item.
        case idle
        /// An item, with nothing waiting.
        case steady(PlayerItem)
        /// A seek into primary waits for media at its destination.
        case seeking(PlayerItem, Seek)
        /// A coordinated start waits for its host time: playback holds still until then. A seek
        /// made meanwhile waits for its media as well.
        case scheduled(PlayerItem, ScheduledStart, seek: Seek?)
        /// An anchored start (item time at a host time) not yet honoured: if media arrives late,
        /// the playhead starts where the anchor says it should be by then, not where the command
        /// was given.
        case anchored(PlayerItem, Anchor, seek: Seek?)
    }

    /// A seek reported complete once media at `target` is loaded.
    struct Seek: Sendable {
        var id: Int
        var target: MediaTime
    }

    /// Playback starting at `rate` at host time `at`, then honouring `anchor` if there is one.
    struct ScheduledStart: Sendable {
        var at: Duration
        var rate: Double
        var anchor: Anchor?
    }

    /// Item time `time` at host time `hostTime`, playing at `rate`.
    struct Anchor: Sendable {
        var time: MediaTime
        var hostTime: Duration
        var rate: Double
    }

    // MARK: Reading the phase

    /// The item playing now (`nil`: none left).
    var item: PlayerItem? {
        switch phase {
        case .idle: return nil
        case .steady(let item), .seeking(let item, _), .scheduled(let item, _, _), .anchored(let item, _, _): return item
        }
    }

    /// Whether there is an item (without copying it: asked at every input).
    var hasItem: Bool {
        if case .idle = phase { return false }
        return true
    }

    var seekInFlight: Seek? {
        switch phase {
        case .idle, .steady: return nil
        case .seeking(_, let seek): return seek
        case .scheduled(_, _, let seek), .anchored(_, _, let seek): return seek
        }
    }

    var scheduledStart: ScheduledStart? {
        if case .scheduled(_, let start, _) = phase { return start }
        return nil
    }

    /// Whether a coordinated start waits for its host time (asked at every input).
    var isScheduled: Bool {
        if case .scheduled = phase { return true }
        return false
    }

    var pendingAnchor: Anchor? {
        switch phase {
        case .scheduled(_, let start, _): return start.anchor
        case .anchored(_, let anchor, _): return anchor
        case .idle, .steady, .seeking: return nil
        }
    }

    // MARK: Changing it

    /// The phase of `item` with `seek` waiting and nothing else.
    static func phase(_ item: PlayerItem, seek: Seek?) -> Phase {
        seek.map { .seeking(item, $0) } ?? .steady(item)
    }

    /// Sets or clears the seek waiting for media, keeping whatever else waits.
    mutating func setSeekInFlight(_ seek: Seek?) {
        switch phase {
        case .idle: break
        case .steady(let item), .seeking(let item, _): phase = Self.phase(item, seek: seek)
        case .scheduled(let item, let start, _): phase = .scheduled(item, start, seek: seek)
        case .anchored(let item, let anchor, _): phase = .anchored(item, anchor, seek: seek)
        }
    }

    /// Drops the scheduled start; the anchor it leads to, if any, stays pending.
    mutating func dropScheduledStart() {
        guard case .scheduled(let item, let start, let seek) = phase else { return }
        phase = start.anchor.map { .anchored(item, $0, seek: seek) } ?? Self.phase(item, seek: seek)
    }

    /// Drops the pending anchor (a scheduled start still starts at its time).
    mutating func dropAnchor() {
        switch phase {
        case .idle, .steady, .seeking: break
        case .scheduled(let item, var start, let seek):
            start.anchor = nil
            phase = .scheduled(item, start, seek: seek)
        case .anchored(let item, _, let seek):
            phase = Self.phase(item, seek: seek)
        }
    }

    /// Starts at `rate` at host time `start` if it is later than now, then honours `anchor`; an
    /// earlier start leaves only the anchor pending. Replaces any start or anchor pending.
    mutating func schedule(rate: Double, at start: Duration, anchor: Anchor?) {
        guard let item else { return }
        let seek = seekInFlight
        if now < start {
            phase = .scheduled(item, ScheduledStart(at: start, rate: rate, anchor: anchor), seek: seek)
        } else {
            phase = anchor.map { .anchored(item, $0, seek: seek) } ?? Self.phase(item, seek: seek)
        }
    }

    /// Changes the rate a scheduled start starts at.
    mutating func setScheduledRate(_ rate: Double) {
        guard case .scheduled(let item, var start, let seek) = phase else { return }
        start.rate = rate
        phase = .scheduled(item, start, seek: seek)
    }
}
