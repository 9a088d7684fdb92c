import GroupCoordination
import GroupPlayback

/// What `interlude watch --join` makes of its ``GroupSessionParticipant``'s events: the title of
/// the group's item, the others' names (for whom the group waits), a notice for what the user
/// should know (a command the server refused by its role rules, someone joining or leaving, the
/// connection dropping and coming back), and the end of the session when the server refuses the
/// participant for good.
///
/// Pure: the shell feeds it the participant's events and the host time, and performs the actions
/// it returns. What the coordinator does now (playing, paused, waiting, the skew) the shell reads
/// from the participant each time it paints, through ``groupLine(phase:status:skew:others:at:)``.
package struct WatchGroupStateMachine: Sendable {
    /// A message about the group, shown on the notice line for a few seconds.
    package enum Notice: Sendable, Hashable {
        /// The server refused something this participant did (a viewer's play, pause or seek).
        case refused(SessionError)
        /// Someone joined, left, was lost or came back.
        case presence(name: String, role: SessionRole, SessionEvent.Presence.State)
        /// The connection dropped (a reconnection follows).
        case disconnected(reason: String)
        /// The participant is back in the session after a drop.
        case reconnected
    }

    /// What the shell must do.
    package enum Action: Sendable, Hashable {
        /// The server admitted the participant for the first time and the group's item, titled
        /// so, is on the player: play it (the coordinator makes that this participant's intent,
        /// and follows the group once the item is coordinated).
        case play(title: String)
        /// The server refused the participant for good (a bad invitation, an ended session).
        case end(SessionError)
    }

    /// The name this participant gave (the stream's `{viewer}`).
    package let name: String
    /// A title that replaces the stream's (`--title`).
    package let title: String?
    /// Who the participant is in the session, once welcomed.
    package private(set) var welcome: SessionWelcome?
    private var names: [CoordinatedPlaybackParticipant.ID: String] = [:]
    private var notice: (notice: Notice, expiry: Duration)?

    /// A machine for the participant named `name`, its item titled `title` (default: the
    /// session's stream as this participant plays it).
    package init(name: String, title: String? = nil) {
        self.name = name
        self.title = title
    }

    /// The notice showing at `hostTime`, if any.
    package func notice(at hostTime: Duration) -> Notice? {
        guard let notice, hostTime < notice.expiry else { return nil }
        return notice.notice
    }

    /// The name of the participant `id`, as the welcome and the presence events gave it (its
    /// identity when none did).
    package func name(of id: CoordinatedPlaybackParticipant.ID) -> String {
        names[id] ?? id.rawValue
    }

    /// Handles one of the participant's events at host time `now`.
    package mutating func handle(_ event: GroupSessionParticipant.Event, at now: Duration) -> [Action] {
        switch event {
        case .welcomed(let welcome, let isFirst):
            self.welcome = welcome
            for participant in welcome.participants { names[participant.participant] = participant.name }
            names[welcome.participant] = name
            guard isFirst else {
                show(.reconnected, at: now)
                return []
            }
            return [.play(title: title ?? welcome.stream.replacing("{viewer}", with: name))]
        case .presence(let presence):
            names[presence.participant] = presence.name
            show(.presence(name: presence.name, role: presence.role, presence.state), at: now)
        case .refused(let error):
            show(.refused(error), at: now)
        case .disconnected(let reason):
            show(.disconnected(reason: reason), at: now)
        case .stopped(let error):
            return [.end(error)]
        case .driver(.coordinator(.commandNotAllowed)):
            // A viewer's key: its coordinator put the player back where the group is.
            show(.refused(SessionError(code: .forbidden, message: "a viewer cannot play, pause or seek")), at: now)
        case .driver, .playerCommand, .custom:
            break
        }
        return []
    }

    /// The group line's contents now, from what the participant reads: its link's `phase`, the
    /// group's `status`, its `skew` and the number of `others`.
    package func groupLine(phase: GroupSessionLink.Phase, status: PlaybackCoordinatorStateMachine.GroupPlaybackStatus?, skew: Duration?,
                           others: Int, at hostTime: Duration) -> WatchScreen.Group {
        let connection: WatchScreen.Group.Connection = switch phase {
        case .joined: .inSession
        case .connecting, .disconnected: welcome == nil ? .connecting : .reconnecting
        case .stopped: .stopped
        }
        let shownStatus: WatchScreen.Group.Status? = status.map { status in
            switch status.status {
            case .playing: .playing
            case .paused: .paused
            case .waiting: .waiting(for: status.blockers.map { WatchScreen.Group.Blocker(name: name(of: $0.participant), cause: $0.cause) })
            }
        }
        return WatchScreen.Group(session: welcome?.session, name: name, role: welcome?.role, connection: connection, status: shownStatus,
                                 skew: skew, others: others, notice: notice(at: hostTime))
    }

    private mutating func show(_ notice: Notice, at now: Duration) {
        self.notice = (notice, now + WatchControlStateMachine.noticeDuration)
    }
}
