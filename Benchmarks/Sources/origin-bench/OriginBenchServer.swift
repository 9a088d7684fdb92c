import HLSPlaylist
import MediaTime
import NetworkIO
import StreamOrigin
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The server under test: the default origin configuration, routed exactly as `interlude origin`
/// routes it (``OriginServer/router(for:wallClock:fallbackBaseURL:)``), plus an echo WebSocket
/// endpoint at `/ws`, on one NetworkIO server (one libwebsockets service thread, handlers on the
/// Swift concurrency pool). Unlike `interlude origin` it writes no access log line per request.
struct OriginBenchServer {
    var port: Int
    var mediaDirectory: String

    /// Serves until SIGINT or SIGTERM (see ``ServerProcess``).
    func run() async throws {
        let origin = try Self.makeOrigin(mediaDirectory: mediaDirectory)
        var router = OriginServer.router(for: origin, wallClock: Self.wallClock, fallbackBaseURL: "http://127.0.0.1:\(port)")
        let echo = EchoWebSocket()
        echo.install(on: &router, at: "/ws")
        try await ServerProcess.run(router: router, port: port, echo: echo)
    }

    /// The default configuration's origin on the media in `mediaDirectory`.
    static func makeOrigin(mediaDirectory: String) throws -> Origin {
        let configuration = OriginConfiguration.default
        let library = try MediaLibrary.load(directory: mediaDirectory, configuration: configuration)
        return try Origin(configuration: configuration, library: library, liveStartDate: liveStartDate(for: configuration))
    }

    /// As `interlude origin` does: live streams started one window (and one break interval) ago.
    private static func liveStartDate(for configuration: OriginConfiguration) -> PlaylistDate {
        var lead = MediaTime.zero
        for stream in configuration.streams {
            guard case .live(let live) = stream.timing else { continue }
            lead = MediaTime.max(lead, live.window + (live.repeatingBreak?.interval ?? .zero))
        }
        let now = wallClock()
        return PlaylistDate(nanosecondsSince1970: now.nanosecondsSince1970 / 1_000_000_000 * 1_000_000_000).adding(-lead)
    }

    /// The system's real-time clock.
    static let wallClock: @Sendable () -> PlaylistDate = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return PlaylistDate(nanosecondsSince1970: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    }
}
