import Foundation
import MediaTime
import NetworkIO
import PlayerEngine
import Testing
import VirtualTime

@Suite("Resource loaders")
struct ResourceLoaderTests {
    @Test("a memory loader takes latency plus size over throughput on its clock, and reports it")
    func throttledOnVirtualTime() async throws {
        let driver = VirtualTimeDriver()
        let loader = MemoryResourceLoader(clock: driver.clock, conditions: .init(latency: .milliseconds(100), bytesPerSecond: 1_000_000))
        loader.set("http://origin/seg.ts", Array(repeating: 0x47, count: 500_000))
        let task = Task(executorPreference: driver.executor) { try await loader.load(ResourceRequest(url: "http://origin/seg.ts")) }
        driver.run(for: .milliseconds(599))
        #expect(driver.clock.pendingSleeps == 1)
        driver.run(for: .milliseconds(1))
        let loaded = try await task.value
        #expect(loaded.bytes.count == 500_000)
        #expect(loaded.elapsed == .milliseconds(600))
        #expect(loaded.bitsPerSecond == 500_000 * 8 / 0.6)
    }

    @Test("a memory loader serves byte ranges, 404s, injected failures, and records requests")
    func memoryErrors() async throws {
        let loader = MemoryResourceLoader(clock: ManualClock())
        loader.set("http://origin/a.ts", Array(0..<100))
        let range = try await loader.load(ResourceRequest(url: "http://origin/a.ts?_HLS_primary_id=x", byteRange: (10, 5)))
        #expect(range.bytes == [10, 11, 12, 13, 14])
        await #expect(throws: LoadError(kind: .notFound, url: "http://origin/b.ts", status: 404, message: "not found")) {
            try await loader.load(ResourceRequest(url: "http://origin/b.ts"))
        }
        loader.fail("http://origin/a.ts", with: LoadError(kind: .httpStatus, url: "http://origin/a.ts", status: 503, message: "busy"))
        do {
            _ = try await loader.load(ResourceRequest(url: "http://origin/a.ts"))
            Issue.record("an injected failure must throw")
        } catch {
            #expect(error.status == 503)
            #expect(error.isRetryable)
        }
        #expect(loader.requests.map(\.url) == ["http://origin/a.ts?_HLS_primary_id=x", "http://origin/b.ts", "http://origin/a.ts"])
    }

    @Test("which failures are worth a retry")
    func retryable() {
        #expect(LoadError(kind: .network, url: "u", message: "").isRetryable)
        #expect(LoadError(kind: .timeout, url: "u", message: "").isRetryable)
        #expect(LoadError(kind: .httpStatus, url: "u", status: 502, message: "").isRetryable)
        #expect(LoadError(kind: .httpStatus, url: "u", status: 429, message: "").isRetryable)
        #expect(!LoadError(kind: .httpStatus, url: "u", status: 403, message: "").isRetryable)
        #expect(!LoadError(kind: .notFound, url: "u", status: 404, message: "").isRetryable)
    }

    @Test("the HTTP loader fetches over real HTTP on loopback, whole and by byte range, and maps errors")
    func realHTTP() async throws {
        var router = HTTPRouter()
        router.get("/live/main.m3u8") { _ in
            HTTPResponse(headers: ["Content-Type": "application/vnd.apple.mpegurl"], body: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-loader-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data((0..<200).map { UInt8($0) }).write(to: directory.appendingPathComponent("seg.ts"))
        router.files("/media", directory: directory.path)
        let server = HTTPServer(configuration: .init(), router: router)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { server.shutdown() }
            let port = try await server.listeningPort()
            let loader = HTTPResourceLoader(timeout: 10)
            let playlist = try await loader.load(ResourceRequest(url: "http://127.0.0.1:\(port)/live/main.m3u8"))
            #expect(String(decoding: playlist.bytes, as: UTF8.self) == "#EXTM3U\n#EXT-X-TARGETDURATION:4\n")
            let range = try await loader.load(ResourceRequest(url: "http://127.0.0.1:\(port)/media/seg.ts", byteRange: (100, 4)))
            #expect(range.bytes == [100, 101, 102, 103])
            do {
                _ = try await loader.load(ResourceRequest(url: "http://127.0.0.1:\(port)/missing.m3u8"))
                Issue.record("a 404 must throw")
            } catch let error as LoadError {
                #expect(error.kind == .notFound)
                #expect(error.status == 404)
            }
            let file = try await loader.load(ResourceRequest(url: directory.appendingPathComponent("seg.ts").absoluteString, byteRange: (0, 3)))
            #expect(file.bytes == [0, 1, 2])
            do {
                _ = try await loader.load(ResourceRequest(url: "ftp://127.0.0.1/x"))
                Issue.record("an unsupported scheme must throw")
            } catch let error as LoadError {
                #expect(error.kind == .unsupportedURL)
            }
            server.shutdown()
            try await group.waitForAll()
        }
    }
}
