internal import CLibWebSockets
import Glibc

/// What the service thread keeps per libwebsockets connection (`wsi`). Reached from a callback
/// through the wsi's opaque user data and from a command through the driver's id table; never
/// touched off the service thread.
final class LoopConnection {
    let id: UInt64
    /// The libwebsockets connection; `nil` for a client connection until lws creates it.
    var wsi: OpaquePointer?
    /// The HTTP exchange in progress, if any.
    var exchange: HTTPExchange?
    /// The upgrade request and route between the handshake's callbacks.
    var pendingUpgrade: (route: HTTPRouter.WebSocketRoute, request: HTTPRequest)?
    /// The WebSocket once the connection is one (or is connecting as a client).
    var webSocket: WebSocketSession?
    /// C strings a client connection handed to libwebsockets, freed with the connection.
    var ownedStrings: [UnsafeMutablePointer<CChar>] = []
    /// The watcher that looks at the first bytes of an accepted connection, while it does.
    var gate: UnsafeMutablePointer<interlude_gate_t>?
    /// How many bytes the gate's last peek saw (0 before the first: only the first read starts
    /// a request line).
    var gatePeekedBytes = 0
    /// Whether the gate answered the request itself: lws's own handling of it is cut short.
    var isRefusedAtGate = false
    /// The peer's address, once a request asked for it.
    var remoteAddress: String?

    init(id: UInt64, wsi: OpaquePointer?) {
        self.id = id
        self.wsi = wsi
    }

    deinit {
        for string in ownedStrings { free(string) }
        exchange?.output?.body.closeFile()
        gate?.deallocate()
    }
}

/// One HTTP request/response on a connection, from the end of the request headers to the last
/// byte of the response.
final class HTTPExchange {
    let method: HTTPMethod
    let path: String
    let remoteAddress: String
    let startedAt: ContinuousClock.Instant
    let rangeHeader: String?
    /// Whether the response ends the connection (`Connection: close`, or the server is draining).
    var closesConnection: Bool
    /// The request while its body arrives.
    var pendingRequest: HTTPRequest?
    /// The handler to run once the body has arrived (`nil`: answer `deferredResponse`).
    var pendingHandler: HTTPRouter.Handler?
    /// A response decided before the body arrived (the body is read and dropped first).
    var deferredResponse: HTTPResponse?
    var isAwaitingHandler = false
    /// Whether reading is paused until the response is out.
    var isReceivingPaused = false
    var output: HTTPOutput?

    init(method: HTTPMethod, path: String, remoteAddress: String, rangeHeader: String?, closesConnection: Bool) {
        self.method = method
        self.path = path
        self.remoteAddress = remoteAddress
        self.rangeHeader = rangeHeader
        self.closesConnection = closesConnection
        startedAt = .now
    }
}

/// A response being written: the header block, then the body in chunks.
struct HTTPOutput {
    var head: [UInt8]
    var isHeadWritten = false
    var body: HTTPBodySource
    var status: Int
    var bodyBytesSent = 0
    var error: String?
}

/// Where the rest of a response body comes from.
enum HTTPBodySource {
    case none
    case bytes([UInt8], next: Int, end: Int)
    case file(descriptor: Int32, next: Int64, end: Int64)

    var isFinished: Bool {
        switch self {
        case .none: true
        case .bytes(_, let next, let end): next >= end
        case .file(_, let next, let end): next >= end
        }
    }

    func closeFile() {
        if case .file(let descriptor, _, _) = self { close(descriptor) }
    }
}

/// The service thread's side of a WebSocket: reassembly, the message being written, keep-alive
/// and how the connection ended.
final class WebSocketSession {
    enum KeepAlive {
        case idle
        case awaitingPong
    }

    /// A message being written, possibly over several writable callbacks.
    struct OutgoingFrame {
        var message: WebSocketMessage
        var offset = 0
    }

    let connection: WebSocketConnection
    let isClient: Bool
    /// Set once the handshake completed (counts towards the open WebSockets).
    var isEstablished = false
    var isAssembling = false
    var assemblyIsBinary = false
    var assembly: [UInt8] = []
    var current: OutgoingFrame?
    var isPingDue = false
    var keepAlive = KeepAlive.idle
    /// Bumped whenever the keep-alive deadline moves, so older timer entries are ignored.
    var keepAliveGeneration: UInt64 = 0
    /// The first close sent or received, and whether it ends `messages` without an error.
    private(set) var close: (WebSocketClose, endsCleanly: Bool)?
    /// The subprotocol the server chose, read from its handshake response (client side).
    var agreedSubprotocol: String?
    /// The extra handshake headers and offered subprotocols of a client connection.
    var clientRequest: WebSocketClientRequest?
    /// `LoopDriver.tlsIndexGeneration` when this client attempt began, and how many attempts
    /// before it were given up to lws's index race.
    var tlsGeneration: UInt64 = 0
    var tlsRetries = 0

    init(connection: WebSocketConnection, isClient: Bool) {
        self.connection = connection
        self.isClient = isClient
    }

    /// How the connection ended: the recorded close, or 1006 when it dropped without one.
    var outcome: (WebSocketClose, endsCleanly: Bool) {
        close ?? (WebSocketClose(code: .abnormalClosure, reason: "connection lost", isLocal: false), false)
    }

    /// Records how the connection is ending; the first record wins.
    func record(_ close: WebSocketClose, endsCleanly: Bool) {
        if self.close == nil { self.close = (close, endsCleanly) }
    }
}
