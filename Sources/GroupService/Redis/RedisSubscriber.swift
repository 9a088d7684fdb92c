import CHiredis
import Foundation
import Synchronization

/// The connection that carries the doorbells, read on its own thread: it subscribes to the
/// channels it is asked for, turns each message into a ``SharedStoreNotice``, and when the
/// connection breaks it connects again (every 100 ms until it can), subscribes to every channel
/// again and says ``SharedStoreNotice/reconnected`` so that the server catches up from the logs.
///
/// The thread waits in `poll` on the socket and on a pipe that ``subscribe(_:)`` and
/// ``close()`` write a byte to; the lock guards only the wanted channels and the flag.
final class RedisSubscriber: Sendable {
    let notices: AsyncStream<SharedStoreNotice>
    private let continuation: AsyncStream<SharedStoreNotice>.Continuation
    private let endpoint: RedisEndpoint
    private struct Wanted {
        /// Channel → session.
        var channels: [String: String] = [:]
        /// Moves with each change of ``channels``, so that the reader works out what to
        /// subscribe only when there is something new.
        var generation = 0
        var isClosed = false
        var isStarted = false
    }
    private let wanted = Mutex(Wanted())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(endpoint: RedisEndpoint) {
        self.endpoint = endpoint
        (notices, continuation) = AsyncStream.makeStream(of: SharedStoreNotice.self, bufferingPolicy: .unbounded)
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        if wakeRead >= 0 { Glibc.close(wakeRead) }
        if wakeWrite >= 0 { Glibc.close(wakeWrite) }
    }

    /// Subscribes to exactly these channels (channel → session), starting the reader the first time.
    func subscribe(_ channels: [String: String]) {
        let start = wanted.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.channels = channels
            state.generation += 1
            defer { state.isStarted = true }
            return !state.isStarted
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "interlude-redis-doorbells"
            thread.start()
        }
        wake()
    }

    func close() {
        wanted.withLock { $0.isClosed = true }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        var connection: RedisConnection?
        var subscribed = Set<String>()
        var pending = Set<String>()
        /// The generation of the wanted channels last subscribed on this connection.
        var applied = -1
        var everConnected = false
        defer {
            connection?.disconnect()
            continuation.finish()
        }
        while true {
            let (channels, generation, isClosed) = wanted.withLock { ($0.channels, $0.generation, $0.isClosed) }
            if isClosed { return }
            if connection?.isConnected != true {
                do {
                    let made = try RedisConnection(endpoint: endpoint, timeout: .seconds(1))
                    connection = made
                    subscribed = []
                    pending = []
                    applied = -1
                    if everConnected { continuation.yield(.reconnected) }
                    everConnected = true
                } catch {
                    connection = nil
                    waitForWake(milliseconds: 100)
                    continue
                }
            }
            guard let live = connection, let context = try? live.openContext() else { continue }
            do {
                if generation != applied {
                    let add = Set(channels.keys).subtracting(subscribed).subtracting(pending)
                    let remove = subscribed.subtracting(channels.keys)
                    if !add.isEmpty { try live.append([Array("SUBSCRIBE".utf8)] + add.sorted().map { Array($0.utf8) }, to: context) }
                    if !remove.isEmpty { try live.append([Array("UNSUBSCRIBE".utf8)] + remove.sorted().map { Array($0.utf8) }, to: context) }
                    pending.formUnion(add)
                    subscribed.subtract(remove)
                    applied = generation
                }
                try flush(live, context)
                try read(live, context, channels: channels, subscribed: &subscribed, pending: &pending)
            } catch {
                // The connection is gone (`lost` dropped it); the loop connects again.
                connection = nil
            }
        }
    }

    private func flush(_ connection: RedisConnection, _ context: UnsafeMutablePointer<redisContext>) throws(RedisError) {
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw connection.lost(context) }
        }
    }

    /// Waits up to a second for the socket or a wake, then reads whatever replies are whole.
    private func read(
        _ connection: RedisConnection, _ context: UnsafeMutablePointer<redisContext>, channels: [String: String],
        subscribed: inout Set<String>, pending: inout Set<String>
    ) throws(RedisError) {
        var fds = [pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, 1_000)
        if ready > 0, fds[1].revents != 0 { drainWake() }
        guard ready > 0, fds[0].revents != 0 else { return }
        guard redisBufferRead(context) == REDIS_OK else { throw connection.lost(context) }
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw connection.lost(context) }
            guard let raw else { return }
            let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self))
            freeReplyObject(raw)
            let parts = reply.elements
            guard parts.count == 3, let kind = parts[0].text, let channel = parts[1].text else { continue }
            switch kind {
            case "subscribe":
                pending.remove(channel)
                subscribed.insert(channel)
                if let session = channels[channel] { continuation.yield(.watching(session)) }
            case "message":
                guard let bytes = parts[2].bytes else { continue }
                do {
                    continuation.yield(.changed(try SessionChange(doorbell: bytes)))
                } catch {
                    continuation.yield(.unreadable("\(channel): \(error)"))
                }
            default:
                continue
            }
        }
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func waitForWake(milliseconds: Int32) {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 1, milliseconds) > 0 { drainWake() }
    }
}
