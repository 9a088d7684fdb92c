import Foundation
import MediaTime
import PlayerInterface

/// Skew samples: how far apart (in milliseconds of coordinated time) the participants that play
/// steadily are, in steady playback and one second after each start, resume or seek.
public struct SkewStatistics: Sendable, Hashable {
    /// A start, resume or seek of the group, and the skew a second later.
    public struct Transition: Sendable, Hashable {
        /// The group time the group (re)started at.
        public var anchor: Duration
        /// The skew a second later, in milliseconds (nil if fewer than two were playing).
        public var skew: Double?

        public init(anchor: Duration, skew: Double?) {
            self.anchor = anchor
            self.skew = skew
        }
    }

    /// Skews in steady playback, in milliseconds.
    public var steady: [Double] = []
    /// The group's transitions.
    public var transitions: [Transition] = []

    public init(steady: [Double] = [], transitions: [Transition] = []) {
        self.steady = steady
        self.transitions = transitions
    }

    /// Percentiles of samples.
    public struct Percentiles: Sendable, Hashable, Codable {
        /// How many samples.
        public var count: Int
        /// The median.
        public var p50: Double
        /// The 95th percentile.
        public var p95: Double
        /// The 99th percentile.
        public var p99: Double
        /// The largest.
        public var max: Double

        /// Percentiles of `values` (nearest rank); zeros when empty.
        public init(_ values: [Double]) {
            let sorted = values.sorted()
            count = sorted.count
            func rank(_ fraction: Double) -> Double {
                guard !sorted.isEmpty else { return 0 }
                let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
                return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
            }
            p50 = rank(0.5)
            p95 = rank(0.95)
            p99 = rank(0.99)
            max = sorted.last ?? 0
        }
    }

    /// Percentiles in steady playback.
    public var steadyPercentiles: Percentiles { Percentiles(steady) }
    /// Percentiles a second after starts, resumes and seeks.
    public var transitionPercentiles: Percentiles { Percentiles(transitions.compactMap(\.skew)) }
}

/// What a simulation found: per participant, the time waited, in breaks, the primary content
/// skipped and the corrections made; for the group, the skew.
public struct SimulationReport: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// Its description.
    public var description: String?
    /// How long was simulated.
    public var duration: Duration
    /// Per participant.
    public var participants: [ParticipantReport]
    /// The group's skew.
    public var skew: SkewStatistics
    /// Notable moments: user actions, the group waiting and for whom, mismatches.
    public var notes: [Note]

    /// A report of figures measured elsewhere (`interlude demo` makes one from real participants'
    /// traces), so that they print and draw as a simulation's do.
    public init(scenario: String, description: String?, duration: Duration, participants: [ParticipantReport], skew: SkewStatistics, notes: [Note]) {
        self.scenario = scenario
        self.description = description
        self.duration = duration
        self.participants = participants
        self.skew = skew
        self.notes = notes
    }

    /// One participant's experience.
    public struct ParticipantReport: Sendable {
        /// Its name.
        public var name: String
        /// What it played.
        public var url: String
        /// Time spent waiting for the group (waiting for coordinated playback).
        public var waited: Duration
        /// Time spent in its own breaks (stitched or interstitial).
        public var inBreaks: Duration
        /// Primary content it skipped to catch up with the group, in seconds.
        public var skipped: Double
        /// Primary content it went back over to rejoin the group, in seconds.
        public var rewound: Double
        /// Drift corrections (rate adjustments and re-anchoring seeks).
        public var corrections: Int
        /// Stalls.
        public var stalls: Int
        /// Its coordinated position at the end, in seconds.
        public var finalPosition: Double?
        /// Each wait for the group (at a break, a start, a seek), in order, to the sample interval.
        /// A wait for someone's ad lasts the ad plus the coordinator's command lead time (300 ms
        /// by default): the resume is scheduled that far ahead on the group clock so that it
        /// reaches every participant over the network before it takes effect, and everyone starts
        /// on the same instant instead of each one late by its own latency.
        public var waits: [Wait] = []
        /// Its coordinated position over time, for drawings.
        public var series: [Point]

        public init(name: String, url: String, waited: Duration, inBreaks: Duration, skipped: Double, rewound: Double, corrections: Int,
                    stalls: Int, finalPosition: Double?, waits: [Wait] = [], series: [Point]) {
            self.name = name
            self.url = url
            self.waited = waited
            self.inBreaks = inBreaks
            self.skipped = skipped
            self.rewound = rewound
            self.corrections = corrections
            self.stalls = stalls
            self.finalPosition = finalPosition
            self.waits = waits
            self.series = series
        }

        /// One wait for the group.
        public struct Wait: Sendable {
            /// When it began (true time).
            public var start: Duration
            /// How long it lasted.
            public var length: Duration
            /// How long the waiter was told was left when the wait began, in seconds: from the ads
            /// the others reported playing (what is left of them), or before any report from their
            /// shared ad schedules; nil when they tell nothing, as for a wait at a seek.
            public var told: Double?

            public init(start: Duration, length: Duration, told: Double?) {
                self.start = start
                self.length = length
                self.told = told
            }
        }

        /// A sample of the position.
        public struct Point: Sendable {
            /// True time.
            public var time: Duration
            /// Coordinated position, seconds.
            public var coordinated: Double
            /// `playing`, `waiting`, `inBreak` or `paused`.
            public var state: String

            public init(time: Duration, coordinated: Double, state: String) {
                self.time = time
                self.coordinated = coordinated
                self.state = state
            }
        }
    }

    /// A notable moment.
    public struct Note: Sendable {
        /// True time.
        public var time: Duration
        /// Who, if one participant.
        public var participant: String?
        /// What.
        public var text: String

        public init(time: Duration, participant: String?, text: String) {
            self.time = time
            self.participant = participant
            self.text = text
        }
    }
}

