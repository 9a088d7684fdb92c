import Foundation
import Synchronization

/// A process the demo started (`interlude origin`, `serve`, `session create`, `join`), its
/// standard output and error going to files, stopped by its pid: SIGTERM, then SIGKILL when it has
/// not ended within its grace.
///
/// The demo itself ignores SIGINT and SIGTERM while it runs (it handles them), and a spawned
/// process would inherit that: each one starts with every signal unblocked and the termination
/// signals at their default action, so that a Ctrl-C in the terminal (which reaches the whole
/// foreground process group) or the demo's own SIGTERM stops it.
final class DemoProcess: Sendable {
    /// What the process is, for messages: `origin`, `alice`, …
    let name: String
    let pid: pid_t
    let outputPath: String
    let errorPath: String
    /// The exit status once reaped (128 + the signal when a signal ended it).
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments`, its output into `outputPath` and `errorPath`.
    ///
    /// - Throws: ``CommandFailure`` when it cannot be started.
    init(name: String, executable: String, arguments: [String], outputPath: String, errorPath: String) throws {
        self.name = name
        self.outputPath = outputPath
        self.errorPath = errorPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        guard result == 0 else {
            throw CommandFailure(message: "cannot start \(name) (\(executable)): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// The exit status if it has ended (reaping it), nil while it runs.
    var exitStatus: Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, WNOHANG) } while result < 0 && errno == EINTR
            guard result == pid else { return nil }
            status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + raw & 0x7F
            return status
        }
    }

    var isRunning: Bool { exitStatus == nil }

    /// Stops it: SIGTERM, and SIGKILL if it is still running after `grace`; its exit status.
    /// Blocks the calling thread meanwhile (in steps of 20 ms).
    @discardableResult
    func stop(grace: Duration = .seconds(5)) -> Int32 {
        if let status = exitStatus { return status }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if let status = exitStatus { return status }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        while true {
            if let status = exitStatus { return status }
            usleep(5_000)
        }
    }

    /// What it wrote to standard output so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What it wrote to standard error so far.
    var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}
