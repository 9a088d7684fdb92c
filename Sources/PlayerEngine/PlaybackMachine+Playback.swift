import HLSInterstitials
import HLSPlaylist
import MediaTime

extension PlaybackMachine {
    /// Something that falls due at a host time.
    enum Due: Sendable, Hashable {
        case scheduledStart
        case retry
        case reload(PlaybackStream)
        case breakStart(String)
        case primaryEnd
        case primaryDry
        case primaryFetch
        case assetListLead
        case preloadLead
        case assetEnd
        case assetDry
        case assetFetch
        case skipChange
        case observer(Int)
    }

    // MARK: Positions

    /// The primary playhead (it stands at a break's start while the break plays).
    var primaryPosition: MediaTime { media.position(of: .primary, atHost: now) }

    /// How far into the current break playback is.
    func breakOffset(_ playing: BreakPlayback) -> MediaTime { breakOffset(playing, atHost: now) }

    /// How far into the current break playback is at host time `host`.
    func breakOffset(_ playing: BreakPlayback, atHost host: Duration) -> MediaTime {
        guard let stream = playing.stream else { return playing.entryOffset }
        return playing.assetStartOffset + media.position(of: stream, atHost: host)
    }

    /// Where the current asset's playhead is (zero before one is open).
    func assetPosition(_ playing: BreakPlayback) -> MediaTime {
        guard let stream = playing.stream else { return playing.entryOffset }
        return media.position(of: stream, atHost: now)
    }

    /// Where primary will play from: the playhead, or during a break the point it resumes at.
    var primaryAnchor: MediaTime {
        guard let playing = current else { return primaryPosition }
        if let then = playing.thenPosition, case .primary(let time) = then { return time }
        return interstitials.schedule?.scheduledBreak(id: playing.scheduled.id)?.resumeTime ?? playing.scheduled.resumeTime
    }

    /// The current position on the integrated timeline's terms.
    var position: IntegratedTimeline.Position {
        if let playing = current { return .interstitial(eventID: playing.scheduled.id, offset: breakOffset(playing)) }
        return .primary(primaryPosition)
    }

    /// The time in `domain` now.
    func time(in domain: TimeDomain) -> MediaTime {
        switch domain {
        case .primary: return primaryPosition
        case .integrated: return integratedTime
        }
    }

    /// The integrated timeline's current time.
    var integratedTime: MediaTime {
        if let playing = current {
            guard let segment = interstitials.segment(ofEvent: playing.scheduled.id) else { return .zero }
            let offset = MediaTime.min(breakOffset(playing), segment.timeMapping.target.duration)
            return segment.timeMapping.target.start + offset
        }
        let time = primaryPosition
        guard let segment = interstitials.primarySegment(containing: time) else { return time }
        return segment.timeMapping.target.start + (time - segment.timeMapping.source.start)
    }

    /// A snapshot of the integrated timeline now.
    func snapshot() -> IntegratedTimeline.Snapshot? {
        interstitials.schedule.map { IntegratedTimeline.Snapshot(schedule: $0, position: position) }
    }

    // MARK: The passage of time

    /// What falls due first: the soonest deadline, and of equal ones the first listed by
    /// ``visitDeadlines(_:)``. Computed without allocating (it runs at every input).
    func earliestDue() -> (at: Duration, due: Due)? {
        var earliest: (at: Duration, due: Due)?
        visitDeadlines { at, due in
            if earliest.map({ at < $0.at }) ?? true { earliest = (at, due) }
        }
        return earliest
    }

    /// Calls `visit` with everything that will fall due as things stand, each with its host time.
    /// Observers come first: at equal times they see the time reached before what happens then.
    func visitDeadlines(_ visit: (Duration, Due) -> Void) {
        guard hasItem, !isFailed else { return }
        for (index, observer) in observers.enumerated() {
            if let at = observerDeadline(observer) { visit(at, .observer(index)) }
        }
        if let start = scheduledStart { visit(start.at, .scheduledStart) }
        if let first = media.nextRetry { visit(first, .retry) }
        if let reload = media.nextReload(of: .primary) { visit(reload, .reload(.primary)) }
        if current != nil {
            visitAssetDeadlines(visit)
        } else if media.isReady(.primary), !isScheduled {
            visitPrimaryDeadlines(visit)
        }
    }

