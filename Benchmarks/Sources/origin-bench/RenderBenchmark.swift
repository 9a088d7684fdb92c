import HLSPlaylist
import StreamOrigin

/// Times ``Origin/respond(to:at:)`` for one path in a loop on one thread, without the network:
/// the origin's own cost per request, which the HTTP figures include.
struct RenderBenchmark {
    var mediaDirectory: String
    var path: String
    var minimumSeconds: Double

    /// Returns `RESULT render path=PATH bytes=N iters=K median_us=X min_us=Y`.
    func run() throws -> String {
        let origin = try OriginBenchServer.makeOrigin(mediaDirectory: mediaDirectory)
        let request = OriginRequest(path: path, baseURL: "http://127.0.0.1:8080")
        let now = OriginBenchServer.wallClock()
        var bytes = 0
        for _ in 0..<100 { bytes = origin.respond(to: request, at: now).body.count }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        let deadline = clock.now + .milliseconds(Int(minimumSeconds * 1_000))
        var checksum = 0
        while clock.now < deadline || samples.count < 100 {
            let start = clock.now
            for _ in 0..<100 { checksum &+= origin.respond(to: request, at: now).body.count }
            samples.append((clock.now - start) / 100)
        }
        samples.sort()
        func microseconds(_ duration: Duration) -> Double {
            (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12 * 10).rounded() / 10
        }
        printError("checksum=\(checksum)")
        return "RESULT render path=\(path) bytes=\(bytes) iters=\(samples.count * 100) "
            + "median_us=\(microseconds(samples[samples.count / 2])) min_us=\(microseconds(samples[0]))"
    }
}
