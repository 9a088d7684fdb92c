import Foundation

/// Starting a child process the way every command here does: `posix_spawn` with an empty signal
/// mask and the termination signals at their default action, whatever this process blocks or
/// handles, so that a Ctrl-C in the terminal (which reaches the whole foreground process group)
/// or a SIGTERM stops the child too.
enum ChildProcessSpawn {
    /// Files for the child's standard streams; `nil` keeps this process's.
    struct Streams {
        var input: String?
        var output: String?
        var error: String?
    }

    /// Why `posix_spawn` failed: its `errno`.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// The signals the child gets at their default action.
    static let defaultSignals = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE]

    /// Starts `executable` with `arguments` (`argv[0]` is the executable) and this process's
    /// environment; its pid, or the `errno` that `posix_spawn` returned.
    static func spawn(_ executable: String, arguments: [String], streams: Streams = Streams()) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input = streams.input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
        if let output = streams.output { posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        if let error = streams.error { posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in defaultSignals { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { return .failure(Failure(code: result)) }
        return .success(pid)
    }

    /// A `waitpid` status as a shell gives it: the exit status, or 128 + the signal that ended it.
    static func exitStatus(fromWaitStatus raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
