import MediaTime

/// A participant's local breaks on the coordinated timeline, shared with the group so that a
/// participant who waits knows whom it waits for and for how long, and can show something else
/// (promos, a countdown) meanwhile (MISSION S1.11).
public struct AdSchedule: Sendable, Hashable {
    /// One local break.
    public struct Entry: Sendable, Hashable {
        /// Where the break comes from.
        public enum Source: Sendable, Hashable {
            /// Ads stitched into the participant's item.
            case stitched
            /// An HLS interstitial whose content may vary.
            case interstitial(eventIdentifier: String)
        }

        /// The coordinated time at which the participant leaves the shared content.
        public var coordinatedTime: MediaTime
        /// How long the break plays.
        public var duration: MediaTime
        /// What kind of break it is.
        public var source: Source

        /// An entry.
        public init(coordinatedTime: MediaTime, duration: MediaTime, source: Source) {
            self.coordinatedTime = coordinatedTime
            self.duration = duration
            self.source = source
        }
    }

    /// Whose schedule this is.
    public var participant: CoordinatedPlaybackParticipant.ID
    /// The item it applies to.
    public var itemIdentifier: String
    /// The breaks, by coordinated time.
    public var entries: [Entry]

    /// A schedule.
    public init(participant: CoordinatedPlaybackParticipant.ID, itemIdentifier: String, entries: [Entry]) {
        self.participant = participant
        self.itemIdentifier = itemIdentifier
        self.entries = entries.sorted { $0.coordinatedTime < $1.coordinatedTime }
    }

    /// The entry at a coordinated time, if any.
    public func entry(at time: MediaTime) -> Entry? {
        entries.first { $0.coordinatedTime == time }
    }
}
