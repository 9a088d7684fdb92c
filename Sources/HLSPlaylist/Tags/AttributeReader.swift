import MediaTime

/// Why an attribute list could not be read into a typed tag.
public struct AttributeError: Error, Sendable, Hashable {
    /// The attribute at fault (or the missing one).
    public var name: String
    /// What is wrong, in words an author can act on.
    public var reason: String
    /// Whether the attribute is required and absent (as opposed to present and malformed).
    public var isMissing: Bool

    /// An error about `name`.
    public init(name: String, reason: String, isMissing: Bool = false) {
        self.name = name
        self.reason = reason
        self.isMissing = isMissing
    }
}

/// Reads typed values out of an attribute list (RFC 8216bis §4.2), remembering which attributes it
/// consumed so that the rest can be kept as unknown attributes.
///
/// Each accessor enforces the attribute's value type: a quoted string must be quoted, a decimal
/// integer must be digits, and so on. A wrong type throws an ``AttributeError`` naming the
/// attribute.
struct AttributeReader {
    private(set) var attributes: [Attribute]
    private var consumed: [Bool]

    init(_ attributes: [Attribute]) {
        self.attributes = attributes
        self.consumed = Array(repeating: false, count: attributes.count)
    }

    private mutating func take(_ name: String) -> AttributeValue? {
        for index in attributes.indices where !consumed[index] && attributes[index].name == name {
            consumed[index] = true
            return attributes[index].value
        }
        return nil
    }

    /// Whether `name` is present (does not consume it).
    func has(_ name: String) -> Bool { attributes.contains { $0.name == name } }

    /// The attributes nobody asked for, in their original order.
    var unconsumed: [Attribute] {
        attributes.indices.filter { !consumed[$0] }.map { attributes[$0] }
    }

    mutating func quotedString(_ name: String) throws(AttributeError) -> String? {
        guard let value = take(name) else { return nil }
        return try Self.quotedString(name, value)
    }

    static func quotedString(_ name: String, _ value: AttributeValue) throws(AttributeError) -> String {
        guard case .quotedString(let text) = value else {
            throw AttributeError(name: name, reason: "must be a quoted string, found \(value.playlistText)")
        }
        return text
    }

    static func date(_ name: String, _ value: AttributeValue) throws(AttributeError) -> PlaylistDate {
        let text = try quotedString(name, value)
        guard let date = PlaylistDate(iso8601: text) else {
            throw AttributeError(name: name, reason: "must be an ISO 8601 date with a time zone, found \"\(text)\"")
        }
        return date
    }

    static func decimalTime(_ name: String, _ value: AttributeValue, signed: Bool) throws(AttributeError) -> MediaTime {
        guard case .decimal(let text) = value, let time = MediaTime(decimal: text) else {
            throw AttributeError(name: name, reason: "must be a decimal number of seconds, found \(value.playlistText)")
        }
        if !signed, text.utf8.first == UInt8(ascii: "-") || text.utf8.first == UInt8(ascii: "+") {
            throw AttributeError(name: name, reason: "must be an unsigned decimal number, found \(text)")
        }
        return time
    }

    static func hexadecimal(_ name: String, _ value: AttributeValue) throws(AttributeError) -> String {
        guard case .hexadecimal(let text) = value else {
            throw AttributeError(name: name, reason: "must be a hexadecimal sequence (0x…), found \(value.playlistText)")
        }
        return text
    }

    mutating func requiredQuotedString(_ name: String) throws(AttributeError) -> String {
        guard let text = try quotedString(name) else {
            throw AttributeError(name: name, reason: "is required", isMissing: true)
        }
        return text
    }

    mutating func enumerated(_ name: String) throws(AttributeError) -> String? {
        guard let value = take(name) else { return nil }
        switch value {
        case .enumerated(let text): return text
        case .decimal(let text): return text
        default: throw AttributeError(name: name, reason: "must be an unquoted enumerated string, found \(value.playlistText)")
        }
    }

    /// An enumerated YES/NO attribute as a Bool.
    mutating func yesNo(_ name: String) throws(AttributeError) -> Bool? {
        guard let text = try enumerated(name) else { return nil }
        switch text {
        case "YES": return true
        case "NO": return false
        default: throw AttributeError(name: name, reason: "must be YES or NO, found \(text)")
        }
    }

    mutating func decimalInteger(_ name: String) throws(AttributeError) -> Int? {
        guard let value = take(name) else { return nil }
        guard case .decimal(let text) = value, let number = Int(text), number >= 0, text.first != "+" else {
            throw AttributeError(name: name, reason: "must be a non-negative decimal integer, found \(value.playlistText)")
        }
        return number
    }

