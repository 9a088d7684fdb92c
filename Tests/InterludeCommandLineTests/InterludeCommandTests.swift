import Foundation
import HLSPlaylist
import InterludeCommandLine
import Testing

/// The repository's `Examples/` folder, found from this file.
let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")

func example(_ name: String) -> String { examples.appendingPathComponent(name).path }

/// Runs the CLI in-process and returns its exit code and captured streams.
func run(_ arguments: String...) async -> (code: Int32, out: String, err: String) {
    let io = CommandIO.capturing()
    let code = await InterludeCommand.run(arguments, io: io)
    return (code, io.capturedOutput, io.capturedError)
}

@Suite("interlude command line")
struct InterludeCommandTests {
    @Test("--help lists every subcommand and exits 0")
    func helpListsSubcommands() async {
        let result = await run("--help")
        #expect(result.code == 0)
        for name in ["inspect", "validate", "format"] {
            #expect(result.out.contains("  \(name) "), "missing \(name) in help")
        }
    }

    @Test("each subcommand's --help teaches its options and exits 0", arguments: ["inspect", "validate", "format"])
    func subcommandHelp(name: String) async {
        let result = await run(name, "--help")
        #expect(result.code == 0)
        #expect(result.out.contains("USAGE: interlude \(name)"))
        #expect(result.out.contains("OPTIONS:"))
        #expect(result.out.contains("EXAMPLES:"))
    }

    @Test("--version prints the version")
    func version() async {
        let result = await run("--version")
        #expect(result.code == 0)
        #expect(result.out == "interlude \(InterludeCommand.version)\n")
    }

    @Test("bad usage exits 64 with the usage line on stderr")
    func badUsage() async {
        let unknown = await run("inspect", "--bogus", "x")
        #expect(unknown.code == 64)
        #expect(unknown.err.contains("unknown option '--bogus'"))
        #expect(unknown.err.contains("USAGE: interlude inspect"))
        #expect(unknown.out.isEmpty)
        let missing = await run("inspect")
        #expect(missing.code == 64)
        #expect(missing.err.contains("missing argument <playlist>"))
        let subcommand = await run("frobnicate")
        #expect(subcommand.code == 64)
        let format = await run("inspect", "--format", "xml", example("multivariant.m3u8"))
        #expect(format.code == 64)
        #expect(format.err.contains("--format must be text or json"))
    }

    @Test("a missing file ends with one clear message and exit 1")
    func missingFile() async {
        let result = await run("inspect", "/nonexistent/playlist.m3u8")
        #expect(result.code == 1)
        #expect(result.err == "error: no such file: /nonexistent/playlist.m3u8\n")
        #expect(result.out.isEmpty)
    }

    @Test("a file that is not a playlist fails with its location")
    func notAPlaylist() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-not-a-playlist-\(UUID()).txt")
        try "hello\n".write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = await run("format", path.path)
        #expect(result.code == 1)
        #expect(result.err.contains("line 1, column 1: the first line must be #EXTM3U"))
    }

    @Test("inspect summarises a media playlist and its interstitials")
    func inspectMedia() async {
        let result = await run("inspect", example("vod-with-interstitials.m3u8"))
        #expect(result.code == 0)
        #expect(result.out.contains("36.000 s in 6 segments"))
        #expect(result.out.contains("4 (4 interstitials)"))
        #expect(result.out.contains("midroll-1  12.000 s"))
        #expect(result.out.contains("PRE,ONCE"))
    }

    @Test("inspect --format json has the interstitial attributes as typed values")
    func inspectJSON() async throws {
        let result = await run("inspect", "--format", "json", example("vod-with-interstitials.m3u8"))
        #expect(result.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "media")
        let media = try #require(json["media"] as? [String: Any])
        #expect(media["segmentCount"] as? Int == 6)
        let interstitials = try #require(media["interstitials"] as? [[String: Any]])
        #expect(interstitials.map { $0["id"] as? String } == ["preroll", "midroll-1", "promo", "postroll"])
        let midroll = interstitials[1]
        #expect(midroll["startOffset"] as? Double == 12)
        #expect(midroll["duration"] as? Double == 30)
        #expect(midroll["timelineOccupies"] as? String == "RANGE")
        #expect(midroll["skipControlOffset"] as? Double == 5)
        #expect(interstitials[2]["contentMayVary"] as? String == "NO")
    }

    @Test("inspect summarises a multivariant playlist")
    func inspectMultivariant() async {
        let result = await run("inspect", example("multivariant.m3u8"))
        #expect(result.code == 0)
        #expect(result.out.contains("variants       2, renditions 3, I-frame streams 1"))
        #expect(result.out.contains("2560000    1280x720"))
    }

    @Test("format writes a playlist back byte for byte", arguments: ["vod-with-interstitials.m3u8", "multivariant.m3u8", "live-low-latency.m3u8"])
    func formatIsLossless(name: String) async throws {
        let result = await run("format", example(name))
        #expect(result.code == 0)
        let original = try String(contentsOfFile: example(name), encoding: .utf8)
        #expect(result.out == original)
    }

    @Test("format --canonical rewrites into text that parses to the same playlist")
    func formatCanonical() async throws {
        let result = await run("format", "--canonical", example("live-low-latency.m3u8"))
        #expect(result.code == 0)
        let original = try MediaPlaylist(parsing: try String(contentsOfFile: example("live-low-latency.m3u8"), encoding: .utf8))
        let rewritten = try MediaPlaylist(parsing: result.out)
        #expect(rewritten == original)
        #expect(result.out.contains("#EXT-X-PART:DURATION=1.00001,URI=\"filePart2662.0.mp4\",INDEPENDENT=YES\n"))
    }
}

@Suite("interlude validate")
struct ValidateCommandTests {
    @Test("clean playlists exit 0 with a verdict per file on stderr")
    func cleanExamples() async {
        let result = await run("validate", example("vod-with-interstitials.m3u8"), example("multivariant.m3u8"), example("live-low-latency.m3u8"))
        #expect(result.code == 0)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("vod-with-interstitials.m3u8: valid (0 errors, 0 warnings)"))
    }

    @Test("a playlist with errors exits 2 and prints located diagnostics with rule ids")
    func errorsExitTwo() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-invalid-\(UUID()).m3u8")
        try """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T20:00:00.000Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T20:00:02.000Z"
            #EXTINF:6.000,
            a.ts
            #EXT-X-ENDLIST

            """.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = await run("validate", path.path)
        #expect(result.code == 2)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix("[interstitial.asset-uri-xor-list]") == true)
        #expect(lines.first?.contains(".m3u8:5: error:") == true)
        #expect(lines.last?.hasSuffix("[media.extinf-exceeds-target-duration]") == true)
        #expect(lines.last?.contains(".m3u8:6: error:") == true)
        #expect(result.err.contains("invalid"))
        let json = await run("validate", "--format", "json", path.path)
        #expect(json.code == 2)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        let diagnostics = try #require(decoded.first?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { ($0["ruleID"] as? String) == "media.extinf-exceeds-target-duration" && ($0["line"] as? Int) == 6 })
    }

    @Test("--list-rules prints every rule without needing a playlist")
    func listRules() async {
        let result = await run("validate", "--list-rules")
        #expect(result.code == 0)
        #expect(result.out.split(separator: "\n").count == PlaylistValidator.rules.count)
        #expect(result.out.contains("daterange.id-required"))
    }

    @Test("an unreadable playlist exits 1")
    func unreadable() async {
        let result = await run("validate", "/nonexistent.m3u8")
        #expect(result.code == 1)
        #expect(result.err.contains("no such file"))
    }
}
