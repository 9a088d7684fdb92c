import MediaTime

// MARK: - The rules

extension PlaylistValidator.Rule {
    /// The Media Playlist rules (§4.4.3, §4.4.4, §4.4.5.2, §4.4.5.3, §6.2).
    static let mediaRules: [PlaylistValidator.Rule] = [
        targetDurationRequired, targetDurationTooSmall, extinfExceedsTargetDuration, sequenceTagAfterSegment,
        discontinuitySequenceAfterDiscontinuity, byteRangeOffsetRequired, keyURIRequired, keyNoneWithAttributes,
        keyIVNotAllowed, keyMethodUnknown, mapByteRangeOffsetRequired, mapKeyIVRequired, partInfRequired,
        partExceedsPartTarget, partTooShort, segmentTagAfterPart, gapPartWithoutGap, iFramesOnlyWithParts,
        canSkipUntilTooSmall, canSkipDateRangesWithoutCanSkipUntil, holdBackTooSmall, partHoldBackTooSmall,
        partHoldBackBelowRecommended, partHoldBackRequired, skipNotAdvertised, skipWithEndList, vodWithoutEndList,
        preloadHintWithEndList, discontinuityWithoutProgramDateTime, programDateTimeWithoutTimeZone,
        targetDurationChanged, mediaSequenceDecreased, discontinuitySequenceDecreased,
    ]

