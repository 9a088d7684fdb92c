import HLSPlaylist
import MediaTime
import TestSupport
import Testing

@Suite("Parser properties over random playlists")
struct ParserPropertyTests {
    static let seeds: [UInt64] = Array(1...150)

    @Test("canonical text of a random playlist parses back to an equal model and writes back byte for byte",
          arguments: seeds)
    func canonicalRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let playlist = RandomPlaylist.make(using: &random)
        let text = playlist.canonicalText()
        let parsed = try MediaPlaylist(parsing: text)
        #expect(parsed == playlist, "seed \(seed):\n\(text)")
        #expect(parsed.serialized() == Array(text.utf8))
        #expect(parsed.canonicalText() == text)
    }

    @Test("CRLF, mixed line endings, blank lines and a missing final newline give the same model",
          arguments: seeds)
    func lineEndingInvariance(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let playlist = RandomPlaylist.make(using: &random)
        let lines = playlist.canonicalText().split(separator: "\n", omittingEmptySubsequences: false).dropLast()

        let crlf = lines.joined(separator: "\r\n") + "\r\n"
        let fromCRLF = try MediaPlaylist(parsing: crlf)
        #expect(fromCRLF == playlist)
        #expect(fromCRLF.serialized() == Array(crlf.utf8))

        var mixed = ""
        for (index, line) in lines.enumerated() {
            mixed += line
            if index > 0, random.chance(0.2) { mixed += random.chance(0.5) ? "\n" : "\r\n" }
            if index < lines.count - 1 || random.chance(0.5) { mixed += random.chance(0.5) ? "\r\n" : "\n" }
        }
        let fromMixed = try MediaPlaylist(parsing: mixed)
        #expect(fromMixed == playlist, "seed \(seed):\n\(mixed)")
        #expect(fromMixed.serialized() == Array(mixed.utf8))
    }

    @Test("the text up to any segment's URI line parses to the playlist's first segments (chunking invariance)",
          arguments: seeds)
    func prefixInvariance(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var playlist = RandomPlaylist.make(using: &random)
        playlist.hasEndList = false
        let text = playlist.canonicalText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The URI lines are the lines that do not start with '#' (the last element is the empty
        // remainder after the final newline).
        let uriLines = lines.indices.filter { !lines[$0].isEmpty && !lines[$0].hasPrefix("#") }
        try #require(uriLines.count == playlist.segments.count)
        for (count, lineIndex) in uriLines.enumerated() where count % 3 == 0 || count == uriLines.count - 1 {
            let prefix = lines[...lineIndex].joined(separator: "\n") + "\n"
            let parsed = try MediaPlaylist(parsing: prefix)
            #expect(parsed.segments == Array(playlist.segments[...count]), "seed \(seed), first \(count + 1) segments")
            #expect(parsed.targetDurationSeconds == playlist.targetDurationSeconds)
            #expect(parsed.mediaSequence == playlist.mediaSequence)
        }
    }

    @Test("random playlists exercise every optional feature across the seeds")
    func generatorCoverage() {
        var playlists: [MediaPlaylist] = []
        for seed in Self.seeds {
            var random = SeededGenerator(seed: seed)
            playlists.append(RandomPlaylist.make(using: &random))
        }
        let segments = playlists.flatMap(\.segments)
        #expect(segments.contains { $0.programDateTime != nil })
        #expect(segments.contains { $0.programDateTime?.timeZoneOffsetSeconds ?? 0 != 0 })
        #expect(segments.contains { $0.isDiscontinuity })
        #expect(segments.contains { !$0.dateRanges.isEmpty })
        #expect(segments.contains { segment in segment.dateRanges.contains { $0.isInterstitial } })
        #expect(segments.contains { !$0.keys.isEmpty })
        #expect(segments.contains { $0.map != nil })
        #expect(segments.contains { $0.byteRange != nil })
        #expect(segments.contains { $0.bitrateKbps != nil })
        #expect(segments.contains { !$0.adMarkers.isEmpty })
        #expect(segments.contains { !$0.otherLines.isEmpty })
        #expect(segments.contains { $0.duration.decimalString().split(separator: ".").last?.count == 6 })
        #expect(playlists.contains { $0.segments.isEmpty })
        #expect(playlists.contains { !$0.trailingDateRanges.isEmpty })
    }
}

