import HLSInterstitials
import MediaTime
import PlayerEngine
import PlayerInterface

/// What the keys of `interlude watch` do, in mpv's spirit: space plays or pauses, ← and → step
/// five seconds along the integrated timeline, `[` and `]` step the rate down and up, `s` skips
/// the break when it may be skipped, `i` shows or hides the info panel, `q` quits.
///
/// Pure: the shell feeds it the player's state and the keys, and performs the actions it returns.
/// Steps and skips go through a ``PlayerViewControllerStateMachine`` over the app's one player
/// (and so through its transport bar), so the restrictions of the break playing (`X-RESTRICT`)
/// are honoured the way the standard controls honour them, and a refusal becomes a ``Notice`` the
/// screen shows for a few seconds.
package struct WatchControlStateMachine: Sendable {
    /// A key the player acts on.
    package enum Key: Sendable, Hashable, CaseIterable {
        case playPause
        case seekBackward
        case seekForward
        case slower
        case faster
        case skip
        case toggleInfo
        case quit
    }

    /// What the shell must do to the player (or to itself).
    package enum Action: Sendable, Hashable {
        /// Play at this rate.
        case play(rate: Double)
        /// Pause.
        case pause
        /// Play on at this rate (the player is playing).
        case setRate(Double)
        /// Seek.
        case seek(PlaybackMachine.SeekTarget)
        /// Skip the break playing.
        case skipCurrentBreak
        /// End the session.
        case quit
    }

    /// A short message about the last key, shown under the status line.
    package enum Notice: Sendable, Hashable {
        /// The transport bar refused a step or a skip.
        case refused(TransportBarStateMachine.Refusal)
        /// The rate is now this (shown even while paused: it applies on play).
        case rate(Double)
        /// A step is under way to this integrated time.
        case seeking(to: MediaTime)
        /// A step past an `X-RESTRICT=JUMP` break: the break plays first.
        case playingBreakFirst(eventID: String)
        /// The break was skipped.
        case skipped(eventID: String)
    }

    /// How long a notice stays on screen, in host time.
    package static let noticeDuration: Duration = .seconds(4)
    /// How far ← and → step.
    package static let step = MediaTime(seconds: 5)
    /// The rates `[` and `]` step through.
    package static let rates: [Double] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 4]

    /// Whether the info panel shows.
    package private(set) var isInfoShown = false
    /// The rate playback runs at when playing (space resumes at it).
    package private(set) var preferredRate: Double = 1
    /// The view controller over the session's player, which `watch` names 0.
    private var viewController: PlayerViewControllerStateMachine = {
        var machine = PlayerViewControllerStateMachine()
        _ = machine.handle(.playerReplaced(id: 0), at: .zero)
        return machine
    }()
    private var snapshot: IntegratedTimeline.Snapshot?
    private var notice: (notice: Notice, expiry: Duration)?

    package init() {}

    /// The notice showing at `hostTime`, if any.
    package func notice(at hostTime: Duration) -> Notice? {
        guard let notice, hostTime < notice.expiry else { return nil }
        return notice.notice
    }

    /// Takes in the player's state (each time the screen is painted): the transport bar follows
    /// its snapshot.
    package mutating func update(_ state: PlayerState) {
        guard let snapshot = state.snapshot, snapshot != self.snapshot else { return }
        self.snapshot = snapshot
        _ = viewController.handle(.playerChanged(id: 0, snapshot: snapshot, isPaused: state.rate == 0), at: state.hostTime)
    }

    /// Handles `key` with the player as `state` shows it now.
    package mutating func handle(_ key: Key, state: PlayerState) -> [Action] {
        update(state)
        switch key {
        case .playPause:
            return state.rate == 0 ? [.play(rate: preferredRate)] : [.pause]
        case .seekBackward, .seekForward:
            let delta = key == .seekForward ? Self.step : -Self.step
            return perform(viewController.handle(.command(.step(by: delta)), at: state.hostTime), state: state)
        case .slower, .faster:
            if let event = state.currentEvent, event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) {
                show(.refused(.restricted(eventID: event.identifier)), at: state.hostTime)
                return []
            }
            let index = Self.rates.firstIndex { $0 >= preferredRate } ?? Self.rates.count - 1
            let next = key == .faster ? min(index + 1, Self.rates.count - 1) : max(index - 1, 0)
            preferredRate = Self.rates[next]
            show(.rate(preferredRate), at: state.hostTime)
            return state.rate == 0 ? [] : [.setRate(preferredRate)]
        case .skip:
            return perform(viewController.handle(.command(.skipBreak), at: state.hostTime), state: state)
        case .toggleInfo:
            isInfoShown.toggle()
            return []
        case .quit:
            return [.quit]
        }
    }

    /// The player's actions for the view controller's, with a notice for what the user should know.
    private mutating func perform(_ controllerActions: [PlayerViewControllerStateMachine.Action], state: PlayerState) -> [Action] {
        var actions: [Action] = []
        for action in controllerActions {
            switch action {
            case .send(.seek(let position), _):
                switch position {
                case .primary(let time): actions.append(.seek(.primary(time)))
                case .interstitial(let eventID, let offset): actions.append(.seek(.interstitial(eventID: eventID, offset: offset)))
                }
                if let time = snapshot?.timelineTime(for: position) { show(.seeking(to: time), at: state.hostTime) }
            case .send(.playBreakFirst(let eventID, let then), _):
                // An integrated seek past a JUMP-restricted break plays the break, then goes on.
                if let time = snapshot?.timelineTime(for: then) { actions.append(.seek(.integrated(time))) }
                show(.playingBreakFirst(eventID: eventID), at: state.hostTime)
            case .send(.skipCurrentBreak(let eventID), _):
                actions.append(.skipCurrentBreak)
                show(.skipped(eventID: eventID), at: state.hostTime)
            case .refused(let refusal):
                show(.refused(refusal), at: state.hostTime)
            case .send(.play, _), .send(.pause, _), .standardControls, .customControls, .show, .hide, .scheduleWake:
                // Space is handled here with the rate ladder; the screen paints from the state.
                break
            }
        }
        return actions
    }

    private mutating func show(_ notice: Notice, at hostTime: Duration) {
        self.notice = (notice, hostTime + Self.noticeDuration)
    }
}
