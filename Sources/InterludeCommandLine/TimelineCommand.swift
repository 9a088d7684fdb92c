import Foundation
import HLSInterstitials
import HLSPlaylist
import MediaTime
import NetworkIO

/// `interlude timeline`: the events, the schedule and the integrated timeline of a stream.
enum TimelineCommand: Subcommand {
    static let spec = CommandSpec(
        name: "timeline",
        abstract: "Show a stream's interstitial schedule and integrated timeline, with a transport bar.",
        discussion: """
            Reads a media playlist, builds its interstitial events (EXT-X-DATERANGE with
            CLASS="com.apple.hls.interstitial"), places them on the primary timeline (START-DATE through
            PROGRAM-DATE-TIME, CUE, X-SNAP, resumption offsets, X-PLAYOUT-LIMIT) and prints the events,
            the schedule (primary, integrated and playout ranges of every segment) and a transport bar:
            'o' marks a point break, '#' a range break that does not supplement primary content, '='
            primary content and '|' the current time. Stitched ads (CUE-OUT / CUE-IN or SCTE-35) are
            listed as ranges.
            Asset lists are not fetched: answer them offline with --asset-list, otherwise each break uses
            its DURATION or PLANNED-DURATION. Times are in seconds.
            """,
        arguments: [.init(name: "playlist", help: "A media playlist file path or an http(s):// URL.")],
        options: [
            .init(long: "asset-list", short: nil, valueName: "URI=FILE",
                  help: "Answer the asset-list request for URI (as the playlist gives it, resolved) with FILE; FILE may be 'error' to simulate a failed request.",
                  isRepeatable: true),
            .init(long: "base-url", short: nil, valueName: "URL", help: "Resolve a local file's relative URIs as if it had been loaded from URL."),
            .init(long: "update", short: nil, valueName: "FILE", help: "Apply a later reload of a live playlist (delta updates are expanded), in order.", isRepeatable: true),
            .init(long: "live-start", short: nil, valueName: "SECONDS", help: "Where playback joins on the primary timeline (join cues play there)."),
            .init(long: "at", short: nil, valueName: "SECONDS", help: "Show what plays at this integrated time and mark it on the bar."),
            .init(long: "played-once", short: nil, valueName: "ID", help: "Treat this CUE=ONCE event as already played.", isRepeatable: true),
            .init(long: "width", short: nil, valueName: "COLUMNS", help: "Width of the transport bar (default 72)."),
            .init(long: "format", short: nil, valueName: "text|json", help: "Output format (default: text)."),
        ],
        examples: [
            "interlude timeline Examples/vod-with-interstitials.m3u8",
            "interlude timeline --asset-list ads/midroll-1.json=midroll.json --at 20 stream.m3u8",
            "interlude timeline --update reload-2.m3u8 --update reload-3.m3u8 --format json live.m3u8",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let format = try OutputFormat(arguments.value("format"))
        let location = arguments.positionals[0]
        let liveStart = try seconds(arguments.value("live-start"), option: "live-start")
        let at = try seconds(arguments.value("at"), option: "at")
        let width = try arguments.value("width").map { value -> Int in
            guard let number = Int(value), number >= 10, number <= 400 else {
                throw UsageError(message: "--width must be a number of columns between 10 and 400, not '\(value)'", command: spec)
            }
            return number
        } ?? 72

        let (bytes, loadedURI) = try await CommandLineInput.load(location)
        let baseURI = arguments.value("base-url") ?? loadedURI
        var playlist = try parseMedia(bytes, location: location, uri: baseURI, io: io)
        var primary = PrimaryTimeline(playlist: playlist)
        for update in arguments.values("update") {
            let (updateBytes, updateURI) = try await CommandLineInput.load(update)
            let reload = try parseMedia(updateBytes, location: update, uri: arguments.value("base-url") ?? updateURI, io: io)
            do {
                playlist = try playlist.applying(deltaUpdate: reload)
            } catch {
                throw CommandFailure(message: "\(update): \(error)")
            }
            primary = PrimaryTimeline(playlist: playlist, continuing: primary)
        }

        let (events, eventErrors) = InterstitialEvent.events(in: playlist)
        for error in eventErrors { io.writeError("warning: " + TerminalText.escaped("\(error)") + (error.keepsEvent ? "" : " (ignored)") + "\n") }

        var assetLists: [String: InterstitialSchedule.AssetListState] = [:]
        let answers = try arguments.values("asset-list").map { try assetListAnswer($0) }
        for (uri, file) in answers {
            let wanted = URIResolution.resolve(InterstitialRequest.removingClientQueryItems(uri), against: baseURI)
            let matching = events.filter { event in
                event.assetListURI.map { URIResolution.resolve($0, against: baseURI) == wanted } ?? false
            }
            if matching.isEmpty {
                io.writeError("warning: " + TerminalText.escaped("--asset-list \(uri): no event's X-ASSET-LIST resolves to \(wanted)") + "\n")
                continue
            }
            let state: InterstitialSchedule.AssetListState
            if file == "error" {
                state = .failed("request failed (simulated)")
            } else {
                let (data, _) = try await CommandLineInput.load(file)
                do {
                    let list = try AssetList(json: data)
                    for skipped in list.skippedAssets { io.writeError("warning: " + TerminalText.escaped("\(file): \(skipped)") + "\n") }
                    state = .resolved(list)
                } catch {
                    io.writeError("warning: " + TerminalText.escaped("\(file): \(error); the break is skipped (resumption offset 0)") + "\n")
                    state = .failed(error.description)
                }
            }
            for event in matching { assetLists[event.identifier] = state }
        }

        let options = InterstitialSchedule.Options(
            assetLists: assetLists,
            playedOnce: Set(arguments.values("played-once")),
            startTime: liveStart
        )
        let schedule = InterstitialSchedule(primary: primary, events: events, options: options)
        var snapshot = IntegratedTimeline.Snapshot(schedule: schedule)
        if let at {
            guard let position = snapshot.position(atTimelineTime: at) else {
                throw CommandFailure(message: "--at \(at.decimalString()) is outside the integrated timeline (\(snapshot.segments.first?.timeMapping.target.start.decimalString() ?? "0") … \(snapshot.knownDuration.decimalString()))")
            }
            snapshot = IntegratedTimeline.Snapshot(schedule: schedule, position: position)
        }
        let stitched = StitchedAds(playlist: playlist)
        let report = TimelineReport(events: events, schedule: schedule, snapshot: snapshot, stitched: stitched)
        switch format {
        case .json:
            io.write(try JSONOutput.encode(report))
        case .text:
            let text = TimelineText.render(report: report, snapshot: snapshot, schedule: schedule, stitched: stitched,
                                           location: location, at: at, width: width)
            io.write(TerminalText.escaped(text, keepingNewlines: true))
        }
        return 0
    }

    /// Parses leniently, as a player does, and reports on stderr each tag that was dropped or
    /// repaired, with its line (what `validate` reports as errors).
    private static func parseMedia(_ bytes: [UInt8], location: String, uri: String, io: CommandIO) throws -> MediaPlaylist {
        let result: ParseResult
        do {
            result = try PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient, playlistURI: uri))
        } catch {
            throw CommandFailure(message: "\(location): \(TerminalText.describing(error))")
        }
        for diagnostic in result.diagnostics where diagnostic.severity == .error {
            io.writeError("warning: " + TerminalText.escaped("\(location): \(diagnostic.locatedMessage); read tolerantly") + "\n")
        }
        guard case .media(let playlist) = result.playlist else {
            throw CommandFailure(message: "\(location) is a multivariant playlist; give one of its media playlists")
        }
        return playlist
    }

    private static func seconds(_ value: String?, option: String) throws -> MediaTime? {
        guard let value else { return nil }
        guard let time = MediaTime(decimal: value) else {
            throw UsageError(message: "--\(option) must be a number of seconds such as 30 or 12.5, not '\(value)'", command: spec)
        }
        return time
    }

    private static func assetListAnswer(_ value: String) throws -> (uri: String, file: String) {
        guard let equals = value.lastIndex(of: "="), equals != value.startIndex, value.index(after: equals) != value.endIndex else {
            throw UsageError(message: "--asset-list must be URI=FILE, not '\(value)'", command: spec)
        }
        return (String(value[..<equals]), String(value[value.index(after: equals)...]))
    }
}

