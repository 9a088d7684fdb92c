import GroupCoordination
import HLSInterstitials

extension CoordinatedTimeMapping.Break {
    /// A break from a scheduled interstitial (its resolved start, duration and resumption offset).
    public init(_ scheduled: InterstitialSchedule.Break) {
        self.init(
            eventIdentifier: scheduled.id,
            itemTime: scheduled.start,
            duration: scheduled.playoutDuration,
            resumptionOffset: scheduled.resumptionOffset,
            contentMayVary: scheduled.event.contentMayVary
        )
    }
}
