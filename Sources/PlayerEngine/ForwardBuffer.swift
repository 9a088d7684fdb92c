import HLSInterstitials
import MediaTime

/// What of an item has been downloaded, as time ranges on its timeline (Apple's
/// `loadedTimeRanges`), and what to fetch next to keep a forward-buffer target ahead of the
/// playhead (pure value).
public struct ForwardBuffer: Sendable, Hashable {
    /// How far ahead of the playhead to keep media loaded (default 30 s).
    public var forwardTarget: MediaTime
    /// The loaded ranges: sorted, non-overlapping, adjacent ones merged.
    public private(set) var loadedRanges: [MediaTimeRange] = []

    /// An empty buffer.
    public init(forwardTarget: MediaTime = MediaTime(seconds: 30)) {
        self.forwardTarget = forwardTarget
    }

    /// Records a downloaded span (a segment's range).
    ///
    /// - Complexity: O(r) in the number of loaded ranges.
    public mutating func add(_ range: MediaTimeRange) {
        guard !range.isEmpty else { return }
        var merged = range
        var result: [MediaTimeRange] = []
        result.reserveCapacity(loadedRanges.count + 1)
        var inserted = false
        for existing in loadedRanges {
            if existing.end < merged.start {
                result.append(existing)
            } else if merged.end < existing.start {
                if !inserted {
                    result.append(merged)
                    inserted = true
                }
                result.append(existing)
            } else {
                merged = merged.union(existing)
            }
        }
        if !inserted { result.append(merged) }
        loadedRanges = result
    }

    /// Drops everything before `time` (the back buffer) and nothing else.
    public mutating func evict(before time: MediaTime) {
        loadedRanges = loadedRanges.compactMap { range in
            if !(time < range.end) { return nil }
            if range.start < time { return MediaTimeRange(start: time, end: range.end) }
            return range
        }
    }

    /// Forgets everything (after a seek outside the buffer, or a variant switch that flushes).
    public mutating func removeAll() { loadedRanges = [] }

    /// How much is loaded contiguously from `time` on: zero when `time` is not in a loaded range.
    public func bufferedAhead(of time: MediaTime) -> MediaTime {
        guard let range = loadedRanges.first(where: { $0.contains(time) }) else { return .zero }
        return range.end - time
    }

    /// Whether more should be fetched to keep the target ahead of `time`.
    public func wantsMore(at time: MediaTime) -> Bool {
        // At exactly the target more is wanted: the playhead is about to eat into it, and a
        // deadline set for that moment must find something to do.
        !(forwardTarget < bufferedAhead(of: time))
    }

    /// The index of the next segment of `timeline` to fetch for a playhead at `time`: the first
    /// segment from the one playing that is not fully loaded, while the buffer is short of the
    /// target; `nil` when the target is met or the timeline has no more segments.
    public func nextSegment(in timeline: PrimaryTimeline, at time: MediaTime) -> Int? {
        guard wantsMore(at: time) else { return nil }
        let from = bufferedAhead(of: time).isZero ? time : time + bufferedAhead(of: time)
        guard var index = timeline.segmentIndex(containing: from) else { return nil }
        while index < timeline.segmentStarts.count {
            let range = MediaTimeRange(start: timeline.segmentStarts[index], duration: timeline.segmentDurations[index])
            if !loadedRanges.contains(where: { $0.contains(range) }) { return index }
            index += 1
        }
        return nil
    }
}
