import Foundation
import GroupWire
import Synchronization

/// The processes of one `interlude demo`: an `interlude origin`, an `interlude serve` on a SQLite
/// file of the run's directory, `interlude session create` for each story and an `interlude join`
/// per participant, all children of the demo, every one stopped by its pid when the run ends,
/// however it ends (``stopAll()``).
///
/// Separate processes rather than one: they are what three friends on three machines would run
/// (each participant its own player, clock and WebSocket to the server, the server its own store
/// and clock), so the demo shows the real thing end to end, and what it measures comes from the
/// same traces the skew benchmark reads.
final class DemoRun: Sendable {
    /// The `interlude` executable (this one).
    let executable: String
    let media: String
    /// Where the run keeps its files: the origin's configuration, keys, database, traces, logs.
    let directory: String
    /// Set by Ctrl-C, SIGTERM or SIGHUP.
    let interruption = Mutex(false)
    private let processes = Mutex<[DemoProcess]>([])

    /// The origin's base URL and the group server's HTTP URL, once started.
    struct Services: Sendable {
        var origin: String
        var server: String
    }

    /// A session's invitations, by role (URLs: `http://HOST:PORT/join#TOKEN`).
    struct Invitations: Sendable {
        var owner: String
        var controller: String
        var viewer: String

        func forRole(_ role: String) -> String { role == "owner" ? owner : role == "controller" ? controller : viewer }
        /// The live view of the session (`interlude serve`'s `/view` page), for any invitation.
        var viewURL: String { viewer.replacingOccurrences(of: "/join#", with: "/view#") }
    }

    /// Stops the run: its loops end at their next look.
    struct Interrupted: Error {}

    init(executable: String, media: String, directory: String) {
        self.executable = executable
        self.media = media
        self.directory = directory
    }

    var isInterrupted: Bool { interruption.withLock { $0 } }

    func interrupt() { interruption.withLock { $0 = true } }

    func file(_ name: String) -> String { URL(fileURLWithPath: directory).appendingPathComponent(name).path }

    /// Starts `interlude ARGUMENTS` as `name`, its output in NAME.out and NAME.err.
    func start(_ name: String, _ arguments: [String]) throws -> DemoProcess {
        let process = try DemoProcess(
            name: name, executable: executable, arguments: arguments, outputPath: file("\(name).out"), errorPath: file("\(name).err"))
        processes.withLock { $0.append(process) }
        return process
    }

    /// Every process still running, stopped: participants first (so that none sees its server
    /// go), then the group server, then the origin; each by its pid, SIGTERM then SIGKILL.
    func stopAll() {
        let all = processes.withLock { all in
            defer { all.removeAll() }
            return all
        }
        let order = { (process: DemoProcess) in process.name == "origin" ? 2 : process.name == "serve" ? 1 : 0 }
        for process in all.sorted(by: { order($0) < order($1) }) { process.stop() }
    }

    /// The processes started and not yet stopped by ``stopAll()``.
    var running: [DemoProcess] { processes.withLock { $0 }.filter(\.isRunning) }

    /// Waits until `process` writes a line holding `marker` (to standard output, or standard
    /// error with `inErrors`), and returns that line.
    ///
    /// - Throws: ``CommandFailure`` when the process ends first or `timeout` passes;
    ///   ``Interrupted``.
    func line(of process: DemoProcess, containing marker: String, inErrors: Bool = false, timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = inErrors ? process.errorOutput : process.output
            if let line = text.split(separator: "\n").first(where: { $0.contains(marker) }) { return String(line) }
            if isInterrupted { throw Interrupted() }
            if let status = process.exitStatus {
                throw CommandFailure(message: "\(process.name) exited with \(status) before it was ready:\n\(Self.tail(process.errorOutput))")
            }
            guard ContinuousClock.now < deadline else {
                throw CommandFailure(message: "\(process.name) was not ready after \(timeout):\n\(Self.tail(process.errorOutput))")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Starts the origin on `configurationPath` and the group server, each on a port the kernel
    /// picks, and waits until both listen.
    func startServices(configurationPath: String) async throws -> Services {
        let origin = try start("origin", ["origin", "--port", "0", "--config", configurationPath, "--media", media])
        let server = try start("serve", ["serve", "--port", "0", "--store", "sqlite:" + file("sessions.sqlite"), "--key-file", file("keys")])
        let originLine = try await line(of: origin, containing: "Interlude origin on ")
        let serverLine = try await line(of: server, containing: "Interlude group server on ", inErrors: true)
        guard let originURL = originLine.split(separator: " ").last.map(String.init), originURL.hasPrefix("http://"),
            let socket = serverLine.split(separator: " ").last, socket.hasPrefix("ws://"), socket.hasSuffix("/group")
        else {
            throw CommandFailure(message: "unexpected banners:\n\(originLine)\n\(serverLine)")
        }
        return Services(origin: originURL, server: "http://" + socket.dropFirst("ws://".count).dropLast("/group".count))
    }

    /// A new session on the group server for `stream`, from `interlude session create --json`.
    func createSession(named name: String, stream: String, services: Services) async throws -> Invitations {
        let create = try start(name, ["session", "create", "--server", services.server, "--key-file", file("keys"), "--stream", stream, "--json"])
        let deadline = ContinuousClock.now + .seconds(30)
        while create.isRunning, ContinuousClock.now < deadline, !isInterrupted { try? await Task.sleep(for: .milliseconds(20)) }
        if isInterrupted { throw Interrupted() }
        guard create.exitStatus == 0 else {
            create.stop()
            throw CommandFailure(message: "session create failed:\n\(Self.tail(create.errorOutput))")
        }
        guard case .object(let object)? = try? WireJSONParser().parse(Array(create.output.utf8)),
            case .object(let invitations)? = object["invitations"],
            case .string(let owner)? = invitations["owner"], case .string(let controller)? = invitations["controller"],
            case .string(let viewer)? = invitations["viewer"]
        else {
            throw CommandFailure(message: "session create printed no invitations: \(create.output.prefix(500))")
        }
        return Invitations(owner: owner, controller: controller, viewer: viewer)
    }

    /// The last lines of a log, for a failure's message.
    static func tail(_ text: String, lines: Int = 8) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: true).suffix(lines).map { "  " + $0 }.joined(separator: "\n")
    }
}
