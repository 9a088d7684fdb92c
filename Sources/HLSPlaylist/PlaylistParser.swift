#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MediaTime

/// Parses HLS playlists (RFC 8216bis §4) from bytes in one pass.
///
/// The parser scans bytes, never per-line `String`s: tag names are matched as byte slices, EXTINF
/// durations and PROGRAM-DATE-TIME dates are decoded in place, and only values the model keeps
/// (URIs, titles, attribute values) become `String`s. Every tag of the specification is decoded
/// into the typed model; unknown tags and comments are kept. The input is kept too, so an
/// unedited playlist writes back byte for byte.
///
///     let result = try PlaylistParser.parse(Array(text.utf8))
///     if case .media(let playlist) = result.playlist { print(playlist.segments.count) }
///
/// In ``ParseOptions/Mode/strict`` mode the first problem throws a located
/// ``PlaylistParseError``; in ``ParseOptions/Mode/lenient`` mode the parser skips the offending tag,
/// records a ``PlaylistDiagnostic`` and goes on.
///
/// - Complexity: O(n) in the size of the input.
public enum PlaylistParser {
    /// Parses `bytes` as a media or multivariant playlist.
    ///
    /// - Throws: ``PlaylistParseError`` in strict mode, or in lenient mode when the text is not a
    ///   playlist at all (no `#EXTM3U` header).
    public static func parse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) throws(PlaylistParseError) -> ParseResult {
        var parser = ParserState(options: options)
        if bytes.count < Int(Int32.max) { parser.sharedBytes = SharedBytes(bytes) }
        do {
            try bytes.withUnsafeBufferPointer { buffer in
                try parser.run(buffer)
            }
        } catch let error as PlaylistParseError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return parser.finish(source: bytes)
    }

    /// Parses `text` as a media or multivariant playlist.
    public static func parse(_ text: String, options: ParseOptions = ParseOptions()) throws(PlaylistParseError) -> ParseResult {
        try parse(Array(text.utf8), options: options)
    }
}

/// How to parse.
public struct ParseOptions: Sendable {
    /// Strict parsing throws at the first problem; lenient parsing records it and goes on.
    public enum Mode: Sendable {
        /// Throw a ``PlaylistParseError`` at the first problem.
        case strict
        /// Skip malformed tags, record diagnostics, keep going.
        case lenient
    }

    /// Strict or lenient.
    public var mode: Mode
    /// The playlist's own URI, whose query items EXT-X-DEFINE:QUERYPARAM reads.
    public var playlistURI: String?
    /// Variables of the multivariant playlist, for EXT-X-DEFINE:IMPORT in a media playlist.
    public var importedVariables: [String: String]

    /// Options; strict by default.
    public init(mode: Mode = .strict, playlistURI: String? = nil, importedVariables: [String: String] = [:]) {
        self.mode = mode
        self.playlistURI = playlistURI
        self.importedVariables = importedVariables
    }
}

/// What a parse produced: the playlist and, in lenient mode, the problems it skipped.
public struct ParseResult: Sendable {
    /// The playlist.
    public var playlist: Playlist
    /// Problems found while parsing (always empty in strict mode).
    public var diagnostics: [PlaylistDiagnostic]
    /// The variables the playlist defined, after IMPORT and QUERYPARAM were resolved.
    public var variables: [String: String]
}

extension MediaPlaylist {
    /// Parses a media playlist strictly.
    ///
    /// - Throws: ``PlaylistParseError``, also when the text is a multivariant playlist.
    public init(parsing text: String, options: ParseOptions = ParseOptions()) throws(PlaylistParseError) {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// Parses a media playlist strictly from bytes.
    public init(parsing bytes: [UInt8], options: ParseOptions = ParseOptions()) throws(PlaylistParseError) {
        let result = try PlaylistParser.parse(bytes, options: options)
        guard case .media(let playlist) = result.playlist else {
            throw PlaylistParseError(
                kind: .mixedPlaylistTypes, line: 1, column: 1, excerpt: "#EXTM3U",
                message: "expected a media playlist, found a multivariant playlist"
            )
        }
        self = playlist
    }
}

extension MultivariantPlaylist {
    /// Parses a multivariant playlist strictly.
    ///
    /// - Throws: ``PlaylistParseError``, also when the text is a media playlist.
    public init(parsing text: String, options: ParseOptions = ParseOptions()) throws(PlaylistParseError) {
        let result = try PlaylistParser.parse(Array(text.utf8), options: options)
        guard case .multivariant(let playlist) = result.playlist else {
            throw PlaylistParseError(
                kind: .mixedPlaylistTypes, line: 1, column: 1, excerpt: "#EXTM3U",
                message: "expected a multivariant playlist, found a media playlist"
            )
        }
        self = playlist
    }
}

// MARK: - Tag names

/// The tags the parser knows, matched on their name bytes.
enum TagName: UInt8, CaseIterable {
    case extinf, programDateTime, byteRange, discontinuity, key, map, gap, bitrate, part, dateRange
    case version, independentSegments, start, define
    case targetDuration, mediaSequence, discontinuitySequence, endList, playlistType, iFramesOnly, partInf
    case serverControl, skip, preloadHint, renditionReport
    case media, streamInf, iFrameStreamInf, sessionData, sessionKey, contentSteering
    case cueOut, cueOutCont, cueIn, oatclsSCTE35

