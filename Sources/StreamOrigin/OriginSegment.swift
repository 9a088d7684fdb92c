import MediaTime

/// One media segment of a stream as the origin lays it out for a viewer: where its media comes
/// from, where it sits, and the stitched-ad markers it carries.
struct OriginSegment: Sendable, Hashable {
    /// Where the segment's bytes come from.
    enum Source: Sendable, Hashable {
        /// `count` consecutive chunks of the endlessly looped content, from chunk `first`; with
        /// `cutBeforeKeyframe`, the last of them cut before that keyframe (a VOD's shorter last
        /// segment).
        case content(first: Int, count: Int, cutBeforeKeyframe: Int? = nil)
        /// Chunk `chunk` of ad `adID`.
        case ad(adID: String, chunk: Int)
    }

    /// A stitched pod that starts at this segment.
    struct PodStart: Sendable, Hashable {
        /// The break.
        var breakID: String
        /// Its number, for the SCTE-35 splice event.
        var breakNumber: Int
        /// Where the break sits in the content, from the stream's start (for the SCTE-35 splice time).
        var contentPosition: MediaTime
        /// The pod's duration.
        var duration: MediaTime
    }

    /// Where the bytes come from.
    var source: Source
    /// Where the segment starts, from the stream's first date (VOD: its program date-time; live:
    /// its start date).
    var start: MediaTime
    /// The measured duration.
    var duration: MediaTime
    /// EXT-X-DISCONTINUITY precedes it.
    var isDiscontinuity = false
    /// The pod it opens (EXT-X-CUE-OUT and the SCTE-35 date range).
    var podStart: PodStart?
    /// Time elapsed in a pod at a segment after its first, and the pod's duration.
    struct PodProgress: Sendable, Hashable {
        /// From the pod's start to this segment's.
        var elapsed: MediaTime
        /// The pod's duration.
        var duration: MediaTime
    }

    /// Inside a pod after its first segment: how far into it (EXT-X-CUE-OUT-CONT).
    var podProgress: PodProgress?
    /// The first content segment after a pod (EXT-X-CUE-IN).
    var resumesContent = false

    init(source: Source, start: MediaTime, duration: MediaTime) {
        self.source = source
        self.start = start
        self.duration = duration
    }

    /// Where it ends.
    var end: MediaTime { start + duration }

    /// The segment's URI: an absolute path on the origin.
    var uri: String {
        switch source {
        case .content(let first, let count, let keyframe):
            let chunks = count == 1 ? "\(first)" : "\(first)-\(first + count - 1)"
            return "/media/content/\(chunks)\(keyframe.map { ".cut\($0)" } ?? "").ts"
        case .ad(let adID, let chunk):
            return "/ads/media/\(adID)/\(chunk).ts"
        }
    }
}
