import MediaTime
import PlayerEngine
import PlayerInterface

extension PlayerEvent {
    /// The event as a line of `interlude play`'s log (`0:08.000  break "mid" started`), or `nil`
    /// when it is not worth a line: loads that worked, observer times, timeline bookkeeping, rate
    /// changes (the status says it), the wait for a break (the break's own line says it), and
    /// failures that end the item (the final error says it).
    var logLine: String? {
        logMessage.map { "\(TimeFormat.elapsed(MediaTime(hostTime), fractionDigits: 3))  \($0)" }
    }

    private var logMessage: String? {
        func quoted(_ id: String) -> String { "\"\(id)\"" }
        switch kind {
        case .currentItemChanged(let url):
            return url.map { "loading \($0)" }
        case .itemStatusChanged(let status):
            if case .readyToPlay = status { return "ready" }
            return nil
        case .durationChanged(let duration):
            return duration.isIndefinite ? "live stream" : "duration \(TimeFormat.elapsed(duration, fractionDigits: 3))"
        case .timeControlStatusChanged(let status):
            switch status {
            case .paused: return "paused"
            case .playing: return "playing"
            case .waitingToPlayAtSpecifiedRate(let reason):
                switch reason {
                case .toMinimizeStalls: return "waiting: buffering to minimize stalls"
                case .evaluatingBufferingRate: return "waiting: evaluating the buffering rate"
                case .noItemToPlay: return "waiting: no item to play"
                case .waitingForCoordinatedPlayback: return "waiting for coordinated playback"
                case .interstitialEvent: return nil
                }
            }
        case .interstitialTimeControlStatusChanged(let status):
            return status == .waitingToPlayAtSpecifiedRate(.toMinimizeStalls) ? "break: buffering (the ad stalled)" : nil
        case .timeJumped(let time, let originator):
            return "time jumped to \(TimeFormat.elapsed(time, fractionDigits: 3)) (\(originator.rawValue))"
        case .seekCompleted(let id, let finished):
            return finished ? nil : "seek \(id) did not finish"
        case .loadFailed(let resource, let url, let message, let willRetry):
            return willRetry ? "load failed, retrying: \(resource.rawValue) \(url): \(message)" : nil
        case .loadRecovered(let resource, let url, let attempts, let outage):
            return "recovered: \(resource.rawValue) \(url) loaded on attempt \(attempts), after an outage of \(TimeFormat.elapsed(MediaTime(outage), fractionDigits: 3))"
        case .variantSwitched(let bandwidth, let reason):
            return "switched to the \(bandwidth) bit/s variant (\(reason.rawValue))"
        case .stalled(let time):
            return "stalled at \(TimeFormat.elapsed(time, fractionDigits: 3))"
        case .interstitialEventsChanged(let ids):
            if ids.isEmpty { return "no interstitial events" }
            return "\(ids.count) interstitial event\(ids.count == 1 ? "" : "s"): \(ids.joined(separator: ", "))"
        case .currentEventChanged(let id):
            return id.map { "break \(quoted($0)) started" }
        case .assetListResponse(let id, let status):
            return "break \(quoted(id)): asset list \(status)"
        case .assetStarted(let id, let index, let url):
            return "break \(quoted(id)): asset \(index + 1) \(url)"
        case .breakEnded(let id, let end, let resume):
            return "break \(quoted(id)) ended (\(end)); primary resumes at \(TimeFormat.elapsed(resume, fractionDigits: 3))"
        case .skippableChanged(let id, let skippable):
            return skippable ? "break \(quoted(id)) can be skipped" : "break \(quoted(id)) can no longer be skipped"
        case .warning(let message):
            return "warning: \(message)"
        case .playedToEnd:
            return "played to end"
        case .rateChanged, .periodicTime, .boundaryTime, .loaded, .timelineChanged:
            return nil
        }
    }
}
