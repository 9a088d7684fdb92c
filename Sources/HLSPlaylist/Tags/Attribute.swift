/// One `NAME=value` pair of an attribute list (RFC 8216bis §4.2) that the typed model has no field
/// for, kept so that nothing a playlist says is lost.
public struct Attribute: Sendable, Hashable {
    /// The attribute name, for example `X-COM-EXAMPLE-AD-ID`.
    public var name: String
    /// The value with its syntactic type.
    public var value: AttributeValue

    /// An attribute named `name` with `value`.
    public init(name: String, value: AttributeValue) {
        self.name = name
        self.value = value
    }
}

/// An attribute value with the syntactic type it was written in (RFC 8216bis §4.2).
///
/// Client attributes (`X-…`) of EXT-X-DATERANGE must be a quoted string, a hexadecimal sequence or
/// a signed decimal floating-point number; other tags also use enumerated strings and resolutions,
/// which are kept as ``enumerated(_:)``.
public enum AttributeValue: Sendable, Hashable {
    /// A `"quoted string"`, without its quotes (variables substituted when the playlist defines any).
    case quotedString(String)
    /// A hexadecimal sequence such as `0xFC30`, as written (with its `0x` prefix).
    case hexadecimal(String)
    /// A decimal number (integer or floating point, possibly signed), as written.
    case decimal(String)
    /// Any other unquoted value: an enumerated string (`YES`) or a resolution (`1280x720`).
    case enumerated(String)

    /// The text as it appears in a playlist (quoted strings get their quotes back).
    public var playlistText: String {
        switch self {
        case .quotedString(let text): return "\"\(text)\""
        case .hexadecimal(let text), .decimal(let text), .enumerated(let text): return text
        }
    }

    /// The value without quotes, whatever its type.
    public var text: String {
        switch self {
        case .quotedString(let text), .hexadecimal(let text), .decimal(let text), .enumerated(let text): return text
        }
    }
}
