public import HLSInterstitials
public import MediaTime
public import VideoBackend

/// The breaks of an ``InterstitialSchedule`` as the switcher plays them: one
/// ``InterstitialSwitchStateMachine/Break`` each (start, duration, and the resumption offset that
/// puts primary back at the schedule's `resumeTime`, after X-SNAP and X-RESUME-OFFSET), with its
/// assets' URIs resolved. Breaks sharing a start play as one pod (D.2). A break that plays
/// nothing (a failed or empty asset list, no known duration) is left out. A pre-roll (a start of
/// zero) is the first item: the player arms it before primary plays, and the switcher switches to
/// it as soon as its asset has prerolled.
public struct SwitchPlan: Sendable, Hashable {
    public struct Item: Sendable, Hashable, Identifiable {
        /// The event identifiers (several when breaks share a start), joined with `+`.
        public var id: String
        public var scheduledBreak: InterstitialSwitchStateMachine.Break
        /// The assets to play in order, resolved against the playlist's URI.
        public var assetURIs: [String]
        /// Each asset's duration from its asset list (`nil` when it gives none), as ``assetURIs``.
        public var assetDurations: [MediaTime?] = []
        /// Each event's scheduled duration, in the order of the events in ``id``.
        public var eventDurations: [MediaTime] = []
        /// X-RESTRICT=SKIP: no skipping and no seeking forward while it plays.
        public var isSkipRestricted: Bool
    }

    /// Why a break of the schedule is not in the plan.
    public enum Omission: Sendable, Hashable {
        case playsNothing(id: String)
        case unknownDuration(id: String)
    }

    public private(set) var items: [Item] = []
    public private(set) var omissions: [Omission] = []

    public init(schedule: InterstitialSchedule, baseURI: String) {
        var pods: [[InterstitialSchedule.Break]] = []
        for scheduled in schedule.breaks {
            if let last = pods.last?.last, last.start == scheduled.start {
                pods[pods.count - 1].append(scheduled)
            } else {
                pods.append([scheduled])
            }
        }
        for pod in pods {
            var uris: [String] = []
            var assetDurations: [MediaTime?] = []
            var eventDurations: [MediaTime] = []
            var duration = MediaTime.zero
            var ids: [String] = []
            var isSkipRestricted = false
            for scheduled in pod {
                guard !scheduled.playsNothing, let assets = scheduled.assets, !assets.isEmpty else {
                    omissions.append(.playsNothing(id: scheduled.id))
                    continue
                }
                guard let length = scheduled.duration, length > .zero else {
                    omissions.append(.unknownDuration(id: scheduled.id))
                    continue
                }
                ids.append(scheduled.id)
                uris += assets.map { URIResolution.resolve($0.uri, against: baseURI) }
                assetDurations += assets.map(\.duration)
                eventDurations.append(length)
                duration += length
                isSkipRestricted = isSkipRestricted || scheduled.event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement)
            }
            guard let first = pod.first, let last = pod.last, !ids.isEmpty else { continue }
            items.append(Item(
                id: ids.joined(separator: "+"),
                scheduledBreak: InterstitialSwitchStateMachine.Break(start: first.start, duration: duration, resumptionOffset: last.resumeTime - first.start),
                assetURIs: uris,
                assetDurations: assetDurations,
                eventDurations: eventDurations,
                isSkipRestricted: isSkipRestricted
            ))
        }
    }

    /// The first break that starts after primary time `position`: the next one to play.
    public func next(after position: MediaTime) -> Item? {
        items.first { $0.scheduledBreak.start > position }
    }

    /// The item of event `eventID` (one of a pod's).
    public func item(containing eventID: String) -> Item? {
        items.first { $0.id.split(separator: "+").contains(Substring(eventID)) }
    }
}

extension SwitchPlan.Omission: CustomStringConvertible {
    public var description: String {
        switch self {
        case .playsNothing(let id): "break \"\(id)\" plays nothing (no assets, or its asset list failed): primary plays on"
        case .unknownDuration(let id): "break \"\(id)\" has no known duration: not played"
        }
    }
}

extension SwitchPlan.Item {
    /// The events of the pod, in the order they play.
    public var eventIDs: [String] { id.split(separator: "+").map(String.init) }

    /// Where event `eventID` starts within the pod (`nil`: not one of its events).
    public func offset(ofEvent eventID: String) -> MediaTime? {
        guard let index = eventIDs.firstIndex(of: eventID) else { return nil }
        return eventDurations.prefix(index).reduce(.zero, +)
    }

    /// The event playing `offset` into the pod, and the offset into it; the last event past its end.
    public func event(atPodOffset offset: MediaTime) -> (eventID: String, offset: MediaTime) {
        var rest = offset
        let ids = eventIDs
        for (index, id) in ids.enumerated() {
            if index == ids.count - 1 || rest < eventDurations[index] { return (id, rest) }
            rest -= eventDurations[index]
        }
        return (id, offset)
    }
}

extension SwitchPlan {
    /// `2 breaks: mid-1 at 40.000 s (2 assets), …`, for the player's first line.
    public var summary: String {
        "\(items.count) break\(items.count == 1 ? "" : "s")" + (items.isEmpty ? "" : ": ")
            + items.map { "\($0.id) at \(MediaTime.format($0.scheduledBreak.start)) (\($0.assetURIs.count) asset\($0.assetURIs.count == 1 ? "" : "s"))" }.joined(separator: ", ")
    }
}