    static let targetDurationRequired = PlaylistValidator.Rule(
        id: "media.target-duration-required", severity: .error,
        summary: "a Media Playlist has an EXT-X-TARGETDURATION tag", specSection: "RFC 8216bis §4.4.3.1"
    )
    static let targetDurationTooSmall = PlaylistValidator.Rule(
        id: "media.target-duration-too-small", severity: .error,
        summary: "EXT-X-TARGETDURATION is at least 1", specSection: "RFC 8216bis §4.4.3.1"
    )
    static let extinfExceedsTargetDuration = PlaylistValidator.Rule(
        id: "media.extinf-exceeds-target-duration", severity: .error,
        summary: "every EXTINF duration, rounded to the nearest integer, is at most the target duration",
        specSection: "RFC 8216bis §4.4.3.1, §6.2.1"
    )
    static let sequenceTagAfterSegment = PlaylistValidator.Rule(
        id: "media.sequence-tag-after-segment", severity: .error,
        summary: "EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE appear before the first media segment",
        specSection: "RFC 8216bis §4.4.3.2, §4.4.3.3"
    )
    static let discontinuitySequenceAfterDiscontinuity = PlaylistValidator.Rule(
        id: "media.discontinuity-sequence-after-discontinuity", severity: .error,
        summary: "EXT-X-DISCONTINUITY-SEQUENCE appears before any EXT-X-DISCONTINUITY", specSection: "RFC 8216bis §4.4.3.3"
    )
    static let byteRangeOffsetRequired = PlaylistValidator.Rule(
        id: "media.byterange-offset-required", severity: .error,
        summary: "an EXT-X-BYTERANGE without @offset follows a sub-range segment of the same URI",
        specSection: "RFC 8216bis §4.4.4.2"
    )
    static let keyURIRequired = PlaylistValidator.Rule(
        id: "media.key-uri-required", severity: .error,
        summary: "EXT-X-KEY has a URI unless METHOD is NONE", specSection: "RFC 8216bis §4.4.4.4"
    )
    static let keyNoneWithAttributes = PlaylistValidator.Rule(
        id: "media.key-none-with-attributes", severity: .error,
        summary: "EXT-X-KEY with METHOD=NONE has no other attributes", specSection: "RFC 8216bis §4.4.4.4"
    )
    static let keyIVNotAllowed = PlaylistValidator.Rule(
        id: "media.key-iv-not-allowed", severity: .error,
        summary: "EXT-X-KEY with METHOD=SAMPLE-AES-CTR or AES-256-GCM has no IV", specSection: "RFC 8216bis §4.4.4.4"
    )
    static let keyMethodUnknown = PlaylistValidator.Rule(
        id: "media.key-method-unknown", severity: .error,
        summary: "EXT-X-KEY METHOD is NONE, AES-128, SAMPLE-AES, SAMPLE-AES-CTR or AES-256-GCM",
        specSection: "RFC 8216bis §4.4.4.4"
    )
    static let mapByteRangeOffsetRequired = PlaylistValidator.Rule(
        id: "media.map-byterange-offset-required", severity: .error,
        summary: "the BYTERANGE of EXT-X-MAP has an offset (\"<n>@<o>\")", specSection: "RFC 8216bis §4.4.4.5"
    )
    static let mapKeyIVRequired = PlaylistValidator.Rule(
        id: "media.map-key-iv-required", severity: .error,
        summary: "an EXT-X-MAP encrypted with METHOD=AES-128 has a key with an IV", specSection: "RFC 8216bis §4.4.4.5"
    )
    static let partInfRequired = PlaylistValidator.Rule(
        id: "media.part-inf-required", severity: .error,
        summary: "a playlist with EXT-X-PART tags has an EXT-X-PART-INF tag", specSection: "RFC 8216bis §4.4.3.7"
    )
    static let partExceedsPartTarget = PlaylistValidator.Rule(
        id: "media.part-exceeds-part-target", severity: .error,
        summary: "every EXT-X-PART DURATION is at most PART-TARGET", specSection: "RFC 8216bis §4.4.4.9"
    )
    static let partTooShort = PlaylistValidator.Rule(
        id: "media.part-too-short", severity: .error,
        summary: "every partial segment but the exempt ones lasts at least 85% of PART-TARGET",
        specSection: "RFC 8216bis §4.4.4.9"
    )
    static let segmentTagAfterPart = PlaylistValidator.Rule(
        id: "media.segment-tag-after-part", severity: .error,
        summary: "EXT-X-DISCONTINUITY, -KEY, -MAP and -PROGRAM-DATE-TIME precede the first EXT-X-PART of their segment",
        specSection: "RFC 8216bis §4.4.4.9"
    )
    static let gapPartWithoutGap = PlaylistValidator.Rule(
        id: "media.gap-part-without-gap", severity: .error,
        summary: "the partial segments of an EXT-X-GAP segment have GAP=YES", specSection: "RFC 8216bis §6.2.1"
    )
    static let iFramesOnlyWithParts = PlaylistValidator.Rule(
        id: "media.i-frames-only-with-parts", severity: .warning,
        summary: "an EXT-X-I-FRAMES-ONLY playlist does not use partial segments", specSection: "RFC 8216bis §4.4.4.9"
    )
    static let canSkipUntilTooSmall = PlaylistValidator.Rule(
        id: "media.can-skip-until-too-small", severity: .error,
        summary: "CAN-SKIP-UNTIL is at least six times the target duration", specSection: "RFC 8216bis §4.4.3.8"
    )
    static let canSkipDateRangesWithoutCanSkipUntil = PlaylistValidator.Rule(
        id: "media.can-skip-dateranges-without-can-skip-until", severity: .error,
        summary: "CAN-SKIP-DATERANGES=YES comes with CAN-SKIP-UNTIL", specSection: "RFC 8216bis §4.4.3.8"
    )
    static let holdBackTooSmall = PlaylistValidator.Rule(
        id: "media.hold-back-too-small", severity: .error,
        summary: "HOLD-BACK is at least three times the target duration", specSection: "RFC 8216bis §4.4.3.8"
    )
    static let partHoldBackTooSmall = PlaylistValidator.Rule(
        id: "media.part-hold-back-too-small", severity: .error,
        summary: "PART-HOLD-BACK is at least twice PART-TARGET", specSection: "RFC 8216bis §4.4.3.8"
    )
    static let partHoldBackBelowRecommended = PlaylistValidator.Rule(
        id: "media.part-hold-back-below-recommended", severity: .warning,
        summary: "PART-HOLD-BACK is at least three times PART-TARGET", specSection: "RFC 8216bis §4.4.3.8"
    )
    static let partHoldBackRequired = PlaylistValidator.Rule(
        id: "media.part-hold-back-required", severity: .error,
        summary: "a playlist with EXT-X-PART-INF has EXT-X-SERVER-CONTROL with PART-HOLD-BACK",
        specSection: "RFC 8216bis §4.4.3.8"
    )
    static let skipNotAdvertised = PlaylistValidator.Rule(
        id: "media.skip-not-advertised", severity: .error,
        summary: "EXT-X-SKIP appears only when the server advertised CAN-SKIP-UNTIL",
        specSection: "RFC 8216bis §4.4.5.2, §6.2.5.1"
    )
    static let skipWithEndList = PlaylistValidator.Rule(
        id: "media.skip-with-endlist", severity: .error,
        summary: "a playlist with EXT-X-ENDLIST is not a delta update (no EXT-X-SKIP)", specSection: "RFC 8216bis §6.2.5.1"
    )
    static let vodWithoutEndList = PlaylistValidator.Rule(
        id: "media.vod-without-endlist", severity: .warning,
        summary: "an EXT-X-PLAYLIST-TYPE:VOD playlist has EXT-X-ENDLIST", specSection: "RFC 8216bis §4.4.3.5, §6.2.1"
    )
    static let preloadHintWithEndList = PlaylistValidator.Rule(
        id: "media.preload-hint-with-endlist", severity: .error,
        summary: "a playlist with EXT-X-ENDLIST has no EXT-X-PRELOAD-HINT", specSection: "RFC 8216bis §4.4.5.3"
    )
    static let discontinuityWithoutProgramDateTime = PlaylistValidator.Rule(
        id: "media.discontinuity-without-program-date-time", severity: .warning,
        summary: "in a playlist with program date-times, every discontinuity segment has an EXT-X-PROGRAM-DATE-TIME",
        specSection: "RFC 8216bis §6.2.1"
    )
    static let programDateTimeWithoutTimeZone = PlaylistValidator.Rule(
        id: "media.program-date-time-without-time-zone", severity: .warning,
        summary: "EXT-X-PROGRAM-DATE-TIME gives a time zone", specSection: "RFC 8216bis §4.4.4.6"
    )
    static let targetDurationChanged = PlaylistValidator.Rule(
        id: "media.target-duration-changed", severity: .error,
        summary: "EXT-X-TARGETDURATION does not change between reloads", specSection: "RFC 8216bis §6.2.1"
    )
    static let mediaSequenceDecreased = PlaylistValidator.Rule(
        id: "media.media-sequence-decreased", severity: .error,
        summary: "EXT-X-MEDIA-SEQUENCE does not decrease between reloads", specSection: "RFC 8216bis §6.2.2"
    )
    static let discontinuitySequenceDecreased = PlaylistValidator.Rule(
        id: "media.discontinuity-sequence-decreased", severity: .error,
        summary: "EXT-X-DISCONTINUITY-SEQUENCE does not decrease between reloads", specSection: "RFC 8216bis §6.2.2"
    )
}

