import VideoBackend

/// A wait on a pipeline's messages that gave up.
struct MessageWaitFailure: Error, CustomStringConvertible {
    var expected: String
    var seen: [PipelineMessage]
    var streamEnded: Bool

    var description: String {
        "\(streamEnded ? "the stream ended" : "timed out") before \(expected); seen: \(seen)"
    }
}

extension AsyncStream<PipelineMessage> {
    /// The first message from here on that `matches`, within `limit` of real time; throws,
    /// with the messages seen, when the limit passes or the stream ends first. An error message
    /// that was not what was waited for is returned too, so a test fails on it at once.
    func first(
        _ expected: String,
        within limit: Duration = .seconds(10),
        where matches: @escaping @Sendable (PipelineMessage) -> Bool
    ) async throws -> PipelineMessage {
        let stream = self
        return try await withThrowingTaskGroup(of: PipelineMessage.self) { group in
            group.addTask {
                var seen: [PipelineMessage] = []
                for await message in stream {
                    if matches(message) { return message }
                    if case .error = message { return message }
                    seen.append(message)
                }
                throw MessageWaitFailure(expected: expected, seen: seen, streamEnded: true)
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw MessageWaitFailure(expected: expected, seen: [], streamEnded: false)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Waits for the pipeline to reach `state`.
    func reach(_ state: PipelineState, within limit: Duration = .seconds(10)) async throws {
        let message = try await first("\(state)", within: limit) { message in
            if case .stateChanged(_, state, _) = message { return true }
            return false
        }
        guard case .stateChanged = message else { throw MessageWaitFailure(expected: "\(state)", seen: [message], streamEnded: false) }
    }

    /// Waits for `seek` to finish, or with `nil` for a state change's preroll to.
    func asyncDone(_ seek: SeekID?, within limit: Duration = .seconds(10)) async throws {
        let expected = PipelineMessage.asyncDone(seek: seek)
        let message = try await first("\(expected)", within: limit) { $0 == expected }
        guard message == expected else { throw MessageWaitFailure(expected: "\(expected)", seen: [message], streamEnded: false) }
    }
}
