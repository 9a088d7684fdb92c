import Foundation
import Glibc

/// A blocking TCP client for what URLSession cannot show: several requests on one connection,
/// a WebSocket peer that never answers pings, one that vanishes without a close frame. Its
/// blocking calls run on their own thread (`blocking`), never on the concurrency pool.
final class RawSocket: @unchecked Sendable {
    private let descriptor: Int32
    private var buffered: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port`; reads time out after `timeoutSeconds`.
    init(port: Int, timeoutSeconds: Int = 30) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect: \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: \(errno)") }
            offset += sent
        }
    }

    /// Reads until `delimiter` and returns everything before and including it.
    func read(through delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let range = firstRange(of: delimiter) {
                let result = Array(buffered[..<range.upperBound])
                buffered.removeFirst(range.upperBound)
                return result
            }
            try fill()
        }
    }

    /// Reads exactly `count` bytes.
    func read(count: Int) throws -> [UInt8] {
        while buffered.count < count { try fill() }
        let result = Array(buffered[..<count])
        buffered.removeFirst(count)
        return result
    }

    /// Whether the peer has closed the connection (reads until end of stream, discarding data).
    func readUntilClosed() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Reads one HTTP/1.1 response with a Content-Length body (or none, for `HEAD`).
    func readResponse(hasBody: Bool = true) throws -> (status: Int, head: String, body: [UInt8]) {
        let head = String(decoding: try read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
        let statusText = head.split(separator: " ").dropFirst().first ?? ""
        var length = 0
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let body = hasBody ? try read(count: length) : []
        return (Int(statusText) ?? 0, head, body)
    }

    /// Closes with a TCP reset (SO_LINGER 0): the peer sees the connection vanish.
    func abort() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { throw Failure(description: count == 0 ? "connection closed" : "recv: \(errno)") }
        buffered.append(contentsOf: chunk[..<count])
    }

    private func firstRange(of delimiter: [UInt8]) -> Range<Int>? {
        guard buffered.count >= delimiter.count else { return nil }
        for start in 0...(buffered.count - delimiter.count) where buffered[start..<(start + delimiter.count)].elementsEqual(delimiter) {
            return start..<(start + delimiter.count)
        }
        return nil
    }

    /// Performs the WebSocket opening handshake by hand and returns the response head.
    func upgradeToWebSocket(path: String) throws -> String {
        try send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        return String(decoding: try read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
    }
}

/// Runs blocking work on a thread of its own and awaits its result.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}
