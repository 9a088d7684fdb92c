import Foundation
import Glibc

/// A child process whose stdout the test reads through a pipe; killed and reaped by its pid when
/// the value goes, if the test has not done so, so that a failing test leaves nothing running.
public final class ChildProcess {
    /// Where the child's stderr goes.
    public enum StandardError: Sendable {
        /// The test's own stderr.
        case inherited
        /// The stdout pipe, interleaved with stdout.
        case merged
        /// This file (created or truncated), for what is too much to keep in a pipe.
        case file(String)
    }

    public let pid: pid_t
    private let output: Int32
    private var hasEnded = false

    public init(executable: String, arguments: [String], standardError: StandardError = .inherited) throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Other tests may spawn processes too: neither end leaks into them (dup2 gives the child
        // its stdout without the flag).
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptors[1], 1)
        switch standardError {
        case .inherited: break
        case .merged: posix_spawn_file_actions_adddup2(&actions, descriptors[1], 2)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        // The test's threads (the cooperative pool's) block most signals, and a spawned process
        // inherits the mask: the child starts as a shell would start it, with none blocked and
        // the termination signals at their default action, so that SIGTERM and SIGHUP reach it
        // (and whatever it forks, such as a tmux server).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        for number in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE] { sigaddset(&signals, number) }
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        close(descriptors[1])
        guard result == 0 else {
            close(descriptors[0])
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
        }
        self.pid = pid
        output = descriptors[0]
    }

    deinit {
        if !hasEnded { _ = kill() }
        close(output)
    }

    /// The executable `name` beside the running test binary (SwiftPM builds every product into
    /// the same directory), when it is there.
    public static func besideTestBinary(_ name: String) -> String? {
        guard let binary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let path = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// What the child writes until `deadline`, or until what was read so far satisfies `isEnough`.
    public func read(until deadline: ContinuousClock.Instant, isEnough: ([UInt8]) -> Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        while !isEnough(bytes) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            guard let chunk = readChunk(), !chunk.isEmpty else { break }
            bytes += chunk
        }
        return bytes
    }

    /// Everything left in the pipe, once the child has ended.
    public func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = readChunk(), !chunk.isEmpty { bytes += chunk }
        return bytes
    }

    /// Sends SIGKILL and reaps the child; the signal that ended it, or 0 when it exited.
    public func kill() -> Int32 {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        hasEnded = true
        return status & 0x7F
    }

    /// Sends SIGTERM and reaps the child, or kills it when it has not ended within `grace`; its
    /// exit status as a shell gives it (128 + the signal when a signal ended it).
    public func terminate(grace: Duration = .seconds(5)) -> Int32 {
        guard !hasEnded else { return 0 }
        _ = Glibc.kill(pid, SIGTERM)
        return waitForExit(until: .now + grace) ?? 128 + kill()
    }

    /// Waits until the child ends on its own, or until `deadline`; its exit status as a shell
    /// gives it (128 + the signal when a signal ended it), or `nil` when it is still running.
    public func waitForExit(until deadline: ContinuousClock.Instant) -> Int32? {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                hasEnded = true
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
            }
            if result < 0, errno != EINTR { return nil }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(20_000)
        }
    }

    private func readChunk() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(output, &buffer, buffer.count)
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno != EINTR { return nil }
        }
    }
}
