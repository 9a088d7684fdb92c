/// How the player view is presented (S3.2, S3.3, S3.7), with the callbacks of
/// `AVPlayerViewControllerDelegate` and `AVPictureInPictureControllerDelegate`:
///
/// - Full screen is entered and left through a transition that first announces itself (will begin
///   / will end, carrying a transition the delegate can animate alongside) and then ends with an
///   outcome, completed or cancelled, like the context an animation coordinator hands its
///   completion: an interactive dismissal that the user abandons half way is a cancelled
///   will-end, after which the view is still full screen.
/// - Full screen can be entered when playback begins and left when playback ends, like
///   `entersFullScreenWhenPlaybackBegins` and `exitsFullScreenWhenPlaybackEnds`, except when the
///   user scrubbed to the end: the end they went to on purpose does not dismiss the view.
/// - Picture in picture starts by itself when the app goes to the background while playing (like
///   `canStartPictureInPictureAutomaticallyFromInline`), and backgrounding never pauses playback
///   then; without picture in picture a backgrounded video pauses. Stopping picture in picture to
///   go back to the app asks the delegate to restore its interface and waits for the completion it
///   must call; if that completion does not come within ``Configuration/restoreTimeout`` the
///   machine reports the timeout, stops picture in picture unrestored and ignores a late
///   completion.
///
/// Pure: inputs carry the host time (a `Duration` from the clock's zero) where time matters, and
/// return the actions to perform; ``Action/scheduleWake(at:)`` asks for a ``Input/wake`` then.
public struct PresentationStateMachine: Sendable {
    /// What the machine is configured to do by itself.
    public struct Configuration: Sendable, Hashable {
        /// Enter full screen when playback begins (`entersFullScreenWhenPlaybackBegins`).
        public var entersFullScreenWhenPlaybackBegins: Bool
        /// Leave full screen when playback reaches the end (`exitsFullScreenWhenPlaybackEnds`).
        public var exitsFullScreenWhenPlaybackEnds: Bool
        /// Whether picture in picture is offered at all (`allowsPictureInPicturePlayback`).
        public var allowsPictureInPicturePlayback: Bool
        /// Start picture in picture when the app goes to the background while playing
        /// (`canStartPictureInPictureAutomaticallyFromInline`).
        public var startsPictureInPictureAutomatically: Bool
        /// How long the delegate has to call the restore completion.
        public var restoreTimeout: Duration

        /// A configuration; by default nothing is automatic but picture in picture on backgrounding,
        /// and the delegate has 5 s to restore its interface.
        public init(entersFullScreenWhenPlaybackBegins: Bool = false, exitsFullScreenWhenPlaybackEnds: Bool = false,
                    allowsPictureInPicturePlayback: Bool = true, startsPictureInPictureAutomatically: Bool = true,
                    restoreTimeout: Duration = .seconds(5)) {
            self.entersFullScreenWhenPlaybackBegins = entersFullScreenWhenPlaybackBegins
            self.exitsFullScreenWhenPlaybackEnds = exitsFullScreenWhenPlaybackEnds
            self.allowsPictureInPicturePlayback = allowsPictureInPicturePlayback
            self.startsPictureInPictureAutomatically = startsPictureInPictureAutomatically
            self.restoreTimeout = restoreTimeout
        }
    }

    /// What caused a transition.
    public enum Trigger: Sendable, Hashable {
        /// The user pressed a button.
        case user
        /// The user's gesture drives it (a swipe to dismiss) and may abandon it.
        case interactiveGesture
        /// Playback began (automatic full screen).
        case playbackBegan
        /// Playback reached the end (automatic exit).
        case playbackEnded
        /// The app went to the background (automatic picture in picture).
        case appBackgrounded
    }

    /// A presentation change in flight: announced by a will-begin, will-end or will-start action,
    /// finished by ``Input/transitionFinished(_:cancelled:)``.
    public struct Transition: Sendable, Hashable {
        /// Tells this transition from earlier ones; a finish for another one is ignored.
        public var id: Int
        /// The presentation before.
        public var from: PresentationMode
        /// The presentation asked for.
        public var to: PresentationMode
        /// What caused it.
        public var trigger: Trigger
    }

