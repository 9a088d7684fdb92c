import Synchronization

/// A clock whose time moves only when told to, so that time-based code runs on virtual time in
/// tests and in `interlude simulate`: a two-hour session simulates in milliseconds, exactly and
/// repeatably.
///
///     let clock = ManualClock()
///     let task = Task(executorPreference: executor) { try await clock.sleep(for: .seconds(5)) }
///     executor.runUntilIdle()          // the task is now asleep
///     clock.advance(by: .seconds(5))   // wakes it
///     executor.runUntilIdle()          // it finishes
///
/// Sleepers wake in deadline order, and in the order they went to sleep for equal deadlines.
/// Cancelling a sleeping task wakes it at once with `CancellationError`.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time since the clock's zero.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The time since zero.
        public var offset: Duration

        /// An instant `offset` after zero.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// The offset, for example `12.5 seconds`.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Instant
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var cancelledBeforeSleeping: Set<UInt64> = []
    }

    private let state: Mutex<State>

    /// A clock at `now` (zero by default).
    public init(now: Instant = Instant(offset: .zero)) {
        state = Mutex(State(now: now))
    }

    /// The current virtual time.
    public var now: Instant { state.withLock { $0.now } }

    /// The clock's resolution: a nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are asleep on this clock.
    public var pendingSleeps: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of a sleeping task, if any.
    public var nextDeadline: Instant? { state.withLock { state in state.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock reaches `deadline` (returns at once if it already has).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index).continuation
                }
                state.cancelledBeforeSleeping.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has come, in
    /// deadline order.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards) and wakes every sleeper whose deadline has
    /// come, in deadline order.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if state.now < instant { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock to the next sleeper's deadline (if it is not after `limit`) and wakes the
    /// sleepers due then. Returns whether anyone was woken.
    @discardableResult
    public func advanceToNextDeadline(notAfter limit: Instant? = nil) -> Bool {
        guard let next = nextDeadline else { return false }
        if let limit, limit < next { return false }
        advance(to: next)
        return true
    }
}

extension ManualClock.Instant {
    /// Zero.
    public static let zero = ManualClock.Instant(offset: .zero)
}
