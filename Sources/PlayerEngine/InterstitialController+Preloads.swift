import HLSInterstitials
import MediaTime

extension InterstitialController {
    /// The URL of a break's first asset, once known (its asset list resolved, or X-ASSET-URI):
    /// against the asset list's URL, else `primaryBase`, with `primaryID` as `_HLS_primary_id`.
    package func firstAssetURL(of scheduled: InterstitialSchedule.Break, primaryBase: String?, primaryID: String) -> String? {
        guard let uri = firstAssetURI(of: scheduled) else { return nil }
        var base = primaryBase
        if scheduled.event.assetListURI != nil { base = assetListURLs[scheduled.id] ?? base }
        return InterstitialRequest.url(uri, relativeTo: base, primaryID: primaryID)
    }

    /// The URL of an asset of a break: against the asset list's URL once it is resolved, else
    /// `primaryBase`, with `primaryID` as `_HLS_primary_id`.
    package func assetURL(_ uri: String, eventID: String, primaryBase: String?, primaryID: String) -> String {
        InterstitialRequest.url(uri, relativeTo: assetBase(for: eventID, primaryBase: primaryBase), primaryID: primaryID)
    }

    /// What to preload with primary at `time`: forget the `preloads` (event and stream) of breaks
    /// that will not play (played in this pass, unless it is the break `playing`, or gone from the
    /// schedule), and, while no break plays, load the next break's first asset once it is within
    /// `lead` and its URL is known, so that the interstitial player starts without a gap.
    package func preloadCommands(preloads: [(eventID: String, stream: PlaybackStream)], playing: String?, at time: MediaTime, lead: MediaTime,
                                 primaryBase: String?, primaryID: String) -> [PlaybackCommand] {
        guard let schedule else { return [] }
        var commands: [PlaybackCommand] = []
        for preload in preloads where (consumed.contains(preload.eventID) && playing != preload.eventID) || schedule.scheduledBreak(id: preload.eventID) == nil {
            commands.append(.cancelPreload(preload.stream))
        }
        // The next break is neither played nor gone: a preload of it is never forgotten above.
        guard playing == nil, let next = nextBreak(), !preloads.contains(where: { $0.eventID == next.id }) else { return commands }
        guard !(time < next.start - lead), let url = firstAssetURL(of: next, primaryBase: primaryBase, primaryID: primaryID) else { return commands }
        commands.append(.preload(.asset(eventID: next.id, index: 0), url: url))
        return commands
    }
}
