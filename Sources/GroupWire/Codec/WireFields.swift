import MediaTime

/// The fields of a wire object, read with their bounds checked. Every error it throws is located
/// at the field (``WireDecodingError/path``); a nested ``WireCodable`` value's errors are prefixed
/// with the field's name.
///
///     let fields = try WireFields(wire)
///     let id = try fields.counter("id")
///     let sent = try fields.duration("sent")
///
/// `null` counts as absent. Fields the reader does not ask for are ignored (a newer peer may add
/// them).
public struct WireFields: Sendable {
    /// The object.
    public let object: WireObject

    /// The fields of `value`, which must be an object.
    public init(_ value: WireValue) throws(WireDecodingError) {
        guard case .object(let object) = value else {
            throw WireDecodingError(path: [], kind: .wrongType(expected: .object, found: value.kind))
        }
        self.object = object
    }

    private func error(_ key: String, _ kind: WireDecodingError.Kind) -> WireDecodingError {
        WireDecodingError(path: [.key(key)], kind: kind)
    }

    /// The value of `key`, or `nil` when it is absent or `null`.
    public func optionalValue(_ key: String) -> WireValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    /// The value of `key`.
    public func value(_ key: String) throws(WireDecodingError) -> WireValue {
        guard let value = optionalValue(key) else { throw error(key, .missingField) }
        return value
    }

    /// Decodes `key` with `decode`, prefixing its errors with the key.
    public func decode<T>(_ key: String, _ decode: (WireValue) throws(WireDecodingError) -> T) throws(WireDecodingError) -> T {
        let value = try value(key)
        do { return try decode(value) } catch { throw error.prefixed(by: .key(key)) }
    }

    /// Decodes `key` with `decode` when it is present.
    public func decodeIfPresent<T>(_ key: String, _ decode: (WireValue) throws(WireDecodingError) -> T) throws(WireDecodingError) -> T? {
        guard let value = optionalValue(key) else { return nil }
        do { return try decode(value) } catch { throw error.prefixed(by: .key(key)) }
    }

    /// A nested wire value.
    public func decode<T: WireCodable>(_ key: String, as type: T.Type = T.self) throws(WireDecodingError) -> T {
        try decode(key) { (value) throws(WireDecodingError) in try T(wire: value) }
    }

    /// A nested wire value, when present.
    public func decodeIfPresent<T: WireCodable>(_ key: String, as type: T.Type = T.self) throws(WireDecodingError) -> T? {
        try decodeIfPresent(key) { (value) throws(WireDecodingError) in try T(wire: value) }
    }

    /// A string of at most `maximumBytes` UTF-8 bytes, and not empty unless `allowsEmpty`.
    public func string(_ key: String, maximumBytes: Int = WireBounds.maximumIdentifierBytes, allowsEmpty: Bool = false) throws(WireDecodingError) -> String {
        try decode(key) { (value) throws(WireDecodingError) in try WireFields.string(value, maximumBytes: maximumBytes, allowsEmpty: allowsEmpty) }
    }

    /// An optional string.
    public func optionalString(_ key: String, maximumBytes: Int = WireBounds.maximumIdentifierBytes, allowsEmpty: Bool = false) throws(WireDecodingError) -> String? {
        try decodeIfPresent(key) { (value) throws(WireDecodingError) in try WireFields.string(value, maximumBytes: maximumBytes, allowsEmpty: allowsEmpty) }
    }

    /// A boolean.
    public func bool(_ key: String) throws(WireDecodingError) -> Bool {
        try decode(key) { (value) throws(WireDecodingError) in
            guard case .bool(let flag) = value else { throw WireDecodingError(path: [], kind: .wrongType(expected: .bool, found: value.kind)) }
            return flag
        }
    }

    /// A boolean, `false` when absent.
    public func flag(_ key: String) throws(WireDecodingError) -> Bool {
        optionalValue(key) == nil ? false : try bool(key)
    }

    /// An integer within `range` (at most ``WireBounds/integers``).
    public func integer(_ key: String, in range: ClosedRange<Int64> = WireBounds.integers) throws(WireDecodingError) -> Int64 {
        try decode(key) { (value) throws(WireDecodingError) in try WireFields.integer(value, in: range) }
    }

    /// A counter, sequence, version or identifier: `0…2⁵³ − 1`.
    public func counter(_ key: String) throws(WireDecodingError) -> UInt64 {
        UInt64(try integer(key, in: WireBounds.counters))
    }

    /// A finite number (an integer is read as the double it denotes) within ±`magnitude`.
    public func double(_ key: String, magnitude: Double) throws(WireDecodingError) -> Double {
        try decode(key) { (value) throws(WireDecodingError) in
            let number: Double
            switch value {
            case .double(let double): number = double
            case .integer(let integer): number = Double(integer)
            default: throw WireDecodingError(path: [], kind: .wrongType(expected: .number, found: value.kind))
            }
            guard number.isFinite, abs(number) <= magnitude else {
                throw WireDecodingError(path: [], kind: .outOfRange(bound: "finite, within ±\(magnitude)"))
            }
            return number
        }
    }

    /// A time in nanoseconds (``Duration/init(wire:)``); not negative when `nonNegative`.
    public func duration(_ key: String, nonNegative: Bool = false) throws(WireDecodingError) -> Duration {
        try decode(key) { (value) throws(WireDecodingError) in try Duration.decode(wire: value, nonNegative: nonNegative) }
    }

