/// A poster frame over the video until the first frame is ready for display (S3.9), the way an app
/// hides its poster when `AVPlayerLayer.isReadyForDisplay` (or the view controller's) turns true.
///
/// Readiness is a property, not an event: by the time the view starts observing it, the first frame
/// may already be on screen and the property will never change again. So observation begins with
/// the value it finds (``Input/observationStarted(isReadyForDisplay:)``, the initial value of a
/// key-value observation), and a poster put up for an item that is already ready comes down at
/// once. A new item brings its poster back until its own first frame.
public struct PosterFrameStateMachine: Sendable {
    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The view began observing readiness and found this value.
        case observationStarted(isReadyForDisplay: Bool)
        /// Readiness changed.
        case readinessChanged(isReadyForDisplay: Bool)
        /// The player moved to another item, with or without a poster of its own.
        case itemChanged(hasPoster: Bool)
    }

    /// What the view must do.
    public enum Action: Sendable, Hashable {
        /// Put the poster over the video.
        case showPoster
        /// Take the poster down: the video shows its first frame.
        case removePoster
    }

    private enum State: Sendable, Hashable {
        /// Readiness not known yet (no observation); the poster, if any, is up.
        case unobserved(posterShown: Bool)
        /// Waiting for the first frame with the poster up.
        case waitingWithPoster
        /// Nothing over the video (no poster, or it came down).
        case clear
    }

    private var state: State

    /// A view that shows its item's poster (when `hasPoster`) and has not observed readiness yet.
    public init(hasPoster: Bool) {
        state = .unobserved(posterShown: hasPoster)
    }

    /// Whether the poster is up.
    public var isPosterShown: Bool {
        switch state {
        case .unobserved(let shown): shown
        case .waitingWithPoster: true
        case .clear: false
        }
    }

    /// Handles one input.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .observationStarted(let ready), .readinessChanged(let ready):
            return apply(ready: ready)
        case .itemChanged(let hasPoster):
            let wasShown = isPosterShown
            if case .unobserved = state {
                state = .unobserved(posterShown: hasPoster)
            } else {
                // A new item is not ready until its own first frame says so.
                state = hasPoster ? .waitingWithPoster : .clear
            }
            guard hasPoster != wasShown else { return [] }
            return hasPoster ? [.showPoster] : [.removePoster]
        }
    }

    private mutating func apply(ready: Bool) -> [Action] {
        switch state {
        case .unobserved(let shown):
            if ready {
                state = .clear
                return shown ? [.removePoster] : []
            }
            state = shown ? .waitingWithPoster : .clear
            return []
        case .waitingWithPoster:
            guard ready else { return [] }
            state = .clear
            return [.removePoster]
        case .clear:
            // Readiness going false later (a seek, a stall) does not bring the poster back.
            return []
        }
    }
}
