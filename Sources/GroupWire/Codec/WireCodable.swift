/// A value with a hand-written wire form: what crosses the network between participants, and
/// between a participant and the session server (docs/group-protocol.md).
///
/// ``wire`` writes the value; ``init(wire:)`` reads one back and checks it against the protocol's
/// bounds (``WireBounds``), so that a decoded value never makes later arithmetic trap.
/// `init(wire: x.wire) == x` for every value within the bounds.
public protocol WireCodable: Sendable {
    /// Reads a value, checking its bounds.
    ///
    /// - Throws: ``WireDecodingError``, located by a path relative to `wire`.
    init(wire: WireValue) throws(WireDecodingError)

    /// The value's wire form; keys in a fixed order, so the bytes are the same every time.
    var wire: WireValue { get }
}

extension WireCodable {
    /// The compact JSON of ``wire``.
    public var jsonBytes: [UInt8] { wire.jsonBytes }

    /// Parses `bytes` (within `limits`) and decodes the value.
    ///
    /// - Throws: ``WireDecodingError``; a document that is not JSON is
    ///   ``WireDecodingError/Kind/malformedJSON(_:)``.
    public init(jsonBytes bytes: [UInt8], limits: WireJSONLimits = .standard) throws(WireDecodingError) {
        let value: WireValue
        do { value = try WireJSONParser(limits: limits).parse(bytes) } catch {
            throw WireDecodingError(path: [], kind: .malformedJSON(error))
        }
        try self.init(wire: value)
    }
}
