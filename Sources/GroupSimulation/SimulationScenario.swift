import Foundation
import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime

/// What `interlude simulate` runs: participants with their streams and ads, their clocks and
/// network, the waiting policy, and user actions at given times. Read from JSON; durations are
/// written as numbers of seconds or as text such as `"250ms"`, `"1m30s"`, `"2h"`.
///
///     {
///       "name": "vod-group-waits",
///       "duration": "6m",
///       "policy": { "waitFor": ["playingInterstitial"] },
///       "network": { "latency": "50ms", "jitter": "20ms", "loss": 0.01 },
///       "participants": [
///         { "name": "alice", "viewer": "alice", "stream": "movie-stitched", "kind": "vod" },
///         { "name": "bob", "viewer": "bob", "stream": "movie-stitched", "kind": "vod", "clock": { "offset": "80ms", "driftPPM": 100 } }
///       ],
///       "actions": [ { "at": "10s", "participant": "alice", "action": "play" } ]
///     }
public struct SimulationScenario: Sendable, Hashable, Codable {
    /// The scenario's name.
    public var name: String
    /// What it shows, in a sentence or two.
    public var description: String?
    /// How long to simulate (true time).
    public var duration: SimulatedDuration
    /// An origin configuration file (JSON, as `interlude origin --config` reads), relative to the
    /// scenario's folder; `nil` = the default configuration (alice premium, bob 15 s of ads,
    /// charlie 10 + 20 s, dana a legal warning in DE). The story's films and ads are told there:
    /// a VOD's `durationSeconds` may be any whole number of keyframe intervals (1 s in the bundled
    /// media; its last segment is then shorter), and an ad of any such length is cut from longer
    /// media with `{ "id": "spot-7s", "media": "ads/ad-10s", "durationSeconds": 7 }`, named in
    /// viewers' and breaks' pods like any other (`Examples/Scenarios/short-film-origin.json`).
    public var origin: String?
    /// The seed of every random draw (network jitter and loss).
    public var seed: UInt64?
    /// Which suspensions make the group wait, and for how many participants at most.
    public var policy: Policy?
    /// The network between participants (and to the group's clock), unless a participant says
    /// otherwise.
    public var network: Network?
    /// The participants.
    public var participants: [Participant]
    /// What users do, and when.
    public var actions: [Action]?
    /// How often positions are sampled for the skew statistics (default 100 ms).
    public var sampleInterval: SimulatedDuration?
    /// How often each participant reports its position to its coordinator for drift correction
    /// (default 1 s).
    public var observeInterval: SimulatedDuration?
    /// How often each participant's clock is probed once synchronised (default 5 s).
    public var clockRefreshInterval: SimulatedDuration?

    /// The waiting policy.
    public struct Policy: Sendable, Hashable, Codable {
        /// Suspension reasons that make the group wait (Apple's default: only
        /// `userIsChangingCurrentTime`). `playingInterstitial` makes everyone wait for ads.
        public var waitFor: [String]?
        /// Participant limits by reason: above this group size, the group stops waiting for it.
        public var participantLimits: [String: Int]?
        /// Whether a pause snaps everyone to the originator's time (default true).
        public var pauseSnapsToOriginator: Bool?
    }

    /// Network conditions.
    public struct Network: Sendable, Hashable, Codable {
        /// One-way latency.
        public var latency: SimulatedDuration?
        /// Jitter added to each frame, uniformly within ± this.
        public var jitter: SimulatedDuration?
        /// The probability a frame is lost (the reliable layer retransmits).
        public var loss: Double?
        /// The probability a frame is held back and overtaken.
        public var reorder: Double?
        /// Partitions: a participant cut off from everyone between two times.
        public var partitions: [PartitionSpec]?

        /// A participant cut off between two times.
        public struct PartitionSpec: Sendable, Hashable, Codable {
            /// Who is cut off.
            public var participant: String
            /// From when.
            public var from: SimulatedDuration
            /// Until when.
            public var until: SimulatedDuration
        }

