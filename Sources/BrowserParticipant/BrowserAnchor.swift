import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine

/// Where the bridge's player is at a server time, moving at a rate: the page computes from the
/// latest anchor and its estimate of the server clock where its video should be now
/// (``expectedPosition(at:in:)``, which the page's script does the same way).
///
/// Server time is the group server's clock (CLOCK_REALTIME, as a duration since the Unix
/// epoch): the bridge runs in the server's process, and the page estimates it with clock probes.
public struct BrowserAnchor: Sendable, Hashable {
    /// The server time the position was read at.
    public var at: Duration
    /// The rate the position moves at (0 while paused or waiting).
    public var rate: Double
    /// Where the player is.
    public var position: BrowserPosition
    /// In primary: the break primary enters when it reaches that break's start (the first not
    /// played yet); `nil` when none is ahead.
    public var nextBreak: String?
    /// In a break: where primary resumes after it.
    public var resumeTime: MediaTime?

    /// An anchor.
    public init(at: Duration, rate: Double, position: BrowserPosition, nextBreak: String? = nil, resumeTime: MediaTime? = nil) {
        self.at = at
        self.rate = rate
        self.position = position
        self.nextBreak = nextBreak
        self.resumeTime = resumeTime
    }

    /// The anchor of `machine` (a player's state) at host time `host`, which is server time
    /// `serverTime`; a break's offset is placed on its asset with `schedule`.
    public init(machine: PlaybackMachine, atHost host: Duration, serverTime: Duration, schedule: BrowserSchedule) {
        let rate = machine.positionRate
        switch machine.position(atHost: host) {
        case .primary(let time):
            self.init(at: serverTime, rate: rate, position: .primary(time), nextBreak: machine.nextBreakID)
        case .interstitial(eventID: let id, offset: let offset):
            let placed = schedule.scheduledBreak(id: id)?.asset(at: offset)
            self.init(at: serverTime, rate: rate, position: .asset(breakID: id, index: placed?.index ?? 0, offset: placed?.offset ?? offset),
                      resumeTime: machine.resumptionPoint)
        }
    }

    /// Where the video should be at server time `time`: the anchor's position moved on at its
    /// rate, into the next break at its start and back to primary at its end, on time. A break
    /// whose assets are not known yet is not entered (the next anchor says where the player is).
    public func expectedPosition(at time: Duration, in schedule: BrowserSchedule) -> BrowserPosition {
        let elapsed = MediaTime(advancing: time - at, atRate: rate)
        switch position {
        case .primary(let start):
            let target = start + elapsed
            guard rate > 0, let id = nextBreak, let next = schedule.scheduledBreak(id: id), let duration = next.duration,
                !(start > next.start), !(target < next.start), next.assets?.isEmpty == false
            else { return .primary(target) }
            return placed(into: next, at: target - next.start, duration: duration, resumeTime: next.resumeTime) ?? .primary(target)
        case .asset(let id, let index, let offset):
            guard let current = schedule.scheduledBreak(id: id), let duration = current.duration else {
                return .asset(breakID: id, index: index, offset: offset + elapsed)
            }
            let into = current.offset(ofAsset: index) + offset + elapsed
            return placed(into: current, at: into, duration: duration, resumeTime: resumeTime ?? current.resumeTime)
                ?? .asset(breakID: id, index: index, offset: offset + elapsed)
        }
    }

    private func placed(into scheduled: BrowserSchedule.Break, at offset: MediaTime, duration: MediaTime, resumeTime: MediaTime) -> BrowserPosition? {
        if !(offset < duration) { return .primary(resumeTime + (offset - duration)) }
        return scheduled.asset(at: offset).map { .asset(breakID: scheduled.id, index: $0.index, offset: $0.offset) }
    }

    /// Whether `fresh` says something the page cannot work out from this anchor: another rate,
    /// next break or resumption point, another stream, or a position more than `tolerance` away
    /// from where this anchor puts the video at `fresh`'s time.
    public func isSuperseded(by fresh: BrowserAnchor, in schedule: BrowserSchedule, tolerance: MediaTime) -> Bool {
        guard fresh.rate == rate else { return true }
        let expected = expectedPosition(at: fresh.at, in: schedule)
        guard let distance = expected.distance(to: fresh.position) else { return true }
        if case .primary = fresh.position, case .asset = position {
            // Back in primary after the break: the next break is the player's now.
            if fresh.nextBreak != nil { return true }
        } else if fresh.nextBreak != nextBreak || fresh.resumeTime != resumeTime {
            return true
        }
        return MediaTime.max(distance, .zero - distance) > tolerance
    }

    /// The `anchor` message (docs/browser-participant.md).
    public var wire: WireValue {
        var object: WireObject = ["type": .string("anchor"), "at": .double(at.browserSeconds), "rate": .double(rate)]
        for (key, value) in position.wireFields { object[key] = value }
        if let nextBreak { object["next"] = .string(nextBreak) }
        if let resumeTime { object["resume"] = .double(resumeTime.seconds) }
        return .object(object)
    }
}
