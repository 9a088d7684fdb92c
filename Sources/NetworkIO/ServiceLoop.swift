internal import CLibWebSockets
import Synchronization

/// What other threads ask a service loop to do. Commands carry connection ids, never `wsi`
/// handles: only the service thread touches libwebsockets objects.
enum LoopCommand: Sendable {
    /// A handler's response for the HTTP exchange on connection `id`.
    case respond(id: UInt64, response: HTTPResponse, error: String?)
    /// Connection `id` queued an outgoing message (or a close) and wants a writable callback.
    case webSocketWritable(id: UInt64)
    /// Connection `id`'s reader has room again: resume reading from the socket.
    case webSocketResumeReceiving(id: UInt64)
    /// Open a client connection.
    case connect(WebSocketClientRequest)
    /// Finish in-flight work, close WebSockets with 1001, then stop (by `deadline` at the latest).
    case shutdown(gracePeriod: Duration)
}

/// The thread-safe face of one libwebsockets context and the thread that services it
/// (dependencies.md §1: one service thread per context, cross-thread work through an inbox plus
/// `lws_cancel_service`, the one libwebsockets call that is safe from any thread; the context is
/// destroyed once, from inside the loop).
///
/// Where this departs from the measured recipe, and why:
/// - The libev loop is created here and handed to lws as a *foreign* loop. On a loop of its own,
///   lws starts a SIGINT watcher whose default action is to break that loop, taking Ctrl-C away
///   from the application; on a foreign loop it leaves signals alone.
/// - Deadlines (WebSocket pings and pong timeouts, the shutdown grace period) run on one libev
///   timer of NetworkIO's own (`LoopTimers`): lws 4.1's libev glue cannot move its timer earlier
///   once armed, so a 50 ms lws timer fired only when an armed 10 s one did. A once-a-second
///   wake-up keeps lws's own timeouts (idle keep-alive, close acknowledgement) within a second.
/// - While a handler runs, the connection stops reading: lws 4.1 leaves pipelined bytes or a
///   peer's EOF unread meanwhile, and libev then reports the socket readable in a busy loop.
final class ServiceLoop: Sendable {
    private struct Inbox {
        var commands: [LoopCommand] = []
        /// The context's address while it accepts commands; 0 before it exists and once it stops.
        var contextAddress: UInt = 0
        var isFinished = false
    }

    private enum Phase {
        case idle
        case starting([CheckedContinuation<Int, any Error>])
        case running(port: Int)
        case failed(NetworkIOError)
        case finished
    }

    private struct Lifecycle {
        var phase: Phase = .idle
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        var isFinished = false
    }

    let settings: LoopSettings
    private let inbox = Mutex(Inbox())
    private let lifecycle = Mutex(Lifecycle())

    init(settings: LoopSettings) {
        self.settings = settings
    }

    /// Starts the service thread and returns the bound port (0 for a client context) once the
    /// context exists, or throws why it could not be created. Idempotent.
    func start() async throws -> Int {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            enum Action { case spawn, wait, resume(Result<Int, any Error>) }
            let action = lifecycle.withLock { state -> Action in
                switch state.phase {
                case .idle:
                    state.phase = .starting([continuation])
                    return .spawn
                case .starting(var waiters):
                    waiters.append(continuation)
                    state.phase = .starting(waiters)
                    return .wait
                case .running(let port): return .resume(.success(port))
                case .failed(let error): return .resume(.failure(error))
                case .finished: return .resume(.failure(NetworkIOError.stopped))
                }
            }
            switch action {
            case .spawn:
                do throws(ServiceThread.StartError) {
                    try ServiceThread.spawn { [self] in LoopDriver.runServiceThread(for: self) }
                } catch {
                    didFailToStart(NetworkIOError.threadStartFailed(error.description))
                    didFinish()
                }
            case .wait: break
            case .resume(let result): continuation.resume(with: result)
            }
        }
    }

    /// Suspends until the service thread has destroyed its context and is about to exit.
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isFinished = lifecycle.withLock { state in
                if !state.isFinished { state.finishWaiters.append(continuation) }
                return state.isFinished
            }
            if isFinished { continuation.resume() }
        }
    }

    /// Whether the loop has stopped for good.
    var isFinished: Bool { lifecycle.withLock { $0.isFinished } }

    /// Queues `command` for the service thread and wakes it. Returns `false` (dropping the
    /// command) when the loop is not running. O(1) amortised; one `lws_cancel_service` per batch.
    @discardableResult
    func post(_ command: LoopCommand) -> Bool {
        inbox.withLock { inbox in
            guard inbox.contextAddress != 0, !inbox.isFinished else { return false }
            let wasEmpty = inbox.commands.isEmpty
            inbox.commands.append(command)
            // The service thread drains the whole inbox on each wake-up, so one wake-up per
            // non-empty transition is enough. The lock is held so the context cannot be destroyed
            // underneath the call.
            if wasEmpty, let context = OpaquePointer(bitPattern: inbox.contextAddress) {
                lws_cancel_service(context)
            }
            return true
        }
    }

    // MARK: Called on the service thread

    /// Takes every queued command.
    func takeCommands() -> [LoopCommand] {
        inbox.withLock { inbox in
            let commands = inbox.commands
            inbox.commands.removeAll(keepingCapacity: true)
            return commands
        }
    }

    /// The context exists and listens on `port`: commands may now be posted.
    func didStart(context: OpaquePointer, port: Int) {
        inbox.withLock { $0.contextAddress = UInt(bitPattern: context) }
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .starting(let waiters) = state.phase else { return [] }
            state.phase = .running(port: port)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
    }

    /// The context could not be created.
    func didFailToStart(_ error: NetworkIOError) {
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .starting(let waiters) = state.phase else { return [] }
            state.phase = .failed(error)
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// The context is about to be destroyed: refuse further commands. Returns the commands that
    /// were still queued so their waiters can be failed.
    func stopAcceptingCommands() -> [LoopCommand] {
        inbox.withLock { inbox in
            inbox.contextAddress = 0
            inbox.isFinished = true
            let left = inbox.commands
            inbox.commands = []
            return left
        }
    }

    /// The context is gone; the thread is about to exit.
    func didFinish() {
        _ = stopAcceptingCommands()
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isFinished = true
            if case .running = state.phase { state.phase = .finished }
            let waiters = state.finishWaiters
            state.finishWaiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Why the network layer could not do what was asked.
public enum NetworkIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libwebsockets could not create the context, typically because the port is taken or the
    /// host is not a local address.
    case bindFailed(host: String, port: Int)
    /// The service thread could not be started.
    case threadStartFailed(String)
    /// The server or client has stopped.
    case stopped
    /// `run()` was called on a server that is already running or has run.
    case alreadyRunning
    /// A TLS file cannot be used: missing, unreadable, not PEM, or (for a server) a private key
    /// that does not match its certificate. `reason` is the system's or OpenSSL's message.
    case tlsUnusable(TLSFile, path: String, reason: String)

    /// The TLS file a `tlsUnusable` error is about.
    public enum TLSFile: String, Sendable, Equatable {
        case certificate = "certificate"
        case privateKey = "private key"
        case trustedCertificates = "trusted certificates"
    }

    /// A one-line description.
    public var description: String {
        switch self {
        case .bindFailed(let host, let port): "cannot listen on \(host):\(port)"
        case .threadStartFailed(let reason): "cannot start the service thread: \(reason)"
        case .stopped: "the network service has stopped"
        case .alreadyRunning: "the server is already running"
        case .tlsUnusable(let file, let path, let reason): "cannot use the TLS \(file.rawValue) \(path): \(reason)"
        }
    }
}
