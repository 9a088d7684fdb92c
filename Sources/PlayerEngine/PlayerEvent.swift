import HLSInterstitials
import MediaTime

/// Who caused a rate change or a time jump (Apple's `AVPlayer.RateDidChangeOriginator` and the
/// time-jump originator).
public enum ChangeOriginator: String, Sendable, Hashable {
    /// The app or the user, through the player's API.
    case user
    /// A coordinated group (a remote participant's command).
    case coordinator
    /// The player itself: a stall, a break, the end of the item, a live window sliding.
    case player
}

/// The time domains observers can watch.
public enum TimeDomain: String, Sendable, Hashable {
    /// The primary item's time (stands still through every break).
    case primary
    /// The integrated timeline's time (stands still through point breaks, advances through range
    /// breaks).
    case integrated
}

/// How a break ended.
public enum BreakEnd: Sendable, Hashable, CustomStringConvertible {
    /// Every asset played (or the playout limit was reached).
    case completed
    /// The playout limit cut it short.
    case playoutLimitReached
    /// The user skipped it.
    case skipped
    /// A seek left it.
    case seekedAway
    /// Its asset list or an asset failed to load.
    case failed(String)

    /// A short word, with the reason for a failure.
    public var description: String {
        switch self {
        case .completed: return "completed"
        case .playoutLimitReached: return "playoutLimit"
        case .skipped: return "skipped"
        case .seekedAway: return "seekedAway"
        case .failed(let reason): return "failed: \(reason)"
        }
    }
}

/// Something the player reports: a state change with the host time it happened at.
public struct PlayerEvent: Sendable, Hashable {
    /// The host time (on the player's clock, from its zero).
    public var hostTime: Duration
    /// What happened.
    public var kind: Kind

    /// An event, as a player made it (for drivers fed events by hand, in tests).
    package init(hostTime: Duration, kind: Kind) {
        self.hostTime = hostTime
        self.kind = kind
    }

    /// What can happen.
    public enum Kind: Sendable, Hashable {
        /// The current item changed (nil: none left).
        case currentItemChanged(url: String?)
        /// The item's status changed.
        case itemStatusChanged(ItemStatus)
        /// The item's duration became known or changed (`indefinite` for live).
        case durationChanged(MediaTime)
        /// The time-control status changed.
        case timeControlStatusChanged(TimeControlStatus)
        /// The interstitial player's time-control status changed (while a break plays).
        case interstitialTimeControlStatusChanged(TimeControlStatus)
        /// The rate changed, and who changed it.
        case rateChanged(rate: Double, originator: ChangeOriginator)
        /// The playhead jumped (a seek, a break's resumption, the live window), and who moved it.
        case timeJumped(to: MediaTime, originator: ChangeOriginator)
        /// A seek ended: `finished` false when another seek superseded it.
        case seekCompleted(id: Int, finished: Bool)
        /// A periodic observer's time.
        case periodicTime(observer: Int, time: MediaTime)
        /// A boundary observer's time was crossed.
        case boundaryTime(observer: Int, time: MediaTime)
        /// A playlist, segment or asset list was loaded.
        case loaded(resource: ResourceKind, url: String, bytes: Int)
        /// A load failed (it may be retried).
        case loadFailed(resource: ResourceKind, url: String, message: String, willRetry: Bool)
        /// A load that had failed worked on a later attempt: the outage it met lasted `outage`
        /// of host time, from the first failure to this success.
        case loadRecovered(resource: ResourceKind, url: String, attempts: Int, outage: Duration)
        /// The player switched variants.
        case variantSwitched(bandwidth: Int, reason: VariantSwitchReason)
        /// The playhead ran out of media.
        case stalled(at: MediaTime)
        /// The interstitial events known to the controller changed.
        case interstitialEventsChanged(ids: [String])
        /// The break playing changed (nil: primary plays).
        case currentEventChanged(id: String?)
        /// An asset list arrived or failed.
        case assetListResponse(eventID: String, status: AssetListResponseStatus)
        /// An asset of the current break started.
        case assetStarted(eventID: String, index: Int, url: String)
        /// A break ended, and how.
        case breakEnded(eventID: String, end: BreakEnd, resumeAt: MediaTime)
        /// Whether the current break can be skipped changed.
        case skippableChanged(eventID: String, skippable: Bool)
        /// The integrated timeline changed.
        case timelineChanged(reasons: [IntegratedTimeline.ChangeReason])
        /// Something is off but playback goes on (EXTINF disagreeing with the media, a probe
        /// failure).
        case warning(String)
        /// The item played to its end.
        case playedToEnd
    }
}

/// The resources the player loads.
public enum ResourceKind: String, Sendable, Hashable {
    /// A multivariant playlist.
    case multivariantPlaylist
    /// A media playlist (the first load).
    case mediaPlaylist
    /// A media playlist reload (live).
    case playlistReload
    /// A media segment.
    case segment
    /// A media initialization section (EXT-X-MAP).
    case initSection
    /// An interstitial asset list.
    case assetList
    /// An interstitial asset's playlist.
    case assetPlaylist
    /// A segment of an interstitial asset.
    case assetSegment
}

/// Why the player changed variants.
public enum VariantSwitchReason: String, Sendable, Hashable {
    /// The measured throughput allows a better one, or needs a cheaper one.
    case throughput
    /// The variant's resources failed.
    case failover
}

/// The state of a break's asset list (Apple's `AVPlayerInterstitialEventMonitor` asset-list
/// response status).
public enum AssetListResponseStatus: Sendable, Hashable, CustomStringConvertible {
    /// The list arrived and parsed, with this many assets.
    case available(assets: Int)
    /// The request or the document failed.
    case failed(String)

    /// `available (n)` or `failed: reason`.
    public var description: String {
        switch self {
        case .available(let count): return "available (\(count) asset\(count == 1 ? "" : "s"))"
        case .failed(let reason): return "failed: \(reason)"
        }
    }
}