// MARK: - The checks

/// The state of validating one Media Playlist.
struct MediaContext {
    let playlist: MediaPlaylist
    let previous: MediaPlaylist?
    var findings: Findings
    /// Versions the playlist needs, by feature, in the order found.
    var requirements: [VersionRequirement] = []

    init(playlist: MediaPlaylist, previous: MediaPlaylist?) {
        self.playlist = playlist
        self.previous = previous
        self.findings = Findings(source: SourceText(playlist.source))
    }

    var source: SourceText? { findings.source }

    /// The tags each Media Playlist may contain at most once (§4.4.1.2, §4.4.2, §4.4.3, §4.4.5).
    static let singletonTags = [
        "EXT-X-VERSION", "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE",
        "EXT-X-PLAYLIST-TYPE", "EXT-X-ENDLIST", "EXT-X-INDEPENDENT-SEGMENTS", "EXT-X-START", "EXT-X-PART-INF",
        "EXT-X-SERVER-CONTROL", "EXT-X-I-FRAMES-ONLY", "EXT-X-SKIP",
    ]

    /// The methods of §4.4.4.4.
    static let knownKeyMethods: Set<String> = ["NONE", "AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR", "AES-256-GCM"]

    mutating func checkMediaRules() {
        findings.reportRepeats(of: Self.singletonTags)
        checkTargetDuration()
        checkSequenceTags()
        checkByteRanges()
        checkKeys()
        checkMaps()
        checkParts()
        checkProgramDateTimes()
        checkServerControl()
        checkEndList()
        checkVersion()
        checkReload()
    }

    // MARK: Locations

    /// The line of the `name` tag that applies to segment `index` (the first such tag between the
    /// previous segment and this one that `matches`), else the segment's URI line.
    func line(ofTag name: String, forSegment index: Int, matching: (String) -> Bool = { _ in true }) -> Int? {
        guard let source else { return nil }
        let candidates = source.lines(ofTag: name, in: source.window(beforeSegment: index))
        return candidates.first { matching(source.text(atLine: $0) ?? "") } ?? candidates.first ?? source.segmentLine(index)
    }

    /// The line of a playlist-level tag, else the playlist's first line.
    func line(ofHeaderTag name: String) -> Int? {
        source?.occurrences(of: name).first ?? source?.lines(ofTag: name).first ?? findings.playlistLine
    }

    var hasTargetDuration: Bool {
        guard let source else { return true }
        return !source.occurrences(of: "EXT-X-TARGETDURATION").isEmpty
    }

    // MARK: Header tags


    /// Rounds half up, as "rounded to the nearest integer" (§4.4.3.1) reads.
    static func roundedSeconds(_ duration: MediaTime) -> Int64 {
        (duration + MediaTime(value: 1, timescale: 2)).floorUnits(timescale: 1) ?? 0
    }

