import Synchronization

/// Hands each bus message to every open ``GStreamerPipeline/messages()`` stream. The lock guards
/// only the list of continuations: a delivery copies the list under it and yields after letting
/// go, so no consumer's code (nor `onTermination`, which takes the lock) runs while it is held.
final class MessageBroadcast: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<PipelineMessage>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    private let state = Mutex(State())

    /// A stream of the messages from now on; it finishes when the pipeline is closed.
    func subscribe() -> AsyncStream<PipelineMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: PipelineMessage.self)
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func deliver(_ message: PipelineMessage) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(message) }
    }

    /// Finishes every stream, and those subscribed later at once.
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
