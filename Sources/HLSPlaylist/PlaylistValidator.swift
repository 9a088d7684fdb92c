import MediaTime

/// Checks a playlist against the MUST / MUST NOT (errors) and SHOULD / SHOULD NOT (warnings) rules
/// of RFC 8216bis (§4, §6.2, §8) and its Appendices D (Interstitials) and F (Preloading).
///
/// Every finding is a ``PlaylistDiagnostic`` with a stable rule id (``Rule/id``, for example
/// `media.extinf-exceeds-target-duration`), a severity, the 1-based line it is about when the
/// playlist was parsed and not edited since, and a message that quotes the values involved and says
/// how to fix them. Diagnostics come back sorted by line.
///
///     let diagnostics = PlaylistValidator.validate(Array(text.utf8))
///     for diagnostic in diagnostics where diagnostic.severity == .error { print(diagnostic) }
///     // line 7: error: EXTINF duration 10.6 rounds to 11 s, above EXT-X-TARGETDURATION:10; … [media.extinf-exceeds-target-duration]
///
/// Passing the `previous` version of a live Media Playlist enables the rules about how a playlist
/// may change between reloads (§6.2.1, §6.2.2): the target duration must not change, date ranges
/// must not change or disappear while they still map to a segment, and so on.
///
/// ``rules`` lists every rule with its severity, a one-line summary and the section of the
/// specification it comes from.
public enum PlaylistValidator {
    /// Parses `bytes` leniently and checks every rule.
    ///
    /// Parse problems become diagnostics with rule ids `parse.<kind>` (see
    /// ``PlaylistParseError/Kind``); a tag the parser had to skip is still checked for the rules
    /// that explain why (a DATERANGE without ID reports `daterange.id-required` instead of
    /// `parse.missing-attribute`). The mode in `options` is ignored: validation is always lenient.
    ///
    /// - Complexity: O(n) in the size of the playlist, plus O(d log d) for d date ranges.
    public static func validate(
        _ bytes: [UInt8], options: ParseOptions = ParseOptions(mode: .lenient), previous: MediaPlaylist? = nil
    ) -> [PlaylistDiagnostic] {
        var options = options
        options.mode = .lenient
        let result: ParseResult
        do {
            result = try PlaylistParser.parse(bytes, options: options)
        } catch {
            return [PlaylistDiagnostic(error)]
        }
        var findings: [PlaylistDiagnostic]
        switch result.playlist {
        case .media(let playlist):
            findings = checks(playlist, previous: previous)
        case .multivariant(let playlist):
            findings = checks(playlist)
        }
        // A rule that explains why the parser skipped a tag replaces the generic parse finding.
        let explained = Set(findings.compactMap { $0.replacesParseFinding ? $0.line : nil })
        let parseFindings = result.diagnostics.filter { diagnostic in
            guard let line = diagnostic.line, explained.contains(line) else { return true }
            return diagnostic.ruleID != "parse.\(PlaylistParseError.Kind.missingAttribute.rawValue)"
                && diagnostic.ruleID != "parse.\(PlaylistParseError.Kind.malformedAttribute.rawValue)"
        }
        findings.append(contentsOf: parseFindings)
        findings.append(contentsOf: textFindings(bytes))
        return sorted(findings)
    }

    /// Checks every Media Playlist rule; with `previous`, also the rules about how a playlist may
    /// change from one reload to the next.
    ///
    /// Lines come from the playlist's source; an edited playlist has none, so its diagnostics carry
    /// no line.
    ///
    /// - Complexity: O(n) in the number of segments and tags, plus O(d log d) for d date ranges.
    public static func validate(_ playlist: MediaPlaylist, previous: MediaPlaylist? = nil) -> [PlaylistDiagnostic] {
        sorted(checks(playlist, previous: previous))
    }

    /// Checks every Multivariant Playlist rule.
    ///
    /// - Complexity: O(v + r) in the number of variants and renditions.
    public static func validate(_ playlist: MultivariantPlaylist) -> [PlaylistDiagnostic] {
        sorted(checks(playlist))
    }

    static func checks(_ playlist: MediaPlaylist, previous: MediaPlaylist?) -> [PlaylistDiagnostic] {
        var context = MediaContext(playlist: playlist, previous: previous)
        context.checkMediaRules()
        context.checkDateRangeRules()
        return context.findings.diagnostics
    }

    static func checks(_ playlist: MultivariantPlaylist) -> [PlaylistDiagnostic] {
        var context = MultivariantContext(playlist: playlist)
        context.checkMultivariantRules()
        return context.findings.diagnostics
    }

