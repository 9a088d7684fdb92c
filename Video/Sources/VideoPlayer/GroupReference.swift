import Foundation
import GroupCoordination
import GroupPlayback
import GroupWire
import HLSInterstitials
import MediaTime
import NetworkIO
import PlayerEngine

/// Where the group has this viewer: the participant stack of `interlude join` (a headless
/// ``Player`` over HTTP bound to a ``GroupSessionParticipant``), whose position the video
/// follows through a ``GroupFollower``. The player plays the session's stream under this
/// viewer's name, so its breaks are the ones the video's schedule has.
public final class GroupReference: Sendable {
    public let invitation: VideoPlayerOptions.GroupInvitation
    let participant: GroupSessionParticipant
    var player: Player { participant.player }

    /// Why the session could not be joined.
    public struct JoinError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(invitation: VideoPlayerOptions.GroupInvitation) {
        self.invitation = invitation
        let clock = ContinuousClock()
        let player = Player(clock: clock, loader: HTTPResourceLoader(), configuration: PlayerConfiguration())
        var configuration = GroupSessionParticipant.Configuration(server: invitation.server, token: invitation.token, name: invitation.name) { welcome in
            // Everyone plays the same item under its own URL (its own ads): the session's stream
            // names it for the coordinator.
            PlayerItem(url: Self.streamURL(welcome, name: invitation.name), contentIdentifier: welcome.stream)
        }
        if invitation.policy == .waiting {
            configuration.suspensionReasonsThatTriggerWaiting = [.userIsChangingCurrentTime, .playingInterstitial, .stallRecovery]
        }
        if invitation.server.hasPrefix("wss://") { configuration.tls = WebSocketClient.TLS() }
        participant = GroupSessionParticipant(player: player, clock: clock, configuration: configuration)
    }

    static func streamURL(_ welcome: SessionWelcome, name: String) -> String {
        welcome.stream.replacingOccurrences(of: "{viewer}", with: name)
    }

    /// Takes part in the session while `body` runs with the stream's URL (once the server has
    /// admitted this viewer, within `admission`); leaves the session when it returns. The
    /// session's events go to `say`.
    public func run<T: Sendable>(admission: Duration = .seconds(20), say: @escaping @Sendable (String) -> Void,
                                 _ body: @Sendable (String) async throws -> T) async throws -> T {
        let welcomes = participant.events()
        let events = participant.events()
        let participant = participant
        let player = player
        let name = invitation.name
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await participant.run()
                return nil
            }
            group.addTask {
                for await event in events {
                    switch event {
                    case .welcomed(let welcome, let isFirst):
                        say(isFirst ? "joined session \(welcome.session) as \(welcome.participant) (\(welcome.role.rawValue))"
                                    : "reconnected (version \(welcome.version))")
                    case .stopped(let error): say("refused by the server: \(error.code): \(error.message)")
                    case .refused(let error): say("the server refused: \(error.code): \(error.message)")
                    case .disconnected(let reason): say("disconnected (\(reason)); reconnecting")
                    case .presence(let presence): say("\(presence.name) (\(presence.participant), \(presence.role.rawValue)) \(presence.state.rawValue)")
                    default: break
                    }
                }
                return nil
            }
            defer {
                participant.leave()
                group.cancelAll()
            }
            let url = try await withThrowingTaskGroup(of: String?.self) { admitted in
                admitted.addTask {
                    for await event in welcomes {
                        switch event {
                        case .welcomed(let welcome, _): return Self.streamURL(welcome, name: name)
                        case .stopped(let error): throw JoinError(description: "cannot join: \(error.code): \(error.message)")
                        default: continue
                        }
                    }
                    return nil
                }
                admitted.addTask {
                    try await Task.sleep(for: admission)
                    return nil
                }
                defer { admitted.cancelAll() }
                guard let first = try await admitted.next(), let url = first else {
                    throw JoinError(description: "cannot join: no welcome from \(invitation.server) within \(admission)")
                }
                return url
            }
            player.play()
            return try await body(url)
        }
    }

    /// Where the reference is now, and the host time it was read at.
    var now: (reference: GroupFollower.Reference, hostTime: Duration) {
        let state = player.state
        // Held by the group or paused: the video pauses. The reference's own waits for its
        // buffer (it loads the media too) are not the video's, which has a buffer of its own; in
        // a break primary waits while the break plays.
        let isPlaying: Bool = switch state.timeControlStatus {
        case .playing: true
        case .paused, .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback), .waitingToPlayAtSpecifiedRate(.noItemToPlay): false
        case .waitingToPlayAtSpecifiedRate(.interstitialEvent), .waitingToPlayAtSpecifiedRate(.toMinimizeStalls),
             .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate): true
        }
        return (GroupFollower.Reference(position: state.position, isPlaying: isPlaying, rate: state.rate), state.hostTime)
    }

    /// The group's state for the strip and the samples: `group playing`, `group waits for bob (ad)`.
    var groupLine: String? {
        guard let status = participant.groupStatus else { return nil }
        switch status.status {
        case .paused: return "group paused"
        case .playing: return "group playing"
        case .waiting: return "group waits for " + status.blockers.map { "\($0.participant)" }.joined(separator: ", ")
        }
    }

    // MARK: Keys, for the group

    func play() { player.play() }
    func pause() { player.pause() }
    /// A seek by `step` on the integrated timeline: the group's when the role allows it.
    func seek(by step: MediaTime) {
        player.startSeek(to: MediaTime.max(.zero, player.integratedCurrentTime + step), integrated: true)
    }
}
