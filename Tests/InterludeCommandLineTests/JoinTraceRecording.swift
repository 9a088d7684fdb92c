import Foundation

/// One participant's `interlude join --trace` file, read back: its position samples and its events,
/// timed in seconds of the real-time clock since `epoch` (the traces of every process share that
/// clock, so samples of different participants at the same time can be compared).
struct JoinTraceRecording {
    /// A position sample (ten a second).
    struct Sample {
        /// Seconds since the epoch.
        var time: Double
        /// The primary time, when the player is not in a break.
        var primary: Double?
        /// The break the player is in, if any.
        var breakID: String?
        /// The group's state as this participant's coordinator sees it (`playing`, `waiting`, `paused`).
        var group: String?
        /// The player's time control status (`playing`, `waiting (…)`, `paused`).
        var status: String?
    }

    /// An event line.
    struct Event {
        /// Seconds since the epoch.
        var time: Double
        /// `welcomed`, `resumed`, `presence`, `groupWait`, `playerCommand`, `action`, …
        var name: String
        /// Whom a `groupWait` waits for (empty: the wait ended).
        var waitingFor: [String]
        /// A `presence` event's state.
        var state: String?
    }

    /// A stretch spent in a break.
    struct BreakStay {
        var breakID: String
        /// The first sample in the break.
        var start: Double
        /// The first primary sample after it.
        var end: Double
        /// The last primary time before the break.
        var contentBefore: Double
        /// The first primary time after it.
        var contentAfter: Double
        /// Where the content stood at the first primary sample, once the coordinator had half a
        /// second to place the player where the group is (a live break resumes at a segment
        /// boundary, and the coordinator moves the player on from there): the later position, less
        /// the time since the return.
        var contentSettled: Double

        var duration: Double { end - start }
    }

    /// The name it joined with.
    let name: String
    let samples: [Sample]
    let events: [Event]

    private struct Line: Decodable {
        struct SampleFields: Decodable {
            var primary: Double?
            var `break`: String?
            var group: String?
            var status: String?
        }

        var t: Int64
        var sample: SampleFields?
        var event: String?
        var waitingFor: [String]?
        var state: String?
    }

    /// Reads the trace at `path`; `epoch` is CLOCK_REALTIME in nanoseconds.
    init(name: String, path: String, epoch: Int64) throws {
        self.name = name
        var samples: [Sample] = []
        var events: [Event] = []
        let decoder = JSONDecoder()
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let decoded = try decoder.decode(Line.self, from: Data(line.utf8))
            let time = Double(decoded.t - epoch) / 1e9
            if let sample = decoded.sample {
                samples.append(Sample(time: time, primary: sample.primary, breakID: sample.break, group: sample.group, status: sample.status))
            } else if let name = decoded.event {
                events.append(Event(time: time, name: name, waitingFor: decoded.waitingFor ?? [], state: decoded.state))
            }
        }
        self.samples = samples
        self.events = events
    }

    /// When the first event called `name` came, at or after `time`.
    func firstEvent(_ name: String, after time: Double = -.infinity) -> Event? {
        events.first { $0.name == name && $0.time >= time }
    }

    /// When the participant's coordinator first commanded its player (it plays in the group from
    /// then on).
    var coordinatedAt: Double? { firstEvent("playerCommand")?.time }

    /// When another participant first left (the others re-anchor then: comparisons stop before).
    var firstDepartureSeen: Double? { events.first { $0.name == "presence" && $0.state == "left" }?.time }

    /// The primary time at `time`, interpolated between the two samples around it when the player
    /// played steadily between them (at rate 1, within 20 ms, at most 300 ms apart); `nil` in a
    /// break, while held, across a jump, or outside the samples.
    func position(at time: Double) -> Double? {
        var low = 0
        var high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0, low < samples.count else { return nil }
        let before = samples[low - 1]
        let after = samples[low]
        guard let from = before.primary, let to = after.primary, after.time - before.time <= 0.3 else { return nil }
        let elapsed = after.time - before.time
        guard abs((to - from) - elapsed) <= 0.02 else { return nil }
        return from + (to - from) * (time - before.time) / max(elapsed, 1e-9)
    }

    /// Every stay in a break, in order.
    var breakStays: [BreakStay] {
        var stays: [BreakStay] = []
        var lastPrimary: Double?
        var open: (id: String, start: Double, before: Double)?
        for sample in samples {
            if let id = sample.breakID {
                if open == nil { open = (id, sample.time, lastPrimary ?? .nan) }
            } else if let primary = sample.primary {
                if let stay = open {
                    let settled = samples.first { $0.time >= sample.time + 0.5 && $0.primary != nil }
                    let contentSettled = settled.flatMap { later in later.primary.map { $0 - (later.time - sample.time) } } ?? primary
                    stays.append(BreakStay(
                        breakID: stay.id, start: stay.start, end: sample.time, contentBefore: stay.before, contentAfter: primary,
                        contentSettled: contentSettled))
                    open = nil
                }
                lastPrimary = primary
            }
        }
        return stays
    }

    /// The stretches this participant's player was held waiting for others (the `groupWait`
    /// events: from one naming blockers to the one naming none), as (start, end).
    var waitsForOthers: [(start: Double, end: Double)] {
        var waits: [(start: Double, end: Double)] = []
        var start: Double?
        for event in events where event.name == "groupWait" {
            if !event.waitingFor.isEmpty {
                if start == nil { start = event.time }
            } else if let begun = start {
                waits.append((begun, event.time))
                start = nil
            }
        }
        if let start, let last = samples.last { waits.append((start, last.time)) }
        return waits
    }

    /// The first sample at or after `time` whose primary time moves on from the next one (the
    /// player plays content again).
    func firstPlayingSample(after time: Double) -> Sample? {
        guard let index = samples.firstIndex(where: { $0.time >= time && $0.primary != nil }) else { return nil }
        for i in index..<(samples.count - 1) {
            if let now = samples[i].primary, let next = samples[i + 1].primary, next - now > 0.05 { return samples[i] }
        }
        return nil
    }

    /// A few lines about the trace, for a failure's message.
    var summary: String {
        let stays = breakStays.map { String(format: "break %@ %.2f–%.2f s (content %.2f → %.2f)", $0.breakID, $0.start, $0.end, $0.contentBefore, $0.contentAfter) }
        let waits = waitsForOthers.map { String(format: "waited %.2f–%.2f s", $0.start, $0.end) }
        let first = samples.first.map { String(format: "%.2f s", $0.time) } ?? "none"
        let last = samples.last.map { String(format: "%.2f s at %@", $0.time, $0.primary.map { String(format: "%.2f", $0) } ?? "a break") } ?? "none"
        return "\(name): \(samples.count) samples (\(first) … \(last)); " + (stays + waits).joined(separator: "; ")
    }
}