    /// The name as written after `#`.
    var text: String {
        switch self {
        case .extinf: return "EXTINF"
        case .programDateTime: return "EXT-X-PROGRAM-DATE-TIME"
        case .byteRange: return "EXT-X-BYTERANGE"
        case .discontinuity: return "EXT-X-DISCONTINUITY"
        case .key: return "EXT-X-KEY"
        case .map: return "EXT-X-MAP"
        case .gap: return "EXT-X-GAP"
        case .bitrate: return "EXT-X-BITRATE"
        case .part: return "EXT-X-PART"
        case .dateRange: return "EXT-X-DATERANGE"
        case .version: return "EXT-X-VERSION"
        case .independentSegments: return "EXT-X-INDEPENDENT-SEGMENTS"
        case .start: return "EXT-X-START"
        case .define: return "EXT-X-DEFINE"
        case .targetDuration: return "EXT-X-TARGETDURATION"
        case .mediaSequence: return "EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: return "EXT-X-DISCONTINUITY-SEQUENCE"
        case .endList: return "EXT-X-ENDLIST"
        case .playlistType: return "EXT-X-PLAYLIST-TYPE"
        case .iFramesOnly: return "EXT-X-I-FRAMES-ONLY"
        case .partInf: return "EXT-X-PART-INF"
        case .serverControl: return "EXT-X-SERVER-CONTROL"
        case .skip: return "EXT-X-SKIP"
        case .preloadHint: return "EXT-X-PRELOAD-HINT"
        case .renditionReport: return "EXT-X-RENDITION-REPORT"
        case .media: return "EXT-X-MEDIA"
        case .streamInf: return "EXT-X-STREAM-INF"
        case .iFrameStreamInf: return "EXT-X-I-FRAME-STREAM-INF"
        case .sessionData: return "EXT-X-SESSION-DATA"
        case .sessionKey: return "EXT-X-SESSION-KEY"
        case .contentSteering: return "EXT-X-CONTENT-STEERING"
        case .cueOut: return "EXT-X-CUE-OUT"
        case .cueOutCont: return "EXT-X-CUE-OUT-CONT"
        case .cueIn: return "EXT-X-CUE-IN"
        case .oatclsSCTE35: return "EXT-OATCLS-SCTE35"
        }
    }

    /// Which kind of playlist the tag belongs to.
    var scope: Scope {
        switch self {
        case .extinf, .programDateTime, .byteRange, .discontinuity, .key, .map, .gap, .bitrate, .part, .dateRange,
            .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType, .iFramesOnly, .partInf,
            .serverControl, .skip, .preloadHint, .renditionReport, .cueOut, .cueOutCont, .cueIn, .oatclsSCTE35:
            return .media
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering:
            return .multivariant
        case .version, .independentSegments, .start, .define:
            return .either
        }
    }

    enum Scope { case media, multivariant, either }

    /// Matches `buffer[start..<end]` against the known names: a switch on the length, then one
    /// `memcmp` per candidate of that length against a static string (no allocation, no retain).
    @inline(__always)
    static func match(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> TagName? {
        guard let base = buffer.baseAddress else { return nil }
        let name = base + start
        let length = end - start
        @inline(__always) func equals(_ text: StaticString) -> Bool { memcmp(name, text.utf8Start, length) == 0 }
        switch length {
        case 6:
            if equals("EXTINF") { return .extinf }
            return nil
        case 9:
            if equals("EXT-X-KEY") { return .key }
            if equals("EXT-X-MAP") { return .map }
            if equals("EXT-X-GAP") { return .gap }
            return nil
        case 10:
            if equals("EXT-X-PART") { return .part }
            if equals("EXT-X-SKIP") { return .skip }
            return nil
        case 11:
            if equals("EXT-X-START") { return .start }
            if equals("EXT-X-MEDIA") { return .media }
            return nil
        case 12:
            if equals("EXT-X-DEFINE") { return .define }
            if equals("EXT-X-CUE-IN") { return .cueIn }
            return nil
        case 13:
            if equals("EXT-X-BITRATE") { return .bitrate }
            if equals("EXT-X-VERSION") { return .version }
            if equals("EXT-X-ENDLIST") { return .endList }
            if equals("EXT-X-CUE-OUT") { return .cueOut }
            return nil
        case 14:
            if equals("EXT-X-PART-INF") { return .partInf }
            return nil
        case 15:
            if equals("EXT-X-DATERANGE") { return .dateRange }
            if equals("EXT-X-BYTERANGE") { return .byteRange }
            return nil
        case 16:
            if equals("EXT-X-STREAM-INF") { return .streamInf }
            return nil
        case 17:
            if equals("EXT-X-SESSION-KEY") { return .sessionKey }
            if equals("EXT-OATCLS-SCTE35") { return .oatclsSCTE35 }
            return nil
        case 18:
            if equals("EXT-X-PRELOAD-HINT") { return .preloadHint }
            if equals("EXT-X-SESSION-DATA") { return .sessionData }
            if equals("EXT-X-CUE-OUT-CONT") { return .cueOutCont }
            return nil
        case 19:
            if equals("EXT-X-DISCONTINUITY") { return .discontinuity }
            if equals("EXT-X-PLAYLIST-TYPE") { return .playlistType }
            if equals("EXT-X-I-FRAMES-ONLY") { return .iFramesOnly }
            return nil
        case 20:
            if equals("EXT-X-TARGETDURATION") { return .targetDuration }
            if equals("EXT-X-MEDIA-SEQUENCE") { return .mediaSequence }
            if equals("EXT-X-SERVER-CONTROL") { return .serverControl }
            return nil
        case 22:
            if equals("EXT-X-RENDITION-REPORT") { return .renditionReport }
            if equals("EXT-X-CONTENT-STEERING") { return .contentSteering }
            return nil
        case 23:
            if equals("EXT-X-PROGRAM-DATE-TIME") { return .programDateTime }
            return nil
        case 24:
            if equals("EXT-X-I-FRAME-STREAM-INF") { return .iFrameStreamInf }
            return nil
        case 26:
            if equals("EXT-X-INDEPENDENT-SEGMENTS") { return .independentSegments }
            return nil
        case 28:
            if equals("EXT-X-DISCONTINUITY-SEQUENCE") { return .discontinuitySequence }
            return nil
        default:
            return nil
        }
    }
}

// MARK: - Parser state

/// The mutable state of one parse. Separate from ``PlaylistParser`` so the hot loop works on a
/// local value.
struct ParserState {
    let options: ParseOptions
    var diagnostics: [PlaylistDiagnostic] = []
    var lines = SourceLines()

