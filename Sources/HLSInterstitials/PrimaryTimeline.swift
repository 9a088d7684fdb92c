import HLSPlaylist
import MediaTime

/// The primary item's own timeline as a media playlist lays it out: where each segment starts,
/// and how dates (EXT-X-PROGRAM-DATE-TIME, DATERANGE START-DATE) map onto it.
///
/// Times are exact sums of EXTINF durations from `firstSegmentStart`, which is zero for a VOD
/// playlist and, for a live playlist, the time of its first segment on the stable timeline the
/// player keeps across reloads (so that events do not move when the window slides).
public struct PrimaryTimeline: Sendable, Hashable {
    /// Where each segment starts.
    public let segmentStarts: [MediaTime]
    /// Each segment's EXTINF duration.
    public let segmentDurations: [MediaTime]
    /// Each segment's program date-time (written or derived), `nil` where unknown.
    public let segmentDates: [PlaylistDate?]
    /// Where the first segment starts.
    public let start: MediaTime
    /// Where the last segment ends.
    public let end: MediaTime
    /// Whether the playlist may still grow (no EXT-X-ENDLIST).
    public let isLive: Bool
    /// The media sequence number of the first segment.
    public let mediaSequence: Int
    private let datesAreSorted: Bool

    /// The timeline of `playlist`, its first segment starting at `firstSegmentStart`.
    ///
    /// - Complexity: O(n) in the number of segments.
    public init(playlist: MediaPlaylist, firstSegmentStart: MediaTime = .zero) {
        var starts: [MediaTime] = []
        var durations: [MediaTime] = []
        starts.reserveCapacity(playlist.segments.count)
        durations.reserveCapacity(playlist.segments.count)
        var time = firstSegmentStart
        for segment in playlist.segments {
            starts.append(time)
            durations.append(segment.duration)
            time += segment.duration
        }
        let dates = playlist.programDateTimes()
        var sorted = true
        var previous: PlaylistDate?
        for date in dates {
            guard let date else { continue }
            if let previous, date < previous { sorted = false }
            previous = date
        }
        self.segmentStarts = starts
        self.segmentDurations = durations
        self.segmentDates = dates
        self.start = firstSegmentStart
        self.end = time
        self.isLive = !playlist.hasEndList
        self.mediaSequence = playlist.mediaSequence
        self.datesAreSorted = sorted
    }

    /// The primary duration: the sum of EXTINF durations.
    public var duration: MediaTime { end - start }

    /// The primary time of `date`, through the program date-time of the segment that covers it
    /// (RFC 8216bis §4.4.4.6, D.2). A date in a hole between dated runs (after a discontinuity)
    /// maps to the start of the next run; a date before the first dated segment or after the last
    /// one is extrapolated from the nearest dated segment. `nil` when no segment has a date.
    ///
    /// - Complexity: O(log n) when dates increase through the playlist, O(n) otherwise.
    public func time(for date: PlaylistDate) -> MediaTime? {
        guard let index = lastDatedSegment(atOrBefore: date) else {
            guard let first = segmentDates.firstIndex(where: { $0 != nil }), let firstDate = segmentDates[first] else { return nil }
            return segmentStarts[first] + date.timeIntervalSince(firstDate)
        }
        let segmentDate = segmentDates[index]!
        let offset = date.timeIntervalSince(segmentDate)
        if offset < segmentDurations[index] { return segmentStarts[index] + offset }
        // Past the end of the covering run: the next segment starts a new run (a discontinuity).
        if index + 1 < segmentStarts.count, let next = segmentDates[index + 1], date < next {
            return segmentStarts[index + 1]
        }
        return segmentStarts[index] + offset
    }

    /// The program date-time at a primary time, `nil` where unknown.
    public func date(at time: MediaTime) -> PlaylistDate? {
        guard let index = segmentIndex(containing: time) ?? (time == end && !segmentStarts.isEmpty ? segmentStarts.count - 1 : nil),
            let date = segmentDates[index]
        else { return nil }
        return date.adding(time - segmentStarts[index])
    }

    /// The index of the segment whose span `[start, start + duration)` contains `time`.
    ///
    /// - Complexity: O(log n).
    public func segmentIndex(containing time: MediaTime) -> Int? {
        guard !segmentStarts.isEmpty, !(time < start), time < end else { return nil }
        var low = 0
        var high = segmentStarts.count
        while low < high {
            let middle = (low + high) / 2
            if segmentStarts[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    /// `time` moved to the boundary of its segment that is nearest (X-SNAP, D.2): the segment's
    /// start when `time` is in its first half, else its end. Unchanged when no segment covers it.
    public func nearestSegmentBoundary(to time: MediaTime) -> MediaTime {
        guard let index = segmentIndex(containing: time) else { return time }
        let segmentStart = segmentStarts[index]
        let segmentEnd = segmentStart + segmentDurations[index]
        return (time - segmentStart) + (time - segmentStart) < segmentDurations[index] ? segmentStart : segmentEnd
    }

    private func lastDatedSegment(atOrBefore date: PlaylistDate) -> Int? {
        if datesAreSorted {
            var low = 0
            var high = segmentDates.count
            // Binary search over dated segments; undated ones are skipped by probing neighbours.
            while low < high {
                let middle = (low + high) / 2
                var probe = middle
                while probe < high, segmentDates[probe] == nil { probe += 1 }
                if probe == high {
                    high = middle
                    continue
                }
                if segmentDates[probe]! <= date { low = probe + 1 } else { high = middle }
            }
            var index = low - 1
            while index >= 0, segmentDates[index] == nil { index -= 1 }
            return index >= 0 ? index : nil
        }
        var best: Int?
        for (index, segmentDate) in segmentDates.enumerated() {
            guard let segmentDate, segmentDate <= date else { continue }
            if let current = best, let currentDate = segmentDates[current], currentDate > segmentDate { continue }
            best = index
        }
        return best
    }
}

extension PrimaryTimeline {
    /// The timeline of a reloaded live playlist, continuing `previous` so that the same segment
    /// keeps the same time as the window slides: the first segment starts where `previous` had
    /// it (by media sequence number), or, when the window moved past everything `previous` held,
    /// where program date-times put it (else right after `previous` ended).
    ///
    /// - Complexity: O(n) in the number of segments.
    public init(playlist: MediaPlaylist, continuing previous: PrimaryTimeline) {
        let offset = playlist.mediaSequence - previous.mediaSequence
        var start: MediaTime
        if offset >= 0, offset < previous.segmentStarts.count {
            start = previous.segmentStarts[offset]
        } else if offset == previous.segmentStarts.count {
            start = previous.end
        } else {
            start = previous.end
            let fresh = PrimaryTimeline(playlist: playlist)
            if let index = fresh.segmentDates.firstIndex(where: { $0 != nil }), let date = fresh.segmentDates[index],
                let mapped = previous.time(for: date)
            {
                start = mapped - fresh.segmentStarts[index]
            }
        }
        self.init(playlist: playlist, firstSegmentStart: start)
    }
}