    mutating func checkTargetDuration() {
        let segments = playlist.segments
        let longest = segments.map { Self.roundedSeconds($0.duration) }.max() ?? 0
        let suggestion = max(longest, 1)
        guard hasTargetDuration else {
            findings.report(
                .targetDurationRequired, line: findings.playlistLine,
                "the playlist has no EXT-X-TARGETDURATION; add #EXT-X-TARGETDURATION:\(suggestion) "
                    + "(the longest segment duration rounded to the nearest integer)"
            )
            return
        }
        let target = playlist.targetDurationSeconds
        if target < 1 {
            // A malformed value is the parser's finding, not this one.
            let line = line(ofHeaderTag: "EXT-X-TARGETDURATION")
            let written = line.flatMap { source?.tagValue(atLine: $0) }.map(String.init)
            if source == nil || written.flatMap({ Int($0) }) != nil {
                findings.report(
                    .targetDurationTooSmall, line: line,
                    "EXT-X-TARGETDURATION is \(target) but must be at least 1; set #EXT-X-TARGETDURATION:\(suggestion)"
                )
            }
            return
        }
        for (index, segment) in segments.enumerated() {
            let rounded = Self.roundedSeconds(segment.duration)
            guard rounded > Int64(target) else { continue }
            let line = line(ofTag: "EXTINF", forSegment: index)
            findings.report(
                .extinfExceedsTargetDuration, line: line,
                "EXTINF duration \(segment.duration) of \(PlaylistValidator.quoted(segment.uri)) rounds to \(rounded) s, "
                    + "above EXT-X-TARGETDURATION:\(target); split the segment or raise the target duration to \(longest)"
            )
        }
    }

    mutating func checkSequenceTags() {
        guard let source, !playlist.segments.isEmpty else { return }
        let firstSegmentWindow = source.window(beforeSegment: 0)
        let firstSegmentStart = source.lines(ofTag: "EXTINF", in: firstSegmentWindow).last ?? source.segmentLine(0) ?? Int.max
        for name in ["EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE"] {
            for line in source.occurrences(of: name) where line > firstSegmentStart {
                findings.report(
                    .sequenceTagAfterSegment, line: line,
                    "#\(name) is on line \(line), after the first media segment (line \(firstSegmentStart)); "
                        + "move it above the first segment's tags"
                )
            }
        }
        if let firstDiscontinuity = source.lines(ofTag: "EXT-X-DISCONTINUITY").first {
            for line in source.occurrences(of: "EXT-X-DISCONTINUITY-SEQUENCE") where line > firstDiscontinuity {
                findings.report(
                    .discontinuitySequenceAfterDiscontinuity, line: line,
                    "#EXT-X-DISCONTINUITY-SEQUENCE comes after the EXT-X-DISCONTINUITY on line \(firstDiscontinuity); "
                        + "move it above every EXT-X-DISCONTINUITY"
                )
            }
        }
    }

    // MARK: Segments

    mutating func checkByteRanges() {
        let segments = playlist.segments
        for (index, segment) in segments.enumerated() {
            guard let range = segment.byteRange else { continue }
            requirements.add(4, "EXT-X-BYTERANGE", line: line(ofTag: "EXT-X-BYTERANGE", forSegment: index))
            // The first segment of a delta update follows a skipped one, which the client has.
            guard range.offset == nil, !(index == 0 && playlist.skip != nil) else { continue }
            let previous = index > 0 ? segments[index - 1] : nil
            if let previous, previous.byteRange != nil, previous.uri == segment.uri { continue }
            let reason =
                previous == nil
                ? "it is the first segment of the playlist"
                : previous!.uri != segment.uri
                    ? "the previous segment is \(PlaylistValidator.quoted(previous!.uri)), a different resource"
                    : "the previous segment is the whole resource, not a sub-range"
            findings.report(
                .byteRangeOffsetRequired, line: line(ofTag: "EXT-X-BYTERANGE", forSegment: index),
                "EXT-X-BYTERANGE:\(range.playlistText) of \(PlaylistValidator.quoted(segment.uri)) has no @offset, but \(reason); "
                    + "write the offset: #EXT-X-BYTERANGE:\(range.length)@<offset>"
            )
        }
    }

    mutating func checkKeys() {
        var seen = Set<EncryptionKey>()
        for (index, segment) in playlist.segments.enumerated() {
            for key in segment.keys where seen.insert(key).inserted {
                let method = key.method.rawValue
                let line = line(ofTag: "EXT-X-KEY", forSegment: index) { text in
                    text.contains("METHOD=\(method)") && (key.uri.map { text.contains($0) } ?? true)
                }
                check(key, line: line)
            }
        }
        guard let source else { return }
        for line in source.lines(ofTag: "EXT-X-KEY") {
            let attributes = source.attributes(atLine: line)
            guard attributes.contains(where: { $0.name == "METHOD" && $0.value == "NONE" }) else { continue }
            let others = attributes.filter { $0.name != "METHOD" }.map(\.name)
            if !others.isEmpty {
                findings.report(
                    .keyNoneWithAttributes, line: line, attribute: others[0],
                    "EXT-X-KEY:METHOD=NONE also has \(others.joined(separator: ", ")); with METHOD=NONE no other attribute "
                        + "may be present, so write #EXT-X-KEY:METHOD=NONE"
                )
            }
        }
    }

