import Foundation
import MediaTime
import PlayerEngine
import Testing

/// The URLSession loader against servers that never stop, drip, or fall silent: each load ends
/// with an error that says which limit ran out, and memory stays bounded.
@Suite("The HTTP loader against hostile servers", .serialized)
struct HostileServerTests {
    @Test("an endless response is cut off at the request's size limit, not read into memory")
    func endlessResponseIsCutOff() async throws {
        let server = try RawHTTPServer(.endless(limit: 1 << 30))
        defer { server.stop() }
        // The loader goes away with the load, as a command's does: what it leaves running must
        // stop too.
        func loadOnce() async throws(LoadError) {
            _ = try await HTTPResourceLoader(timeout: 10, deadline: 30).load(ResourceRequest(url: "http://127.0.0.1:\(server.port)/main.m3u8", maxBytes: 1 << 20))
        }
        do {
            try await loadOnce()
            Issue.record("an endless response must fail")
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.message.contains("larger than the limit of 1 MiB"))
            #expect(!error.isRetryable)
        }
        // The connection is dropped: the server soon cannot write any more (within five
        // seconds, however loaded the machine), and the process has not kept what it sent.
        var sent = server.bodyBytesSent
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(100))
            if server.bodyBytesSent == sent { break }
            sent = server.bodyBytesSent
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.bodyBytesSent == sent, "the server is still writing: the connection was not closed")
        // What the process can hold is at most what was sent: read whole, the body is 1 GiB.
        // (The process's resident size is no measure here: other suites run beside this one.)
        #expect(sent < 512 << 20)
    }

    @Test("a response dripped a byte at a time meets the overall deadline and says so")
    func drippedResponseMeetsTheDeadline() async throws {
        let server = try RawHTTPServer(.drip(length: 1000, interval: .milliseconds(100)))
        defer { server.stop() }
        let loader = HTTPResourceLoader(timeout: 5, deadline: 1.5)
        let start = ContinuousClock.now
        do {
            _ = try await loader.load(ResourceRequest(url: "http://127.0.0.1:\(server.port)/seg.ts"))
            Issue.record("a dripped response must time out")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.message == "timed out after 1.5 s: the whole response took longer than that")
        }
        #expect(start.duration(to: .now) < .seconds(10))
    }

    @Test("a server that sends headers and then nothing times out with the idle time-out named, not an NSURLErrorDomain code")
    func silentServerTimesOut() async throws {
        let server = try RawHTTPServer(.silent(hold: .seconds(20)))
        defer { server.stop() }
        let loader = HTTPResourceLoader(timeout: 1, deadline: 30)
        do {
            _ = try await loader.load(ResourceRequest(url: "http://127.0.0.1:\(server.port)/seg.ts"))
            Issue.record("a silent server must time out")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.message == "timed out after 1 s with no data from the server")
            #expect(!error.message.contains("NSURLErrorDomain"))
        }
    }

    @Test("a file larger than the limit, or a device that never ends, is refused without reading it whole")
    func endlessFileIsRefused() async throws {
        let loader = HTTPResourceLoader()
        do {
            _ = try await loader.load(ResourceRequest(url: "file:///dev/zero", maxBytes: 4096))
            Issue.record("/dev/zero must be refused")
        } catch {
            #expect(error.kind == .tooLarge)
        }
    }
}
