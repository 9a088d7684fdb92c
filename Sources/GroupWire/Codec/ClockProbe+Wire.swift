extension ClockProbe {
    /// `{"id": 7, "sent": 1500000000}`: the probe's identifier (`0…2⁵³ − 1`) and t0 in nanoseconds.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        id = try fields.counter("id")
        clientSendTime = try fields.duration("sent")
    }

    public var wire: WireValue {
        .object(["id": .integer(Int64(clamping: id)), "sent": clientSendTime.wire])
    }
}

extension ClockProbeReply {
    /// `{"id": 7, "sent": …, "received": …, "replied": …}`: the probe's identifier and t0 echoed,
    /// then t1 and t2 on the group clock, all in nanoseconds.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        id = try fields.counter("id")
        clientSendTime = try fields.duration("sent")
        serverReceiveTime = try fields.duration("received")
        serverSendTime = try fields.duration("replied")
    }

    public var wire: WireValue {
        .object([
            "id": .integer(Int64(clamping: id)),
            "sent": clientSendTime.wire,
            "received": serverReceiveTime.wire,
            "replied": serverSendTime.wire,
        ])
    }
}
