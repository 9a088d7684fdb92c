/// A playlist that cannot be parsed, located at the line and column where the problem is.
///
///     error: line 7, column 23: EXT-X-DATERANGE: START-DATE must be an ISO 8601 date … (malformed-attribute)
///         #EXT-X-DATERANGE:ID="a",START-DATE="soon"
///                               ^
public struct PlaylistParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    public var kind: Kind
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column (in bytes) where the problem starts.
    public var column: Int
    /// The offending line (truncated to 200 characters).
    public var excerpt: String
    /// A message that says what is wrong and how to fix it.
    public var message: String

    /// The kinds of parse errors; each has a stable rule id used in diagnostics.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The first line is not `#EXTM3U`.
        case missingHeader = "missing-header"
        /// A known tag's value or attribute list is malformed.
        case malformedTag = "malformed-tag"
        /// An attribute of a known tag has the wrong value type or an illegal value.
        case malformedAttribute = "malformed-attribute"
        /// A required attribute is missing.
        case missingAttribute = "missing-attribute"
        /// A tag of a media playlist appears in a multivariant playlist or the other way round.
        case mixedPlaylistTypes = "mixed-playlist-types"
        /// An EXTINF or EXT-X-STREAM-INF is not followed by a URI line.
        case missingURI = "missing-uri"
        /// A URI line with no EXTINF or EXT-X-STREAM-INF before it.
        case unexpectedURI = "unexpected-uri"
        /// A `{$name}` reference to a variable that is not defined, or a bad EXT-X-DEFINE.
        case undefinedVariable = "undefined-variable"
        /// The text is not valid UTF-8 or contains a control character.
        case invalidText = "invalid-text"
    }

    /// Creates an error.
    public init(kind: Kind, line: Int, column: Int, excerpt: String, message: String) {
        self.kind = kind
        self.line = line
        self.column = column
        self.excerpt = excerpt
        self.message = message
    }

    /// `line L, column C: message`, the excerpt, and a caret under the column.
    public var description: String {
        let caret = String(repeating: " ", count: max(0, min(column - 1, excerpt.count))) + "^"
        return "line \(line), column \(column): \(message) [\(kind.rawValue)]\n    \(excerpt)\n    \(caret)"
    }
}

/// A finding about a playlist: a parse problem tolerated in lenient mode, or a validation rule.
public struct PlaylistDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious the finding is.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// The playlist breaks a MUST / MUST NOT of the specification; players may reject it.
        case error
        /// The playlist breaks a SHOULD, or does something players handle inconsistently.
        case warning
        /// Worth knowing; not wrong.
        case note

        private var rank: Int { self == .error ? 2 : self == .warning ? 1 : 0 }
        /// Less severe first.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable identifier of the rule, for example `daterange.start-date-required`.
    public var ruleID: String
    /// How serious it is.
    public var severity: Severity
    /// The 1-based line, when the finding is about a line.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// What is wrong and how to fix it.
    public var message: String

    /// A diagnostic.
    public init(ruleID: String, severity: Severity, line: Int?, column: Int? = nil, message: String) {
        self.ruleID = ruleID
        self.severity = severity
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L: severity: message [rule]`.
    public var description: String {
        "\(location)\(severity.rawValue): \(message) [\(ruleID)]"
    }

    /// `line L, column C: message [rule]`, without the severity: for a tool that reports the
    /// problem under a severity of its own (a player that read past it warns about what
    /// `validate` calls an error).
    public var locatedMessage: String {
        "\(location)\(message) [\(ruleID)]"
    }

    private var location: String {
        line.map { "line \($0)" + (column.map { ", column \($0)" } ?? "") + ": " } ?? ""
    }
}

extension PlaylistDiagnostic {
    /// The diagnostic a lenient parse records for a problem that strict mode throws.
    public init(_ error: PlaylistParseError) {
        self.init(
            ruleID: "parse.\(error.kind.rawValue)",
            severity: .error,
            line: error.line,
            column: error.column,
            message: error.message
        )
    }
}
