import Synchronization
public import VideoBackend

/// A wait on a pipeline's messages that gave up.
public struct MessageWaitFailure: Error, CustomStringConvertible {
    var expected: String
    var seen: [PipelineMessage]
    var streamEnded: Bool

    public var description: String {
        "\(streamEnded ? "the stream ended" : "timed out") before \(expected); seen: \(seen)"
    }
}

/// The messages a wait has seen, shared by its reading task and its timer.
private final class SeenMessages: Sendable {
    private let messages = Mutex<[PipelineMessage]>([])

    func append(_ message: PipelineMessage) { messages.withLock { $0.append(message) } }
    var all: [PipelineMessage] { messages.withLock { $0 } }
}

extension AsyncStream<PipelineMessage> {
    /// The messages from here on up to and including the first that `matches`, within `limit`
    /// of real time; throws, with the messages seen, when the limit passes or the stream ends
    /// first. An error message that was not what was waited for ends the wait too, so that a
    /// test fails on it at once.
    public func messages(
        until expected: String,
        within limit: Duration = .seconds(10),
        where matches: @escaping @Sendable (PipelineMessage) -> Bool
    ) async throws -> [PipelineMessage] {
        let stream = self
        let seen = SeenMessages()
        return try await withThrowingTaskGroup(of: [PipelineMessage].self) { group in
            group.addTask {
                for await message in stream {
                    seen.append(message)
                    if matches(message) { return seen.all }
                    if case .error = message { return seen.all }
                }
                throw MessageWaitFailure(expected: expected, seen: seen.all, streamEnded: true)
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw MessageWaitFailure(expected: expected, seen: seen.all, streamEnded: false)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// The first message from here on that `matches` (or an error message), as ``messages(until:within:where:)``.
    public func first(
        _ expected: String,
        within limit: Duration = .seconds(10),
        where matches: @escaping @Sendable (PipelineMessage) -> Bool
    ) async throws -> PipelineMessage {
        try await messages(until: expected, within: limit, where: matches).last!
    }

    /// Waits for the pipeline to reach `state`.
    public func reach(_ state: PipelineState, within limit: Duration = .seconds(10)) async throws {
        let message = try await first("\(state)", within: limit) { message in
            if case .stateChanged(_, state, _) = message { return true }
            return false
        }
        guard case .stateChanged = message else { throw MessageWaitFailure(expected: "\(state)", seen: [message], streamEnded: false) }
    }

    /// Waits for `seek` to finish, or with `nil` for a state change's preroll to.
    public func asyncDone(_ seek: SeekID?, within limit: Duration = .seconds(10)) async throws {
        let expected = PipelineMessage.asyncDone(seek: seek)
        let message = try await first("\(expected)", within: limit) { $0 == expected }
        guard message == expected else { throw MessageWaitFailure(expected: "\(expected)", seen: [message], streamEnded: false) }
    }
}

extension GStreamerPipeline {
    /// A headless pipeline on `uri` that has reached PLAYING, and its messages from before it
    /// played; the caller closes it (it is closed here when it does not get there).
    public static func playing(_ uri: String) async throws -> (GStreamerPipeline, AsyncStream<PipelineMessage>) {
        let pipeline = try GStreamerPipeline(uri: uri, configuration: .headless)
        let messages = pipeline.messages()
        do {
            try pipeline.play()
            try await messages.reach(.playing)
        } catch {
            pipeline.close()
            throw error
        }
        return (pipeline, messages)
    }
}
