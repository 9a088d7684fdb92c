import Synchronization

/// One WebSocket connection, server or client side, with an async API:
///
///     for try await message in connection.messages {
///         try await connection.send(message)          // suspends while the send queue is full
///     }
///     print(await connection.closed)                  // 1000 (remote), 1009 (local): ..., ...
///
/// Sending and receiving are back-pressured: `send` suspends while more than
/// `configuration.sendQueueBytes` wait to be written, and when the reader falls
/// `configuration.receiveQueueMessages` behind, the connection stops reading from the socket so
/// that TCP slows the peer down. The libwebsockets connection itself lives on the service thread;
/// this object only queues work for it.
public final class WebSocketConnection: Sendable, CustomStringConvertible {
    /// The opening handshake: on the server, the upgrade request the client sent (with the
    /// route's path parameters); on the client, the request this side sent.
    public let request: HTTPRequest
    /// The limits and keep-alive this connection uses.
    public let configuration: WebSocketConfiguration
    /// The subprotocol both sides agreed on, if any (known once the connection is open).
    public var subprotocol: String? { state.withLock { $0.subprotocol } }

    let id: UInt64
    let loop: ServiceLoop
    private let state: Mutex<State>
    private let pongs = Atomic<Int>(0)

    private enum Phase {
        case connecting(CheckedContinuation<Void, any Error>?)
        case open
        case closed(WebSocketClose, endsCleanly: Bool)
    }

    private struct BlockedSender {
        var id: UInt64
        var message: WebSocketMessage
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var phase: Phase
        var outgoing = FIFO<WebSocketMessage>()
        var outgoingBytes = 0
        var blockedSenders: [BlockedSender] = []
        var isWriteScheduled = false
        var incoming = FIFO<WebSocketMessage>()
        var isReceivingPaused = false
        var receiver: (id: UInt64, continuation: CheckedContinuation<WebSocketMessage?, any Error>)?
        /// Where received messages go instead, once ``deliver(to:)`` has handed over the queue.
        var sink: (@Sendable (WebSocketMessage) -> Void)?
        /// Whether ``deliver(to:)`` is handing the queue over (a second call is refused).
        var isSinkRequested = false
        var closeRequest: (code: WebSocketCloseCode, reason: String)?
        var closeWaiters: [CheckedContinuation<WebSocketClose, Never>] = []
        var nextWaiterID: UInt64 = 0
        var subprotocol: String?

        mutating func makeWaiterID() -> UInt64 {
            nextWaiterID += 1
            return nextWaiterID
        }
    }

    init(
        id: UInt64,
        loop: ServiceLoop,
        request: HTTPRequest,
        subprotocol: String?,
        configuration: WebSocketConfiguration,
        isOpen: Bool
    ) {
        self.id = id
        self.loop = loop
        self.request = request
        self.configuration = configuration
        state = Mutex(State(phase: isOpen ? .open : .connecting(nil), subprotocol: subprotocol))
    }

    /// For example `WebSocketConnection #12 /ws`.
    public var description: String { "WebSocketConnection #\(id) \(request.path)" }

    // MARK: Receiving

    /// The received messages, in order. The sequence finishes when the connection closes
    /// normally (this side called `close`, or the peer closed with 1000, 1001 or no code) and
    /// throws `WebSocketError.closed` otherwise: 1006 when the peer vanished, 1009 when a message
    /// was too big, and so on. Messages received before the close are delivered first.
    /// One reader at a time.
    public var messages: Messages { Messages(connection: self) }

    /// The received messages of a connection; see `WebSocketConnection.messages`.
    public struct Messages: AsyncSequence, Sendable {
        /// A message.
        public typealias Element = WebSocketMessage
        /// `WebSocketError.closed` or `CancellationError`.
        public typealias Failure = any Error

        let connection: WebSocketConnection

        /// Iterates by calling `receive()`.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let connection: WebSocketConnection

