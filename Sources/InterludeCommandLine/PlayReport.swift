import MediaTime
import PlayerEngine
import PlayerInterface

/// What `interlude play` learns from the player's events, folded as they arrive: whether the item
/// is ready, live, failed or over, and the figures of the closing summary (time played, breaks,
/// stalls, warnings).
struct PlayReport: Sendable {
    /// How a break went.
    struct BreakRecord: Sendable, Hashable {
        var id: String
        var end: BreakEnd
    }

    /// Whether the item became ready to play.
    private(set) var isReady = false
    /// Whether the item is a live stream (its duration is indefinite).
    private(set) var isLive = false
    /// Why the item failed, if it did.
    private(set) var failure: PlayerError?
    /// Whether the item played to its end.
    private(set) var hasPlayedToEnd = false
    /// When the item played to its end or failed.
    private(set) var endTime: Duration?
    /// Breaks that ended, in order.
    private(set) var breaks: [BreakRecord] = []
    /// Stalls (the playhead ran dry while playing).
    private(set) var stalls = 0
    /// Warnings the player gave (EXTINF disagreeing with the media, refused seeks, …).
    private(set) var warnings = 0
    /// Loads that failed and were retried.
    private(set) var retriedLoads = 0
    /// Outages the player rode out (a load failed, then worked again), and the longest.
    private(set) var recoveries = 0
    private(set) var longestOutage: Duration = .zero
    /// Primary content played (host time playing, times the rate).
    private(set) var primaryPlayed = MediaTime.zero
    /// Host time spent in breaks.
    private(set) var breakTime: Duration = .zero

    private var rate = 0.0
    private var playingSince: Duration?
    private var breakSince: Duration?

    /// Folds in one event.
    mutating func record(_ event: PlayerEvent) {
        let now = event.hostTime
        switch event.kind {
        case .itemStatusChanged(let status):
            switch status {
            case .readyToPlay: isReady = true
            case .failed(let error):
                failure = error
                endTime = endTime ?? now
            case .unknown: break
            }
        case .durationChanged(let duration):
            isLive = duration.isIndefinite
        case .rateChanged(let newRate, _):
            closePlaying(at: now)
            rate = newRate
        case .timeControlStatusChanged(let status):
            closePlaying(at: now)
            playingSince = status == .playing ? now : nil
        case .stalled:
            stalls += 1
        case .warning:
            warnings += 1
        case .loadFailed(_, _, _, let willRetry):
            if willRetry { retriedLoads += 1 }
        case .loadRecovered(_, _, _, let outage):
            recoveries += 1
            longestOutage = max(longestOutage, outage)
        case .currentEventChanged(let id):
            if id != nil, breakSince == nil { breakSince = now }
        case .breakEnded(let id, let end, _):
            breaks.append(BreakRecord(id: id, end: end))
            if let since = breakSince { breakTime += now - since }
            breakSince = nil
        case .playedToEnd:
            hasPlayedToEnd = true
            endTime = endTime ?? now
        default:
            break
        }
    }

    /// Closes what is still open (playing, a break) at `hostTime`, the end of the run.
    mutating func finish(at hostTime: Duration) {
        closePlaying(at: hostTime)
        playingSince = nil
        if let since = breakSince { breakTime += hostTime - since }
        breakSince = nil
    }

    /// Adds the stretch played since the last change, restarting the stretch at `now`.
    private mutating func closePlaying(at now: Duration) {
        guard let since = playingSince, since < now else { return }
        let elapsed = MediaTime(now - since)
        if let (numerator, denominator) = Self.fraction(rate), let played = elapsed.multiplied(byRatio: numerator, denominator) {
            primaryPlayed += played
        }
        playingSince = now
    }

    /// A rate as a fraction with a denominator of 1,000 (rates are small decimals).
    private static func fraction(_ rate: Double) -> (Int64, Int64)? {
        guard rate.isFinite else { return nil }
        return (Int64((rate * 1000).rounded()), 1000)
    }

    /// The closing summary.
    ///
    ///     Summary: played to end after 0:36.000 of host time (virtual)
    ///       position   primary 0:24.000 / 0:24.000, integrated 0:36.000 / 0:36.000
    ///       played     0:24.000 of primary content, 0:12.000 in 2 breaks
    ///       breaks     pre (completed), mid (skipped)
    ///       stalls     0
    ///       warnings   0 (1 load retried)
    func summary(ending: String, hostTime: Duration, clockName: String, primary: MediaTime, primaryDuration: MediaTime?,
                 integrated: MediaTime, integratedDuration: MediaTime?) -> String {
        func total(_ duration: MediaTime?) -> String { duration.map { TimeFormat.elapsed($0, fractionDigits: 3) } ?? (isLive ? "live" : "?") }
        var text = "Summary: \(ending) after \(TimeFormat.elapsed(MediaTime(hostTime), fractionDigits: 3)) of host time (\(clockName))\n"
        text += "  position   primary \(TimeFormat.elapsed(primary, fractionDigits: 3)) / \(total(primaryDuration)), "
        text += "integrated \(TimeFormat.elapsed(integrated, fractionDigits: 3)) / \(total(integratedDuration))\n"
        text += "  played     \(TimeFormat.elapsed(primaryPlayed, fractionDigits: 3)) of primary content, \(TimeFormat.elapsed(MediaTime(breakTime), fractionDigits: 3)) in "
        text += "\(breaks.count) break\(breaks.count == 1 ? "" : "s")\n"
        if !breaks.isEmpty {
            text += "  breaks     " + breaks.map { "\($0.id) (\($0.end))" }.joined(separator: ", ") + "\n"
        }
        text += "  stalls     \(stalls)\n"
        text += "  warnings   \(warnings)"
        if retriedLoads > 0 { text += " (\(retriedLoads) load\(retriedLoads == 1 ? "" : "s") retried)" }
        text += "\n"
        if recoveries > 0 {
            text += "  outages    \(recoveries) recovered from, the longest \(TimeFormat.elapsed(MediaTime(longestOutage), fractionDigits: 3))\n"
        }
        return text
    }
}