/// Builds random valid media playlists from a seeded generator.
enum RandomPlaylist {
    static func make(using random: inout SeededGenerator) -> MediaPlaylist {
        let segmentCount = random.chance(0.05) ? 0 : Int.random(in: 1...30, using: &random)
        var segments: [MediaSegment] = []
        var keys: [EncryptionKey] = []
        var map: MediaInitializationSection?
        var bitrate: Int?
        var date = PlaylistDate(
            nanosecondsSince1970: Int64.random(in: 1_600_000_000_000...1_900_000_000_000, using: &random) * 1_000_000,
            timeZoneOffsetSeconds: random.pick([0, 0, 3600, -18000, 19800, -34200])
        )
        var maxDuration = MediaTime.zero
        for index in 0..<segmentCount {
            var segment = MediaSegment(uri: "", duration: duration(using: &random))
            segment.uri = random.chance(0.5) ? "seg-\(index).ts" : "https://cdn.example.com/v1/seg-\(index).m4s?v=\(random.next() % 1000)"
            if random.chance(0.3) { segment.title = random.pick(["Intro", "Part \(index), continued", "Café"]) }
            segment.isDiscontinuity = index > 0 && random.chance(0.1)
            segment.isGap = random.chance(0.05)
            if random.chance(0.1) {
                keys = random.chance(0.25) ? [] : key(index, using: &random)
            }
            segment.keys = keys
            if random.chance(0.08) {
                map = MediaInitializationSection(
                    uri: "init-\(index).mp4",
                    byteRange: random.chance(0.5) ? ByteRange(length: Int.random(in: 1...5000, using: &random), offset: 0) : nil
                )
            }
            segment.map = map
            if random.chance(0.08) { bitrate = Int.random(in: 100...20000, using: &random) }
            segment.bitrateKbps = bitrate
            if random.chance(0.1) {
                segment.byteRange = ByteRange(
                    length: Int.random(in: 1...1_000_000, using: &random),
                    offset: random.chance(0.5) ? Int.random(in: 0...10_000_000, using: &random) : nil
                )
            }
            if (index == 0 && random.chance(0.5)) || random.chance(0.15) {
                segment.programDateTime = date
            }
            if random.chance(0.15) {
                for rangeIndex in 0..<Int.random(in: 1...2, using: &random) {
                    segment.dateRanges.append(dateRange(id: "dr-\(index)-\(rangeIndex)", start: date, using: &random))
                }
            }
            if random.chance(0.08) {
                segment.adMarkers = random.pick([
                    [.cueOut(duration: MediaTime(seconds: 30), attributes: nil)],
                    [.oatclsSCTE35("/DAlAAAAAAAAAP/wFAUAAAPvf+//ZUf6wP4AKTLgAAAAAAAAGL/WQQ=="), .cueOut(duration: nil, attributes: nil)],
                    [.cueOutContinuation(elapsed: MediaTime(seconds: 10), duration: MediaTime(seconds: 30), text: "10/30")],
                    [.cueIn],
                ])
            }
            if random.chance(0.08) {
                segment.otherLines = [UnknownLine(random.pick(["# note \(index)", "#EXT-X-COM-EXAMPLE-MARK:\(index)"]))]
            }
            date = date.adding(segment.duration)
            maxDuration = max(maxDuration, segment.duration)
            segments.append(segment)
        }
        var playlist = MediaPlaylist(
            targetDurationSeconds: max(1, Int(maxDuration.seconds.rounded(.up))), segments: segments
        )
        if random.chance(0.7) { playlist.version = Int.random(in: 3...12, using: &random) }
        playlist.isIndependentSegments = random.chance(0.3)
        if random.chance(0.5) { playlist.mediaSequence = Int.random(in: 0...1_000_000, using: &random) }
        if random.chance(0.2) { playlist.discontinuitySequence = Int.random(in: 1...500, using: &random) }
        playlist.playlistType = random.pick([nil, .vod, .event])
        playlist.hasEndList = playlist.playlistType == .vod || random.chance(0.3)
        if random.chance(0.1) { playlist.start = StartPoint(timeOffset: MediaTime(value: -12500, timescale: 1000), isPrecise: true) }
        if random.chance(0.1) { playlist.trailingDateRanges = [dateRange(id: "trailing", start: date, using: &random)] }
        return playlist
    }