    /// Orders by line (playlist-wide findings without a line first), then column, then the order
    /// the checks found them in.
    static func sorted(_ diagnostics: [PlaylistDiagnostic]) -> [PlaylistDiagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let lineA = a.element.line ?? 0
            let lineB = b.element.line ?? 0
            if lineA != lineB { return lineA < lineB }
            let columnA = a.element.column ?? 0
            let columnB = b.element.column ?? 0
            if columnA != columnB { return columnA < columnB }
            return a.offset < b.offset
        }.map(\.element)
    }
}

// MARK: - Rules

extension PlaylistValidator {
    /// A rule the validator checks: its stable id, how serious a violation is, what it requires,
    /// and where the specification says so.
    public struct Rule: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
        /// The stable id: a dotted family and a kebab-case name, for example
        /// `daterange.id-required`. Families: `parse`, `playlist`, `media`, `daterange`,
        /// `interstitial`, `preload`, `multivariant`.
        public let id: String
        /// The severity of every diagnostic the rule produces.
        public let severity: PlaylistDiagnostic.Severity
        /// What the rule requires, in one line.
        public let summary: String
        /// Where the requirement comes from, for example `RFC 8216bis §4.4.3.1`.
        public let specSection: String

        /// A rule.
        public init(id: String, severity: PlaylistDiagnostic.Severity, summary: String, specSection: String) {
            self.id = id
            self.severity = severity
            self.summary = summary
            self.specSection = specSection
        }

        /// The family: the part of the id before the first dot.
        public var family: String { String(id.prefix { $0 != "." }) }

        /// `id  severity  summary (section)`.
        public var description: String { "\(id) [\(severity.rawValue)] \(summary) (\(specSection))" }
    }

    /// Every rule, grouped by family: the parser's rules, then the playlist-wide, Media Playlist,
    /// date range, interstitial, preload and Multivariant Playlist rules.
    public static let rules: [Rule] =
        Rule.parseRules + Rule.playlistRules + Rule.mediaRules + Rule.dateRangeRules + Rule.interstitialRules
        + Rule.preloadRules + Rule.multivariantRules

    /// The rule with `id`, if there is one.
    ///
    /// - Complexity: O(r) in the number of rules.
    public static func rule(withID id: String) -> Rule? {
        rules.first { $0.id == id }
    }
}

extension PlaylistValidator.Rule {
    /// The parser's rules: each ``PlaylistParseError/Kind`` as `parse.<kind>`.
    static let parseRules: [PlaylistValidator.Rule] = PlaylistParseError.Kind.allCases.map { kind in
        PlaylistValidator.Rule(
            id: "parse.\(kind.rawValue)", severity: .error, summary: parseSummaries[kind] ?? "the playlist cannot be parsed",
            specSection: parseSections[kind] ?? "RFC 8216bis §4"
        )
    }

    private static let parseSummaries: [PlaylistParseError.Kind: String] = [
        .missingHeader: "the first line is #EXTM3U",
        .malformedTag: "a known tag's value or attribute list is well-formed",
        .malformedAttribute: "each attribute of a known tag has the value type the tag defines",
        .missingAttribute: "each tag carries its REQUIRED attributes",
        .mixedPlaylistTypes: "a playlist is a Media Playlist or a Multivariant Playlist, never both",
        .missingURI: "every EXTINF and EXT-X-STREAM-INF is followed by a URI line",
        .unexpectedURI: "every URI line follows an EXTINF or EXT-X-STREAM-INF",
        .undefinedVariable: "every {$name} reference has an EXT-X-DEFINE, defined once",
        .invalidText: "the text is UTF-8 without a byte order mark or control characters",
    ]

    private static let parseSections: [PlaylistParseError.Kind: String] = [
        .missingHeader: "RFC 8216bis §4.4.1.1",
        .malformedTag: "RFC 8216bis §4.2",
        .malformedAttribute: "RFC 8216bis §4.2",
        .missingAttribute: "RFC 8216bis §4.4",
        .mixedPlaylistTypes: "RFC 8216bis §4.1",
        .missingURI: "RFC 8216bis §4.4.4.1, §4.4.6.2",
        .unexpectedURI: "RFC 8216bis §4.1",
        .undefinedVariable: "RFC 8216bis §4.3, §4.4.2.3",
        .invalidText: "RFC 8216bis §4.1",
    ]

