import Foundation
import MediaTime
import PlayerInterface

/// What the demo shows while a story runs, from the participants' traces so far: a line per
/// participant (where it is, its break, whom it waits for) under a line for the group (the story's
/// time and the group's skew now), and a line for each moment as it comes (a participant goes
/// into a break or comes back, begins or ends a wait).
///
/// Pure: each call is given the traces and the time; ``moments(at:participants:)`` remembers what
/// it has told already.
package struct DemoDisplay: Sendable {
    /// A participant as the display knows it: its name, its role and its trace so far.
    package typealias Participant = DemoMeasurement.Participant

    /// The story's name, its policy in words, when it began (CLOCK_REALTIME ns), how long it lasts.
    package var story: String
    package var policy: String
    package var start: Int64
    package var duration: Duration
    /// What each participant was doing at the last sample seen, by name: since when, and its
    /// last primary time.
    private var phases: [String: (phase: Phase, since: Int64, seen: Int64, position: Double?, hasPlayed: Bool)] = [:]

    package init(story: String, policy: String, start: Int64, duration: Duration) {
        self.story = story
        self.policy = policy
        self.start = start
        self.duration = duration
    }

    package enum Phase: Equatable {
        case playing
        case paused
        case waiting([String])
        case inBreak(String)
    }

    package static func phase(of sample: DemoTrace.Sample) -> Phase {
        if sample.isInBreak { return .inBreak(sample.breakID ?? "a break") }
        if sample.status.hasPrefix("waiting") {
            return .waiting(sample.waitingFor)
        }
        return sample.status == "paused" ? .paused : .playing
    }

    /// The lines to draw at `time` (CLOCK_REALTIME ns): the group's, then one per participant.
    package func lines(at time: Int64, participants: [Participant]) -> [String] {
        let names = Self.names(participants)
        let width = max(7, participants.map(\.name.count).max() ?? 0)
        var group = "\(story) · \(policy) · \(Self.clock(nanoseconds: time - start)) of \(Self.clock(duration))"
        group += Self.skewNow(participants).map { String(format: " · skew %.1f ms", $0) } ?? " · skew -"
        var lines = [group]
        for participant in participants {
            var line = "  " + participant.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + participant.role.padding(toLength: 10, withPad: " ", startingAt: 0) + "  "
            guard let sample = participant.trace.samples.last else {
                lines.append(line + "starting")
                continue
            }
            guard participant.trace.coordinatedAt != nil else {
                lines.append(line + "joining the group")
                continue
            }
            switch Self.phase(of: sample) {
            case .inBreak(let id):
                line += "in break \(id) +" + String(format: "%.1f s", sample.breakOffset ?? 0)
            case .waiting(let whom):
                line += "at \(Self.position(sample.primary)) waiting" + (whom.isEmpty ? "" : " for " + whom.map { names[$0] ?? $0 }.joined(separator: ", "))
            case .paused:
                line += "at \(Self.position(sample.primary)) paused"
            case .playing:
                line += "at \(Self.position(sample.primary)) playing"
            }
            if time - sample.time > 2_000_000_000 { line += " (left)" }
            lines.append(line)
        }
        return lines
    }

    /// The moments since the last call, one line each: `0:20.3  bob      into break ad-2`.
    package mutating func moments(at time: Int64, participants: [Participant]) -> [String] {
        let names = Self.names(participants)
        let width = max(7, participants.map(\.name.count).max() ?? 0)
        var lines: [String] = []
        for participant in participants {
            guard let coordinatedAt = participant.trace.coordinatedAt else { continue }
            for sample in participant.trace.samples where sample.time >= coordinatedAt && sample.time > (phases[participant.name]?.seen ?? .min) {
                let phase = Self.phase(of: sample)
                let previous = phases[participant.name]
                let position = sample.primary ?? previous?.position
                let hasPlayed = previous?.hasPlayed == true || phase == .playing
                guard previous?.phase != phase else {
                    phases[participant.name] = (phase, previous?.since ?? sample.time, sample.time, position, hasPlayed)
                    continue
                }
                phases[participant.name] = (phase, sample.time, sample.time, position, hasPlayed)
                var text: String?
                switch (previous?.phase, phase) {
                case (_, .inBreak(let id)):
                    text = "into break \(id) at \(Self.position(previous?.position))"
                case (.inBreak(let id)?, _):
                    let length = Double(sample.time - (previous?.since ?? sample.time)) / 1e9
                    let jump = (sample.primary ?? 0) - (previous?.position ?? 0)
                    text = String(format: "back from %@ after %.1f s, at %@", id, length, Self.position(sample.primary))
                        + (jump >= DemoMeasurement.jumpSeconds ? String(format: ", %.1f s further on", jump) : "")
                case (_, .waiting(let whom)) where !whom.isEmpty:
                    text = "waits for " + whom.map { names[$0] ?? $0 }.joined(separator: ", ")
                case (.waiting(let whom)?, .playing) where !whom.isEmpty:
                    text = String(format: "goes on after waiting %.1f s", Double(sample.time - (previous?.since ?? sample.time)) / 1e9)
                case (_, .playing) where previous?.hasPlayed != true:
                    text = "plays from \(Self.position(sample.primary))"
                default:
                    break
                }
                if let text {
                    let clock = Self.clock(nanoseconds: sample.time - start)
                    lines.append(clock.padding(toLength: 8, withPad: " ", startingAt: 0) + "  "
                        + participant.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
                }
            }
        }
        return lines
    }

    /// The spread of the positions of those playing steadily, at the latest time every one of
    /// them has a sample after, in milliseconds; nil when fewer than two play.
    package static func skewNow(_ participants: [Participant]) -> Double? {
        let playing = participants.filter { $0.trace.samples.last.map { phase(of: $0) == .playing } ?? false }
        guard playing.count >= 2, let time = playing.compactMap({ $0.trace.samples.dropLast().last?.time }).max() else { return nil }
        var positions: [Double] = []
        for participant in playing {
            let samples = participant.trace.samples
            guard let index = samples.lastIndex(where: { $0.time <= time }),
                let position = DemoMeasurement.interpolatedPosition(at: time, in: samples, after: index)
            else { continue }
            positions.append(position)
        }
        guard positions.count >= 2, let low = positions.min(), let high = positions.max() else { return nil }
        return (high - low) * 1000
    }

    /// Participant IDs (as the server names them) to names.
    package static func names(_ participants: [Participant]) -> [String: String] {
        var names: [String: String] = [:]
        for participant in participants {
            if let id = participant.trace.participantID { names[id] = participant.name }
        }
        return names
    }

    /// `1:12.3`, or `-` when there is none.
    package static func position(_ seconds: Double?) -> String {
        guard let seconds, let time = MediaTime(seconds: seconds, preferredTimescale: 1000) else { return "-" }
        return TimeFormat.elapsed(time, fractionDigits: 1)
    }

    /// A story time: `0:23.4`.
    package static func clock(nanoseconds: Int64) -> String {
        TimeFormat.elapsed(MediaTime(value: max(0, nanoseconds), timescale: 1_000_000_000), fractionDigits: 1)
    }

    package static func clock(_ duration: Duration) -> String {
        TimeFormat.elapsed(MediaTime(duration), fractionDigits: 1, omittingZeroFraction: true)
    }
}
