import GroupCoordination
import HLSInterstitials

extension CoordinatedTimeMapping.Break {
    /// A break from a scheduled interstitial (its resolved start, duration, resumption offset and
    /// whether its assets are known yet).
    public init(_ scheduled: InterstitialSchedule.Break) {
        let assets: Assets =
            if scheduled.playsNothing { .empty } else if scheduled.assets == nil { .pending } else { .present }
        self.init(
            eventIdentifier: scheduled.id,
            itemTime: scheduled.start,
            duration: scheduled.playoutDuration,
            resumptionOffset: scheduled.resumptionOffset,
            contentMayVary: scheduled.event.contentMayVary,
            assets: assets
        )
    }
}
