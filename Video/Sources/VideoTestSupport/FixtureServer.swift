import NetworkIO

/// Fixtures/Media over HTTP on 127.0.0.1 (a free port), through NetworkIO's server: hlsdemux2
/// fetches with libsoup, which reads no `file://` URIs, so HLS is played over HTTP.
public enum FixtureServer {
    /// Fixtures/Media, from this file's place in Video/Sources/VideoTestSupport.
    public static let media: String = {
        var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4)
        return components.joined(separator: "/") + "/Fixtures/Media"
    }()

    /// Runs `body` with the base URL (`http://127.0.0.1:PORT/media`), then stops the server.
    /// The files of `extra` (a test's own playlists), when given, are at `http://127.0.0.1:PORT/extra`.
    public static func with<T: Sendable>(extra: String? = nil, _ body: (String) async throws -> T) async throws -> T {
        var router = HTTPRouter()
        router.files("/media", directory: media)
        if let extra { router.files("/extra", directory: extra) }
        let server = HTTPServer(router: router)
        let running = Task { try await server.run() }
        do {
            let port = try await server.listeningPort()
            let result = try await body("http://127.0.0.1:\(port)/media")
            server.shutdown()
            try await running.value
            return result
        } catch {
            server.shutdown()
            _ = try? await running.value
            throw error
        }
    }
}
