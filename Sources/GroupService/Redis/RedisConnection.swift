import CHiredis
import Foundation

/// One blocking connection to Redis (hiredis), used by one thread at a time: commands are sent
/// as argument vectors (binary safe), several at once when pipelined. A call that fails on the
/// connection (a reset, a time-out) drops it and throws ``RedisError/connectionLost(endpoint:message:)``;
/// the next call connects again. Unchecked `Sendable`: it is only ever used under the store's lock or
/// by the one thread that reads the doorbells.
final class RedisConnection: @unchecked Sendable {
    let endpoint: RedisEndpoint
    private let timeout: Duration
    private var context: UnsafeMutablePointer<redisContext>?

    /// A connection, made at once.
    init(endpoint: RedisEndpoint, timeout: Duration = .seconds(2)) throws(RedisError) {
        self.endpoint = endpoint
        self.timeout = timeout
        try connect()
    }

    deinit { if let context { redisFree(context) } }

    /// Whether a connection is open now.
    var isConnected: Bool { context != nil }

    /// The socket, while connected (for a reader that polls it).
    var fileDescriptor: Int32? { context.map { $0.pointee.fd } }

    private static func timeval(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    /// Connects if not connected.
    func connect() throws(RedisError) {
        guard context == nil else { return }
        guard let made = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), Self.timeval(timeout)) else {
            throw .cannotConnect(endpoint: endpoint.description, message: "out of memory")
        }
        if made.pointee.err != 0 {
            let message = Self.errorText(made)
            redisFree(made)
            throw .cannotConnect(endpoint: endpoint.description, message: message)
        }
        _ = redisSetTimeout(made, Self.timeval(timeout))
        _ = redisEnableKeepAlive(made)
        context = made
    }

    /// Drops the connection (the next call makes a new one).
    func disconnect() {
        if let context { redisFree(context) }
        context = nil
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Sends one command and waits for its reply. An error reply is returned, not thrown.
    func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try pipeline([arguments])[0]
    }

    /// Sends one command of text arguments.
    func command(_ arguments: String...) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Sends the commands together, then reads their replies in order.
    func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        try connect()
        guard let context else { throw .cannotConnect(endpoint: endpoint.description, message: "not connected") }
        for arguments in commands {
            try append(arguments, to: context)
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw lost(context) }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            replies.append(RedisReply(reply))
            freeReplyObject(raw)
        }
        return replies
    }

    /// Runs the commands as one transaction (`MULTI` … `EXEC`, sent together): Redis runs them
    /// with nothing of another client's in between. Their replies, in order.
    func transaction(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        let replies = try pipeline([[Array("MULTI".utf8)]] + commands + [[Array("EXEC".utf8)]])
        guard case .array(let results) = replies[replies.count - 1], results.count == commands.count else {
            throw .unexpectedReply(command: "EXEC", reply: "\(replies.last ?? .null)")
        }
        return results
    }

    /// Queues a command on the context's output buffer (written by the next read or flush).
    func append(_ arguments: [[UInt8]], to context: UnsafeMutablePointer<redisContext>) throws(RedisError) {
        let status = Self.withArgv(arguments) { count, pointers, lengths in
            redisAppendCommandArgv(context, count, pointers, lengths)
        }
        guard status == REDIS_OK else { throw lost(context) }
    }

    /// The connection's failure: it is dropped.
    func lost(_ context: UnsafeMutablePointer<redisContext>) -> RedisError {
        let message = context.pointee.err != 0 ? Self.errorText(context) : "no reply"
        disconnect()
        return .connectionLost(endpoint: endpoint.description, message: message)
    }

    /// The context, connecting first (for a caller that drives the socket itself).
    func openContext() throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        try connect()
        guard let context else { throw .cannotConnect(endpoint: endpoint.description, message: "not connected") }
        return context
    }

    static func withArgv<Result>(
        _ arguments: [[UInt8]], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        // One buffer holds every argument; the pointers point into it.
        var lengths = arguments.map(\.count)
        var joined: [UInt8] = []
        joined.reserveCapacity(lengths.reduce(0, +) + 1)
        for argument in arguments { joined += argument }
        joined.append(0)
        return joined.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            var pointers: [UnsafePointer<CChar>?] = lengths.map { length in
                defer { offset += length }
                return base + offset
            }
            return pointers.withUnsafeMutableBufferPointer { pointerBuffer in
                lengths.withUnsafeMutableBufferPointer { lengthBuffer in
                    body(Int32(arguments.count), pointerBuffer.baseAddress!, lengthBuffer.baseAddress!)
                }
            }
        }
    }
}

extension RedisReply {
    /// The reply, or the error it is, thrown.
    func checked(_ command: String) throws(RedisError) -> RedisReply {
        if case .error(let message) = self { throw .reply(command: command, message: message) }
        return self
    }
}
