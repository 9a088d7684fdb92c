import HLSInterstitials
import MediaTime
import PlayerEngine
import PlayerInterface

/// The live transport bar of `interlude play` on a terminal: two lines drawn from the player's
/// integrated-timeline snapshot and state.
///
///     [=========o======|--------####-----------o]  0:41.2 / 1:30.0
///     playing · primary 0:29.2 · break "mid" 0:03.1 / 0:10.0, skippable · host 0:45.0 (virtual)
///
/// The bar is ``TransportBar``'s layout with its glyphs (`=` primary content already played, `-`
/// primary content ahead, `o` a point break, `#` a range break that does not supplement primary
/// content, `|` the playhead); the status line below it is the command's own.
package struct PlayTransportBar: Sendable {
    /// The item's integrated timeline now (`nil` until it is loaded).
    package var snapshot: IntegratedTimeline.Snapshot?
    /// The time-control status.
    package var status: TimeControlStatus
    /// The rate asked for.
    package var rate: Double
    /// The primary item's current time.
    package var primaryTime: MediaTime
    /// The break playing, if any.
    package var eventID: String?
    /// How far into the break playback is.
    package var eventOffset: MediaTime?
    /// Whether the break can be skipped now.
    package var isSkippable: Bool
    /// Host time since playback started.
    package var hostTime: Duration
    /// How host time runs (`real time`, `4× real time`, `virtual`).
    package var clockName: String

    /// The state to draw.
    package init(snapshot: IntegratedTimeline.Snapshot?, status: TimeControlStatus, rate: Double, primaryTime: MediaTime, eventID: String?,
                 eventOffset: MediaTime?, isSkippable: Bool, hostTime: Duration, clockName: String) {
        self.snapshot = snapshot
        self.status = status
        self.rate = rate
        self.primaryTime = primaryTime
        self.eventID = eventID
        self.eventOffset = eventOffset
        self.isSkippable = isSkippable
        self.hostTime = hostTime
        self.clockName = clockName
    }

    /// The bar for the player's `state`, read in one piece.
    package init(_ state: PlayerState, clockName: String) {
        self.init(
            snapshot: state.snapshot,
            status: state.timeControlStatus,
            rate: state.rate,
            primaryTime: state.currentTime,
            eventID: state.currentEvent?.identifier,
            eventOffset: state.currentEventOffset,
            isSkippable: state.isCurrentEventSkippable,
            hostTime: state.hostTime,
            clockName: clockName
        )
    }

    /// The two lines, each shorter than `width` columns (a line that wraps, or leaves the cursor
    /// in the last column, would break redrawing in place).
    ///
    /// - Complexity: O(width × segments).
    package func lines(width: Int) -> [String] {
        let width = max(width, 30) - 1
        var times = "--:--"
        if let snapshot {
            times = TimeFormat.elapsed(snapshot.currentTime, fractionDigits: 1) + " / "
                + (snapshot.duration.isIndefinite ? "live" : TimeFormat.elapsed(snapshot.duration, fractionDigits: 1))
        }
        let barWidth = max(10, width - times.count - 4)
        let bar = "[" + cells(width: barWidth) + "]  " + times

        var state = [statusText]
        state.append("primary \(TimeFormat.elapsed(primaryTime, fractionDigits: 1))")
        if let eventID {
            var text = "break \"\(eventID)\" \(TimeFormat.elapsed(eventOffset ?? .zero, fractionDigits: 1))"
            if let length = breakLength(eventID) { text += " / \(TimeFormat.elapsed(length, fractionDigits: 1))" }
            text += isSkippable ? ", skippable" : ", not skippable"
            state.append(text)
        }
        state.append("host \(TimeFormat.elapsed(MediaTime(hostTime), fractionDigits: 1)) (\(clockName))")
        return [String(bar.prefix(width)), String(state.joined(separator: " · ").prefix(width))]
    }

    private var statusText: String {
        switch status {
        case .playing: return rate == 1 ? "playing" : "playing at \(rate)×"
        case .paused: return "paused"
        case .waitingToPlayAtSpecifiedRate(let reason):
            switch reason {
            case .toMinimizeStalls: return "stalled, buffering"
            case .evaluatingBufferingRate: return "buffering"
            case .noItemToPlay: return "no item"
            case .waitingForCoordinatedPlayback: return "waiting for the group"
            case .interstitialEvent: return "in a break"
            }
        }
    }

    /// The break's played length on the timeline, when known.
    private func breakLength(_ eventID: String) -> MediaTime? {
        guard let segment = snapshot?.segments.first(where: { $0.eventID == eventID }) else { return nil }
        let length = segment.playoutRange.duration
        return length > .zero ? length : nil
    }

    /// The bar's cells: ``TransportBar``'s layout of the snapshot in `width` columns, blank until
    /// the timeline is known.
    func cells(width: Int) -> String {
        guard let snapshot, !snapshot.segments.isEmpty else { return String(repeating: " ", count: width) }
        return TransportBar(snapshot: snapshot).text(columns: width)
    }
}
