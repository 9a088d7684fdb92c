import Foundation
import Testing

/// A private X server for a test: `Xvfb :N` on the first free display from :90, stopped by its
/// pid when the test's body returns. The tools it needs are checked by ``missingTools``, so a
/// machine without them skips the tests with a message that says what to install.
enum XvfbDisplay {
    static let tools = ["Xvfb": "xvfb", "import": "imagemagick", "ffmpeg": "ffmpeg"]

    /// The tools not on this machine, as "tool (package)".
    static let missingTools: [String] = tools.keys.sorted().filter { tool in
        !["/usr/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }.map { "\($0) (apt-get install \(tools[$0]!))" }

    static var isAvailable: Bool { missingTools.isEmpty }
    static var skipReason: Comment { "needs \(missingTools.joined(separator: ", ")); scripts/bootstrap --video installs them" }

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` with the display's name (`":91"`) on a `width` × `height` 24-bit screen.
    static func with<T>(width: Int = 1280, height: Int = 720, _ body: (String) async throws -> T) async throws -> T {
        let (pid, name) = try start(width: width, height: height)
        defer { stop(pid) }
        return try await body(name)
    }

    /// Starts Xvfb with posix_spawn and an empty signal mask: a child started by Foundation's
    /// `Process` inherits the test process's mask, in which SIGTERM is blocked, so it would not
    /// stop (and would leave its lock file and socket behind) when asked to.
    private static func start(width: Int, height: Int) throws -> (pid_t, String) {
        for number in 90..<140 {
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"), !FileManager.default.fileExists(atPath: socket) else { continue }
            let pid = try spawn(["/usr/bin/Xvfb", ":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
            // Up when its socket is there; gone when another server took the display first.
            let deadline = Date().addingTimeInterval(5)
            var status: Int32 = 0
            var exited = false
            while !FileManager.default.fileExists(atPath: socket), Date() < deadline {
                if waitpid(pid, &status, WNOHANG) == pid {
                    exited = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            if !exited, FileManager.default.fileExists(atPath: socket) { return (pid, ":\(number)") }
            if !exited { stop(pid) }
        }
        throw StartFailure(description: "no free display for Xvfb from :90 to :139")
    }

    private static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    private static func spawn(_ arguments: [String]) throws -> pid_t {
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
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw StartFailure(description: "posix_spawn \(arguments[0]): error \(result)") }
        return pid
    }
}
