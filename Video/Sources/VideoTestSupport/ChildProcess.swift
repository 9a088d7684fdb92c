public import Foundation

/// A child process for a test, started with posix_spawn and an empty signal mask: a child
/// started by Foundation's `Process` inherits the test process's mask, in which SIGTERM is
/// blocked, so it would not stop when asked to. Waited for by its pid.
public enum ChildProcess {
    /// Starts `arguments` (the first an absolute path), its stdout and stderr to `output`
    /// (`/dev/null` when `nil`).
    public static func spawn(_ arguments: [String], output: String? = nil) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let path = output ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw XvfbDisplay.StartFailure(description: "posix_spawn \(arguments[0]): error \(result)") }
        return pid
    }

    /// Waits for `pid` to exit, for at most `limit`; its exit status (128 + the signal when a
    /// signal ended it), or `nil` when it was still running and has been killed.
    public static func wait(_ pid: pid_t, within limit: Duration) async throws -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var status: Int32 = 0
        while clock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        return nil
    }

    /// Asks `pid` to stop (SIGTERM) and waits for it.
    public static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
