import HLSPlaylist
import MediaTime

/// Ads stitched into a primary playlist (server-side ad insertion): their time ranges on the
/// item's own timeline, summed from EXTINF, and the mapping between item time and content time
/// (the item's timeline with those ranges removed), which coordinated playback runs on (S1.5).
///
/// Ranges come from the de-facto markers — a break opens at the segment after `EXT-X-CUE-OUT`
/// and closes at the segment carrying `EXT-X-CUE-IN` (or when the CUE-OUT duration has been
/// covered) — or, when a playlist has no markers, from SCTE-35 date ranges (`SCTE35-OUT` with a
/// DURATION or PLANNED-DURATION, or closed by a same-ID `SCTE35-IN`), aligned to segment
/// boundaries. Every range is a sum of EXTINF durations, which assumes EXTINF matches the media
/// (S1.6; `MediaProbe` checks that).
public struct StitchedAds: Sendable, Hashable {
    /// The ad ranges on the item timeline, in order, non-overlapping.
    public let ranges: [MediaTimeRange]
    /// The item's total duration (the sum of EXTINF).
    public let itemDuration: MediaTime

    /// Ranges given directly (for example by an app that knows its ad schedule).
    public init(ranges: [MediaTimeRange], itemDuration: MediaTime) {
        let sorted = ranges.filter { !$0.isEmpty }.sorted { $0.start < $1.start }
        var merged: [MediaTimeRange] = []
        for range in sorted {
            if let last = merged.last, !(last.end < range.start) {
                merged[merged.count - 1] = last.union(range)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
        self.itemDuration = itemDuration
    }

    /// The stitched-ad ranges of a playlist.
    ///
    /// - Complexity: O(n) in the number of segments.
    public init(playlist: MediaPlaylist) {
        let timeline = PrimaryTimeline(playlist: playlist)
        var ranges: [MediaTimeRange] = []
        var hasMarkers = false
        // Where the open break's first segment in this playlist starts, where the break itself
        // started (earlier, when a live window slid past its CUE-OUT), and how long it lasts.
        var openStart: MediaTime?
        var podStart: MediaTime?
        var expected: MediaTime?
        for (index, segment) in playlist.segments.enumerated() {
            let start = timeline.segmentStarts[index]
            if let open = openStart, let pod = podStart, let expected, !(start - pod < expected) {
                ranges.append(MediaTimeRange(start: open, end: start))
                openStart = nil
            }
            for marker in segment.adMarkers {
                switch marker {
                case .cueOut(let duration, _):
                    hasMarkers = true
                    if let open = openStart, open < start { ranges.append(MediaTimeRange(start: open, end: start)) }
                    openStart = start
                    podStart = start
                    expected = duration
                case .cueOutContinuation(let elapsed, let duration, _):
                    hasMarkers = true
                    // A break in progress whose CUE-OUT is no longer in the playlist (the live
                    // window slid past it): it covers this segment on, and ends `duration` after
                    // it began, `elapsed` before this segment.
                    if openStart == nil {
                        openStart = start
                        podStart = start - (elapsed ?? .zero)
                        expected = duration
                    }
                case .cueIn:
                    hasMarkers = true
                    if let open = openStart, open < start { ranges.append(MediaTimeRange(start: open, end: start)) }
                    openStart = nil
                    expected = nil
                case .oatclsSCTE35:
                    hasMarkers = true
                }
            }
        }
        for marker in playlist.trailingAdMarkers {
            if case .cueIn = marker, let open = openStart, open < timeline.end {
                ranges.append(MediaTimeRange(start: open, end: timeline.end))
                openStart = nil
            }
        }
        if let open = openStart, open < timeline.end {
            let end = expected.map { MediaTime.min(timeline.end, Self.boundary(atOrAfter: (podStart ?? open) + $0, in: timeline)) } ?? timeline.end
            ranges.append(MediaTimeRange(start: open, end: end))
        }
        if !hasMarkers {
            ranges = Self.scte35Ranges(playlist: playlist, timeline: timeline)
        }
        self.init(ranges: ranges, itemDuration: timeline.duration)
    }

    private static func scte35Ranges(playlist: MediaPlaylist, timeline: PrimaryTimeline) -> [MediaTimeRange] {
        var ranges: [MediaTimeRange] = []
        for range in playlist.consolidatedDateRanges where range.scte35Out != nil || range.scte35In != nil {
            guard range.scte35Out != nil, let startDate = range.startDate, let mapped = timeline.time(for: startDate) else { continue }
            let start = timeline.nearestSegmentBoundary(to: mapped)
            let length = range.resolvedDuration ?? range.plannedDuration
            guard let length else { continue }
            let end = MediaTime.min(timeline.end, timeline.nearestSegmentBoundary(to: mapped + length))
            if start < end { ranges.append(MediaTimeRange(start: start, end: end)) }
        }
        return ranges
    }

    private static func boundary(atOrAfter time: MediaTime, in timeline: PrimaryTimeline) -> MediaTime {
        guard let index = timeline.segmentIndex(containing: time) else { return time }
        let start = timeline.segmentStarts[index]
        return start == time ? start : start + timeline.segmentDurations[index]
    }

    /// The content duration: the item duration without the ads.
    public var contentDuration: MediaTime {
        var total = itemDuration
        for range in ranges { total -= range.duration }
        return total
    }

    /// The ad range containing an item time, if any.
    public func range(containing itemTime: MediaTime) -> MediaTimeRange? {
        ranges.first { $0.contains(itemTime) }
    }

    /// The content time of an item time: the item time less the ads before it. Inside an ad the
    /// content time is that of the ad's start (content stands still while the ad plays).
    ///
    /// - Complexity: O(r) in the number of ranges.
    public func contentTime(forItemTime itemTime: MediaTime) -> MediaTime {
        var removed = MediaTime.zero
        for range in ranges {
            if !(range.start < itemTime) { break }
            removed += MediaTime.min(range.end, itemTime) - range.start
        }
        return itemTime - removed
    }

    /// The item time of a content time. Where ads sit exactly at that content time, the time
    /// before them (so that the ads play next).
    ///
    /// - Complexity: O(r) in the number of ranges.
    public func itemTime(forContentTime contentTime: MediaTime) -> MediaTime {
        var added = MediaTime.zero
        for range in ranges {
            if !(range.start - added < contentTime) { break }
            added += range.duration
        }
        return contentTime + added
    }
}
