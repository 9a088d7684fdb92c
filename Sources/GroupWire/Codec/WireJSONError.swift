/// Why ``WireJSONParser`` refused a document, and where: the byte offset of the first byte it
/// could not accept.
public struct WireJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset in bytes from the start of the document.
    public var offset: Int
    /// What went wrong.
    public var kind: Kind

    /// An error at `offset`.
    public init(offset: Int, kind: Kind) {
        self.offset = offset
        self.kind = kind
    }

    /// What the parser refused.
    public enum Kind: Sendable, Hashable {
        /// The document ends where it expected more.
        case unexpectedEnd(expected: Expectation)
        /// A byte that cannot stand here.
        case unexpectedByte(UInt8, expected: Expectation)
        /// The document is longer than ``WireJSONLimits/maximumBytes``.
        case documentTooLarge(limit: Int)
        /// Arrays and objects nest deeper than ``WireJSONLimits/maximumDepth``.
        case nestingTooDeep(limit: Int)
        /// A string (or an object key) holds more UTF-8 bytes than ``WireJSONLimits/maximumStringBytes``.
        case stringTooLong(limit: Int)
        /// An array or object has more elements than ``WireJSONLimits/maximumElements``.
        case tooManyElements(limit: Int)
        /// An integer (a number without fraction or exponent) that does not fit `Int64`: refused,
        /// not rounded to a double.
        case integerOutOfRange
        /// A number whose magnitude is beyond a `Double`'s (`1e999`).
        case numberOutOfRange
        /// A string that is not valid UTF-8.
        case invalidUTF8
        /// A backslash escape JSON does not have, or a lone UTF-16 surrogate.
        case invalidEscape
        /// A control character (below U+0020) written raw inside a string.
        case controlCharacterInString
        /// An object key that appears twice (its meaning would depend on the reader).
        case duplicateKey(String)
    }

    /// What the parser was looking for.
    public enum Expectation: Sendable, Hashable, CustomStringConvertible {
        /// Any value.
        case value
        /// A string (an object key).
        case string
        /// `:` after an object key.
        case colon
        /// `,` or `}`.
        case commaOrObjectEnd
        /// `,` or `]`.
        case commaOrArrayEnd
        /// A decimal digit.
        case digit
        /// Four hexadecimal digits after `\u`.
        case hexDigit
        /// The closing `"` of a string.
        case stringEnd
        /// Nothing more: the document's value is complete.
        case end

        /// For people.
        public var description: String {
            switch self {
            case .value: "a value"
            case .string: "a string"
            case .colon: "':'"
            case .commaOrObjectEnd: "',' or '}'"
            case .commaOrArrayEnd: "',' or ']'"
            case .digit: "a digit"
            case .hexDigit: "a hexadecimal digit"
            case .stringEnd: "'\"'"
            case .end: "the end of the document"
            }
        }
    }

    /// `byte 12: expected ':', found 'x'`.
    public var description: String {
        let what: String
        switch kind {
        case .unexpectedEnd(let expected): what = "expected \(expected), found the end"
        case .unexpectedByte(let byte, let expected):
            let shown = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            what = "expected \(expected), found \(shown)"
        case .documentTooLarge(let limit): what = "the document is over \(limit) bytes"
        case .nestingTooDeep(let limit): what = "arrays and objects nest deeper than \(limit) levels"
        case .stringTooLong(let limit): what = "a string is over \(limit) bytes"
        case .tooManyElements(let limit): what = "an array or object has over \(limit) elements"
        case .integerOutOfRange: what = "an integer does not fit 64 bits"
        case .numberOutOfRange: what = "a number is beyond a double's range"
        case .invalidUTF8: what = "a string is not valid UTF-8"
        case .invalidEscape: what = "an invalid escape"
        case .controlCharacterInString: what = "a raw control character in a string"
        case .duplicateKey(let key): what = "the key \"\(key)\" appears twice"
        }
        return "byte \(offset): \(what)"
    }
}

/// What ``WireJSONParser`` accepts at most. A hostile document costs time linear in its length and
/// memory bounded by these.
public struct WireJSONLimits: Sendable, Hashable {
    /// The longest document, in bytes (a session message: 64 KiB).
    public var maximumBytes: Int
    /// The deepest nesting of arrays and objects.
    public var maximumDepth: Int
    /// The longest string or key, in UTF-8 bytes after unescaping.
    public var maximumStringBytes: Int
    /// The most elements of one array or fields of one object.
    public var maximumElements: Int

    /// Limits.
    public init(maximumBytes: Int = 65_536, maximumDepth: Int = 32, maximumStringBytes: Int = 16_384, maximumElements: Int = 1_024) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumStringBytes = maximumStringBytes
        self.maximumElements = maximumElements
    }

    /// The group protocol's limits (docs/group-protocol.md, "Bounds").
    public static let standard = WireJSONLimits()
}
