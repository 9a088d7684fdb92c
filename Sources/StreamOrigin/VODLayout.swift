import MediaTime

/// A VOD stream's segments for one viewer, and where its breaks fall.
///
/// The content is laid out in segments of the stream's grid, the last one shorter (cut at a
/// keyframe) when the length is not a multiple of the segment duration.
///
/// In interstitials mode the segments are the content alone, the same for every viewer. In
/// stitched mode each break's pod (the viewer's ad decision) is inserted at its position: its
/// first segment opens the pod (EXT-X-CUE-OUT, the SCTE-35 date range) after an
/// EXT-X-DISCONTINUITY unless it starts the stream, and the content that follows resumes after
/// another discontinuity with EXT-X-CUE-IN. Premium viewers' playlists have no pods at all.
struct VODLayout: Sendable {
    /// A break, where it falls on the viewer's timeline, and what the viewer gets there.
    struct PlacedBreak: Sendable {
        /// The configured break.
        var configured: OriginConfiguration.Break
        /// Where it starts on the viewer's timeline (equal to its content position in
        /// interstitials mode, later by the pods before it in stitched mode).
        var start: MediaTime
        /// The viewer's ads there.
        var decision: AdDecision
    }

    /// The segments, in order.
    let segments: [OriginSegment]
    /// The breaks, in order.
    let breaks: [PlacedBreak]
    /// A pod ends the stream (a post-roll): EXT-X-CUE-IN follows the last segment.
    let endsInPod: Bool

    /// Lays out `vod` for `viewer`.
    ///
    /// - Complexity: O(n + a) for n content segments and a ad segments.
    init(stream: OriginConfiguration.Stream, vod: OriginConfiguration.VOD, grid: StreamGrid, viewer: OriginConfiguration.Viewer,
         decisions: AdDecisionEngine) {
        // Whole segments, then a shorter one when the length is not a multiple of their duration.
        let whole = Int(vod.duration.floorQuotient(dividingBy: grid.segmentDuration))
        let tail = grid.segmentDuration * Int64(whole) == vod.duration ? nil : decisions.library.contentEnd(at: vod.duration)
        let count = tail == nil ? whole : whole + 1
        var segments: [OriginSegment] = []
        segments.reserveCapacity(count)
        var placed: [PlacedBreak] = []
        var time = MediaTime.zero
        var resuming = false
        var breakIndex = 0
        for index in 0...count {
            let position = index < count ? grid.segmentDuration * Int64(index) : vod.duration
            while breakIndex < vod.breaks.count, vod.breaks[breakIndex].position == position {
                let configured = vod.breaks[breakIndex]
                let decision = decisions.decision(stream: stream, viewer: viewer, breakID: configured.id, targeting: configured.targeting)
                placed.append(PlacedBreak(configured: configured, start: time, decision: decision))
                if stream.mode == .stitched, !decision.isEmpty {
                    let pod = Self.podSegments(decision, breakNumber: breakIndex, contentPosition: position, start: time,
                                               library: decisions.library, isFirstInStream: segments.isEmpty)
                    segments.append(contentsOf: pod)
                    time += decision.duration
                    resuming = true
                }
                breakIndex += 1
            }
            guard index < count else { break }
            var segment = grid.contentSegment(index)
            if index == whole, let tail { segment = grid.lastContentSegment(index, length: vod.duration, end: tail) }
            segment.start = time
            if resuming {
                segment.isDiscontinuity = true
                segment.resumesContent = true
                resuming = false
            }
            segments.append(segment)
            time += segment.duration
        }
        self.segments = segments
        self.breaks = placed
        self.endsInPod = resuming
    }

    /// The segments of a stitched pod starting at `start`.
    static func podSegments(_ decision: AdDecision, breakNumber: Int, contentPosition: MediaTime, start: MediaTime,
                            library: MediaLibrary, isFirstInStream: Bool) -> [OriginSegment] {
        var result: [OriginSegment] = []
        var elapsed = MediaTime.zero
        for placement in decision.placements {
            guard let ad = library.ads[placement.adID] else { continue }
            for (chunkIndex, chunk) in ad.chunks.enumerated() {
                var segment = OriginSegment(source: .ad(adID: ad.id, chunk: chunkIndex), start: start + elapsed, duration: chunk.duration)
                if result.isEmpty {
                    segment.isDiscontinuity = !isFirstInStream
                    segment.podStart = OriginSegment.PodStart(breakID: decision.breakID, breakNumber: breakNumber,
                                                              contentPosition: contentPosition, duration: decision.duration)
                } else {
                    segment.podProgress = OriginSegment.PodProgress(elapsed: elapsed, duration: decision.duration)
                }
                result.append(segment)
                elapsed += chunk.duration
            }
        }
        return result
    }
}
