import HLSInterstitials
import HLSPlaylist
import MediaTime

extension PlaybackMachine {
    // MARK: Results

    /// A load finished: an asset list is the controller's; anything else is the backend's, whose
    /// reports are taken in at once.
    mutating func loaded(_ entry: HeadlessBackend.Pending, _ resource: LoadedResource, id: UInt64) {
        if let since = entry.firstFailure {
            emit(.loadRecovered(resource: media.resourceKind(entry.purpose), url: resource.url, attempts: entry.attempt, outage: now - since))
        }
        guard case .assetList(let eventID) = entry.purpose else {
            media.loaded(entry, resource, id: id)
            takeMediaReports()
            return
        }
        emit(.loaded(resource: .assetList, url: resource.url, bytes: resource.bytes.count))
        interstitials.assetListRequests[eventID] = nil
        interstitials.assetListURLs[eventID] = resource.url
        do {
            let list = try AssetList(json: resource.bytes)
            for skipped in list.skippedAssets { emit(.warning("\(resource.url): \(skipped)")) }
            assetListArrived(eventID: eventID, state: .resolved(list))
        } catch {
            assetListArrived(eventID: eventID, state: .failed("\(resource.url): \(error)"))
        }
    }

    /// A load failed: the backend retries it while that is worth it; an asset list given up on
    /// fails its break.
    mutating func failed(_ entry: HeadlessBackend.Pending, _ error: LoadError, id: UInt64) {
        let gaveUpAssetList = media.failed(entry, error, id: id)
        takeMediaReports()
        if gaveUpAssetList, case .assetList(let eventID) = entry.purpose {
            interstitials.assetListRequests[eventID] = nil
            assetListArrived(eventID: eventID, state: .failed(error.description))
        }
    }

    /// Re-issues loads whose retry time has come, but for asset lists no longer wanted.
    mutating func runRetries() {
        let requests = interstitials.assetListRequests
        let lists = interstitials.assetLists
        for (eventID, id) in media.runRetries(skippingAssetList: { requests[$0] == nil && lists[$0] != nil }) {
            interstitials.assetListRequests[eventID] = id
        }
    }

    /// Takes in what the backend reported.
    mutating func takeMediaReports() {
        for report in media.takeReports() {
            switch report {
            case .ready(.primary):
                if let playlist = media.primaryPlaylist { primaryBecameReady(playlist) }
            case .ready(.asset(let eventID, let index)):
                if current?.scheduled.id == eventID, current?.assetIndex == index { assetBecameReady() }
            case .timelineChanged(.primary):
                if let playlist = media.primaryPlaylist { primaryReloaded(playlist) }
            case .timelineChanged(.asset):
                break
            case .buffered(.primary):
                if let seek = seekInFlight, media.bufferedAhead(of: .primary, at: seek.target) > .zero {
                    setSeekInFlight(nil)
                    emit(.seekCompleted(id: seek.id, finished: true))
                }
            case .buffered(.asset):
                break
            case .failed(let stream, let error):
                failStream(stream, error)
            }
        }
    }

    /// The primary item fails; an asset's failure ends its break (a preloaded asset that fails is
    /// forgotten: the break will try again when it starts).
    mutating func failStream(_ stream: PlaybackStream, _ error: PlayerError) {
        switch stream {
        case .primary: fail(error)
        case .asset(let eventID, let index):
            if current?.scheduled.id == eventID, current?.assetIndex == index {
                endBreak(.failed(error.description))
            } else if index == 0 {
                perform(.cancelPreload(stream))
            }
        }
    }

    // MARK: Playlists

    mutating func primaryBecameReady(_ media: MediaPlaylist) {
        guard let timeline = self.media.primaryTimeline else { return }
        let start = item?.startTime.map { MediaTime.min(MediaTime.max($0, timeline.start), timeline.end) }
            ?? StartPosition.resolve(playlist: media, timeline: timeline)
        startTime = start
        // The playhead holds still until the item is ready: moving it there is a seek.
        self.media.perform(.seek(.primary, to: start), at: now)
        let (events, eventErrors) = InterstitialEvent.events(in: media)
        interstitials.playlistEvents = events
        reportEventErrors(eventErrors)
        status = .readyToPlay
        emit(.itemStatusChanged(.readyToPlay))
        refreshSchedule()
        placeStart(start, on: timeline)
        emit(.durationChanged(timeline.isLive ? .indefinite : timeline.end))
    }

    /// Interstitial tags that could not become events, or whose later tags were partly ignored: a
    /// warning each, once for the item (a live playlist repeats them at every reload).
    mutating func reportEventErrors(_ errors: [InterstitialEventError]) {
        for error in errors {
            let text = "\(error)\(error.keepsEvent ? "" : "; the break is not played")"
            if media.noteProblem(text, of: .primary) { emit(.warning(text)) }
        }
    }

    mutating func primaryReloaded(_ media: MediaPlaylist) {
        let (events, eventErrors) = InterstitialEvent.events(in: media, reusing: interstitials.playlistEvents)
        interstitials.playlistEvents = events
        reportEventErrors(eventErrors)
        refreshSchedule()
        if !media.isLive, let end = primaryEnd { emit(.durationChanged(end)) }
    }
}
