/// Per-connection WebSocket limits and keep-alive, for both the server and the client.
public struct WebSocketConfiguration: Sendable, Equatable {
    /// The largest message accepted, after reassembly. A larger one closes the connection with
    /// 1009 (message too big) as soon as its size is exceeded, without buffering the rest.
    public var maximumMessageBytes: Int
    /// The outgoing queue's bound in bytes: `send` suspends while the queued messages would
    /// exceed it. A single larger message is accepted when the queue is empty.
    public var sendQueueBytes: Int
    /// How many received messages may wait for the reader before the connection stops reading
    /// from the socket (TCP flow control then slows the peer down). Reading resumes when the
    /// reader has taken half of them.
    public var receiveQueueMessages: Int
    /// How often to send a ping when the connection is otherwise quiet; `nil` sends none.
    public var pingInterval: Duration?
    /// How long to wait for the pong before the peer is considered dead and the connection is
    /// dropped (observed as 1006, "no pong").
    public var pongTimeout: Duration

    /// The defaults: 16 MiB messages, a 1 MiB send queue, 64 queued received messages, a ping
    /// every 30 seconds answered within 10.
    public init(
        maximumMessageBytes: Int = 16 << 20,
        sendQueueBytes: Int = 1 << 20,
        receiveQueueMessages: Int = 64,
        pingInterval: Duration? = .seconds(30),
        pongTimeout: Duration = .seconds(10)
    ) {
        precondition(maximumMessageBytes > 0 && sendQueueBytes > 0 && receiveQueueMessages > 0)
        self.maximumMessageBytes = maximumMessageBytes
        self.sendQueueBytes = sendQueueBytes
        self.receiveQueueMessages = receiveQueueMessages
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
    }
}