    private mutating func check(_ key: EncryptionKey, line: Int?) {
        let method = key.method.rawValue
        if !Self.knownKeyMethods.contains(method) {
            findings.report(
                .keyMethodUnknown, line: line, attribute: "METHOD",
                "EXT-X-KEY METHOD=\(method) is not a method of the specification; use AES-128, SAMPLE-AES, "
                    + "SAMPLE-AES-CTR, AES-256-GCM or NONE"
            )
        }
        if key.method == .none {
            // Only an edited playlist can hold such a key; a parsed one keeps METHOD=NONE as "no keys".
            let others = key.attributes.map(\.name).filter { $0 != "METHOD" }
            if !others.isEmpty {
                findings.report(
                    .keyNoneWithAttributes, line: line,
                    "EXT-X-KEY:METHOD=NONE also has \(others.joined(separator: ", ")); remove them"
                )
            }
            return
        }
        if key.uri == nil {
            findings.report(
                .keyURIRequired, line: line, attribute: "METHOD",
                "EXT-X-KEY:METHOD=\(method) has no URI; add URI=\"<key URI>\" so clients can fetch the key"
            )
        }
        if let iv = key.initializationVector {
            if key.method == .sampleAESCTR || method == "AES-256-GCM" {
                findings.report(
                    .keyIVNotAllowed, line: line, attribute: "IV",
                    "EXT-X-KEY:METHOD=\(method) must not have an IV (found IV=\(iv)); remove it"
                        + (method == "AES-256-GCM" ? " (each AES-256-GCM segment carries its IV)" : "")
                )
            }
            requirements.add(2, "the IV attribute of EXT-X-KEY", line: line)
        }
        if key.method == .sampleAES { requirements.add(5, "EXT-X-KEY:METHOD=SAMPLE-AES", line: line) }
        if key.keyFormat != nil || key.keyFormatVersions != nil {
            requirements.add(5, "the KEYFORMAT and KEYFORMATVERSIONS attributes of EXT-X-KEY", line: line)
        }
    }

    mutating func checkMaps() {
        let segments = playlist.segments
        for (index, segment) in segments.enumerated() {
            guard let map = segment.map, index == 0 || segments[index - 1].map != map else { continue }
            let mapLine = line(ofTag: "EXT-X-MAP", forSegment: index)
            if playlist.isIFramesOnly {
                requirements.add(5, "EXT-X-MAP in an EXT-X-I-FRAMES-ONLY playlist", line: mapLine)
            } else {
                requirements.add(6, "EXT-X-MAP", line: mapLine)
            }
            if let range = map.byteRange, range.offset == nil {
                findings.report(
                    .mapByteRangeOffsetRequired, line: mapLine, attribute: "BYTERANGE",
                    "EXT-X-MAP BYTERANGE=\"\(range.playlistText)\" has no offset; EXT-X-MAP requires \"<n>@<o>\", "
                        + "for example BYTERANGE=\"\(range.length)@0\""
                )
            }
            // The keys in force where the EXT-X-MAP tag is: those of this segment if an EXT-X-KEY
            // precedes the map, else the previous segment's.
            var keys = segment.keys
            if let source, let mapLine {
                let keyLines = source.lines(ofTag: "EXT-X-KEY", in: source.window(beforeSegment: index))
                if !keyLines.contains(where: { $0 < mapLine }) {
                    keys = index > 0 ? segments[index - 1].keys : []
                }
            }
            if keys.contains(where: { $0.method == .aes128 && $0.initializationVector == nil }) {
                findings.report(
                    .mapKeyIVRequired, line: mapLine,
                    "EXT-X-MAP URI=\"\(map.uri)\" is encrypted with METHOD=AES-128 by a key without IV; "
                        + "add IV=0x… to that EXT-X-KEY"
                )
            }
        }
    }