            /// The next message, or `nil` after a normal close.
            public mutating func next() async throws -> WebSocketMessage? { try await connection.receive() }
        }

        /// An iterator.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(connection: connection) }
    }

    /// The next received message, or `nil` once the connection has closed normally; see
    /// `messages`. Throws `CancellationError` when the task is cancelled while waiting.
    public func receive() async throws -> WebSocketMessage? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WebSocketMessage?, any Error>) in
                enum Outcome {
                    case message(WebSocketMessage, resumeReceiving: Bool)
                    case finished(Result<WebSocketMessage?, any Error>)
                    case waiting
                }
                let limit = configuration.receiveQueueMessages
                let outcome = state.withLock { state -> Outcome in
                    if let message = state.incoming.popFirst() {
                        let resume = state.isReceivingPaused && state.incoming.count <= limit / 2
                        if resume { state.isReceivingPaused = false }
                        return .message(message, resumeReceiving: resume)
                    }
                    if case .closed(let close, let endsCleanly) = state.phase {
                        return .finished(endsCleanly ? .success(nil) : .failure(WebSocketError.closed(close)))
                    }
                    if Task.isCancelled { return .finished(.failure(CancellationError())) }
                    precondition(state.receiver == nil, "WebSocketConnection.receive() called by two readers at once")
                    state.receiver = (state.makeWaiterID(), continuation)
                    return .waiting
                }
                switch outcome {
                case .message(let message, let resumeReceiving):
                    if resumeReceiving { loop.post(.webSocketResumeReceiving(id: id)) }
                    continuation.resume(returning: message)
                case .finished(let result):
                    continuation.resume(with: result)
                case .waiting:
                    break
                }
            }
        } onCancel: {
            let receiver = state.withLock { state in
                defer { state.receiver = nil }
                return state.receiver
            }
            receiver?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands every received message to `sink` as it arrives, on the service thread, instead of
    /// to ``messages`` (those already waiting are handed over first, in order, from the calling
    /// thread; after that the service thread alone calls it). For a reader that only passes
    /// messages on to a queue of its own: it saves waking a task for each message. `sink` must
    /// return at once (never wait, never take a lock held across a wait); the receive queue's
    /// back-pressure no longer applies, so it must not do more work per message than the peer
    /// may be allowed to cause. The connection's end is then known from ``closed``. Call it once,
    /// before any ``receive()``.
    public func deliver(to sink: @escaping @Sendable (WebSocketMessage) -> Void) {
        var resumeReceiving = false
        var waiting = state.withLock { state -> [WebSocketMessage] in
            precondition(!state.isSinkRequested && state.receiver == nil, "WebSocketConnection.deliver(to:) called twice, or beside a reader")
            state.isSinkRequested = true
            return state.incoming.removeAll()
        }
        // Hand over what waited, and what arrived meanwhile, until nothing is left: only then
        // does the service thread take over, so that the order holds.
        while true {
            for message in waiting { sink(message) }
            waiting = state.withLock { state -> [WebSocketMessage] in
                let more = state.incoming.removeAll()
                if more.isEmpty {
                    state.sink = sink
                    if state.isReceivingPaused {
                        state.isReceivingPaused = false
                        resumeReceiving = true
                    }
                }
                return more
            }
            if waiting.isEmpty { break }
        }
        if resumeReceiving { loop.post(.webSocketResumeReceiving(id: id)) }
    }

    // MARK: Sending

    /// Queues `message` for sending, suspending while the send queue is full. Returns once the
    /// message is queued (not when it reaches the peer). Throws `WebSocketError.closed` when the
    /// connection is closed or closing, and `CancellationError` if cancelled while suspended.
    public func send(_ message: WebSocketMessage) async throws {
        enum Outcome { case queued(notify: Bool), failed(any Error), mustWait }
        let outcome = state.withLock { state -> Outcome in
            if let error = Self.sendError(state) { return .failed(error) }
            guard state.blockedSenders.isEmpty, Self.hasRoom(for: message, in: state, limit: configuration.sendQueueBytes) else {
                return .mustWait
            }
            return .queued(notify: Self.enqueue(message, in: &state))
        }
        switch outcome {
        case .queued(let notify):
            if notify { loop.post(.webSocketWritable(id: id)) }
            return
        case .failed(let error):
            throw error
        case .mustWait:
            break
        }
        let waiterID = state.withLock { $0.makeWaiterID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Outcome in
                    if let error = Self.sendError(state) { return .failed(error) }
                    if Task.isCancelled { return .failed(CancellationError()) }
                    if state.blockedSenders.isEmpty,
                       Self.hasRoom(for: message, in: state, limit: configuration.sendQueueBytes) {
                        return .queued(notify: Self.enqueue(message, in: &state))
                    }
                    state.blockedSenders.append(BlockedSender(id: waiterID, message: message, continuation: continuation))
                    return .mustWait
                }
                switch outcome {
                case .queued(let notify):
                    if notify { loop.post(.webSocketWritable(id: id)) }
                    continuation.resume()
                case .failed(let error):
                    continuation.resume(throwing: error)
                case .mustWait:
                    break
                }
            }
        } onCancel: {
            let sender = state.withLock { state -> BlockedSender? in
                guard let index = state.blockedSenders.firstIndex(where: { $0.id == waiterID }) else { return nil }
                return state.blockedSenders.remove(at: index)
            }
            sender?.continuation.resume(throwing: CancellationError())
        }
    }

    /// What ``trySend(_:)`` did.
    public enum TrySendResult: Sendable, Hashable {
        /// Queued for sending.
        case queued
        /// The send queue is full (``WebSocketConfiguration/sendQueueBytes``), or senders are
        /// waiting in ``send(_:)``: nothing was queued.
        case full
        /// The connection is closed or closing: nothing was queued.
        case closed
    }

    /// Queues `message` for sending without suspending, for a caller that must not wait on
    /// one peer (a server fanning out to many): when the queue has no room, nothing is queued
    /// and the caller decides (a real-time server closes a peer that cannot keep up).
    public func trySend(_ message: WebSocketMessage) -> TrySendResult {
        enum Outcome { case queued(notify: Bool), full, closed }
        let outcome = state.withLock { state -> Outcome in
            if Self.sendError(state) != nil { return .closed }
            guard state.blockedSenders.isEmpty, Self.hasRoom(for: message, in: state, limit: configuration.sendQueueBytes) else { return .full }
            return .queued(notify: Self.enqueue(message, in: &state))
        }
        switch outcome {
        case .queued(let notify):
            if notify { loop.post(.webSocketWritable(id: id)) }
            return .queued
        case .full: return .full
        case .closed: return .closed
        }
    }

    private static func sendError(_ state: State) -> (any Error)? {
        switch state.phase {
        case .closed(let close, _): return WebSocketError.closed(close)
        case .connecting, .open:
            if let request = state.closeRequest {
                return WebSocketError.closed(WebSocketClose(code: request.code, reason: request.reason, isLocal: true))
            }
            return nil
        }
    }

    private static func hasRoom(for message: WebSocketMessage, in state: State, limit: Int) -> Bool {
        state.outgoing.isEmpty || state.outgoingBytes + message.byteCount <= limit
    }

    /// Appends to the send queue; returns whether the service thread must be told.
    private static func enqueue(_ message: WebSocketMessage, in state: inout State) -> Bool {
        state.outgoing.append(message)
        state.outgoingBytes += message.byteCount
        guard !state.isWriteScheduled, case .open = state.phase else { return false }
        state.isWriteScheduled = true
        return true
    }

    // MARK: Closing

    /// Sends a close frame with `code` and `reason` after the messages already queued, waits for
    /// the peer's close frame (or the connection to drop) and returns how the connection ended.
    /// Senders still waiting for room fail with `WebSocketError.closed`. Idempotent: later calls
    /// wait for the same close.
    @discardableResult
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async -> WebSocketClose {
        if let notify = requestClose(code: code, reason: reason), notify {
            loop.post(.webSocketWritable(id: id))
        }
        return await closed
    }

    /// Asks for the close handshake (after the messages already queued) without waiting for it;
    /// ``closed`` tells how it ended. Later calls, and ``close(code:reason:)`` after it, change
    /// nothing.
    public func closeSoon(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        if let notify = requestClose(code: code, reason: reason), notify {
            loop.post(.webSocketWritable(id: id))
        }
    }

    /// How the connection ended, waiting until it has.
    public var closed: WebSocketClose {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketClose, Never>) in
                let close = state.withLock { state -> WebSocketClose? in
                    if case .closed(let close, _) = state.phase { return close }
                    state.closeWaiters.append(continuation)
                    return nil
                }
                if let close { continuation.resume(returning: close) }
            }
        }
    }

    /// How the connection ended, or `nil` while it is open.
    public var closeStatus: WebSocketClose? {
        state.withLock { state in
            if case .closed(let close, _) = state.phase { return close }
            return nil
        }
    }

    /// Records a close request. Returns `nil` when one was already made (or the connection is
    /// closed), else whether the service thread must be told.
    private func requestClose(code: WebSocketCloseCode, reason: String) -> Bool? {
        let (notify, senders) = state.withLock { state -> (Bool?, [BlockedSender]) in
            guard state.closeRequest == nil else { return (nil, []) }
            if case .closed = state.phase { return (nil, []) }
            state.closeRequest = (code, Self.truncated(reason, toUTF8Bytes: 123))
            let senders = state.blockedSenders
            state.blockedSenders = []
            guard case .open = state.phase, !state.isWriteScheduled else { return (false, senders) }
            state.isWriteScheduled = true
            return (true, senders)
        }
        let error = WebSocketError.closed(WebSocketClose(code: code, reason: reason, isLocal: true))
        for sender in senders { sender.continuation.resume(throwing: error) }
        return notify
    }

    /// `text` cut at a character boundary to fit in `limit` UTF-8 bytes (a close frame's
    /// payload is at most 125 bytes, two of them the code).
    static func truncated(_ text: String, toUTF8Bytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }

    // MARK: Introspection for tests

    /// How many `send` calls are suspended waiting for room.
    package var blockedSenderCount: Int { state.withLock { $0.blockedSenders.count } }
    /// How many bytes wait in the send queue.
    package var queuedSendBytes: Int { state.withLock { $0.outgoingBytes } }
    /// Whether reading from the socket is paused because the reader is behind.
    package var isReceivingPaused: Bool { state.withLock { $0.isReceivingPaused } }
    /// How many pongs answered this side's keep-alive pings.
    package var pongCount: Int { pongs.load(ordering: .relaxed) }

    func loopDidReceivePong() { pongs.add(1, ordering: .relaxed) }

    // MARK: Service-thread side

    /// Client side: suspends until the opening handshake completes or fails.
    func waitUntilOpen() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result = state.withLock { state -> Result<Void, any Error>? in
                switch state.phase {
                case .connecting:
                    state.phase = .connecting(continuation)
                    return nil
                case .open: return .success(())
                case .closed(let close, _): return .failure(WebSocketError.connectionFailed(close.reason))
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// The handshake completed. Returns whether messages were queued meanwhile.
    func loopDidOpen(subprotocol: String?) -> Bool {
        let (waiter, hasWork) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, Bool) in
            guard case .connecting(let waiter) = state.phase else { return (nil, false) }
            state.phase = .open
            state.subprotocol = subprotocol
            let hasWork = !state.outgoing.isEmpty || state.closeRequest != nil
            state.isWriteScheduled = hasWork
            return (waiter, hasWork)
        }
        waiter?.resume()
        return hasWork
    }

    /// The next message to write, admitting blocked senders into the freed room. `nil` when
    /// the queue is empty, after which the next `send` wakes the service thread again.
    func loopTakeOutgoing() -> WebSocketMessage? {
        let (message, admitted) = state.withLock { state -> (WebSocketMessage?, [CheckedContinuation<Void, any Error>]) in
            guard let message = state.outgoing.popFirst() else {
                state.isWriteScheduled = false
                return (nil, [])
            }
            state.outgoingBytes -= message.byteCount
            var admitted: [CheckedContinuation<Void, any Error>] = []
            while let next = state.blockedSenders.first,
                  Self.hasRoom(for: next.message, in: state, limit: configuration.sendQueueBytes) {
                state.blockedSenders.removeFirst()
                state.outgoing.append(next.message)
                state.outgoingBytes += next.message.byteCount
                admitted.append(next.continuation)
            }
            return (message, admitted)
        }
        for continuation in admitted { continuation.resume() }
        return message
    }

    /// The close the application asked for, once the send queue has drained.
    func loopPendingClose() -> (code: WebSocketCloseCode, reason: String)? {
        state.withLock { state in state.outgoing.isEmpty ? state.closeRequest : nil }
    }

    /// Asks for a close on the application's behalf (server shutdown). Returns whether a close
    /// frame is now pending.
    func loopRequestClose(code: WebSocketCloseCode, reason: String) -> Bool {
        requestClose(code: code, reason: reason) != nil
    }

    /// Hands a received message to the reader. Returns whether reading must pause because the
    /// reader is `receiveQueueMessages` behind.
    func loopDeliver(_ message: WebSocketMessage) -> Bool {
        let limit = configuration.receiveQueueMessages
        let (receiver, sink, pause) = state.withLock { state -> (CheckedContinuation<WebSocketMessage?, any Error>?, (@Sendable (WebSocketMessage) -> Void)?, Bool) in
            if let sink = state.sink { return (nil, sink, false) }
            if let receiver = state.receiver {
                state.receiver = nil
                return (receiver.continuation, nil, false)
            }
            state.incoming.append(message)
            if state.incoming.count >= limit, !state.isReceivingPaused {
                state.isReceivingPaused = true
                return (nil, nil, true)
            }
            return (nil, nil, false)
        }
        sink?(message)
        receiver?.resume(returning: message)
        return pause
    }

    /// The connection has ended (or never opened). Wakes everyone waiting on it.
    func loopDidClose(_ close: WebSocketClose, endsCleanly: Bool) {
        typealias Waiters = (
            opener: CheckedContinuation<Void, any Error>?,
            receiver: (id: UInt64, continuation: CheckedContinuation<WebSocketMessage?, any Error>)?,
            senders: [BlockedSender],
            closeWaiters: [CheckedContinuation<WebSocketClose, Never>]
        )
        let (opener, receiver, senders, closeWaiters) = state.withLock { state -> Waiters in
            var opener: CheckedContinuation<Void, any Error>?
            switch state.phase {
            case .closed: return (nil, nil, [], [])
            case .connecting(let waiter): opener = waiter
            case .open: break
            }
            state.phase = .closed(close, endsCleanly: endsCleanly)
            _ = state.outgoing.removeAll()
            state.outgoingBytes = 0
            let receiver = state.receiver
            state.receiver = nil
            let senders = state.blockedSenders
            state.blockedSenders = []
            let closeWaiters = state.closeWaiters
            state.closeWaiters = []
            return (opener, receiver, senders, closeWaiters)
        }
        opener?.resume(throwing: WebSocketError.connectionFailed(close.reason))
        if let receiver {
            if endsCleanly {
                receiver.continuation.resume(returning: nil)
            } else {
                receiver.continuation.resume(throwing: WebSocketError.closed(close))
            }
        }
        for sender in senders { sender.continuation.resume(throwing: WebSocketError.closed(close)) }
        for waiter in closeWaiters { waiter.resume(returning: close) }
    }
}
