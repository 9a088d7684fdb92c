import MediaTime

/// Whether the player is playing, and if not why (Apple's `AVPlayer.TimeControlStatus` and
/// `reasonForWaitingToPlay`).
public enum TimeControlStatus: Sendable, Hashable, CustomStringConvertible {
    /// The rate is zero.
    case paused
    /// A non-zero rate was asked for but the playhead is not moving, for `reason`.
    case waitingToPlayAtSpecifiedRate(WaitingReason)
    /// The playhead moves at the rate.
    case playing

    /// Why a player waits.
    public enum WaitingReason: String, Sendable, Hashable {
        /// Too little is buffered to play without stalling (automatic waiting).
        case toMinimizeStalls
        /// Playback is about to start; the buffering rate is being measured.
        case evaluatingBufferingRate
        /// There is no item.
        case noItemToPlay
        /// A coordinated group holds this player until the others are ready.
        case waitingForCoordinatedPlayback
        /// An interstitial plays in the interstitial player; primary waits.
        case interstitialEvent
    }

    /// `paused`, `playing`, or `waiting (reason)`.
    public var description: String {
        switch self {
        case .paused: return "paused"
        case .playing: return "playing"
        case .waitingToPlayAtSpecifiedRate(let reason): return "waiting (\(reason.rawValue))"
        }
    }
}

/// The decision of whether the playhead moves (pure state machine): the requested rate, automatic
/// waiting, the buffer, and holds from interstitials and coordination go in; the status and the
/// rate to give the ``MediaClock`` come out.
///
/// With `automaticallyWaitsToMinimizeStalls` (the default) playback starts only once the buffer is
/// likely to keep up — `resumeThreshold` ahead, or everything up to the end of the item — and a
/// player that runs dry waits again (a stall) until that much is buffered. `playImmediately`
/// starts with whatever is buffered. Holds (an interstitial playing, a coordinated group waiting)
/// keep the playhead still whatever the buffer.
public struct TimeControl: Sendable, Hashable {
    /// The rate asked for (0 = paused).
    public private(set) var requestedRate: Double = 0
    /// Whether to wait for enough buffer before moving the playhead.
    public var automaticallyWaitsToMinimizeStalls = true
    /// How much must be buffered ahead to start or resume.
    public var resumeThreshold = MediaTime(seconds: 4)
    /// Whether the player has an item.
    public var hasItem = false
    /// An interstitial plays; primary waits.
    public var isHeldByInterstitial = false
    /// A coordinated group holds this player.
    public var isHeldByCoordination = false

    private var bufferedAhead = MediaTime.zero
    private var bufferReachesEnd = false
    /// Waiting for the buffer to reach the threshold: after a start, or after running dry.
    private var mustRebuffer = true
    /// Whether the buffer ran dry since the last start (the reason is then a stall, not the first
    /// evaluation of the buffering rate).
    private var hasStalled = false
    /// `playImmediately` was asked before any media was there: start as soon as some is.
    private var startsImmediately = false

    /// A time control: paused, without an item.
    public init() {}

    /// Asks for `rate`; 0 pauses. Starting from a pause waits for the buffer (when waiting
    /// automatically).
    public mutating func setRate(_ rate: Double) {
        if requestedRate == 0, rate != 0 {
            mustRebuffer = automaticallyWaitsToMinimizeStalls && !hasEnoughBuffer
            hasStalled = false
            startsImmediately = false
        }
        requestedRate = rate
    }

    /// Plays at `rate` now, without waiting for the buffer (Apple's `playImmediately(atRate:)`).
    public mutating func playImmediately(atRate rate: Double) {
        requestedRate = rate
        mustRebuffer = false
        startsImmediately = !hasMedia
    }

    /// The playhead jumped (a seek): playback waits for the buffer at the new position as it does
    /// when starting, and running dry there is not a stall.
    public mutating func seeked() {
        mustRebuffer = automaticallyWaitsToMinimizeStalls
        hasStalled = false
        bufferedAhead = .zero
        bufferReachesEnd = false
    }

    /// Reports the buffer: how much is loaded ahead of the playhead, and whether it reaches the end
    /// of the item. Running dry makes the player wait for the threshold again.
    public mutating func updateBuffer(ahead: MediaTime, reachesEnd: Bool) {
        bufferedAhead = ahead
        bufferReachesEnd = reachesEnd
        if !hasMedia {
            if startsImmediately { return }
            if requestedRate != 0, !mustRebuffer { hasStalled = true }
            mustRebuffer = true
        } else if startsImmediately {
            startsImmediately = false
            mustRebuffer = false
        } else if hasEnoughBuffer || !automaticallyWaitsToMinimizeStalls {
            mustRebuffer = false
        }
    }

    private var hasMedia: Bool { bufferReachesEnd || bufferedAhead > .zero }
    private var hasEnoughBuffer: Bool { bufferReachesEnd || !(bufferedAhead < resumeThreshold) }

    /// The status now.
    public var status: TimeControlStatus {
        guard requestedRate != 0 else { return .paused }
        guard hasItem else { return .waitingToPlayAtSpecifiedRate(.noItemToPlay) }
        if isHeldByInterstitial { return .waitingToPlayAtSpecifiedRate(.interstitialEvent) }
        if isHeldByCoordination { return .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback) }
        if !hasMedia { return .waitingToPlayAtSpecifiedRate(hasStalled ? .toMinimizeStalls : .evaluatingBufferingRate) }
        if mustRebuffer, automaticallyWaitsToMinimizeStalls {
            return .waitingToPlayAtSpecifiedRate(hasStalled ? .toMinimizeStalls : .evaluatingBufferingRate)
        }
        return .playing
    }

    /// The rate to give the media clock: the requested one while playing, else zero.
    public var effectiveRate: Double { status == .playing ? requestedRate : 0 }
}
