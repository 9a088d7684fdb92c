import HLSPlaylist
import MediaTime

/// The integrated timeline of a primary item and its interstitials, as Apple's
/// `AVPlayerItemIntegratedTimeline` presents it: one timeline on which primary content and breaks
/// follow each other, where a single-point break takes no length (time stands still while it
/// plays) and a fill break takes its duration (time advances through it). Primary content skipped
/// by a positive resumption offset is not on it.
///
/// This namespace holds the value types; ``IntegratedTimeline/Snapshot`` is built from an
/// ``InterstitialSchedule`` and a playback position.
public enum IntegratedTimeline {
    /// Where playback is: in primary content at a primary time, or in a break at an offset from
    /// the break's start.
    public enum Position: Sendable, Hashable {
        /// Primary content at this primary time.
        case primary(MediaTime)
        /// The break of this event, this far into it.
        case interstitial(eventID: String, offset: MediaTime)
    }

    /// Why a snapshot is out of date (Apple's `AVPlayerIntegratedTimelineSnapshotsOutOfSyncReason`).
    public enum ChangeReason: String, Sendable, Hashable, CaseIterable {
        /// The segments changed: redraw the transport bar.
        case segmentsChanged
        /// The current segment changed: update the controls.
        case currentSegmentChanged
    }

    /// A piece of the integrated timeline (Apple's `AVPlayerItemSegment`).
    public struct Segment: Sendable, Hashable {
        /// Primary content or a break.
        public enum SegmentType: String, Sendable, Hashable {
            /// Primary content.
            case primary
            /// An interstitial break.
            case interstitial
        }

        /// Primary or interstitial.
        public var segmentType: SegmentType
        /// `source`: the range in the primary item (primary) or in the break (interstitial, from
        /// zero); `target`: the range on the integrated timeline (zero length for a point break).
        public var timeMapping: MediaTimeMapping
        /// The break's event, for an interstitial segment.
        public var interstitialEvent: InterstitialEvent?
        /// The range on the primary timeline: for primary, where it plays; for a break, from where
        /// primary is left to where it resumes (may run backwards for a negative offset: then
        /// `start` is the resume point).
        public var primaryRange: MediaTimeRange
        /// The range on the playout timeline, on which every break takes its full duration.
        public var playoutRange: MediaTimeRange
        /// The program date-time of the segment's start, when known (primary segments).
        public var startDate: PlaylistDate?

        /// The break's identifier, or `nil` for primary content.
        public var eventID: String? { interstitialEvent?.identifier }

        /// An identity that survives reloads: the event ID for a break; for primary content, the
        /// break it follows (none for the leading piece), so that neither a live window sliding
        /// (which moves its start) nor a break announced ahead (which moves its end) makes it a
        /// different segment.
        public internal(set) var identity: Identity

        /// What makes two segments of different snapshots the same segment.
        public enum Identity: Sendable, Hashable {
            /// Primary content after the break with this ID (`nil`: before any break).
            case primary(afterEventID: String?)
            /// The break with this ID.
            case interstitial(eventID: String)
        }
    }

    /// What a seek resolves to.
    public enum SeekResolution: Sendable, Hashable {
        /// Play from this position.
        case position(Position)
        /// The seek crosses a break with X-RESTRICT=JUMP: play that break from its start, then go
        /// on to the destination.
        case playInterstitialFirst(eventID: String, then: Position)
        /// Not allowed now (a SKIP-restricted break is playing and the seek goes forward).
        case refused(String)
    }
}

extension IntegratedTimeline {
    /// An immutable, self-consistent view of the integrated timeline at one moment (Apple's
    /// `AVPlayerItemIntegratedTimelineSnapshot`): segments in order, contiguous and
    /// non-overlapping, the total duration, the current time and the current segment.
    public struct Snapshot: Sendable, Hashable {
        /// Every segment in playback order.
        public let segments: [Segment]
        /// The total duration; ``MediaTime/indefinite`` for live.
        public let duration: MediaTime
        /// The sum of every segment's target duration (the finite extent of what is known).
        public let knownDuration: MediaTime
        /// The total playout duration (every break its full length).
        public let playoutDuration: MediaTime
        /// The current time on the integrated timeline.
        public let currentTime: MediaTime
        /// The segment playing now.
        public let currentSegment: Segment?
        /// The position the snapshot was taken at.
        public let currentPosition: Position
        /// The schedule behind it.
        public let schedule: InterstitialSchedule

