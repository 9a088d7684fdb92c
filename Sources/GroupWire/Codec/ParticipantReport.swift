/// What a participant tells the group server about itself every second, in a `custom` message of
/// the server's own type `interlude.report` (never relayed to the others): its clock round trip,
/// its skew against where the group expects it, and where it is and what it waits for, which the
/// server's web view shows (`docs/group-protocol.md`, "The web view").
///
///     {"skew":4000000,"roundTrip":2100000,"at":61200000000,"position":{"coordinated":59870000000,"rate":1},"group":"playing"}
///     {"roundTrip":2100000,"at":75000000000,"position":{"coordinated":60000000000,"rate":1,"break":"ad2","offset":3500000000},"group":"waiting","waitingFor":[{"participant":"p3","cause":"ad"}]}
///
/// Only `roundTrip` is required (the first version of the report had `skew` and `roundTrip`
/// only); a reader ignores fields it does not know.
public struct ParticipantReport: WireCodable, Hashable {
    /// Where the participant's player is.
    public struct Position: Sendable, Hashable {
        /// Its position on the group's coordinated timeline (the shared content, without anyone's
        /// local breaks); inside a break, where the break leaves the shared content.
        public var coordinated: Duration
        /// The player's rate (0 when paused or waiting).
        public var rate: Double
        /// The interstitial event it plays, if inside one.
        public var breakEvent: String?
        /// How far into that break (all of its assets).
        public var breakOffset: Duration?

        /// A position.
        public init(coordinated: Duration, rate: Double, breakEvent: String? = nil, breakOffset: Duration? = nil) {
            self.coordinated = coordinated
            self.rate = rate
            self.breakEvent = breakEvent
            self.breakOffset = breakOffset
        }
    }

    /// What the group does, as this participant's coordinator sees it.
    public enum GroupState: String, Sendable, Hashable, CaseIterable {
        case playing, paused, waiting
    }

    /// A participant the group waits for, and why: `ad` (it plays a break), `not-ready`, or
    /// another suspension reason.
    public struct Blocker: Sendable, Hashable {
        /// Its identifier.
        public var participant: String
        /// Why.
        public var cause: String

        /// A blocker.
        public init(participant: String, cause: String) {
            self.participant = participant
            self.cause = cause
        }
    }

    /// The player's primary time less the group's expected one (positive: ahead); absent inside
    /// a break.
    public var skew: Duration?
    /// The clock's shortest round trip to the server.
    public var roundTrip: Duration
    /// When it was measured, on the group clock.
    public var groupTime: Duration?
    /// Where the player is.
    public var position: Position?
    /// What the group does.
    public var group: GroupState?
    /// Whom the group waits for.
    public var waitingFor: [Blocker]

    /// The most blockers a report lists.
    public static let maximumBlockers = 64

    /// A report.
    public init(
        skew: Duration?, roundTrip: Duration, groupTime: Duration? = nil, position: Position? = nil, group: GroupState? = nil,
        waitingFor: [Blocker] = []
    ) {
        self.skew = skew
        self.roundTrip = roundTrip
        self.groupTime = groupTime
        self.position = position
        self.group = group
        self.waitingFor = waitingFor
    }

    /// Reads a report's body, with the protocol's bounds on every field.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        skew = try fields.optionalDuration("skew")
        roundTrip = try fields.duration("roundTrip", nonNegative: true)
        groupTime = try fields.optionalDuration("at")
        position = try fields.decodeIfPresent("position") { value throws(WireDecodingError) in
            let fields = try WireFields(value)
            return Position(
                coordinated: try fields.duration("coordinated"), rate: try fields.double("rate", magnitude: 64),
                breakEvent: try fields.optionalString("break"), breakOffset: try fields.optionalDuration("offset", nonNegative: true))
        }
        group = try fields.decodeIfPresent("group") { value throws(WireDecodingError) in
            let name = try WireFields.string(value, maximumBytes: 16)
            guard let state = GroupState(rawValue: name) else {
                throw WireDecodingError(path: [], kind: .outOfRange(bound: "playing, paused or waiting"))
            }
            return state
        }
        waitingFor =
            try fields.decodeIfPresent("waitingFor") { value throws(WireDecodingError) in
                try WireFields.array(value, maximumCount: Self.maximumBlockers) { element throws(WireDecodingError) in
                    let fields = try WireFields(element)
                    return Blocker(participant: try fields.string("participant"), cause: try fields.string("cause"))
                }
            } ?? []
    }

    /// The body, keys in a fixed order, optional ones left out when absent.
    public var wire: WireValue {
        var object = WireObject()
        if let skew { object["skew"] = skew.wire }
        object["roundTrip"] = roundTrip.wire
        if let groupTime { object["at"] = groupTime.wire }
        if let position {
            var fields: WireObject = ["coordinated": position.coordinated.wire, "rate": .double(position.rate)]
            if let event = position.breakEvent { fields["break"] = .string(event) }
            if let offset = position.breakOffset { fields["offset"] = offset.wire }
            object["position"] = .object(fields)
        }
        if let group { object["group"] = .string(group.rawValue) }
        if !waitingFor.isEmpty {
            object["waitingFor"] = .array(waitingFor.map { .object(["participant": .string($0.participant), "cause": .string($0.cause)]) })
        }
        return .object(object)
    }
}
