/// The simulator's event queue on virtual time: events come out in time order, and in the order
/// they were scheduled when their times are equal, so a run is a deterministic function of its
/// inputs. Synchronous: the caller pops an event, handles it (scheduling others), and repeats;
/// nothing runs concurrently and no task is involved, which is what lets 100 participants play for
/// two simulated hours in seconds.
///
///     var scheduler = SimulationScheduler<Event>()
///     scheduler.schedule(.tick(peer), at: .seconds(1))
///     while let (time, event) = scheduler.next(through: .seconds(7200)) { handle(event, at: time) }
///
/// A binary heap: O(log n) to schedule and to pop, O(1) to cancel (cancelled events are skipped
/// when they come up).
public struct SimulationScheduler<Event> {
    /// Names a scheduled event, to cancel it.
    public struct EventID: Sendable, Hashable, Comparable {
        @usableFromInline let order: UInt64
        @inlinable init(order: UInt64) { self.order = order }
        /// Scheduled earlier first.
        @inlinable public static func < (lhs: EventID, rhs: EventID) -> Bool { lhs.order < rhs.order }
    }

    @usableFromInline struct Entry {
        @usableFromInline var time: Duration
        @usableFromInline var order: UInt64
        @usableFromInline var event: Event
        @inlinable init(time: Duration, order: UInt64, event: Event) {
            self.time = time
            self.order = order
            self.event = event
        }

        @inlinable func precedes(_ other: Entry) -> Bool { time < other.time || (time == other.time && order < other.order) }
    }

    /// The current virtual time: that of the latest event popped (or the start).
    @inlinable public var now: Duration { currentTime }
    @usableFromInline var currentTime: Duration
    /// How many events were popped.
    @inlinable public var processedCount: Int { processed }
    @usableFromInline var processed = 0

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var nextOrder: UInt64 = 0
    @usableFromInline var cancelled: Set<UInt64> = []

    /// An empty queue at virtual time `start`.
    @inlinable public init(startingAt start: Duration = .zero) { currentTime = start }

    /// Events waiting, including cancelled ones not yet skipped.
    @inlinable public var pendingCount: Int { heap.count }

    /// The time of the next event to come out, if any.
    @inlinable public var nextEventTime: Duration? {
        mutating get {
            dropCancelled()
            return heap.first?.time
        }
    }

    /// Schedules `event` at virtual time `time`, after every event already scheduled for that time.
    ///
    /// - Precondition: `time >= now` (the past cannot be scheduled).
    @discardableResult
    @inlinable public mutating func schedule(_ event: Event, at time: Duration) -> EventID {
        precondition(time >= now, "cannot schedule an event at \(time), before now (\(now))")
        let order = nextOrder
        nextOrder += 1
        heap.append(Entry(time: time, order: order, event: event))
        siftUp(heap.count - 1)
        return EventID(order: order)
    }

    /// Schedules `event` `delay` from now.
    @discardableResult
    @inlinable public mutating func schedule(_ event: Event, after delay: Duration) -> EventID {
        schedule(event, at: now + delay)
    }

    /// Cancels an event that has not come out yet (no effect otherwise).
    @inlinable public mutating func cancel(_ id: EventID) {
        if id.order < nextOrder { cancelled.insert(id.order) }
    }

    /// Pops the next event and moves ``now`` to its time; `nil` when none is left.
    @inlinable public mutating func next() -> (time: Duration, event: Event)? {
        dropCancelled()
        guard !heap.isEmpty else { return nil }
        return pop()
    }

    /// Pops the next event if it is due at or before `limit`; otherwise moves ``now`` to `limit`
    /// (if later) and returns `nil`.
    @inlinable public mutating func next(through limit: Duration) -> (time: Duration, event: Event)? {
        dropCancelled()
        guard let first = heap.first, first.time <= limit else {
            if limit > currentTime { currentTime = limit }
            return nil
        }
        return pop()
    }

    @inlinable mutating func pop() -> (time: Duration, event: Event) {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        currentTime = top.time
        processed += 1
        return (top.time, top.event)
    }

    @inlinable mutating func dropCancelled() {
        guard !cancelled.isEmpty else { return }
        while let first = heap.first, cancelled.remove(first.order) != nil {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }
    }

    @inlinable mutating func siftUp(_ index: Int) {
        var child = index
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    @inlinable mutating func siftDown(_ index: Int) {
        var parent = index
        let entry = heap[parent]
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(entry) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}

extension SimulationScheduler: Sendable where Event: Sendable {}
extension SimulationScheduler.Entry: Sendable where Event: Sendable {}