    /// Rules shared by Media and Multivariant Playlists.
    static let playlistRules: [PlaylistValidator.Rule] = [tagRepeated, versionTooLow]

    static let tagRepeated = PlaylistValidator.Rule(
        id: "playlist.tag-repeated", severity: .error,
        summary: "tags that may appear once (EXT-X-VERSION, EXT-X-TARGETDURATION, EXT-X-START, …) appear at most once",
        specSection: "RFC 8216bis §4.4.1.2, §4.4.2, §4.4.3, §4.4.5.2, §4.4.6.6"
    )
    static let versionTooLow = PlaylistValidator.Rule(
        id: "playlist.version-too-low", severity: .error,
        summary: "EXT-X-VERSION is at least the version every tag and attribute used requires",
        specSection: "RFC 8216bis §8"
    )
}

extension PlaylistDiagnostic {
    /// Whether this finding is about a tag the parser skipped, so that it replaces the parser's
    /// generic finding on the same line.
    var replacesParseFinding: Bool {
        PlaylistValidator.skippedTagRuleIDs.contains(ruleID)
    }
}

// MARK: - Findings

/// The diagnostics found so far, and where in the source each element is.
struct Findings {
    let source: SourceText?
    private(set) var diagnostics: [PlaylistDiagnostic] = []

    init(source: SourceText?) { self.source = source }

    /// Records a violation of `rule` at `line`; when `attribute` is given and the line is known, the
    /// column points at that attribute.
    mutating func report(_ rule: PlaylistValidator.Rule, line: Int?, attribute: String? = nil, _ message: String) {
        let column = attribute.flatMap { name in line.flatMap { source?.column(of: name, atLine: $0) } }
        diagnostics.append(PlaylistDiagnostic(ruleID: rule.id, severity: rule.severity, line: line, column: column, message: message))
    }

    /// Reports every repeat of a tag that may appear at most once (playlist.tag-repeated).
    mutating func reportRepeats(of names: [String]) {
        guard let source else { return }
        for name in names {
            let lines = source.occurrences(of: name)
            for line in lines.dropFirst() {
                report(
                    .tagRepeated, line: line,
                    "#\(name) appears again (first on line \(lines[0])); a playlist may contain it at most once, so remove the repeat"
                )
            }
        }
    }

    /// The line of a playlist-wide finding: the `#EXTM3U` line when the playlist has a source.
    var playlistLine: Int? { source == nil ? nil : 1 }
}

/// The lines of a parsed playlist's text, for locating tags the model does not keep lines for.
///
/// Built in one pass over the bytes: where each line starts and ends, and the lines of each tag
/// name, so that finding a tag between two segments is a binary search.
struct SourceText {
    private let bytes: [UInt8]
    /// The byte range of each line without its terminator; index 0 is line 1.
    private let starts: [Int]
    private let ends: [Int]
    /// The lines of each tag name (`EXT-X-KEY`), ascending.
    private let tagLines: [String: [Int]]
    /// Where each element of the playlist is, as the parser recorded it.
    let positions: SourceLines

    init?(_ source: PlaylistSource) {
        guard let bytes = source.bytes, let positions = source.lines else { return nil }
        var starts: [Int] = []
        var ends: [Int] = []
        var tagLines: [String: [Int]] = [:]
        // Tag names repeat (EXTINF, EXT-X-PROGRAM-DATE-TIME): reuse their strings.
        var names: [(bytes: ArraySlice<UInt8>, name: String)] = []
        let count = bytes.count
        var start = 0
        while true {
            var end = start
            while end < count, bytes[end] != 0x0A { end += 1 }
            let newline = end
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            starts.append(start)
            ends.append(end)
            if end - start >= 4, bytes[start] == UInt8(ascii: "#"), bytes[start + 1] == UInt8(ascii: "E"),
                bytes[start + 2] == UInt8(ascii: "X"), bytes[start + 3] == UInt8(ascii: "T")
            {
                var nameEnd = start + 1
                while nameEnd < end, bytes[nameEnd] != UInt8(ascii: ":") { nameEnd += 1 }
                let nameBytes = bytes[(start + 1)..<nameEnd]
                let name: String
                if let known = names.first(where: { $0.bytes.elementsEqual(nameBytes) }) {
                    name = known.name
                } else {
                    name = String(decoding: nameBytes, as: UTF8.self)
                    if names.count < 64 { names.append((nameBytes, name)) }
                }
                tagLines[name, default: []].append(starts.count)
            }
            if newline >= count { break }
            start = newline + 1
        }
        self.bytes = bytes
        self.starts = starts
        self.ends = ends
        self.tagLines = tagLines
        self.positions = positions
    }

