import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A server on a loopback socket that answers every connection with what a hostile or broken
/// server sends: an endless body, a body dripped a byte at a time, or headers and then silence.
/// Every behaviour is bounded (in bytes and in time) and ends when the client goes away or the
/// server is stopped.
final class RawHTTPServer: Sendable {
    enum Behaviour: Sendable {
        /// `200` with no length, then 64 KiB blocks, up to `limit` bytes.
        case endless(limit: Int)
        /// `200` with a length of `length`, then one byte every `interval`.
        case drip(length: Int, interval: Duration)
        /// `200` with a length, then nothing, for up to `hold`.
        case silent(hold: Duration)
    }

    let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    private let sentBytes = Atomic(0)
    private let isStopped = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.listener = socket
        self.port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    /// Bytes of body written so far.
    var bodyBytesSent: Int { sentBytes.load(ordering: .relaxed) }

    /// Stops accepting and ends the connection being served; waits for the serving thread.
    func stop() {
        isStopped.store(true, ordering: .releasing)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        done.wait()
    }

    private func serve() {
        defer { done.signal() }
        while !isStopped.load(ordering: .acquiring) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var noSignal: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_KEEPALIVE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            answer(connection)
            close(connection)
        }
    }

    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in send(connection, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) == buffer.count }
    }

    private func answer(_ connection: Int32) {
        var request = [UInt8](repeating: 0, count: 4096)
        _ = recv(connection, &request, request.count, 0)
        let start = ContinuousClock.now
        switch behaviour {
        case .endless(let limit):
            guard write(connection, Array("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.apple.mpegurl\r\nConnection: close\r\n\r\n#EXTM3U\n".utf8)) else { return }
            let block = [UInt8](repeating: UInt8(ascii: "#"), count: 64 << 10)
            while sentBytes.load(ordering: .relaxed) < limit, !isStopped.load(ordering: .acquiring) {
                guard write(connection, block) else { return }
                sentBytes.add(block.count, ordering: .relaxed)
            }
        case .drip(let length, let interval):
            guard write(connection, Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)) else { return }
            for _ in 0..<length where !isStopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
                guard write(connection, [UInt8(ascii: "#")]) else { return }
                sentBytes.add(1, ordering: .relaxed)
            }
        case .silent(let hold):
            guard write(connection, Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n".utf8)) else { return }
            while start.duration(to: .now) < hold, !isStopped.load(ordering: .acquiring) {
                var byte: UInt8 = 0
                var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 50) > 0, recv(connection, &byte, 1, 0) <= 0 { return }
            }
        }
    }
}