        /// A snapshot of `schedule` with playback at `position`.
        ///
        /// - Complexity: O(s) in the number of schedule items.
        public init(schedule: InterstitialSchedule, position: Position? = nil) {
            self.init(schedule: schedule, position: position, reusing: nil)
        }

        /// A snapshot of `schedule` with playback at `position`, as ``init(schedule:position:)``
        /// makes it, taking from `previous` (a snapshot of the schedule this one was built from,
        /// see ``InterstitialSchedule/init(primary:events:options:reusing:)``) every segment that
        /// comes out the same: the same break, or the same primary span starting in a segment both
        /// primary timelines hold, at the same place on the timelines. Only the segments around
        /// what changed are made again.
        ///
        /// - Complexity: O(s) in the number of schedule items, with no look-up on the primary
        ///   timeline for a segment taken as it was.
        public init(schedule: InterstitialSchedule, position: Position? = nil, reusing previous: Snapshot?) {
            var segments: [Segment] = []
            segments.reserveCapacity(schedule.items.count)
            var integrated = schedule.items.isEmpty ? schedule.primary.start : Self.firstIntegratedStart(schedule)
            var playout = integrated
            var lastEventID: String?
            var reuse = previous.flatMap { SegmentReuse(previous: $0, schedule: schedule) }
            let items = schedule.items
            var itemIndex = 0
            while itemIndex < items.count {
                // A run of items as they were, starting where they did: their segments as they were.
                if let run = reuse?.run(at: itemIndex, of: items, integrated: integrated, playout: playout, afterEventID: lastEventID) {
                    let earlier = reuse!.segments
                    segments.append(contentsOf: earlier[run])
                    let last = run.upperBound - 1
                    integrated = earlier[last].timeMapping.target.start + earlier[last].timeMapping.target.duration
                    playout = earlier[last].playoutRange.start + earlier[last].playoutRange.duration
                    lastEventID = earlier[last].eventID
                    itemIndex += run.count
                    continue
                }
                let item = items[itemIndex]
                itemIndex += 1
                switch item {
                case .primary(let range):
                    segments.append(Segment(
                        segmentType: .primary,
                        timeMapping: MediaTimeMapping(source: range, target: MediaTimeRange(start: integrated, duration: range.duration)),
                        interstitialEvent: nil,
                        primaryRange: range,
                        playoutRange: MediaTimeRange(start: playout, duration: range.duration),
                        startDate: schedule.primary.date(at: range.start),
                        identity: .primary(afterEventID: lastEventID)
                    ))
                    lastEventID = nil
                    integrated += range.duration
                    playout += range.duration
                case .interstitial(let scheduled):
                    let event = scheduled.event
                    let id = event.identifier
                    let length = scheduled.duration ?? .zero
                    let integratedLength = event.timelineOccupancy == .fill ? length : .zero
                    let (start, resume) = (scheduled.start, scheduled.resumeTime)
                    segments.append(Segment(
                        segmentType: .interstitial,
                        timeMapping: MediaTimeMapping(
                            source: MediaTimeRange(start: .zero, duration: length),
                            target: MediaTimeRange(start: integrated, duration: integratedLength)
                        ),
                        interstitialEvent: event,
                        primaryRange: MediaTimeRange(start: MediaTime.min(start, resume), end: MediaTime.max(start, resume)),
                        playoutRange: MediaTimeRange(start: playout, duration: length),
                        startDate: nil,
                        identity: .interstitial(eventID: id)
                    ))
                    lastEventID = id
                    integrated += integratedLength
                    playout += length
                }
            }
            self.segments = segments
            self.schedule = schedule
            let start = segments.first?.timeMapping.target.start ?? integrated
            self.knownDuration = integrated - start
            self.playoutDuration = playout - (segments.first?.playoutRange.start ?? playout)
            self.duration = schedule.primary.isLive ? .indefinite : knownDuration
            let current = position ?? Self.initialPosition(segments: segments, start: schedule.primary.start)
            self.currentPosition = current
            let located = Self.locate(current, in: segments)
            self.currentSegment = located.map { segments[$0.index] }
            self.currentTime = located?.time ?? start
        }

