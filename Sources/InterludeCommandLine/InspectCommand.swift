import Foundation
import HLSPlaylist
import MediaTime
import NetworkIO

/// `interlude inspect`: a summary of a playlist.
enum InspectCommand: Subcommand {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Summarise a playlist: type, duration, segments, variants, renditions, date ranges and interstitials.",
        discussion: """
            Reads a media or multivariant playlist from a file or an http(s) URL and prints what it holds.
            For a media playlist: version, target duration, sequence numbers, duration, segment count,
            discontinuities, program date-times, low-latency settings, every date range and a table of the
            HLS interstitials (CLASS="com.apple.hls.interstitial") with their attributes. For a multivariant
            playlist: the variants, renditions, I-frame streams, session data and content steering.
            Problems the parser tolerates are reported on stderr; run 'interlude validate' for every rule.
            """,
        arguments: [.init(name: "playlist", help: "A playlist file path or an http(s):// URL.")],
        options: [
            .init(long: "format", short: nil, valueName: "text|json", help: "Output format (default: text)."),
        ],
        examples: [
            "interlude inspect stream.m3u8",
            "interlude inspect --format json http://127.0.0.1:8080/vod/main.m3u8",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let format = try OutputFormat(arguments.value("format"))
        let location = arguments.positionals[0]
        let (bytes, uri) = try await CommandLineInput.load(location)
        let result: ParseResult
        do {
            result = try PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient, playlistURI: uri))
        } catch {
            throw CommandFailure(message: "\(location): \(TerminalText.describing(error))")
        }
        for diagnostic in result.diagnostics {
            io.writeError(TerminalText.escaped("\(location):\(diagnostic.line.map(String.init) ?? "-"): \(diagnostic.severity.rawValue): \(diagnostic.message)") + "\n")
        }
        let report = InspectReport(location: location, playlist: result.playlist)
        switch format {
        case .json: io.write(try JSONOutput.encode(report))
        case .text: io.write(TerminalText.escaped(report.text, keepingNewlines: true))
        }
        return 0
    }
}

/// `--format text|json`.
enum OutputFormat {
    case text, json

    init(_ value: String?) throws {
        switch value ?? "text" {
        case "text": self = .text
        case "json": self = .json
        case let other: throw UsageError(message: "--format must be text or json, not '\(other)'")
        }
    }
}

enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}

/// What `inspect` reports, shaped for JSON; the text form is derived from it.
struct InspectReport: Encodable {
    var location: String
    var type: String
    var media: MediaSummary?
    var multivariant: MultivariantSummary?

    struct MediaSummary: Encodable {
        var version: Int?
        var targetDuration: Int
        var mediaSequence: Int
        var discontinuitySequence: Int
        var playlistType: String?
        var endList: Bool
        var live: Bool
        var iFramesOnly: Bool
        var independentSegments: Bool
        var duration: Double
        var segmentCount: Int
        var discontinuityCount: Int
        var gapCount: Int
        var encrypted: Bool
        var firstProgramDateTime: String?
        var lastProgramDateTime: String?
        var partTarget: Double?
        var canSkipUntil: Double?
        var canBlockReload: Bool
        var skippedSegments: Int?
        var stitchedAdMarkers: Int
        var dateRanges: [DateRangeSummary]
        var interstitials: [InterstitialSummary]
    }

    struct DateRangeSummary: Encodable {
        var id: String
        var className: String?
        var startDate: String?
        var duration: Double?
        var plannedDuration: Double?
        var endOnNext: Bool
        var tags: Int
    }

    struct InterstitialSummary: Encodable {
        var id: String
        var startDate: String?
        var startOffset: Double?
        var cue: [String]
        var duration: Double?
        var plannedDuration: Double?
        var resumeOffset: Double?
        var playoutLimit: Double?
        var snap: [String]
        var restrict: [String]
        var timelineOccupies: String?
        var timelineStyle: String?
        var contentMayVary: String?
        var assetURI: String?
        var assetList: String?
        var skipControlOffset: Double?
        var skipControlDuration: Double?
        var skipControlLabelID: String?
        var clientAttributes: [String: String]
    }

