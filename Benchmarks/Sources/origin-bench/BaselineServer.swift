import NetworkIO
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A NetworkIO server that serves the playlist's bytes without rendering them, to split the
/// origin's cost into the network layer's and the origin's:
///
/// - `GET /static/NAME`: the file, through `HTTPRouter.files` (answered on the service thread, with
///   a `pread` per request, as nginx does);
/// - `GET /constant`: the same bytes, read once at start, from a handler (the path every origin
///   request takes: service thread → handler task on the Swift pool → inbox → service thread);
/// - `/ws`: the same echo WebSocket endpoint as `serve`.
struct BaselineServer {
    var port: Int
    var file: String

    /// Serves until SIGINT or SIGTERM (see ``ServerProcess``).
    func run() async throws {
        let bytes = try Self.read(file)
        let slash = file.lastIndex(of: "/")
        let directory = slash.map { String(file[..<$0]) } ?? "."
        var router = HTTPRouter()
        router.get("/constant") { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/vnd.apple.mpegurl"], body: bytes)
        }
        router.files("/static", directory: directory.isEmpty ? "/" : directory)
        let echo = EchoWebSocket()
        echo.install(on: &router, at: "/ws")
        try await ServerProcess.run(router: router, port: port, echo: echo)
    }

    struct ReadFailure: Error, CustomStringConvertible {
        var description: String
    }

    private static func read(_ path: String) throws(ReadFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(description: "cannot open \(path)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw ReadFailure(description: "cannot read \(path)") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