    /// How a transition ended (an animation context's `isCancelled`).
    public enum Outcome: Sendable, Hashable {
        /// The view is now presented as asked.
        case completed
        /// The view stays as it was (an abandoned interactive dismissal, a picture in picture that
        /// failed to start).
        case cancelled
    }

    /// A request to restore the app's interface as picture in picture stops
    /// (`restoreUserInterfaceForPictureInPictureStop(completionHandler:)`).
    public struct RestoreRequest: Sendable, Hashable {
        /// Tells this request from earlier ones.
        public var id: Int
        /// The presentation to go back to.
        public var returnTo: PresentationMode
        /// The host time by which the completion must be called.
        public var deadline: Duration
    }

    /// Why the machine asks for a pause.
    public enum PauseReason: Sendable, Hashable {
        /// The app went to the background with no picture in picture to keep the video on screen.
        case backgroundedWithoutPictureInPicture
        /// The user closed the picture-in-picture window.
        case pictureInPictureClosed
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The user asked for full screen.
        case enterFullScreen
        /// The user asked to leave full screen (the Done button).
        case exitFullScreen
        /// The user began a dismissal gesture; it ends completed or cancelled.
        case beginInteractiveDismissal
        /// The transition's animation ended, completed or cancelled (for picture in picture:
        /// did start, or failed to start).
        case transitionFinished(id: Int, cancelled: Bool)
        /// Playback began (the rate went from 0 to non-zero).
        case playbackBegan
        /// Playback paused.
        case playbackPaused
        /// Playback reached the end of the item.
        case playbackEnded
        /// The user's seek finished; `reachedEnd` when it landed at the end of the item.
        case userSeekFinished(reachedEnd: Bool)
        /// The app went to the background.
        case appDidEnterBackground
        /// The app came back to the foreground.
        case appWillEnterForeground
        /// The user asked the picture-in-picture window to go back to the app.
        case restoreFromPictureInPicture
        /// The user closed the picture-in-picture window.
        case closePictureInPicture
        /// The delegate called the restore completion.
        case restoreCompleted(id: Int, restored: Bool)
        /// Host time passed (a scheduled wake).
        case wake
    }

    /// What the view, its delegate and the player must do.
    public enum Action: Sendable, Hashable {
        /// `willBeginFullScreenPresentation(animationCoordinator:)`.
        case willBeginFullScreenPresentation(Transition)
        /// `willEndFullScreenPresentation(animationCoordinator:)`.
        case willEndFullScreenPresentation(Transition)
        /// `pictureInPictureControllerWillStartPictureInPicture`.
        case willStartPictureInPicture(Transition)
        /// The transition's completion with its outcome.
        case transitionEnded(Transition, Outcome)
        /// Ask the delegate to restore its interface and to answer with
        /// ``Input/restoreCompleted(id:restored:)`` before the request's deadline.
        case restoreUserInterface(RestoreRequest)
        /// The delegate did not answer in time; picture in picture stops anyway.
        case restoreTimedOut(RestoreRequest)
        /// `pictureInPictureControllerDidStopPictureInPicture`, with whether the interface was
        /// restored.
        case pictureInPictureStopped(restored: Bool)
        /// Pause the player.
        case pause(PauseReason)
        /// Feed ``Input/wake`` at this host time.
        case scheduleWake(at: Duration)
    }

    private enum State: Sendable, Hashable {
        case inline
        case fullScreen
        case pictureInPicture(returnTo: PresentationMode)
        case transitioning(Transition)
        case restoring(RestoreRequest)
    }

    /// The configuration.
    public let configuration: Configuration
    private var state: State = .inline
    private var isPlaying = false
    /// Whether the last seek of the user's landed at the end: then reaching the end does not
    /// leave full screen.
    private var userScrubbedToEnd = false
    private var nextID = 1

    /// An inline view, not playing.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The presentation now: while a transition is in flight, the one it started from (it has not
    /// completed); while restoring from picture in picture, picture in picture.
    public var mode: PresentationMode {
        switch state {
        case .inline: .inline
        case .fullScreen: .fullScreen
        case .pictureInPicture, .restoring: .pictureInPicture
        case .transitioning(let transition): transition.from
        }
    }