    struct MultivariantSummary: Encodable {
        var version: Int?
        var independentSegments: Bool
        var variants: [Variant]
        var renditions: [RenditionSummary]
        var iFrameStreams: [Variant]
        var sessionData: [String]
        var contentSteering: String?
    }

    struct Variant: Encodable {
        var uri: String
        var bandwidth: Int
        var averageBandwidth: Int?
        var codecs: String?
        var resolution: String?
        var frameRate: String?
        var audio: String?
        var subtitles: String?
        var closedCaptions: String?
        var videoRange: String?
    }

    struct RenditionSummary: Encodable {
        var type: String
        var groupID: String
        var name: String
        var language: String?
        var isDefault: Bool
        var autoselect: Bool
        var uri: String?
    }

    init(location: String, playlist: Playlist) {
        self.location = location
        switch playlist {
        case .media(let media):
            type = "media"
            self.media = Self.summarise(media)
        case .multivariant(let multivariant):
            type = "multivariant"
            self.multivariant = Self.summarise(multivariant)
        }
    }

    private static func summarise(_ playlist: MediaPlaylist) -> MediaSummary {
        let dates = playlist.programDateTimes()
        let starts = playlist.segmentStartTimes
        let consolidated = playlist.consolidatedDateRanges
        let tagCounts = Dictionary(playlist.dateRanges.map { ($0.id, 1) }, uniquingKeysWith: +)
        // The offset of a date on the primary timeline: through the program date-time of the
        // segment that contains it (a summary; `interlude timeline` runs the full scheduler).
        let dated = dates.enumerated().compactMap { index, date in date.map { (index, $0) } }
        func offset(of date: PlaylistDate) -> Double? {
            guard let first = dated.first else { return nil }
            // The last dated segment that starts at or before the date (binary search).
            var low = 0
            var high = dated.count
            while low < high {
                let middle = (low + high) / 2
                if dated[middle].1 <= date { low = middle + 1 } else { high = middle }
            }
            let (index, segmentDate) = low > 0 ? dated[low - 1] : first
            return (starts[index] + date.timeIntervalSince(segmentDate)).seconds
        }
        return MediaSummary(
            version: playlist.version,
            targetDuration: playlist.targetDurationSeconds,
            mediaSequence: playlist.mediaSequence,
            discontinuitySequence: playlist.discontinuitySequence,
            playlistType: playlist.playlistType?.rawValue,
            endList: playlist.hasEndList,
            live: playlist.isLive,
            iFramesOnly: playlist.isIFramesOnly,
            independentSegments: playlist.isIndependentSegments,
            duration: playlist.duration.seconds,
            segmentCount: playlist.segments.count,
            discontinuityCount: playlist.segments.count { $0.isDiscontinuity },
            gapCount: playlist.segments.count { $0.isGap },
            encrypted: playlist.segments.contains { !$0.keys.isEmpty },
            firstProgramDateTime: dates.first.flatMap { $0 }?.iso8601String,
            lastProgramDateTime: dates.last.flatMap { $0 }?.iso8601String,
            partTarget: playlist.partInformation?.partTarget.seconds,
            canSkipUntil: playlist.serverControl?.canSkipUntil?.seconds,
            canBlockReload: playlist.serverControl?.canBlockReload ?? false,
            skippedSegments: playlist.skip?.skippedSegments,
            stitchedAdMarkers: playlist.segments.reduce(0) { $0 + $1.adMarkers.count } + playlist.trailingAdMarkers.count,
            dateRanges: consolidated.map {
                DateRangeSummary(
                    id: $0.id, className: $0.className, startDate: $0.startDate?.iso8601String,
                    duration: $0.resolvedDuration?.seconds, plannedDuration: $0.plannedDuration?.seconds,
                    endOnNext: $0.endOnNext ?? false, tags: tagCounts[$0.id] ?? 1
                )
            },
            interstitials: consolidated.filter(\.isInterstitial).map { range in
                InterstitialSummary(
                    id: range.id,
                    startDate: range.startDate?.iso8601String,
                    startOffset: range.startDate.flatMap(offset(of:)),
                    cue: range.cue?.map(\.rawValue) ?? [],
                    duration: range.resolvedDuration?.seconds,
                    plannedDuration: range.plannedDuration?.seconds,
                    resumeOffset: range.resumeOffset?.seconds,
                    playoutLimit: range.playoutLimit?.seconds,
                    snap: range.snap?.map(\.rawValue) ?? [],
                    restrict: range.restrict?.map(\.rawValue) ?? [],
                    timelineOccupies: range.timelineOccupies?.rawValue,
                    timelineStyle: range.timelineStyle?.rawValue,
                    contentMayVary: range.contentMayVary?.rawValue,
                    assetURI: range.assetURI,
                    assetList: range.assetList,
                    skipControlOffset: range.skipControlOffset?.seconds,
                    skipControlDuration: range.skipControlDuration?.seconds,
                    skipControlLabelID: range.skipControlLabelID,
                    clientAttributes: Dictionary(range.clientAttributes.map { ($0.name, $0.value.playlistText) }, uniquingKeysWith: { a, _ in a })
                )
            }
        )
    }

