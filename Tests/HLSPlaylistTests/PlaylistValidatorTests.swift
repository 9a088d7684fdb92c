import HLSPlaylist
import MediaTime
import Testing

/// One rule of the validator exercised twice: a playlist that breaks it, with the exact text of the
/// line the finding must point at, and a near miss, a valid playlist as close to the violation as
/// possible, on which nothing at all may be reported.
struct RuleCase: Sendable, CustomTestStringConvertible {
    /// The rule id the violation must produce.
    var rule: String
    /// What the case shows, when a rule has several cases.
    var label: String
    /// The text of the line the finding is reported on; `nil` when it has no line (edited playlists).
    var at: String?
    /// A playlist that breaks the rule.
    var violation: String
    /// A valid playlist close to the violation.
    var nearMiss: String
    /// The previous version of the playlist, for the rules about reloads.
    var previous: String?
    /// Other rules the violation cannot help breaking.
    var alsoReports: Set<String>
    /// An edit applied to the parsed playlist (both the violation and the near miss) before
    /// validation, for rules only an edited model can break.
    var edit: (@Sendable (inout MediaPlaylist) -> Void)?

    init(
        _ rule: String, _ label: String = "", at: String?, violation: String, nearMiss: String, previous: String? = nil,
        alsoReports: Set<String> = [], edit: (@Sendable (inout MediaPlaylist) -> Void)? = nil
    ) {
        self.rule = rule
        self.label = label
        self.at = at
        self.violation = violation
        self.nearMiss = nearMiss
        self.previous = previous
        self.alsoReports = alsoReports
        self.edit = edit
    }

    var testDescription: String { label.isEmpty ? rule : "\(rule): \(label)" }

    /// Every case of every family.
    static var all: [RuleCase] { parse + media + dateRange + interstitial + preload + multivariant }

    /// Validates `text` the way the case says: as bytes, or parsed, edited and validated as a model.
    func diagnostics(of text: String) throws -> [PlaylistDiagnostic] {
        let previousPlaylist = try previous.map { try MediaPlaylist(parsing: $0) }
        if let edit {
            var playlist = try MediaPlaylist(parsing: text)
            edit(&playlist)
            return PlaylistValidator.validate(playlist, previous: previousPlaylist)
        }
        return PlaylistValidator.validate(Array(text.utf8), previous: previousPlaylist)
    }

    /// The 1-based number of the one line of `playlist` whose text is `text`.
    static func line(of text: String, in playlist: String) throws -> Int {
        let lines = playlist.split(separator: "\n", omittingEmptySubsequences: false)
        let matches = lines.indices.filter { lines[$0] == text }
        try #require(matches.count == 1, "the marker \"\(text)\" must be exactly one line of the playlist")
        return matches[0] + 1
    }

    /// The violation reports the rule, with its severity, on the marked line, and nothing else but
    /// the rules it cannot help breaking.
    func expectViolation() throws {
        let rule = try #require(PlaylistValidator.rule(withID: self.rule), "\(self.rule) is not in PlaylistValidator.rules")
        let diagnostics = try diagnostics(of: violation)
        let found = diagnostics.filter { $0.ruleID == self.rule }
        try #require(!found.isEmpty, "expected \(self.rule); got \(diagnostics.map(\.description))")
        #expect(found.allSatisfy { $0.severity == rule.severity })
        let expectedLine = try at.map { try Self.line(of: $0, in: violation) }
        #expect(found[0].line == expectedLine, "\(found[0])")
        #expect(found.allSatisfy { !$0.message.isEmpty })
        let others = Set(diagnostics.map(\.ruleID)).subtracting([self.rule])
        #expect(others == alsoReports, "unexpected findings: \(diagnostics.filter { $0.ruleID != self.rule }.map(\.description))")
    }

    /// The near miss is clean.
    func expectNearMissIsClean() throws {
        let diagnostics = try diagnostics(of: nearMiss)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }
}

@Suite("PlaylistValidator")
struct PlaylistValidatorTests {
    @Test("every rule has a violating case and a near miss")
    func everyRuleIsCovered() {
        let covered = Set(RuleCase.all.map(\.rule))
        let listed = Set(PlaylistValidator.rules.map(\.id))
        #expect(listed.subtracting(covered).sorted() == [], "rules without a case")
        #expect(covered.subtracting(listed).sorted() == [], "cases for rules that are not listed")
    }

