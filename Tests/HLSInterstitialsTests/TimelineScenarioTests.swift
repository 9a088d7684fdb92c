import Foundation
import HLSInterstitials
import HLSPlaylist
import InterludeCommandLine
import MediaTime
import Testing
import TestSupport

/// A folder of `Scenarios/`: `primary.m3u8` (its comment lines say what the scenario shows and the
/// numbers expected), optional reloads and asset-list JSON files, an optional `args` file with the
/// extra `interlude timeline` arguments, and the goldens `timeline.txt` (the snapshot as a table)
/// and `timeline.json` (the exact `--format json` output).
struct Scenario: Sendable, CustomTestStringConvertible {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")

    /// Every scenario, by name.
    static let all: [Scenario] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            let path = root.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return Scenario(name: name)
        }
    }()

    let name: String
    var testDescription: String { name }
    var directory: URL { Self.root.appendingPathComponent(name) }
    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The words of the `args` file.
    func arguments() -> [String] {
        guard let text = try? String(contentsOf: file("args"), encoding: .utf8) else { return [] }
        return text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// The `interlude timeline --format json` command line, with the scenario's files made absolute.
    func commandLine() throws -> [String] {
        var result = ["timeline", "--format", "json"]
        var words = arguments()[...]
        while let option = words.popFirst() {
            guard let value = words.popFirst() else { throw ScenarioError("\(name)/args: \(option) needs a value") }
            switch option {
            case "--update":
                result += [option, file(value).path]
            case "--asset-list":
                let (uri, answer) = try Self.assetListAnswer(value)
                result += [option, uri + "=" + (answer == "error" ? answer : file(answer).path)]
            default:
                result += [option, value]
            }
        }
        return result + [file("primary.m3u8").path]
    }

    /// What the library makes of the scenario, built the way a player would: reloads applied in
    /// order on a continuing primary timeline, asset lists answered from the scenario's files.
    struct Built {
        var events: [InterstitialEvent]
        var schedule: InterstitialSchedule
        var snapshot: IntegratedTimeline.Snapshot
        var stitched: StitchedAds
        var at: MediaTime?
    }

    func build() throws -> Built {
        var updates: [String] = []
        var answers: [(uri: String, file: String)] = []
        var playedOnce: Set<String> = []
        var baseURL: String?
        var liveStart: MediaTime?
        var at: MediaTime?
        var words = arguments()[...]
        while let option = words.popFirst() {
            guard let value = words.popFirst() else { throw ScenarioError("\(name)/args: \(option) needs a value") }
            switch option {
            case "--update": updates.append(value)
            case "--asset-list": answers.append(try Self.assetListAnswer(value))
            case "--played-once": playedOnce.insert(value)
            case "--base-url": baseURL = value
            case "--live-start": liveStart = try Self.seconds(value)
            case "--at": at = try Self.seconds(value)
            default: Issue.record("\(name)/args: unknown option \(option)")
            }
        }
        let base = baseURL ?? file("primary.m3u8").absoluteString
        var playlist = try parse("primary.m3u8", base: base)
        var primary = PrimaryTimeline(playlist: playlist)
        for update in updates {
            playlist = try playlist.applying(deltaUpdate: try parse(update, base: base))
            primary = PrimaryTimeline(playlist: playlist, continuing: primary)
        }
        let events = InterstitialEvent.events(in: playlist).events
        var assetLists: [String: InterstitialSchedule.AssetListState] = [:]
        for (uri, answer) in answers {
            let wanted = URIResolution.resolve(InterstitialRequest.removingClientQueryItems(uri), against: base)
            let matching = events.filter { $0.assetListURI.map { URIResolution.resolve($0, against: base) } == wanted }
            #expect(!matching.isEmpty, "\(name)/args: no X-ASSET-LIST resolves to \(wanted)")
            let state: InterstitialSchedule.AssetListState
            if answer == "error" {
                state = .failed("request failed (simulated)")
            } else {
                let data = try Data(contentsOf: file(answer))
                do { state = .resolved(try AssetList(json: Array(data))) } catch { state = .failed(error.description) }
            }
            for event in matching { assetLists[event.identifier] = state }
        }
        let schedule = InterstitialSchedule(
            primary: primary, events: events, options: .init(assetLists: assetLists, playedOnce: playedOnce, startTime: liveStart)
        )
        var snapshot = IntegratedTimeline.Snapshot(schedule: schedule)
        if let at {
            let position = try #require(snapshot.position(atTimelineTime: at), "\(name): --at \(at) is off the timeline")
            snapshot = IntegratedTimeline.Snapshot(schedule: schedule, position: position)
        }
        return Built(events: events, schedule: schedule, snapshot: snapshot, stitched: StitchedAds(playlist: playlist), at: at)
    }

    private func parse(_ fileName: String, base: String) throws -> MediaPlaylist {
        let bytes = Array(try Data(contentsOf: file(fileName)))
        let result = try PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient, playlistURI: base))
        guard case .media(let playlist) = result.playlist else { throw ScenarioError("\(name)/\(fileName) is not a media playlist") }
        return playlist
    }

    private static func seconds(_ value: String) throws -> MediaTime {
        guard let time = MediaTime(decimal: value) else { throw ScenarioError("\(value) is not a number of seconds") }
        return time
    }

    private static func assetListAnswer(_ value: String) throws -> (uri: String, file: String) {
        guard let equals = value.lastIndex(of: "=") else { throw ScenarioError("--asset-list \(value) is not URI=FILE") }
        return (String(value[..<equals]), String(value[value.index(after: equals)...]))
    }
}