extension SimulationReport {
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// A simulated time: `1:05` on a whole second, else `1:05.250`.
    static func clock(_ duration: Duration) -> String {
        TimeFormat.elapsed(MediaTime(duration), fractionDigits: 3, omittingZeroFraction: true)
    }

    /// The report as text for a terminal.
    public var text: String {
        var lines: [String] = []
        lines.append("Scenario \(scenario): \(Self.clock(duration)) simulated, \(participants.count) participant\(participants.count == 1 ? "" : "s")")
        if let description { lines.append("  \(description)") }
        lines.append("")
        let nameWidth = max(11, participants.map(\.name.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        func left(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        lines.append(pad("participant", nameWidth) + "  " + left("waited", 9) + left("in breaks", 11) + left("skipped", 9) + left("rewound", 9) + left("corrections", 13) + left("stalls", 8) + left("position", 10))
        for participant in participants {
            lines.append(pad(participant.name, nameWidth) + "  "
                + left(String(format: "%.1f s", Self.seconds(participant.waited)), 9)
                + left(String(format: "%.1f s", Self.seconds(participant.inBreaks)), 11)
                + left(String(format: "%.1f s", participant.skipped), 9)
                + left(String(format: "%.1f s", participant.rewound), 9)
                + left("\(participant.corrections)", 13)
                + left("\(participant.stalls)", 8)
                + left(participant.finalPosition.map { String(format: "%.1f s", $0) } ?? "-", 10))
        }
        let waitLines = participants.compactMap { participant -> String? in
            let waits = participant.waits.filter { $0.length >= .seconds(1) }
            guard !waits.isEmpty else { return nil }
            let list = waits.map { wait in
                String(format: "%.1f s at ", Self.seconds(wait.length)) + Self.clock(wait.start) + (wait.told.map { String(format: " (told %.1f s)", $0) } ?? "")
            }
            return "  " + pad(participant.name, nameWidth) + "  " + list.joined(separator: ", ")
        }
        if !waitLines.isEmpty {
            lines.append("")
            lines.append("waits of a second or more:")
            lines.append(contentsOf: waitLines)
        }
        lines.append("")
        let steady = skew.steadyPercentiles
        let transitions = skew.transitionPercentiles
        lines.append("skew (ms)                     p50      p95      p99      max  samples")
        func row(_ label: String, _ values: SkewStatistics.Percentiles) -> String {
            pad(label, 26) + left(String(format: "%.1f", values.p50), 9) + left(String(format: "%.1f", values.p95), 9)
                + left(String(format: "%.1f", values.p99), 9) + left(String(format: "%.1f", values.max), 9) + left("\(values.count)", 9)
        }
        lines.append(row("steady playback", steady))
        lines.append(row("1 s after start/resume/seek", transitions))
        if !notes.isEmpty {
            lines.append("")
            lines.append("what happened:")
            for note in notes.prefix(200) {
                lines.append("  " + left(Self.clock(note.time), 9) + "  " + (note.participant.map { "\($0): " } ?? "") + note.text)
            }
            if notes.count > 200 { lines.append("  … \(notes.count - 200) more") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON (without the position series).
    public var json: String {
        func number(_ value: Double) -> String { value.isFinite ? String(format: "%.3f", value) : "null" }
        func string(_ text: String) -> String {
            let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        }
        func percentiles(_ values: SkewStatistics.Percentiles) -> String {
            "{\"count\":\(values.count),\"p50\":\(number(values.p50)),\"p95\":\(number(values.p95)),\"p99\":\(number(values.p99)),\"max\":\(number(values.max))}"
        }
        var fields: [String] = []
        fields.append("\"scenario\":\(string(scenario))")
        fields.append("\"durationSeconds\":\(number(Self.seconds(duration)))")
        let people = participants.map { participant in
            "{\"name\":\(string(participant.name)),\"url\":\(string(participant.url)),\"waitedSeconds\":\(number(Self.seconds(participant.waited))),"
                + "\"inBreaksSeconds\":\(number(Self.seconds(participant.inBreaks))),\"skippedSeconds\":\(number(participant.skipped)),"
                + "\"rewoundSeconds\":\(number(participant.rewound)),\"corrections\":\(participant.corrections),\"stalls\":\(participant.stalls),"
                + "\"finalPositionSeconds\":\(participant.finalPosition.map(number) ?? "null"),"
                + "\"waits\":[\(participant.waits.map { "{\"startSeconds\":\(number(Self.seconds($0.start))),\"seconds\":\(number(Self.seconds($0.length))),\"toldSeconds\":\($0.told.map(number) ?? "null")}" }.joined(separator: ","))]}"
        }
        fields.append("\"participants\":[\(people.joined(separator: ","))]")
        fields.append("\"skewMilliseconds\":{\"steady\":\(percentiles(skew.steadyPercentiles)),\"afterTransitions\":\(percentiles(skew.transitionPercentiles))}")
        let noteText = notes.map { note in
            "{\"timeSeconds\":\(number(Self.seconds(note.time))),\"participant\":\(note.participant.map(string) ?? "null"),\"text\":\(string(note.text))}"
        }
        fields.append("\"notes\":[\(noteText.joined(separator: ","))]")
        return "{" + fields.joined(separator: ",") + "}\n"
    }
}