    mutating func requiredDecimalInteger(_ name: String) throws(AttributeError) -> Int {
        guard let number = try decimalInteger(name) else {
            throw AttributeError(name: name, reason: "is required", isMissing: true)
        }
        return number
    }

    /// A decimal-floating-point (non-negative) or signed-decimal-floating-point value, exactly.
    mutating func decimalTime(_ name: String, signed: Bool = false) throws(AttributeError) -> MediaTime? {
        guard let value = take(name) else { return nil }
        return try Self.decimalTime(name, value, signed: signed)
    }

    mutating func requiredDecimalTime(_ name: String, signed: Bool = false) throws(AttributeError) -> MediaTime {
        guard let time = try decimalTime(name, signed: signed) else {
            throw AttributeError(name: name, reason: "is required", isMissing: true)
        }
        return time
    }

    /// A decimal-floating-point value as written (for values such as FRAME-RATE or SCORE that are
    /// not times).
    mutating func decimalText(_ name: String) throws(AttributeError) -> String? {
        guard let value = take(name) else { return nil }
        guard case .decimal(let text) = value, MediaTime(decimal: text) != nil || Double(text) != nil else {
            throw AttributeError(name: name, reason: "must be a decimal number, found \(value.playlistText)")
        }
        return text
    }

    mutating func hexadecimal(_ name: String) throws(AttributeError) -> String? {
        guard let value = take(name) else { return nil }
        return try Self.hexadecimal(name, value)
    }

    mutating func date(_ name: String) throws(AttributeError) -> PlaylistDate? {
        guard let value = take(name) else { return nil }
        return try Self.date(name, value)
    }

    /// Splits `"A,B, C"` into `["A", "B", "C"]`, dropping empty items and surrounding spaces.
    static func splitList(_ text: String) -> [String] {
        if !text.utf8.contains(UInt8(ascii: ",")), !text.utf8.contains(UInt8(ascii: " ")) {
            return text.isEmpty ? [] : [text]
        }
        return text.utf8.split(separator: UInt8(ascii: ",")).compactMap { item in
            var slice = item[...]
            while slice.first == UInt8(ascii: " ") { slice = slice.dropFirst() }
            while slice.last == UInt8(ascii: " ") { slice = slice.dropLast() }
            return slice.isEmpty ? nil : String(slice)
        }
    }

    mutating func resolution(_ name: String) throws(AttributeError) -> Resolution? {
        guard let text = try enumerated(name) else { return nil }
        guard let resolution = Resolution(playlistText: text) else {
            throw AttributeError(name: name, reason: "must be WIDTHxHEIGHT, found \(text)")
        }
        return resolution
    }

    mutating func byteRange(_ name: String) throws(AttributeError) -> ByteRange? {
        guard let text = try quotedString(name) else { return nil }
        guard let range = ByteRange(playlistText: text) else {
            throw AttributeError(name: name, reason: "must be \"<length>[@<offset>]\", found \"\(text)\"")
        }
        return range
    }
}

/// Builds an attribute list in a fixed order for the canonical serializer.
struct AttributeWriter {
    private(set) var attributes: [Attribute] = []

    mutating func quoted(_ name: String, _ value: String?) {
        if let value { attributes.append(Attribute(name: name, value: .quotedString(value))) }
    }
    mutating func enumerated(_ name: String, _ value: String?) {
        if let value { attributes.append(Attribute(name: name, value: .enumerated(value))) }
    }
    mutating func yesNo(_ name: String, _ value: Bool?) {
        if let value { enumerated(name, value ? "YES" : "NO") }
    }
    mutating func integer(_ name: String, _ value: Int?) {
        if let value { attributes.append(Attribute(name: name, value: .decimal(String(value)))) }
    }
    mutating func time(_ name: String, _ value: MediaTime?) {
        if let value { attributes.append(Attribute(name: name, value: .decimal(value.decimalString()))) }
    }
    mutating func decimalText(_ name: String, _ value: String?) {
        if let value { attributes.append(Attribute(name: name, value: .decimal(value))) }
    }
    mutating func hexadecimal(_ name: String, _ value: String?) {
        if let value { attributes.append(Attribute(name: name, value: .hexadecimal(value))) }
    }
    mutating func date(_ name: String, _ value: PlaylistDate?) {
        quoted(name, value?.iso8601String)
    }
    mutating func list(_ name: String, _ values: [String]?) {
        quoted(name, values?.joined(separator: ","))
    }
    mutating func append(contentsOf other: [Attribute]) {
        attributes.append(contentsOf: other)
    }
}

/// A `WIDTHxHEIGHT` decimal-resolution (RFC 8216bis §4.2).
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
    /// Horizontal pixels.
    public var width: Int
    /// Vertical pixels.
    public var height: Int

    /// A resolution.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`.
    public init?(playlistText text: some StringProtocol) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}