    /// A duration with zero to six fractional digits.
    static func duration(using random: inout SeededGenerator) -> MediaTime {
        let digits = Int.random(in: 0...6, using: &random)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = Int64.random(in: 0...12, using: &random)
        let fraction = Int64.random(in: 0..<scale, using: &random)
        return MediaTime(value: whole * scale + fraction, timescale: Int32(scale))
    }

    static func key(_ index: Int, using random: inout SeededGenerator) -> [EncryptionKey] {
        var aes = EncryptionKey(method: .aes128, uri: "https://keys.example.com/\(index)")
        if random.chance(0.5) { aes.initializationVector = "0x" + hex(bytes: 16, using: &random) }
        guard random.chance(0.3) else { return [aes] }
        let fairPlay = EncryptionKey(
            method: .sampleAES, uri: "skd://key-\(index)", keyFormat: "com.apple.streamingkeydelivery", keyFormatVersions: "1"
        )
        return [EncryptionKey(method: .sampleAES, uri: "https://keys.example.com/\(index)"), fairPlay]
    }

    static func hex(bytes: Int, using random: inout SeededGenerator) -> String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<bytes * 2).map { _ in random.pick(digits) })
    }

    static func dateRange(id: String, start: PlaylistDate, using random: inout SeededGenerator) -> DateRange {
        let isInterstitial = random.chance(0.5)
        var range = DateRange(
            id: id,
            className: isInterstitial ? DateRange.interstitialClass : random.pick([nil, "com.example.chapter"]),
            startDate: start.adding(MediaTime(value: Int64.random(in: 0...10_000, using: &random), timescale: 1000))
        )
        let rangeDuration = duration(using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: range.duration = rangeDuration
        case 1: range.plannedDuration = rangeDuration
        case 2:
            range.duration = rangeDuration
            range.endDate = range.startDate?.adding(rangeDuration)
        default: if range.className != nil { range.endOnNext = true }
        }
        if random.chance(0.2) { range.scte35Out = "0xFC30" + hex(bytes: 8, using: &random) }
        if isInterstitial {
            if random.chance(0.5) {
                range.assetURI = "https://ads.example.com/\(id).m3u8"
            } else {
                range.assetList = "assets/\(id).json?_HLS_interstitial_id=\(id)"
            }
            if random.chance(0.3) { range.cue = random.pick([[.pre], [.post], [.once], [.pre, .once]]) }
            if random.chance(0.5) { range.resumeOffset = random.chance(0.5) ? .zero : -duration(using: &random) }
            if random.chance(0.3) { range.playoutLimit = duration(using: &random) }
            if random.chance(0.3) { range.snap = random.pick([[.out], [.in], [.out, .in]]) }
            if random.chance(0.3) { range.restrict = random.pick([[.skip], [.jump], [.skip, .jump]]) }
            if random.chance(0.3) { range.timelineOccupies = random.pick([.point, .range]) }
            if random.chance(0.3) { range.timelineStyle = random.pick([.highlight, .primary]) }
            if random.chance(0.3) { range.contentMayVary = random.pick([.yes, .no]) }
            if random.chance(0.2) {
                range.skipControlOffset = MediaTime(seconds: Int64.random(in: 0...10, using: &random))
                range.skipControlDuration = MediaTime(seconds: Int64.random(in: 1...30, using: &random))
                range.skipControlLabelID = "Skip_Label"
            }
        }
        if random.chance(0.3) {
            range.clientAttributes = [
                Attribute(name: "X-COM-EXAMPLE-NAME", value: .quotedString("value \(id)")),
                Attribute(name: "X-COM-EXAMPLE-HEX", value: .hexadecimal("0x" + hex(bytes: 4, using: &random))),
                Attribute(name: "X-COM-EXAMPLE-NUMBER", value: .decimal(random.pick(["123", "-1.25", "0.5"]))),
            ]
        }
        return range
    }
}