struct ScenarioError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The `timeline.txt` table: what a reviewer checks against the numbers in `primary.m3u8`.
enum TimelineTable {
    static func render(_ scenario: Scenario, _ built: Scenario.Built) -> String {
        let schedule = built.schedule
        let snapshot = built.snapshot
        let primary = schedule.primary
        var out = "scenario  \(scenario.name)\n"
        let count = primary.segmentStarts.count
        out += "primary   \(primary.isLive ? "live" : "VOD"), \(count) segment\(count == 1 ? "" : "s"), "
        out += "\(primary.start) ..< \(primary.end) (\(primary.duration) s)\n"
        out += "timeline  integrated \(primary.isLive ? "indefinite, known \(snapshot.knownDuration)" : "\(snapshot.duration)")"
        out += ", playout \(snapshot.playoutDuration)\n"

        out += "\nevents\n"
        if built.events.isEmpty { out += "  (none)\n" } else { out += table(
            header: ["id", "cue", "start", "duration", "offset", "authored", "resumes", "limit", "occupies", "style", "restrict", "snap",
                     "assets", "skip"],
            rows: built.events.map { event in
                let scheduled = schedule.scheduledBreak(id: event.identifier)
                return [
                    event.identifier,
                    cue(event),
                    scheduled.map { "\($0.start)" } ?? "-",
                    (scheduled?.duration ?? InterstitialSchedule.playedDuration(event: event, state: .pending)).map { "\($0)" } ?? "?",
                    scheduled.map { "\($0.resumptionOffset)" } ?? "-",
                    event.resumptionOffset.map { "\($0)" } ?? "default",
                    scheduled.map { "\($0.resumeTime)" } ?? "-",
                    event.playoutLimit.map { "\($0)" } ?? "-",
                    event.timelineOccupancy == .fill ? "range" : "point",
                    event.supplementsPrimaryContent ? "primary" : "highlight",
                    restrictions(event),
                    snap(event),
                    assets(scheduled, event),
                    (scheduled?.skipControl ?? event.skipControl).map(skip) ?? "-",
                ]
            }
        ) }
        if !schedule.exclusions.isEmpty {
            out += "\nnot scheduled\n"
            for exclusion in schedule.exclusions { out += "  \(exclusion.id): \(exclusion.reason.rawValue)\n" }
        }

        out += "\nsegments\n"
        out += table(
            header: ["#", "type", "event", "primary", "integrated", "playout"],
            rows: snapshot.segments.enumerated().map { index, segment in
                [String(index), segment.segmentType.rawValue, segment.eventID ?? "-", span(segment.primaryRange),
                 span(segment.timeMapping.target), span(segment.playoutRange)]
            }
        )
        if !built.stitched.ranges.isEmpty {
            out += "\nstitched ads (item time)\n"
            for range in built.stitched.ranges { out += "  \(span(range))\n" }
            out += "  content duration \(built.stitched.contentDuration) of \(built.stitched.itemDuration)\n"
        }
        if let at = built.at {
            out += "\nat \(at)\n"
            switch snapshot.currentPosition {
            case .primary(let time):
                out += "  primary \(time)\n"
            case .interstitial(let id, let offset):
                out += "  interstitial \(id), \(offset) into the break"
                if let (index, assetOffset) = schedule.scheduledBreak(id: id)?.asset(at: offset) {
                    out += ", asset \(index + 1) at \(assetOffset)"
                }
                out += "\n"
            }
        }
        return out
    }