    func visitPrimaryDeadlines(_ visit: (Duration, Due) -> Void) {
        guard media.rate(of: .primary) > 0 else { return }
        let time = primaryPosition
        if let next = interstitials.nextBreak(), !(next.start < time), let at = media.hostTime(when: .primary, reaches: next.start) {
            visit(at, .breakStart(next.id))
            // Its first asset starts loading at the preload lead (`preloadNextBreak`), whatever
            // else is due then, once its URL is known.
            let preloadAt = next.start - configuration.preloadLead
            if current == nil, !media.hasPreload(for: next.id), time < preloadAt, interstitials.firstAssetURI(of: next) != nil,
               let at = media.hostTime(when: .primary, reaches: preloadAt) {
                visit(at, .preloadLead)
            }
        }
        let bufferEnd = time + media.bufferedAhead(of: .primary, at: time)
        if let end = primaryEnd, !(bufferEnd < end) {
            if let at = media.hostTime(when: .primary, reaches: end) { visit(at, .primaryEnd) }
        } else if let at = media.hostTime(when: .primary, reaches: bufferEnd) {
            visit(at, .primaryDry)
        }
        if let at = media.fetchDeadline(of: .primary, at: time, bufferEnd: bufferEnd) { visit(at, .primaryFetch) }
        for scheduled in interstitials.breaksNotConsumed where interstitials.wantsAssetList(scheduled) {
            let point = interstitials.assetListLoadPoint(scheduled, lead: configuration.assetListLead)
            if time < point, let at = media.hostTime(when: .primary, reaches: point) {
                visit(at, .assetListLead)
                // Later breaks load later, unless a preload range moves one earlier.
                if interstitials.preloadPoints.isEmpty { break }
            }
        }
    }

    func visitAssetDeadlines(_ visit: (Duration, Due) -> Void) {
        guard let playing = current, let stream = playing.stream, media.isReady(stream), media.rate(of: stream) > 0 else { return }
        let time = media.position(of: stream, atHost: now)
        let end = assetEnd(playing, stream)
        let bufferEnd = time + media.bufferedAhead(of: stream, at: time)
        if let at = media.hostTime(when: stream, reaches: end) { visit(at, .assetEnd) }
        if bufferEnd < end, let at = media.hostTime(when: stream, reaches: bufferEnd) { visit(at, .assetDry) }
        if let at = media.fetchDeadline(of: stream, at: time, bufferEnd: bufferEnd) { visit(at, .assetFetch) }
        for edge in interstitials.skipChanges(of: playing.scheduled, after: breakOffset(playing)) {
            if let at = media.hostTime(when: stream, reaches: edge - playing.assetStartOffset) {
                visit(at, .skipChange)
                break
            }
        }
    }

    /// Where the primary item ends, once known and complete (`nil` for live).
    var primaryEnd: MediaTime? {
        media.isLive(.primary) ? nil : media.end(of: .primary)
    }

    /// Where the current asset stops: its end, or where the playout limit cuts the break.
    func assetEnd(_ playing: BreakPlayback, _ stream: PlaybackStream) -> MediaTime {
        var end = media.end(of: stream) ?? .zero
        if let limit = playing.scheduled.event.playoutLimit {
            end = MediaTime.min(end, MediaTime.max(.zero, limit - playing.assetStartOffset))
        }
        return end
    }

    /// What ``advance(to:)`` leaves behind.
    enum Advance {
        /// The machine last settled before the time advanced to (or had nothing due): what falls
        /// due next must be worked out again after the input.
        case moved
        /// The last thing handled was due at the time advanced to itself, and the machine settled
        /// then: `next` is what falls due next, as nothing has changed since.
        case settled(next: (at: Duration, due: Due)?)
    }

    /// Handles everything due up to `time`, in order, each at its own time.
    mutating func advance(to time: Duration) -> Advance {
        // Nothing can have fallen due before the next wake worked out after the last input, and
        // what that was is still what falls due first: nothing changed the machine since.
        guard let cached = cachedNextDue, !(time < cached.at) else {
            if now < time { now = time }
            return .moved
        }
        var next: (at: Duration, due: Due)? = cached
        var guardCount = 0
        while guardCount < 100_000, let event = next, !(time < event.at) {
            guardCount += 1
            if now < event.at { now = event.at }
            handleDue(event.due)
            settle()
            next = earliestDue()
        }
        guard now == time else {
            if now < time { now = time }
            return .moved
        }
        return .settled(next: next)
    }

    mutating func handleDue(_ due: Due) {
        switch due {
        case .scheduledStart:
            if let start = scheduledStart {
                dropScheduledStart()
                timeControl.playImmediately(atRate: start.rate)
                let interstitial = interstitialRate(start.rate)
                current?.timeControl.playImmediately(atRate: interstitial)
            }
        case .retry:
            runRetries()
        case .reload(let role):
            media.reloadIfDue(role)
        case .breakStart(let id):
            if let scheduled = interstitials.schedule?.scheduledBreak(id: id) {
                perform(.seek(.primary, to: scheduled.start))
                enterBreak(scheduled, offset: .zero)
            }
        case .primaryEnd:
            if let end = primaryEnd { perform(.seek(.primary, to: end)) }
            playedToEnd()
        case .primaryDry, .assetDry, .primaryFetch, .assetFetch, .assetListLead, .preloadLead, .skipChange:
            // `settle` stalls, fetches, requests, preloads or updates the skip state.
            break
        case .assetEnd:
            assetFinished()
        case .observer(let index):
            fireObserver(index)
        }
    }

