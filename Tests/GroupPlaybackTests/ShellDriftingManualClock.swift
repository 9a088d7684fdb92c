import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import VirtualTime

/// A participant's host clock on a shared ``ManualClock`` (true time): it reads what `drift` says
/// for the true time, so that a player on it runs that many parts per million fast or slow.
struct DriftingManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    let base: ManualClock
    let drift: DriftingClock

    var now: Instant { Instant(offset: drift.localTime(atTrueTime: base.now.offset)) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: ManualClock.Instant(offset: drift.trueTime(atLocalTime: deadline.offset)), tolerance: tolerance)
    }
}