    mutating func checkParts() {
        let segments = playlist.segments
        let partTarget = playlist.partInformation?.partTarget
        var reportedMissingPartInf = false
        var reportedIFrames = false
        for index in 0...segments.count {
            let parts = index < segments.count ? segments[index].parts : playlist.trailingParts
            guard !parts.isEmpty else { continue }
            let isTrailing = index == segments.count
            var partLines: [Int?] = Array(repeating: source?.segmentLine(index) ?? findings.playlistLine, count: parts.count)
            if let source {
                let found = source.lines(ofTag: "EXT-X-PART", in: source.window(beforeSegment: index))
                if found.count == parts.count { partLines = found.map { $0 } }
                if let firstPart = found.first {
                    for name in ["EXT-X-DISCONTINUITY", "EXT-X-KEY", "EXT-X-MAP", "EXT-X-PROGRAM-DATE-TIME"] {
                        for line in source.lines(ofTag: name, in: source.window(beforeSegment: index)) where line > firstPart {
                            findings.report(
                                .segmentTagAfterPart, line: line,
                                "#\(name) comes after the segment's first EXT-X-PART (line \(firstPart)), but it applies to "
                                    + "that partial segment too; move it above line \(firstPart)"
                            )
                        }
                    }
                }
            }
            if partTarget == nil, !reportedMissingPartInf {
                reportedMissingPartInf = true
                findings.report(
                    .partInfRequired, line: partLines[0],
                    "the playlist has EXT-X-PART tags but no EXT-X-PART-INF; add #EXT-X-PART-INF:PART-TARGET=<seconds>"
                )
            }
            if playlist.isIFramesOnly, !reportedIFrames {
                reportedIFrames = true
                findings.report(
                    .iFramesOnlyWithParts, line: partLines[0],
                    "an EXT-X-I-FRAMES-ONLY playlist should not use partial segments; remove the EXT-X-PART tags"
                )
            }
            for (position, part) in parts.enumerated() {
                let line = partLines[position]
                if !isTrailing, segments[index].isGap, !part.isGap {
                    findings.report(
                        .gapPartWithoutGap, line: line,
                        "EXT-X-PART URI=\"\(part.uri)\" belongs to an EXT-X-GAP segment but has no GAP=YES; add GAP=YES"
                    )
                }
                guard let partTarget else { continue }
                if part.duration > partTarget {
                    findings.report(
                        .partExceedsPartTarget, line: line, attribute: "DURATION",
                        "EXT-X-PART DURATION=\(part.duration) exceeds PART-TARGET=\(partTarget); shorten the part or raise PART-TARGET"
                    )
                }
                let isLast = position == parts.count - 1
                let nextIsGap = position + 1 < parts.count && parts[position + 1].isGap
                let isExempt = part.isIndependent || part.isGap || nextIsGap || isLast
                if !isExempt, part.duration * 100 < partTarget * 85 {
                    findings.report(
                        .partTooShort, line: line, attribute: "DURATION",
                        "EXT-X-PART DURATION=\(part.duration) is below 85% of PART-TARGET=\(partTarget) "
                            + "(\((partTarget * 85).multiplied(byRatio: 1, 100) ?? partTarget)); only the last part of a segment, "
                            + "INDEPENDENT=YES or GAP=YES parts and parts before a gap may be shorter"
                    )
                }
            }
        }
    }

    mutating func checkProgramDateTimes() {
        let segments = playlist.segments
        guard segments.contains(where: { $0.programDateTime != nil }) else { return }
        for (index, segment) in segments.enumerated() where segment.isDiscontinuity && segment.programDateTime == nil {
            findings.report(
                .discontinuityWithoutProgramDateTime, line: line(ofTag: "EXT-X-DISCONTINUITY", forSegment: index),
                "segment \(PlaylistValidator.quoted(segment.uri)) follows an EXT-X-DISCONTINUITY but has no EXT-X-PROGRAM-DATE-TIME "
                    + "although the playlist maps segments to dates; add one after the EXT-X-DISCONTINUITY"
            )
        }
        let withoutZone = segments.indices.filter { segments[$0].programDateTime.map { $0.timeZoneOffsetSeconds == nil } ?? false }
        if let first = withoutZone.first {
            let line = source.flatMap { source in
                let recorded = source.positions.programDateTimes
                return first < recorded.count && recorded[first] > 0 ? Int(recorded[first]) : source.segmentLine(first)
            }
            let written = line.flatMap { source?.tagValue(atLine: $0) }.map(String.init)
                ?? String(segments[first].programDateTime!.iso8601String.dropLast())
            let more = withoutZone.count > 1 ? " (and \(withoutZone.count - 1) more)" : ""
            findings.report(
                .programDateTimeWithoutTimeZone, line: line,
                "EXT-X-PROGRAM-DATE-TIME:\(written) has no time zone\(more); "
                    + "clients assume UTC, so write it explicitly, for example with a Z suffix"
            )
        }
    }

    // MARK: Low-latency and delta updates

