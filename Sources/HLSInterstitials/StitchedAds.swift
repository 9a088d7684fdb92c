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
///
/// A live window shows only part of a break at times: joined mid-break (the window begins with
/// `EXT-X-CUE-OUT-CONT`, or with ad segments closed by a CUE-IN), or with the break still being
/// published. The range then takes what the cues state: it begins `ElapsedTime` before the first
/// segment (or at its SCTE-35 START-DATE), and lasts the CUE-OUT `Duration` (or its DURATION /
/// PLANNED-DURATION) until the segments that end it are listed. A live reload continues the
/// ranges read before (``init(playlist:timeline:continuing:)``): a range keeps its start and
/// length as its segments slide out of the window, so that content time, and the coordinated
/// time made from it, never moves under a participant.
public struct StitchedAds: Sendable, Hashable {
    /// The ad ranges on the item timeline, in order, non-overlapping.
    public let ranges: [MediaTimeRange]
    /// The item's total duration (the sum of EXTINF; for a live playlist, its window's).
    public let itemDuration: MediaTime
    /// Where the item's timeline starts (the first segment's time).
    public let itemStart: MediaTime
    /// What the playlists read showed of each range, parallel to `ranges`.
    private let evidence: [Evidence]

    /// How much of a range the playlists listed, rather than stated.
    struct Evidence: Sendable, Hashable {
        /// Its start is a listed segment's (the one after its CUE-OUT) or a START-DATE, not
        /// inferred from an elapsed time or cut by the window.
        var isStartListed: Bool
        /// Its end is a listed segment's (its CUE-IN, or the first after its stated duration),
        /// not a stated duration alone or the playlist's end.
        var isEndListed: Bool

        static let listed = Evidence(isStartListed: true, isEndListed: true)
    }

    /// A range with what is known of it.
    struct Found: Sendable, Hashable {
        var range: MediaTimeRange
        var evidence: Evidence
    }

    /// Ranges given directly (for example by an app that knows its ad schedule).
    public init(ranges: [MediaTimeRange], itemDuration: MediaTime) {
        self.init(found: ranges.map { Found(range: $0, evidence: .listed) }, itemStart: .zero, itemDuration: itemDuration)
    }

    /// Sorts `found`, drops empty ranges and merges overlapping or adjacent ones.
    private init(found: [Found], itemStart: MediaTime, itemDuration: MediaTime) {
        let sorted = found.filter { !$0.range.isEmpty }.sorted { $0.range.start < $1.range.start }
        var merged: [Found] = []
        for next in sorted {
            if let last = merged.last, !(last.range.end < next.range.start) {
                let later = last.range.end < next.range.end ? next : last
                merged[merged.count - 1] = Found(
                    range: last.range.union(next.range),
                    evidence: Evidence(isStartListed: last.evidence.isStartListed, isEndListed: later.evidence.isEndListed))
            } else {
                merged.append(next)
            }
        }
        self.ranges = merged.map(\.range)
        self.evidence = merged.map(\.evidence)
        self.itemStart = itemStart
        self.itemDuration = itemDuration
    }

    /// The stitched-ad ranges of a playlist, on its own timeline (from 0 at its first segment).
    ///
    /// - Complexity: O(n) in the number of segments.
    public init(playlist: MediaPlaylist) {
        self.init(playlist: playlist, timeline: PrimaryTimeline(playlist: playlist))
    }

    /// The stitched-ad ranges of a playlist on `timeline`, the one the player keeps for it (for a
    /// live playlist, the stable timeline of ``PrimaryTimeline/init(playlist:continuing:)``).
    ///
    /// - Complexity: O(n) in the number of segments.
    public init(playlist: MediaPlaylist, timeline: PrimaryTimeline) {
        self.init(found: Self.found(in: playlist, timeline: timeline), itemStart: timeline.start, itemDuration: timeline.duration)
    }

    /// The stitched-ad ranges of a reloaded live playlist, continuing `previous` (both on the
    /// stable timeline): a range seen before is the same break when the new playlist's range
    /// overlaps it (on that timeline, a break's segments keep their times). A remembered range is
    /// only ever extended or confirmed: it keeps its listed start and listed end, a stated end
    /// gives way to a listed one or grows with the window, and a range whose segments left the
    /// window stays whole, so that the content time of every later item time stays where it was.
    ///
    /// - Complexity: O(n + r log r) in the number of segments and ranges.
    public init(playlist: MediaPlaylist, timeline: PrimaryTimeline, continuing previous: StitchedAds) {
        let found = Self.found(in: playlist, timeline: timeline)
        var kept = zip(previous.ranges, previous.evidence).map { Found(range: $0, evidence: $1) }
        var added: [Found] = []
        var cursor = 0
        for new in found {
            while cursor < kept.count, !(new.range.start < kept[cursor].range.end) { cursor += 1 }
            guard cursor < kept.count, kept[cursor].range.intersection(new.range) != nil else {
                added.append(new)
                continue
            }
            kept[cursor] = Self.continuing(kept[cursor], with: new)
        }
        self.init(found: kept + added, itemStart: timeline.start, itemDuration: timeline.duration)
    }

