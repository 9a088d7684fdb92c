import Foundation
import InterludeCommandLine
import Glibc
import Testing
import TestSupport

/// A watch-together group across real processes: the built `interlude` binary run as an origin, a
/// group server and headless participants (`interlude join --trace`), each a child of the test on
/// loopback, on ports the kernel picks. Every child is stopped by its pid: by the test, or when
/// the rig goes (a failed test leaves nothing running).
final class GroupAcrossProcessesRig {
    /// The invitations of a session, by role.
    struct Invitations {
        var owner: String
        var controller: String
        var viewer: String
    }

    let interlude: String
    let directory: TemporaryDirectory
    /// CLOCK_REALTIME when the rig was made, in nanoseconds: traces are timed from it.
    let epoch: Int64
    private(set) var originPort = 0
    private(set) var serverPort = 0
    private var origin: ChildProcess?
    private var server: ChildProcess?
    /// What the current server printed so far (banner and session log).
    private var serverOutput: [UInt8] = []
    private var joins: [(name: String, process: ChildProcess)] = []
    /// Servers sharing a Redis store (``startSharedServer(node:redis:)``), by node name.
    private var sharedServers: [String: ChildProcess] = [:]
    /// Their ports, by node name.
    private(set) var sharedPorts: [String: Int] = [:]