    // MARK: Settling

    /// Brings everything in line with the state: breaks to enter, lists and segments to load, the
    /// time-control status and the playhead's rate.
    mutating func settle() {
        guard hasItem, !isFailed else {
            syncTimeControl()
            return
        }
        if media.isReady(.primary) {
            if current == nil, timeControl.requestedRate != 0, !isScheduled, !hasPlayedToEnd { enterDueBreak() }
            requestAssetListsAhead()
            preloadNextBreak()
            preloadNextAsset()
            media.fetchAhead(primaryAnchor: primaryAnchor)
            updateSkippable()
        }
        syncTimeControl()
    }

    /// Enters the next break when the playhead is at it or inside its range
    /// (``InterstitialController/dueBreak(at:)``), or passes it.
    mutating func enterDueBreak() {
        switch interstitials.dueBreak(at: primaryPosition) {
        case .enter(let scheduled, let offset)?: enterBreak(scheduled, offset: offset)
        case .pass(let scheduled)?: interstitials.consumed.insert(scheduled.id)
        case nil: break
        }
    }

    mutating func syncTimeControl() {
        let time = primaryPosition
        var reachesEnd = false
        var ahead = MediaTime.zero
        if media.isReady(.primary) {
            ahead = media.bufferedAhead(of: .primary, at: time)
            if let end = primaryEnd { reachesEnd = !(time + ahead < end) }
        }
        timeControl.hasItem = hasItem
        timeControl.isHeldByInterstitial = current != nil
        if current == nil { timeControl.updateBuffer(ahead: ahead, reachesEnd: reachesEnd || hasPlayedToEnd) }
        var rate = isFailed || hasPlayedToEnd || isScheduled ? 0 : timeControl.effectiveRate
        if !media.isReady(.primary) { rate = 0 }
        if rate != media.rate(of: .primary) { perform(.setRate(.primary, rate)) }
        var status = timeControl.status
        if isScheduled { status = .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback) }
        if status == .playing, current == nil, case .anchored(_, let anchor, _) = phase {
            // Honour the anchor now that media is here: start where it says playback is by now.
            dropAnchor()
            let elapsed = now - anchor.hostTime
            if elapsed > .zero, let converted = MediaTime(advancing: elapsed, atRate: anchor.rate).converted(toTimescale: 1_000_000_000) {
                let target = MediaClock.sum(anchor.time, converted)
                if target != time, media.bufferedAhead(of: .primary, at: target) > .zero {
                    perform(.seek(.primary, to: target))
                }
            }
        }
        if hasPlayedToEnd, timeControl.requestedRate == 0 { status = .paused }
        if status != lastStatus {
            if lastStatus == .playing, status == .waitingToPlayAtSpecifiedRate(.toMinimizeStalls) {
                emit(.stalled(at: time))
                media.noteStall(of: .primary)
            }
            lastStatus = status
            emit(.timeControlStatusChanged(status))
        }
        syncInterstitialTimeControl()
    }

    mutating func syncInterstitialTimeControl() {
        guard var playing = current else { return }
        let time = assetPosition(playing)
        var ahead = MediaTime.zero
        var reachesEnd = false
        var ready = false
        if let stream = playing.stream, media.isReady(stream) {
            ready = true
            ahead = media.bufferedAhead(of: stream, at: time)
            reachesEnd = !(time + ahead < assetEnd(playing, stream))
        }
        playing.timeControl.updateBuffer(ahead: ahead, reachesEnd: reachesEnd)
        let rate = ready && !isScheduled ? playing.timeControl.effectiveRate : 0
        if let stream = playing.stream, rate != media.rate(of: stream) { perform(.setRate(stream, rate)) }
        var status = playing.timeControl.status
        if !ready, status == .playing { status = .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate) }
        let changed = status != playing.lastStatus
        playing.lastStatus = status
        current = playing
        if changed { emit(.interstitialTimeControlStatusChanged(status)) }
    }

    mutating func playedToEnd() {
        guard !hasPlayedToEnd else { return }
        hasPlayedToEnd = true
        emit(.playedToEnd)
        if !queue.isEmpty {
            start(queue.removeFirst())
        } else {
            timeControl.setRate(0)
            noteRate(originator: .player)
        }
    }
}
