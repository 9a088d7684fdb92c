import HLSInterstitials
import HLSPlaylist
import MediaTime

extension PlaybackMachine {
    // MARK: The event controller

    /// Rebuilds the schedule after a reload, an asset list, a played-once event or new client
    /// events, and reports what changed.
    mutating func refreshSchedule() {
        guard let timeline = media.primaryTimeline else { return }
        for change in interstitials.refresh(timeline: timeline, playlist: media.primaryPlaylist, startTime: startTime, playing: current?.scheduled.id) {
            emit(change)
        }
    }

    /// Loads the first asset of the next break (its playlist and a little media) once the break is
    /// within the preload lead, and forgets preloads of breaks that will not play, as the event
    /// controller decides (``InterstitialController/preloadCommands(preloads:playing:at:lead:primaryBase:primaryID:)``).
    mutating func preloadNextBreak() {
        let preloads = media.preloadedEventIDs.compactMap { id in media.preloadedStream(for: id).map { (eventID: id, stream: $0) } }
        let commands = interstitials.preloadCommands(preloads: preloads, playing: current?.scheduled.id, at: primaryPosition, lead: configuration.preloadLead,
                                                     primaryBase: media.primaryBaseURL, primaryID: primaryID)
        for command in commands { perform(command) }
    }

    /// Loads the current break's next asset (its playlist and a little media) once the current
    /// asset is buffered to its end, so that the next one starts without a gap.
    mutating func preloadNextAsset() {
        guard let playing = current, let assets = playing.assets, playing.assetIndex + 1 < assets.count,
            !media.hasPreload(for: playing.scheduled.id), let stream = playing.stream, media.isReady(stream)
        else { return }
        let time = assetPosition(playing)
        let end = assetEnd(playing, stream)
        guard !(time + media.bufferedAhead(of: stream, at: time) < end) else { return }
        if let limit = playing.scheduled.event.playoutLimit, !(playing.assetStartOffset + end < limit) { return }
        let index = playing.assetIndex + 1
        let url = assetURL(assets[index].uri, eventID: playing.scheduled.id)
        perform(.preload(.asset(eventID: playing.scheduled.id, index: index), url: url))
    }

    /// The URL of an asset of a break (``InterstitialController/assetURL(_:eventID:primaryBase:primaryID:)``).
    package func assetURL(_ uri: String, eventID: String) -> String {
        interstitials.assetURL(uri, eventID: eventID, primaryBase: media.primaryBaseURL, primaryID: primaryID)
    }

    /// Asks for the asset lists of breaks coming within the lead time.
    mutating func requestAssetListsAhead() {
        guard interstitials.schedule != nil else { return }
        let anchor = current == nil ? primaryPosition : primaryAnchor
        for scheduled in interstitials.breaksNotConsumed where scheduled.event.assetListURI != nil {
            guard interstitials.wantsAssetList(scheduled) else { continue }
            // Load points follow the breaks' order unless preload ranges move some earlier.
            guard !(anchor < interstitials.assetListLoadPoint(scheduled, lead: configuration.assetListLead)) else {
                if interstitials.preloadPoints.isEmpty { break } else { continue }
            }
            // Joining live inside the break, or resuming into it from an earlier break.
            var joinOffset: MediaTime?
            if scheduled.start < anchor { joinOffset = anchor - scheduled.start }
            requestAssetList(scheduled.event, startOffset: joinOffset)
        }
    }

    mutating func requestAssetList(_ event: InterstitialEvent, startOffset: MediaTime?) {
        guard let uri = event.assetListURI, interstitials.assetListRequests[event.identifier] == nil else { return }
        let url = InterstitialRequest.url(uri, relativeTo: media.primaryBaseURL, primaryID: primaryID, startOffset: startOffset)
        interstitials.assetListRequests[event.identifier] = media.request(.assetList(eventID: event.identifier), ResourceRequest(url: url))
    }

    mutating func assetListArrived(eventID: String, state: InterstitialSchedule.AssetListState) {
        interstitials.assetLists[eventID] = state
        switch state {
        case .resolved(let list): emit(.assetListResponse(eventID: eventID, status: .available(assets: list.assets.count)))
        case .failed(let reason): emit(.assetListResponse(eventID: eventID, status: .failed(reason)))
        case .pending: break
        }
        refreshSchedule()
        if current?.scheduled.id == eventID, current?.assets == nil {
            if let scheduled = interstitials.schedule?.scheduledBreak(id: eventID) { current?.scheduled = scheduled }
            resolveAssets()
        }
    }

