import MediaTime

extension MediaPlaylist {
    /// The playlist's text: the bytes it was parsed from when it has not been edited since, else
    /// ``canonicalText()``.
    ///
    /// - Complexity: O(1) for an unedited parsed playlist (the stored bytes are returned), O(n)
    ///   otherwise.
    public func serialized() -> [UInt8] {
        source.bytes ?? Array(canonicalText().utf8)
    }

    /// The playlist written in Interlude's canonical form: header tags in a fixed order, then each
    /// segment's tags (unknown lines, date ranges, ad markers, discontinuity, key and map where they
    /// change, program date-time, bitrate where it changes, gap, parts, EXTINF, byte range) and its
    /// URI, then the trailing tags. EXTINF durations are written exactly, with at least three
    /// fractional digits.
    ///
    /// - Complexity: O(n) in the size of the output.
    public func canonicalText() -> String {
        var out = PlaylistTextWriter()
        out.line("#EXTM3U")
        if let version { out.line("#EXT-X-VERSION:\(version)") }
        if isIndependentSegments { out.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start { out.tag("EXT-X-START", start.attributes) }
        for definition in definitions { out.tag("EXT-X-DEFINE", definition.attributes) }
        out.line("#EXT-X-TARGETDURATION:\(targetDurationSeconds)")
        if mediaSequence != 0 { out.line("#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)") }
        if discontinuitySequence != 0 { out.line("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        if let playlistType { out.line("#EXT-X-PLAYLIST-TYPE:\(playlistType.rawValue)") }
        if isIFramesOnly { out.line("#EXT-X-I-FRAMES-ONLY") }
        if let partInformation { out.tag("EXT-X-PART-INF", partInformation.attributes) }
        if let serverControl { out.tag("EXT-X-SERVER-CONTROL", serverControl.attributes) }
        if let skip { out.tag("EXT-X-SKIP", skip.attributes) }
        var keys: [EncryptionKey] = []
        var map: MediaInitializationSection?
        var bitrate: Int?
        for segment in segments {
            out.metadata(segment.otherLines, segment.dateRanges, segment.adMarkers)
            if segment.isDiscontinuity { out.line("#EXT-X-DISCONTINUITY") }
            if segment.keys != keys {
                if segment.keys.isEmpty {
                    out.line("#EXT-X-KEY:METHOD=NONE")
                } else {
                    for key in segment.keys { out.tag("EXT-X-KEY", key.attributes) }
                }
                keys = segment.keys
            }
            if segment.map != map, let segmentMap = segment.map {
                out.tag("EXT-X-MAP", segmentMap.attributes)
                map = segmentMap
            }
            if let date = segment.programDateTime { out.line("#EXT-X-PROGRAM-DATE-TIME:\(date.iso8601String)") }
            if segment.bitrateKbps != bitrate, let kbps = segment.bitrateKbps {
                out.line("#EXT-X-BITRATE:\(kbps)")
                bitrate = kbps
            }
            if segment.isGap { out.line("#EXT-X-GAP") }
            for part in segment.parts { out.tag("EXT-X-PART", part.attributes) }
            out.line("#EXTINF:\(Self.extinfText(segment.duration)),\(segment.title ?? "")")
            if let range = segment.byteRange { out.line("#EXT-X-BYTERANGE:\(range.playlistText)") }
            out.line(segment.uri)
        }
        out.metadata(trailingLines, trailingDateRanges, trailingAdMarkers)
        for part in trailingParts { out.tag("EXT-X-PART", part.attributes) }
        for hint in preloadHints { out.tag("EXT-X-PRELOAD-HINT", hint.attributes) }
        for report in renditionReports { out.tag("EXT-X-RENDITION-REPORT", report.attributes) }
        if hasEndList { out.line("#EXT-X-ENDLIST") }
        return out.text
    }

    /// An EXTINF duration: exact, with at least three fractional digits (`6.000`, `9.009`,
    /// `10.0000001`).
    static func extinfText(_ duration: MediaTime) -> String {
        let exact = duration.decimalString()
        let fractionDigits = exact.firstIndex(of: ".").map { exact.distance(from: $0, to: exact.endIndex) - 1 } ?? 0
        return fractionDigits >= 3 ? exact : duration.fixedDecimalString(digits: 3)
    }
}

extension MultivariantPlaylist {
    /// The playlist's text: the bytes it was parsed from when it has not been edited since, else
    /// ``canonicalText()``.
    public func serialized() -> [UInt8] {
        source.bytes ?? Array(canonicalText().utf8)
    }

    /// The playlist in canonical form: header, definitions, session data and keys, content
    /// steering, renditions, variants with their URIs, I-frame streams, then unknown lines.
    public func canonicalText() -> String {
        var out = PlaylistTextWriter()
        out.line("#EXTM3U")
        if let version { out.line("#EXT-X-VERSION:\(version)") }
        if isIndependentSegments { out.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start { out.tag("EXT-X-START", start.attributes) }
        for definition in definitions { out.tag("EXT-X-DEFINE", definition.attributes) }
        for data in sessionData { out.tag("EXT-X-SESSION-DATA", data.attributes) }
        for key in sessionKeys { out.tag("EXT-X-SESSION-KEY", key.attributes) }
        if let contentSteering { out.tag("EXT-X-CONTENT-STEERING", contentSteering.attributes) }
        for rendition in renditions { out.tag("EXT-X-MEDIA", rendition.attributes) }
        for variant in variants {
            out.tag("EXT-X-STREAM-INF", variant.attributes)
            out.line(variant.uri)
        }
        for stream in iFrameStreams { out.tag("EXT-X-I-FRAME-STREAM-INF", stream.attributes) }
        for line in otherLines { out.line(line.text) }
        return out.text
    }
}

/// Accumulates playlist lines.
struct PlaylistTextWriter {
    private(set) var text = ""

    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }

    mutating func tag(_ name: String, _ attributes: [Attribute]) {
        var writer = AttributeWriter()
        writer.append(contentsOf: attributes)
        line("#\(name):\(writer.text)")
    }

    mutating func metadata(_ others: [UnknownLine], _ dateRanges: [DateRange], _ markers: [AdMarker]) {
        for other in others { line(other.text) }
        for range in dateRanges { tag("EXT-X-DATERANGE", range.attributes) }
        for marker in markers { line(marker.playlistLine) }
    }
}
