import Foundation
import Testing
import VideoTestSupport

/// interlude-video itself, run as a process into a window on a private Xvfb, against a playlist
/// with a break over HTTP. Real time, some 10 s.
@Suite("interlude-video", .enabled(if: XvfbDisplay.isAvailable, Comment(rawValue: XvfbDisplay.skipReason)), .serialized)
struct InterludeVideoTests {
    /// Beside the test bundle in the build directory.
    static var executable: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundle.appendingPathComponent("interlude-video").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/.build/debug/interlude-video"
    }

    /// A 2 s point break at 3.3 s of the 10 s HLS ad.
    static let pointBreak = "#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:03.300Z\",DURATION=2,X-RESUME-OFFSET=0,X-ASSET-URI=\"../media/ads/ad-10s/index.m3u8\""

    /// The fixture content with a PROGRAM-DATE-TIME and `dateRange` (X-RESUME-OFFSET=0), its URIs
    /// relative to /extra on the fixture server.
    static func playlist(_ dateRange: String = pointBreak) throws -> String {
        let text = try String(contentsOfFile: "\(FixtureServer.media)/content/index.m3u8", encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            if line.hasPrefix("#EXT-X-TARGETDURATION") {
                return [String(line), "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z", dateRange]
            }
            return line.hasPrefix("seg-") ? ["../media/content/\(line)"] : [String(line)]
        }.joined(separator: "\n")
    }

    /// Runs interlude-video with `arguments` and the URL of `playlist` on the fixture server, on
    /// a private display when `display` is set; its exit status and what it printed.
    static func run(_ playlist: String, _ arguments: [String], display: Bool) async throws -> (status: Int32?, printed: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-video-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try playlist.write(to: directory.appendingPathComponent("main.m3u8"), atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("output.txt").path
        let executable = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable), "no \(executable): swift build --package-path Video builds it")
        func play(_ display: [String]) async throws -> Int32? {
            try await FixtureServer.with(extra: directory.path) { base in
                let url = base.replacingOccurrences(of: "/media", with: "/extra") + "/main.m3u8"
                let pid = try ChildProcess.spawn([executable] + display + arguments + [url], output: output)
                return try await ChildProcess.wait(pid, within: .seconds(30))
            }
        }
        let status = display ? try await XvfbDisplay.with { try await play(["--display", $0]) } : try await play([])
        return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    @Test("plays the stream in its window, switches to the ad at the break and back, and exits 0 at --stop-after")
    func playsABreak() async throws {
        let (status, printed) = try await Self.run(try Self.playlist(), ["--mute", "--stop-after", "9"], display: true)
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none: killed after 30 s"); output:\n\(printed)")
        #expect(printed.contains("1 break: ad at 3.300 s (1 asset)"), "\(printed)")
        #expect(printed.contains("break ad started at 3.300 s"), "\(printed)")
        #expect(printed.contains("break ad played; primary resumed at 3.300 s"), "\(printed)")
        #expect(printed.contains("stopped after 9"), "\(printed)")
    }

    @Test("a pre-roll plays before primary: the ad from the start, then primary from 0")
    func playsAPreRoll() async throws {
        let preRoll = "#EXT-X-DATERANGE:ID=\"pre\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:00.000Z\",DURATION=2,X-RESUME-OFFSET=0,X-ASSET-URI=\"../media/ads/ad-10s/index.m3u8\""
        let (status, printed) = try await Self.run(try Self.playlist(preRoll), ["--measure", "--stop-after", "5"], display: false)
        #expect(status == 0, "\(printed)")
        #expect(printed.contains("1 break: pre at 0.000 s (1 asset)"), "\(printed)")
        #expect(!printed.contains("warning"), "no longer a warning: \(printed)")
        let started = try #require(printed.range(of: "break pre started at 0.000 s"), "\(printed)")
        let resumed = try #require(printed.range(of: "break pre played; primary resumed at 0.000 s"), "\(printed)")
        let firstFrame = try #require(printed.range(of: "to primary's first frame"), "\(printed)")
        #expect(started.lowerBound < resumed.lowerBound, "\(printed)")
        #expect(started.lowerBound < firstFrame.lowerBound, "no primary frame before the pre-roll: \(printed)")
    }

    @Test("a URL that answers 404 is a runtime error naming the URL (exit 1); a file path is a usage error (exit 64)")
    func errors() async throws {
        let executable = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-video-errors-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let missing = try await FixtureServer.with { base in
            let pid = try ChildProcess.spawn([executable, "--headless", "\(base)/missing.m3u8"], output: output)
            return try await ChildProcess.wait(pid, within: .seconds(20))
        }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(missing == 1, "\(printed)")
        #expect(printed.contains("missing.m3u8") && printed.contains("404"), "\(printed)")
        let usage = try ChildProcess.spawn([executable, "movie.m3u8"], output: nil)
        #expect(try await ChildProcess.wait(usage, within: .seconds(10)) == 64)
    }
}