        /// The segments of an earlier snapshot, matched in order to the items of a new schedule.
        private struct SegmentReuse {
            let items: [InterstitialSchedule.Item]
            let segments: [Segment]
            /// Primary times at which both primary timelines give the same dates.
            let sharedTimes: MediaTimeRange?
            private var cursor = 0

            /// How far ahead of the walk a match is looked for (breaks gone between two reloads).
            private static let window = 8

            init?(previous: Snapshot, schedule: InterstitialSchedule) {
                guard previous.segments.count == previous.schedule.items.count else { return nil }
                items = previous.schedule.items
                segments = previous.segments
                sharedTimes = schedule.primary.sequenceNumbersShared(with: previous.schedule.primary)
                    .flatMap { schedule.primary.times(ofSequenceNumbers: $0) }
            }

            /// The earlier segments of the longest run of items from `position` that are the
            /// earlier ones, when the first would be made at the same integrated and playout times
            /// after the same break: each then comes out as it was, since a segment follows from its
            /// item and the ones before it, and from the date at a primary span's start, which is
            /// the same where both timelines hold the segment.
            mutating func run(at position: Int, of newItems: [InterstitialSchedule.Item], integrated: MediaTime, playout: MediaTime,
                              afterEventID: String?) -> Range<Int>? {
                let item = newItems[position]
                var candidate = cursor
                var found: Int?
                while candidate < min(cursor + Self.window, items.count) {
                    if isSame(item, items[candidate]) {
                        found = candidate
                        break
                    }
                    candidate += 1
                }
                guard let first = found else { return nil }
                cursor = first + 1
                let segment = segments[first]
                guard segment.timeMapping.target.start.isIdentical(to: integrated), segment.playoutRange.start.isIdentical(to: playout),
                    segment.segmentType == .interstitial || segment.identity == .primary(afterEventID: afterEventID)
                else { return nil }
                var end = first + 1
                while end < items.count, position + (end - first) < newItems.count, isSame(newItems[position + (end - first)], items[end]) {
                    end += 1
                }
                cursor = end
                return first..<end
            }

            /// The same break, or a primary span written the same way whose date both timelines give alike.
            private func isSame(_ new: InterstitialSchedule.Item, _ old: InterstitialSchedule.Item) -> Bool {
                switch (new, old) {
                case (.interstitial(let new), .interstitial(let old)):
                    return new.isStored(like: old)
                case (.primary(let new), .primary(let old)):
                    return new.start.isIdentical(to: old.start) && new.duration.isIdentical(to: old.duration) && sharedTimes?.holdsInside(new.start) == true
                default:
                    return false
                }
            }
        }

        /// A VOD timeline starts at zero. A live timeline is anchored so that its first primary
        /// segment sits at its own primary time, so that times stay stable as the window slides,
        /// also while a break that began before the window still covers its start.
        private static func firstIntegratedStart(_ schedule: InterstitialSchedule) -> MediaTime {
            guard schedule.primary.isLive else { return .zero }
            var before = MediaTime.zero
            for item in schedule.items {
                switch item {
                case .primary(let range): return range.start - before
                case .interstitial(let scheduled): before += scheduled.integratedDuration
                }
            }
            return schedule.primary.start
        }

        private static func initialPosition(segments: [Segment], start: MediaTime) -> Position {
            guard let first = segments.first else { return .primary(start) }
            if let eventID = first.eventID { return .interstitial(eventID: eventID, offset: .zero) }
            return .primary(first.timeMapping.source.start)
        }