    /// The number of lines.
    var lineCount: Int { starts.count }

    /// The text of a 1-based line.
    func text(atLine line: Int) -> String? {
        guard line >= 1, line <= starts.count else { return nil }
        return String(decoding: bytes[starts[line - 1]..<ends[line - 1]], as: UTF8.self)
    }

    /// The lines in `range` that hold the tag `name`, in order.
    ///
    /// - Complexity: O(log t + k) for t such tags, k of them in `range`.
    func lines(ofTag name: String, in range: Range<Int>) -> ArraySlice<Int> {
        guard let all = tagLines[name] else { return [] }
        func firstIndex(notBelow line: Int) -> Int {
            var low = 0
            var high = all.count
            while low < high {
                let middle = (low + high) / 2
                if all[middle] < line { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let lower = firstIndex(notBelow: range.lowerBound)
        let upper = max(lower, firstIndex(notBelow: range.upperBound))
        return all[lower..<upper]
    }

    /// The lines of every `name` tag in the playlist.
    func lines(ofTag name: String) -> ArraySlice<Int> { tagLines[name]?[...] ?? [] }

    /// The value of the tag on `line` (the text after the first colon).
    func tagValue(atLine line: Int) -> Substring? {
        guard let text = text(atLine: line), let colon = text.firstIndex(of: ":") else { return nil }
        return text[text.index(after: colon)...]
    }

    /// The attributes of the tag on `line` as written: names and raw values (quotes kept), split on
    /// commas outside quoted strings (§4.2).
    func attributes(atLine line: Int) -> [(name: String, value: String)] {
        guard let value = tagValue(atLine: line) else { return [] }
        var result: [(name: String, value: String)] = []
        var name = ""
        var current = ""
        var inName = true
        var inQuotes = false
        for character in value {
            if inName {
                if character == "=" {
                    inName = false
                } else if character == "," {
                    name = ""
                } else {
                    name.append(character)
                }
            } else if character == "\"" {
                inQuotes.toggle()
                current.append(character)
            } else if character == ",", !inQuotes {
                result.append((name, current))
                name = ""
                current = ""
                inName = true
            } else {
                current.append(character)
            }
        }
        if !inName { result.append((name, current)) }
        return result
    }

    /// The 1-based column where `NAME=` starts on `line`.
    func column(of attribute: String, atLine line: Int) -> Int? {
        guard let text = text(atLine: line) else { return nil }
        var search = text[...]
        while let range = search.firstRange(of: attribute + "=") {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            if before == nil || before == ":" || before == "," {
                return text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound) + 1
            }
            search = text[range.upperBound...]
        }
        return nil
    }

    /// The lines of the tags before segment `index`: after the previous segment's URI line (or the
    /// header) up to this segment's URI line. `index == segments.count` gives the lines after the
    /// last segment.
    func window(beforeSegment index: Int) -> Range<Int> {
        let segments = positions.segments
        let start = index == 0 ? 2 : Int(segments[index - 1]) + 1
        let end = index < segments.count ? Int(segments[index]) : lineCount + 1
        return start..<max(start, end)
    }

    /// The line of segment `index`'s URI.
    func segmentLine(_ index: Int) -> Int? {
        index < positions.segments.count ? Int(positions.segments[index]) : nil
    }

    /// The lines of a tag recorded in ``SourceLines/tagOccurrences``.
    func occurrences(of name: String) -> [Int] {
        (positions.tagOccurrences[name] ?? []).map(Int.init)
    }
}

// MARK: - Helpers shared by the rule families

extension PlaylistValidator {
    /// The protocol version a playlist declares (§8: none means 1).
    static func effectiveVersion(_ version: Int?) -> Int { version ?? 1 }

    /// `"value"` for messages.
    static func quoted(_ value: String) -> String { "\"\(value)\"" }

    /// Whether `uri` has a scheme (`https:`, `data:`), as an absolute URI does (RFC 3986 §4.3).
    static func isAbsoluteURI(_ uri: String) -> Bool {
        let scheme = uri.prefix { $0 != ":" }
        guard scheme.count < uri.count, let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// Whether a time is a whole number of seconds.
    static func isWholeSeconds(_ time: MediaTime) -> Bool {
        time.isNumeric && time.value % Int64(time.timescale) == 0
    }
}
