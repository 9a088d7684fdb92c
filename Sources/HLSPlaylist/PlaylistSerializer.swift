import MediaTime

extension MediaPlaylist {
    /// The playlist's text: the bytes it was parsed from when it has not been edited since, else
    /// ``canonicalText()``.
    ///
    /// - Complexity: O(1) for an unedited parsed playlist (the stored bytes are returned), O(n)
    ///   otherwise.
    public func serialized() -> [UInt8] {
        source.bytes ?? canonicalBytes()
    }

    /// ``canonicalText()`` as UTF-8 bytes, without making the `String`.
    public func canonicalBytes() -> [UInt8] {
        var out = PlaylistTextWriter(capacity: 64 + segments.count * 64)
        writeCanonical(to: &out)
        return out.bytes
    }

    /// The playlist written in Interlude's canonical form: header tags in a fixed order, then each
    /// segment's tags (unknown lines, date ranges, ad markers, discontinuity, key and map where they
    /// change, program date-time, bitrate where it changes, gap, parts, EXTINF, byte range) and its
    /// URI, then the trailing tags. EXTINF durations are written exactly, with at least three
    /// fractional digits.
    ///
    /// - Complexity: O(n) in the size of the output.
    public func canonicalText() -> String {
        String(decoding: canonicalBytes(), as: UTF8.self)
    }

    func writeCanonical(to out: inout PlaylistTextWriter) {
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
            if let date = segment.programDateTime { out.programDateTime(date) }
            if segment.bitrateKbps != bitrate, let kbps = segment.bitrateKbps {
                out.line("#EXT-X-BITRATE:\(kbps)")
                bitrate = kbps
            }
            if segment.isGap { out.line("#EXT-X-GAP") }
            for part in segment.parts { out.tag("EXT-X-PART", part.attributes) }
            out.extinf(segment.duration, title: segment.title)
            if let range = segment.byteRange { out.line("#EXT-X-BYTERANGE:\(range.playlistText)") }
            out.line(segment.uri)
        }
        out.metadata(trailingLines, trailingDateRanges, trailingAdMarkers)
        for part in trailingParts { out.tag("EXT-X-PART", part.attributes) }
        for hint in preloadHints { out.tag("EXT-X-PRELOAD-HINT", hint.attributes) }
        for report in renditionReports { out.tag("EXT-X-RENDITION-REPORT", report.attributes) }
        if hasEndList { out.line("#EXT-X-ENDLIST") }
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
        source.bytes ?? canonicalBytes()
    }

    /// The playlist in canonical form: header, definitions, session data and keys, content
    /// steering, renditions, variants with their URIs, I-frame streams, then unknown lines.
    public func canonicalText() -> String {
        String(decoding: canonicalBytes(), as: UTF8.self)
    }

    /// ``canonicalText()`` as UTF-8 bytes, without making the `String`.
    public func canonicalBytes() -> [UInt8] {
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
        return out.bytes
    }
}

/// Accumulates playlist lines.
struct PlaylistTextWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func line(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(0x0A)
    }

    /// `#NAME:A=x,B="y"` written straight into the buffer.
    mutating func tag(_ name: String, _ attributes: [Attribute]) {
        bytes.append(UInt8(ascii: "#"))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ":"))
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: attribute.name.utf8)
            bytes.append(UInt8(ascii: "="))
            switch attribute.value {
            case .quotedString(let text):
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: text.utf8)
                bytes.append(UInt8(ascii: "\""))
            case .hexadecimal(let text), .decimal(let text), .enumerated(let text):
                bytes.append(contentsOf: text.utf8)
            }
        }
        bytes.append(0x0A)
    }

    /// `#EXT-X-PROGRAM-DATE-TIME:<date>`.
    mutating func programDateTime(_ date: PlaylistDate) {
        bytes.append(contentsOf: "#EXT-X-PROGRAM-DATE-TIME:".utf8)
        date.appendISO8601(to: &bytes)
        bytes.append(0x0A)
    }

    /// `#EXTINF:<duration>,<title>`, the duration exact with at least three decimals.
    mutating func extinf(_ duration: MediaTime, title: String?) {
        bytes.append(contentsOf: "#EXTINF:".utf8)
        if !Self.appendDecimal(duration, minimumFractionDigits: 3, to: &bytes) {
            bytes.append(contentsOf: MediaPlaylist.extinfText(duration).utf8)
        }
        bytes.append(UInt8(ascii: ","))
        if let title { bytes.append(contentsOf: title.utf8) }
        bytes.append(0x0A)
    }

    /// Writes a non-negative numeric time whose timescale is a power of ten exactly, with at least
    /// `minimumFractionDigits` decimals; returns `false` (writing nothing) for any other time.
    static func appendDecimal(_ time: MediaTime, minimumFractionDigits: Int, to bytes: inout [UInt8]) -> Bool {
        guard time.isNumeric, time.value >= 0 else { return false }
        var scale: Int64 = 1
        var scaleDigits = 0
        while scale < Int64(time.timescale), scaleDigits < 9 {
            scale *= 10
            scaleDigits += 1
        }
        guard scale == Int64(time.timescale) else { return false }
        let whole = time.value / scale
        var fraction = time.value % scale
        var digits = scaleDigits
        while digits > minimumFractionDigits, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(contentsOf: String(whole).utf8)
        if digits < minimumFractionDigits {
            for _ in digits..<minimumFractionDigits { fraction *= 10 }
            digits = minimumFractionDigits
        }
        if digits > 0 {
            bytes.append(UInt8(ascii: "."))
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(48 + fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
        return true
    }

    mutating func metadata(_ others: [UnknownLine], _ dateRanges: [DateRange], _ markers: [AdMarker]) {
        for other in others { line(other.text) }
        for range in dateRanges { tag("EXT-X-DATERANGE", range.attributes) }
        for marker in markers { line(marker.playlistLine) }
    }
}