    @Test("rule ids are unique, dotted and kebab-case, and every rule names its section")
    func ruleCatalogIsWellFormed() {
        let rules = PlaylistValidator.rules
        #expect(Set(rules.map(\.id)).count == rules.count)
        let families: Set<String> = ["parse", "playlist", "media", "daterange", "interstitial", "preload", "multivariant"]
        for rule in rules {
            let parts = rule.id.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 2 && families.contains(String(parts[0])), "\(rule.id)")
            let name = parts.last ?? ""
            let isKebab = !name.isEmpty && name.first != "-" && name.last != "-" && !name.contains("--")
                && name.allSatisfy { ($0.isASCII && $0.isLowercase) || $0.isNumber || $0 == "-" }
            #expect(isKebab, "\(rule.id)")
            #expect(rule.family == String(parts[0]))
            #expect(!rule.summary.isEmpty && rule.specSection.hasPrefix("RFC 8216bis"), "\(rule.id)")
        }
    }

    @Test("diagnostics are sorted by line")
    func sortedByLine() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-KEY:METHOD=AES-128
            #EXTINF:12,
            a.ts
            #EXT-X-DATERANGE:ID="a",DURATION=10
            #EXTINF:10,
            b.ts
            #EXT-X-TARGETDURATION:11
            """
        let diagnostics = PlaylistValidator.validate(Array(text.utf8))
        #expect(diagnostics.map(\.ruleID) == [
            "media.key-uri-required", "media.extinf-exceeds-target-duration", "daterange.start-date-required",
            "daterange.program-date-time-required", "playlist.tag-repeated",
        ])
        #expect(diagnostics.map(\.line) == [3, 4, 6, 6, 9])
    }

    @Test("a parsed playlist and its bytes give the same findings")
    func bytesAndModelAgree() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:10.6,
            a.ts
            """
        let fromBytes = PlaylistValidator.validate(Array(text.utf8))
        let fromModel = PlaylistValidator.validate(try MediaPlaylist(parsing: text))
        #expect(fromBytes == fromModel)
        #expect(fromBytes.map(\.ruleID) == ["media.vod-without-endlist", "media.extinf-exceeds-target-duration", "playlist.version-too-low"])
    }

    @Test("an edited playlist has findings without lines")
    func editedPlaylistHasNoLines() throws {
        var playlist = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            a.ts
            """)
        #expect(PlaylistValidator.validate(playlist).isEmpty)
        playlist.segments.append(MediaSegment(uri: "b.ts", duration: MediaTime(seconds: 11)))
        let diagnostics = PlaylistValidator.validate(playlist)
        #expect(diagnostics.map(\.ruleID) == ["media.extinf-exceeds-target-duration"])
        #expect(diagnostics.map(\.line) == [nil])
    }

    @Test("the message quotes the values involved")
    func messageQuotesValues() {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:10
            #EXTINF:10.5,
            segment-7.ts
            """
        let message = PlaylistValidator.validate(Array(text.utf8)).first?.message ?? ""
        #expect(message.contains("10.5") && message.contains("11") && message.contains("EXT-X-TARGETDURATION:10"))
        #expect(message.contains("\"segment-7.ts\""))
    }

    @Test("a finding about an attribute points at its column")
    func columnOfAttribute() {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:2
            #EXT-X-TARGETDURATION:10
            #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k.key",IV=0x0123456789ABCDEF0123456789ABCDEF
            #EXTINF:10,
            a.ts
            """
        let diagnostic = PlaylistValidator.validate(Array(text.utf8)).first
        #expect(diagnostic?.ruleID == "media.key-iv-not-allowed")
        #expect(diagnostic?.column == 46)
    }

    @Test("a tag the parser skipped for a rule is reported under that rule only")
    func skippedTagReportedOnce() {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
            #EXT-X-DATERANGE:START-DATE="2026-11-30T05:00:00.000Z"
            #EXTINF:10,
            a.ts
            """
        let parse = (try? PlaylistParser.parse(text, options: ParseOptions(mode: .lenient)))?.diagnostics ?? []
        #expect(parse.map(\.ruleID) == ["parse.missing-attribute"])
        #expect(PlaylistValidator.validate(Array(text.utf8)).map(\.ruleID) == ["daterange.id-required"])
    }

    @Test("EXT-X-SKIP is allowed when the previous playlist advertised CAN-SKIP-UNTIL")
    func skipAdvertisedByPrevious() throws {
        let previous = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
            #EXT-X-MEDIA-SEQUENCE:10
            #EXTINF:4,
            a.ts
            """)
        let delta = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:10
            #EXT-X-SKIP:SKIPPED-SEGMENTS=1
            #EXTINF:4,
            b.ts
            """
        #expect(PlaylistValidator.validate(Array(delta.utf8)).map(\.ruleID) == ["media.skip-not-advertised"])
        #expect(PlaylistValidator.validate(Array(delta.utf8), previous: previous).isEmpty)
    }

    @Test("a multivariant playlist validates through bytes and through its model alike")
    func multivariantBytesAndModelAgree() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO="aac"
            low.m3u8
            """
        let fromBytes = PlaylistValidator.validate(Array(text.utf8))
        #expect(fromBytes == PlaylistValidator.validate(try MultivariantPlaylist(parsing: text)))
        // A finding about the whole line sorts before one about an attribute of it.
        #expect(fromBytes.map(\.ruleID) == ["multivariant.codecs-missing", "multivariant.group-not-found"])
        #expect(fromBytes.map(\.line) == [2, 2])
    }

    @Test("every rule prints as id, severity, summary and section")
    func ruleDescription() throws {
        let rule = try #require(PlaylistValidator.rule(withID: "media.extinf-exceeds-target-duration"))
        #expect(rule.description.hasPrefix("media.extinf-exceeds-target-duration [error] "))
        #expect(rule.description.hasSuffix("(RFC 8216bis §4.4.3.1, §6.2.1)"))
        #expect(PlaylistValidator.rule(withID: "media.no-such-rule") == nil)
    }
}

@Suite("PlaylistValidator: parse rules")
struct PlaylistValidatorParseTests {
    @Test("a parse problem is reported on its line", arguments: RuleCase.parse)
    func violation(_ rule: RuleCase) throws { try rule.expectViolation() }

    @Test("a near miss of a parse problem is clean", arguments: RuleCase.parse)
    func nearMiss(_ rule: RuleCase) throws { try rule.expectNearMissIsClean() }
}

extension RuleCase {
    static let parse: [RuleCase] = [
        RuleCase(
            "parse.missing-header", at: "#EXTM3U8",
            violation: """
                #EXTM3U8
                #EXT-X-TARGETDURATION:10
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                """
        ),
        RuleCase(
            "parse.malformed-tag", at: "#EXT-X-MEDIA-SEQUENCE:first",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:first
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "parse.malformed-attribute", at: "#EXT-X-KEY:METHOD=AES-128,URI=key.bin",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI=key.bin
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="key.bin"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "parse.missing-attribute", at: "#EXT-X-PART-INF:PART-TARGETS=1.0",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGETS=1.0
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1.0
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "parse.mixed-playlist-types", at: "#EXT-X-STREAM-INF:BANDWIDTH=1280000",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-STREAM-INF:BANDWIDTH=1280000
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f"
                low.m3u8
                """,
            // Lenient parsing skips the tag, so the URI after it has nothing to belong to.
            alsoReports: ["parse.unexpected-uri"]
        ),
        RuleCase(
            // The parser reports where it notices: at the EXTINF that follows the one without a URI.
            "parse.missing-uri", at: "#EXTINF:10,second",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,first
                #EXTINF:10,second
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,first
                a.ts
                #EXTINF:10,second
                b.ts
                """
        ),
        RuleCase(
            "parse.unexpected-uri", at: "b.ts",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,
                a.ts
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,
                a.ts
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "parse.undefined-variable", at: "{$base}/a.ts",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:8
                #EXT-X-TARGETDURATION:10
                #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example.com"
                #EXTINF:10,
                {$base}/a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:8
                #EXT-X-TARGETDURATION:10
                #EXT-X-DEFINE:NAME="base",VALUE="https://cdn.example.com"
                #EXTINF:10,
                {$base}/a.ts
                """
        ),
        RuleCase(
            "parse.invalid-text", at: "\u{FEFF}#EXTM3U",
            violation: """
                \u{FEFF}#EXTM3U
                #EXT-X-TARGETDURATION:10
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                """
        ),
    ]
}
