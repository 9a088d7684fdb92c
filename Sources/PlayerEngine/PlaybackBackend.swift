import MediaTime

/// A stream a playback backend opens: the primary item, or one asset of an interstitial break.
/// Each has a playhead of its own; one at a time is presented.
public enum PlaybackStream: Sendable, Hashable {
    case primary
    case asset(eventID: String, index: Int)
}

/// What the engine asks of a playback backend. Times are the stream's own (the primary item's
/// timeline, or an asset's from its start), exact: a backend seeks accurately, not to a key frame.
public enum PlaybackCommand: Sendable, Hashable {
    /// Opens `stream` from `url`, standing at `time` until a rate is set.
    case open(PlaybackStream, url: String, at: MediaTime)
    /// Moves `stream`'s playhead to `time`, keeping its rate.
    case seek(PlaybackStream, to: MediaTime)
    /// Plays `stream` at `rate` (0 holds it still), keeping its position continuous.
    case setRate(PlaybackStream, Double)
    /// Closes `stream` (or forgets its preload), stopping whatever it was loading.
    case close(PlaybackStream)
}

/// A playback backend: opens, seeks, sets the rate of and closes the engine's streams,
/// and answers where each playhead is. The headless backend (``HeadlessBackend``) moves its
/// playheads by arithmetic on a ``MediaClock``; a backend that decodes media reads its pipeline's
/// clock and answers the same questions from its last position report, extrapolated at its rate.
public protocol PlaybackBackend: Sendable {
    /// Carries out `command` at host time `now` (never earlier than the last command's).
    mutating func perform(_ command: PlaybackCommand, at now: Duration)

    /// Where `stream`'s playhead is at host time `host`, playing on as it does now.
    func position(of stream: PlaybackStream, atHost host: Duration) -> MediaTime

    /// The rate `stream`'s playhead moves at (0 while it holds still).
    func rate(of stream: PlaybackStream) -> Double

    /// The host time at which `stream`'s playhead reaches `time`, playing on as it does now:
    /// `nil` while it holds still or moves away from it. Rounded up, so that
    /// ``position(of:atHost:)`` there has reached `time`.
    func hostTime(when stream: PlaybackStream, reaches time: MediaTime) -> Duration?
}
