import HLSInterstitials
import MediaTime
import PlayerEngine
import PlayerInterface

/// The MPRIS view of a ``Player`` (pure state machine; ``MPRISService`` is its shell on the bus):
/// ``PlayerState`` values and the app's ``NowPlayingInfo`` go in, the properties of
/// `org.mpris.MediaPlayer2.Player` come out with the signals that announce their changes, and a
/// client's method call becomes commands for the player.
///
/// Position is the integrated timeline's time (Apple's integrated time domain): it stands still
/// while a point break plays and moves through a break that fills time, and `mpris:length` is
/// that timeline's duration. A client extrapolates Position from Rate while the status is
/// Playing; whenever the player's position departs from that extrapolation by more than
/// ``seekTolerance`` (a seek, a break that held the position still, a stall) the model emits
/// `Seeked` with the true position.
public struct MPRISPlayerModel: Sendable {
    /// What the model is told.
    public enum Input: Sendable, Hashable {
        /// The player's state changed (each value of ``Player/states()``, in order).
        case state(PlayerState)
        /// The app's metadata changed.
        case info(NowPlayingInfo)
        /// A client called a method or wrote `Rate`; `current` is the player's state read just
        /// now (the position a relative seek starts from).
        case call(MPRISMethodCall, current: PlayerState)
    }

    /// What the shell does.
    public enum Action: Sendable, Hashable {
        /// Play at `rate`.
        case play(rate: Double)
        /// Pause.
        case pause
        /// Change the rate while playing.
        case setRate(Double)
        /// Seek on the integrated timeline (the seek rules of the item's breaks apply).
        case seek(toIntegratedTime: MediaTime)
        /// The app's next item (a channel, say).
        case next
        /// The app's previous item.
        case previous
        /// The app quits.
        case quit
        /// Emit `PropertiesChanged` for these properties of `org.mpris.MediaPlayer2.Player`.
        case propertiesChanged([MPRISPlayerProperty])
        /// Emit `Seeked` with the position in microseconds.
        case seeked(positionMicroseconds: Int64)
    }

    /// What the app handles beyond the player.
    public struct Capabilities: Sendable, Hashable {
        public var canGoNext: Bool
        public var canGoPrevious: Bool
        public var canQuit: Bool

        public init(canGoNext: Bool = false, canGoPrevious: Bool = false, canQuit: Bool = false) {
            self.canGoNext = canGoNext
            self.canGoPrevious = canGoPrevious
            self.canQuit = canQuit
        }
    }

    /// Where a client's extrapolation of Position started: a position at a host time, moving at
    /// a rate (zero unless the status is Playing).
    private struct Anchor: Sendable, Hashable {
        var positionMicroseconds: Int64
        var hostTime: Duration
        var rate: Double
    }

    /// How far the position may stray from a client's extrapolation before `Seeked` tells it.
    public static let seekTolerance = Duration.milliseconds(100)

    /// The properties as of the last input.
    public private(set) var properties: MPRISPlayerProperties = .empty
    public let capabilities: Capabilities
    private var info: NowPlayingInfo
    private var state: PlayerState?
    /// The item the track ID was made for, and how many items there have been.
    private var trackItem: PlayerItem?
    private var trackCount = 0
    /// The rate `Play` asks for: the last non-zero rate, or the one a client wrote while paused.
    private var preferredRate = 1.0
    /// When `Stop` was called: the status is Stopped until playback is asked for after it.
    private var stoppedAt: Duration?
    private var anchor: Anchor?

    public init(info: NowPlayingInfo, capabilities: Capabilities = Capabilities()) {
        self.info = info
        self.capabilities = capabilities
        properties.canGoNext = capabilities.canGoNext
        properties.canGoPrevious = capabilities.canGoPrevious
    }

