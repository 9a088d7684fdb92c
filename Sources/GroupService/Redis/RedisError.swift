/// Why a Redis call failed.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not `redis://HOST:PORT`.
    case badURL(String, reason: String)
    /// No connection could be made.
    case cannotConnect(endpoint: String, message: String)
    /// The connection broke or timed out during a call; it is dropped and made again on the next call.
    case connectionLost(endpoint: String, message: String)
    /// Redis answered with an error.
    case reply(command: String, message: String)
    /// Redis answered with something this client did not expect.
    case unexpectedReply(command: String, reply: String)

    public var description: String {
        switch self {
        case let .badURL(url, reason): "\(url): not a Redis URL (\(reason)); expected redis://HOST:PORT"
        case let .cannotConnect(endpoint, message): "cannot connect to Redis at \(endpoint): \(message)"
        case let .connectionLost(endpoint, message): "the connection to Redis at \(endpoint) failed: \(message)"
        case let .reply(command, message): "Redis refused \(command): \(message)"
        case let .unexpectedReply(command, reply): "Redis answered \(command) with \(reply)"
        }
    }
}
