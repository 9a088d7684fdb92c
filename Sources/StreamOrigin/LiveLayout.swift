import MediaTime

/// A live stream's endless sequence of segments for one viewer, computed in O(1) per segment from
/// the time since the stream started, so a stream that has run for days costs no more than one
/// that just began.
///
/// The content runs on the segment grid from the start date. Breaks fall every `interval` from
/// `first`. In interstitials mode the sequence is the content alone. In stitched mode the viewer's
/// pod replaces the content from each break's position until the first segment boundary at or
/// after the pod's end (as a broadcast ad slot does), so the viewer stays at the live edge: the
/// pod's segments, then an EXT-X-DISCONTINUITY back to the content.
///
/// Segment `i` is published when its end is no later than the time since the start.
struct LiveLayout: Sendable {
    let grid: StreamGrid
    let repeating: OriginConfiguration.RepeatingBreak?
    /// Content segments before break 0.
    let prelude: Int
    /// Content segments from one break to the next.
    let interval: Int
    /// The viewer's pod, one entry per ad segment (empty in interstitials mode or for no ads).
    let podSegments: [OriginSegment]
    /// The pod's duration.
    let podDuration: MediaTime
    /// Content segments the pod replaces at each break.
    let replaced: Int

    /// The layout of `live` for `viewer`; in stitched mode the viewer's pod is inserted.
    init(stream: OriginConfiguration.Stream, live: OriginConfiguration.Live, grid: StreamGrid, viewer: OriginConfiguration.Viewer,
         decisions: AdDecisionEngine) {
        self.grid = grid
        self.repeating = live.repeatingBreak
        if let repeating = live.repeatingBreak {
            prelude = Int(repeating.first.floorQuotient(dividingBy: grid.segmentDuration))
            interval = Int(repeating.interval.floorQuotient(dividingBy: grid.segmentDuration))
        } else {
            prelude = Int.max
            interval = 1
        }
        if stream.mode == .stitched, let repeating = live.repeatingBreak {
            // Every break of a repeating break has the same targeting, so the same decision.
            let decision = decisions.decision(stream: stream, viewer: viewer, breakID: repeating.id(ofBreak: 0),
                                              targeting: repeating.targeting)
            podSegments = VODLayout.podSegments(decision, breakNumber: 0, contentPosition: .zero, start: .zero,
                                                library: decisions.library, isFirstInStream: false)
            podDuration = decision.duration
            replaced = decision.isEmpty ? 0 : Int(decision.duration.ceilingQuotient(dividingBy: grid.segmentDuration))
        } else {
            podSegments = []
            podDuration = .zero
            replaced = 0
        }
    }

    /// Segments from one break to the next.
    var perCycle: Int { podSegments.count + interval - replaced }

    /// Where break `k` sits, from the start.
    func breakPosition(_ k: Int) -> MediaTime { grid.segmentDuration * Int64(prelude + k * interval) }

    /// The index of the first segment of break `k`'s cycle.
    func firstIndex(ofCycle k: Int) -> Int { prelude + k * perCycle }

    /// Segment `index` (0 is the stream's first).
    func segment(at index: Int) -> OriginSegment {
        guard index >= prelude else { return grid.contentSegment(index) }
        let k = (index - prelude) / perCycle
        let within = (index - prelude) % perCycle
        let breakStart = breakPosition(k)
        if within < podSegments.count {
            var segment = podSegments[within]
            segment.start = breakStart + segment.start
            if var podStart = segment.podStart {
                podStart.breakID = repeating?.id(ofBreak: k) ?? podStart.breakID
                podStart.breakNumber = k
                podStart.contentPosition = breakStart
                segment.podStart = podStart
                segment.isDiscontinuity = index > 0
            }
            return segment
        }
        var segment = grid.contentSegment(prelude + k * interval + replaced + within - podSegments.count)
        if !podSegments.isEmpty, within == podSegments.count {
            segment.isDiscontinuity = true
            segment.resumesContent = true
        }
        return segment
    }

    /// How many segments are published `elapsed` after the start.
    func availableCount(elapsed: MediaTime) -> Int {
        guard !elapsed.isNegative else { return 0 }
        let whole = Int(clamping: elapsed.floorQuotient(dividingBy: grid.segmentDuration))
        guard whole >= prelude else { return whole }
        let sincePrelude = elapsed - grid.segmentDuration * Int64(prelude)
        let k = Int(sincePrelude.floorQuotient(dividingBy: grid.segmentDuration * Int64(interval)))
        let intoCycle = elapsed - breakPosition(k)
        var count = prelude + k * perCycle
        for segment in podSegments where !(intoCycle < segment.end) { count += 1 }
        count += max(0, Int(intoCycle.floorQuotient(dividingBy: grid.segmentDuration)) - replaced)
        return count
    }

    /// How many segments before `index` carry EXT-X-DISCONTINUITY: EXT-X-DISCONTINUITY-SEQUENCE
    /// of a playlist whose first segment is `index`.
    func discontinuities(before index: Int) -> Int {
        guard !podSegments.isEmpty, index > prelude else { return 0 }
        let k = (index - prelude) / perCycle
        let within = (index - prelude) % perCycle
        // Each full cycle has two: into its pod (except a pod that starts the stream) and out of it.
        var count = 2 * k - (prelude == 0 && k > 0 ? 1 : 0)
        if within > 0, !(prelude == 0 && k == 0) { count += 1 }
        if within > podSegments.count { count += 1 }
        return count
    }
}
