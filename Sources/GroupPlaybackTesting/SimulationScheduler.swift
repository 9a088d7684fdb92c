import GroupWire
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
/// A binary heap of plain keys (time, order, slot): O(log n) to schedule and to pop, O(1) to
/// cancel. The events themselves wait in a slab beside the heap, so sifting moves three integers and
/// never retains or releases what an event carries; a cancelled event frees its slot at once and
/// its key is skipped when it comes up.
public struct SimulationScheduler<Event> {
    /// Names a scheduled event, to cancel it.
    public struct EventID: Sendable, Hashable, Comparable {
        @usableFromInline let order: UInt64
        @usableFromInline let slot: Int32
        @inlinable init(order: UInt64, slot: Int32) {
            self.order = order
            self.slot = slot
        }
        /// Scheduled earlier first.
        @inlinable public static func < (lhs: EventID, rhs: EventID) -> Bool { lhs.order < rhs.order }
    }

    @usableFromInline struct Key {
        /// The time in attoseconds: compared inline, where comparing `Duration`s is a call.
        @usableFromInline var attoseconds: Int128
        @usableFromInline var order: UInt64
        @usableFromInline var slot: Int32
        @inlinable init(time: Duration, order: UInt64, slot: Int32) {
            attoseconds = time.attoseconds
            self.order = order
            self.slot = slot
        }

        @inlinable var time: Duration { Duration(attoseconds: attoseconds) }

        @inlinable func precedes(_ other: Key) -> Bool {
            attoseconds < other.attoseconds || (attoseconds == other.attoseconds && order < other.order)
        }
    }

    @usableFromInline struct Slot {
        /// The order of the event waiting in the slot (`UInt64.max` when none waits); a key whose
        /// order differs names an event cancelled.
        @usableFromInline var order: UInt64
        @usableFromInline var event: Event?
        @inlinable init(order: UInt64, event: Event?) {
            self.order = order
            self.event = event
        }
    }

    /// The current virtual time: that of the latest event popped (or the start).
    @inlinable public var now: Duration { currentTime }
    @usableFromInline var currentTime: Duration
    /// How many events were popped.
    @inlinable public var processedCount: Int { processed }
    @usableFromInline var processed = 0

    @usableFromInline var heap: [Key] = []
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var freeSlots: [Int32] = []
    @usableFromInline var nextOrder: UInt64 = 0

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
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(free)] = Slot(order: order, event: event)
        } else {
            slot = Int32(slots.count)
            slots.append(Slot(order: order, event: event))
        }
        heap.append(Key(time: time, order: order, slot: slot))
        siftUp(heap.count - 1)
        return EventID(order: order, slot: slot)
    }

    /// Schedules `event` `delay` from now.
    @discardableResult
    @inlinable public mutating func schedule(_ event: Event, after delay: Duration) -> EventID {
        schedule(event, at: now + delay)
    }

    /// Cancels an event that has not come out yet (no effect otherwise).
    @inlinable public mutating func cancel(_ id: EventID) {
        let index = Int(id.slot)
        guard index < slots.count, slots[index].order == id.order else { return }
        slots[index] = Slot(order: .max, event: nil)
        freeSlots.append(id.slot)
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
        guard let first = heap.first, first.attoseconds <= limit.attoseconds else {
            if limit > currentTime { currentTime = limit }
            return nil
        }
        return pop()
    }

    /// Whether the key names an event still waiting (not cancelled).
    @inlinable func isLive(_ key: Key) -> Bool { slots[Int(key.slot)].order == key.order }

    /// Pops the first key; the caller has dropped cancelled ones.
    @inlinable mutating func pop() -> (time: Duration, event: Event) {
        let top = removeFirstKey()
        let index = Int(top.slot)
        let event = slots[index].event.take()!
        slots[index].order = .max
        freeSlots.append(top.slot)
        currentTime = top.time
        processed += 1
        return (top.time, event)
    }

    @inlinable mutating func removeFirstKey() -> Key {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    @inlinable mutating func dropCancelled() {
        while let first = heap.first, !isLive(first) { _ = removeFirstKey() }
    }

    @inlinable mutating func siftUp(_ index: Int) {
        var child = index
        let key = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard key.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = key
    }

    @inlinable mutating func siftDown(_ index: Int) {
        var parent = index
        let key = heap[parent]
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(key) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = key
    }
}

extension SimulationScheduler: Sendable where Event: Sendable {}
extension SimulationScheduler.Slot: Sendable where Event: Sendable {}
extension SimulationScheduler.Key: Sendable {}