    // Which kind of playlist this is, once a kind-specific tag has been seen.
    var kind: TagName.Scope = .either
    var kindDecidedAtLine = 0

    // Shared header.
    var version: Int?
    var isIndependentSegments = false
    var start: StartPoint?
    var definitions: [VariableDefinition] = []
    var variables: [String: String] = [:]

    // Media playlist.
    var media = MediaPlaylist(targetDurationSeconds: 0)
    var sawTargetDuration = false
    /// The segments whose URI line has been read.
    var segments: [MediaSegment] = []
    /// The segment collecting tags until its URI line; pristine while ``hasOpenSegment`` is false.
    var open = MediaSegment(uri: "", duration: MediaTime(value: 0, timescale: 1))
    /// Whether ``open`` has collected anything.
    var hasOpenSegment = false
    var pendingHasInfo = false
    var pendingInfoLine = 0
    var pendingInfoSpan = (start: 0, end: 0)
    var pendingDateLine: Int32 = 0
    /// The minute of the last EXT-X-PROGRAM-DATE-TIME, which the next one most likely shares.
    var minuteCache = PlaylistDate.MinuteCache()
    var currentKeys: [EncryptionKey] = []
    var keysJustSet = false
    var currentMap: MediaInitializationSection?
    var currentBitrate: Int?

    // Multivariant playlist.
    var multivariant = MultivariantPlaylist()
    var pendingStreamInf: (attributes: [Attribute], line: Int, start: Int, end: Int)?

    /// The input, shared with the segments whose URIs are slices of it.
    var sharedBytes: SharedBytes?

    var lineNumber = 0
    var lineStart = 0
    var lineEnd = 0

    init(options: ParseOptions) {
        self.options = options
        segments.reserveCapacity(64)
    }

    // MARK: The loop

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        let count = buffer.count
        guard count > 0, let base = buffer.baseAddress else {
            throw PlaylistParseError(kind: .missingHeader, line: 1, column: 1, excerpt: "",
                                     message: "the playlist is empty; a playlist starts with #EXTM3U")
        }
        currentBuffer = buffer
        defer { currentBuffer = nil }
        var position = 0
        var isFirstLine = true
        while position < count {
            lineNumber += 1
            let newline: Int
            if let found = memchr(base + position, 0x0A, count - position) {
                newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            } else {
                newline = count
            }
            var end = newline
            if end > position, buffer[end - 1] == 0x0D { end -= 1 }
            lineStart = position
            lineEnd = end
            if isFirstLine {
                isFirstLine = false
                try checkHeader(buffer, position, end)
            } else if end > position {
                if buffer[position] == UInt8(ascii: "#") {
                    if end - position >= 4, buffer[position + 1] == UInt8(ascii: "E"), buffer[position + 2] == UInt8(ascii: "X"),
                        buffer[position + 3] == UInt8(ascii: "T")
                    {
                        try tagLine(buffer, position, end)
                    } else {
                        otherLine(buffer, position, end)
                    }
                } else {
                    try uriLine(buffer, position, end)
                }
            }
            position = newline + 1
        }
        lines.lineCount = Int32(lineNumber)
        try finishLines(buffer)
    }