        /// The segment index and integrated time of a position.
        private static func locate(_ position: Position, in segments: [Segment]) -> (index: Int, time: MediaTime)? {
            switch position {
            case .interstitial(let eventID, let offset):
                guard let index = segments.firstIndex(where: { $0.eventID == eventID }) else { return nil }
                let segment = segments[index]
                let target = segment.timeMapping.target
                let time = target.duration.isZero ? target.start : target.start + MediaTime.min(MediaTime.max(offset, .zero), target.duration)
                return (index, time)
            case .primary(let time):
                // The primary segment whose source contains the time; at the very end, the last one.
                var fallback: (Int, MediaTime)?
                for (index, segment) in segments.enumerated() where segment.segmentType == .primary {
                    let source = segment.timeMapping.source
                    if source.contains(time) { return (index, segment.timeMapping.targetTime(forSource: time)) }
                    if time == source.end { fallback = (index, segment.timeMapping.target.end) }
                }
                return fallback
            }
        }

        /// The program date-time at the current position, when known.
        public var currentDate: PlaylistDate? {
            guard case .primary(let time) = currentPosition else { return nil }
            return schedule.primary.date(at: time)
        }

        /// The segment at an integrated time and the offset into it (Apple's
        /// `segmentAndOffsetIntoSegment(forTimelineTime:)`). At a time where several segments start
        /// (a point break and the primary after it), the first one.
        ///
        /// - Complexity: O(log s).
        public func segmentAndOffset(forTimelineTime time: MediaTime) -> (segment: Segment, offset: MediaTime)? {
            guard let index = segmentIndex(forTimelineTime: time) else { return nil }
            let segment = segments[index]
            return (segment, time - segment.timeMapping.target.start)
        }

        private func segmentIndex(forTimelineTime time: MediaTime) -> Int? {
            guard let first = segments.first, !(time < first.timeMapping.target.start) else { return nil }
            // The first segment whose target end is after the time, or which starts at the time.
            var low = 0
            var high = segments.count
            while low < high {
                let middle = (low + high) / 2
                let target = segments[middle].timeMapping.target
                if target.end < time || (target.end == time && !target.duration.isZero) { low = middle + 1 } else { high = middle }
            }
            // Earlier zero-length segments at the same time come first.
            while low > 0, segments[low - 1].timeMapping.target.start == time, segments[low - 1].timeMapping.target.duration.isZero {
                low -= 1
            }
            guard low < segments.count else {
                let last = segments.count - 1
                return segments[last].timeMapping.target.end == time ? last : nil
            }
            return low
        }

        /// What plays at an integrated time: a primary time, or a break and the offset into it.
        public func position(atTimelineTime time: MediaTime) -> Position? {
            guard let (segment, offset) = segmentAndOffset(forTimelineTime: time) else { return nil }
            if let eventID = segment.eventID { return .interstitial(eventID: eventID, offset: offset) }
            return .primary(segment.timeMapping.sourceTime(forTarget: time))
        }

        /// The integrated time of a position; `nil` when it is not on the timeline (a break that is
        /// not scheduled, or primary content skipped by a resumption offset).
        public func timelineTime(for position: Position) -> MediaTime? {
            Self.locate(position, in: segments)?.time
        }

        /// Resolves a seek to an integrated time, from the current position.
        ///
        /// - A seek into a fill break lands at that offset into the break, even before its asset
        ///   list is loaded; into a point break, at its start.
        /// - A forward seek while a break with X-RESTRICT=SKIP plays is refused.
        /// - A forward seek across a break with X-RESTRICT=JUMP plays the first such break first
        ///   (even if it played before), then goes on to the destination.
        public func resolveSeek(toTimelineTime time: MediaTime) -> SeekResolution {
            let clamped = MediaTime.max(time, segments.first?.timeMapping.target.start ?? time)
            guard let destination = position(atTimelineTime: clamped) ?? lastPosition else {
                return .refused("the timeline is empty")
            }
            return resolve(destination: destination, destinationTime: clamped)
        }

