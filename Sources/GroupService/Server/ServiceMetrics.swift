import GroupCoordination
import NetworkIO

/// What `/metrics` shows, in the Prometheus text exposition format (version 0.0.4): gauges for
/// sessions, participants and connections, counters for messages by type and refusals by code,
/// and histograms for the participants' reported skew and clock round trips and for store commits.
struct ServiceMetrics: Sendable {
    /// A cumulative histogram with fixed bucket bounds in seconds.
    struct Histogram: Sendable {
        let bounds: [Double]
        var counts: [Int]
        var sum = 0.0
        var count = 0

        init(bounds: [Double]) {
            self.bounds = bounds
            counts = Array(repeating: 0, count: bounds.count)
        }

        mutating func observe(_ seconds: Double) {
            sum += seconds
            count += 1
            if let index = bounds.firstIndex(where: { seconds <= $0 }) { counts[index] += 1 }
        }

        func render(_ name: String, help: String, into text: inout String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
            var cumulative = 0
            for (bound, count) in zip(bounds, counts) {
                cumulative += count
                text += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "\(name)_bucket{le=\"+Inf\"} \(count)\n\(name)_sum \(sum)\n\(name)_count \(count)\n"
        }
    }

    var receivedByType: [String: Int] = [:]
    var sentByType: [String: Int] = [:]
    var clockProbes = 0
    var storeFailures = 0
    /// Participants closed because their send queue was full.
    var slowConsumers = 0
    /// Changes other processes committed that this one took in (a shared store).
    var remoteChanges = 0
    /// Turns run again because another process committed to the same session first.
    var conflicts = 0
    var eventsCommitted = 0
    var skew = Histogram(bounds: [0.001, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 1])
    var roundTrip = Histogram(bounds: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1])
    var commits = Histogram(bounds: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05])
    /// Messages received in the current and the previous whole second, for the rate gauge.
    private var second: Int64 = 0
    private var thisSecond = 0
    private var lastSecond = 0

    mutating func received(_ type: String) {
        receivedByType[type, default: 0] += 1
        let now = Int64(GroupServer.wallClock() / .seconds(1))
        if now != second {
            lastSecond = now == second + 1 ? thisSecond : 0
            thisSecond = 0
            second = now
        }
        thisSecond += 1
    }

    mutating func sent(_ message: SessionServerMessage) {
        sentByType[message.type, default: 0] += 1
    }

    mutating func committed(after duration: Duration, events: Int) {
        commits.observe(Double(duration / .nanoseconds(1)) / 1e9)
        eventsCommitted += events
    }

    mutating func report(skew: Duration?, roundTrip: Duration) {
        if let skew { self.skew.observe(abs(Double(skew / .nanoseconds(1))) / 1e9) }
        self.roundTrip.observe(Double(roundTrip / .nanoseconds(1)) / 1e9)
    }

    func render(core: GroupServiceCore, now: Duration) -> String {
        var text = ""
        func gauge(_ name: String, _ help: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(value)\n"
        }
        func counter(_ name: String, _ help: String, label: String, _ values: [String: Int]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { text += "\(name){\(label)=\"\(key)\"} \(value)\n" }
        }
        gauge("interlude_group_sessions", "Sessions open (not ended).", core.sessions.values.count { !$0.isEnded })
        gauge("interlude_group_participants", "Participants present in all sessions.", core.presentParticipantCount)
        gauge("interlude_group_connections", "WebSocket connections open.", core.connectionCount)
        let nowSecond = Int64(now / .seconds(1))
        gauge("interlude_group_messages_per_second", "Messages received in the last whole second.", nowSecond == second + 1 ? thisSecond : nowSecond == second ? lastSecond : 0)
        counter("interlude_group_messages_received_total", "Messages received, by type.", label: "type", receivedByType)
        counter("interlude_group_messages_sent_total", "Messages sent, by type.", label: "type", sentByType)
        counter("interlude_group_refused_total", "Messages refused, by error code.", label: "code",
            Dictionary(uniqueKeysWithValues: core.refusals.map { ($0.key.rawValue, $0.value) }))
        text += "# HELP interlude_group_clock_probes_total Clock probes answered.\n# TYPE interlude_group_clock_probes_total counter\ninterlude_group_clock_probes_total \(clockProbes)\n"
        text += "# HELP interlude_group_events_total Events committed.\n# TYPE interlude_group_events_total counter\ninterlude_group_events_total \(eventsCommitted)\n"
        text += "# HELP interlude_group_store_failures_total Commits that failed (nothing of them was applied).\n# TYPE interlude_group_store_failures_total counter\ninterlude_group_store_failures_total \(storeFailures)\n"
        text += "# HELP interlude_group_slow_consumers_total Participants closed because they did not read what they were sent (a full send queue).\n# TYPE interlude_group_slow_consumers_total counter\ninterlude_group_slow_consumers_total \(slowConsumers)\n"
        text += "# HELP interlude_group_remote_changes_total Changes committed by other processes sharing the store, taken in.\n# TYPE interlude_group_remote_changes_total counter\ninterlude_group_remote_changes_total \(remoteChanges)\n"
        text += "# HELP interlude_group_store_conflicts_total Turns run again because another process committed to the same session first.\n# TYPE interlude_group_store_conflicts_total counter\ninterlude_group_store_conflicts_total \(conflicts)\n"
        skew.render("interlude_group_participant_skew_seconds", help: "Skew participants reported against the group's expected position (absolute).", into: &text)
        roundTrip.render("interlude_group_clock_round_trip_seconds", help: "Clock-probe round trips participants reported.", into: &text)
        commits.render("interlude_group_store_commit_seconds", help: "Time to commit one transaction to the store.", into: &text)
        return text
    }
}

extension ServiceLogEntry {
    /// The entry as one JSON line: `{"time":…,"session":…,"event":…, fields…}` (fields sorted).
    public var jsonLine: String {
        let milliseconds = Int64(at / .milliseconds(1))
        var line = #"{"time_ms":\#(milliseconds),"session":"\#(JSONText.escape(session))","event":"\#(JSONText.escape(event))""#
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !["time_ms", "session", "event"].contains(key) {
            line += #","\#(JSONText.escape(key))":"\#(JSONText.escape(value))""#
        }
        return line + "}"
    }
}