    private mutating func checkHeader(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) {
        var start = start
        // A UTF-8 byte order mark is not allowed (§4.1), but is common enough to tolerate.
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            try problem(.invalidText, column: 1, "the playlist starts with a UTF-8 byte order mark, which §4.1 forbids")
            start += 3
        }
        let header: [UInt8] = Array("#EXTM3U".utf8)
        var matches = end - start >= header.count
        if matches {
            for index in 0..<header.count where buffer[start + index] != header[index] {
                matches = false
                break
            }
        }
        guard matches, end - start == header.count else {
            throw PlaylistParseError(
                kind: .missingHeader, line: lineNumber, column: 1, excerpt: excerpt(buffer),
                message: "the first line must be #EXTM3U; this is not an HLS playlist"
            )
        }
    }

    // MARK: Line kinds

    private mutating func otherLine(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        let line = UnknownLine(string(buffer, start, end))
        if kind == .multivariant {
            multivariant.otherLines.append(line)
        } else {
            hasOpenSegment = true
            open.extras.modify { $0.otherLines.append(line) }
        }
    }

    private mutating func uriLine(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) {
        if let streamInf = pendingStreamInf {
            pendingStreamInf = nil
            let uri = try substituted(string(buffer, start, end), column: 1)
            do {
                let variant = try VariantStream(attributes: streamInf.attributes, uri: uri)
                multivariant.variants.append(variant)
                lines.variants.append(Int32(streamInf.line))
            } catch {
                // Locate the problem at the EXT-X-STREAM-INF line, not at this URI line.
                let current = (lineStart, lineEnd)
                (lineStart, lineEnd) = (streamInf.start, streamInf.end)
                defer { (lineStart, lineEnd) = current }
                try attributeProblem(error, tag: .streamInf, line: streamInf.line)
            }
            return
        }
        guard pendingHasInfo else {
            try problem(.unexpectedURI, column: 1, "a URI line must follow an EXTINF (media playlist) or EXT-X-STREAM-INF (multivariant playlist) tag")
            return
        }
        if let sharedBytes, variables.isEmpty, definitions.isEmpty, end - start <= Int(Int32.max) {
            open.uriStorage = .source(sharedBytes, offset: Int32(start), length: Int32(end - start))
        } else {
            open.uri = try substituted(string(buffer, start, end), column: 1)
        }
        if !currentKeys.isEmpty { open.keys = currentKeys }
        if let currentMap { open.extras.modify { $0.map = currentMap } }
        open.bitrateKbps = currentBitrate
        closeSegment()
        lines.segments.append(Int32(lineNumber))
        lines.programDateTimes.append(pendingDateLine)
        pendingDateLine = 0
        pendingHasInfo = false
        if segments.count == 256 { reserveForRemainingSegments(consumedBytes: lineEnd) }
        keysJustSet = false
    }

