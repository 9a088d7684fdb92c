/// Parses JSON (RFC 8259) into a ``WireValue`` within ``WireJSONLimits``, and says where it
/// stopped when it refuses a document.
///
/// Strict where a lenient reader would guess: an integer that does not fit `Int64` is refused
/// rather than rounded, a repeated key is refused, and so are lone surrogates, raw control
/// characters and invalid UTF-8. Whitespace may surround any value.
///
///     let value = try WireJSONParser().parse(Array(#"{"type":"ping"}"#.utf8))
///
/// - Complexity: O(n) in the document's length; recursion is bounded by the nesting limit.
public struct WireJSONParser: Sendable {
    /// The limits it enforces.
    public var limits: WireJSONLimits

    /// A parser with `limits`.
    public init(limits: WireJSONLimits = .standard) {
        self.limits = limits
    }

    /// The value of the whole document.
    ///
    /// - Throws: ``WireJSONError`` at the first byte it cannot accept.
    public func parse(_ bytes: [UInt8]) throws(WireJSONError) -> WireValue {
        guard bytes.count <= limits.maximumBytes else {
            throw WireJSONError(offset: limits.maximumBytes, kind: .documentTooLarge(limit: limits.maximumBytes))
        }
        var cursor = Cursor(bytes: bytes, limits: limits)
        let value = try cursor.value(depth: 0)
        cursor.skipWhitespace()
        if cursor.position < bytes.count { throw cursor.unexpected(.end) }
        return value
    }

    private struct Cursor {
        let bytes: [UInt8]
        let limits: WireJSONLimits
        var position = 0

