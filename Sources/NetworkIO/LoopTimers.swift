/// The service thread's deadlines in one min-heap, served by a single libev timer armed for the
/// earliest. Rescheduling a keep-alive does not remove its old entry: each entry carries the
/// session's generation, and entries of an older generation are ignored when they come due.
struct LoopTimers {
    enum Kind {
        /// A WebSocket's next ping, or its pong deadline.
        case keepAlive(connectionID: UInt64, generation: UInt64)
        /// The graceful shutdown's grace period is over.
        case drainDeadline
        /// Once a second: wake lws so that its own due timers (keep-alive idle, close
        /// acknowledgement) run. Its libev glue runs them after I/O but can oversleep when quiet.
        case housekeeping
    }

    struct Entry {
        var deadline: ContinuousClock.Instant
        var kind: Kind
    }

    private var heap: [Entry] = []

    /// The earliest deadline.
    var earliest: ContinuousClock.Instant? { heap.first?.deadline }

    /// Adds a deadline. O(log n).
    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`. O(log n).
    mutating func popDue(at now: ContinuousClock.Instant) -> Entry? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
