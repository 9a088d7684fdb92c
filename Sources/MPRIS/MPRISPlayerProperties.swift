/// `PlaybackStatus` of `org.mpris.MediaPlayer2.Player`.
public enum MPRISPlaybackStatus: String, Sendable, Hashable {
    /// A non-zero rate is asked for (the playhead may still wait for media or a break).
    case playing = "Playing"
    /// The rate is zero.
    case paused = "Paused"
    /// No item, a failed item, an item played to its end, or `Stop` called.
    case stopped = "Stopped"
}

/// A property of `org.mpris.MediaPlayer2.Player`, by its D-Bus name.
public enum MPRISPlayerProperty: String, Sendable, Hashable, CaseIterable {
    case playbackStatus = "PlaybackStatus"
    case rate = "Rate"
    case metadata = "Metadata"
    case volume = "Volume"
    case position = "Position"
    case minimumRate = "MinimumRate"
    case maximumRate = "MaximumRate"
    case canGoNext = "CanGoNext"
    case canGoPrevious = "CanGoPrevious"
    case canPlay = "CanPlay"
    case canPause = "CanPause"
    case canSeek = "CanSeek"
    case canControl = "CanControl"
}

/// The properties of `org.mpris.MediaPlayer2.Player` that change with the player (Position
/// aside: it moves continuously and is read at the time it is asked for).
public struct MPRISPlayerProperties: Sendable, Hashable {
    public var playbackStatus: MPRISPlaybackStatus
    /// The rate playback moves at when playing: never zero (MPRIS pauses with `PlaybackStatus`).
    public var rate: Double
    public var metadata: MPRISMetadata
    public var canGoNext: Bool
    public var canGoPrevious: Bool
    public var canPlay: Bool
    public var canPause: Bool
    public var canSeek: Bool

    /// The slowest rate a client may set.
    public static let minimumRate = 0.5
    /// The fastest rate a client may set.
    public static let maximumRate = 2.0

    /// Nothing to play.
    public static let empty = MPRISPlayerProperties(
        playbackStatus: .stopped, rate: 1, metadata: .noTrack, canGoNext: false, canGoPrevious: false, canPlay: false, canPause: false, canSeek: false
    )

    /// The properties whose values differ from `old`'s, for `PropertiesChanged`.
    public func changed(since old: MPRISPlayerProperties) -> [MPRISPlayerProperty] {
        var changed: [MPRISPlayerProperty] = []
        if playbackStatus != old.playbackStatus { changed.append(.playbackStatus) }
        if rate != old.rate { changed.append(.rate) }
        if metadata != old.metadata { changed.append(.metadata) }
        if canGoNext != old.canGoNext { changed.append(.canGoNext) }
        if canGoPrevious != old.canGoPrevious { changed.append(.canGoPrevious) }
        if canPlay != old.canPlay { changed.append(.canPlay) }
        if canPause != old.canPause { changed.append(.canPause) }
        if canSeek != old.canSeek { changed.append(.canSeek) }
        return changed
    }

    /// The value of `property`, with `positionMicroseconds` for `Position`.
    public func value(of property: MPRISPlayerProperty, positionMicroseconds: Int64) -> MPRISValue {
        switch property {
        case .playbackStatus: return .string(playbackStatus.rawValue)
        case .rate: return .double(rate)
        case .metadata: return .dictionary(metadata.entries)
        // Headless: there is no output whose volume could change.
        case .volume: return .double(1)
        case .position: return .int64(positionMicroseconds)
        case .minimumRate: return .double(Self.minimumRate)
        case .maximumRate: return .double(Self.maximumRate)
        case .canGoNext: return .boolean(canGoNext)
        case .canGoPrevious: return .boolean(canGoPrevious)
        case .canPlay: return .boolean(canPlay)
        case .canPause: return .boolean(canPause)
        case .canSeek: return .boolean(canSeek)
        case .canControl: return .boolean(true)
        }
    }
}
