import Foundation
import HLSInterstitials
import HLSPlaylist
import InterludeCommandLine
import MediaTime
import PlayerEngine
import Testing

/// A VOD of six 4 s segments with three breaks, each playing `ad.m3u8` (two 3 s segments): a
/// pre-roll that resumes where it started, a point break at 8 s skippable after 2 s, and a 6 s
/// range break at 16 s. Segments are a few bytes of text: the player checks media it can read and
/// lets the rest pass.
///
/// On the host clock: pre 0–6, primary 0–8 over 6–14, mid 14–20, primary 8–16 over 20–28, range
/// 28–34 (primary resumes at 22), primary 22–24 over 34–36.
private struct PlayFixture {
    let directory: URL

    init(omitting omitted: Set<String> = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-play-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let main = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:4
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00.000Z",CUE="PRE",DURATION=6,X-ASSET-URI="ad.m3u8",X-RESUME-OFFSET=0
            #EXT-X-DATERANGE:ID="mid",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:08.000Z",DURATION=6,X-ASSET-URI="ad.m3u8",X-RESUME-OFFSET=0,X-SKIP-CONTROL-OFFSET=2
            #EXT-X-DATERANGE:ID="range",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:16.000Z",DURATION=6,X-ASSET-URI="ad.m3u8",X-TIMELINE-OCCUPIES="RANGE"

            """ + (0..<6).map { "#EXTINF:4.0,\nseg-\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        let ad = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:3\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:3.0,\nad-0.ts\n#EXTINF:3.0,\nad-1.ts\n#EXT-X-ENDLIST\n"
        var files = ["main.m3u8": main, "ad.m3u8": ad, "ad-0.ts": "ad 0", "ad-1.ts": "ad 1"]
        for index in 0..<6 { files["seg-\(index).ts"] = "segment \(index)" }
        for (name, text) in files where !omitted.contains(name) {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    var playlist: String { path("main.m3u8") }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Runs `interlude play` in-process as if on a terminal.
private func runOnTerminal(_ arguments: String...) async -> (code: Int32, out: String, err: String) {
    let io = CommandIO.capturing(isTerminal: true)
    let code = await InterludeCommand.run(arguments, io: io)
    return (code, io.capturedOutput, io.capturedError)
}

/// The trace's lines, decoded.
private func traceEvents(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }
}

/// The events a viewer notices (breaks starting and ending, skip buttons, jumps, the end), one
/// short line each: `14 currentEvent mid`, `20 breakEnded mid completed resumeAt=8`.
private func noticeable(_ events: [[String: Any]]) -> [String] {
    events.compactMap { event in
        let name = event["event"] as? String ?? "?"
        let head = "\(event["t"] ?? "?") \(name)"
        switch name {
        case "currentEvent": return "\(head) \(event["id"] as? String ?? "-")"
        case "breakEnded": return "\(head) \(event["id"] ?? "?") \(event["end"] ?? "?") resumeAt=\(event["resumeAt"] ?? "?")"
        case "skippable": return "\(head) \(event["id"] ?? "?") \((event["skippable"] as? Bool).map { String($0) } ?? "?")"
        case "timeJumped": return "\(head) to=\(event["to"] ?? "?") \(event["originator"] ?? "?")"
        case "playedToEnd": return head
        default: return nil
        }
    }
}

@Suite("interlude play")
struct PlayCommandTests {
    @Test("--virtual --trace - plays a VOD to its end, each break starting and ending at its exact host time")
    func virtualTraceOfBreaks() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", "--trace", "-", fixture.playlist)
        #expect(result.code == 0, "\(result.err)")
        let events = try traceEvents(result.out)
        #expect(noticeable(events) == [
            "0 currentEvent pre",
            "6 breakEnded pre completed resumeAt=0",
            "6 currentEvent -",
            "14 currentEvent mid",
            "16 skippable mid true",
            "20 breakEnded mid completed resumeAt=8",
            "20 currentEvent -",
            "28 currentEvent range",
            "34 breakEnded range completed resumeAt=22",
            "34 currentEvent -",
            "34 timeJumped to=22 player",
            "36 playedToEnd",
        ])
        // The trace has every event, loads included; the summary goes to stderr, out of its way.
        #expect(events.contains { $0["event"] as? String == "loaded" && ($0["url"] as? String)?.hasSuffix("/seg-5.ts") == true })
        #expect(result.err.hasPrefix("Summary: played to end after 0:36.000 of host time (virtual)\n"))
        #expect(result.err.contains("breaks     pre (completed), mid (completed), range (completed)"))
        #expect(result.err.contains("played     0:18.000 of primary content, 0:18.000 in 3 breaks"))
    }

    @Test("without a terminal, one readable line per notable event and a summary go to stdout")
    func logLines() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", fixture.playlist)
        #expect(result.code == 0)
        #expect(result.err.isEmpty)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in [
            "0:00.000  duration 0:24.000",
            "0:00.000  3 interstitial events: pre, mid, range",
            "0:14.000  break \"mid\" started",
            "0:16.000  break \"mid\" can be skipped",
            "0:20.000  break \"mid\" ended (completed); primary resumes at 0:08.000",
            "0:36.000  played to end",
            "Summary: played to end after 0:36.000 of host time (virtual)",
            "  stalls     0",
        ] {
            #expect(lines.contains(line), "missing line: \(line)")
        }
        #expect(!result.out.contains("\u{1B}["), "no terminal escapes in a log")
        #expect(!result.out.contains("{\"t\""), "no trace without --trace")
    }

    @Test("--action seek jumps at that host time; a break before the target plays again")
    func actionSeek() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let trace = fixture.path("trace.jsonl")
        let result = await run("play", "--virtual", "--trace", trace, "--action", "22s:seek:2", fixture.playlist)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("0:22.000  > seek to 0:02.000 (primary)\n"))
        #expect(result.out.contains("0:22.000  time jumped to 0:02.000 (user)\n"))
        #expect(result.out.contains("  actions    1 of 1 performed\n"))
        let events = try traceEvents(try String(contentsOfFile: trace, encoding: .utf8))
        // At 22 s primary is at 10; back to 2, "mid" (at 8) plays again 6 s later.
        #expect(Array(noticeable(events).drop { !$0.hasPrefix("22 ") }) == [
            "22 timeJumped to=2 user",
            "28 currentEvent mid",
            "30 skippable mid true",
            "34 breakEnded mid completed resumeAt=8",
            "34 currentEvent -",
            "42 currentEvent range",
            "48 breakEnded range completed resumeAt=22",
            "48 currentEvent -",
            "48 timeJumped to=22 player",
            "50 playedToEnd",
        ])
    }

    @Test("--action seek-break plays a break from an offset into it, and primary resumes after it")
    func actionSeekBreak() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", "--trace", "-", "--action", "30s:seek-break:mid@4", fixture.playlist)
        #expect(result.code == 0, "\(result.err)")
        let events = noticeable(try traceEvents(result.out))
        let after = Array(events.drop { !$0.hasPrefix("30 ") })
        // "mid" is a 6 s ad: from 4 s in, 2 s are left.
        #expect(after.contains("30 currentEvent mid"), "\(after)")
        #expect(after.contains("32 breakEnded mid completed resumeAt=8"), "\(after)")
    }

    @Test("--action skip ends a skippable break; pause and play delay the end by the pause")
    func actionSkipPausePlay() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", "--trace", "-", "--action", "15s:skip", "--action", "17s:skip",
                               "--action", "22s:pause", "--action", "25s:play", fixture.playlist)
        #expect(result.code == 0, "\(result.err)")
        let notices = noticeable(try traceEvents(result.out))
        // 15 s: not skippable yet (it becomes so at 16 s), so the break goes on; 17 s: skipped.
        #expect(notices.contains("17 breakEnded mid skipped resumeAt=8"))
        #expect(!notices.contains { $0.hasPrefix("15 breakEnded") })
        // Primary resumes at 17 instead of 20 (3 s earlier), and pauses 3 s: the end stays at 36.
        #expect(notices.last == "36 playedToEnd")
        #expect(result.err.contains("actions    4 of 4 performed"))
    }

    @Test("--duration stops after that much host time, with the position reached in the summary")
    func durationStops() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", "--duration", "10.5s", "--action", "20s:pause", fixture.playlist)
        #expect(result.code == 0)
        #expect(result.out.contains("Summary: stopped at the end of --duration after 0:10.500 of host time (virtual)\n"))
        #expect(result.out.contains("  position   primary 0:04.500 / 0:24.000, integrated 0:04.500 / 0:24.000\n"))
        #expect(result.out.contains("  actions    0 of 1 performed; not reached: 20s:pause\n"))
        #expect(!result.out.contains("played to end"))
    }

    @Test("--start begins on the primary timeline there: the pre-roll plays first and resumes there, earlier breaks are passed")
    func startPosition() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", "--trace", "-", "--start", "12", fixture.playlist)
        #expect(result.code == 0)
        #expect(noticeable(try traceEvents(result.out)) == [
            "0 currentEvent pre",
            "6 breakEnded pre completed resumeAt=12",
            "6 currentEvent -",
            "10 currentEvent range",
            "16 breakEnded range completed resumeAt=22",
            "16 currentEvent -",
            "16 timeJumped to=22 player",
            "18 playedToEnd",
        ])
    }

    @Test("--start inside a range break plays that break whole, from its start, after the pre-roll: starting is seeking")
    func startInsideRangeBreak() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await run("play", "--virtual", "--trace", "-", "--start", "19", fixture.playlist)
        #expect(result.code == 0)
        #expect(noticeable(try traceEvents(result.out)) == [
            "0 currentEvent pre",
            "6 breakEnded pre completed resumeAt=16",
            "6 currentEvent range",
            "12 breakEnded range completed resumeAt=22",
            "12 currentEvent -",
            "12 timeJumped to=22 player",
            "14 playedToEnd",
        ])
    }

    @Test("a live stream on virtual time needs --duration; with it, it plays to the live edge and stalls there")
    func liveOnVirtualTime() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let live = fixture.path("live.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:4.0,\nseg-0.ts\n#EXTINF:4.0,\nseg-1.ts\n"
            .write(toFile: live, atomically: true, encoding: .utf8)
        let endless = await run("play", "--virtual", live)
        #expect(endless.code == 64)
        #expect(endless.err == "error: \(live) is a live stream; on virtual time it needs --duration (for example --duration 5m)\n")
        #expect(!endless.out.contains("Summary"))
        let bounded = await run("play", "--virtual", "--duration", "1m", live)
        #expect(bounded.code == 0)
        #expect(bounded.out.contains("0:00.000  live stream\n"))
        #expect(bounded.out.contains("Summary: stopped at the end of --duration after 1:00.000 of host time (virtual)\n"))
        #expect(bounded.out.contains("  position   primary 0:08.000 / live"))
        #expect(bounded.out.contains("  stalls     1\n"))
    }

    @Test("on a terminal a transport bar shows the breaks, the playhead and the state, and the summary follows")
    func terminalBar() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let result = await runOnTerminal("play", "--virtual", fixture.playlist)
        #expect(result.code == 0)
        let screen = result.out
        #expect(screen.hasPrefix("\u{1B}[?25l"), "the cursor is hidden while the bar is drawn")
        #expect(screen.contains("\u{1B}[?25h"), "and shown again at the end")
        // The last bar: everything played, point breaks at 0 and 8 s, the range break at 16–22 s,
        // the playhead at the end.
        let bar = try #require(screen.components(separatedBy: "\n").last { $0.hasPrefix("[") && $0.contains("0:24.0 / 0:24.0") })
        #expect(bar.hasPrefix("[o"))
        #expect(bar.contains("=o="))
        #expect(bar.contains("#"))
        #expect(bar.contains("|]  0:24.0 / 0:24.0"))
        #expect(!bar.contains("-"), "nothing is left ahead")
        #expect(screen.contains("paused · primary 0:24.0 · host 0:36.0 (virtual)"))
        #expect(screen.contains("0:14.000  break \"mid\" started\n"), "events scroll above the bar")
        #expect(screen.contains("Summary: played to end after 0:36.000 of host time (virtual)\n"))
    }

    @Test("--quiet prints nothing but what is asked for")
    func quiet() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        let silent = await runOnTerminal("play", "--virtual", "--quiet", fixture.playlist)
        #expect(silent.code == 0)
        #expect(silent.out.isEmpty)
        #expect(silent.err.isEmpty)
        let traced = await runOnTerminal("play", "--virtual", "-q", "--trace", "-", fixture.playlist)
        #expect(traced.err.isEmpty)
        #expect(try traceEvents(traced.out).contains { $0["event"] as? String == "playedToEnd" })
        #expect(!traced.out.contains("Summary"))
    }

    @Test("a missing file ends with one clear message on stderr and exit 2")
    func missingFile() async {
        let result = await run("play", "--virtual", "/nonexistent/main.m3u8")
        #expect(result.code == 2)
        #expect(result.err == "error: cannot play /nonexistent/main.m3u8: no such file\n")
        #expect(result.out.isEmpty)
        let directory = await run("play", "--virtual", FileManager.default.temporaryDirectory.path)
        #expect(directory.code == 2)
        #expect(directory.err.contains("it is a directory"))
        let scheme = await run("play", "--virtual", "ftp://example.com/main.m3u8")
        #expect(scheme.code == 2)
        #expect(scheme.err == "error: cannot play ftp://example.com/main.m3u8: the ftp scheme is not supported; give an http, https or file URL or a path\n")
        let url = await run("play", "--virtual", "http://")
        #expect(url.code == 2)
        #expect(url.err == "error: cannot play http://: not a valid URL\n")
    }

    @Test("a malformed playlist fails the item: one message with the line at fault, exit 2")
    func malformedPlaylist() async throws {
        let fixture = try PlayFixture()
        defer { fixture.remove() }
        // What a misconfigured server or a wrong path often gives instead of a playlist.
        try "<!DOCTYPE html>\n<html><body>Not here</body></html>\n".write(toFile: fixture.playlist, atomically: true, encoding: .utf8)
        let result = await run("play", "--virtual", fixture.playlist)
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("error: cannot play \(fixture.playlist): line 1, column 1: the first line must be #EXTM3U"), "\(result.err)")
        #expect(result.err.components(separatedBy: "error:").count == 2, "one message")
        #expect(!result.out.contains("Summary"), "nothing played, so no summary")
    }

    @Test("media that cannot be loaded fails playback where it stops: exit 1, naming the segment")
    func missingSegment() async throws {
        let fixture = try PlayFixture(omitting: ["seg-3.ts"])
        defer { fixture.remove() }
        let result = await run("play", "--virtual", fixture.playlist)
        #expect(result.code == 1)
        let segment = URL(fileURLWithPath: fixture.path("seg-3.ts")).absoluteString
        #expect(result.err == "error: cannot play \(fixture.playlist): \(segment): no such file (after 1 attempt)\n")
        #expect(result.out.contains("Summary: failed after"))
    }

    @Test("bad usage exits 64 with the reason and the usage line", arguments: [
        (["play"], "missing argument <url-or-file>"),
        (["play", "--speed", "0", "x.m3u8"], "--speed must be a number above 0"),
        (["play", "--speed", "2", "--virtual", "x.m3u8"], "--speed and --virtual cannot be used together"),
        (["play", "--start", "-3", "x.m3u8"], "--start must be a time such as 90, 90s or 1m30s, not '-3'"),
        (["play", "--duration", "0", "x.m3u8"], "--duration must be a time above zero"),
        (["play", "--action", "10s:jump", "x.m3u8"], "unknown verb 'jump'; use seek:SECONDS, seek-integrated:SECONDS, seek-break:ID@SECONDS, pause, play, rate:R or skip"),
        (["play", "--action", "soon:pause", "x.m3u8"], "'soon' is not a time such as 30, 30s or 1m30s"),
        (["play", "--action", "10s:seek", "x.m3u8"], "seek needs a position"),
        (["play", "--action", "1m30s:pause:now", "x.m3u8"], "pause takes no argument"),
        (["play", "--action", "10", "x.m3u8"], "--action must be TIME:VERB[:ARG]"),
        (["play", "--action", "10s:rate:-1", "x.m3u8"], "rate needs a number from 0 to 64"),
        (["play", "--trace", "", "x.m3u8"], "--trace needs a file name"),
        (["play", "--frobnicate", "x.m3u8"], "unknown option '--frobnicate'"),
        (["play", "--mpris", "--virtual", "x.m3u8"], "--mpris plays in real time"),
        (["play", "--mpris", "--speed", "10", "x.m3u8"], "--mpris plays in real time"),
        (["play", "--title", "Big Movie", "x.m3u8"], "--title is the title --mpris publishes; give --mpris too"),
    ])
    func usageErrors(arguments: [String], message: String) async {
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(arguments, io: io)
        #expect(code == 64)
        #expect(io.capturedError.contains(message), "\(io.capturedError)")
        #expect(io.capturedError.contains("USAGE: interlude play [options] <url-or-file>"))
        #expect(io.capturedOutput.isEmpty)
    }

    @Test("--help explains every option, with examples for a folder over HTTP, the origin, a file and a trace")
    func help() async {
        let result = await run("play", "--help")
        #expect(result.code == 0)
        for option in ["--speed <N>", "--virtual", "--start <SECONDS>", "--duration <SECONDS>", "--action <TIME:VERB[:ARG]>", "(repeatable)",
                       "--trace <FILE>", "-q, --quiet", "--mpris", "--title <TITLE>", "-h, --help"] {
            #expect(result.out.contains(option), "missing \(option)")
        }
        for verb in ["seek:SECONDS", "seek-integrated:SECONDS", "pause", "play", "rate:R", "skip"] {
            #expect(result.out.contains(verb), "missing the verb \(verb)")
        }
        for example in ["python3 -m http.server", "interlude play http://127.0.0.1:8080/vod/movie/alice/main.m3u8",
                        "interlude play ./stream/main.m3u8", "interlude play --virtual --trace - "] {
            #expect(result.out.contains(example), "missing the example \(example)")
        }
        #expect(result.out.contains("Exit status: 0"))
        #expect(await run("--help").out.contains("  play "))
    }
}

extension PlayCommandTests {
    @Suite("interlude play's transport bar and clock")
    struct TransportBarTests {
        @Test("the bar draws point breaks as o, range breaks as #, what is played as = and the playhead as |")
        func barCells() throws {
            let text = """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
                #EXT-X-DATERANGE:ID="point",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10.000Z",DURATION=5,X-ASSET-URI="a.m3u8",X-RESUME-OFFSET=0
                #EXT-X-DATERANGE:ID="range",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:20.000Z",DURATION=10,X-ASSET-URI="b.m3u8",X-TIMELINE-OCCUPIES="RANGE"

                """ + (0..<4).map { "#EXTINF:10.0,\ns\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
            let playlist = try MediaPlaylist(parsing: text)
            let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: InterstitialEvent.events(in: playlist).events)
            let snapshot = IntegratedTimeline.Snapshot(schedule: schedule, position: .primary(MediaTime(seconds: 15)))
            let bar = PlayTransportBar(snapshot: snapshot, status: .playing, rate: 1, primaryTime: MediaTime(seconds: 15), eventID: nil, eventOffset: nil,
                                       isSkippable: false, hostTime: .seconds(20), clockName: "virtual")
            // 40 s over 40 columns: a column a second.
            let lines = bar.lines(width: 40 + 4 + "0:15.0 / 0:40.0".count + 1)
            #expect(lines == [
                "[==========o====|----##########----------]  0:15.0 / 0:40.0",
                "playing · primary 0:15.0 · host 0:20.0 (virtual)",
            ])
            let inBreak = PlayTransportBar(snapshot: snapshot, status: .waitingToPlayAtSpecifiedRate(.interstitialEvent), rate: 1,
                                           primaryTime: MediaTime(seconds: 10), eventID: "point", eventOffset: MediaTime(seconds: 2),
                                           isSkippable: true, hostTime: .seconds(12), clockName: "virtual")
            #expect(inBreak.lines(width: 200)[1] == "in a break · primary 0:10.0 · break \"point\" 0:02.0 / 0:05.0, skippable · host 0:12.0 (virtual)")
            #expect(inBreak.lines(width: 40).allSatisfy { $0.count < 40 }, "lines never wrap")
        }
    }
}
