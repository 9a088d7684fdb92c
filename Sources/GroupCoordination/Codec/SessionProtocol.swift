import GroupWire

/// The group-session protocol's version (docs/group-protocol.md, "Versioning"): `hello` and
/// `welcome` carry it as `"protocol"`; a peer speaking another version is refused with
/// ``WireDecodingError/Kind/unsupportedProtocolVersion(_:)`` (the server closes with 1002).
public enum SessionProtocol {
    /// The version spoken here.
    public static let version: Int64 = 1

    /// Checks `"protocol"` before any other field, so that a later version's hello is told apart
    /// from a malformed one whatever else it holds.
    static func check(_ fields: WireFields) throws(WireDecodingError) {
        let version = try fields.integer("protocol")
        guard version == SessionProtocol.version else {
            throw WireDecodingError(path: [.key("protocol")], kind: .unsupportedProtocolVersion(version))
        }
    }
}
