import GroupWire
import MediaTime

extension ParticipantStateUpdate: WireCodable {
    /// The most suspension reasons an update carries.
    public static let maximumSuspensionReasons = 64
    /// The most wait intervals an update carries.
    public static let maximumWaitIntervals = 256
    /// The most shared breaks an update names.
    public static let maximumSharedBreaks = 64

    /// `{"participant", "sequence", "itemIdentifier"?, "isReadyToPlay", "suspensionReasons",
    /// "waitIntervals", "contentDuration"?, "sharedBreakDurations"}`; absent optionals are `nil`,
    /// shared break durations are an object keyed by event identifier (written in key order).
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        self.init(
            participant: try fields.decode("participant"),
            sequence: try fields.counter("sequence"),
            itemIdentifier: try fields.optionalString("itemIdentifier", maximumBytes: WireBounds.maximumItemIdentifierBytes),
            isReadyToPlay: try fields.bool("isReadyToPlay"),
            suspensionReasons: try fields.array("suspensionReasons", maximumCount: Self.maximumSuspensionReasons),
            waitIntervals: try fields.array("waitIntervals", maximumCount: Self.maximumWaitIntervals),
            contentDuration: try fields.decodeIfPresent("contentDuration") { (value) throws(WireDecodingError) in
                try MediaTime.decode(wire: value, nonNegative: true)
            },
            sharedBreakDurations: try fields.decode("sharedBreakDurations") { (value) throws(WireDecodingError) in
                try Self.sharedBreakDurations(value)
            }
        )
    }

    private static func sharedBreakDurations(_ value: WireValue) throws(WireDecodingError) -> [String: MediaTime] {
        guard case .object(let object) = value else {
            throw WireDecodingError(path: [], kind: .wrongType(expected: .object, found: value.kind))
        }
        guard object.count <= maximumSharedBreaks else {
            throw WireDecodingError(path: [], kind: .outOfRange(bound: "at most \(maximumSharedBreaks) breaks"))
        }
        var durations: [String: MediaTime] = [:]
        for (key, duration) in object.fields {
            guard !key.isEmpty, key.utf8.count <= WireBounds.maximumIdentifierBytes else {
                throw WireDecodingError(path: [.key(key)], kind: .outOfRange(bound: "1…\(WireBounds.maximumIdentifierBytes) bytes"))
            }
            do { durations[key] = try MediaTime.decode(wire: duration, nonNegative: true) } catch { throw error.prefixed(by: .key(key)) }
        }
        return durations
    }

    public var wire: WireValue {
        var object: WireObject = ["participant": participant.wire, "sequence": .integer(Int64(clamping: sequence))]
        if let itemIdentifier { object["itemIdentifier"] = .string(itemIdentifier) }
        object["isReadyToPlay"] = .bool(isReadyToPlay)
        object["suspensionReasons"] = .array(suspensionReasons.map(\.wire))
        object["waitIntervals"] = .array(waitIntervals.map(\.wire))
        if let contentDuration { object["contentDuration"] = contentDuration.wire }
        var durations = WireObject()
        for key in sharedBreakDurations.keys.sorted() { durations[key] = sharedBreakDurations[key]?.wire }
        object["sharedBreakDurations"] = .object(durations)
        return .object(object)
    }
}

extension WaitInterval: WireCodable {
    /// `{"cause": "suspension", "reason", …}` or `{"cause": "not-ready", …}`, then `"start"` and
    /// the optional `"end"`, `"holdTime"`, `"waitLimit"` and `"expectedDuration"` (the last two not
    /// negative).
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        let cause: Cause
        switch try fields.string("cause") {
        case "suspension": cause = .suspension(try fields.decode("reason"))
        case "not-ready": cause = .notReady
        case let other: throw WireDecodingError(path: [.key("cause")], kind: .unknownValue(other))
        }
        self.init(
            cause: cause,
            start: try fields.duration("start"),
            end: try fields.optionalDuration("end"),
            holdTime: try fields.decodeIfPresent("holdTime") { (value) throws(WireDecodingError) in try MediaTime.decode(wire: value) },
            waitLimit: try fields.optionalDuration("waitLimit", nonNegative: true),
            expectedDuration: try fields.optionalDuration("expectedDuration", nonNegative: true)
        )
    }

    public var wire: WireValue {
        var object = WireObject()
        switch cause {
        case .suspension(let reason):
            object["cause"] = .string("suspension")
            object["reason"] = reason.wire
        case .notReady:
            object["cause"] = .string("not-ready")
        }
        object["start"] = start.wire
        if let end { object["end"] = end.wire }
        if let holdTime { object["holdTime"] = holdTime.wire }
        if let waitLimit { object["waitLimit"] = waitLimit.wire }
        if let expectedDuration { object["expectedDuration"] = expectedDuration.wire }
        return .object(object)
    }
}
