import Synchronization

extension GroupServer {
    /// The driver's inputs, taken a turn at a time: whatever arrived while the driver was busy
    /// with the previous turn is the next one, fed to the core in arrival order and committed in
    /// one transaction (a group commit: one fsync for the turn, not one per message).
    final class DriverMailbox: Sendable {
        private struct State {
            var inputs: [DriverInput] = []
            /// Where the inputs not yet taken begin (a turn of at most ``maximumTurn`` leaves the
            /// rest in place, instead of moving them all to the front).
            var head = 0
            /// What the shared store said, kept apart: it is taken before the other inputs.
            var notices: [DriverInput] = []
            var isFinished = false
        }

        /// The most inputs one turn takes (the rest wait for the next), so that one commit stays
        /// small and the first input of a turn does not wait behind thousands.
        static let maximumTurn = 1_024

        private let state = Mutex(State())
        /// One element after each input (at most one waits): the driver's cue to take a turn. It
        /// ends after ``finish()``.
        let wakeups: AsyncStream<Void>
        private let wake: AsyncStream<Void>.Continuation

        init() {
            (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        /// Adds an input; after ``finish()`` it is dropped.
        func yield(_ input: DriverInput) {
            let isAccepted = state.withLock { state -> Bool in
                guard !state.isFinished else { return false }
                if case .store = input { state.notices.append(input) } else { state.inputs.append(input) }
                return true
            }
            if isAccepted { wake.yield() }
        }

        /// No more inputs: ``wakeups`` ends once it has given its last cue.
        func finish() {
            state.withLock { $0.isFinished = true }
            wake.finish()
        }

        /// The next turn: what the shared store said first (every notice waiting: the other
        /// processes' commits, taken in before this process's own inputs write to the same
        /// sessions, so that a backlog does not make those writes meet them as conflicts), then
        /// the other inputs waiting, oldest first, at most ``maximumTurn``; empty when none wait.
        /// The order among notices and among the other inputs is their arrival order.
        func take() -> [DriverInput] {
            state.withLock { state in
                var turn: [DriverInput] = []
                swap(&turn, &state.notices)
                let waiting = state.inputs.count - state.head
                if state.head == 0, waiting <= Self.maximumTurn {
                    if turn.isEmpty { swap(&turn, &state.inputs) } else { turn += state.inputs; state.inputs.removeAll(keepingCapacity: true) }
                    return turn
                }
                let count = min(waiting, Self.maximumTurn)
                turn += state.inputs[state.head..<(state.head + count)]
                state.head += count
                if state.head == state.inputs.count {
                    state.inputs.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= 4 * Self.maximumTurn, state.head * 2 >= state.inputs.count {
                    // Drops what was taken once it is the larger part: amortised, not per turn.
                    state.inputs.removeFirst(state.head)
                    state.head = 0
                }
                return turn
            }
        }

        /// The notices of the shared store waiting, oldest first (taken between two tries of a
        /// turn that met another process's commit).
        func takeNotices() -> [DriverInput] {
            state.withLock { state in
                var notices: [DriverInput] = []
                swap(&notices, &state.notices)
                return notices
            }
        }
    }
}