    /// A remembered range seen again: its start stays (a later window shows less of the break's
    /// beginning, never more), and so does a listed end; a stated end gives way to a listed one,
    /// or to a later stated one.
    private static func continuing(_ remembered: Found, with new: Found) -> Found {
        var result = remembered
        if !remembered.evidence.isEndListed {
            let end = new.evidence.isEndListed ? new.range.end : MediaTime.max(remembered.range.end, new.range.end)
            result.range = MediaTimeRange(start: result.range.start, end: end)
            result.evidence.isEndListed = new.evidence.isEndListed
        }
        return result
    }

    /// The ranges one playlist shows, on `timeline`.
    private static func found(in playlist: MediaPlaylist, timeline: PrimaryTimeline) -> [Found] {
        var found: [Found] = []
        var hasMarkers = false
        // The open break: where its range starts, whether that start is listed, where the break
        // began (before the playlist's first segment for a break already in progress) and how long
        // the cues say it lasts.
        var open: (start: MediaTime, isStartListed: Bool, began: MediaTime, expected: MediaTime?)?
        func close(at end: MediaTime, isEndListed: Bool) {
            if let current = open, current.start < end {
                found.append(Found(range: MediaTimeRange(start: current.start, end: end),
                                   evidence: Evidence(isStartListed: current.isStartListed, isEndListed: isEndListed)))
            }
            open = nil
        }
        for (index, segment) in playlist.segments.enumerated() {
            let start = timeline.segmentStarts[index]
            if let current = open, let expected = current.expected, !(start - current.began < expected) {
                close(at: start, isEndListed: true)
            }
            for marker in segment.adMarkers {
                switch marker {
                case .cueOut(let duration, _):
                    hasMarkers = true
                    close(at: start, isEndListed: true)
                    open = (start, true, start, duration)
                case .cueOutContinuation(let elapsed, let duration, _):
                    hasMarkers = true
                    // A break in progress whose CUE-OUT is not in the playlist (a live window
                    // that slid past it, a player that joined mid-break): it began `elapsed`
                    // before this segment, and ends `duration` after it began. On a live
                    // timeline its range starts there too (the time before the window is
                    // the stream's); a complete playlist has nothing before its first segment.
                    if open == nil {
                        let began = start - (elapsed ?? .zero)
                        open = (timeline.isLive ? began : MediaTime.max(began, timeline.start), false, began, duration)
                    }
                case .cueIn:
                    if !hasMarkers, index > 0 {
                        // The playlist's first marker, after segments: ad segments with neither
                        // CUE-OUT nor CUE-OUT-CONT, a break that began before the window.
                        open = (timeline.start, false, timeline.start, nil)
                    }
                    hasMarkers = true
                    close(at: start, isEndListed: true)
                case .oatclsSCTE35:
                    hasMarkers = true
                }
            }
        }
        for marker in playlist.trailingAdMarkers {
            if case .cueIn = marker { close(at: timeline.end, isEndListed: true) }
        }
        if let current = open {
            if let expected = current.expected {
                let end = Self.boundary(atOrAfter: current.began + expected, in: timeline)
                close(at: timeline.isLive ? end : MediaTime.min(timeline.end, end), isEndListed: false)
            } else {
                close(at: timeline.end, isEndListed: false)
            }
        }
        guard hasMarkers else { return scte35Ranges(playlist: playlist, timeline: timeline) }
        // A break whose start the markers leave unknown takes its SCTE-35 date range's.
        let dated = scte35Ranges(playlist: playlist, timeline: timeline)
        return found.map { range in
            guard !range.evidence.isStartListed, range.range.start == timeline.start,
                let date = dated.first(where: { $0.range.intersection(range.range) != nil })
            else { return range }
            var result = range
            result.range = MediaTimeRange(start: date.range.start, end: range.range.end)
            result.evidence.isStartListed = true
            return result
        }
    }

    private static func scte35Ranges(playlist: MediaPlaylist, timeline: PrimaryTimeline) -> [Found] {
        var ranges: [Found] = []
        for range in playlist.consolidatedDateRanges where range.scte35Out != nil || range.scte35In != nil {
            guard range.scte35Out != nil, let startDate = range.startDate, let mapped = timeline.time(for: startDate) else { continue }
            let start = timeline.nearestSegmentBoundary(to: mapped)
            let resolved = range.resolvedDuration
            guard let length = resolved ?? range.plannedDuration else { continue }
            let stated = mapped + length
            let aligned = timeline.nearestSegmentBoundary(to: stated)
            let end = timeline.isLive ? aligned : MediaTime.min(timeline.end, aligned)
            // The end is listed once the segment that covers it is, and the duration is no plan.
            let isEndListed = resolved != nil && stated < timeline.end
            if start < end { ranges.append(Found(range: MediaTimeRange(start: start, end: end), evidence: Evidence(isStartListed: true, isEndListed: isEndListed))) }
        }
        return ranges
    }

    private static func boundary(atOrAfter time: MediaTime, in timeline: PrimaryTimeline) -> MediaTime {
        guard let index = timeline.segmentIndex(containing: time) else { return time }
        let start = timeline.segmentStarts[index]
        return start == time ? start : start + timeline.segmentDurations[index]
    }

    /// The content duration: the item duration without the ads in it.
    public var contentDuration: MediaTime {
        var total = itemDuration
        let item = MediaTimeRange(start: itemStart, duration: itemDuration)
        for range in ranges {
            if let inside = range.intersection(item) { total -= inside.duration }
        }
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
