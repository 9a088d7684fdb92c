import Foundation
import Synchronization

/// A process the demo started (`interlude origin`, `serve`, `session create`, `join`), its
/// standard output and error going to files, stopped by its pid: SIGTERM, then SIGKILL when it has
/// not ended within its grace.
///
/// The demo itself ignores SIGINT and SIGTERM while it runs (it handles them), and a spawned
/// process would inherit that: each one starts as ``ChildProcessSpawn`` starts children, with
/// every signal unblocked and the termination signals at their default action.
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
        let streams = ChildProcessSpawn.Streams(input: "/dev/null", output: outputPath, error: errorPath)
        switch ChildProcessSpawn.spawn(executable, arguments: arguments, streams: streams) {
        case .success(let pid): self.pid = pid
        case .failure(let failure):
            throw CommandFailure(message: "cannot start \(name) (\(executable)): \(failure)")
        }
    }

    /// The exit status if it has ended (reaping it), nil while it runs.
    var exitStatus: Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, WNOHANG) } while result < 0 && errno == EINTR
            guard result == pid else { return nil }
            status = ChildProcessSpawn.exitStatus(fromWaitStatus: raw)
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