    /// An optional time in nanoseconds.
    public func optionalDuration(_ key: String, nonNegative: Bool = false) throws(WireDecodingError) -> Duration? {
        try decodeIfPresent(key) { (value) throws(WireDecodingError) in try Duration.decode(wire: value, nonNegative: nonNegative) }
    }

    /// An array of at most `maximumCount` elements, each decoded with `element` (errors prefixed with
    /// the key and the index).
    public func array<T>(_ key: String, maximumCount: Int, _ element: (WireValue) throws(WireDecodingError) -> T) throws(WireDecodingError) -> [T] {
        try decode(key) { (value) throws(WireDecodingError) in try WireFields.array(value, maximumCount: maximumCount, element) }
    }

    /// An array of wire values.
    public func array<T: WireCodable>(_ key: String, of type: T.Type = T.self, maximumCount: Int) throws(WireDecodingError) -> [T] {
        try array(key, maximumCount: maximumCount) { (value) throws(WireDecodingError) in try T(wire: value) }
    }

    // MARK: Values

    /// `value` as a string within its bounds.
    public static func string(_ value: WireValue, maximumBytes: Int, allowsEmpty: Bool = false) throws(WireDecodingError) -> String {
        guard case .string(let text) = value else { throw WireDecodingError(path: [], kind: .wrongType(expected: .string, found: value.kind)) }
        guard text.utf8.count <= maximumBytes, allowsEmpty || !text.isEmpty else {
            throw WireDecodingError(path: [], kind: .outOfRange(bound: "\(allowsEmpty ? 0 : 1)…\(maximumBytes) bytes"))
        }
        return text
    }

    /// `value` as an integer within `range`.
    public static func integer(_ value: WireValue, in range: ClosedRange<Int64>) throws(WireDecodingError) -> Int64 {
        let number: Int64
        switch value {
        case .integer(let integer): number = integer
        case .double(let double):
            // `1.0` from a writer that has only doubles is the integer it denotes.
            guard let exact = Int64(exactly: double) else {
                throw WireDecodingError(path: [], kind: .wrongType(expected: .integer, found: .double))
            }
            number = exact
        default: throw WireDecodingError(path: [], kind: .wrongType(expected: .integer, found: value.kind))
        }
        guard range.contains(number) else {
            throw WireDecodingError(path: [], kind: .outOfRange(bound: "\(range.lowerBound)…\(range.upperBound)"))
        }
        return number
    }

    /// `value` as an array of at most `maximumCount` elements decoded with `element`.
    public static func array<T>(_ value: WireValue, maximumCount: Int, _ element: (WireValue) throws(WireDecodingError) -> T) throws(WireDecodingError) -> [T] {
        guard case .array(let elements) = value else { throw WireDecodingError(path: [], kind: .wrongType(expected: .array, found: value.kind)) }
        guard elements.count <= maximumCount else {
            throw WireDecodingError(path: [], kind: .outOfRange(bound: "at most \(maximumCount) elements"))
        }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            do { result.append(try element(item)) } catch { throw error.prefixed(by: .index(index)) }
        }
        return result
    }
}

extension Duration {
    /// A time on the wire: an integer of nanoseconds within ±(2⁵³ − 1).
    public static func decode(wire value: WireValue, nonNegative: Bool = false) throws(WireDecodingError) -> Duration {
        let range = nonNegative ? 0...WireBounds.maximumInteger : WireBounds.integers
        return .nanoseconds(try WireFields.integer(value, in: range))
    }

    /// The wire form: whole nanoseconds, truncated toward zero (clamped to `Int64`).
    public var wire: WireValue {
        .integer(Int64(clamping: attoseconds / 1_000_000_000))
    }
}

extension MediaTime {
    /// A media time on the wire: `{"value": …, "timescale": …}` with a timescale of 1…10⁹, a whole
    /// number of nanoseconds within ±(2⁵³ − 1) ns. The value is kept as written (`1500/1000`
    /// stays `1500/1000`; it equals `3/2`). Not negative when `nonNegative` (a duration).
    public static func decode(wire value: WireValue, nonNegative: Bool = false) throws(WireDecodingError) -> MediaTime {
        let fields = try WireFields(value)
        let timescale = try fields.integer("timescale", in: 1...WireBounds.maximumTimescale)
        let units = try fields.integer("value")
        let scaled = Int128(units) * 1_000_000_000
        guard scaled % Int128(timescale) == 0, (scaled / Int128(timescale)).magnitude <= UInt128(WireBounds.maximumInteger) else {
            throw WireDecodingError(path: [], kind: .outOfRange(bound: "a whole number of nanoseconds within ±(2^53 − 1)"))
        }
        if nonNegative, units < 0 {
            throw WireDecodingError(path: [.key("value")], kind: .outOfRange(bound: "not negative"))
        }
        return MediaTime(value: units, timescale: Int32(timescale))
    }

    /// The wire form of a numeric time, in lowest terms. A time that is not a whole number of
    /// nanoseconds (a rate of ½ can make one) is rounded to the nearest nanosecond first, so that
    /// what is written decodes; a special value (which no wire message holds) is written as zero.
    public var wire: WireValue {
        guard isNumeric else { return MediaTime.zero.wire }
        var time = self
        if Int128(value) * 1_000_000_000 % Int128(timescale) != 0 {
            time = converted(toTimescale: 1_000_000_000) ?? self
        }
        let reduced = time.reduced
        return .object(["value": .integer(reduced.value), "timescale": .integer(Int64(reduced.timescale))])
    }
}
