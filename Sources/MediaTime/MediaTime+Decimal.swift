extension MediaTime {
    /// Parses a decimal number of seconds such as `"9.009"`, `"-2.5"` or `"10.000000001"` exactly.
    ///
    /// The result's timescale is the power of ten the fraction needs (trailing zeros dropped), so
    /// `"6.000"` is `6/1` and `"9.009"` is `9009/1000`; it is reduced further only when the value
    /// would not fit otherwise. Returns `nil` for anything that is not a plain decimal (no
    /// exponent, no spaces, at least one digit) and for values that need more than nine fractional
    /// digits or do not fit.
    ///
    /// - Complexity: O(n) in the length of the text.
    public init?(decimal text: some StringProtocol) {
        var text = String(text)
        guard let parsed = text.withUTF8({ MediaTime.parseDecimal($0, 0, $0.count) }) else { return nil }
        self = parsed
    }

    /// Parses a decimal number of seconds from `bytes[start..<end]`, as ``init(decimal:)`` does,
    /// without creating a `String`: the playlist parser's hot path.
    ///
    /// Accepts an optional leading `-` or `+`. Fractional digits beyond the ninth must be zeros.
    /// When `value × 10ⁿ` would not fit in `Int64` the fraction is reduced, so every time that
    /// ``decimalString(fallbackDigits:)`` prints exactly parses back to the same time, `Int64.min`
    /// units included.
    public static func parseDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> MediaTime? {
        var index = start
        guard index < end else { return nil }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        // The magnitude, so that `-9223372036854775808` parses.
        var integer: UInt64 = 0
        var digits = 0
        while index < end {
            let digit = bytes[index] &- 48
            guard digit < 10 else { break }
            let (shifted, o1) = integer.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { return nil }
            integer = sum
            digits += 1
            index += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var pendingZeros = 0
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < end {
                let digit = bytes[index] &- 48
                guard digit < 10 else { break }
                digits += 1
                index += 1
                if digit == 0 {
                    pendingZeros += 1
                    continue
                }
                // Materialise the zeros seen since the last non-zero digit.
                guard fractionDigits + pendingZeros + 1 <= 9 else { return nil }
                for _ in 0..<pendingZeros { fraction *= 10 }
                fraction = fraction * 10 + Int64(digit)
                fractionDigits += pendingZeros + 1
                pendingZeros = 0
            }
        }
        guard digits > 0, index == end else { return nil }
        var timescale: Int128 = 1
        for _ in 0..<fractionDigits { timescale *= 10 }
        let total = Int128(integer) * timescale + Int128(fraction)
        return MediaTime.exact(numerator: negative ? -total : total, denominator: timescale)
    }

    /// The shortest exact decimal form of this time, such as `"9.009"` or `"6"`, when one exists
    /// (the reduced timescale divides a power of ten up to 10⁹); otherwise the value rounded to
    /// `fallbackDigits` fractional digits.
    ///
    /// Special values print as `"invalid"`, `"indefinite"`, `"+inf"` and `"-inf"`.
    public func decimalString(fallbackDigits: Int = 6) -> String {
        switch kind {
        case .invalid: return "invalid"
        case .indefinite: return "indefinite"
        case .positiveInfinity: return "+inf"
        case .negativeInfinity: return "-inf"
        case .numeric: break
        }
        let reduced = self.reduced
        var power: Int64 = 1
        var digits = 0
        while digits < 9, power % Int64(reduced.timescale) != 0 {
            power *= 10
            digits += 1
        }
        if power % Int64(reduced.timescale) != 0 {
            digits = Swift.max(0, Swift.min(fallbackDigits, 9))
            power = 1
            for _ in 0..<digits { power *= 10 }
        }
        let units = Int128(reduced.value) * Int128(power)
        let denominator = Int128(reduced.timescale)
        let negative = units < 0
        let magnitude = (units.magnitude + denominator.magnitude / 2) / denominator.magnitude
        let whole = magnitude / UInt128(power)
        let fraction = magnitude % UInt128(power)
        var text = negative && magnitude != 0 ? "-" : ""
        text += String(whole)
        if digits > 0 {
            var fractionText = String(fraction)
            fractionText = String(repeating: "0", count: digits - fractionText.count) + fractionText
            if power % Int64(reduced.timescale) == 0 {
                while fractionText.hasSuffix("0") { fractionText.removeLast() }
            }
            if !fractionText.isEmpty { text += "." + fractionText }
        }
        return text
    }

    /// The decimal form with exactly `digits` fractional digits (rounded half away from zero), as
    /// HLS writes EXTINF values: `MediaTime(value: 6, timescale: 1).fixedDecimalString(digits: 3)`
    /// is `"6.000"`.
    public func fixedDecimalString(digits: Int) -> String {
        guard isNumeric else { return decimalString() }
        let digits = Swift.max(0, Swift.min(digits, 9))
        var power: Int128 = 1
        for _ in 0..<digits { power *= 10 }
        let units = Int128(value) * power
        let denominator = Int128(timescale)
        let negative = units < 0
        let magnitude = (units.magnitude + denominator.magnitude / 2) / denominator.magnitude
        let whole = magnitude / UInt128(power)
        var text = negative && magnitude != 0 ? "-" : ""
        text += String(whole)
        if digits > 0 {
            let fraction = String(magnitude % UInt128(power))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }
}

extension MediaTime: CustomStringConvertible, CustomDebugStringConvertible {
    /// The exact decimal form in seconds, for example `9.009`.
    public var description: String { decimalString() }

    /// The rational form, for example `9009/1000`.
    public var debugDescription: String {
        isNumeric ? "\(value)/\(timescale)" : decimalString()
    }
}

extension MediaTime: Codable {
    /// Decodes `{"value": Int64, "timescale": Int32}`, or a decimal string, or a number of seconds,
    /// or one of the special values' strings `"invalid"`, `"indefinite"`, `"+inf"` and `"-inf"`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a timescale that is not positive.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if let text = try? container.decode(String.self) {
                if let special = Self.special(named: text) {
                    self = special
                    return
                }
                if let time = MediaTime(decimal: text) {
                    self = time
                    return
                }
            }
            if let seconds = try? container.decode(Double.self), let time = MediaTime(seconds: seconds) {
                self = time
                return
            }
        }
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        let value = try keyed.decode(Int64.self, forKey: .value)
        let timescale = try keyed.decode(Int32.self, forKey: .timescale)
        guard timescale > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .timescale,
                in: keyed,
                debugDescription: "MediaTime timescale must be positive, got \(timescale)"
            )
        }
        self.init(value: value, timescale: timescale)
    }

    /// Encodes a numeric time as `{"value": Int64, "timescale": Int32}` and a special value as its
    /// ``decimalString(fallbackDigits:)`` (`"indefinite"`, …); both round-trip exactly.
    public func encode(to encoder: any Encoder) throws {
        guard isNumeric else {
            // `{"value": 0, "timescale": 0}` would lose the kind and could not be decoded.
            var single = encoder.singleValueContainer()
            try single.encode(decimalString())
            return
        }
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(value, forKey: .value)
        try keyed.encode(timescale, forKey: .timescale)
    }

    private static func special(named text: String) -> MediaTime? {
        switch text {
        case "invalid": return .invalid
        case "indefinite": return .indefinite
        case "+inf": return .positiveInfinity
        case "-inf": return .negativeInfinity
        default: return nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case value, timescale
    }
}

extension MediaTime {
    /// The earlier of two times (exact comparison).
    public static func min(_ a: MediaTime, _ b: MediaTime) -> MediaTime { b < a ? b : a }
    /// The later of two times (exact comparison).
    public static func max(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a < b ? b : a }
}
