/// HTTP header fields in the order they were added. Names compare case-insensitively
/// (RFC 9110 §5.1); repeated names are kept as separate fields.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name as it was given.
        public var name: String
        /// The field value.
        public var value: String

        /// A field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// No fields.
    public init() { fields = [] }

    /// The given fields, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// Fields from a literal such as `["Content-Type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The value of the first field named `name`, or `nil`. Setting replaces every field of
    /// that name (setting `nil` removes them). O(n).
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            guard let newValue else {
                fields.removeAll { Self.namesMatch($0.name, name) }
                return
            }
            guard let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) else {
                fields.append(Field(name: name, value: newValue))
                return
            }
            fields[index].value = newValue
            let later = fields.index(after: index)
            fields[later...].removeAll { Self.namesMatch($0.name, name) }
        }
    }

    /// Every value of the fields named `name`, in order. O(n).
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present. O(n).
    public func contains(_ name: String) -> Bool { fields.contains { Self.namesMatch($0.name, name) } }

    /// Appends a field, keeping any with the same name.
    public mutating func add(name: String, value: String) { fields.append(Field(name: name, value: value)) }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// One `Name: value` line per field.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// ASCII case-insensitive comparison of field names, without allocating.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (a?, b?):
                if a == b { continue }
                if a | 0x20 != b | 0x20 || !((0x61...0x7A).contains(a | 0x20)) { return false }
            default: return false
            }
        }
    }
}