/// The `--format json` shape of `interlude timeline` (times in seconds, absent values null).
struct TimelineReport: Encodable {
    struct Range: Encodable {
        var start: Double
        var end: Double
        init(_ range: MediaTimeRange) {
            start = range.start.seconds
            end = range.end.seconds
        }
    }

    struct Asset: Encodable {
        var uri: String
        var duration: Double?

        enum CodingKeys: String, CodingKey { case uri, duration }

        // Nulls are written, not omitted: the shape is fixed.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uri, forKey: .uri)
            try container.encode(duration, forKey: .duration)
        }
    }

    struct SkipControl: Encodable {
        var offset: Double
        var duration: Double?
        var labelId: String?

        enum CodingKeys: String, CodingKey { case offset, duration, labelId }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(offset, forKey: .offset)
            try container.encode(duration, forKey: .duration)
            try container.encode(labelId, forKey: .labelId)
        }
    }

    struct Event: Encodable {
        var id: String
        var cue: [String]
        var start: Double?
        var startDate: String?
        var duration: Double?
        var plannedDuration: Double?
        var resumptionOffset: Double?
        var resumeTime: Double?
        var playoutLimit: Double?
        var snap: [String]
        var restrict: [String]
        var timelineOccupancy: String
        var timelineStyle: String
        var contentMayVary: Bool
        var assetURI: String?
        var assetListURI: String?
        var assets: [Asset]?
        var skipControl: SkipControl?

        enum CodingKeys: String, CodingKey {
            case id, cue, start, startDate, duration, plannedDuration, resumptionOffset, resumeTime, playoutLimit, snap, restrict
            case timelineOccupancy, timelineStyle, contentMayVary, assetURI, assetListURI, assets, skipControl
        }

        // Nulls are written, not omitted: the shape is fixed.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(cue, forKey: .cue)
            try container.encode(start, forKey: .start)
            try container.encode(startDate, forKey: .startDate)
            try container.encode(duration, forKey: .duration)
            try container.encode(plannedDuration, forKey: .plannedDuration)
            try container.encode(resumptionOffset, forKey: .resumptionOffset)
            try container.encode(resumeTime, forKey: .resumeTime)
            try container.encode(playoutLimit, forKey: .playoutLimit)
            try container.encode(snap, forKey: .snap)
            try container.encode(restrict, forKey: .restrict)
            try container.encode(timelineOccupancy, forKey: .timelineOccupancy)
            try container.encode(timelineStyle, forKey: .timelineStyle)
            try container.encode(contentMayVary, forKey: .contentMayVary)
            try container.encode(assetURI, forKey: .assetURI)
            try container.encode(assetListURI, forKey: .assetListURI)
            try container.encode(assets, forKey: .assets)
            try container.encode(skipControl, forKey: .skipControl)
        }
    }

    struct Segment: Encodable {
        var type: String
        var event: String?
        var primary: Range
        var integrated: Range
        var playout: Range

        enum CodingKeys: String, CodingKey { case type, event, primary, integrated, playout }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(event, forKey: .event)
            try container.encode(primary, forKey: .primary)
            try container.encode(integrated, forKey: .integrated)
            try container.encode(playout, forKey: .playout)
        }
    }

    struct Durations: Encodable {
        var primary: Double?
        var integrated: Double?
        var playout: Double?

        enum CodingKeys: String, CodingKey { case primary, integrated, playout }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(primary, forKey: .primary)
            try container.encode(integrated, forKey: .integrated)
            try container.encode(playout, forKey: .playout)
        }
    }

    var live: Bool
    var events: [Event]
    var segments: [Segment]
    var duration: Durations
    var stitchedAdRanges: [Range]

    init(events: [InterstitialEvent], schedule: InterstitialSchedule, snapshot: IntegratedTimeline.Snapshot, stitched: StitchedAds) {
        live = schedule.primary.isLive
        self.events = events.map { event in
            let scheduled = schedule.scheduledBreak(id: event.identifier)
            var cue: [String] = []
            if event.cue == .join { cue.append("pre") }
            if event.cue == .leave { cue.append("post") }
            if event.willPlayOnce { cue.append("once") }
            var snap: [String] = []
            if event.alignsStartWithPrimarySegmentBoundary { snap.append("out") }
            if event.alignsResumptionWithPrimarySegmentBoundary { snap.append("in") }
            var restrict: [String] = []
            if event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) { restrict.append("skip") }
            if event.restrictions.contains(.constrainsSeekingForwardInPrimaryContent) { restrict.append("jump") }
            let startDate: String?
            if case .date(let date) = event.start { startDate = date.iso8601String } else { startDate = nil }
            let duration = scheduled?.duration ?? InterstitialSchedule.playedDuration(event: event, state: .pending)
            let skip = scheduled?.skipControl ?? event.skipControl
            return Event(
                id: event.identifier,
                cue: cue,
                start: scheduled?.start.seconds,
                startDate: startDate,
                duration: duration?.seconds,
                plannedDuration: event.plannedDuration?.seconds,
                resumptionOffset: event.resumptionOffset.flatMap { $0.isNumeric ? $0.seconds : nil },
                resumeTime: scheduled?.resumeTime.seconds,
                playoutLimit: event.playoutLimit?.seconds,
                snap: snap,
                restrict: restrict,
                timelineOccupancy: event.timelineOccupancy == .fill ? "range" : "point",
                timelineStyle: event.supplementsPrimaryContent ? "primary" : "highlight",
                contentMayVary: event.contentMayVary,
                assetURI: event.assetURIs.first,
                assetListURI: event.assetListURI,
                assets: scheduled?.assets?.map { Asset(uri: $0.uri, duration: $0.duration?.seconds) },
                skipControl: skip.map { SkipControl(offset: $0.offset.seconds, duration: $0.duration?.seconds, labelId: $0.labelID) }
            )
        }
        segments = snapshot.segments.map { segment in
            Segment(
                type: segment.segmentType.rawValue,
                event: segment.eventID,
                primary: Range(segment.primaryRange),
                integrated: Range(segment.timeMapping.target),
                playout: Range(segment.playoutRange)
            )
        }
        duration = Durations(
            primary: schedule.primary.duration.seconds,
            integrated: live ? nil : snapshot.knownDuration.seconds,
            playout: live ? nil : snapshot.playoutDuration.seconds
        )
        stitchedAdRanges = stitched.ranges.map(Range.init)
    }
}
