import Foundation
import GroupSimulation

/// A scenario (the JSON `interlude simulate` reads) as the demo plays it with real processes: one
/// session on the group server for the scenario's stream, one `interlude join` per participant
/// (the first the session's owner, the second a controller, the others viewers) with the
/// scenario's waiting policy, clock drift, join time and duration.
///
/// Only what real processes on one machine can do the same way is accepted, so that the demo and
/// the simulator run the same story: no simulated network beyond loopback's (at most 5 ms of
/// latency, no jitter, loss, reordering or partitions), no clock offsets (every process reads the
/// same host clock), no user actions but starting to play (`join` starts on its own), every
/// participant on the same stream under its own name as the origin's viewer, and a policy that
/// `join --policy` has.
package struct DemoStory: Sendable {
    /// One participant, as its `join` runs.
    package struct Member: Sendable, Equatable {
        package var name: String
        /// `owner`, `controller` or `viewer`: which invitation it joins with.
        package var role: String
        package var driftPPM: Double
        /// When it joins, after the story's start.
        package var joinAt: Duration
        /// How long it stays.
        package var duration: Duration
    }

    package var path: String
    package var scenario: SimulationScenario
    /// The origin's stream, and whether it is live.
    package var stream: String
    package var isLive: Bool
    /// `default` or `waiting`, as `join --policy` takes it.
    package var policy: String
    package var members: [Member]

    /// The reasons `join --policy waiting` waits for (GroupJoinOptions).
    package static let waitingReasons: Set<String> = ["userIsChangingCurrentTime", "playingInterstitial", "stallRecovery"]
    /// Apple's default: only a user changing the time makes the group wait.
    package static let defaultReasons: Set<String> = ["userIsChangingCurrentTime"]
    /// The most latency a scenario may give the network for the demo's loopback to match it.
    package static let loopbackLatency = Duration.milliseconds(5)

    /// The story of `scenario` (read from `path`).
    ///
    /// - Throws: ``CommandFailure`` (exit code 2) listing what the demo cannot play as the
    ///   simulator does.
    package init(path: String, scenario: SimulationScenario) throws {
        var refusals: [String] = []
        self.path = path
        self.scenario = scenario
        let first = scenario.participants.first
        stream = first?.stream ?? "movie"
        isLive = (first?.kind ?? "vod") == "live"
        if scenario.participants.isEmpty { refusals.append("it has no participants") }
        for participant in scenario.participants {
            if (participant.stream ?? "movie") != stream || (participant.kind ?? "vod") != (first?.kind ?? "vod") {
                refusals.append("\(participant.name) watches another stream than \(first?.name ?? ""): a session has one stream")
            }
            if let viewer = participant.viewer, viewer != participant.name {
                refusals.append("\(participant.name) watches as viewer \(viewer): `join` is its origin's viewer under its own name")
            }
            if let offset = participant.clock?.offset, offset.duration != .zero {
                refusals.append("\(participant.name)'s clock has an offset: every process of the demo reads the same host clock")
            }
            if let ppm = participant.clock?.driftPPM, abs(ppm) > 1_000 {
                refusals.append("\(participant.name)'s clock drifts by more than 1000 ppm (`join --clock-drift-ppm` takes up to that)")
            }
            if participant.network != nil { refusals.append("\(participant.name) has a network of its own: the demo runs on loopback") }
        }
        if let network = scenario.network {
            if let latency = network.latency, Self.loopbackLatency < latency.duration {
                refusals.append("its network has \(latency) of latency: the demo's loopback has well under 5 ms")
            }
            if network.jitter.map({ $0.duration != .zero }) == true || (network.loss ?? 0) > 0 || (network.reorder ?? 0) > 0 || !(network.partitions ?? []).isEmpty {
                refusals.append("its network has jitter, loss, reordering or partitions: the demo's loopback has none")
            }
        }
        let reasons = Set(scenario.policy?.waitFor ?? [])
        if reasons.isEmpty || reasons == Self.defaultReasons {
            policy = "default"
        } else if reasons == Self.waitingReasons {
            policy = "waiting"
        } else {
            policy = "default"
            refusals.append("its policy waits for \(reasons.sorted().joined(separator: ", ")): `join --policy waiting` waits for \(Self.waitingReasons.sorted().joined(separator: ", "))")
        }
        if scenario.policy?.participantLimits != nil || scenario.policy?.pauseSnapsToOriginator != nil {
            refusals.append("its policy sets participant limits or pause snapping, which `join` does not")
        }
        for action in scenario.actions ?? [] where action.action != "play" || action.rate.map({ $0 != 1 }) == true {
            refusals.append("\(action.participant) does '\(action.action)': in the demo nobody does anything but start watching")
        }
        if scenario.sampleInterval != nil || scenario.observeInterval != nil || scenario.clockRefreshInterval != nil {
            refusals.append("it sets the simulator's sampling, observation or clock intervals, which `join` has fixed")
        }
        let duration = scenario.duration.duration
        members = scenario.participants.enumerated().map { index, participant in
            let joinAt = participant.joinAt?.duration ?? .zero
            return Member(
                name: participant.name, role: index == 0 ? "owner" : index == 1 ? "controller" : "viewer",
                driftPPM: participant.clock?.driftPPM ?? 0, joinAt: joinAt, duration: duration - joinAt)
        }
        for member in members where !(Duration.seconds(1) < member.duration) {
            refusals.append("\(member.name) joins less than a second before the end")
        }
        guard refusals.isEmpty else {
            throw CommandFailure(
                message: "\(path): the demo cannot play this scenario as `interlude simulate` does:\n"
                    + refusals.map { "  - " + $0 }.joined(separator: "\n")
                    + "\n(Examples/Scenarios/demo-live.json and demo-vod.json are stories it plays.)",
                exitCode: 2)
        }
    }

    /// The stream's path on the origin, `{viewer}` for each participant's name.
    package var streamPath: String { "\(isLive ? "live" : "vod")/\(stream)/{viewer}/main.m3u8" }

    /// `interlude join`'s arguments for `member`.
    package func joinArguments(_ member: Member, invitation: String, tracePath: String) -> [String] {
        var arguments = ["join", invitation, "--name", member.name, "--policy", policy, "--trace", tracePath,
                         "--duration", String(format: "%.3f", DemoSummary.seconds(member.duration)), "--quiet"]
        if member.driftPPM != 0 { arguments += ["--clock-drift-ppm", "\(member.driftPPM)"] }
        return arguments
    }

    /// The policy in words, for the display.
    package var policyDescription: String {
        policy == "waiting" ? "waiting policy: the group waits for everyone's ads" : "default policy: nobody waits for ads"
    }
}
