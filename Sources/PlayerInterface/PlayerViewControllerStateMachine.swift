import HLSInterstitials
import MediaTime

/// The player view controller (S3.1, S3.5), with `AVPlayerViewController`'s division of labour:
/// the app owns the player and hands it to the controller (its `player` property), and the
/// controller never makes one of its own. Over that player it shows the controls, the transport
/// bar and the overlays, and it turns what the user does into commands for that player alone.
///
/// The controls are the standard ones (the controller's transport bar), the app's own
/// (``ControlsStyle/custom``: the app draws them from the same ``TransportBar`` model and the
/// standard bar is never drawn) or none (`showsPlaybackControls = false`). Whoever draws them, the
/// standard behaviours stay the controller's: a step, a scrub or a skip goes through
/// ``TransportBarStateMachine``, so the current break's `X-RESTRICT` holds for custom controls as
/// for the standard ones; the controls come up on activity and go after a while of none unless
/// playback is paused; the persistent overlay elements, the custom overlay and its hint follow
/// ``OverlayStateMachine``.
///
/// The app names its player with an identifier of its choosing; a state of a player the controller
/// no longer shows (one replaced a moment ago) is ignored. Pure: inputs carry the host time.
public struct PlayerViewControllerStateMachine: Sendable {
    /// Who draws the playback controls.
    public enum ControlsStyle: Sendable, Hashable, CaseIterable {
        /// The controller's own transport bar and buttons.
        case standard
        /// The app's controls, drawn from the model the controller hands over.
        case custom
        /// No playback controls (a splash video, a kiosk): the user's commands, if the app
        /// passes any on, still act.
        case none
    }

    /// What the user did, through the standard controls or the app's.
    public enum Command: Sendable, Hashable {
        /// Play if paused, pause if playing.
        case playPause
        /// Step from the current time on the integrated timeline (a key, a remote's button).
        case step(by: MediaTime)
        /// Skip the break playing.
        case skipBreak
        /// Start scrubbing.
        case beginScrub
        /// Move the scrub by this fraction of the bar's width.
        case moveScrub(byFraction: Double)
        /// Change the scrubbing speed.
        case refineScrub(TransportBarStateMachine.Refinement)
        /// Let go: seek where the scrub is.
        case commitScrub
        /// Abandon the scrub.
        case cancelScrub
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The app handed over this player (`nil`: it took its player away).
        case playerReplaced(id: Int?)
        /// A state of the app's player `id`: its integrated timeline's snapshot (`nil` before it
        /// has one) and whether it is paused.
        case playerChanged(id: Int, snapshot: IntegratedTimeline.Snapshot?, isPaused: Bool)
        /// The user gave a command.
        case command(Command)
        /// The user touched, moved the pointer or pressed a key that gives no command.
        case userActivity
        /// The user asked for the app's custom overlay.
        case revealOverlay
        /// The user closed it.
        case dismissOverlay
        /// Host time passed (a scheduled wake).
        case wake
    }

    /// A command for the app's player.
    public enum PlayerCommand: Sendable, Hashable {
        case play
        case pause
        case seek(IntegratedTimeline.Position)
        /// Play this `X-RESTRICT=JUMP` break from its start, then go on to `then`.
        case playBreakFirst(eventID: String, then: IntegratedTimeline.Position)
        case skipCurrentBreak(eventID: String)
    }

    /// What the view, the app's controls and the app's player must do.
    public enum Action: Sendable, Hashable {
        /// Give this command to the player `playerID` (always the one the controller shows).
        case send(PlayerCommand, playerID: Int)
        /// Draw this on the standard controls (a redraw, the break's controls, the playhead,
        /// the scrub preview).
        case standardControls(TransportBarStateMachine.Action)
        /// Hand this to the app's custom controls: the same model the standard ones would draw.
        case customControls(TransportBarStateMachine.Action)
        /// Show a layer (``OverlayStateMachine/Layer/controls`` means the controls of the style
        /// in use).
        case show(OverlayStateMachine.Layer)
        /// Hide a layer.
        case hide(OverlayStateMachine.Layer)
        /// Tell the user a command was refused (no timeline yet, a restricted break, no skip).
        case refused(TransportBarStateMachine.Refusal)
        /// Feed ``Input/wake`` at this host time.
        case scheduleWake(at: Duration)
    }