    /// The transition in flight, if any.
    public var transition: Transition? {
        if case .transitioning(let transition) = state { return transition }
        return nil
    }

    /// Handles one input at host time `now`.
    public mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        switch input {
        case .enterFullScreen:
            return state == .inline ? begin(from: .inline, to: .fullScreen, trigger: .user) : []
        case .exitFullScreen:
            return state == .fullScreen ? begin(from: .fullScreen, to: .inline, trigger: .user) : []
        case .beginInteractiveDismissal:
            return state == .fullScreen ? begin(from: .fullScreen, to: .inline, trigger: .interactiveGesture) : []
        case .transitionFinished(let id, let cancelled):
            return finish(id: id, cancelled: cancelled)
        case .playbackBegan:
            isPlaying = true
            userScrubbedToEnd = false
            guard configuration.entersFullScreenWhenPlaybackBegins, state == .inline else { return [] }
            return begin(from: .inline, to: .fullScreen, trigger: .playbackBegan)
        case .playbackPaused:
            isPlaying = false
            return []
        case .playbackEnded:
            isPlaying = false
            guard configuration.exitsFullScreenWhenPlaybackEnds, state == .fullScreen, !userScrubbedToEnd else { return [] }
            return begin(from: .fullScreen, to: .inline, trigger: .playbackEnded)
        case .userSeekFinished(let reachedEnd):
            userScrubbedToEnd = reachedEnd
            return []
        case .appDidEnterBackground:
            return enterBackground()
        case .appWillEnterForeground, .restoreFromPictureInPicture:
            guard case .pictureInPicture(let returnTo) = state else { return [] }
            let request = RestoreRequest(id: takeID(), returnTo: returnTo, deadline: now + configuration.restoreTimeout)
            state = .restoring(request)
            return [.restoreUserInterface(request), .scheduleWake(at: request.deadline)]
        case .closePictureInPicture:
            guard case .pictureInPicture = state else { return [] }
            state = .inline
            isPlaying = false
            return [.pictureInPictureStopped(restored: false), .pause(.pictureInPictureClosed)]
        case .restoreCompleted(let id, let restored):
            guard case .restoring(let request) = state, request.id == id else { return [] }
            state = restored ? Self.settled(request.returnTo) : .inline
            return [.pictureInPictureStopped(restored: restored)]
        case .wake:
            guard case .restoring(let request) = state, !(now < request.deadline) else { return [] }
            state = .inline
            return [.restoreTimedOut(request), .pictureInPictureStopped(restored: false)]
        }
    }

    private mutating func enterBackground() -> [Action] {
        let from: PresentationMode
        switch state {
        case .inline: from = .inline
        case .fullScreen: from = .fullScreen
        case .pictureInPicture, .transitioning, .restoring: return []
        }
        guard isPlaying else { return [] }
        guard configuration.allowsPictureInPicturePlayback, configuration.startsPictureInPictureAutomatically else {
            isPlaying = false
            return [.pause(.backgroundedWithoutPictureInPicture)]
        }
        return begin(from: from, to: .pictureInPicture, trigger: .appBackgrounded)
    }

    private mutating func begin(from: PresentationMode, to: PresentationMode, trigger: Trigger) -> [Action] {
        let transition = Transition(id: takeID(), from: from, to: to, trigger: trigger)
        state = .transitioning(transition)
        switch to {
        case .fullScreen: return [.willBeginFullScreenPresentation(transition)]
        case .inline: return [.willEndFullScreenPresentation(transition)]
        case .pictureInPicture: return [.willStartPictureInPicture(transition)]
        }
    }

    private mutating func finish(id: Int, cancelled: Bool) -> [Action] {
        guard case .transitioning(let transition) = state, transition.id == id else { return [] }
        if cancelled {
            state = Self.settled(transition.from)
            return [.transitionEnded(transition, .cancelled)]
        }
        state = transition.to == .pictureInPicture ? .pictureInPicture(returnTo: transition.from) : Self.settled(transition.to)
        return [.transitionEnded(transition, .completed)]
    }

    private static func settled(_ mode: PresentationMode) -> State {
        switch mode {
        case .inline: .inline
        case .fullScreen: .fullScreen
        case .pictureInPicture: .pictureInPicture(returnTo: .inline)
        }
    }

    private mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
