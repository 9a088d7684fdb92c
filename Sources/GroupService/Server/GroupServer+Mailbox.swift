import Synchronization

extension GroupServer {
    /// The driver's inputs, taken a turn at a time: whatever arrived while the driver was busy
    /// with the previous turn is the next one, fed to the core in arrival order and committed in
    /// one transaction (a group commit: one fsync for the turn, not one per message).
    final class DriverMailbox: Sendable {
        private struct State {
            var inputs: [DriverInput] = []
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
                state.inputs.append(input)
                return true
            }
            if isAccepted { wake.yield() }
        }

        /// No more inputs: ``wakeups`` ends once it has given its last cue.
        func finish() {
            state.withLock { $0.isFinished = true }
            wake.finish()
        }

        /// The next turn: the inputs waiting, oldest first, at most ``maximumTurn``; empty when
        /// none wait.
        func take() -> [DriverInput] {
            state.withLock { state in
                let count = min(state.inputs.count, Self.maximumTurn)
                defer { state.inputs.removeFirst(count) }
                return Array(state.inputs.prefix(count))
            }
        }
    }
}
