import MediaTime

/// The info panel a player view slides in on request (S3.10), like the info tab of
/// `AVPlayerViewController`: what is playing, its rating, where playback is and the break in
/// progress, as lines of text for a terminal or a label.
///
///     Interlude Movies
///     The Long Take
///     Rated PG-13
///     0:41 / 1:30  (-0:49)
///     break "ad": -0:08, skip available
public struct InfoPanel: Sendable, Hashable {
    /// The lines, top to bottom.
    public let lines: [String]

    /// The panel for `info` with playback as `bar` shows it (`nil` before the first snapshot).
    public init(info: NowPlayingInfo, bar: TransportBar?) {
        var lines = [info.title]
        if let subtitle = info.subtitle { lines.append(subtitle) }
        if let rating = info.contentRating { lines.append("Rated \(rating.label)") }
        if let bar {
            let elapsed = bar.playhead - bar.start
            if bar.isLive || info.isLiveStream {
                lines.append("live  \(TimeFormat.elapsed(elapsed)) into the window")
            } else {
                lines.append("\(TimeFormat.elapsed(elapsed)) / \(TimeFormat.elapsed(bar.knownDuration))  "
                    + "(\(TimeFormat.remaining(bar.knownDuration - elapsed)))")
            }
            if let current = bar.currentBreak {
                var text = "break \"\(current.eventID)\""
                if let remaining = current.remaining { text += ": \(TimeFormat.remaining(remaining))" }
                if current.isSkippable {
                    text += ", skip available"
                } else if !current.allowsSeekingForward {
                    text += ", cannot be skipped"
                }
                lines.append(text)
            }
        }
        if let summary = info.summary { lines.append(summary) }
        self.lines = lines
    }
}
