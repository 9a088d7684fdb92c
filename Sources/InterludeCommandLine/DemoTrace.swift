import GroupWire

/// One participant's `interlude join --trace` lines, read back as they are written: its position
/// samples and its events, each stamped with CLOCK_REALTIME (nanoseconds), the clock every process
/// of the demo shares.
///
/// Bytes arrive in pieces (the demo reads the file while `join` writes it): a line counts once
/// its newline has come, and a line that is not a trace line (a participant killed mid-write) is
/// counted in ``unreadableLines`` and skipped.
package struct DemoTrace: Sendable {
    /// A position sample (`join` takes ten a second).
    package struct Sample: Sendable, Equatable {
        /// CLOCK_REALTIME, nanoseconds.
        package var time: Int64
        /// The primary item time, seconds, when the player is not in a break.
        package var primary: Double?
        /// The break the player is in.
        package var breakID: String?
        /// How far into that break, seconds.
        package var breakOffset: Double?
        /// The player's time control status: `playing`, `paused`, `waiting (REASON)`.
        package var status: String
        package var rate: Double
        /// The group's state as this participant's coordinator sees it: `playing`, `paused`, `waiting`.
        package var group: String?
        /// Whom the group waits for (participant IDs).
        package var waitingFor: [String]

        /// Whether the player is in a break of its own (or holds primary while one plays).
        package var isInBreak: Bool { breakID != nil || status == "waiting (interstitialEvent)" }
    }

    /// An event line: `welcomed`, `resumed`, `presence`, `groupWait`, `playerCommand`, …
    package struct Event: Sendable, Equatable {
        /// CLOCK_REALTIME, nanoseconds.
        package var time: Int64
        package var name: String
        /// The event's string fields (`participant`, `state`, `role`, `command`, `originator`, …).
        package var fields: [String: String]
        /// A `groupWait`'s blockers (participant IDs; empty when the wait ended).
        package var waitingFor: [String]
    }

    package private(set) var samples: [Sample] = []
    package private(set) var events: [Event] = []
    /// Lines that were not trace lines.
    package private(set) var unreadableLines = 0
    /// The bytes of a line whose newline has not come yet.
    private var partialLine: [UInt8] = []

    /// The ID the server gave this participant (its first welcome).
    package var participantID: String? { events.first { $0.name == "welcomed" }?.fields["participant"] }
    /// Its role (`owner`, `controller`, `viewer`).
    package var role: String? { events.first { $0.name == "welcomed" }?.fields["role"] }
    /// When its coordinator first placed its player (it plays with the group from then on).
    package var coordinatedAt: Int64? { events.first { $0.name == "playerCommand" }?.time }

    package init() {}

    /// A trace of `text`, whole.
    package init(text: String) {
        append(Array(text.utf8))
    }

    /// Reads the complete lines in `bytes` (after what came before).
    package mutating func append(_ bytes: [UInt8]) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if partialLine.isEmpty {
                read(line: Array(bytes[start..<newline]))
            } else {
                partialLine += bytes[start..<newline]
                read(line: partialLine)
                partialLine = []
            }
            start = newline + 1
        }
        partialLine += bytes[start...]
    }

    private mutating func read(line: [UInt8]) {
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { return }
        guard let value = try? WireJSONParser().parse(line), case .object(let object) = value, case .integer(let time)? = object["t"] else {
            unreadableLines += 1
            return
        }
        if case .object(let sample)? = object["sample"] {
            samples.append(Sample(
                time: time, primary: Self.number(sample["primary"]), breakID: Self.string(sample["break"]),
                breakOffset: Self.number(sample["offset"]), status: Self.string(sample["status"]) ?? "",
                rate: Self.number(sample["rate"]) ?? 0, group: Self.string(sample["group"]), waitingFor: Self.strings(sample["waitingFor"])))
        } else if let name = Self.string(object["event"]) {
            var fields: [String: String] = [:]
            for (key, value) in object.fields where key != "event" {
                if case .string(let text) = value { fields[key] = text }
            }
            events.append(Event(time: time, name: name, fields: fields, waitingFor: Self.strings(object["waitingFor"])))
        } else {
            unreadableLines += 1
        }
    }

    private static func number(_ value: WireValue?) -> Double? {
        switch value {
        case .double(let number)?: number
        case .integer(let number)?: Double(number)
        default: nil
        }
    }

    private static func string(_ value: WireValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private static func strings(_ value: WireValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { string($0) }
    }
}