    /// Where playback starts, as a seek there would have it: a VOD start inside a break's range
    /// (from its start to where primary resumes) plays that break from its start, then primary
    /// from the resume point; on live a break in progress at the join is joined at the offset.
    /// Breaks wholly before the start are not played; join (PRE) events play first either way.
    mutating func placeStart(_ start: MediaTime, on timeline: PrimaryTimeline) {
        var start = start
        if !timeline.isLive,
            let covering = interstitials.breaks.first(where: { $0.event.cue == .none && $0.start < start && start < $0.resumeTime })
        {
            start = covering.start
            startTime = start
            perform(.seek(.primary, to: start))
            refreshSchedule()
        }
        for scheduled in interstitials.breaks where scheduled.start < start {
            if timeline.isLive, let duration = scheduled.duration, start < scheduled.start + duration { continue }
            interstitials.consumed.insert(scheduled.id)
        }
    }

    // MARK: The interstitial player

    mutating func enterBreak(_ scheduled: InterstitialSchedule.Break, offset: MediaTime) {
        interstitials.consumed.insert(scheduled.id)
        if scheduled.event.willPlayOnce { interstitials.playedOnce.insert(scheduled.id) }
        var playing = BreakPlayback(scheduled: scheduled)
        // Until its first asset starts, the break stands at the offset it was entered at.
        playing.entryOffset = offset
        playing.thenPosition = pendingThen
        pendingThen = nil
        playing.timeControl.automaticallyWaitsToMinimizeStalls = timeControl.automaticallyWaitsToMinimizeStalls
        playing.timeControl.resumeThreshold = configuration.resumeThreshold
        playing.timeControl.hasItem = true
        current = playing
        perform(.present(nil))
        let interstitial = interstitialRate(timeControl.requestedRate)
        current?.timeControl.setRate(interstitial)
        emit(.currentEventChanged(id: scheduled.id))
        emit(.timelineChanged(reasons: [.currentSegmentChanged]))
        resolveAssets()
    }

    /// Finds the current break's assets (from its asset list or X-ASSET-URI) and starts the
    /// first; waits while the asset list is on its way.
    mutating func resolveAssets() {
        guard let playing = current, playing.assets == nil else { return }
        let event = playing.scheduled.event
        var assets: [AssetList.Asset]
        if event.assetListURI != nil {
            switch interstitials.assetLists[event.identifier] {
            case .resolved(let list)?:
                assets = list.assets
            case .failed(let reason)?:
                endBreak(.failed(reason))
                return
            case .pending?, nil:
                requestAssetList(event, startOffset: playing.entryOffset > .zero ? playing.entryOffset : nil)
                return
            }
        } else {
            assets = event.assetURIs.map { AssetList.Asset(uri: $0, duration: nil) }
        }
        current?.assets = assets
        guard !assets.isEmpty else {
            endBreak(.completed)
            return
        }
        // Joining in progress: the asset the offset falls in, from the durations known.
        let (index, start, entry) = InterstitialController.assetEntry(in: assets, at: playing.entryOffset)
        startAsset(index, startingAt: start, entry: entry)
    }

    mutating func startAsset(_ index: Int, startingAt breakOffset: MediaTime, entry: MediaTime) {
        guard var playing = current, let assets = playing.assets, index < assets.count else { return }
        let eventID = playing.scheduled.id
        let url = assetURL(assets[index].uri, eventID: eventID)
        let role = PlaybackStream.asset(eventID: eventID, index: index)
        playing.assetIndex = index
        playing.assetStartOffset = breakOffset
        playing.assetEntryOffset = entry
        if let previous = playing.stream, previous != role { perform(.close(previous)) }
        playing.stream = role
        perform(.open(role, url: url, at: entry))
        perform(.present(role))
        var control = TimeControl()
        control.automaticallyWaitsToMinimizeStalls = timeControl.automaticallyWaitsToMinimizeStalls
        control.resumeThreshold = configuration.resumeThreshold
        control.hasItem = true
        control.setRate(interstitialRate(timeControl.requestedRate))
        playing.timeControl = control
        current = playing
        emit(.assetStarted(eventID: eventID, index: index, url: url))
    }

    /// Closes the current break's asset in the backend, if one is open.
    mutating func closeBreakAsset() {
        if let stream = current?.stream { perform(.close(stream)) }
    }

    mutating func assetBecameReady() {
        guard let playing = current, let stream = playing.stream, let end = media.end(of: stream) else { return }
        if !(playing.assetEntryOffset < end) { assetFinished() }
    }

