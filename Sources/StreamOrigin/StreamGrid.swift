import MediaTime

/// The segment grid of a stream: each segment is a whole number of consecutive content chunks,
/// and breaks sit on segment boundaries; only a VOD's last segment may be shorter, ending on a
/// keyframe.
struct StreamGrid: Sendable, Hashable {
    /// The measured duration of one content chunk.
    var chunkDuration: MediaTime
    /// Chunks per segment.
    var chunksPerSegment: Int

    /// The duration of a content segment.
    var segmentDuration: MediaTime { chunkDuration * Int64(chunksPerSegment) }

    /// Content segment `index`: its source and where it starts.
    func contentSegment(_ index: Int) -> OriginSegment {
        OriginSegment(source: .content(first: index * chunksPerSegment, count: chunksPerSegment),
                      start: segmentDuration * Int64(index), duration: segmentDuration)
    }

    /// Content segment `index`, the last one of content `length` long that ends at `end` (see
    /// ``MediaLibrary/contentEnd(at:)``): shorter than the others when `length` is not a whole
    /// number of segments, its last chunk cut at a keyframe when `length` is not a whole number of
    /// chunks either.
    func lastContentSegment(_ index: Int, length: MediaTime, end: MediaLibrary.ContentEnd) -> OriginSegment {
        let first = index * chunksPerSegment
        let start = segmentDuration * Int64(index)
        let isCut = end.keyframe > 0
        return OriginSegment(source: .content(first: first, count: end.chunk - first + (isCut ? 1 : 0), cutBeforeKeyframe: isCut ? end.keyframe : nil),
                             start: start, duration: length - start)
    }
}