    init() throws {
        interlude = try #require(ChildProcess.besideTestBinary("interlude"), "the interlude binary is built beside the test binary by swift build")
        directory = try TemporaryDirectory(prefix: "interlude-group")
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        epoch = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    deinit {
        // Participants first, so that none of them sees its server vanish.
        for join in joins { _ = join.process.kill() }
        if let server { _ = server.kill() }
        for shared in sharedServers.values { _ = shared.kill() }
        if let origin { _ = origin.kill() }
        // INTERLUDE_KEEP_TRACES=DIR keeps each run's traces, logs, configuration and database.
        if let keep = ProcessInfo.processInfo.environment["INTERLUDE_KEEP_TRACES"], !keep.isEmpty {
            let target = URL(fileURLWithPath: keep).appendingPathComponent(directory.url.lastPathComponent)
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try? FileManager.default.copyItem(at: directory.url, to: target)
        }
    }

    /// Seconds since the epoch, now.
    var now: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - epoch) / 1e9
    }

    // MARK: Processes

    /// Starts `interlude origin` with `configuration` (JSON) on a free port.
    func startOrigin(configuration: String) throws {
        let path = directory.file("origin.json")
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/Media").path
        let child = try ChildProcess(
            executable: interlude, arguments: ["origin", "--port", "0", "--media", media, "--config", path],
            standardError: .file(directory.file("origin.log")))
        origin = child
        let banner = child.read(until: .now + .seconds(10)) { Self.port(in: $0, after: "Interlude origin on http://127.0.0.1:") != nil }
        originPort = try #require(Self.port(in: banner, after: "Interlude origin on http://127.0.0.1:"), "the origin printed no URL: \(String(decoding: banner, as: UTF8.self))")
    }

    /// Starts `interlude serve` on `port` (0: a free one) with the rig's key file and its
    /// database, or the Redis server at `redis`.
    func startServer(port: Int = 0, redis: String? = nil) throws {
        let store = redis.map { ["--store", $0] } ?? ["--db", directory.file("sessions.sqlite")]
        let child = try ChildProcess(
            executable: interlude,
            arguments: ["serve", "--port", "\(port)"] + store + ["--key-file", directory.file("keys")],
            standardError: .merged)
        server = child
        serverOutput = child.read(until: .now + .seconds(10)) { Self.port(in: $0, after: "Interlude group server on ws://127.0.0.1:") != nil }
        serverPort = try #require(Self.port(in: serverOutput, after: "Interlude group server on ws://127.0.0.1:"), "the server printed no URL: \(serverText)")
    }

    /// Starts `interlude serve` named `node` on a free port, keeping sessions in the Redis server
    /// at `redis`, with the rig's key file; its output goes to `serve-NODE.log`.
    func startSharedServer(node: String, redis: String) throws {
        let log = directory.file("serve-\(node).log")
        let child = try ChildProcess(
            executable: interlude,
            arguments: ["serve", "--port", "0", "--store", redis, "--node", node, "--key-file", directory.file("keys")],
            standardError: .merged)
        sharedServers[node] = child
        let banner = child.read(until: .now + .seconds(10)) { Self.port(in: $0, after: "Interlude group server on ws://127.0.0.1:") != nil }
        try Data(banner).write(to: URL(fileURLWithPath: log))
        let port: Int = try #require(Self.port(in: banner, after: "Interlude group server on ws://127.0.0.1:"), "the server printed no URL: \(String(decoding: banner, as: UTF8.self))")
        sharedPorts[node] = port
    }

    /// Kills the shared server `node` with SIGKILL.
    func killSharedServer(_ node: String) -> Int32 {
        defer { sharedServers[node] = nil }
        return sharedServers[node]?.kill() ?? 0
    }

    /// Creates a session through the shared servers `nodes` (the first creates it); the
    /// invitations list them all.
    func createSharedSession(stream: String, nodes: [String]) async throws -> Invitations {
        let servers = nodes.flatMap { ["--server", "http://127.0.0.1:\(sharedPorts[$0] ?? 0)"] }
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(
            ["session", "create"] + servers + ["--key-file", directory.file("keys"), "--stream", "http://127.0.0.1:\(originPort)/\(stream)", "--json"], io: io)
        let result = (code: code, out: io.capturedOutput, err: io.capturedError)
        try #require(result.code == 0, "session create: \(result.err)")
        let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let invitations = try #require(json?["invitations"] as? [String: String])
        return Invitations(
            owner: try #require(invitations["owner"]), controller: try #require(invitations["controller"]),
            viewer: try #require(invitations["viewer"]))
    }

    /// Stops the shared servers (SIGTERM, then SIGKILL) and keeps what they printed in their logs.
    func stopSharedServers() {
        for (node, child) in sharedServers {
            _ = child.terminate()
            let rest = child.readToEnd()
            if let handle = FileHandle(forWritingAtPath: directory.file("serve-\(node).log")) {
                handle.seekToEndOfFile()
                handle.write(Data(rest))
                try? handle.close()
            }
        }
        sharedServers = [:]
    }

    /// What the shared server `node` printed (once stopped).
    func sharedLog(_ node: String) -> String { (try? String(contentsOfFile: directory.file("serve-\(node).log"), encoding: .utf8)) ?? "" }

    /// Kills the server with SIGKILL (it has no chance to close anything).
    func killServer() -> Int32 {
        defer { server = nil }
        return server?.kill() ?? 0
    }

    /// What the server printed: its banner, then one JSON line per session event.
    var serverText: String { String(decoding: serverOutput, as: UTF8.self) }

    /// Reads the server's output until a line satisfies `isWanted` or `deadline` passes; whether
    /// one did.
    func waitForServerLine(until deadline: ContinuousClock.Instant, _ isWanted: (Substring) -> Bool) -> Bool {
        guard let server else { return false }
        func found() -> Bool { serverText.split(separator: "\n").contains(where: isWanted) }
        while !found() {
            let chunk = server.read(until: deadline) { $0.contains(UInt8(ascii: "\n")) }
            if chunk.isEmpty { return false }
            serverOutput += chunk
        }
        return true
    }

    /// Creates a session on the server for `stream` (a path on the origin, with `{viewer}`).
    func createSession(stream: String) async throws -> Invitations {
        let result = await run(
            "session", "create", "--server", "http://127.0.0.1:\(serverPort)", "--key-file", directory.file("keys"),
            "--stream", "http://127.0.0.1:\(originPort)/\(stream)", "--json")
        try #require(result.code == 0, "session create: \(result.err)")
        let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let invitations = try #require(json?["invitations"] as? [String: String])
        return Invitations(
            owner: try #require(invitations["owner"]), controller: try #require(invitations["controller"]),
            viewer: try #require(invitations["viewer"]))
    }

    /// Starts `interlude join` for `name` with `invitation`, tracing to `NAME.jsonl`, for
    /// `duration` seconds.
    func join(_ invitation: String, name: String, policy: String = "default", duration: Int, actions: [String] = []) throws {
        let arguments = ["join", invitation, "--name", name, "--policy", policy, "--trace", directory.file("\(name).jsonl"),
                         "--duration", "\(duration)", "-q"] + actions.flatMap { ["--action", $0] }
        joins.append((name, try ChildProcess(executable: interlude, arguments: arguments, standardError: .file(directory.file("\(name).log")))))
    }

    /// Waits for every participant to leave on its own (`--duration`), killing those still
    /// running at `deadline`; each one's exit status.
    func waitForParticipants(until deadline: ContinuousClock.Instant) -> [String: Int32] {
        var statuses: [String: Int32] = [:]
        for join in joins {
            statuses[join.name] = join.process.waitForExit(until: deadline) ?? 128 + join.process.kill()
        }
        joins = []
        return statuses
    }

    /// Stops the server and the origin (SIGTERM, then SIGKILL).
    func stop() {
        _ = server?.terminate()
        server = nil
        _ = origin?.terminate()
        origin = nil
    }

    /// The trace of the participant `name`.
    func trace(_ name: String) throws -> JoinTraceRecording {
        try JoinTraceRecording(name: name, path: directory.file("\(name).jsonl"), epoch: epoch)
    }

    /// What the participant `name` wrote on stderr.
    func log(_ name: String) -> String { (try? String(contentsOfFile: directory.file("\(name).log"), encoding: .utf8)) ?? "" }

    private static func port(in bytes: [UInt8], after prefix: String) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: prefix) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        guard text[range.upperBound...].dropFirst(digits.count).first != nil else { return nil }
        return Int(digits)
    }
}
