import Foundation

/// A private X server for a test: `Xvfb :N` on the first free display from :90, stopped by its
/// pid when the test's body returns. The tools it needs are checked by ``missingTools``, so a
/// machine without them skips the tests with a message that says what to install.
public enum XvfbDisplay {
    public static let tools = ["Xvfb": "xvfb", "import": "imagemagick", "ffmpeg": "ffmpeg"]

    /// The tools not on this machine, as "tool (package)".
    public static let missingTools: [String] = tools.keys.sorted().filter { tool in
        !["/usr/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }.map { "\($0) (apt-get install \(tools[$0]!))" }

    public static var isAvailable: Bool { missingTools.isEmpty }
    /// Why a test that needs the display is skipped (for `.enabled(if:_:)`'s comment).
    public static var skipReason: String { "needs \(missingTools.joined(separator: ", ")); scripts/bootstrap --video installs them" }

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `body` with the display's name (`":91"`) on a `width` × `height` 24-bit screen.
    public static func with<T>(width: Int = 1280, height: Int = 720, _ body: (String) async throws -> T) async throws -> T {
        let (pid, name) = try start(width: width, height: height)
        defer { ChildProcess.stop(pid) }
        return try await body(name)
    }

    /// Starts Xvfb with posix_spawn and an empty signal mask: a child started by Foundation's
    /// `Process` inherits the test process's mask, in which SIGTERM is blocked, so it would not
    /// stop (and would leave its lock file and socket behind) when asked to.
    private static func start(width: Int, height: Int) throws -> (pid_t, String) {
        for number in 90..<140 {
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"), !FileManager.default.fileExists(atPath: socket) else { continue }
            let pid = try ChildProcess.spawn(["/usr/bin/Xvfb", ":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
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
            if !exited { ChildProcess.stop(pid) }
        }
        throw StartFailure(description: "no free display for Xvfb from :90 to :139")
    }
}
