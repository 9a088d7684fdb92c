import MediaTime

/// The segment grid of a stream: each segment is a whole number of consecutive content chunks,
/// and breaks sit on segment boundaries.
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
}
