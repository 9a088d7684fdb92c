/// What is drawn over the video besides the poster (S3.5), with the layering of
/// `AVPlayerViewController`: persistent, non-interactive elements (its `contentOverlayView`: a
/// channel logo, a watermark) always on screen between the video and the controls; the standard
/// controls, shown on activity and hidden after a while of none unless playback is paused; and an
/// app's custom interactive overlay (its `customOverlayViewController`), revealed on demand. While
/// the controls are up and a custom overlay exists, a hint tells the user how to reveal it. The
/// overlay takes the input while shown and the controls step aside; dismissing it brings the
/// controls back with a fresh timeout.
///
/// Pure: inputs carry the host time; ``Action/scheduleWake(at:)`` asks for a ``Input/wake``.
public struct OverlayStateMachine: Sendable {
    /// A layer of the view, bottom to top.
    public enum Layer: Sendable, Hashable, CaseIterable {
        /// The persistent, non-interactive elements.
        case persistentElements
        /// The standard controls (transport bar, buttons).
        case controls
        /// The hint that a custom overlay can be revealed.
        case hint
        /// The custom interactive overlay.
        case customOverlay
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The user touched, moved the pointer or pressed a key that is not the overlay's.
        case userActivity
        /// The user asked for the custom overlay (the key or gesture the hint names).
        case revealOverlay
        /// The user closed the custom overlay.
        case dismissOverlay
        /// Playback paused (the controls then stay up).
        case playbackPaused
        /// Playback resumed (the controls hide after the timeout again).
        case playbackResumed
        /// Host time passed (a scheduled wake).
        case wake
    }

    /// What the view must do.
    public enum Action: Sendable, Hashable {
        /// Show a layer.
        case show(Layer)
        /// Hide a layer.
        case hide(Layer)
        /// Feed ``Input/wake`` at this host time.
        case scheduleWake(at: Duration)
    }

    private enum State: Sendable, Hashable {
        /// Only the persistent elements over the video.
        case quiet
        /// The controls are up; playing, they go at `hideAt`.
        case controls(hideAt: Duration)
        /// The custom overlay is up and takes the input.
        case overlay
    }

    /// Whether the app provides a custom overlay (and so a hint).
    public let hasCustomOverlay: Bool
    /// How long the controls stay without activity while playing.
    public let controlsTimeout: Duration
    private var state: State = .quiet
    private var isPaused = false

    /// A view with persistent elements, the standard controls and, when `hasCustomOverlay`, a
    /// custom overlay; controls hide after `controlsTimeout` (5 s by default) of no activity.
    public init(hasCustomOverlay: Bool, controlsTimeout: Duration = .seconds(5)) {
        self.hasCustomOverlay = hasCustomOverlay
        self.controlsTimeout = controlsTimeout
    }

    /// The layers on screen now, bottom to top. The persistent elements are always there.
    public var visibleLayers: [Layer] {
        switch state {
        case .quiet: [.persistentElements]
        case .controls: hasCustomOverlay ? [.persistentElements, .controls, .hint] : [.persistentElements, .controls]
        case .overlay: [.persistentElements, .customOverlay]
        }
    }

    /// Handles one input at host time `now`.
    public mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        switch input {
        case .userActivity:
            switch state {
            case .overlay: return []
            case .controls: return keepControls(now: now)
            case .quiet: return showControls(now: now)
            }
        case .revealOverlay:
            guard hasCustomOverlay else { return [] }
            switch state {
            case .overlay: return []
            case .controls:
                state = .overlay
                return [.hide(.hint), .hide(.controls), .show(.customOverlay)]
            case .quiet:
                state = .overlay
                return [.show(.customOverlay)]
            }
        case .dismissOverlay:
            guard state == .overlay else { return [] }
            return [.hide(.customOverlay)] + showControls(now: now)
        case .playbackPaused:
            isPaused = true
            return state == .quiet ? showControls(now: now) : []
        case .playbackResumed:
            isPaused = false
            guard case .controls = state else { return [] }
            return keepControls(now: now)
        case .wake:
            guard case .controls(let hideAt) = state, !isPaused, !(now < hideAt) else { return [] }
            state = .quiet
            return hasCustomOverlay ? [.hide(.hint), .hide(.controls)] : [.hide(.controls)]
        }
    }

    private mutating func showControls(now: Duration) -> [Action] {
        state = .controls(hideAt: now + controlsTimeout)
        var actions: [Action] = [.show(.controls)]
        if hasCustomOverlay { actions.append(.show(.hint)) }
        return actions + [.scheduleWake(at: now + controlsTimeout)]
    }

    private mutating func keepControls(now: Duration) -> [Action] {
        state = .controls(hideAt: now + controlsTimeout)
        return [.scheduleWake(at: now + controlsTimeout)]
    }
}
