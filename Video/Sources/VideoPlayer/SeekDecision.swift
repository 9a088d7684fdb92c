public import HLSInterstitials
public import MediaTime

/// What a seek (← →) or a skip does, by the integrated timeline's rules
/// (``IntegratedTimeline/Snapshot/resolveSeek(toTimelineTime:)``): X-RESTRICT=JUMP plays the break
/// crossed first, X-RESTRICT=SKIP refuses a forward seek or a skip while its break plays, and a
/// seek into a break plays that break from the offset sought (the integrated timeline places a
/// time inside a break at that offset into it), unless the break has X-RESTRICT=SKIP (entering it
/// part-way would skip its beginning): that one, and a break played first for X-RESTRICT=JUMP,
/// play from their start.
public enum SeekDecision: Sendable, Hashable {
    /// Seek primary to this time; the next break is the first after it.
    case primary(MediaTime)
    /// Play this break (an event of it) from `offset` into that event, then primary from `then`
    /// (its own resumption point when `nil`).
    case playBreak(eventID: String, offset: MediaTime, then: MediaTime?)
    /// End the break playing; primary resumes at its resumption point.
    case skipBreak
    case refused(String)

    /// The decision for `command` (a seek or a skip) at `position`.
    public static func resolve(_ command: PlayerCommand, at position: IntegratedTimeline.Position, schedule: InterstitialSchedule) -> SeekDecision? {
        let snapshot = IntegratedTimeline.Snapshot(schedule: schedule, position: position)
        switch (command, position) {
        case (.skip, .primary):
            return .refused("no break is playing")
        case (.skip, .interstitial(let eventID, _)):
            if schedule.scheduledBreak(id: eventID)?.event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) == true {
                return .refused("break \"\(eventID)\" may not be skipped (X-RESTRICT=SKIP)")
            }
            return .skipBreak
        case (.seek(let step), .interstitial(let eventID, _)):
            guard step > .zero else { return .refused("seeking back inside a break is not supported: it plays on") }
            if case .refused(let reason) = snapshot.resolveSeek(toTimelineTime: snapshot.currentTime + step) { return .refused(reason) }
            if schedule.scheduledBreak(id: eventID)?.event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) == true {
                return .refused("break \"\(eventID)\" does not allow seeking forward (X-RESTRICT=SKIP)")
            }
            return .skipBreak
        case (.seek(let step), .primary):
            switch snapshot.resolveSeek(toTimelineTime: snapshot.currentTime + step) {
            case .position(.primary(let time)): return .primary(time)
            case .position(.interstitial(let eventID, let offset)):
                let isSkipRestricted = schedule.scheduledBreak(id: eventID)?.event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) == true
                return .playBreak(eventID: eventID, offset: isSkipRestricted ? .zero : offset, then: nil)
            case .playInterstitialFirst(let eventID, then: .primary(let time)): return .playBreak(eventID: eventID, offset: .zero, then: time)
            case .playInterstitialFirst(let eventID, then: .interstitial): return .playBreak(eventID: eventID, offset: .zero, then: nil)
            case .refused(let reason): return .refused(reason)
            }
        default:
            return nil
        }
    }
}
