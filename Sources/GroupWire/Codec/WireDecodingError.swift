/// Why a wire value could not be decoded, and where: a path from the message's root
/// (`$.message.anchorTime.timescale`).
public struct WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where, from the root of what was decoded.
    public var path: [PathComponent]
    /// What went wrong.
    public var kind: Kind

    /// An error at `path`.
    public init(path: [PathComponent], kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// One step of a path.
    public enum PathComponent: Sendable, Hashable {
        /// An object's field.
        case key(String)
        /// An array's element.
        case index(Int)
    }

    /// What the decoder refused.
    public enum Kind: Sendable, Hashable {
        /// The bytes are not JSON within the parser's limits.
        case malformedJSON(WireJSONError)
        /// A required field is absent (or `null`).
        case missingField
        /// The field holds another kind of value.
        case wrongType(expected: WireValue.Kind, found: WireValue.Kind)
        /// A number, string or array outside its bound; `bound` says which, for people.
        case outOfRange(bound: String)
        /// A string that is not one of the names this field takes (a role, a state, a cause).
        case unknownValue(String)
        /// A message `type` this version does not know.
        case unknownType(String)
        /// A `hello` or `welcome` with a protocol version other than the one spoken here.
        case unsupportedProtocolVersion(Int64)
    }

    /// The same error, one step further from the root.
    public func prefixed(by component: PathComponent) -> WireDecodingError {
        WireDecodingError(path: [component] + path, kind: kind)
    }

    /// `$.message.rate`, `$.entries[2]`.
    public var pathDescription: String {
        var text = "$"
        for component in path {
            switch component {
            case .key(let key): text += "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// A sentence for logs and for the `message` of an `error` reply.
    public var description: String {
        switch kind {
        case .malformedJSON(let error): return "malformed JSON: \(error)"
        case .missingField: return "\(pathDescription): missing"
        case .wrongType(let expected, let found): return "\(pathDescription): expected \(expected), found \(found)"
        case .outOfRange(let bound): return "\(pathDescription): out of range (\(bound))"
        case .unknownValue(let value): return "\(pathDescription): unknown value \"\(value)\""
        case .unknownType(let type): return "\(pathDescription): unknown type \"\(type)\""
        case .unsupportedProtocolVersion(let version): return "\(pathDescription): protocol \(version) is not spoken here (1 is)"
        }
    }
}
