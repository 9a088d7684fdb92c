import Foundation
import GroupCoordination
import GroupPlayback
import GroupWire
import HLSInterstitials
import MediaTime
import NetworkIO
import PlayerEngine
import PlayerInterface
import VirtualTime

/// `interlude join`: a headless participant of a watch-together session.
enum JoinCommand: Subcommand {
    static let spec = CommandSpec(
        name: "join",
        abstract: "Take part in a watch-together session: play its stream, with your own ads, in step with the group.",
        discussion: """
            Connects to the group server named in the invitation (printed by `interlude session create`),
            plays the session's stream with this participant's own ads ({viewer} in the stream becomes
            --name, so `interlude origin` serves that viewer's ads), and stays in step with the others
            through the group's clock and commands: when the group plays, pauses or seeks, so does this
            player; when this participant is in an ad the others are not, it catches up afterwards (or,
            with --policy waiting, the group waits for it). A viewer's own play, pause and seek are
            refused by the server.
            The terminal line shows the group's state, who it waits for, and this player's skew against
            where the group expects it. A dropped connection is resumed without moving anyone; Ctrl-C
            leaves the session.
            --trace FILE writes one JSON line per event and ten position samples per second, each with
            the real-time clock (CLOCK_REALTIME, ns), so several participants' traces can be compared
            against the same clock.
            --action TIME:VERB[:ARG] does what this participant's user would, TIME seconds after join
            started (once the item is coordinated with the group): a seek, pause or rate change by an
            owner or a controller is the group's, and everyone follows; a viewer's is refused.
            """,
        arguments: [
            .init(name: "invitation", help: "The invitation URL (http://HOST:PORT/join#TOKEN), or the bare token with --server."),
        ],
        options: GroupJoinOptions.options + [
            .init(long: "trace", short: nil, valueName: "file", help: "Write events and position samples as JSON lines (- for stdout)."),
            .init(long: "duration", short: nil, valueName: "seconds", help: "Leave after this many seconds."),
            .init(long: "action", short: nil, valueName: "TIME:VERB[:ARG]",
                  help: "At TIME (seconds since the start), act as the user: \(PlayAction.grammar).", isRepeatable: true),
            .init(long: "clock-drift-ppm", short: nil, valueName: "ppm", help: "Run this player's clock fast (or slow, negative) by parts per million, as a real crystal may."),
            .init(long: "quiet", short: "q", valueName: nil, help: "No terminal line."),
        ],
        examples: [
            "interlude join 'http://127.0.0.1:7400/join#v1.k1.…' --name bob",
            "interlude join \"$VIEWER_INVITATION\" --name charlie --policy waiting --trace charlie.jsonl",
            "interlude join \"$OWNER_INVITATION\" --name alice --action 20:seek:90 --action 30:pause --action 35:play",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let options = try GroupJoinOptions(invitation: arguments.positionals[0], arguments, command: spec)
        let (server, name) = (options.server, options.name)
        let configuration = options.makeConfiguration()
        let duration = try arguments.value("duration").map { value -> Duration in
            guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                throw UsageError(message: "--duration must be a number of seconds up to a day, not '\(value)'", command: spec)
            }
            return .milliseconds(Int64(seconds * 1000))
        }
        let drift = try arguments.value("clock-drift-ppm").map { value -> Double in
            guard let ppm = Double(value), abs(ppm) <= 1_000 else {
                throw UsageError(message: "--clock-drift-ppm must be within ±1000, not '\(value)'", command: spec)
            }
            return ppm
        } ?? 0
        let actions = try arguments.values("action").map { text in
            do throws(PlayAction.SyntaxError) {
                return try PlayAction(parsing: text)
            } catch {
                throw UsageError(message: error.message, command: spec)
            }
        }.enumerated().sorted { ($0.element.hostTime, $0.offset) < ($1.element.hostTime, $1.offset) }.map(\.element)
        let trace = try arguments.value("trace").map { try JoinTrace(path: $0, io: io) }
        let clock = ScaledClock(base: ContinuousClock(), speed: 1 + drift / 1_000_000)
        let player = Player(clock: clock, loader: HTTPResourceLoader(), configuration: PlayerConfiguration())
        let participant = GroupSessionParticipant(player: player, clock: clock, configuration: configuration)
        let showsLine = !arguments.flag("quiet") && arguments.value("trace") != "-"
        io.writeError("join: connecting to \(server) as \(name)\n")

        let events = participant.events()
        let outcome = await withInterruption {
            participant.leave()
        } _: {
            await withTaskGroup(of: JoinOutcome.self) { group in
                group.addTask {
                    await participant.run()
                    return .ended
                }
                group.addTask {
                    for await event in events {
                        trace?.write(event)
                        switch event {
                        case .welcomed(let welcome, let isFirst):
                            if isFirst {
                                io.writeError("join: in session \(welcome.session) as \(welcome.participant) (\(welcome.role.rawValue)); playing \(options.streamURL(welcome))\n")
                                player.play()
                            } else {
                                io.writeError("\njoin: reconnected (version \(welcome.version))\n")
                            }
                        case .stopped(let error):
                            io.writeError("\njoin: refused by the server: \(error.code): \(error.message)\n")
                            return .refused(error)
                        case .refused(let error):
                            io.writeError("\njoin: the server refused: \(error.code): \(error.message)\n")
                        case .disconnected(let reason):
                            io.writeError("\njoin: disconnected (\(reason)); reconnecting\n")
                        case .presence(let presence):
                            io.writeError("\njoin: \(presence.name) (\(presence.participant), \(presence.role.rawValue)) \(presence.state.rawValue)\n")
                        default:
                            break
                        }
                    }
                    return .ended
                }
                group.addTask {
                    let started = ContinuousClock.now
                    var next = 0
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .milliseconds(100))
                        while next < actions.count, !(player.hostTime < actions[next].hostTime), participant.isCoordinatingItem {
                            let action = actions[next]
                            next += 1
                            let note = action.perform(on: player)
                            trace?.write(action, note: note)
                            io.writeError("\njoin: \(action)\(note.map { " (\($0))" } ?? "")\n")
                        }
                        trace?.sample(participant)
                        if showsLine { io.writeError("\r" + statusLine(participant) + "\u{1B}[K") }
                        if let duration, ContinuousClock.now - started >= duration {
                            participant.leave()
                            return .timeUp
                        }
                    }
                    return .ended
                }
                let first = await group.next() ?? .ended
                participant.leave()
                group.cancelAll()
                return first
            }
        }
        trace?.close()
        if showsLine { io.writeError("\n") }
        if case .refused = outcome { return 1 }
        return 0
    }

    enum JoinOutcome: Sendable {
        case ended
        case timeUp
        case refused(SessionError)
    }

    /// One terminal line: who, the group's state, whom it waits for, the skew.
    static func statusLine(_ participant: GroupSessionParticipant) -> String {
        guard let welcome = participant.welcome else { return "connecting…" }
        var parts = ["\(welcome.participant) (\(welcome.role.rawValue))"]
        switch participant.phase {
        case .joined: break
        case .connecting, .disconnected: parts.append("reconnecting")
        case .stopped: parts.append("stopped")
        }
        let player = participant.player
        switch player.position {
        case .primary(let time): parts.append("at \(TimeFormat.elapsed(time, fractionDigits: 3))")
        case .interstitial(let id, let offset): parts.append("in break \(id) +\(TimeFormat.elapsed(offset, fractionDigits: 3))")
        }
        if let status = participant.groupStatus {
            switch status.status {
            case .paused: parts.append("group paused")
            case .playing: parts.append("group playing")
            case .waiting:
                let names = status.blockers.map { blocker -> String in
                    let why: String = switch blocker.cause {
                    case .notReady: "not ready"
                    case .suspension(let reason): reason == .playingInterstitial ? "ad" : reason.rawValue
                    }
                    return "\(blocker.participant) (\(why))"
                }
                parts.append("group waits for \(names.joined(separator: ", "))")
            }
        }
        if let skew = participant.skew {
            parts.append(String(format: "skew %+.1f ms", Double(skew / .microseconds(1)) / 1000))
        }
        if let rtt = participant.clockEstimate?.minimumRoundTripTime {
            parts.append(String(format: "rtt %.1f ms", Double(rtt / .microseconds(1)) / 1000))
        }
        parts.append("\(participant.otherParticipants.count) others")
        return parts.joined(separator: " · ")
    }
}
