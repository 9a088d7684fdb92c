/// A D-Bus value as MPRIS uses them: what a property getter writes, with its signature.
public enum MPRISValue: Sendable, Hashable {
    /// `b`
    case boolean(Bool)
    /// `x`
    case int64(Int64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o`: a D-Bus object path.
    case objectPath(String)
    /// `as`
    case strings([String])
    /// `a{sv}`: a dictionary of variants, in order.
    case dictionary([MPRISMetadata.Entry])

    /// The D-Bus type signature.
    public var signature: String {
        switch self {
        case .boolean: return "b"
        case .int64: return "x"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .strings: return "as"
        case .dictionary: return "a{sv}"
        }
    }
}
