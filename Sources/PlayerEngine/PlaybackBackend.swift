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
    /// Opens `stream` ahead of its time, loading a little of it without presenting it, so that a
    /// later ``open(_:url:at:)`` of the same stream and URL from its start plays without a gap.
    case preload(PlaybackStream, url: String)
    /// Forgets a preload of `stream` that will not be played, stopping what it was loading (a
    /// stream opened from it stays).
    case cancelPreload(PlaybackStream)
    /// Presents `stream`: a switch from primary to a break's asset and back, or from one asset
    /// to the next. `nil` presents nothing: a break whose first asset is not open yet.
    case present(PlaybackStream?)
    /// Moves `stream`'s playhead to `time`, keeping its rate.
    case seek(PlaybackStream, to: MediaTime)
    /// Plays `stream` at `rate` (0 holds it still), keeping its position continuous.
    case setRate(PlaybackStream, Double)
    /// Closes the open `stream`, stopping whatever it was loading. Closing
    /// ``PlaybackStream/primary`` closes every stream: the item's assets go with it.
    case close(PlaybackStream)
}

/// What a playback backend tells the engine about its streams, as it happens.
public enum PlaybackReport: Sendable, Hashable {
    /// `stream`'s timeline is known (its first playlist is in): it can play.
    case ready(PlaybackStream)
    /// A live `stream`'s timeline changed (a reload brought new segments or date ranges).
    case timelineChanged(PlaybackStream)
    /// Media was added to what `stream` has buffered.
    case buffered(PlaybackStream)
    /// `stream` cannot go on (a load failed for good, or its media is unplayable).
    case failed(PlaybackStream, PlayerError)
}

/// A playback backend: opens, preloads, presents, seeks, sets the rate of and closes the
/// engine's streams, answers where each playhead is and how much is buffered ahead of it, and
/// reports (``PlaybackReport``) when a stream is ready, changes, buffers more or fails. The headless backend (``HeadlessBackend``) moves its
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

    /// Whether `stream`'s timeline is known (it was reported ``PlaybackReport/ready(_:)``).
    func isReady(_ stream: PlaybackStream) -> Bool

    /// Whether `stream` is live (its timeline grows).
    func isLive(_ stream: PlaybackStream) -> Bool

    /// Where `stream`'s timeline ends as far as known (for a live stream, where its window ends);
    /// `nil` until it is ready.
    func end(of stream: PlaybackStream) -> MediaTime?

    /// How much of `stream` is buffered contiguously from `time` on: zero when `time` is not
    /// buffered.
    func bufferedAhead(of stream: PlaybackStream, at time: MediaTime) -> MediaTime

    /// The reports since the last call, oldest first.
    mutating func takeReports() -> [PlaybackReport]
}