        var conditions: LinkConditions {
            LinkConditions(latency: latency?.duration ?? .milliseconds(20), jitter: jitter?.duration ?? .zero,
                           lossProbability: loss ?? 0, reorderProbability: reorder ?? 0)
        }
    }

    /// One participant.
    public struct Participant: Sendable, Hashable, Codable {
        /// Its name in reports and actions.
        public var name: String
        /// The origin's viewer it watches as (whose ads it gets): `alice` (premium), `bob`,
        /// `charlie`, `dana` in the default configuration.
        public var viewer: String?
        /// The origin's stream: `movie`, `movie-stitched`, `channel`, `channel-stitched`.
        public var stream: String?
        /// `vod` or `live`.
        public var kind: String?
        /// Its clock's offset and drift.
        public var clock: Clock?
        /// When it joins (default: at the start).
        public var joinAt: SimulatedDuration?
        /// Its own network conditions (to and from everyone).
        public var network: Network?

        /// A clock's offset from true time and drift in parts per million.
        public struct Clock: Sendable, Hashable, Codable {
            /// The offset.
            public var offset: SimulatedDuration?
            /// The drift (positive: fast).
            public var driftPPM: Double?
        }
    }

    /// A user's action.
    public struct Action: Sendable, Hashable, Codable {
        /// When (true time).
        public var at: SimulatedDuration
        /// Who.
        public var participant: String
        /// `play`, `pause`, `seek` (with one target: `to`, `timeline`, or `break` and `offset`),
        /// `rate` (with `rate`), `leave`, `rejoin`.
        public var action: String
        /// A seek's target in seconds of the participant's item time (primary content: a time
        /// inside a break restarts it).
        public var to: Double?
        /// A seek's target in seconds of the participant's integrated timeline (S2.5): a time
        /// inside a fill break plays that break from there.
        public var timeline: Double?
        /// A seek into this break (its interstitial event's ID), at ``offset``.
        public var breakID: String?
        /// How far into ``breakID`` a seek lands, in seconds (default 0).
        public var offset: Double?
        /// The rate.
        public var rate: Double?

        enum CodingKeys: String, CodingKey {
            case at, participant, action, to, timeline, breakID = "break", offset, rate
        }
    }

    /// Reads a scenario, with a located message on errors.
    public init(json: [UInt8]) throws(SimulationError) {
        do {
            self = try JSONDecoder().decode(SimulationScenario.self, from: Data(json))
            if let problem = Self.unknownKey(in: json, decoded: self) { throw SimulationError(message: problem) }
        } catch let error as SimulationError {
            throw error
        } catch let error as DecodingError {
            throw SimulationError(message: Self.describe(error))
        } catch {
            throw SimulationError(message: "\(error)")
        }
        try validate()
        try validateValues()
    }

    private func validate() throws(SimulationError) {
        guard !participants.isEmpty else { throw SimulationError(message: "participants: at least one is needed") }
        var names = Set<String>()
        for (index, participant) in participants.enumerated() {
            guard names.insert(participant.name).inserted else {
                throw SimulationError(message: "participants[\(index)].name: \"\(participant.name)\" is used twice")
            }
            if let kind = participant.kind, kind != "vod", kind != "live" {
                throw SimulationError(message: "participants[\(index)].kind: \"\(kind)\" is neither \"vod\" nor \"live\"")
            }
        }
        for (index, action) in (actions ?? []).enumerated() {
            guard names.contains(action.participant) else {
                throw SimulationError(message: "actions[\(index)].participant: no participant is called \"\(action.participant)\"")
            }
            guard ["play", "pause", "seek", "rate", "leave", "rejoin"].contains(action.action) else {
                throw SimulationError(message: "actions[\(index)].action: \"\(action.action)\" is not one of play, pause, seek, rate, leave, rejoin")
            }
            if action.action == "seek" { try Self.validateSeek(action, at: "actions[\(index)]") }
            if action.action == "rate", action.rate == nil { throw SimulationError(message: "actions[\(index)].rate: a rate change needs a rate") }
        }
    }

