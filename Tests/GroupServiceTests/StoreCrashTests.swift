import Foundation
import Glibc
import GroupService
import Testing
import TestSupport

/// The store's promise under `kill -9`: a commit that returned is on disk, and the file is sound.
@Suite("Session store crash")
struct StoreCrashTests {
    @Test("every version acknowledged before a SIGKILL is there after reopening, and the file passes its integrity check")
    func killedWriter() throws {
        let writer = try #require(Self.writerPath, "store-crash-writer is built beside the test binary by swift build")
        let directory = try TemporaryDirectory()
        let path = directory.file("crash.sqlite")
        let seed: UInt64 = 0xC2A5
        var random = SeededGenerator(seed: seed)
        var stored: UInt64 = 0
        for round in 1...5 {
            let child = try ChildProcess(executable: writer, arguments: [path])
            // The first acknowledgement shows the store open and writing; the kill comes within 0.5 s of it.
            var output = child.read(until: .now + .seconds(10)) { $0.contains(UInt8(ascii: "\n")) }
            try #require(output.contains(UInt8(ascii: "\n")), "round \(round): the writer acknowledged nothing within 10 s")
            output += child.read(until: .now + .milliseconds(Int.random(in: 0..<500, using: &random))) { _ in false }
            let signal = child.kill()
            output += child.readToEnd()
            #expect(signal == SIGKILL, "round \(round): the writer ended otherwise than by the kill (seed \(seed))")

            let acknowledged = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { UInt64($0) }
            #expect(acknowledged.first == stored + 1, "round \(round): the writer continues from the stored version")
            #expect(acknowledged == Array((stored + 1)...(acknowledged.last ?? stored)), "round \(round)")

            let store = try SQLiteSessionStore(path: path)
            #expect(try store.integrityProblems() == [], "round \(round)")
            let session = try #require(try store.loadAll().first { $0.record.id == "crash" })
            stored = session.record.version
            let last = try #require(acknowledged.last)
            #expect(stored >= last, "round \(round): acknowledged \(last), stored \(stored) (seed \(seed))")
            let versions = try store.events(session: "crash", after: 0, limit: .max).map(\.version)
            #expect(versions == Array(1...max(stored, 1)), "round \(round): the log has a gap or a hole")
            for version in acknowledged where version % 10 == 0 {
                #expect(try store.isRevoked(tokenID: "token-\(version)"), "round \(round): batch \(version) was kept in part")
            }
            #expect(session.snapshot.count == min(7, Int(stored / 3)), "round \(round): one retained event per key")
        }
    }

    /// `store-crash-writer` beside the running test binary, when it is there.
    static var writerPath: String? {
        guard let binary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let path = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("store-crash-writer").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}

/// A child process whose stdout the test reads through a pipe; killed and reaped by its pid when
/// the value goes, if the test has not done so.
final class ChildProcess {
    let pid: pid_t
    private let output: Int32
    private var hasEnded = false

    init(executable: String, arguments: [String]) throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Other tests may spawn processes too: neither end leaks into them (dup2 gives the child
        // its stdout without the flag).
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptors[1], 1)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environment)
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

    /// What the child writes until `deadline`, or until what was read so far satisfies `isEnough`.
    func read(until deadline: ContinuousClock.Instant, isEnough: ([UInt8]) -> Bool) -> [UInt8] {
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
    func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = readChunk(), !chunk.isEmpty { bytes += chunk }
        return bytes
    }

    /// Sends SIGKILL and reaps the child; the signal that ended it, or 0 when it exited.
    func kill() -> Int32 {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        hasEnded = true
        return status & 0x7F
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