    /// Handles `input`; the actions to perform, in order.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .state(let state):
            return update(state)
        case .info(let info):
            self.info = info
            return refresh()
        case .call(let call, let current):
            return handle(call, current: current)
        }
    }

    /// The position a client sees in `state`, in microseconds: the integrated timeline's time.
    public func positionMicroseconds(of state: PlayerState) -> Int64 {
        guard state.item != nil else { return 0 }
        return max(0, Self.microseconds(state.integratedCurrentTime) ?? 0)
    }

    // MARK: State

    private mutating func update(_ state: PlayerState) -> [Action] {
        if state.item != trackItem {
            trackItem = state.item
            if state.item != nil { trackCount += 1 }
            stoppedAt = nil
            anchor = nil
        }
        if state.rate > 0 {
            preferredRate = state.rate
            // Playback asked for after Stop (by someone else than this client) ends the stop.
            if let stoppedAt, stoppedAt < state.hostTime { self.stoppedAt = nil }
        }
        self.state = state
        var actions: [Action] = []
        let position = positionMicroseconds(of: state)
        var isJump = false
        if let anchor, anchor.hostTime <= state.hostTime, !Self.standsStill(state) {
            let elapsed = Self.microseconds(MediaTime(state.hostTime - anchor.hostTime)) ?? 0
            let expected = anchor.positionMicroseconds + Int64((Double(elapsed) * anchor.rate).rounded())
            isJump = abs(position - expected) > Int64(Self.seekTolerance / .microseconds(1))
        }
        let changed = refresh()
        actions += changed
        if isJump { actions.append(.seeked(positionMicroseconds: position)) }
        // A client reads Position again when the status or the rate changes.
        let isReread = changed.contains { action in
            if case .propertiesChanged(let names) = action { return names.contains(.playbackStatus) || names.contains(.rate) }
            return false
        }
        if anchor == nil || isJump || isReread {
            anchor = Anchor(positionMicroseconds: position, hostTime: state.hostTime,
                            rate: properties.playbackStatus == .playing ? properties.rate : 0)
        }
        return actions
    }

    /// Whether playback is in a break that takes no time on the integrated timeline: the
    /// position stands still there, and the jump clients see is told once primary resumes.
    private static func standsStill(_ state: PlayerState) -> Bool {
        guard case .interstitial = state.position else { return false }
        if let segment = state.snapshot?.currentSegment, segment.segmentType == .interstitial {
            return segment.timeMapping.target.duration.isZero
        }
        return state.currentEvent?.timelineOccupancy == .singlePoint
    }

    /// Recomputes the properties; `PropertiesChanged` for those that changed.
    private mutating func refresh() -> [Action] {
        let old = properties
        properties = makeProperties()
        let changed = properties.changed(since: old)
        return changed.isEmpty ? [] : [.propertiesChanged(changed)]
    }

    private func makeProperties() -> MPRISPlayerProperties {
        var properties = MPRISPlayerProperties.empty
        properties.canGoNext = capabilities.canGoNext
        properties.canGoPrevious = capabilities.canGoPrevious
        properties.rate = preferredRate
        guard let state, let item = state.item else { return properties }
        let hasFailed = state.error != nil
        properties.canPlay = !hasFailed
        properties.canPause = !hasFailed
        if hasFailed || state.hasPlayedToEnd || stoppedAt != nil {
            properties.playbackStatus = .stopped
        } else {
            properties.playbackStatus = state.rate > 0 ? .playing : .paused
        }
        let length = Self.length(of: state)
        let isRestricted = state.currentEvent?.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) ?? false
        properties.canSeek = state.itemStatus == .readyToPlay && length != nil && !isRestricted

        var metadata = MPRISMetadata(trackID: "/org/interlude/track/\(trackCount)")
        metadata.lengthMicroseconds = length
        metadata.title = info.title
        metadata.artists = info.artists
        metadata.album = info.album
        metadata.artworkURL = info.artworkURL
        metadata.url = item.url
        metadata.contentRating = info.contentRating?.label
        metadata.isLive = state.duration?.isIndefinite == true || state.snapshot?.duration.isIndefinite == true
        metadata.interstitialEventID = state.currentEvent?.identifier
        properties.metadata = metadata
        return properties
    }

    /// The integrated timeline's duration in microseconds (the primary duration until the
    /// timeline is known); `nil` for live or when unknown.
    private static func length(of state: PlayerState) -> Int64? {
        guard let duration = state.snapshot?.duration ?? state.duration, duration.isNumeric else { return nil }
        return microseconds(duration)
    }

    // MARK: Calls

    private mutating func handle(_ call: MPRISMethodCall, current: PlayerState) -> [Action] {
        switch call {
        case .play:
            return play(current)
        case .pause:
            guard properties.playbackStatus == .playing else { return [] }
            return [.pause]
        case .playPause:
            if properties.playbackStatus == .playing { return [.pause] }
            return play(current)
        case .stop:
            guard properties.playbackStatus != .stopped else { return [] }
            stoppedAt = current.hostTime
            return [.pause, .seek(toIntegratedTime: Self.start(of: current))] + refresh()
        case .seek(let offset):
            guard properties.canSeek else { return [] }
            let start = Self.microseconds(Self.start(of: current)) ?? 0
            let (sum, overflow) = positionMicroseconds(of: current).addingReportingOverflow(offset)
            let target = overflow ? (offset < 0 ? Int64.min : Int64.max) : sum
            if let length = properties.metadata.lengthMicroseconds, target > length {
                // The spec: seeking past the end acts as Next.
                return capabilities.canGoNext ? [.next] : []
            }
            return [.seek(toIntegratedTime: Self.time(microseconds: max(start, target)))]
        case .setPosition(let trackID, let position):
            // The spec: a stale track ID (a client that has not seen the item change), a
            // negative position or one past the end are ignored.
            guard properties.canSeek, trackID == properties.metadata.trackID, position >= 0 else { return [] }
            if let length = properties.metadata.lengthMicroseconds, position > length { return [] }
            return [.seek(toIntegratedTime: Self.time(microseconds: position))]
        case .setRate(let rate):
            // The spec: a rate of zero pauses; the range is MinimumRate...MaximumRate.
            if rate == 0 { return properties.playbackStatus == .playing ? [.pause] : [] }
            guard rate.isFinite, (MPRISPlayerProperties.minimumRate...MPRISPlayerProperties.maximumRate).contains(rate) else { return [] }
            preferredRate = rate
            if properties.playbackStatus == .playing { return [.setRate(rate)] }
            return refresh()
        case .next:
            return capabilities.canGoNext ? [.next] : []
        case .previous:
            return capabilities.canGoPrevious ? [.previous] : []
        case .raise:
            return []
        case .quit:
            return capabilities.canQuit ? [.quit] : []
        }
    }

    /// Play; from the beginning when stopped (after `Stop`, or at the end of the item).
    private mutating func play(_ current: PlayerState) -> [Action] {
        guard properties.canPlay else { return [] }
        var actions: [Action] = []
        if properties.playbackStatus == .stopped {
            stoppedAt = nil
            actions.append(.seek(toIntegratedTime: Self.start(of: current)))
        }
        actions.append(.play(rate: preferredRate))
        // The player's next state shows it playing.
        return actions
    }

    /// Where the item's integrated timeline starts.
    private static func start(of state: PlayerState) -> MediaTime {
        state.snapshot?.segments.first?.timeMapping.target.start ?? .zero
    }

    private static func microseconds(_ time: MediaTime) -> Int64? { time.floorUnits(timescale: 1_000_000) }

    private static func time(microseconds: Int64) -> MediaTime { MediaTime(value: microseconds, timescale: 1_000_000) }
}