    private static func span(_ range: MediaTimeRange) -> String { "\(range.start) ..< \(range.end)" }

    private static func cue(_ event: InterstitialEvent) -> String {
        var tokens: [String] = []
        if event.cue == .join { tokens.append("pre") }
        if event.cue == .leave { tokens.append("post") }
        if event.willPlayOnce { tokens.append("once") }
        return tokens.isEmpty ? "-" : tokens.joined(separator: ",")
    }

    private static func restrictions(_ event: InterstitialEvent) -> String {
        var tokens: [String] = []
        if event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) { tokens.append("skip") }
        if event.restrictions.contains(.constrainsSeekingForwardInPrimaryContent) { tokens.append("jump") }
        return tokens.isEmpty ? "-" : tokens.joined(separator: ",")
    }

    private static func snap(_ event: InterstitialEvent) -> String {
        var tokens: [String] = []
        if event.alignsStartWithPrimarySegmentBoundary { tokens.append("out") }
        if event.alignsResumptionWithPrimarySegmentBoundary { tokens.append("in") }
        return tokens.isEmpty ? "-" : tokens.joined(separator: ",")
    }

    private static func assets(_ scheduled: InterstitialSchedule.Break?, _ event: InterstitialEvent) -> String {
        if case .failed? = scheduled?.assetListState { return "failed" }
        guard let assets = scheduled?.assets else { return event.assetListURI == nil ? "-" : "pending" }
        return assets.isEmpty ? "none" : assets.map { $0.duration.map { "\($0)" } ?? "?" }.joined(separator: "+")
    }

    private static func skip(_ control: InterstitialEvent.SkipControl) -> String {
        "at \(control.offset) for \(control.duration.map { "\($0)" } ?? "rest")" + (control.labelID.map { " \"\($0)\"" } ?? "")
    }

    private static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            return "  " + cells.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

@Suite("Timeline scenarios: golden tables and `interlude timeline --format json`")
struct TimelineScenarioTests {
    @Test("there are at least 25 scenarios, each with a primary playlist and both goldens")
    func inventory() {
        #expect(Scenario.all.count >= 25)
        for scenario in Scenario.all {
            for name in ["primary.m3u8", "timeline.txt", "timeline.json"] {
                #expect(FileManager.default.fileExists(atPath: scenario.file(name).path), "\(scenario.name) has no \(name)")
            }
        }
    }

    @Test("the snapshot's timeline table matches the reviewed golden", arguments: Scenario.all)
    func table(_ scenario: Scenario) throws {
        let built = try scenario.build()
        Golden.check(TimelineTable.render(scenario, built), against: scenario.file("timeline.txt"))
    }

