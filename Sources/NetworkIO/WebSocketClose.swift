/// A WebSocket close status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code.
    public var rawValue: UInt16

    /// A code from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (server shutting down, page navigated away).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: a protocol error.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a type of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: the close frame carried no code (never sent on the wire).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection dropped without a close frame (never sent on the wire).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message was not valid UTF-8.
    public static let invalidFramePayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message violated the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message was larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client needed an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalServerError = WebSocketCloseCode(rawValue: 1011)

    /// The number.
    public var description: String { "\(rawValue)" }
}

/// How a WebSocket connection ended, as one side observed it.
public struct WebSocketClose: Sendable, Equatable, CustomStringConvertible {
    /// The code of the first close frame sent or received; 1006 when the connection dropped
    /// (or a peer stopped answering pings) without a close handshake.
    public var code: WebSocketCloseCode
    /// The reason text of that close frame, or a description of the failure.
    public var reason: String
    /// Whether this side ended the connection (sent the first close frame, or dropped a peer
    /// that stopped answering pings).
    public var isLocal: Bool

    /// A close.
    public init(code: WebSocketCloseCode, reason: String, isLocal: Bool) {
        self.code = code
        self.reason = reason
        self.isLocal = isLocal
    }

    /// For example `1009 (remote): message too big`.
    public var description: String {
        "\(code) (\(isLocal ? "local" : "remote"))" + (reason.isEmpty ? "" : ": \(reason)")
    }
}

/// Why a WebSocket operation failed.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not a `ws://host[:port]/path` URL.
    case invalidURL(String)
    /// The TCP connection or the opening handshake failed (refused, not a 101, bad protocol).
    case connectionFailed(String)
    /// The connection is closed (or closing); `messages` throws this when the close was not a
    /// normal one (anything but the application's own `close()` or a peer's 1000 / 1001 / 1005).
    case closed(WebSocketClose)

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid WebSocket URL: \(url)"
        case .connectionFailed(let reason): "WebSocket connection failed: \(reason)"
        case .closed(let close): "WebSocket closed: \(close)"
        }
    }
}