        /// Resolves a seek to a position: primary content, or a break at an offset into it (S2.5,
        /// also before its asset list is loaded). Restrictions apply as for
        /// ``resolveSeek(toTimelineTime:)``.
        public func resolveSeek(to destination: Position) -> SeekResolution {
            guard let destinationTime = timelineTime(for: destination) else {
                return .refused("\(destination) is not on the timeline")
            }
            return resolve(destination: destination, destinationTime: destinationTime)
        }

        /// Resolves a seek to a primary time (the primary item's own clock), from the current
        /// position. A time in `[start, resume)` of a break with a positive resumption offset
        /// restarts that break (the first of the breaks sharing its start) from its beginning
        /// (D.5); restrictions apply as for
        /// ``resolveSeek(toTimelineTime:)``.
        public func resolveSeek(toPrimaryTime time: MediaTime) -> SeekResolution {
            // Segments are built one per schedule item, in the same order.
            let items = schedule.items
            for (index, item) in items.enumerated() {
                guard case .interstitial(let scheduled) = item, scheduled.start < scheduled.resumeTime,
                    !(time < scheduled.start), time < scheduled.resumeTime
                else { continue }
                // Breaks sharing a start play as a group (D.2), so the group restarts from its first.
                var first = index
                while first > 0, case .interstitial(let previous) = items[first - 1], previous.start == scheduled.start {
                    first -= 1
                }
                let restart = segments[first]
                return resolve(destination: .interstitial(eventID: restart.eventID ?? scheduled.id, offset: .zero),
                               destinationTime: restart.timeMapping.target.start)
            }
            let destination = Position.primary(time)
            guard let destinationTime = timelineTime(for: destination) else {
                return .refused("primary time \(time) is not on the timeline")
            }
            return resolve(destination: destination, destinationTime: destinationTime)
        }

        private var lastPosition: Position? {
            guard let last = segments.last else { return nil }
            if let eventID = last.eventID { return .interstitial(eventID: eventID, offset: last.timeMapping.source.duration) }
            return .primary(last.timeMapping.source.end)
        }

        private func resolve(destination: Position, destinationTime: MediaTime) -> SeekResolution {
            if case .interstitial(let eventID, let offset) = currentPosition, let segment = currentSegment,
                segment.interstitialEvent?.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) == true
            {
                let isForward: Bool
                if case .interstitial(let destinationID, let destinationOffset) = destination, destinationID == eventID {
                    isForward = offset < destinationOffset
                } else {
                    isForward = currentTime < destinationTime || (currentTime == destinationTime && destination != currentPosition)
                }
                if isForward {
                    return .refused("interstitial \"\(eventID)\" does not allow seeking forward (X-RESTRICT=SKIP)")
                }
            }
            guard let currentIndex = Self.locate(currentPosition, in: segments)?.index else { return .position(destination) }
            let destinationIndex = Self.locate(destination, in: segments)?.index ?? segments.count - 1
            if destinationIndex > currentIndex + 1 {
                for index in (currentIndex + 1)..<destinationIndex {
                    let segment = segments[index]
                    if segment.segmentType == .interstitial, let eventID = segment.eventID,
                        segment.interstitialEvent?.restrictions.contains(.constrainsSeekingForwardInPrimaryContent) == true
                    {
                        return .playInterstitialFirst(eventID: eventID, then: destination)
                    }
                }
            }
            return .position(destination)
        }

        /// Why `self` differs from `older` (Apple posts these as `snapshotsOutOfSyncNotification`).
        public func changeReasons(since older: Snapshot) -> Set<ChangeReason> {
            var reasons: Set<ChangeReason> = []
            if segments != older.segments { reasons.insert(.segmentsChanged) }
            if currentSegment?.identity != older.currentSegment?.identity { reasons.insert(.currentSegmentChanged) }
            return reasons
        }
    }
}