    /// A seek has one target; times are finite seconds, not negative (an item or timeline time) and
    /// at most a year.
    private static func validateSeek(_ action: Action, at path: String) throws(SimulationError) {
        let targets = [action.to != nil, action.timeline != nil, action.breakID != nil].filter { $0 }.count
        if action.offset != nil, action.breakID == nil { throw SimulationError(message: "\(path).offset: an offset is into a break: give break too") }
        if targets == 0 { throw SimulationError(message: "\(path).to: a seek needs a target") }
        if targets > 1 { throw SimulationError(message: "\(path): a seek has one target: to, timeline, or break (with offset)") }
        if let id = action.breakID, id.isEmpty { throw SimulationError(message: "\(path).break: the break's event ID is empty") }
        for (key, value) in [("to", action.to), ("timeline", action.timeline), ("offset", action.offset)] {
            guard let value else { continue }
            guard value.isFinite, value >= 0, value <= 31_536_000 else {
                throw SimulationError(message: "\(path).\(key): \(value) is not a time (seconds, 0 to 31536000)")
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "(top level)" : text)
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context)
            return "\(at == "(top level)" ? "" : at + ".")\(key.stringValue): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A duration in a scenario: a number of seconds, or text such as `"250ms"`, `"1m30s"`, `"2h"`.
public struct SimulatedDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The duration.
    public var duration: Duration

    /// A duration.
    public init(_ duration: Duration) { self.duration = duration }

    /// The longest duration a scenario may write, in seconds (about 31 years): a number beyond it,
    /// or one that is not finite, is rejected rather than converted with an overflow.
    public static let maximumSeconds: Double = 1e9

    /// `value` milliseconds, rounded; `nil` when not finite or beyond ``maximumSeconds``.
    static func milliseconds(_ value: Double) -> Duration? {
        guard value.isFinite, abs(value) <= maximumSeconds * 1000 else { return nil }
        return .milliseconds(Int64(value.rounded()))
    }

    /// Parses `"1h2m3.5s"`, `"250ms"`, `"90"`.
    public init?(text: String) {
        var total: Duration = .zero
        var number = ""
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let isNegative = rest.hasPrefix("-")
        if isNegative { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        if let seconds = Double(rest) {
            guard let duration = Self.milliseconds(seconds * 1000) else { return nil }
            self.init(isNegative ? .zero - duration : duration)
            return
        }
        while !rest.isEmpty {
            number = String(rest.prefix { $0.isNumber || $0 == "." })
            rest = rest.dropFirst(number.count)
            let unit = String(rest.prefix { $0.isLetter })
            rest = rest.dropFirst(unit.count)
            guard let value = Double(number) else { return nil }
            let milliseconds: Double
            switch unit {
            case "ms": milliseconds = value
            case "s": milliseconds = value * 1000
            case "m", "min": milliseconds = value * 60_000
            case "h": milliseconds = value * 3_600_000
            default: return nil
            }
            guard let part = Self.milliseconds(milliseconds) else { return nil }
            total += part
        }
        self.init(isNegative ? .zero - total : total)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            guard let duration = Self.milliseconds(seconds * 1000) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(seconds) is not a duration a scenario can hold (a finite number of seconds, at most \(Self.maximumSeconds))")
            }
            self.init(duration)
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = SimulatedDuration(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a duration (write 250ms, 30s, 1m30s, 2h or a number of seconds)")
        }
        self = parsed
    }


    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `1m30s`, `250ms`.
    public var description: String {
        let (seconds, attoseconds) = duration.components
        let signed = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if signed < 0 { return "-" + SimulatedDuration(.milliseconds(-signed)).description }
        let milliseconds = signed
        if milliseconds % 1000 != 0 { return "\(milliseconds)ms" }
        var rest = milliseconds / 1000
        var text = ""
        if rest >= 3600 { text += "\(rest / 3600)h"; rest %= 3600 }
        if rest >= 60 { text += "\(rest / 60)m"; rest %= 60 }
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }
}

/// A scenario that cannot run, and why (with the JSON path).
public struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// An error.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
