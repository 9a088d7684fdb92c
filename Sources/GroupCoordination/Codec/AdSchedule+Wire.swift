import GroupWire
import MediaTime

extension AdSchedule: WireCodable {
    /// The most breaks a schedule lists.
    public static let maximumEntries = 256

    /// `{"participant", "itemIdentifier", "entries": [{"coordinatedTime", "duration", "source":
    /// "stitched"}, {…, "source": "interstitial", "eventIdentifier"}]}`; durations not negative.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        self.init(
            participant: try fields.decode("participant"),
            itemIdentifier: try fields.string("itemIdentifier", maximumBytes: WireBounds.maximumItemIdentifierBytes),
            entries: try fields.array("entries", maximumCount: Self.maximumEntries)
        )
    }

    public var wire: WireValue {
        .object(["participant": participant.wire, "itemIdentifier": .string(itemIdentifier), "entries": .array(entries.map(\.wire))])
    }
}

extension AdSchedule.Entry: WireCodable {
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        let source: Source
        switch try fields.string("source") {
        case "stitched": source = .stitched
        case "interstitial": source = .interstitial(eventIdentifier: try fields.string("eventIdentifier"))
        case let other: throw WireDecodingError(path: [.key("source")], kind: .unknownValue(other))
        }
        self.init(
            coordinatedTime: try fields.decode("coordinatedTime") { (value) throws(WireDecodingError) in try MediaTime.decode(wire: value) },
            duration: try fields.decode("duration") { (value) throws(WireDecodingError) in try MediaTime.decode(wire: value, nonNegative: true) },
            source: source
        )
    }

    public var wire: WireValue {
        var object: WireObject = ["coordinatedTime": coordinatedTime.wire, "duration": duration.wire]
        switch source {
        case .stitched:
            object["source"] = .string("stitched")
        case .interstitial(let eventIdentifier):
            object["source"] = .string("interstitial")
            object["eventIdentifier"] = .string(eventIdentifier)
        }
        return .object(object)
    }
}
