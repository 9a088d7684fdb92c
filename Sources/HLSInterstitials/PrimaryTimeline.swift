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
    /// This timeline's identity, which a timeline continuing it names (not part of equality).
    let identity = Identity()
    /// The timeline this one continues, when it was made by sliding it: the segments both hold
    /// are the same, with the same starts, durations and dates (not part of equality).
    let continuation: Continuation?

    /// What a timeline continuing this one names it by.
    final class Identity: Sendable {}

    /// The timeline a reload continued, and the media sequence numbers of the segments the two
    /// share.
    struct Continuation: Sendable {
        var previous: Identity
        var sharedSequenceNumbers: Range<Int>
    }

    /// The media sequence numbers of the segments this timeline and `earlier` hold alike (same
    /// start, duration and date), when this one is `earlier` or continues it; `nil` when it is not
    /// known (the two may share nothing, or may differ).
    func sequenceNumbersShared(with earlier: PrimaryTimeline) -> Range<Int>? {
        if identity === earlier.identity { return mediaSequence..<(mediaSequence + segmentStarts.count) }
        guard let continuation, continuation.previous === earlier.identity else { return nil }
        return continuation.sharedSequenceNumbers
    }

    /// The primary times of the segments with the media sequence numbers `shared`: from the first
    /// one's start to the last one's end; `nil` when this timeline does not hold them all.
    func times(ofSequenceNumbers shared: Range<Int>) -> MediaTimeRange? {
        let first = shared.lowerBound - mediaSequence
        let last = shared.upperBound - 1 - mediaSequence
        guard !shared.isEmpty, first >= 0, last < segmentStarts.count else { return nil }
        return MediaTimeRange(start: segmentStarts[first], end: segmentStarts[last] + segmentDurations[last])
    }

    /// Whether `date` maps to a time the same way on both timelines: through the same dated
    /// segment, followed by the same next dated one, in segments they share, with dates in order
    /// on both.
    func mapsAlike(_ anchor: DateAnchor, as earlier: PrimaryTimeline, sharing shared: Range<Int>) -> Bool {
        datesAreSorted && earlier.datesAreSorted && shared.contains(anchor.segment) && shared.contains(anchor.nextDatedSegment)
    }

    /// How a date was mapped: inside the dated segment with this media sequence number, the next
    /// dated segment having the other (its date is later than the mapped one).
    struct DateAnchor: Sendable, Hashable {
        var segment: Int
        var nextDatedSegment: Int
    }

    struct Lookup: Sendable, Hashable {
        /// A timescale every segment start is a whole number of units of; 0 when there is none.
        var timescale: Int32 = 0
        /// Each segment's start, then the end, in `timescale` units.
        var startUnits: [Int64] = []
        /// The media sequence numbers of the segments that have a date, and those dates in
        /// nanoseconds (sequence numbers rather than indices, so a sliding window keeps them).
        var datedSegments: [Int] = []
        var datedNanoseconds: [Int64] = []
        /// The zone offset every date was written with, when they share one (`.some(nil)`: none
        /// had one); `nil` when they differ or there are no dates. With it, and a date on every
        /// segment, a date is read from `datedNanoseconds` without touching `segmentDates`.
        var sharedTimeZone: Int32?? = nil
        var datesDisagreeOnZone = false
        /// Every segment is dated, and each date is the first one plus the time since the first
        /// start (no gap, no overlap): a date then maps to a time by one subtraction, without
        /// searching the dates.
        var datesFollowStarts = false

        /// Nanoseconds per lookup unit, when a whole number.
        var nanosecondsPerUnit: Int64? {
            timescale > 0 && 1_000_000_000 % Int64(timescale) == 0 ? 1_000_000_000 / Int64(timescale) : nil
        }

        /// Whether the dates from position `from` on follow the starts from the first date (only
        /// for a lookup that dates every segment).
        func datesFollowStarts(from: Int) -> Bool {
            guard let step = nanosecondsPerUnit, datedNanoseconds.count == startUnits.count - 1, !datedNanoseconds.isEmpty else { return false }
            let (firstDate, firstStart) = (datedNanoseconds[0], startUnits[0])
            for index in from..<datedNanoseconds.count {
                let (units, overflow) = (startUnits[index] - firstStart).multipliedReportingOverflow(by: step)
                if overflow || datedNanoseconds[index] != firstDate &+ units { return false }
            }
            return true
        }

        mutating func noteZone(of date: PlaylistDate) {
            guard !datesDisagreeOnZone else { return }
            if let zone = sharedTimeZone {
                if zone != date.timeZoneOffsetSeconds {
                    sharedTimeZone = nil
                    datesDisagreeOnZone = true
                }
            } else {
                sharedTimeZone = .some(date.timeZoneOffsetSeconds)
            }
        }
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
                guard let written = dates[index] else { continue }
                let date = written.nanosecondsSince1970
                if date < previous { sorted = false }
                previous = date
                lookup.datedSegments.append(playlist.mediaSequence + index)
                lookup.datedNanoseconds.append(date)
                lookup.noteZone(of: written)
            }
        }
        self.segmentStarts = starts
        self.segmentDurations = durations
        self.segmentDates = dates
        self.start = firstSegmentStart
        self.end = time
        self.isLive = !playlist.hasEndList
        self.mediaSequence = playlist.mediaSequence
        lookup.datesFollowStarts = lookup.datesFollowStarts(from: 1)
        self.datesAreSorted = sorted
        self.lookup = lookup
        self.continuation = nil
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

    /// How many elements of `sorted` (ascending) are at or below `target`. It probes where
    /// `target` would be if the values were evenly spaced (segments mostly have one duration, and
    /// live playlists date every one), then widens the bracket by doubling steps before a binary
    /// search, so an evenly spaced column answers in a few probes and any other in O(log n).
    static func countAtOrBelow(_ target: Int64, in sorted: UnsafeBufferPointer<Int64>) -> Int {
        let count = sorted.count
        guard count > 0 else { return 0 }
        let first = sorted[0]
        let last = sorted[count - 1]
        if target < first { return 0 }
        if target >= last { return count }
        let fraction = (Double(target) - Double(first)) / (Double(last) - Double(first))
        let guess = min(max(Int(fraction * Double(count - 1)), 0), count - 1)
        var low: Int
        var high: Int
        if sorted[guess] <= target {
            // The answer is after `guess`.
            low = guess + 1
            var step = 1
            while guess + step < count, sorted[guess + step] <= target {
                low = guess + step + 1
                step <<= 1
            }
            high = min(guess + step, count)
        } else {
            // The answer is at or before `guess`.
            high = guess
            var step = 1
            while guess - step >= 0, sorted[guess - step] > target {
                high = guess - step
                step <<= 1
            }
            low = max(guess - step + 1, 0)
        }
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return low
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
        mapping(date)?.time
    }

    /// ``time(for:)``, and, when dates are in order and the date falls inside a dated segment that
    /// another dated segment follows, how it was mapped (a reload that keeps both segments maps it
    /// alike).
    func mapping(_ date: PlaylistDate) -> (time: MediaTime, anchor: DateAnchor?)? {
        if lookup.datesFollowStarts, datesAreSorted, let step = lookup.nanosecondsPerUnit {
            // The same time and segment the search below finds, from the first date alone.
            let since = date.nanosecondsSince1970 &- lookup.datedNanoseconds[0]
            if since >= 0, since % step == 0 {
                let (units, overflow) = lookup.startUnits[0].addingReportingOverflow(since / step)
                let count = lookup.startUnits.count
                if !overflow, units < lookup.startUnits[count - 1] {
                    let index = lookup.startUnits.withUnsafeBufferPointer { Self.countAtOrBelow(units, in: $0) } - 1
                    let anchor = index + 1 < count - 1 ? DateAnchor(segment: mediaSequence + index, nextDatedSegment: mediaSequence + index + 1) : nil
                    return (MediaTime(value: units, timescale: lookup.timescale), anchor)
                }
            }
        }
        guard let (index, nanoseconds, next) = lastDatedSegment(atOrBefore: date) else {
            guard let first = segmentDates.firstIndex(where: { $0 != nil }), let firstDate = segmentDates[first] else { return nil }
            return (segmentStarts[first] + date.timeIntervalSince(firstDate), nil)
        }
        let anchor = next.map { DateAnchor(segment: mediaSequence + index, nextDatedSegment: $0) }
        if let units = unitsInto(segment: index, nanoseconds: date.nanosecondsSince1970 &- nanoseconds) {
            return (MediaTime(value: units, timescale: lookup.timescale), anchor)
        }
        let segmentDate = segmentDates[index]!
        let offset = date.timeIntervalSince(segmentDate)
        if offset < segmentDurations[index] { return (segmentStarts[index] + offset, anchor) }
        return (timeAfterRun(for: date, after: index, offset: offset), nil)
    }

    /// The time of a date past the end of the dated run that segment `index` is the last of.
    private func timeAfterRun(for date: PlaylistDate, after index: Int, offset: MediaTime) -> MediaTime {
        // Past the end of the covering run: the next segment starts a new run (a discontinuity).
        if index + 1 < segmentStarts.count, let next = segmentDates[index + 1], date < next {
            return segmentStarts[index + 1]
        }
        return segmentStarts[index] + offset
    }

    /// The program date-time at a primary time, `nil` where unknown.
    public func date(at time: MediaTime) -> PlaylistDate? {
        guard let index = segmentIndex(containing: time) ?? (time == end && !segmentStarts.isEmpty ? segmentStarts.count - 1 : nil) else {
            return nil
        }
        // In the lookup's units the offset converts to nanoseconds with one multiplication, and
        // when every segment is dated in one zone the date comes from the lookup too.
        let scale = lookup.timescale
        if scale != 0, time.isNumeric, time.timescale == scale, 1_000_000_000 % scale == 0, let zone = lookup.sharedTimeZone,
            lookup.datedSegments.count == segmentStarts.count
        {
            let (offset, overflow) = (time.value &- lookup.startUnits[index]).multipliedReportingOverflow(by: Int64(1_000_000_000 / scale))
            if !overflow {
                return PlaylistDate(nanosecondsSince1970: lookup.datedNanoseconds[index] &+ offset, timeZoneOffsetSeconds: zone)
            }
        }
        guard let date = segmentDates[index] else { return nil }
        return date.adding(time - segmentStarts[index])
    }

    /// The primary time `nanoseconds` after the start of segment `index`, in lookup units, when
    /// the offset is a whole number of them and inside the segment: what `segmentStarts[index] +
    /// offset` gives, without reducing the offset to add it across timescales. `nil` otherwise.
    private func unitsInto(segment index: Int, nanoseconds: Int64) -> Int64? {
        let scale = Int64(lookup.timescale)
        guard scale != 0, nanoseconds >= 0 else { return nil }
        let (product, overflow) = nanoseconds.multipliedReportingOverflow(by: scale)
        guard !overflow, product % 1_000_000_000 == 0 else { return nil }
        let offset = product / 1_000_000_000
        let start = lookup.startUnits[index]
        guard offset < lookup.startUnits[index + 1] - start else { return nil }
        return start + offset
    }

    /// The index of the segment whose span `[start, start + duration)` contains `time`.
    ///
    /// - Complexity: O(log n).
    public func segmentIndex(containing time: MediaTime) -> Int? {
        if lookup.timescale != 0, time.isNumeric,
            let units = time.timescale == lookup.timescale ? time.value : time.floorUnits(timescale: lookup.timescale)
        {
            return lookup.startUnits.withUnsafeBufferPointer { starts -> Int? in
                guard starts.count > 1, units >= starts[0], units < starts[starts.count - 1] else { return nil }
                return Self.countAtOrBelow(units, in: starts) - 1
            }
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
        // In lookup units when the time is in them: the search has just read these starts.
        let scale = lookup.timescale
        if scale != 0, time.isNumeric, time.timescale == scale {
            let start = lookup.startUnits[index]
            let end = lookup.startUnits[index + 1]
            let into = time.value - start
            return MediaTime(value: into < (end - start) - into ? start : end, timescale: scale)
        }
        let segmentStart = segmentStarts[index]
        let segmentEnd = segmentStart + segmentDurations[index]
        return (time - segmentStart) + (time - segmentStart) < segmentDurations[index] ? segmentStart : segmentEnd
    }

    /// The last dated segment at or before `date`, with its date in nanoseconds (read from the
    /// lookup, which the search has just touched, rather than from `segmentDates`), and, when
    /// dates are in order, the media sequence number of the next dated segment.
    private func lastDatedSegment(atOrBefore date: PlaylistDate) -> (index: Int, nanoseconds: Int64, nextDated: Int?)? {
        let target = date.nanosecondsSince1970
        if datesAreSorted {
            let count = lookup.datedNanoseconds.withUnsafeBufferPointer { Self.countAtOrBelow(target, in: $0) }
            guard count > 0 else { return nil }
            // When every segment is dated, the position is the index.
            let index = lookup.datedSegments.count == segmentStarts.count ? count - 1 : lookup.datedSegments[count - 1] - mediaSequence
            let next = count < lookup.datedSegments.count ? lookup.datedSegments[count] : nil
            return (index, lookup.datedNanoseconds[count - 1], next)
        }
        var best: (index: Int, nanoseconds: Int64, nextDated: Int?)?
        var bestDate = Int64.min
        for (position, sequenceNumber) in lookup.datedSegments.enumerated() {
            let segmentDate = lookup.datedNanoseconds[position]
            if segmentDate <= target, segmentDate >= bestDate, sequenceNumber >= mediaSequence {
                best = (sequenceNumber - mediaSequence, segmentDate, nil)
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
        let moved = playlist.segments.withUnsafeBufferPointer { segments in
            previous.segmentDates.withUnsafeBufferPointer { dates in
                (0..<keptCount).contains { index in
                    if let written = segments[index].programDateTime { return written != dates[offset + index] }
                    return false
                }
            }
        }
        guard !moved else { return nil }

        // Each column is copied once, into room for the new segments too.
        let total = playlist.segments.count
        func kept<Element>(_ column: [Element], from start: Int, room: Int) -> [Element] {
            var copy: [Element] = []
            copy.reserveCapacity(column.count - start + room)
            copy.append(contentsOf: column[start...])
            return copy
        }
        let added = total - keptCount
        var starts = kept(previous.segmentStarts, from: offset, room: added)
        var durations = kept(previous.segmentDurations, from: offset, room: added)
        var dates = kept(previous.segmentDates, from: offset, room: added)
        var lookup = previous.lookup
        lookup.startUnits = kept(previous.lookup.startUnits, from: offset, room: added)
        let firstKept = lookup.datedSegments.firstIndex(where: { $0 >= playlist.mediaSequence }) ?? lookup.datedSegments.count
        lookup.datedSegments = kept(previous.lookup.datedSegments, from: firstKept, room: added)
        lookup.datedNanoseconds = kept(previous.lookup.datedNanoseconds, from: firstKept, room: added)
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
            if let date {
                let nanoseconds = date.nanosecondsSince1970
                if let last = lookup.datedNanoseconds.last, nanoseconds < last { sorted = false }
                lookup.datedSegments.append(playlist.mediaSequence + index)
                lookup.datedNanoseconds.append(nanoseconds)
                lookup.noteZone(of: date)
            }
        }
        self.segmentStarts = starts
        self.segmentDurations = durations
        self.segmentDates = dates
        self.start = starts[0]
        self.end = MediaTime(value: units, timescale: scale)
        self.isLive = !playlist.hasEndList
        self.mediaSequence = playlist.mediaSequence
        // The kept dates still follow the kept starts; the new ones are checked.
        lookup.datesFollowStarts = previous.lookup.datesFollowStarts && lookup.datesFollowStarts(from: keptCount)
        self.datesAreSorted = sorted
        self.lookup = lookup
        self.continuation = Continuation(
            previous: previous.identity, sharedSequenceNumbers: playlist.mediaSequence..<(previous.mediaSequence + previous.segmentStarts.count)
        )
    }
}