    /// Who draws the controls.
    public let controlsStyle: ControlsStyle
    /// The app's player on show, by the app's identifier; `nil` before the app hands one over.
    public private(set) var playerID: Int?
    private var bar = TransportBarStateMachine()
    private var overlay: OverlayStateMachine
    private var isPaused = true

    /// A controller with no player yet.
    public init(controlsStyle: ControlsStyle = .standard, hasCustomOverlay: Bool = false, controlsTimeout: Duration = .seconds(5)) {
        self.controlsStyle = controlsStyle
        overlay = OverlayStateMachine(hasCustomOverlay: hasCustomOverlay, controlsTimeout: controlsTimeout)
    }

    /// The layers on screen, bottom to top; with no controls, neither they nor the hint.
    public var visibleLayers: [OverlayStateMachine.Layer] {
        let layers = overlay.visibleLayers
        guard controlsStyle == .none else { return layers }
        return layers.filter { $0 != .controls && $0 != .hint }
    }

    /// The transport bar as the controls show it now (`nil` until the player has a timeline).
    public var transportBar: TransportBar? { bar.bar }

    /// Handles one input at host time `now`.
    public mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        switch input {
        case .playerReplaced(let id):
            guard id != playerID else { return [] }
            playerID = id
            bar = TransportBarStateMachine()
            return []
        case .playerChanged(let id, let snapshot, let paused):
            guard id == playerID else { return [] }
            var actions: [Action] = []
            if paused != isPaused {
                isPaused = paused
                actions += overlayActions(overlay.handle(paused ? .playbackPaused : .playbackResumed, at: now))
            }
            if let snapshot { actions += perform(bar.handle(.snapshot(snapshot))) }
            return actions
        case .command(let command):
            return overlayActions(overlay.handle(.userActivity, at: now)) + perform(command)
        case .userActivity:
            return overlayActions(overlay.handle(.userActivity, at: now))
        case .revealOverlay:
            return overlayActions(overlay.handle(.revealOverlay, at: now))
        case .dismissOverlay:
            return overlayActions(overlay.handle(.dismissOverlay, at: now))
        case .wake:
            return overlayActions(overlay.handle(.wake, at: now))
        }
    }

    private mutating func perform(_ command: Command) -> [Action] {
        switch command {
        case .playPause:
            guard let playerID else { return [] }
            return [.send(isPaused ? .play : .pause, playerID: playerID)]
        case .step(let delta): return perform(bar.handle(.step(by: delta)))
        case .skipBreak: return perform(bar.handle(.skipBreak))
        case .beginScrub: return perform(bar.handle(.beginScrub))
        case .moveScrub(let fraction): return perform(bar.handle(.moveScrub(byFraction: fraction)))
        case .refineScrub(let refinement): return perform(bar.handle(.refineScrub(refinement)))
        case .commitScrub: return perform(bar.handle(.commitScrub))
        case .cancelScrub: return perform(bar.handle(.cancelScrub))
        }
    }

    /// The bar's actions addressed: the player's to the app's player, the view's to the controls
    /// in use (none without controls), refusals to the user.
    private func perform(_ barActions: [TransportBarStateMachine.Action]) -> [Action] {
        barActions.compactMap { action in
            switch action {
            case .seek(let position):
                playerID.map { .send(.seek(position), playerID: $0) }
            case .playBreakFirst(let eventID, let then):
                playerID.map { .send(.playBreakFirst(eventID: eventID, then: then), playerID: $0) }
            case .skipCurrentBreak(let eventID):
                playerID.map { .send(.skipCurrentBreak(eventID: eventID), playerID: $0) }
            case .refused(let refusal):
                .refused(refusal)
            case .redraw, .updateControls, .movePlayhead, .showScrubPreview, .hideScrubPreview:
                switch controlsStyle {
                case .standard: .standardControls(action)
                case .custom: .customControls(action)
                case .none: nil
                }
            }
        }
    }

    /// The overlay's actions, less the controls and the hint when there are no controls.
    private func overlayActions(_ actions: [OverlayStateMachine.Action]) -> [Action] {
        actions.compactMap { action in
            switch action {
            case .show(let layer), .hide(let layer):
                if controlsStyle == .none, layer == .controls || layer == .hint { return nil }
                if case .show = action { return .show(layer) }
                return .hide(layer)
            case .scheduleWake(let time):
                return controlsStyle == .none ? nil : .scheduleWake(at: time)
            }
        }
    }
}
