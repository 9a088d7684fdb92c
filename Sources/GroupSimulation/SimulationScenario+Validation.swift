import Foundation

/// The bounds a scenario's values are checked against: a scenario file comes from outside, and a
/// value the simulator cannot honour is refused with its JSON path instead of trapping, spinning
/// or being read as zero.
extension SimulationScenario {
    /// The longest simulation, join time or action time (a week of true time).
    static let longestDuration: Duration = .seconds(7 * 24 * 3600)
    /// The largest one-way latency, jitter or clock offset.
    static let largestDelay: Duration = .seconds(3600)
    /// The largest clock drift, in parts per million (real quartz clocks are within ±100).
    static let largestDriftPPM: Double = 10_000
    /// The playback rates a user action may ask for.
    static let rates: ClosedRange<Double> = 0...64

    /// Keys in `json` that the scenario does not know: whatever does not come back when the decoded
    /// scenario is encoded again (so every field the type declares is known, with no list to keep
    /// in step), and explicit `null`s, which say nothing a missing key does not.
    static func unknownKey(in json: [UInt8], decoded scenario: SimulationScenario) -> String? {
        guard let input = try? JSONSerialization.jsonObject(with: Data(json)),
            let encoded = try? JSONEncoder().encode(scenario),
            let output = try? JSONSerialization.jsonObject(with: encoded)
        else { return nil }
        return unknownKey(input, known: output, path: "")
    }

    private static func unknownKey(_ input: Any, known: Any, path: String) -> String? {
        if let object = input as? [String: Any] {
            let knownObject = known as? [String: Any] ?? [:]
            for key in object.keys.sorted() {
                let value = object[key]!
                let at = path.isEmpty ? key : "\(path).\(key)"
                if value is NSNull { return "\(at): null is not a value here (leave the key out)" }
                guard let knownValue = knownObject[key] else {
                    let keys = knownKeys(atPath: path).sorted().joined(separator: ", ")
                    return "\(at): unknown key" + (keys.isEmpty ? "" : " (expected one of \(keys))")
                }
                if let problem = unknownKey(value, known: knownValue, path: at) { return problem }
            }
        } else if let array = input as? [Any] {
            let knownArray = known as? [Any] ?? []
            for (index, element) in array.enumerated() where index < knownArray.count {
                if let problem = unknownKey(element, known: knownArray[index], path: "\(path)[\(index)]") { return problem }
            }
        }
        return nil
    }

    /// The keys an object at `path` may hold, for the message.
    private static func knownKeys(atPath path: String) -> [String] {
        let last = path.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? ""
        switch last {
        case "": return ["name", "description", "duration", "origin", "seed", "policy", "network", "participants", "actions",
                         "sampleInterval", "observeInterval", "clockRefreshInterval"]
        case "policy": return ["waitFor", "participantLimits", "pauseSnapsToOriginator"]
        case "network": return ["latency", "jitter", "loss", "reorder", "partitions"]
        case "partitions": return ["participant", "from", "until"]
        case "participants": return ["name", "viewer", "stream", "kind", "clock", "joinAt", "network"]
        case "clock": return ["offset", "driftPPM"]
        default: return []
        }
    }

    /// Every value within its bounds, or the first that is not, with its path.
    func validateValues() throws(SimulationError) {
        func fail(_ path: String, _ message: String) -> SimulationError { SimulationError(message: "\(path): \(message)") }
        func check(_ value: SimulatedDuration?, _ path: String, positive: Bool = false, within limit: Duration = Self.longestDuration) throws(SimulationError) {
            guard let duration = value?.duration else { return }
            if positive, !(duration > .zero) { throw fail(path, "\(value!) must be longer than zero") }
            if duration < .zero { throw fail(path, "\(value!) cannot be negative") }
            if duration > limit { throw fail(path, "\(value!) is longer than the limit of \(SimulatedDuration(limit))") }
        }
        func check(probability: Double?, _ path: String) throws(SimulationError) {
            guard let probability else { return }
            guard probability.isFinite, (0...1).contains(probability) else { throw fail(path, "\(probability) is not a probability (0 to 1)") }
        }
        func check(_ network: Network?, _ path: String) throws(SimulationError) {
            guard let network else { return }
            try check(network.latency, path + ".latency", within: Self.largestDelay)
            try check(network.jitter, path + ".jitter", within: Self.largestDelay)
            try check(probability: network.loss, path + ".loss")
            try check(probability: network.reorder, path + ".reorder")
        }
        try check(duration, "duration", positive: true)
        try check(sampleInterval, "sampleInterval", positive: true)
        try check(observeInterval, "observeInterval", positive: true)
        try check(clockRefreshInterval, "clockRefreshInterval", positive: true)
        let names = Set(participants.map(\.name))
        try check(network, "network")
        for (index, partition) in (network?.partitions ?? []).enumerated() {
            let path = "network.partitions[\(index)]"
            guard names.contains(partition.participant) else {
                throw fail(path + ".participant", "no participant is called \"\(partition.participant)\"")
            }
            try check(partition.from, path + ".from")
            try check(partition.until, path + ".until")
            guard partition.from.duration <= partition.until.duration else {
                throw fail(path + ".until", "\(partition.until) is before the partition starts (\(partition.from))")
            }
        }
        for limit in (policy?.participantLimits ?? [:]).sorted(by: { $0.key < $1.key }) where limit.value < 0 {
            throw fail("policy.participantLimits.\(limit.key)", "\(limit.value) cannot be negative")
        }
        for (index, participant) in participants.enumerated() {
            let path = "participants[\(index)]"
            guard !participant.name.isEmpty else { throw fail(path + ".name", "cannot be empty") }
            try check(participant.joinAt, path + ".joinAt")
            try check(participant.network, path + ".network")
            if let offset = participant.clock?.offset?.duration, offset < .zero - Self.largestDelay || offset > Self.largestDelay {
                throw fail(path + ".clock.offset", "\(participant.clock!.offset!) is further from true time than \(SimulatedDuration(Self.largestDelay))")
            }
            if let drift = participant.clock?.driftPPM, !(drift.isFinite && abs(drift) <= Self.largestDriftPPM) {
                throw fail(path + ".clock.driftPPM", "\(drift) is not a clock drift (within ±\(Int(Self.largestDriftPPM)) ppm)")
            }
        }
        for (index, action) in (actions ?? []).enumerated() {
            let path = "actions[\(index)]"
            try check(action.at, path + ".at")
            // Seek targets (to, timeline, offset) are checked as they are decoded.
            if let rate = action.rate, !(rate.isFinite && Self.rates.contains(rate)) {
                throw fail(path + ".rate", "\(rate) is not a playback rate (\(Int(Self.rates.lowerBound)) to \(Int(Self.rates.upperBound)))")
            }
        }
    }
}
