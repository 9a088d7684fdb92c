import Glibc
import VideoBackend
import VideoPlayer

// interlude-video: an HLS stream with its interstitials in the player window (see --help).
let launchedAt = RenderLog.now

func fail(_ message: String, status: Int32) -> Never {
    ProcessEnvironment.write(message, to: 2)
    exit(status)
}

let options: VideoPlayerOptions
do {
    switch try VideoPlayerOptions.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        ProcessEnvironment.write(VideoPlayerOptions.help)
        exit(0)
    case .version:
        ProcessEnvironment.write("interlude-video 0.1")
        exit(0)
    case .run(let parsed):
        options = parsed
    }
} catch {
    fail(error.description, status: 64)
}

/// Loads the stream at `url` and plays it (following `reference`, with --join) until it ends.
func play(_ url: String, following reference: GroupReference?) async throws {
    let stream = try await StreamLoader.load(url)
    for warning in stream.warnings { ProcessEnvironment.write("warning: \(warning)", to: 2) }
    ProcessEnvironment.write("playing \(stream.uri): \(stream.plan.summary)")
    let player = VideoPlayer(stream: stream, options: options, reference: reference, launchedAt: launchedAt) { ProcessEnvironment.write($0) }
    try await player.run()
}

do {
    switch options.source {
    case .url(let url):
        try await play(url, following: nil)
    case .join(let invitation):
        ProcessEnvironment.write("joining \(invitation.server) as \(invitation.name)")
        let reference = GroupReference(invitation: invitation)
        try await reference.run(say: { ProcessEnvironment.write($0) }) { url in try await play(url, following: reference) }
    }
    ProcessEnvironment.write("cpu\t\((ProcessEnvironment.cpuSeconds * 100).rounded() / 100) s")
} catch {
    fail("interlude-video: \(error)", status: 1)
}
exit(0)