    mutating func checkServerControl() {
        let target = MediaTime(seconds: Int64(playlist.targetDurationSeconds))
        let hasUsableTarget = hasTargetDuration && playlist.targetDurationSeconds >= 1
        let controlLine = line(ofHeaderTag: "EXT-X-SERVER-CONTROL")
        if let control = playlist.serverControl {
            if let canSkipUntil = control.canSkipUntil, hasUsableTarget, canSkipUntil < target * 6 {
                findings.report(
                    .canSkipUntilTooSmall, line: controlLine, attribute: "CAN-SKIP-UNTIL",
                    "CAN-SKIP-UNTIL=\(canSkipUntil) is less than six target durations (6 × \(target) = \(target * 6)); "
                        + "set CAN-SKIP-UNTIL=\(target * 6) or more"
                )
            }
            if control.canSkipDateRanges, control.canSkipUntil == nil {
                findings.report(
                    .canSkipDateRangesWithoutCanSkipUntil, line: controlLine, attribute: "CAN-SKIP-DATERANGES",
                    "CAN-SKIP-DATERANGES=YES requires CAN-SKIP-UNTIL; add CAN-SKIP-UNTIL=<seconds> or remove CAN-SKIP-DATERANGES"
                )
            }
            if let holdBack = control.holdBack, hasUsableTarget, holdBack < target * 3 {
                findings.report(
                    .holdBackTooSmall, line: controlLine, attribute: "HOLD-BACK",
                    "HOLD-BACK=\(holdBack) is less than three target durations (3 × \(target) = \(target * 3)); "
                        + "set HOLD-BACK=\(target * 3) or more"
                )
            }
            if let partHoldBack = control.partHoldBack, let partTarget = playlist.partInformation?.partTarget {
                if partHoldBack < partTarget * 2 {
                    findings.report(
                        .partHoldBackTooSmall, line: controlLine, attribute: "PART-HOLD-BACK",
                        "PART-HOLD-BACK=\(partHoldBack) is less than twice PART-TARGET=\(partTarget) (\(partTarget * 2)); "
                            + "set PART-HOLD-BACK=\(partTarget * 3) (three part targets, as recommended)"
                    )
                } else if partHoldBack < partTarget * 3 {
                    findings.report(
                        .partHoldBackBelowRecommended, line: controlLine, attribute: "PART-HOLD-BACK",
                        "PART-HOLD-BACK=\(partHoldBack) is less than three times PART-TARGET=\(partTarget) (\(partTarget * 3)); "
                            + "players may stall at the live edge, so set PART-HOLD-BACK=\(partTarget * 3) or more"
                    )
                }
            }
        }
        if let partTarget = playlist.partInformation?.partTarget, playlist.serverControl?.partHoldBack == nil {
            let line = playlist.serverControl == nil ? line(ofHeaderTag: "EXT-X-PART-INF") : controlLine
            findings.report(
                .partHoldBackRequired, line: line,
                "the playlist has EXT-X-PART-INF but no PART-HOLD-BACK; add PART-HOLD-BACK=\(partTarget * 3) to "
                    + "EXT-X-SERVER-CONTROL"
            )
        }
        if let skip = playlist.skip {
            let skipLine = line(ofHeaderTag: "EXT-X-SKIP")
            if playlist.serverControl?.canSkipUntil == nil, previous?.serverControl?.canSkipUntil == nil {
                findings.report(
                    .skipNotAdvertised, line: skipLine,
                    "EXT-X-SKIP:SKIPPED-SEGMENTS=\(skip.skippedSegments) appears, but no EXT-X-SERVER-CONTROL advertises "
                        + "CAN-SKIP-UNTIL; a server may send a delta update only after advertising CAN-SKIP-UNTIL"
                )
            }
            if playlist.hasEndList {
                findings.report(
                    .skipWithEndList, line: skipLine,
                    "a playlist with EXT-X-ENDLIST must be sent whole; remove EXT-X-SKIP and list every segment"
                )
            }
            if skip.recentlyRemovedDateRanges != nil {
                requirements.add(10, "EXT-X-SKIP with RECENTLY-REMOVED-DATERANGES", line: skipLine)
            } else {
                requirements.add(9, "EXT-X-SKIP", line: skipLine)
            }
        }
    }

    mutating func checkEndList() {
        if playlist.playlistType == .vod, !playlist.hasEndList {
            findings.report(
                .vodWithoutEndList, line: line(ofHeaderTag: "EXT-X-PLAYLIST-TYPE"),
                "EXT-X-PLAYLIST-TYPE:VOD playlist has no EXT-X-ENDLIST; a VOD playlist is complete, so add #EXT-X-ENDLIST"
            )
        }
        if playlist.hasEndList, !playlist.preloadHints.isEmpty {
            let line = source?.lines(ofTag: "EXT-X-PRELOAD-HINT").first ?? findings.playlistLine
            findings.report(
                .preloadHintWithEndList, line: line,
                "EXT-X-PRELOAD-HINT in a playlist with EXT-X-ENDLIST; nothing more will be added, so remove the hint"
            )
        }
    }

    // MARK: Version


