import GroupSimulation

/// The figures of a story the demo ran, from its participants' traces, measured the way
/// `interlude simulate` measures a scenario (``GroupSimulator``): every 100 ms of the story, each
/// participant's state (playing, in a break, waiting, paused) adds to its time waited or in
/// breaks; the spread of the positions of those playing steadily is the group's skew, steady or
/// one second after a start or resume of the group; content skipped or gone back over is the
/// jumps of the primary time that playing does not explain. The result is a ``SimulationReport``,
/// so that it prints and draws as a simulation's does.
///
/// What differs, because a trace is not a simulator's inside view: a participant's position
/// between two samples is interpolated (the simulator reads it exactly), only when both samples
/// play primary at most 300 ms apart and agree with each other within 20 ms; a transition of the
/// group is seen in the first participant's samples (its coordinator's group state turning to
/// playing, anchored at its player's first playing sample), where the simulator reads the group
/// timeline's anchor; corrections count the rate changes a participant's coordinator made.
package enum DemoMeasurement {
    /// One participant of the story, in the scenario's order.
    package struct Participant: Sendable {
        package var name: String
        /// `owner`, `controller` or `viewer`.
        package var role: String
        /// The stream it played (its own ads).
        package var url: String
        package var trace: DemoTrace

        package init(name: String, role: String = "viewer", url: String = "", trace: DemoTrace) {
            self.name = name
            self.role = role
            self.url = url
            self.trace = trace
        }
    }

    /// How often the story is sampled, as the simulator samples (100 ms).
    package static let sampleNanoseconds: Int64 = 100_000_000
    /// A sample older than this says nothing about now (a participant that left or stalled its writes).
    package static let staleNanoseconds: Int64 = 300_000_000
    /// A jump of the primary time larger than this is content skipped or gone back over (the simulator's 0.5 s).
    package static let jumpSeconds = 0.5

    /// The report of the story that began at `start` (CLOCK_REALTIME ns) and lasted `duration`.
    package static func report(scenario: String, description: String?, start: Int64, duration: Duration, participants: [Participant]) -> SimulationReport {
        let end = start + nanoseconds(duration)
        var skew = SkewStatistics()
        var tallies = participants.map { _ in Tally() }
        var cursors = participants.map { _ in 0 }
        var reference: (index: Int, group: String?, anchorPending: Bool)?
        var time = start + sampleNanoseconds
        while time <= end {
            var steady: [Double] = []
            var firstActive: Int?
            for (index, participant) in participants.enumerated() {
                let samples = participant.trace.samples
                while cursors[index] < samples.count, samples[cursors[index]].time <= time { cursors[index] += 1 }
                let latest = cursors[index] - 1
                guard let coordinatedAt = participant.trace.coordinatedAt, latest >= 0, samples[latest].time >= coordinatedAt,
                    time - samples[latest].time <= staleNanoseconds, let state = state(of: samples[latest])
                else { continue }
                if firstActive == nil { firstActive = index }
                let storyTime = Duration.nanoseconds(time - start)
                tallies[index].record(state, at: storyTime, position: position(before: latest, in: samples))
                if state == .playing, let position = interpolatedPosition(at: time, in: samples, after: latest) { steady.append(position) }
            }
            // The group's transitions, as the first participant in the group sees them.
            if let index = firstActive {
                let sample = participants[index].trace.samples[cursors[index] - 1]
                if reference?.index != index { reference = (index, nil, false) }
                if sample.group == "playing", reference?.group != "playing" { reference?.anchorPending = true }
                reference?.group = sample.group
                if reference?.anchorPending == true, state(of: sample) == .playing {
                    reference?.anchorPending = false
                    skew.transitions.append(.init(anchor: .nanoseconds(time - start), skew: nil))
                }
            }
            if steady.count >= 2, let low = steady.min(), let high = steady.max() {
                let spread = (high - low) * 1000
                let now = Duration.nanoseconds(time - start)
                if let last = skew.transitions.last, now - last.anchor < .seconds(3) {
                    if last.skew == nil, !(now - last.anchor < .seconds(1)) { skew.transitions[skew.transitions.count - 1].skew = spread }
                } else {
                    skew.steady.append(spread)
                }
            }
            time += sampleNanoseconds
        }
        let names = Dictionary(participants.compactMap { participant in participant.trace.participantID.map { ($0, participant.name) } }) { first, _ in first }
        let reports = participants.enumerated().map { index, participant in
            let jumps = contentJumps(participant.trace, until: end)
            let tally = tallies[index]
            return SimulationReport.ParticipantReport(
                name: participant.name, url: participant.url, waited: tally.waited, inBreaks: tally.inBreaks, skipped: jumps.skipped,
                rewound: jumps.rewound, corrections: corrections(participant.trace, until: end), stalls: stalls(participant.trace, until: end),
                finalPosition: finalPosition(participant.trace, until: end), waits: tally.waits, series: tally.series)
        }
        return SimulationReport(
            scenario: scenario, description: description, duration: duration, participants: reports, skew: skew,
            notes: notes(participants.first?.trace, names: names, start: start, end: end))
    }

    /// What a participant is doing, as the simulator's series names it.
    package enum State: String {
        case playing, waiting, inBreak, paused
    }

    package static func state(of sample: DemoTrace.Sample) -> State? {
        if sample.isInBreak { return .inBreak }
        if sample.status == "playing" { return .playing }
        if sample.status.hasPrefix("waiting") { return .waiting }
        if sample.status == "paused" { return .paused }
        return nil
    }

    /// The position of the sample at `index`, or in a break the primary time the player left.
    package static func position(before index: Int, in samples: [DemoTrace.Sample]) -> Double? {
        var index = index
        while index >= 0 {
            if let primary = samples[index].primary { return primary }
            index -= 1
        }
        return nil
    }

    /// The primary time at `time` between the sample at `index` and the next, when both play
    /// primary steadily (at most 300 ms apart, agreeing within 20 ms).
    package static func interpolatedPosition(at time: Int64, in samples: [DemoTrace.Sample], after index: Int) -> Double? {
        guard index + 1 < samples.count else { return nil }
        let (before, after) = (samples[index], samples[index + 1])
        guard let from = before.primary, let to = after.primary, before.status == "playing", after.status == "playing",
            after.time - before.time <= staleNanoseconds, after.time > before.time
        else { return nil }
        let elapsed = Double(after.time - before.time) / 1e9
        guard abs((to - from) - elapsed * (before.rate + after.rate) / 2) <= 0.02 else { return nil }
        return from + (to - from) * Double(time - before.time) / Double(after.time - before.time)
    }

    /// The primary content a participant skipped (jumps forward that playing does not explain,
    /// such as a live break's resumption offset) and went back over (jumps back, less what it had
    /// just skipped at a break's end, as the simulator counts), from its first playing sample on.
    package static func contentJumps(_ trace: DemoTrace, until end: Int64) -> (skipped: Double, rewound: Double) {
        let samples = trace.samples.filter { $0.time <= end }
        guard let coordinatedAt = trace.coordinatedAt,
            let first = samples.firstIndex(where: { $0.time >= coordinatedAt && $0.status == "playing" && $0.primary != nil })
        else { return (0, 0) }
        var skipped = 0.0, rewound = 0.0
        var last = samples[first]
        var passedAtBreakEnd: (time: Int64, seconds: Double)?
        var wasInBreak = false
        var lastInBreak: Int64 = 0
        for sample in samples[(first + 1)...] {
            guard !sample.isInBreak, let position = sample.primary, var previous = last.primary else {
                if sample.isInBreak, !wasInBreak, last.status == "playing", let previous = last.primary {
                    // It left the content between its last sample there and its first in the
                    // break: half-way, as near as the samples tell.
                    last.primary = previous + Double(sample.time - last.time) / 2e9 * last.rate
                }
                if sample.isInBreak { lastInBreak = sample.time }
                wasInBreak = wasInBreak || sample.isInBreak
                continue
            }
            if wasInBreak { previous = last.primary ?? previous }
            // Back from a break, it played since half-way from its last sample in the break.
            let played = wasInBreak ? (sample.status == "playing" ? Double(sample.time - lastInBreak) / 2e9 * sample.rate : 0)
                : last.status != "playing" ? 0 : Double(sample.time - last.time) / 1e9 * last.rate
            let jump = position - previous - played
            if jump > jumpSeconds {
                skipped += jump
                if wasInBreak { passedAtBreakEnd = (sample.time, jump) }
            } else if jump < -jumpSeconds {
                var back = -jump
                if let passed = passedAtBreakEnd, sample.time - passed.time <= 2_000_000_000 {
                    let returned = min(back, passed.seconds)
                    skipped -= returned
                    back -= returned
                    passedAtBreakEnd = (passed.time, passed.seconds - returned)
                }
                rewound += back
            }
            wasInBreak = false
            last = sample
        }
        return (skipped, rewound)
    }

    /// The rate changes its coordinator made to keep the player with the group.
    package static func corrections(_ trace: DemoTrace, until end: Int64) -> Int {
        trace.events.filter { $0.time <= end && $0.name == "playerCommand" && $0.fields["command"]?.hasPrefix("setRate(") == true }.count
    }

    /// How often the player ran out of media while playing.
    package static func stalls(_ trace: DemoTrace, until end: Int64) -> Int {
        var count = 0
        var previous: String?
        for sample in trace.samples where sample.time <= end {
            if sample.status == "waiting (toMinimizeStalls)", previous == "playing" { count += 1 }
            previous = sample.status
        }
        return count
    }

    /// The position at the end: its last primary time (in a break, the one it left the content at).
    package static func finalPosition(_ trace: DemoTrace, until end: Int64) -> Double? {
        guard let coordinatedAt = trace.coordinatedAt else { return nil }
        return trace.samples.last { $0.time <= end && $0.time >= coordinatedAt && $0.primary != nil }?.primary
    }

    /// The group's waits as the first participant's coordinator announced them, by name.
    package static func notes(_ trace: DemoTrace?, names: [String: String], start: Int64, end: Int64) -> [SimulationReport.Note] {
        guard let trace else { return [] }
        return trace.events.filter { $0.name == "groupWait" && $0.time >= start && $0.time <= end }.map { event in
            let whom = event.waitingFor.map { names[$0] ?? $0 }
            return .init(time: .nanoseconds(event.time - start), participant: nil,
                         text: whom.isEmpty ? "group playing" : "group waiting, waiting for " + whom.joined(separator: ", "))
        }
    }

    package static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// One participant's running figures.
    package struct Tally {
        package var waited = Duration.zero
        package var inBreaks = Duration.zero
        package var waits: [SimulationReport.ParticipantReport.Wait] = []
        package var series: [SimulationReport.ParticipantReport.Point] = []

        package mutating func record(_ state: State, at time: Duration, position: Double?) {
            let interval = Duration.nanoseconds(DemoMeasurement.sampleNanoseconds)
            switch state {
            case .waiting:
                waited += interval
                if let last = waits.last, last.start + last.length + interval >= time {
                    waits[waits.count - 1].length += interval
                } else {
                    waits.append(.init(start: time - interval, length: interval, told: nil))
                }
            case .inBreak: inBreaks += interval
            case .playing, .paused: break
            }
            guard let position else { return }
            if series.last.map({ time - $0.time >= .seconds(1) || $0.state != state.rawValue }) ?? true {
                series.append(.init(time: time, coordinated: position, state: state.rawValue))
            }
        }
    }
}
