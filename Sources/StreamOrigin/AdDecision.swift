import MediaTime

/// The ads one viewer gets at one break: which, in what order, and exactly how long each lasts.
public struct AdDecision: Sendable, Hashable {
    /// One ad of the pod.
    public struct Placement: Sendable, Hashable {
        /// The ad's identifier.
        public var adID: String
        /// Where it starts, from the start of the break.
        public var offset: MediaTime
        /// Its measured duration.
        public var duration: MediaTime

        /// A placement.
        public init(adID: String, offset: MediaTime, duration: MediaTime) {
            self.adID = adID
            self.offset = offset
            self.duration = duration
        }
    }

    /// The stream.
    public var streamID: String
    /// The viewer.
    public var viewerID: String
    /// The break.
    public var breakID: String
    /// The ads, back to back; empty when the viewer gets none.
    public var placements: [Placement]

    /// A decision.
    public init(streamID: String, viewerID: String, breakID: String, placements: [Placement]) {
        self.streamID = streamID
        self.viewerID = viewerID
        self.breakID = breakID
        self.placements = placements
    }

    /// The whole pod's duration.
    public var duration: MediaTime {
        placements.last.map { $0.offset + $0.duration } ?? .zero
    }

    /// Whether the viewer gets nothing at this break.
    public var isEmpty: Bool { placements.isEmpty }
}
