import Foundation
import GroupCoordination
import GroupWire
import MediaTime
import NetworkIO
import Synchronization
import Testing

/// A participant's WebSocket as the tests drive it: JSON text out, decoded server messages in,
/// every wait bounded.
final class HostileClient: Sendable {
    let connection: WebSocketConnection
    private let log = Mutex<[SessionServerMessage]>([])

    init(connection: WebSocketConnection) { self.connection = connection }

    /// Everything received so far.
    var received: [SessionServerMessage] { log.withLock { $0 } }

    func send(_ pieces: String...) async throws { try await connection.send(.text(pieces.joined())) }

    func send(_ message: SessionClientMessage) async throws { try await send(String(decoding: message.jsonBytes, as: UTF8.self)) }

    enum Next { case message(SessionServerMessage), closed(WebSocketClose) }

    struct Unreadable: Error, CustomStringConvertible {
        var text: String
        var description: String { "the server sent what does not decode: \(text)" }
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String { "nothing from the server in time" }
    }

    /// The next message, or how the connection ended.
    func next(within timeout: Duration = .seconds(15)) async throws -> Next {
        let connection = connection
        let frame = try await withThrowingTaskGroup(of: Result<WebSocketMessage?, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await connection.receive()) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
        switch frame {
        case nil: throw Timeout()
        case .success(nil), .failure(WebSocketError.closed): return .closed(await connection.closed)
        case .failure(let error): throw error
        case .success(.binary(let bytes))?: throw Unreadable(text: "binary \(bytes.count) bytes")
        case .success(.text(let text))?:
            guard let message = try? SessionServerMessage(jsonBytes: Array(text.utf8)) else { throw Unreadable(text: text) }
            log.withLock { $0.append(message) }
            return .message(message)
        }
    }

    /// Skips messages until `match` takes one.
    func expect<T>(sourceLocation: SourceLocation = #_sourceLocation, _ match: (SessionServerMessage) -> T?) async throws -> T {
        while true {
            switch try await next() {
            case .message(let message): if let value = match(message) { return value }
            case .closed(let close):
                Issue.record("closed while waiting: \(close)", sourceLocation: sourceLocation)
                throw WebSocketError.closed(close)
            }
        }
    }

    func expectPong(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await expect(sourceLocation: sourceLocation) { $0 == .pong ? () : nil }
    }

    /// The acknowledged version of command `id`.
    func expectAck(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> UInt64 {
        try await expect(sourceLocation: sourceLocation) { message in
            if case .error(let error) = message, error.id == id { Issue.record("command \(id) refused: \(error)", sourceLocation: sourceLocation) }
            if case .ack(id, let version) = message { return version }
            return nil
        }
    }

    /// The next error, skipping events and other traffic.
    func nextError(sourceLocation: SourceLocation = #_sourceLocation) async throws -> SessionError {
        try await expect(sourceLocation: sourceLocation) { if case .error(let error) = $0 { error } else { nil } }
    }

    /// Everything until the connection ends, and how it ended.
    func readUntilClosed() async throws -> (messages: [SessionServerMessage], errors: [SessionError], close: WebSocketClose) {
        var messages: [SessionServerMessage] = []
        while true {
            switch try await next() {
            case .message(let message): messages.append(message)
            case .closed(let close):
                let errors = messages.compactMap { if case .error(let error) = $0 { error } else { nil } }
                return (messages, errors, close)
            }
        }
    }

    /// A `playback-state` command issued by `participant`.
    static func playbackCommand(id: String, by participant: String, counter: UInt64, seconds: Int64, rate: Double = 1) -> String {
        let state = CoordinatedPlaybackState(
            itemIdentifier: "movie", rate: rate, anchorTime: MediaTime(seconds: seconds), anchorGroupTime: .seconds(1),
            timestamp: CoordinationTimestamp(counter: counter, participant: .init(rawValue: participant), issuedAt: .seconds(1)))
        return String(decoding: SessionClientMessage.command(id: id, message: .playbackState(state)).jsonBytes, as: UTF8.self)
    }
}

/// The server's log lines, kept as the shell writes them (JSON objects of strings).
final class HostileLog: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }

    /// The lines of `event`, parsed.
    func lines(event: String) -> [[String: String]] {
        all.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                Issue.record("a log line that is not a JSON object: \(line)")
                return nil
            }
            guard object["event"] as? String == event else { return nil }
            return object.compactMapValues { $0 as? String }
        }
    }
}
