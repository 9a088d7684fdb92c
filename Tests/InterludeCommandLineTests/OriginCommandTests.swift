import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HLSPlaylist
import InterludeCommandLine
import MediaTime
import StreamOrigin
import Testing

@Suite("interlude origin")
struct OriginCommandTests {
    @Test("--help explains the URL layout, the default viewers and the options")
    func help() async {
        let result = await run("origin", "--help")
        #expect(result.code == 0)
        #expect(result.out.contains("USAGE: interlude origin [options]"))
        for text in ["--config <file>", "--port <n>", "--host <address>", "--media <directory>", "/ads/<stream>/<viewer>/<break>.json", "charlie"] {
            #expect(result.out.contains(text), "missing \(text)")
        }
        #expect(await run("--help").out.contains("  origin "))
    }

    @Test("--print-config prints the embedded default, which reads back")
    func printConfig() async throws {
        let result = await run("origin", "--print-config")
        #expect(result.code == 0)
        let configuration = try OriginConfiguration(json: Array(result.out.utf8))
        #expect(configuration == OriginConfiguration.default)
    }

    @Test("bad options exit 64; a configuration or media problem exits 1 with its location")
    func failures() async throws {
        let port = await run("origin", "--port", "70000")
        #expect(port.code == 64)
        #expect(port.err.contains("--port must be a TCP port"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("origin-\(UUID().uuidString).json")
        try Data(#"{"viewers": [{"id": "bob", "pod": ["missing"]}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let config = await run("origin", "--config", file.path)
        #expect(config.code == 1)
        #expect(config.err.contains("$.viewers[0].pod[0]"))
        let media = await run("origin", "--media", "/nonexistent")
        #expect(media.code == 1)
        #expect(media.err.contains("/nonexistent/content"))
    }

    @Test("served in-process on a free port: the banner gives working URLs and each request is logged to stderr")
    func serves() async throws {
        let io = CommandIO.capturing()
        let fixed = PlaylistDate(iso8601: "2026-03-01T12:00:00Z")!
        let prepared = try OriginCommand.prepare(["--port", "0"], io: io, wallClock: { fixed })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await OriginCommand.serve(prepared, io: io) }
            defer { prepared.server.shutdown() }
            let port = try await prepared.server.listeningPort()
            let url = "http://127.0.0.1:\(port)/live/channel-stitched/charlie/main.m3u8"
            let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let playlist = try MediaPlaylist(parsing: Array(data))
            let lastDate = try #require(playlist.programDateTimes().last ?? nil)
            #expect(fixed.timeIntervalSince(lastDate) == MediaTime(seconds: 4), "the live edge is the injected wall clock's")
            prepared.server.shutdown()
            try await group.waitForAll()
        }
        #expect(io.capturedOutput.contains("http://127.0.0.1:"))
        #expect(io.capturedOutput.contains("/vod/movie/charlie/main.m3u8"))
        #expect(io.capturedOutput.contains("interlude timeline http://127.0.0.1:"))
        #expect(io.capturedError.contains("GET /live/channel-stitched/charlie/main.m3u8 200"))
    }
}