    @Test("`interlude timeline --format json` prints the reviewed golden, and agrees with the snapshot", arguments: Scenario.all)
    func json(_ scenario: Scenario) async throws {
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(try scenario.commandLine(), io: io)
        #expect(code == 0, "stderr: \(io.capturedError)")
        let stderr = io.capturedError.replacingOccurrences(of: scenario.directory.path, with: "<scenario>")
        // Warnings are part of the behaviour: a scenario that has them keeps them in stderr.txt.
        if !stderr.isEmpty || FileManager.default.fileExists(atPath: scenario.file("stderr.txt").path) {
            Golden.check(stderr, against: scenario.file("stderr.txt"))
        }
        Golden.check(io.capturedOutput, against: scenario.file("timeline.json"))

        // The CLI and the library agree on every segment.
        let root = try #require(try JSONSerialization.jsonObject(with: Data(io.capturedOutput.utf8)) as? [String: Any])
        let segments = try #require(root["segments"] as? [[String: Any]])
        let snapshot = try scenario.build().snapshot
        #expect(segments.count == snapshot.segments.count)
        for (json, segment) in zip(segments, snapshot.segments) {
            #expect(json["type"] as? String == segment.segmentType.rawValue)
            #expect(json["event"] as? String == segment.eventID)
            for (key, range) in [("primary", segment.primaryRange), ("integrated", segment.timeMapping.target), ("playout", segment.playoutRange)] {
                let pair = try #require(json[key] as? [String: Double])
                #expect(pair["start"] == range.start.seconds && pair["end"] == range.end.seconds, "\(scenario.name): \(key)")
            }
        }
    }

    @Test("the JSON has exactly the documented keys at every level", arguments: Scenario.all)
    func jsonShape(_ scenario: Scenario) async throws {
        let io = CommandIO.capturing()
        _ = await InterludeCommand.run(try scenario.commandLine(), io: io)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(io.capturedOutput.utf8)) as? [String: Any])
        #expect(Set(root.keys) == ["live", "events", "segments", "duration", "stitchedAdRanges"])
        #expect(root["live"] is Bool)
        let duration = try #require(root["duration"] as? [String: Any])
        #expect(Set(duration.keys) == ["primary", "integrated", "playout"])
        let events = try #require(root["events"] as? [[String: Any]])
        for event in events {
            #expect(Set(event.keys) == [
                "id", "cue", "start", "startDate", "duration", "plannedDuration", "resumptionOffset", "resumeTime", "playoutLimit", "snap",
                "restrict", "timelineOccupancy", "timelineStyle", "contentMayVary", "assetURI", "assetListURI", "assets", "skipControl",
            ])
            #expect(["point", "range"].contains(event["timelineOccupancy"] as? String))
            #expect(["highlight", "primary"].contains(event["timelineStyle"] as? String))
            #expect(event["contentMayVary"] is Bool)
            for (key, allowed) in [("cue", ["pre", "post", "once"]), ("snap", ["in", "out"]), ("restrict", ["skip", "jump"])] {
                let tokens = try #require(event[key] as? [String], "\(key) is an array")
                #expect(Set(tokens).isSubset(of: allowed))
            }
            if let assets = event["assets"] as? [[String: Any]] {
                for asset in assets { #expect(Set(asset.keys) == ["uri", "duration"]) }
            }
            if let skip = event["skipControl"] as? [String: Any] {
                #expect(Set(skip.keys) == ["offset", "duration", "labelId"])
            }
        }
        let segments = try #require(root["segments"] as? [[String: Any]])
        for segment in segments {
            #expect(Set(segment.keys) == ["type", "event", "primary", "integrated", "playout"])
            #expect(["primary", "interstitial"].contains(segment["type"] as? String))
            for key in ["primary", "integrated", "playout"] {
                #expect(Set((segment[key] as? [String: Any])?.keys ?? [:].keys) == ["start", "end"])
            }
        }
        let stitched = try #require(root["stitchedAdRanges"] as? [[String: Any]])
        for range in stitched { #expect(Set(range.keys) == ["start", "end"]) }
    }
}
