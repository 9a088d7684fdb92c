/// A JSON value as the group wire carries it: objects keep their keys in order (so that an encoder
/// writes the same bytes every time), and numbers are either exact 64-bit integers or doubles.
///
/// Not `JSONValue` of HLSInterstitials, which keeps numbers as text and objects as dictionaries
/// and is decoded through Foundation's `JSONDecoder`: the wire needs a fixed key order for golden
/// bytes, integers told apart from doubles and refused when they do not fit, and a parser with
/// limits and byte offsets (``WireJSONParser``). GroupWire sits below HLSInterstitials, so that
/// type could not be used here without moving it, and its callers want what it does.
public enum WireValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number written without a fraction or an exponent.
    case integer(Int64)
    /// A number with a fraction or an exponent; always finite.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([WireValue])
    /// An object, keys in order.
    case object(WireObject)

    /// What kind of value this is, for errors.
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .integer: .integer
        case .double: .double
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The kinds of JSON value, as a decoder expects them.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        case null, bool, integer, double, string, array, object
        /// An integer or a double.
        case number

        /// `an integer`, `an object`, …
        public var description: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .integer: "an integer"
            case .double, .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }
}

/// A JSON object whose keys keep the order they were written or parsed in. Keys are unique: the
/// parser refuses a repeated key, and ``subscript(_:)`` replaces a value in place.
///
/// Equal when they hold the same fields, in any order, as JSON objects are (RFC 8259 §4); the order
/// only decides how they are written. Lookup is linear: wire objects have a handful of keys.
public struct WireObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    /// The values, in the order of ``keys``.
    public private(set) var values: [WireValue] = []

    /// An empty object.
    public init() {}

    /// An object with these fields, in this order; a repeated key keeps its last value, in the place
    /// of its first.
    public init(dictionaryLiteral elements: (String, WireValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The number of fields.
    public var count: Int { keys.count }

    /// The value for `key`; setting `nil` removes the field, setting a new key appends it.
    public subscript(key: String) -> WireValue? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a field the caller knows is new (the parser, which has checked).
    mutating func appendNew(_ key: String, _ value: WireValue) {
        keys.append(key)
        values.append(value)
    }

    /// The fields in order.
    public var fields: Zip2Sequence<[String], [WireValue]> { zip(keys, values) }

    public static func == (lhs: WireObject, rhs: WireObject) -> Bool {
        lhs.count == rhs.count && lhs.fields.allSatisfy { key, value in rhs[key] == value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in keys.indices.sorted(by: { keys[$0] < keys[$1] }) {
            hasher.combine(keys[index])
            hasher.combine(values[index])
        }
    }
}

extension WireValue {
    /// An object with `"type": type` first and then the fields of `fields` (an object; anything
    /// else adds nothing): the form of every message that names its kind.
    public static func typed(_ type: String, _ fields: WireValue = .object([:])) -> WireValue {
        var object: WireObject = ["type": .string(type)]
        if case .object(let body) = fields {
            for (key, value) in body.fields where key != "type" { object[key] = value }
        }
        return .object(object)
    }
}

extension WireFields {
    /// The `"type"` of a message.
    public func type() throws(WireDecodingError) -> String {
        try string("type")
    }
}
