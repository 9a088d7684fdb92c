import MediaTime

/// The headless playback backend: nothing is decoded or shown, and a playhead is arithmetic on a
/// ``MediaClock`` (host time at a rate kept as a fraction). It keeps two: the primary item's, and
/// the one of the asset being played in a break (an asset opened replaces the one before).
public struct HeadlessBackend: PlaybackBackend {
    var primary = MediaClock()
    var asset = MediaClock()

    /// A backend with nothing open.
    public init() {}

    public mutating func perform(_ command: PlaybackCommand, at now: Duration) {
        switch command {
        case .open(.primary, _, let time):
            primary = MediaClock(item: time, host: now)
        case .open(.asset, _, let time):
            asset = MediaClock(item: time, host: now)
        case .seek(.primary, let time):
            primary.seek(to: time, atHost: now)
        case .seek(.asset, let time):
            asset.seek(to: time, atHost: now)
        case .setRate(.primary, let rate):
            primary.setRate(rate, atHost: now)
        case .setRate(.asset, let rate):
            asset.setRate(rate, atHost: now)
        case .close(.primary):
            // With no item the primary playhead stands at zero.
            primary = MediaClock(item: .zero, host: now)
        case .close(.asset):
            asset = MediaClock()
        }
    }

    public func position(of stream: PlaybackStream, atHost host: Duration) -> MediaTime {
        clock(stream).itemTime(atHost: host)
    }

    public func rate(of stream: PlaybackStream) -> Double { clock(stream).rate }

    public func hostTime(when stream: PlaybackStream, reaches time: MediaTime) -> Duration? {
        clock(stream).hostTime(whenItemReaches: time)
    }

    private func clock(_ stream: PlaybackStream) -> MediaClock {
        if case .primary = stream { return primary }
        return asset
    }
}