    /// The current asset ended: the next one, or the end of the break.
    mutating func assetFinished() {
        guard let playing = current, let stream = playing.stream else { return }
        let end = assetEnd(playing, stream)
        let offset = playing.assetStartOffset + end
        perform(.close(stream))
        if let limit = playing.scheduled.event.playoutLimit, !(offset < limit) {
            endBreak(.playoutLimitReached)
        } else if let assets = playing.assets, playing.assetIndex + 1 < assets.count {
            startAsset(playing.assetIndex + 1, startingAt: offset, entry: .zero)
        } else {
            endBreak(.completed)
        }
    }

    /// Leaves the break; primary resumes where the schedule says, or the next break sharing the
    /// start plays.
    mutating func endBreak(_ end: BreakEnd) {
        guard let playing = current else { return }
        let id = playing.scheduled.id
        closeBreakAsset()
        interstitials.breakEnded(id, end)
        current = nil
        perform(.present(.primary))
        refreshSchedule()
        let scheduled = interstitials.schedule?.scheduledBreak(id: id) ?? playing.scheduled
        let resume = InterstitialController.resumeTime(of: scheduled, after: end)
        emit(.breakEnded(eventID: id, end: end, resumeAt: resume))
        if end != .seekedAway, let next = interstitials.nextBreak(), next.start == scheduled.start, playing.thenPosition == nil {
            enterBreak(next, offset: .zero)
            return
        }
        emit(.currentEventChanged(id: nil))
        emit(.timelineChanged(reasons: [.currentSegmentChanged]))
        guard end != .seekedAway else { return }
        if let then = playing.thenPosition {
            go(to: then, originator: .player)
            return
        }
        if resume != primaryPosition { moveTo(primaryTime: resume, originator: .player) }
        if let end = primaryEnd, !(primaryPosition < end), interstitials.nextBreak().map({ end < $0.start }) ?? true {
            playedToEnd()
        }
        interstitials.passBreaks(after: scheduled, resumingAt: resume)
    }

    mutating func updateSkippable() {
        guard let playing = current else { return }
        let skippable = interstitials.isSkippable(playing.scheduled, at: breakOffset(playing))
        if skippable != playing.skippable {
            current?.skippable = skippable
            emit(.skippableChanged(eventID: playing.scheduled.id, skippable: skippable))
        }
    }

    // MARK: Seeking

    mutating func seek(id: Int, to target: SeekTarget, originator: ChangeOriginator) {
        if let previous = seekInFlight {
            setSeekInFlight(nil)
            emit(.seekCompleted(id: previous.id, finished: false))
        }
        guard let snapshot = snapshot(), !isFailed else {
            emit(.seekCompleted(id: id, finished: false))
            return
        }
        let resolution: IntegratedTimeline.SeekResolution
        switch target {
        case .primary(let time): resolution = snapshot.resolveSeek(toPrimaryTime: time)
        case .integrated(let time): resolution = snapshot.resolveSeek(toTimelineTime: time)
        case .interstitial(let eventID, let offset): resolution = snapshot.resolveSeek(to: .interstitial(eventID: eventID, offset: offset))
        }
        switch resolution {
        case .refused(let reason):
            emit(.warning("seek refused: \(reason)"))
            emit(.seekCompleted(id: id, finished: false))
        case .position(let destination):
            // A seek on the integrated timeline, or to a break at an offset, lands at that offset
            // (the integrated time domain counts the break's own time); a primary time inside a
            // break's range restarts it (D.5), which the resolution already gives as offset 0.
            if case .primary = target { go(to: destination, originator: originator) } else { go(to: destination, keepingOffset: true, originator: originator) }
            completeSeek(id: id)
        case .playInterstitialFirst(let eventID, let then):
            pendingThen = then
            go(to: .interstitial(eventID: eventID, offset: .zero), originator: originator)
            completeSeek(id: id)
        }
    }

    /// A seek into a break is complete at once; into primary, once media at the destination is
    /// loaded.
    mutating func completeSeek(id: Int) {
        if current != nil {
            emit(.seekCompleted(id: id, finished: true))
            return
        }
        let time = primaryPosition
        if media.bufferedAhead(of: .primary, at: time) > .zero || primaryEnd.map({ !(time < $0) }) == true {
            emit(.seekCompleted(id: id, finished: true))
        } else {
            setSeekInFlight(Seek(id: id, target: time))
        }
    }

    /// Places playback at `destination` exactly: primary content, or a break at an offset.
    mutating func jump(to destination: IntegratedTimeline.Position, originator: ChangeOriginator) {
        guard interstitials.schedule != nil, !isFailed else { return }
        switch destination {
        case .primary:
            go(to: destination, originator: originator)
        case .interstitial(let eventID, let offset):
            if let playing = current, playing.scheduled.id == eventID {
                // Within the break being played: only the offset moves, within the current asset.
                let assetTime = offset - playing.assetStartOffset
                if !assetTime.isNegative, let stream = playing.stream, assetTime < assetEnd(playing, stream) {
                    perform(.seek(stream, to: assetTime))
                    return
                }
            }
            guard let scheduled = interstitials.schedule?.scheduledBreak(id: eventID) else { return }
            if current != nil { endBreak(.seekedAway) }
            moveTo(primaryTime: scheduled.start, originator: originator)
            interstitials.markConsumed(before: scheduled.start, including: eventID)
            enterBreak(scheduled, offset: offset)
        }
    }

