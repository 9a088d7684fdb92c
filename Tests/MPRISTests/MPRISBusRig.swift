import Foundation
import Glibc
import TestSupport

/// A private session bus (`dbus-daemon --session --nofork`, ended by its pid when the rig goes)
/// and the command-line clients the tests drive the player with over it, each run with
/// `DBUS_SESSION_BUS_ADDRESS` set to the private bus.
final class MPRISBusRig: @unchecked Sendable {
    let address: String
    private let daemon: ChildProcess

    init() throws {
        let executable = try Self.tool("dbus-daemon")
        daemon = try ChildProcess(executable: executable, arguments: ["--session", "--nofork", "--print-address=1"],
                              // It complains that it may not raise its file limit; nothing the tests need.
                              standardError: .file("/dev/null"))
        let output = daemon.read(until: .now + .seconds(10)) { $0.contains(UInt8(ascii: "\n")) }
        address = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw RigError(message: "dbus-daemon printed no address") }
    }

    deinit { _ = daemon.terminate(grace: .seconds(2)) }

    struct RigError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The path of `name` on PATH; the tests need it (`scripts/bootstrap` installs it).
    static func tool(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw RigError(message: "\(name) is not on PATH: run scripts/bootstrap, which installs it (packages dbus and playerctl)")
    }

    /// Watches the private bus with `dbus-monitor` for the signals that `rule` matches (a D-Bus
    /// match rule); ended by its pid when the value goes.
    final class Monitor: @unchecked Sendable {
        private let child: ChildProcess
        private let lock = NSLock()
        private var output: [UInt8] = []

        init(address: String, rule: String) throws {
            child = try ChildProcess(executable: try MPRISBusRig.tool("dbus-monitor"), arguments: ["--address", address, rule],
                                     standardError: .merged)
        }

        deinit { _ = child.kill() }

        /// Everything printed so far, once it contains `text` or `timeout` has passed.
        func wait(for text: String, timeout: Duration = .seconds(30)) async throws -> String {
            try await wait(timeout: timeout) { $0.contains(text) }
        }

        /// Everything printed so far, once it satisfies `isDone` or `timeout` has passed.
        func wait(timeout: Duration = .seconds(30), until isDone: @escaping @Sendable (String) -> Bool) async throws -> String {
            try await MPRISBusRig.offPool { [self] in
                lock.lock()
                defer { lock.unlock() }
                if !isDone(String(decoding: output, as: UTF8.self)) {
                    let seen = output
                    output += child.read(until: .now + timeout) { isDone(String(decoding: seen + $0, as: UTF8.self)) }
                }
                return String(decoding: output, as: UTF8.self)
            }
        }
    }

    /// A monitor of the private bus for `rule`.
    func monitor(_ rule: String) throws -> Monitor { try Monitor(address: address, rule: rule) }

    /// Runs `playerctl arguments` to its end (within 10 s); its exit status and its output,
    /// trimmed. Off the cooperative pool: the player's tasks keep running while it waits.
    @discardableResult
    func playerctl(_ arguments: String...) async throws -> (status: Int32, output: String) {
        try await run("playerctl", arguments, timeout: .seconds(10))
    }

    /// `playerctl -p interlude arguments` until its output satisfies `isDone` or `timeout`
    /// passes; the last output.
    func poll(_ arguments: [String], timeout: Duration = .seconds(30), until isDone: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (_, output) = try await run("playerctl", ["-p", "interlude"] + arguments, timeout: .seconds(10))
            if isDone(output) || ContinuousClock.now >= deadline { return output }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs `tool` to its end, killing it after `timeout`; its exit status and output, trimmed.
    func run(_ tool: String, _ arguments: [String], timeout: Duration) async throws -> (status: Int32, output: String) {
        let path = try Self.tool(tool)
        let address = self.address
        return try await Self.offPool {
            let child = try ChildProcess(executable: "/usr/bin/env", arguments: ["DBUS_SESSION_BUS_ADDRESS=\(address)", path] + arguments,
                                         standardError: .merged)
            let deadline = ContinuousClock.now + timeout
            let output = child.read(until: deadline) { _ in false }
            let status = child.waitForExit(until: deadline) ?? 128 + child.kill()
            return (status, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Runs `body` on a thread of its own.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
