import Foundation
import Glibc
import Testing
import TestSupport

/// `interlude watch` as a user runs it: the built `interlude` binary serving a small origin on a
/// port the kernel picks, and a private tmux server (`tmux -L <unique name>`, no configuration
/// file) whose one pane, 100 × 30 cells, runs a shell the test types into (`send-keys`) and reads
/// (`capture-pane`). For `watch --join` it also starts a group server (`interlude serve` on a free
/// port, with the rig's database and key file), makes sessions (`interlude session create`) and
/// runs headless participants (`interlude join`). The origin, the group server and the
/// participants are killed by their pids and the tmux server by its name when the rig goes, so
/// that a failed test leaves nothing running.
final class WatchTmuxRig {
    /// The origin's configuration: two live channels without breaks, "news" and "sports"
    /// (``liveURL(_:)``), and one 60 s VOD, "film", for viewers "viewer" and "host" (a group's
    /// headless owner). A 15 s pre-roll "preroll" of two ads (5 s and 10 s) that carries `X-RESTRICT="SKIP,JUMP"`; a 10 s range
    /// break "mid" at 20 s; a 5 s point break "dot" at 44 s. The integrated timeline is 70 s long:
    /// "mid" spans 20–30 s of it and "dot" sits at 54 s.
    static let configuration = """
        {
          "content": { "media": "content", "codecs": "avc1.42C00C,mp4a.40.2", "resolution": "320x180", "frameRate": 25 },
          "programDateTime": "2026-01-01T00:00:00.000Z",
          "ads": [
            { "id": "legal-warning", "media": "ads/ad-5s" },
            { "id": "spot-10s", "media": "ads/ad-10s" }
          ],
          "viewers": [ { "id": "viewer", "region": "US", "pod": [] }, { "id": "host", "region": "US", "pod": [] } ],
          "streams": [
            { "id": "news", "kind": "live", "mode": "interstitials", "windowSeconds": 60 },
            { "id": "sports", "kind": "live", "mode": "interstitials", "windowSeconds": 60 },
            {
              "id": "film", "kind": "vod", "mode": "interstitials", "durationSeconds": 60,
              "breaks": [
                { "id": "preroll", "positionSeconds": 0, "pod": ["legal-warning", "spot-10s"],
                  "dateRange": { "CUE": ["PRE", "ONCE"], "X-RESUME-OFFSET": 0, "X-RESTRICT": ["SKIP", "JUMP"],
                                 "X-TIMELINE-OCCUPIES": "POINT" } },
                { "id": "mid", "positionSeconds": 20, "pod": ["spot-10s"],
                  "dateRange": { "PLANNED-DURATION": 10, "X-RESUME-OFFSET": 0, "X-TIMELINE-OCCUPIES": "RANGE",
                                 "X-TIMELINE-STYLE": "HIGHLIGHT" } },
                { "id": "dot", "positionSeconds": 44, "pod": ["legal-warning"],
                  "dateRange": { "PLANNED-DURATION": 5, "X-RESUME-OFFSET": 0, "X-TIMELINE-OCCUPIES": "POINT" } }
              ]
            }
          ]
        }
        """

    /// The pane's size.
    static let columns = 100
    static let rows = 30
    /// The shell's prompt in the pane.
    static let prompt = "watch-test$ "
    /// The prompt as a captured line shows it (trailing space dropped).
    static let promptLine = prompt.trimmingCharacters(in: .whitespaces)

    let interlude: String
    let directory: TemporaryDirectory
    let socket: String
    private(set) var originPort = 0
    private let tmuxPath: String
    private var origin: ChildProcess?
    private var serverPID: pid_t?
    private var socketPath: String?
    private var silentSockets: [Int32] = []
    private var bus: ChildProcess?
    private var groupServer: ChildProcess?
    private(set) var groupServerPort = 0
    private var participants: [ChildProcess] = []

    init() throws {
        interlude = try #require(ChildProcess.besideTestBinary("interlude"), "the interlude binary is built beside the test binary by swift build")
        tmuxPath = try Self.tool("tmux")
        directory = try TemporaryDirectory(prefix: "interlude-watch")
        socket = "interlude-watch-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    deinit {
        _ = stopTerminal()
        if let origin { _ = origin.kill() }
        if let bus { _ = bus.kill() }
        // The participants first, so that none of them sees its server vanish.
        for participant in participants { _ = participant.kill() }
        if let groupServer { _ = groupServer.kill() }
        for descriptor in silentSockets { close(descriptor) }
    }

