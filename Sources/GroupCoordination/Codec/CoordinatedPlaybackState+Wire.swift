import GroupWire
import MediaTime

extension CoordinatedPlaybackState: WireCodable {
    /// `{"itemIdentifier", "rate", "anchorTime", "anchorGroupTime", "timestamp", "playsImmediately"}`;
    /// the rate is finite within ±64, `playsImmediately` is `false` when absent.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        self.init(
            itemIdentifier: try fields.string("itemIdentifier", maximumBytes: WireBounds.maximumItemIdentifierBytes),
            rate: try fields.double("rate", magnitude: WireBounds.maximumRate),
            anchorTime: try fields.decode("anchorTime") { (value) throws(WireDecodingError) in try MediaTime.decode(wire: value) },
            anchorGroupTime: try fields.duration("anchorGroupTime"),
            timestamp: try fields.decode("timestamp"),
            playsImmediately: try fields.flag("playsImmediately")
        )
    }

    public var wire: WireValue {
        .object([
            "itemIdentifier": .string(itemIdentifier),
            "rate": .double(rate),
            "anchorTime": anchorTime.wire,
            "anchorGroupTime": anchorGroupTime.wire,
            "timestamp": timestamp.wire,
            "playsImmediately": .bool(playsImmediately),
        ])
    }
}

extension CoordinationTimestamp: WireCodable {
    /// `{"counter": 0…2⁵³ − 1, "participant", "issuedAt": ns}`.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        self.init(
            counter: try fields.counter("counter"),
            participant: try fields.decode("participant"),
            issuedAt: try fields.duration("issuedAt")
        )
    }

    public var wire: WireValue {
        .object(["counter": .integer(Int64(clamping: counter)), "participant": participant.wire, "issuedAt": issuedAt.wire])
    }
}
