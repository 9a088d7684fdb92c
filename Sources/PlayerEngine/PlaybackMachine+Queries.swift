import HLSInterstitials
import HLSPlaylist
import MediaTime

extension PlaybackMachine {
    /// Where playback is, as of the last input: primary content at a time, or a break at an offset.
    public var currentPosition: IntegratedTimeline.Position { position }

    /// The primary item's time as of the last input.
    public var currentTime: MediaTime { primaryPosition }

    /// The integrated timeline's time as of the last input.
    public var integratedCurrentTime: MediaTime { integratedTime }

    /// The item playing now (`nil`: none left).
    public var currentItem: PlayerItem? { item }

    /// The current item's status.
    public var itemStatus: ItemStatus { status }

    /// The time-control status as last reported.
    public var timeControlStatus: TimeControlStatus { lastStatus }

    /// The rate asked for.
    public var rate: Double { timeControl.requestedRate }

    /// The rate the playhead actually moves at now (zero while waiting, in a break, or paused).
    public var effectiveRate: Double { current == nil ? media.rate(of: .primary) : 0 }

    /// The current item's interstitial schedule, once its playlist is loaded.
    public var interstitialSchedule: InterstitialSchedule? { interstitials.schedule }

    /// A snapshot of the integrated timeline as of the last input.
    public var currentSnapshot: IntegratedTimeline.Snapshot? { snapshot() }

    /// The primary item's duration: `indefinite` for live, `nil` until known.
    public var duration: MediaTime? { media.primaryTimeline.map { $0.isLive ? .indefinite : $0.end } }

    /// The event whose break plays now.
    public var currentEvent: InterstitialEvent? { current?.scheduled.event }

    /// Whether the item played to its end.
    public var hasReachedEnd: Bool { hasPlayedToEnd }
}

extension PlaybackMachine {
    /// The primary item's current media playlist, once loaded.
    public var mediaPlaylist: MediaPlaylist? { media.primaryPlaylist }

    /// The stitched-ad ranges of the primary item, on its timeline (for live, the stable timeline
    /// kept across reloads), worked out when its playlist was loaded and continued at each live
    /// reload: a break whose segments left the window keeps its range.
    public var stitchedAds: StitchedAds? { media.primary?.stitchedAds }

    /// Where the primary timeline starts (it moves as a live window slides).
    public var timelineStart: MediaTime? { media.primary?.timeline?.start }
}

extension PlaybackMachine {
    /// Where playback is at host time `host`, from the playheads as they stand (no input is
    /// handled): exact when nothing falls due before `host` (``nextWake`` is later), which is how
    /// a driver that wakes the machine at its deadlines samples it between them.
    public func position(atHost host: Duration) -> IntegratedTimeline.Position {
        if let playing = current {
            return .interstitial(eventID: playing.scheduled.id, offset: breakOffset(playing, atHost: host))
        }
        return .primary(media.position(of: .primary, atHost: host))
    }

    /// The host time at which the primary playhead reaches item time `time`, playing on as it does
    /// now: `nil` while paused or waiting, in an interstitial, or moving away from it. Rounded up,
    /// so that ``position(atHost:)`` there has reached `time`; exact, like it, while nothing falls
    /// due before. A stitched ad is primary content to the player, which reports no event at its
    /// start or end: a coordinator wakes at this time to notice it.
    public func hostTime(whenPrimaryReaches time: MediaTime) -> Duration? {
        hostTime(reaching: time, in: .primary)
    }
}

extension PlaybackMachine {
    /// The rate the position moves at now: the primary playhead's, or in a break the playing
    /// asset's (zero while paused or waiting, and in a break whose asset is not open yet). For
    /// a follower that extrapolates the position (a browser's `<video>`).
    package var positionRate: Double {
        guard let playing = current else { return media.rate(of: .primary) }
        return playing.stream.map { media.rate(of: $0) } ?? 0
    }

    /// Where primary resumes after the break playing (the schedule's resumption point, or the
    /// destination of a seek across it); `nil` when no break plays.
    package var resumptionPoint: MediaTime? { current == nil ? nil : primaryAnchor }

    /// The identifier of the first break not played yet in this pass, the one primary enters
    /// when it reaches its start.
    package var nextBreakID: String? { interstitials.nextBreak()?.id }
}