    private static func summarise(_ playlist: MultivariantPlaylist) -> MultivariantSummary {
        func variant(uri: String, stream: StreamAttributes) -> Variant {
            Variant(uri: uri, bandwidth: stream.bandwidth, averageBandwidth: stream.averageBandwidth, codecs: stream.codecs,
                    resolution: stream.resolution?.description, videoRange: stream.videoRange)
        }
        return MultivariantSummary(
            version: playlist.version,
            independentSegments: playlist.isIndependentSegments,
            variants: playlist.variants.map { stream in
                var summary = variant(uri: stream.uri, stream: stream.stream)
                summary.frameRate = stream.frameRate
                summary.audio = stream.audio
                summary.subtitles = stream.subtitles
                switch stream.closedCaptions {
                case .group(let group): summary.closedCaptions = group
                case .none?: summary.closedCaptions = "NONE"
                case nil: break
                }
                return summary
            },
            renditions: playlist.renditions.map {
                RenditionSummary(type: $0.type, groupID: $0.groupID, name: $0.name, language: $0.language,
                                 isDefault: $0.isDefault ?? false, autoselect: $0.autoselect ?? false, uri: $0.uri)
            },
            iFrameStreams: playlist.iFrameStreams.map { variant(uri: $0.uri, stream: $0.stream) },
            sessionData: playlist.sessionData.map(\.dataID),
            contentSteering: playlist.contentSteering?.serverURI
        )
    }