    mutating func checkVersion() {
        if playlist.isIFramesOnly {
            requirements.add(4, "EXT-X-I-FRAMES-ONLY", line: line(ofHeaderTag: "EXT-X-I-FRAMES-ONLY"))
        }
        if let source {
            for index in playlist.segments.indices {
                let extinf = source.lines(ofTag: "EXTINF", in: source.window(beforeSegment: index)).last
                let value = extinf.flatMap { source.tagValue(atLine: $0) }?.prefix { $0 != "," }
                if let value, value.contains(".") {
                    requirements.add(3, "a floating-point EXTINF duration (\(value))", line: extinf)
                    break
                }
            }
        } else if let segment = playlist.segments.first(where: { !PlaylistValidator.isWholeSeconds($0.duration) }) {
            requirements.add(3, "a floating-point EXTINF duration (\(segment.duration))", line: nil)
        }
        requirements.append(
            contentsOf: PlaylistValidator.definitionRequirements(playlist.definitions, source: source, playlistLine: findings.playlistLine)
        )
        PlaylistValidator.reportVersion(playlist.version, requirements: requirements, into: &findings)
    }

    // MARK: Reloads

    mutating func checkReload() {
        guard let previous else { return }
        if hasTargetDuration, previous.targetDurationSeconds != playlist.targetDurationSeconds {
            findings.report(
                .targetDurationChanged, line: line(ofHeaderTag: "EXT-X-TARGETDURATION"),
                "EXT-X-TARGETDURATION changed from \(previous.targetDurationSeconds) to \(playlist.targetDurationSeconds) "
                    + "since the previous reload; the target duration must not change, so keep \(previous.targetDurationSeconds)"
            )
        }
        if playlist.mediaSequence < previous.mediaSequence {
            findings.report(
                .mediaSequenceDecreased, line: line(ofHeaderTag: "EXT-X-MEDIA-SEQUENCE"),
                "EXT-X-MEDIA-SEQUENCE went down from \(previous.mediaSequence) to \(playlist.mediaSequence); it must grow by one "
                    + "for every segment removed and never decrease or wrap"
            )
        }
        if playlist.discontinuitySequence < previous.discontinuitySequence {
            findings.report(
                .discontinuitySequenceDecreased, line: line(ofHeaderTag: "EXT-X-DISCONTINUITY-SEQUENCE"),
                "EXT-X-DISCONTINUITY-SEQUENCE went down from \(previous.discontinuitySequence) to \(playlist.discontinuitySequence); "
                    + "it must grow by one for every EXT-X-DISCONTINUITY removed and never decrease"
            )
        }
    }
}

/// A protocol version a playlist needs because of a feature it uses (§8).
struct VersionRequirement {
    var version: Int
    var feature: String
    var line: Int?
}

extension [VersionRequirement] {
    /// Records that `feature` needs `version`, once per feature (the first occurrence's line).
    mutating func add(_ version: Int, _ feature: String, line: Int?) {
        guard !contains(where: { $0.feature == feature }) else { return }
        append(VersionRequirement(version: version, feature: feature, line: line))
    }
}

extension PlaylistValidator {
    /// The versions EXT-X-DEFINE needs: 8 for variable substitution, 11 for QUERYPARAM.
    static func definitionRequirements(
        _ definitions: [VariableDefinition], source: SourceText?, playlistLine: Int?
    ) -> [VersionRequirement] {
        guard !definitions.isEmpty else { return [] }
        let defineLines = source?.lines(ofTag: "EXT-X-DEFINE") ?? []
        var result = [VersionRequirement(version: 8, feature: "variable substitution (EXT-X-DEFINE)", line: defineLines.first ?? playlistLine)]
        if let index = definitions.firstIndex(where: { if case .queryParameter = $0 { return true } else { return false } }) {
            let line = defineLines.count == definitions.count ? defineLines[index] : (defineLines.first ?? playlistLine)
            result.append(VersionRequirement(version: 11, feature: "EXT-X-DEFINE with QUERYPARAM", line: line))
        }
        return result
    }

    /// Reports each feature that needs a higher version than the playlist declares.
    static func reportVersion(_ declared: Int?, requirements: [VersionRequirement], into findings: inout Findings) {
        let version = effectiveVersion(declared)
        guard let highest = requirements.map(\.version).max(), highest > version else { return }
        let declaration = declared.map { "it declares EXT-X-VERSION:\($0)" } ?? "it has no EXT-X-VERSION (so it is version 1)"
        for requirement in requirements where requirement.version > version {
            findings.report(
                .versionTooLow, line: requirement.line,
                "the playlist uses \(requirement.feature), which requires EXT-X-VERSION \(requirement.version) or higher, but "
                    + "\(declaration); set #EXT-X-VERSION:\(highest)"
            )
        }
    }
}