        init(bytes: [UInt8], limits: WireJSONLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        func unexpected(_ expected: WireJSONError.Expectation) -> WireJSONError {
            guard position < bytes.count else { return WireJSONError(offset: position, kind: .unexpectedEnd(expected: expected)) }
            return WireJSONError(offset: position, kind: .unexpectedByte(bytes[position], expected: expected))
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// Consumes `byte` after optional whitespace, or fails expecting `expected`.
        mutating func expect(_ byte: UInt8, _ expected: WireJSONError.Expectation) throws(WireJSONError) {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == byte else { throw unexpected(expected) }
            position += 1
        }

        mutating func value(depth: Int) throws(WireJSONError) -> WireValue {
            skipWhitespace()
            guard position < bytes.count else { throw unexpected(.value) }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw unexpected(.value)
            }
        }

        mutating func literal(_ word: StaticString) throws(WireJSONError) {
            let start = position
            for index in 0..<word.utf8CodeUnitCount {
                guard position < bytes.count, bytes[position] == word.utf8Start[index] else {
                    // Point at the word's start: `tru` is not a value.
                    let found = position
                    position = start
                    if found >= bytes.count { throw WireJSONError(offset: start, kind: .unexpectedEnd(expected: .value)) }
                    throw unexpected(.value)
                }
                position += 1
            }
        }

        mutating func object(depth: Int) throws(WireJSONError) -> WireValue {
            guard depth <= limits.maximumDepth else {
                throw WireJSONError(offset: position, kind: .nestingTooDeep(limit: limits.maximumDepth))
            }
            position += 1
            var object = WireObject()
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected(.string) }
                let keyOffset = position
                let key = try string()
                guard object[key] == nil else { throw WireJSONError(offset: keyOffset, kind: .duplicateKey(key)) }
                guard object.count < limits.maximumElements else {
                    throw WireJSONError(offset: keyOffset, kind: .tooManyElements(limit: limits.maximumElements))
                }
                try expect(UInt8(ascii: ":"), .colon)
                object.appendNew(key, try value(depth: depth))
                skipWhitespace()
                guard position < bytes.count else { throw unexpected(.commaOrObjectEnd) }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(object)
                default: throw unexpected(.commaOrObjectEnd)
                }
            }
        }

        mutating func array(depth: Int) throws(WireJSONError) -> WireValue {
            guard depth <= limits.maximumDepth else {
                throw WireJSONError(offset: position, kind: .nestingTooDeep(limit: limits.maximumDepth))
            }
            position += 1
            var elements: [WireValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                guard elements.count < limits.maximumElements else {
                    throw WireJSONError(offset: position, kind: .tooManyElements(limit: limits.maximumElements))
                }
                elements.append(try value(depth: depth))
                skipWhitespace()
                guard position < bytes.count else { throw unexpected(.commaOrArrayEnd) }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(elements)
                default: throw unexpected(.commaOrArrayEnd)
                }
            }
        }

        /// A string starting at the opening quote.
        mutating func string() throws(WireJSONError) -> String {
            let start = position
            position += 1
            var text: [UInt8] = []
            var runStart = position
            while true {
                guard position < bytes.count else { throw unexpected(.stringEnd) }
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { throw WireJSONError(offset: position, kind: .controlCharacterInString) }
                if byte == UInt8(ascii: "\\") {
                    text.append(contentsOf: bytes[runStart..<position])
                    try escape(into: &text)
                    runStart = position
                } else {
                    position += 1
                }
                if text.count + (position - runStart) > limits.maximumStringBytes {
                    throw WireJSONError(offset: start, kind: .stringTooLong(limit: limits.maximumStringBytes))
                }
            }
            text.append(contentsOf: bytes[runStart..<position])
            position += 1
            guard let decoded = String(validating: text, as: UTF8.self) else {
                throw WireJSONError(offset: start, kind: .invalidUTF8)
            }
            return decoded
        }

        /// One escape, from its backslash.
        mutating func escape(into text: inout [UInt8]) throws(WireJSONError) {
            let start = position
            position += 1
            guard position < bytes.count else { throw unexpected(.stringEnd) }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(try hex4())
                if (0xD800...0xDBFF).contains(scalar) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw WireJSONError(offset: start, kind: .invalidEscape)
                    }
                    position += 2
                    let low = UInt32(try hex4())
                    guard (0xDC00...0xDFFF).contains(low) else { throw WireJSONError(offset: start, kind: .invalidEscape) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw WireJSONError(offset: start, kind: .invalidEscape)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw WireJSONError(offset: start, kind: .invalidEscape) }
                text.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw WireJSONError(offset: start, kind: .invalidEscape)
            }
        }

        mutating func hex4() throws(WireJSONError) -> UInt16 {
            var result: UInt16 = 0
            for _ in 0..<4 {
                guard position < bytes.count else { throw unexpected(.hexDigit) }
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw unexpected(.hexDigit)
                }
                result = result << 4 | UInt16(digit)
                position += 1
            }
            return result
        }

        mutating func digits() throws(WireJSONError) {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
                throw unexpected(.digit)
            }
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        }

        mutating func number() throws(WireJSONError) -> WireValue {
            let start = position
            let negative = bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            let integerStart = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                try digits()
            }
            let integerEnd = position
            var isInteger = true
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                isInteger = false
                position += 1
                try digits()
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                isInteger = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                try digits()
            }
            if isInteger {
                var magnitude: UInt64 = 0
                for index in integerStart..<integerEnd {
                    let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = shifted.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                    guard !o1, !o2 else { throw WireJSONError(offset: start, kind: .integerOutOfRange) }
                    magnitude = sum
                }
                if negative {
                    guard magnitude <= UInt64(Int64.max) + 1 else { throw WireJSONError(offset: start, kind: .integerOutOfRange) }
                    return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
                }
                guard let value = Int64(exactly: magnitude) else { throw WireJSONError(offset: start, kind: .integerOutOfRange) }
                return .integer(value)
            }
            // The grammar has been checked, so the standard library's parser sees only JSON numbers.
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw WireJSONError(offset: start, kind: .numberOutOfRange) }
            return .double(value)
        }
    }
}
