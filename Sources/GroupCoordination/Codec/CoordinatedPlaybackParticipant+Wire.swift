import GroupWire

extension CoordinatedPlaybackParticipant.ID: WireCodable {
    /// A string of 1…256 UTF-8 bytes.
    public init(wire: WireValue) throws(WireDecodingError) {
        self.init(rawValue: try WireFields.string(wire, maximumBytes: WireBounds.maximumIdentifierBytes))
    }

    public var wire: WireValue { .string(rawValue) }
}

extension CoordinatedPlaybackSuspension.Reason: WireCodable {
    /// A string of 1…256 UTF-8 bytes (Apple's reasons by their Swift names, or a custom one).
    public init(wire: WireValue) throws(WireDecodingError) {
        self.init(rawValue: try WireFields.string(wire, maximumBytes: WireBounds.maximumIdentifierBytes))
    }

    public var wire: WireValue { .string(rawValue) }
}
