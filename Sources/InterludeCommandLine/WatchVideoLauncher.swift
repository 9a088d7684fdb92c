import Foundation

/// `interlude watch --video URL`: the root package cannot link GStreamer (it must build without
/// its headers), so real pictures and sound are the Video package's `interlude-video`, run as a
/// child with the same standard streams; its exit status is watch's.
package enum WatchVideoLauncher {
    package static let executableName = "interlude-video"

    /// Where `interlude-video` may be, in order: beside this executable; on `PATH`; in the
    /// checkout's `Video/.build` (release, then debug) when this executable is in the checkout's
    /// `.build`.
    package static func candidates(executablePath: String, path: String?) -> [String] {
        var candidates: [String] = []
        let directory = (executablePath as NSString).deletingLastPathComponent
        if !directory.isEmpty { candidates.append(directory + "/" + executableName) }
        for entry in (path ?? "").split(separator: ":") where !entry.isEmpty {
            candidates.append(String(entry) + "/" + executableName)
        }
        let components = executablePath.split(separator: "/", omittingEmptySubsequences: false)
        if let build = components.lastIndex(of: ".build") {
            let root = components[..<build].joined(separator: "/")
            candidates += ["release", "debug"].map { "\(root)/Video/.build/\($0)/\(executableName)" }
        }
        return candidates
    }

    /// The arguments for `interlude-video`: the URL and the options watch passes through.
    package static func arguments(url: String, isMuted: Bool) -> [String] {
        (isMuted ? ["--mute"] : []) + [url]
    }

    /// The arguments for `interlude-video` following a watch-together session: the invitation
    /// (a URL, `http://HOST:PORT/join#TOKEN`), the name and the waiting policy.
    package static func arguments(joining invitation: String, name: String, policy: String, isMuted: Bool) -> [String] {
        (isMuted ? ["--mute"] : []) + ["--join", invitation, "--name", name, "--policy", policy]
    }

    /// Runs `interlude-video` with `arguments` (``arguments(url:isMuted:)`` or
    /// ``arguments(joining:name:policy:isMuted:)``); its exit status.
    static func run(arguments videoArguments: [String]) throws -> Int32 {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let environment = ProcessInfo.processInfo.environment
        guard let found = candidates(executablePath: executable, path: environment["PATH"]).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CommandFailure(message: "interlude watch --video needs \(executableName), which was found neither beside \(executable), nor on PATH, nor in Video/.build: build it with 'make video' (GStreamer 1.22 and X11: 'scripts/bootstrap --video' installs them)")
        }
        // The child gets an empty signal mask and default handlers, whatever this process blocks.
        let pid: pid_t
        switch ChildProcessSpawn.spawn(found, arguments: videoArguments) {
        case .success(let spawned): pid = spawned
        case .failure(let failure): throw CommandFailure(message: "cannot start \(found): \(failure)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return ChildProcessSpawn.exitStatus(fromWaitStatus: status)
    }
}