    /// Kills the tmux server by its name and waits for its process to end (killing it by its pid
    /// after 5 s); whether it ended on `kill-server`. Idempotent.
    @discardableResult
    func stopTerminal() -> Bool {
        guard let pid = serverPID else { return true }
        serverPID = nil
        _ = try? tmux(["kill-server"])
        // The server leaves its socket behind.
        defer { if let socketPath { unlink(socketPath) } }
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.isRunning(pid) {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                return false
            }
            usleep(20_000)
        }
        return true
    }

    /// Whether `pid` is a live process (the server is not the test's child: once it ends it is
    /// init's zombie or gone).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    struct RigError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The path of `name` on PATH (`scripts/bootstrap` installs tmux).
    static func tool(_ name: String) throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw RigError(message: "\(name) is not on PATH: run scripts/bootstrap, which installs it")
    }

    /// The URL of the film for the viewer.
    var filmURL: String { "http://127.0.0.1:\(originPort)/vod/film/viewer/main.m3u8" }

    /// The URL of a live stream of ``configuration`` for the viewer (`news`, `sports`; any other
    /// name is the origin's 404).
    func liveURL(_ stream: String) -> String { "http://127.0.0.1:\(originPort)/live/\(stream)/viewer/main.m3u8" }

    /// Writes `text` to a file of the rig's directory; its path.
    func write(_ text: String, to name: String) throws -> String {
        let path = directory.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A TCP port on 127.0.0.1 that takes connections (the kernel completes them) and never
    /// answers: a stream that never loads. Open until the rig goes.
    func silentPort() throws -> Int {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RigError(message: "no socket: \(String(cString: strerror(errno)))") }
        silentSockets.append(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw RigError(message: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts a private session bus (`dbus-daemon --session`, killed by its pid when the rig
    /// goes); its address, for `DBUS_SESSION_BUS_ADDRESS`.
    func startBus() throws -> String {
        let daemon = try ChildProcess(executable: try Self.tool("dbus-daemon"), arguments: ["--session", "--nofork", "--print-address=1"],
                                      standardError: .file("/dev/null"))
        bus = daemon
        let address = String(decoding: daemon.read(until: .now + .seconds(10)) { $0.contains(UInt8(ascii: "\n")) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw RigError(message: "dbus-daemon printed no address") }
        return address
    }

    /// Runs `playerctl -p interlude arguments` on the bus at `address` to its end (within 10 s);
    /// its exit status and output, trimmed.
    func playerctl(_ arguments: String..., bus address: String) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable: "/usr/bin/env",
                                     arguments: ["DBUS_SESSION_BUS_ADDRESS=\(address)", try Self.tool("playerctl"), "-p", "interlude"] + arguments,
                                     standardError: .merged)
        let deadline = ContinuousClock.now + .seconds(10)
        let output = String(decoding: child.read(until: deadline) { _ in false }, as: UTF8.self)
        let status = child.waitForExit(until: deadline) ?? 128 + child.kill()
        return (status, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Starts `interlude origin` with ``configuration`` on a free port.
    func startOrigin() throws {
        let path = directory.file("origin.json")
        try Self.configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/Media").path
        let child = try ChildProcess(executable: interlude, arguments: ["origin", "--port", "0", "--media", media, "--config", path],
                                     standardError: .file(directory.file("origin.log")))
        origin = child
        let marker = "Interlude origin on http://127.0.0.1:"
        let banner = String(decoding: child.read(until: .now + .seconds(30)) { String(decoding: $0, as: UTF8.self).contains(marker) && $0.last == UInt8(ascii: "\n") }, as: UTF8.self)
        guard let range = banner.range(of: marker), let port = Int(banner[range.upperBound...].prefix { $0.isNumber }) else {
            let log = (try? String(contentsOfFile: directory.file("origin.log"), encoding: .utf8)) ?? ""
            throw RigError(message: "the origin printed no URL: \(banner)\(log)")
        }
        originPort = port
    }

    // MARK: A group

    /// The invitations of a session, by role.
    struct Invitations {
        var owner: String
        var controller: String
        var viewer: String
    }

    /// Starts `interlude serve` on a free port with the rig's database and key file.
    func startGroupServer() throws {
        let child = try ChildProcess(
            executable: interlude,
            arguments: ["serve", "--port", "0", "--db", directory.file("sessions.sqlite"), "--key-file", directory.file("keys")],
            standardError: .merged)
        groupServer = child
        let marker = "Interlude group server on ws://127.0.0.1:"
        let banner = String(decoding: child.read(until: .now + .seconds(30)) { String(decoding: $0, as: UTF8.self).contains(marker) && $0.last == UInt8(ascii: "\n") },
                            as: UTF8.self)
        guard let range = banner.range(of: marker), let port = Int(banner[range.upperBound...].prefix { $0.isNumber }) else {
            throw RigError(message: "the group server printed no URL: \(banner)")
        }
        groupServerPort = port
    }

    /// Makes a session on the group server for `stream` (a path on the origin, with `{viewer}`);
    /// its invitations, as `session create --json` prints them.
    func createSession(stream: String) throws -> Invitations {
        let child = try ChildProcess(
            executable: interlude,
            arguments: ["session", "create", "--server", "http://127.0.0.1:\(groupServerPort)", "--key-file", directory.file("keys"),
                        "--stream", "http://127.0.0.1:\(originPort)/\(stream)", "--json"],
            standardError: .file(directory.file("session-create.log")))
        let deadline = ContinuousClock.now + .seconds(30)
        let output = child.read(until: deadline) { _ in false }
        let status = child.waitForExit(until: deadline) ?? 128 + child.kill()
        let log = (try? String(contentsOfFile: directory.file("session-create.log"), encoding: .utf8)) ?? ""
        guard status == 0, let json = try? JSONSerialization.jsonObject(with: Data(output)) as? [String: Any],
              let invitations = json["invitations"] as? [String: String],
              let owner = invitations["owner"], let controller = invitations["controller"], let viewer = invitations["viewer"] else {
            throw RigError(message: "session create exited with \(status): \(String(decoding: output, as: UTF8.self))\(log)")
        }
        return Invitations(owner: owner, controller: controller, viewer: viewer)
    }

    /// Starts a headless `interlude join` named `name` with `invitation` and `actions`, its trace
    /// in ``participantTrace(_:)`` and its log in ``participantLog(_:)``; killed by its pid when
    /// the rig goes.
    func join(_ invitation: String, name: String, actions: [String] = []) throws {
        let arguments = ["join", invitation, "--name", name, "--trace", directory.file("\(name).jsonl"), "--duration", "300", "-q"]
            + actions.flatMap { ["--action", $0] }
        participants.append(try ChildProcess(executable: interlude, arguments: arguments, standardError: .file(directory.file("\(name).log"))))
    }

    /// The JSON lines the participant `name` traced so far, decoded.
    func participantTrace(_ name: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: directory.file("\(name).jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// What the participant `name` wrote on standard error so far.
    func participantLog(_ name: String) -> String {
        (try? String(contentsOfFile: directory.file("\(name).log"), encoding: .utf8)) ?? ""
    }

    /// Stops the participants (SIGTERM, then SIGKILL) and then the group server; each
    /// participant's exit status.
    @discardableResult
    func stopGroup() -> [Int32] {
        defer { participants = [] }
        let statuses = participants.map { $0.terminate() }
        _ = groupServer?.terminate()
        groupServer = nil
        return statuses
    }

    /// Starts the private tmux server with one pane running a shell with ``prompt``.
    func startTerminal() throws {
        // new-session forks the server, which would keep a pipe given as its output open: the
        // client's output goes to /dev/null.
        let command = [tmuxPath, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "watch", "-x", "\(Self.columns)", "-y", "\(Self.rows)",
                       "env LANG=C.UTF-8 PS1='\(Self.prompt)' /bin/sh"].map(Self.quoted).joined(separator: " ")
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exec \(command) >/dev/null 2>&1"])
        guard child.waitForExit(until: .now + .seconds(10)) == 0 else { throw RigError(message: "tmux new-session failed") }
        let server = try tmux(["display-message", "-p", "-t", "watch", "#{pid} #{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = server.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let pid = Int32(parts[0]) else { throw RigError(message: "tmux gave no server pid and socket: \(server)") }
        serverPID = pid
        socketPath = String(parts[1])
    }

    /// Opens a window named `name` that runs `command` itself (no shell); the pid of its process.
    func openWindow(_ name: String, running command: [String]) throws -> pid_t {
        try tmux(["new-window", "-d", "-t", "watch", "-n", name, command.map(Self.quoted).joined(separator: " ")])
        let pid = try tmux(["display-message", "-p", "-t", "watch:\(name)", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Int32(pid) else { throw RigError(message: "tmux gave no pane pid: \(pid)") }
        return value
    }

    /// Whether the process `pid` (a pane's, the tmux server's child) has ended within `timeout`.
    func hasEnded(_ pid: pid_t, within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while Self.isRunning(pid) {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    /// Types `text` into the pane as it is, then Enter.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "watch", "-l", text])
        try tmux(["send-keys", "-t", "watch", "Enter"])
    }

    /// Presses `keys` (tmux key names: `Space`, `Right`, `q`, `C-c`).
    func press(_ keys: String..., window: String? = nil) throws {
        try tmux(["send-keys", "-t", window.map { "watch:\($0)" } ?? "watch"] + keys)
    }

    /// The pane's text now, one string per row.
    func screen(window: String? = nil) throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", window.map { "watch:\($0)" } ?? "watch"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Captures the pane every 50 ms until `isDone` holds or `timeout` passes; the last capture.
    /// Starts the origin and the terminal, and waits for the shell's prompt.
    func startAtPrompt() async throws {
        try startOrigin()
        try startTerminal()
        _ = try await poll(timeout: .seconds(10)) { $0.contains { $0.hasPrefix(Self.promptLine) } }
    }

    func poll(window: String? = nil, timeout: Duration, until isDone: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let lines = try screen(window: window)
            if isDone(lines) || ContinuousClock.now >= deadline { return lines }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs a tmux command on the private server; its output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let child = try ChildProcess(executable: tmuxPath, arguments: ["-L", socket, "-f", "/dev/null"] + arguments, standardError: .merged)
        let deadline = ContinuousClock.now + .seconds(10)
        let output = String(decoding: child.read(until: deadline) { _ in false }, as: UTF8.self)
        let status = child.waitForExit(until: deadline) ?? 128 + child.kill()
        guard status == 0 else { throw RigError(message: "tmux \(arguments.joined(separator: " ")) exited with \(status): \(output)") }
        return output
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
