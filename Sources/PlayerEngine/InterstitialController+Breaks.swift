import HLSInterstitials
import MediaTime

extension InterstitialController {
    /// What the playhead reaching or passing the next break means for it.
    package enum DueBreak: Sendable {
        /// Play this break from `offset` into it.
        case enter(InterstitialSchedule.Break, offset: MediaTime)
        /// The playhead is past this break: it counts as played.
        case pass(InterstitialSchedule.Break)
    }

    /// What to do about the next break with primary playing at `time`: enter it when the
    /// playhead is at it (within a millisecond), or inside its range (joining live, or resuming
    /// from an earlier break into it, at the offset, as a live join is); a join (PRE) event at
    /// the playhead plays first, before a break the start lands inside. `nil` before it.
    package func dueBreak(at time: MediaTime) -> DueBreak? {
        guard let next = nextBreak(), !(time < next.start) else { return nil }
        let late = time - next.start
        if late < MediaTime(value: 1, timescale: 1000) { return .enter(next, offset: .zero) }
        if let join = breaksNotConsumed.first(where: { $0.event.cue == .join && $0.start == time }) { return .enter(join, offset: .zero) }
        if let duration = next.duration, late < duration { return .enter(next, offset: late) }
        return .pass(next)
    }

    /// Where joining a break's `assets` at `offset` into it starts: the asset the offset falls in,
    /// as far as the assets' durations are known, the break offset where that asset starts, and
    /// how far into the asset.
    package static func assetEntry(in assets: [AssetList.Asset], at offset: MediaTime) -> (index: Int, start: MediaTime, entry: MediaTime) {
        var index = 0
        var start = MediaTime.zero
        var entry = offset
        while index + 1 < assets.count, let duration = assets[index].duration, !(entry < duration) {
            entry = entry - duration
            start = start + duration
            index += 1
        }
        return (index, start, entry)
    }

    /// A break ended with `end`: one that failed counts as a failed asset list for the schedule
    /// (an asset failed, or it had X-ASSET-URI: resumption offset 0 unless given, D.5), unless its
    /// list already failed.
    package mutating func breakEnded(_ eventID: String, _ end: BreakEnd) {
        guard case .failed(let reason) = end else { return }
        if assetLists[eventID].map({ if case .resolved = $0 { return true } else { return false } }) ?? true {
            assetLists[eventID] = .failed(reason)
        }
    }

    /// Where primary resumes after `scheduled` ended with `end`: where the schedule says, or for a
    /// failed break its resumption offset from its start (D.5).
    package static func resumeTime(of scheduled: InterstitialSchedule.Break, after end: BreakEnd) -> MediaTime {
        if case .failed = end { return scheduled.start + (scheduled.event.resumptionOffset ?? .zero) }
        return scheduled.resumeTime
    }

    /// Counts as played the breaks after `scheduled` that resuming primary at `resume` passes
    /// wholly; one it lands inside is joined.
    package mutating func passBreaks(after scheduled: InterstitialSchedule.Break, resumingAt resume: MediaTime) {
        for skipped in breaks where skipped.start < resume && !consumed.contains(skipped.id) && skipped.start > scheduled.start {
            if let duration = skipped.duration, resume < skipped.start + duration { continue }
            consumed.insert(skipped.id)
        }
    }

    // MARK: Skip and restrictions

    /// Whether `scheduled` may be skipped at `offset` into it: inside its skip control's window
    /// and not restricted with X-RESTRICT=SKIP, which wins over a skip control, as the transport
    /// bar has it (TransportBar.isSkippable).
    package func isSkippable(_ scheduled: InterstitialSchedule.Break, at offset: MediaTime) -> Bool {
        guard let skip = effectiveSkipControl(scheduled), !Self.requiresPreferredRate(scheduled) else { return false }
        return !(offset < skip.offset) && (skip.duration.map { offset < skip.offset + $0 } ?? true)
    }

    /// The offsets into `scheduled` after `offset` at which its skip control's window opens or
    /// closes, in order.
    package func skipChanges(of scheduled: InterstitialSchedule.Break, after offset: MediaTime) -> [MediaTime] {
        guard let skip = effectiveSkipControl(scheduled) else { return [] }
        return [skip.offset, skip.duration.map { skip.offset + $0 }].compactMap { $0 }.filter { offset < $0 }
    }

    /// Whether `scheduled` is restricted with X-RESTRICT=SKIP: it plays at the default rate only,
    /// and cannot be skipped.
    package static func requiresPreferredRate(_ scheduled: InterstitialSchedule.Break) -> Bool {
        scheduled.event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement)
    }
}
