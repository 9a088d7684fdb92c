import HLSInterstitials
import HLSPlaylist
import MediaTime

/// Where playback of a media playlist starts (RFC 8216bis §4.4.2.2 EXT-X-START, §6.3.3).
///
/// - With EXT-X-START: TIME-OFFSET from the start (positive) or from the end (negative), clamped
///   to the playlist; without PRECISE=YES playback starts at the beginning of the segment holding
///   that time.
/// - Else, a live playlist starts at the live edge less the hold-back: PART-HOLD-BACK when the
///   client plays low-latency parts, else HOLD-BACK, else three target durations (§6.3.3 "SHOULD NOT
///   choose a segment which starts less than three target durations from the end") — at the start
///   of the segment holding that time.
/// - Else (VOD, EVENT with ENDLIST) the start of the playlist.
public enum StartPosition {
    /// The start position on `timeline` (the playlist's primary timeline).
    public static func resolve(playlist: MediaPlaylist, timeline: PrimaryTimeline, lowLatency: Bool = false) -> MediaTime {
        let first = timeline.start
        let end = timeline.end
        if let start = playlist.start {
            var target = start.timeOffset.isNegative ? end + start.timeOffset : first + start.timeOffset
            target = MediaTime.min(MediaTime.max(target, first), end)
            if start.isPrecise { return target }
            return segmentStart(containing: target, in: timeline) ?? target
        }
        guard timeline.isLive else { return first }
        let holdBack: MediaTime
        if lowLatency, let partHoldBack = playlist.serverControl?.partHoldBack {
            holdBack = partHoldBack
        } else if let configured = playlist.serverControl?.holdBack {
            holdBack = configured
        } else {
            holdBack = MediaTime(seconds: Int64(3 * playlist.targetDurationSeconds))
        }
        let target = MediaTime.max(first, end - holdBack)
        if lowLatency { return target }
        return segmentStart(containing: target, in: timeline) ?? target
    }

    private static func segmentStart(containing time: MediaTime, in timeline: PrimaryTimeline) -> MediaTime? {
        timeline.segmentIndex(containing: time).map { timeline.segmentStarts[$0] }
    }
}
