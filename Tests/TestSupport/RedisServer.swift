import Foundation
import Glibc

/// A private `redis-server` for one test: its own loopback port and directory, AOF on with
/// `appendfsync always` (as durable as the SQLite store), stopped by its pid when the value goes
/// away or ``stop()`` is called.
public final class RedisServer {
    /// Its URL, `redis://127.0.0.1:PORT`.
    public let url: String
    /// Its port.
    public let port: Int
    /// Its directory (the AOF files, the log).
    public let directory: TemporaryDirectory
    private var process: ChildProcess?

    /// Why a server could not be started.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private let executable: String

    /// Starts one and waits until it answers `PING` (up to 10 s).
    public init() throws {
        guard let executable = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw StartFailure(description: "redis-server is not installed (scripts/bootstrap installs it)")
        }
        self.executable = executable
        directory = try TemporaryDirectory()
        var lastProblem = ""
        for _ in 0..<5 {
            let port = try Self.freeLoopbackPort()
            let process = try Self.launch(executable, port: port, directory: directory)
            if Self.answers(port: port, until: .now + .seconds(10)) {
                self.port = port
                url = "redis://127.0.0.1:\(port)"
                self.process = process
                return
            }
            _ = process.kill()
            lastProblem = (try? String(contentsOfFile: directory.file("redis.log"), encoding: .utf8)).map { String($0.suffix(400)) } ?? "no log"
        }
        throw StartFailure(description: "redis-server did not start: \(lastProblem)")
    }

    deinit { stop() }

    private static func launch(_ executable: String, port: Int, directory: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess(executable: executable, arguments: [
            "--port", "\(port)", "--bind", "127.0.0.1", "--dir", directory.url.path, "--appendonly", "yes", "--appendfsync", "always",
            "--save", "", "--daemonize", "no", "--logfile", directory.file("redis.log"), "--protected-mode", "yes",
        ])
    }

    /// Starts it again on the same port and directory (after ``stop()``, or a kill), reading
    /// back its append-only file; waits until it answers `PING`.
    public func restart() throws {
        stop()
        let process = try Self.launch(executable, port: port, directory: directory)
        guard Self.answers(port: port, until: .now + .seconds(10)) else {
            _ = process.kill()
            throw StartFailure(description: "redis-server did not start again on port \(port)")
        }
        self.process = process
    }

    /// Its pid while running.
    public var pid: pid_t? { process?.pid }

    /// Stops it (SIGKILL by pid) and waits for it.
    public func stop() {
        if let process { _ = process.kill() }
        process = nil
    }

    /// A port on 127.0.0.1 that nothing listened on a moment ago.
    public static func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a server on `port` answers `PING` before the deadline.
    static func answers(port: Int, until deadline: ContinuousClock.Instant) -> Bool {
        while ContinuousClock.now < deadline {
            if ping(port: port) { return true }
            usleep(20_000)
        }
        return false
    }

    private static func ping(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("PING\r\n".utf8)
        guard write(descriptor, request, request.count) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &buffer, buffer.count)
        return count >= 5 && Array(buffer.prefix(5)) == Array("+PONG".utf8)
    }
}
