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
    /// Integer copies of the starts and dates for the binary searches that map times and dates
    /// (thousands per schedule): comparing `Int64`s instead of rationals.
    private let lookup: Lookup

    struct Lookup: Sendable, Hashable {
        /// A timescale every segment start is a whole number of units of; 0 when there is none.
        var timescale: Int32 = 0
        /// Each segment's start, then the end, in `timescale` units.
        var startUnits: [Int64] = []
        /// The media sequence numbers of the segments that have a date, and those dates in
        /// nanoseconds (sequence numbers rather than indices, so a sliding window keeps them).
        var datedSegments: [Int] = []
        var datedNanoseconds: [Int64] = []
    }

    /// The timeline of `playlist`, its first segment starting at `firstSegmentStart`.
    ///
    /// - Complexity: O(n) in the number of segments.
    public init(playlist: MediaPlaylist, firstSegmentStart: MediaTime = .zero) {
        let count = playlist.segments.count
        var durations: [MediaTime] = []
        durations.reserveCapacity(count)
        // Read the durations in place: iterating the segments would copy each one. Find a common
        // timescale on the way, so the starts can be summed as integers.
        var common = Int64(firstSegmentStart.isNumeric ? firstSegmentStart.timescale : 1)
        playlist.segments.withUnsafeBufferPointer { segments in
            for index in segments.indices {
                let duration = segments[index].duration
                durations.append(duration)
                if common != 0, Int64(duration.timescale) != common, duration.timescale > 0 {
                    let lcm = common / Self.gcd(common, Int64(duration.timescale)) * Int64(duration.timescale)
                    common = lcm <= Int64(Int32.max) ? lcm : 0
                }
            }
        }
        var lookup = Lookup()
        var starts: [MediaTime] = []
        starts.reserveCapacity(count)
        var time = firstSegmentStart
        if common != 0, firstSegmentStart.isNumeric, let first = firstSegmentStart.converted(toTimescale: Int32(common), exactOnly: true) {
            let scale = Int32(common)
            var units = first.value
            var overflow = false
            lookup.startUnits.reserveCapacity(count + 1)
            for duration in durations {
                lookup.startUnits.append(units)
                starts.append(MediaTime(value: units, timescale: scale))
                let (sum, didOverflow) = units.addingReportingOverflow(duration.value * (common / Int64(duration.timescale)))
                if didOverflow {
                    overflow = true
                    break
                }
                units = sum
            }
            if overflow {
                starts.removeAll()
                lookup.startUnits = []
            } else {
                lookup.startUnits.append(units)
                lookup.timescale = scale
                time = MediaTime(value: units, timescale: scale)
            }
        }
        if lookup.timescale == 0 {
            for duration in durations {
                starts.append(time)
                time += duration
            }
        }
        let dates = playlist.programDateTimes()
        var sorted = true
        var previous = Int64.min
        dates.withUnsafeBufferPointer { dates in
            for index in dates.indices {
                guard let date = dates[index]?.nanosecondsSince1970 else { continue }
                if date < previous { sorted = false }
                previous = date
                lookup.datedSegments.append(playlist.mediaSequence + index)
                lookup.datedNanoseconds.append(date)
            }
        }
        self.segmentStarts = starts
        self.segmentDurations = durations
        self.segmentDates = dates
        self.start = firstSegmentStart
        self.end = time
        self.isLive = !playlist.hasEndList
        self.mediaSequence = playlist.mediaSequence
        self.datesAreSorted = sorted
        self.lookup = lookup
    }

    /// Equal when the segments, dates and bounds are (the lookup tables are derived from them).
    public static func == (lhs: PrimaryTimeline, rhs: PrimaryTimeline) -> Bool {
        lhs.segmentStarts == rhs.segmentStarts && lhs.segmentDurations == rhs.segmentDurations && lhs.segmentDates == rhs.segmentDates
            && lhs.start == rhs.start && lhs.end == rhs.end && lhs.isLive == rhs.isLive && lhs.mediaSequence == rhs.mediaSequence
    }

    /// Hashes the bounds and the shape.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(segmentStarts.count)
        hasher.combine(mediaSequence)
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
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
        if lookup.timescale != 0, time.isNumeric,
            let units = time.timescale == lookup.timescale ? time.value : time.floorUnits(timescale: lookup.timescale)
        {
            let starts = lookup.startUnits
            guard starts.count > 1, units >= starts[0], units < starts[starts.count - 1] else { return nil }
            var low = 0
            var high = starts.count - 1
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= units { low = middle + 1 } else { high = middle }
            }
            return low - 1
        }
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
        let target = date.nanosecondsSince1970
        if datesAreSorted {
            let dates = lookup.datedNanoseconds
            var low = 0
            var high = dates.count
            while low < high {
                let middle = (low + high) / 2
                if dates[middle] <= target { low = middle + 1 } else { high = middle }
            }
            return low > 0 ? lookup.datedSegments[low - 1] - mediaSequence : nil
        }
        var best: Int?
        var bestDate = Int64.min
        for (position, sequenceNumber) in lookup.datedSegments.enumerated() {
            let segmentDate = lookup.datedNanoseconds[position]
            if segmentDate <= target, segmentDate >= bestDate, sequenceNumber >= mediaSequence {
                best = sequenceNumber - mediaSequence
                bestDate = segmentDate
            }
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
        if offset >= 0, offset < previous.segmentStarts.count,
            let sliced = PrimaryTimeline(sliding: previous, by: offset, to: playlist)
        {
            self = sliced
            return
        }
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

    /// A live reload that slid the window by `offset` segments and appended new ones: the segments
    /// both playlists hold keep their times, dates and lookup entries (a segment with the same
    /// media sequence number is the same segment, RFC 8216bis §6.2.2), so only the new segments
    /// are read. `nil` when the playlists disagree on a kept segment or the new durations need a
    /// finer timescale; the caller then rebuilds.
    ///
    /// - Complexity: O(k) in the number of new segments, plus comparing and copying the kept entries.
    private init?(sliding previous: PrimaryTimeline, by offset: Int, to playlist: MediaPlaylist) {
        let keptCount = previous.segmentStarts.count - offset
        let scale = previous.lookup.timescale
        guard scale != 0, keptCount <= playlist.segments.count, keptCount > 0 else { return nil }
        // The last kept segment must agree (duration and date) in both playlists.
        let lastKept = keptCount - 1
        guard playlist.segments[lastKept].duration == previous.segmentDurations[offset + lastKept] else { return nil }
        // A written date that moved is the newer playlist's truth (a server that reuses a media
        // sequence number with another PROGRAM-DATE-TIME): rebuild from it. A date written only on
        // the first segment governs all the others, so every kept segment is compared.
        for index in 0..<keptCount {
            if let written = playlist.segments[index].programDateTime, written != previous.segmentDates[offset + index] { return nil }
        }

        var starts = Array(previous.segmentStarts[offset...])
        var durations = Array(previous.segmentDurations[offset...])
        var dates = Array(previous.segmentDates[offset...])
        var lookup = previous.lookup
        lookup.startUnits = Array(previous.lookup.startUnits[offset...])
        if let firstKept = lookup.datedSegments.firstIndex(where: { $0 >= playlist.mediaSequence }) {
            lookup.datedSegments.removeFirst(firstKept)
            lookup.datedNanoseconds.removeFirst(firstKept)
        } else {
            lookup.datedSegments.removeAll()
            lookup.datedNanoseconds.removeAll()
        }
        var sorted = previous.datesAreSorted
        var units = lookup.startUnits[lookup.startUnits.count - 1]
        var previousDate: (date: PlaylistDate, duration: MediaTime)? = dates.last.flatMap { $0 }.map { ($0, durations[durations.count - 1]) }
        for index in keptCount..<playlist.segments.count {
            let segment = playlist.segments[index]
            let duration = segment.duration
            guard duration.timescale > 0, scale % duration.timescale == 0 else { return nil }
            starts.append(MediaTime(value: units, timescale: scale))
            durations.append(duration)
            let (next, overflow) = units.addingReportingOverflow(duration.value * Int64(scale / duration.timescale))
            guard !overflow else { return nil }
            units = next
            lookup.startUnits.append(units)
            let date: PlaylistDate?
            if let written = segment.programDateTime {
                date = written
            } else if segment.isDiscontinuity {
                date = nil
            } else {
                date = previousDate.map { $0.date.adding($0.duration) }
            }
            dates.append(date)
            previousDate = date.map { ($0, duration) }
            if let nanoseconds = date?.nanosecondsSince1970 {
                if let last = lookup.datedNanoseconds.last, nanoseconds < last { sorted = false }
                lookup.datedSegments.append(playlist.mediaSequence + index)
                lookup.datedNanoseconds.append(nanoseconds)
            }
        }
        self.segmentStarts = starts
        self.segmentDurations = durations
        self.segmentDates = dates
        self.start = starts[0]
        self.end = MediaTime(value: units, timescale: scale)
        self.isLive = !playlist.hasEndList
        self.mediaSequence = playlist.mediaSequence
        self.datesAreSorted = sorted
        self.lookup = lookup
    }
}
