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
        let argv = [found] + videoArguments
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child gets an empty signal mask and default handlers, whatever this process blocks.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, found, nil, &attributes, &cArguments, environ)
        guard spawned == 0 else {
            throw CommandFailure(message: "cannot start \(found): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS; a child killed by a signal is 128 + the signal, as a shell has it.
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }
        return 128 + (status & 0x7F)
    }
}
