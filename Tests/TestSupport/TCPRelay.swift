import Foundation
import Glibc
import Synchronization

/// A TCP relay on 127.0.0.1 to another loopback port, for tests that need a connection to
/// break: ``cut(for:)`` resets every connection through it and refuses new ones for a while
/// (each accepted and closed at once), then relays again. Threads of its own; ``stop()`` (or
/// the value going away) closes everything.
public final class TCPRelay: Sendable {
    /// Its port.
    public let port: Int
    private let target: Int
    private let listener: Int32
    private struct State {
        var connections: [Int32] = []
        var refusingUntil: ContinuousClock.Instant?
        var isStopped = false
        var cuts = 0
    }
    private let state = Mutex(State())

    /// A relay to `targetPort`, listening at once.
    public init(to targetPort: Int) throws {
        target = targetPort
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// How many cuts were made.
    public var cuts: Int { state.withLock { $0.cuts } }

    /// Resets every relayed connection and refuses new ones for `duration`.
    public func cut(for duration: Duration) {
        let open = state.withLock { state -> [Int32] in
            state.refusingUntil = .now + duration
            state.cuts += 1
            defer { state.connections = [] }
            return state.connections
        }
        for descriptor in open { Self.reset(descriptor) }
    }

    /// Closes the listener and every connection.
    public func stop() {
        let open = state.withLock { state -> [Int32] in
            guard !state.isStopped else { return [] }
            state.isStopped = true
            defer { state.connections = [] }
            return state.connections
        }
        for descriptor in open { Self.reset(descriptor) }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    /// Closes with a reset (SO_LINGER 0), as a broken link or a killed peer would.
    private static func reset(_ descriptor: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if state.withLock({ $0.isStopped }) { return }
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let refusing = state.withLock { state -> Bool in
                if let until = state.refusingUntil, ContinuousClock.now < until { return true }
                state.refusingUntil = nil
                return false
            }
            if refusing {
                Self.reset(client)
                close(client)
                continue
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard upstream >= 0, connected == 0 else {
                close(client)
                if upstream >= 0 { close(upstream) }
                continue
            }
            state.withLock { $0.connections += [client, upstream] }
            let thread = Thread { [self] in pump(client, upstream) }
            thread.start()
        }
    }

    /// Copies both ways until either side ends, then closes both.
    private func pump(_ a: Int32, _ b: Int32) {
        defer {
            state.withLock { state in state.connections.removeAll { $0 == a || $0 == b } }
            close(a)
            close(b)
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptors = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&descriptors, 2, 200) >= 0 else { return }
            if state.withLock({ $0.isStopped }) { return }
            for index in 0..<2 where descriptors[index].revents != 0 {
                let from = descriptors[index].fd
                let to = descriptors[1 - index].fd
                let count = read(from, &buffer, buffer.count)
                guard count > 0 else { return }
                var sent = 0
                while sent < count {
                    let written = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, count - sent) }
                    guard written > 0 else { return }
                    sent += written
                }
            }
        }
    }
}