    private mutating func tagLine(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) {
        // Two lines in three of a live playlist are EXTINF or EXT-X-PROGRAM-DATE-TIME: those are
        // recognised by comparing whole words, before the general search for the name's end.
        if kind == .media, let base = buffer.baseAddress {
            let line = UnsafeRawPointer(base + start)
            let length = end - start
            @inline(__always) func word(_ offset: Int, _ text: StaticString) -> Bool {
                line.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == UnsafeRawPointer(text.utf8Start).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            }
            if length >= 8, word(0, "#EXTINF:") {
                try extinf(buffer, start + 8, end, hasValue: true)
                return
            }
            if length >= 25, word(0, "#EXT-X-PROGRAM-DATE-TIME:"), word(8, "#EXT-X-PROGRAM-DATE-TIME:"),
                word(16, "#EXT-X-PROGRAM-DATE-TIME:"), base[start + 24] == UInt8(ascii: ":")
            {
                try programDateTime(buffer, start, start + 25, end)
                return
            }
        }
        var nameEnd = start + 1
        while nameEnd < end, buffer[nameEnd] != UInt8(ascii: ":") { nameEnd += 1 }
        guard let tag = TagName.match(buffer, start + 1, nameEnd) else {
            otherLine(buffer, start, end)
            return
        }
        let valueStart = nameEnd < end ? nameEnd + 1 : end
        let hasValue = nameEnd < end
        if tag.scope != .either {
            guard try decideKind(tag.scope, tag: tag) else { return }
        }
        switch tag {
        case .extinf:
            try extinf(buffer, valueStart, end, hasValue: hasValue)
        case .programDateTime:
            try programDateTime(buffer, start, valueStart, end)
        case .byteRange:
            guard let range = ByteRange(playlistText: string(buffer, valueStart, end)) else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-BYTERANGE must be <length>[@<offset>] in bytes")
                return
            }
            hasOpenSegment = true
            open.extras.modify { $0.byteRange = range }
        case .discontinuity:
            try noValue(tag, hasValue: hasValue, valueStart - start)
            hasOpenSegment = true
            open.isDiscontinuity = true
        case .gap:
            try noValue(tag, hasValue: hasValue, valueStart - start)
            hasOpenSegment = true
            open.isGap = true
        case .key:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do {
                let key = try EncryptionKey(attributes: attributes)
                if key.method == .none {
                    currentKeys = []
                } else if keysJustSet {
                    currentKeys.removeAll { $0.keyFormat == key.keyFormat }
                    currentKeys.append(key)
                } else {
                    currentKeys = [key]
                }
                keysJustSet = key.method != .none
            } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .map:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { currentMap = try MediaInitializationSection(attributes: attributes) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .bitrate:
            guard let value = integer(buffer, valueStart, end) else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-BITRATE must be a decimal integer (kilobits per second)")
                return
            }
            currentBitrate = value
        case .part:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do {
                let part = try PartialSegment(attributes: attributes)
                hasOpenSegment = true
                open.extras.modify { $0.parts.append(part) }
            } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .dateRange:
            guard let range = try dateRange(buffer, valueStart, end) else { return }
            hasOpenSegment = true
            open.extras.modify { $0.dateRanges.append(range) }
            lines.dateRanges.append(Int32(lineNumber))
        case .version:
            recordOccurrence(tag)
            guard let value = integer(buffer, valueStart, end) else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-VERSION must be a decimal integer")
                return
            }
            version = value
        case .independentSegments:
            recordOccurrence(tag)
            try noValue(tag, hasValue: hasValue, valueStart - start)
            isIndependentSegments = true
        case .start:
            recordOccurrence(tag)
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { self.start = try StartPoint(attributes: attributes) } catch { try attributeProblem(error, tag: tag, line: lineNumber) }
        case .define:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag, substitute: false) else { return }
            let definition: VariableDefinition
            do { definition = try VariableDefinition(attributes: attributes) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
                return
            }
            try define(definition)
        case .targetDuration:
            recordOccurrence(tag)
            guard let value = integer(buffer, valueStart, end) else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-TARGETDURATION must be a decimal integer number of seconds")
                return
            }
            media.targetDurationSeconds = value
            sawTargetDuration = true
        case .mediaSequence:
            recordOccurrence(tag)
            guard let value = integer(buffer, valueStart, end) else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-MEDIA-SEQUENCE must be a decimal integer")
                return
            }
            media.mediaSequence = value
        case .discontinuitySequence:
            recordOccurrence(tag)
            guard let value = integer(buffer, valueStart, end) else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-DISCONTINUITY-SEQUENCE must be a decimal integer")
                return
            }
            media.discontinuitySequence = value
        case .endList:
            recordOccurrence(tag)
            try noValue(tag, hasValue: hasValue, valueStart - start)
            media.hasEndList = true
        case .playlistType:
            recordOccurrence(tag)
            let value = string(buffer, valueStart, end)
            guard value == "EVENT" || value == "VOD" else {
                try problem(.malformedTag, column: valueStart - start + 1, "EXT-X-PLAYLIST-TYPE must be EVENT or VOD, found \"\(value)\"")
                return
            }
            media.playlistType = MediaPlaylist.PlaylistType(rawValue: value)
        case .iFramesOnly:
            recordOccurrence(tag)
            try noValue(tag, hasValue: hasValue, valueStart - start)
            media.isIFramesOnly = true
        case .partInf:
            recordOccurrence(tag)
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { media.partInformation = try PartialSegmentInformation(attributes: attributes) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .serverControl:
            recordOccurrence(tag)
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { media.serverControl = try ServerControl(attributes: attributes) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .skip:
            recordOccurrence(tag)
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { media.skip = try SkipInformation(attributes: attributes) } catch { try attributeProblem(error, tag: tag, line: lineNumber) }
        case .preloadHint:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { media.preloadHints.append(try PreloadHint(attributes: attributes)) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .renditionReport:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { media.renditionReports.append(try RenditionReport(attributes: attributes)) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .media:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do {
                multivariant.renditions.append(try Rendition(attributes: attributes))
                lines.renditions.append(Int32(lineNumber))
            } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .streamInf:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            if let previous = pendingStreamInf {
                try problem(.missingURI, column: 1, "the EXT-X-STREAM-INF on line \(previous.line) has no URI line after it")
            }
            pendingStreamInf = (attributes, lineNumber, lineStart, lineEnd)
        case .iFrameStreamInf:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do {
                multivariant.iFrameStreams.append(try IFrameStream(attributes: attributes))
                lines.iFrameStreams.append(Int32(lineNumber))
            } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .sessionData:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do {
                multivariant.sessionData.append(try SessionData(attributes: attributes))
                lines.sessionData.append(Int32(lineNumber))
            } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .sessionKey:
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { multivariant.sessionKeys.append(try EncryptionKey(attributes: attributes)) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .contentSteering:
            recordOccurrence(tag)
            guard let attributes = try attributeList(buffer, valueStart, end, tag: tag) else { return }
            do { multivariant.contentSteering = try ContentSteering(attributes: attributes) } catch {
                try attributeProblem(error, tag: tag, line: lineNumber)
            }
        case .cueOut:
            appendAdMarker(.cueOut(value: hasValue ? string(buffer, valueStart, end) : nil))
        case .cueOutCont:
            appendAdMarker(.cueOutContinuation(value: string(buffer, valueStart, end)))
        case .cueIn:
            appendAdMarker(.cueIn)
        case .oatclsSCTE35:
            appendAdMarker(.oatclsSCTE35(string(buffer, valueStart, end)))
        }
    }

    @inline(__always)
    private mutating func programDateTime(
        _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ valueStart: Int, _ end: Int
    ) throws(PlaylistParseError) {
        guard let date = PlaylistDate.parse(buffer, valueStart, end, cache: &minuteCache) else {
            try problem(.malformedTag, column: valueStart - start + 1,
                        "EXT-X-PROGRAM-DATE-TIME must be an ISO 8601 date-time such as 2026-11-30T05:00:00.000Z")
            return
        }
        hasOpenSegment = true
        open.programDateTime = date
        pendingDateLine = Int32(lineNumber)
    }

    @inline(__always)
    private mutating func extinf(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hasValue: Bool) throws(PlaylistParseError) {
        var comma = start
        while comma < end, buffer[comma] != UInt8(ascii: ",") { comma += 1 }
        guard hasValue, let duration = Self.nonNegativeDecimal(buffer, start, comma) else {
            try malformedExtinf(column: start - lineStart + 1)
            return
        }
        if pendingHasInfo { try extinfWithoutURI() }
        hasOpenSegment = true
        open.duration = duration
        if comma + 1 < end {
            let title = string(buffer, comma + 1, end)
            hasOpenSegment = true
            open.extras.modify { $0.title = title }
        }
        pendingHasInfo = true
        pendingInfoLine = lineNumber
        pendingInfoSpan = (lineStart, lineEnd)
    }

    @inline(never)
    private mutating func malformedExtinf(column: Int) throws(PlaylistParseError) {
        try problem(.malformedTag, column: column,
                    "EXTINF must be #EXTINF:<duration>,[<title>] with a non-negative decimal duration in seconds")
    }

    @inline(never)
    private mutating func extinfWithoutURI() throws(PlaylistParseError) {
        try problem(.missingURI, column: 1, "the EXTINF on line \(pendingInfoLine) has no URI line after it")
    }

    // MARK: Segments

    /// Moves the open segment, its URI line read, to the end of `segments` (without copying it)
    /// and starts a pristine one.
    @inline(__always)
    private mutating func closeSegment() {
        var segment = MediaSegment(uri: "", duration: MediaTime(value: 0, timescale: 1))
        swap(&segment, &open)
        segments.append(segment)
        hasOpenSegment = false
    }

    /// Takes the open segment out (for the tags it collected), leaving a pristine one.
    private mutating func takeOpenSegment() -> MediaSegment? {
        guard hasOpenSegment else { return nil }
        var segment = MediaSegment(uri: "", duration: MediaTime(value: 0, timescale: 1))
        swap(&segment, &open)
        hasOpenSegment = false
        return segment
    }

    /// Reserves room for the rest of the segments, estimated from the bytes the first ones took,
    /// so the array grows once instead of doubling (and copying) a dozen times.
    private mutating func reserveForRemainingSegments(consumedBytes: Int) {
        guard let total = currentBuffer?.count, consumedBytes > 0 else { return }
        let bytesPerSegment = max(1, consumedBytes / segments.count)
        let estimate = segments.count + (total - consumedBytes) / bytesPerSegment + 16
        segments.reserveCapacity(estimate + estimate / 32)
        lines.segments.reserveCapacity(estimate + estimate / 32)
        lines.programDateTimes.reserveCapacity(estimate + estimate / 32)
    }

    private mutating func appendAdMarker(_ marker: AdMarker) {
        hasOpenSegment = true
        open.extras.modify { $0.adMarkers.append(marker) }
    }

    // MARK: Kinds, variables, occurrences

    /// Settles the playlist's kind on its first kind-specific tag; returns `false` (after a
    /// diagnostic, in lenient mode) when `tag` belongs to the other kind and must be skipped.
    private mutating func decideKind(_ scope: TagName.Scope, tag: TagName) throws(PlaylistParseError) -> Bool {
        if kind == .either {
            kind = scope
            kindDecidedAtLine = lineNumber
            if scope == .multivariant, let open = takeOpenSegment() {
                multivariant.otherLines.append(contentsOf: open.otherLines)
            }
        } else if kind != scope {
            let other = kind == .media ? "media" : "multivariant"
            try problem(
                .mixedPlaylistTypes, column: 2,
                "#\(tag.text) cannot appear in a \(other) playlist (its type was set by line \(kindDecidedAtLine)); "
                    + "a playlist is either a media playlist or a multivariant playlist, never both (§4.1)"
            )
            return false
        }
        return true
    }

    private mutating func recordOccurrence(_ tag: TagName) {
        lines.tagOccurrences[tag.text, default: []].append(Int32(lineNumber))
        if lines.firstTag[tag.text] == nil { lines.firstTag[tag.text] = Int32(lineNumber) }
    }

    private mutating func define(_ definition: VariableDefinition) throws(PlaylistParseError) {
        let value: String
        switch definition {
        case .value(_, let text):
            value = text
        case .import(let name):
            guard let imported = options.importedVariables[name] else {
                try problem(.undefinedVariable, column: 1,
                            "EXT-X-DEFINE:IMPORT=\"\(name)\" names a variable the multivariant playlist does not define")
                return
            }
            value = imported
        case .queryParameter(let name):
            guard let query = Self.queryValue(named: name, in: options.playlistURI) else {
                try problem(.undefinedVariable, column: 1,
                            "EXT-X-DEFINE:QUERYPARAM=\"\(name)\" needs a query parameter \(name) in the playlist's URI")
                return
            }
            value = query
        }
        if variables[definition.name] != nil {
            try problem(.undefinedVariable, column: 1, "variable \(definition.name) is defined twice; EXT-X-DEFINE names must be unique (§4.4.2.3)")
            return
        }
        if definitions.isEmpty, let buffer = currentBuffer { try checkReferencesBeforeFirstDefinition(buffer) }
        definitions.append(definition)
        variables[definition.name] = value
    }

    /// §4.3: a variable reference to a name no EXT-X-DEFINE earlier in the playlist defines makes
    /// the playlist invalid. Until the first EXT-X-DEFINE nothing is substituted (playlists without
    /// variables take the fast path), so the lines before it are searched once, when it arrives:
    /// URI lines and the quoted values of tags, where references are substituted. Without this a
    /// reference before its definition would parse, and the canonical form, which writes the
    /// definitions first, would mean something else.
    private mutating func checkReferencesBeforeFirstDefinition(_ buffer: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        let saved = (lineNumber, lineStart, lineEnd)
        defer { (lineNumber, lineStart, lineEnd) = saved }
        let definitionLine = lineNumber
        var line = 1
        var start = 0
        while start < saved.1 {
            var end = start
            while end < saved.1, buffer[end] != 0x0A { end += 1 }
            let newline = end
            if end > start, buffer[end - 1] == 0x0D { end -= 1 }
            let isTag = end - start >= 4 && buffer[start] == UInt8(ascii: "#") && buffer[start + 1] == UInt8(ascii: "E")
                && buffer[start + 2] == UInt8(ascii: "X") && buffer[start + 3] == UInt8(ascii: "T")
            let isURI = end > start && buffer[start] != UInt8(ascii: "#")
            if line > 1, isTag || isURI {
                var inQuotes = false
                var index = start
                while index < end {
                    let byte = buffer[index]
                    if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                    if byte == UInt8(ascii: "{"), index + 1 < end, buffer[index + 1] == UInt8(ascii: "$"), isURI || inQuotes {
                        var close = index + 2
                        while close < end, buffer[close] != UInt8(ascii: "}") { close += 1 }
                        let name = string(buffer, index + 2, close)
                        if close < end, VariableDefinition.isLegalName(name) {
                            (lineNumber, lineStart, lineEnd) = (line, start, end)
                            try problem(.undefinedVariable, column: index - start + 1,
                                        "variable reference {$\(name)} comes before the first EXT-X-DEFINE (line \(definitionLine)); "
                                            + "a variable must be defined earlier in the playlist than its use (§4.3)")
                            index = close
                        }
                    }
                    index += 1
                }
            }
            line += 1
            start = newline + 1
        }
    }

    static func queryValue(named name: String, in uri: String?) -> String? {
        guard let uri, let questionMark = uri.firstIndex(of: "?") else { return nil }
        let query = uri[uri.index(after: questionMark)...].prefix { $0 != "#" }
        for item in query.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name {
                return parts.count > 1 ? String(parts[1]).removingPercentEncodingLossy : ""
            }
        }
        return nil
    }

    /// Replaces `{$name}` references (§4.3) in `text`.
    mutating func substituted(_ text: String, column: Int) throws(PlaylistParseError) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")), text.contains("{$") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{$") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                rest = ""
                break
            }
            let name = String(rest[open.upperBound..<close])
            if let value = variables[name] {
                result += value
            } else if VariableDefinition.isLegalName(name) {
                try problem(.undefinedVariable, column: column,
                            "variable reference {$\(name)} has no EXT-X-DEFINE; define it before use (§4.3)")
                result += rest[open.lowerBound...close]
            } else {
                result += rest[open.lowerBound...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    // MARK: Finishing

    private mutating func finishLines(_ buffer: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        if pendingHasInfo {
            lineNumber = pendingInfoLine
            (lineStart, lineEnd) = pendingInfoSpan
            try problem(.missingURI, column: 1, "the last EXTINF has no URI line after it")
        }
        if let streamInf = pendingStreamInf {
            lineNumber = streamInf.line
            (lineStart, lineEnd) = (streamInf.start, streamInf.end)
            try problem(.missingURI, column: 1, "the last EXT-X-STREAM-INF has no URI line after it")
        }
    }

    mutating func finish(source bytes: [UInt8]) -> ParseResult {
        let source = PlaylistSource(storage: PlaylistSource.Storage(bytes: bytes, lines: lines))
        let playlist: Playlist
        if kind == .multivariant {
            var result = multivariant
            result.version = version
            result.isIndependentSegments = isIndependentSegments
            result.start = start
            result.definitions = definitions
            result.attach(source: source)
            playlist = .multivariant(result)
        } else {
            var result = media
            result.version = version
            result.isIndependentSegments = isIndependentSegments
            result.start = start
            result.definitions = definitions
            if let open = takeOpenSegment() {
                result.trailingParts = open.parts
                result.trailingDateRanges = open.dateRanges
                result.trailingAdMarkers = open.adMarkers
                result.trailingLines = open.otherLines
            }
            result.segments = segments
            result.attach(source: source)
            playlist = .media(result)
        }
        return ParseResult(playlist: playlist, diagnostics: diagnostics, variables: variables)
    }

    // MARK: Problems

    /// Throws in strict mode; records a diagnostic in lenient mode.
    mutating func problem(_ kind: PlaylistParseError.Kind, column: Int, _ message: String) throws(PlaylistParseError) {
        let error = PlaylistParseError(kind: kind, line: lineNumber, column: column, excerpt: excerptFromLine(), message: message)
        if options.mode == .strict { throw error }
        diagnostics.append(PlaylistDiagnostic(error))
    }

    mutating func attributeProblem(_ error: AttributeError, tag: TagName, line: Int) throws(PlaylistParseError) {
        let saved = lineNumber
        lineNumber = line
        defer { lineNumber = saved }
        try problem(error.isMissing ? .missingAttribute : .malformedAttribute, column: columnOfAttribute(error.name),
                    "#\(tag.text): \(error.name) \(error.reason)")
    }

    private mutating func noValue(_ tag: TagName, hasValue: Bool, _ offset: Int) throws(PlaylistParseError) {
        if hasValue {
            try problem(.malformedTag, column: offset, "#\(tag.text) takes no value")
        }
    }

    // MARK: Byte helpers

    var currentBuffer: UnsafeBufferPointer<UInt8>?

    func excerptFromLine() -> String {
        guard let buffer = currentBuffer else { return "" }
        return excerpt(buffer)
    }

    func excerpt(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        let end = min(lineEnd, lineStart + 200)
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[lineStart..<end]), as: UTF8.self)
    }

    /// The column of `NAME=` where an attribute starts (after ':' or ','), so that `DURATION` is
    /// not found inside `PLANNED-DURATION`, searched in the whole line (the excerpt is truncated);
    /// 1 when the attribute is absent.
    private func columnOfAttribute(_ name: String) -> Int {
        guard let buffer = currentBuffer else { return 1 }
        let text = UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd])
        let needle = Array((name + "=").utf8)
        guard text.count > needle.count else { return 1 }
        for index in 1...(text.count - needle.count)
        where (text[index - 1] == UInt8(ascii: ":") || text[index - 1] == UInt8(ascii: ","))
            && text[index..<index + needle.count].elementsEqual(needle)
        {
            return index + 1
        }
        return 1
    }

    @inline(__always)
    func string(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }

    /// `MediaTime.parseDecimal(buffer, start, end)` when it is not negative, with the common case
    /// decoded here without a call: unsigned, at most 18 characters (so the value fits with no
    /// reduction), at most nine fractional digits once trailing zeros are dropped. EXTINF durations
    /// such as `2.000` are.
    @inline(__always)
    static func nonNegativeDecimal(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> MediaTime? {
        guard end - start <= 18 else { return generalNonNegativeDecimal(buffer, start, end) }
        var value: Int64 = 0
        var index = start
        while index < end, buffer[index] &- 48 < 10 {
            value = value &* 10 &+ Int64(buffer[index] &- 48)
            index += 1
        }
        var digits = index - start
        var timescale: Int64 = 1
        if index < end, buffer[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            // 10 to the number of zeros since the last non-zero digit, which count only if one follows.
            var zeros: Int64 = 1
            while index < end, buffer[index] &- 48 < 10 {
                let digit = buffer[index] &- 48
                index += 1
                if digit == 0 {
                    zeros &*= 10
                } else {
                    value = value &* zeros &* 10 &+ Int64(digit)
                    timescale = timescale &* zeros &* 10
                    zeros = 1
                }
            }
            digits += index - fractionStart
        }
        guard index == end, digits > 0, timescale <= 1_000_000_000 else { return generalNonNegativeDecimal(buffer, start, end) }
        return MediaTime(value: value, timescale: Int32(truncatingIfNeeded: timescale))
    }

    @inline(never)
    private static func generalNonNegativeDecimal(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> MediaTime? {
        guard let time = MediaTime.parseDecimal(buffer, start, end), !time.isNegative else { return nil }
        return time
    }

    @inline(__always)
    func integer(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 18 else { return nil }
        var value = 0
        for index in start..<end {
            let digit = buffer[index] &- 48
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}

extension String {
    /// Percent-decoding (RFC 3986) that leaves malformed escapes as they are; `+` stays `+`.
    var removingPercentEncodingLossy: String {
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