    var text: String {
        var out = ""
        if let media {
            out += "Media playlist  \(location)\n"
            out += "  version        \(media.version.map(String.init) ?? "(none: 1)")\n"
            out += "  type           \(media.playlistType.map { $0 + ", " } ?? "")\(media.endList ? "ended (EXT-X-ENDLIST)" : "live (no EXT-X-ENDLIST)")\n"
            out += "  target         \(media.targetDuration) s\n"
            out += "  sequence       media \(media.mediaSequence), discontinuity \(media.discontinuitySequence)\n"
            out += "  duration       \(Self.seconds(media.duration)) in \(media.segmentCount) segments"
            out += media.discontinuityCount > 0 ? ", \(media.discontinuityCount) discontinuities" : ""
            out += media.gapCount > 0 ? ", \(media.gapCount) gaps" : ""
            out += "\n"
            if let first = media.firstProgramDateTime {
                out += "  date-time      \(first) … \(media.lastProgramDateTime ?? "?")\n"
            }
            if media.encrypted { out += "  encrypted      yes\n" }
            if media.iFramesOnly { out += "  I-frames only  yes\n" }
            if let part = media.partTarget { out += "  low latency    part target \(Self.seconds(part))\(media.canBlockReload ? ", blocking reload" : "")\n" }
            if let skipped = media.skippedSegments { out += "  delta update   \(skipped) segments skipped\n" }
            if media.stitchedAdMarkers > 0 { out += "  ad markers     \(media.stitchedAdMarkers) (CUE-OUT / CUE-IN / SCTE-35)\n" }
            out += "  date ranges    \(media.dateRanges.count) (\(media.interstitials.count) interstitials)\n"
            let others = media.dateRanges.filter { $0.className != DateRange.interstitialClass }
            if !others.isEmpty {
                out += "\nDate ranges\n"
                out += Self.table(
                    header: ["ID", "CLASS", "START-DATE", "DURATION", "TAGS"],
                    rows: others.map { [$0.id, $0.className ?? "-", $0.startDate ?? "-", Self.optional($0.duration ?? $0.plannedDuration), String($0.tags)] }
                )
            }
            if !media.interstitials.isEmpty {
                out += "\nInterstitials\n"
                out += Self.table(
                    header: ["ID", "START", "CUE", "DURATION", "RESUME", "LIMIT", "OCCUPIES", "STYLE", "MAY-VARY", "RESTRICT", "SNAP", "ASSET"],
                    rows: media.interstitials.map {
                        [
                            $0.id, Self.optional($0.startOffset), $0.cue.isEmpty ? "-" : $0.cue.joined(separator: ","),
                            $0.duration.map(Self.seconds) ?? $0.plannedDuration.map { "~" + Self.seconds($0) } ?? "-",
                            Self.optional($0.resumeOffset), Self.optional($0.playoutLimit),
                            $0.timelineOccupies ?? "(POINT)", $0.timelineStyle ?? "(HIGHLIGHT)", $0.contentMayVary ?? "(YES)",
                            $0.restrict.isEmpty ? "-" : $0.restrict.joined(separator: ","), $0.snap.isEmpty ? "-" : $0.snap.joined(separator: ","),
                            $0.assetList.map { "list " + $0 } ?? $0.assetURI ?? "-",
                        ]
                    }
                )
            }
        }
        if let multivariant {
            out += "Multivariant playlist  \(location)\n"
            out += "  version        \(multivariant.version.map(String.init) ?? "(none: 1)")\n"
            out += "  variants       \(multivariant.variants.count), renditions \(multivariant.renditions.count), I-frame streams \(multivariant.iFrameStreams.count)\n"
            if let steering = multivariant.contentSteering { out += "  steering       \(steering)\n" }
            if !multivariant.sessionData.isEmpty { out += "  session data   \(multivariant.sessionData.joined(separator: ", "))\n" }
            if !multivariant.variants.isEmpty {
                out += "\nVariants\n"
                out += Self.table(
                    header: ["BANDWIDTH", "RESOLUTION", "FPS", "CODECS", "AUDIO", "SUBTITLES", "URI"],
                    rows: multivariant.variants.map {
                        [String($0.bandwidth), $0.resolution ?? "-", $0.frameRate ?? "-", $0.codecs ?? "-", $0.audio ?? "-", $0.subtitles ?? "-", $0.uri]
                    }
                )
            }
            if !multivariant.renditions.isEmpty {
                out += "\nRenditions\n"
                out += Self.table(
                    header: ["TYPE", "GROUP", "NAME", "LANGUAGE", "DEFAULT", "URI"],
                    rows: multivariant.renditions.map {
                        [$0.type, $0.groupID, $0.name, $0.language ?? "-", $0.isDefault ? "yes" : "no", $0.uri ?? "-"]
                    }
                )
            }
            if !multivariant.iFrameStreams.isEmpty {
                out += "\nI-frame streams\n"
                out += Self.table(
                    header: ["BANDWIDTH", "RESOLUTION", "CODECS", "URI"],
                    rows: multivariant.iFrameStreams.map { [String($0.bandwidth), $0.resolution ?? "-", $0.codecs ?? "-", $0.uri] }
                )
            }
        }
        return out
    }

    static func seconds(_ value: Double) -> String {
        MediaTime(seconds: value, preferredTimescale: 1000).map { $0.fixedDecimalString(digits: 3) + " s" } ?? "\(value) s"
    }

    static func optional(_ value: Double?) -> String { value.map(seconds) ?? "-" }

    static func table(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            "  " + cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ") + "\n"
        }
        return render(header) + rows.map(render).joined()
    }
}