    /// Moves playback to `destination`: primary content, or the start of a break (a seek into a
    /// break restarts it), or with `keepingOffset` the break at the destination's offset (S2.5).
    /// A break entered at its start while paused is entered when playback starts; one entered at
    /// an offset is entered at once, so that the offset is kept.
    mutating func go(to destination: IntegratedTimeline.Position, keepingOffset: Bool = false, originator: ChangeOriginator) {
        if current != nil {
            let then = pendingThen
            endBreak(.seekedAway)
            pendingThen = then
        }
        switch destination {
        case .primary(let time):
            pendingThen = nil
            moveTo(primaryTime: time, originator: originator)
            interstitials.markConsumed(before: time, including: nil)
        case .interstitial(let eventID, let offset):
            guard let scheduled = interstitials.schedule?.scheduledBreak(id: eventID) else { return }
            moveTo(primaryTime: scheduled.start, originator: originator)
            interstitials.markConsumed(before: scheduled.start, including: eventID)
            let entry = keepingOffset ? MediaTime.max(offset, .zero) : .zero
            if timeControl.requestedRate != 0 || entry > .zero { enterBreak(scheduled, offset: entry) }
        }
    }

    mutating func moveTo(primaryTime destination: MediaTime, originator: ChangeOriginator) {
        var target = destination
        if let timeline = media.primaryTimeline {
            target = MediaTime.max(timeline.start, MediaTime.min(destination, timeline.end))
        }
        hasPlayedToEnd = false
        if originator != .coordinator { dropAnchor() }
        if media.bufferedAhead(of: .primary, at: target) == .zero { timeControl.seeked() }
        perform(.seek(.primary, to: target))
        media.abandonFetch(of: .primary, unlessBufferedAt: target)
        // A break's resumption moves primary time but not integrated time.
        for index in observers.indices where originator != .player || observers[index].domain == .primary {
            observers[index].lastTime = time(in: observers[index].domain)
        }
        emit(.timeJumped(to: target, originator: originator))
    }

    // MARK: Observers

    func observerDeadline(_ observer: Observer) -> Duration? {
        guard let last = observer.lastTime else { return nil }
        let target: MediaTime
        if let interval = observer.interval {
            target = interval * (last.floorQuotient(dividingBy: interval) + 1)
        } else {
            guard let next = observer.times.first(where: { last < $0 }) else { return nil }
            target = next
        }
        return hostTime(reaching: target, in: observer.domain)
    }

    /// The host time at which `time` in `domain` is reached, if playback is heading there now.
    func hostTime(reaching target: MediaTime, in domain: TimeDomain) -> Duration? {
        switch domain {
        case .primary:
            guard current == nil else { return nil }
            return media.hostTime(when: .primary, reaches: target)
        case .integrated:
            if let playing = current {
                guard let segment = interstitials.segment(ofEvent: playing.scheduled.id),
                    !(target < segment.timeMapping.target.start), !(segment.timeMapping.target.end < target)
                else { return nil }
                let offset = target - segment.timeMapping.target.start - playing.assetStartOffset
                return playing.stream.flatMap { media.hostTime(when: $0, reaches: offset) }
            }
            guard let segment = interstitials.primarySegment(containing: primaryPosition) else { return media.hostTime(when: .primary, reaches: target) }
            let mapped = segment.timeMapping.source.start + (target - segment.timeMapping.target.start)
            guard !(segment.timeMapping.source.end < mapped) else { return nil }
            return media.hostTime(when: .primary, reaches: mapped)
        }
    }

    mutating func fireObserver(_ index: Int) {
        guard index < observers.count else { return }
        let observer = observers[index]
        let time = time(in: observer.domain)
        if let interval = observer.interval {
            guard let last = observer.lastTime else { return }
            let mark = interval * (last.floorQuotient(dividingBy: interval) + 1)
            observers[index].lastTime = mark
            emit(.periodicTime(observer: observer.id, time: mark))
        } else {
            let last = observer.lastTime ?? time
            for boundary in observer.times where last < boundary && !(time < boundary) {
                emit(.boundaryTime(observer: observer.id, time: boundary))
            }
            observers[index].lastTime = time
        }
    }
}
