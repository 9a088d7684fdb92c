import HLSInterstitials
import HLSPlaylist
import MediaProbe
import MediaTime

extension PlaybackMachine {
    // MARK: Results

    mutating func loaded(_ entry: Pending, _ resource: LoadedResource, id: UInt64) {
        if let since = entry.firstFailure {
            emit(.loadRecovered(resource: resourceKind(entry.purpose), url: resource.url, attempts: entry.attempt, outage: now - since))
        }
        switch entry.purpose {
        case .playlist(let role, let kind):
            emit(.loaded(resource: kind, url: resource.url, bytes: resource.bytes.count))
            playlistLoaded(role: role, kind: kind, resource: resource, id: id, requestedAt: entry.issuedAt)
        case .segment(let role, let index, let range, let declared, let mapURI):
            emit(.loaded(resource: role == .primary ? .segment : .assetSegment, url: resource.url, bytes: resource.bytes.count))
            segmentLoaded(role: role, index: index, range: range, declared: declared, mapURI: mapURI, resource: resource, id: id)
        case .initSection(let role, let uri):
            emit(.loaded(resource: .initSection, url: resource.url, bytes: resource.bytes.count))
            guard let initialization = try? FragmentedMP4Probe.initialization(resource.bytes) else {
                // Bytes that are not an init section fail like a load: retried, then given up on
                // (asking for the same bytes again at once would never end).
                failed(entry, LoadError(kind: .unreadable, url: resource.url, message: "not a readable fragmented-MP4 initialization section"), id: id)
                return
            }
            _ = withPipeline(role) { pipeline in
                pipeline.initSections[uri] = initialization
                if pipeline.segmentRequest == id { pipeline.segmentRequest = nil }
            }
        case .assetList(let eventID):
            emit(.loaded(resource: .assetList, url: resource.url, bytes: resource.bytes.count))
            assetListRequests[eventID] = nil
            assetListURLs[eventID] = resource.url
            do {
                let list = try AssetList(json: resource.bytes)
                for skipped in list.skippedAssets { emit(.warning("\(resource.url): \(skipped)")) }
                assetListArrived(eventID: eventID, state: .resolved(list))
            } catch {
                assetListArrived(eventID: eventID, state: .failed("\(resource.url): \(error)"))
            }
        }
    }

    mutating func failed(_ entry: Pending, _ error: LoadError, id: UInt64) {
        let kind = resourceKind(entry.purpose)
        errorLog.append(ErrorLogEntry(hostTime: now, uri: error.url, status: error.status, comment: error.message))
        if errorLog.count > 256 { errorLog.removeFirst(errorLog.count - 256) }
        let willRetry = error.isRetryable && (entry.attempt < configuration.maxAttempts || hasMediaAhead(for: entry))
        emit(.loadFailed(resource: kind, url: error.url, message: error.message, willRetry: willRetry))
        if willRetry {
            var next = entry
            next.attempt += 1
            next.firstFailure = entry.firstFailure ?? now
            let delay = min(configuration.retryBackoff * (1 << min(entry.attempt - 1, 16)), configuration.maxRetryDelay)
            let retryAt = now + delay
            retries.append((retryAt, next))
            switch entry.purpose {
            case .segment(let role, _, _, _, _), .initSection(let role, _):
                _ = withPipeline(role) { pipeline in
                    pipeline.segmentRequest = nil
                    pipeline.segmentRetryAt = retryAt
                }
            case .playlist(let role, _):
                _ = withPipeline(role) { $0.playlistRequest = nil }
            case .assetList:
                break
            }
            return
        }
        giveUp(entry, error, id: id)
    }

    /// Whether there is media to play while `entry` is retried: for the primary item's loads,
    /// its buffer ahead of its playhead; for the playing asset's, the asset's own; for a break's
    /// asset list, primary's buffer while the break has not begun. An asset loading ahead of its
    /// break has none.
    func hasMediaAhead(for entry: Pending) -> Bool {
        func primaryHasMediaAhead() -> Bool {
            guard current == nil, primary?.isReady == true else { return false }
            return primary!.buffer.bufferedAhead(of: primaryPosition) > .zero
        }
        switch entry.purpose {
        case .assetList:
            return primaryHasMediaAhead()
        case .playlist(.primary, _), .segment(.primary, _, _, _, _), .initSection(.primary, _):
            return primaryHasMediaAhead()
        case .playlist(.asset(let eventID, let index), _), .segment(.asset(let eventID, let index), _, _, _, _), .initSection(.asset(let eventID, let index), _):
            guard let playing = current, playing.scheduled.id == eventID, playing.assetIndex == index,
                  let pipeline = playing.pipeline, pipeline.isReady else { return false }
            return pipeline.buffer.bufferedAhead(of: assetPosition(playing)) > .zero
        }
    }

    func resourceKind(_ purpose: Pending.Purpose) -> ResourceKind {
        switch purpose {
        case .playlist(_, let kind): return kind
        case .segment(let role, _, _, _, _): return role == .primary ? .segment : .assetSegment
        case .initSection: return .initSection
        case .assetList: return .assetList
        }
    }

    /// A resource failed for good: fail over to another variant, skip the break, or fail the item.
    mutating func giveUp(_ entry: Pending, _ error: LoadError, id: UInt64) {
        switch entry.purpose {
        case .assetList(let eventID):
            assetListRequests[eventID] = nil
            assetListArrived(eventID: eventID, state: .failed(error.description))
        case .playlist(let role, let kind):
            if kind != .multivariantPlaylist, let next = withPipeline(role, { $0.failover() }), let next {
                switchVariant(role: role, to: next, reason: .failover)
                return
            }
            if kind == .playlistReload, role == .primary, primary?.isReady == true {
                // A live playlist that cannot be reloaded: keep playing what is known and try
                // again a target duration later.
                let time = now
                _ = withPipeline(role) { pipeline in
                    pipeline.playlistRequest = nil
                    pipeline.nextReload = time + .seconds(pipeline.playlist?.targetDurationSeconds ?? 6)
                }
                return
            }
            failRole(role, PlayerError(kind: .load, url: error.url, message: error.message))
        case .segment(let role, _, _, _, _), .initSection(let role, _):
            if let next = withPipeline(role, { pipeline -> Int? in
                pipeline.segmentRequest = nil
                pipeline.segmentRetryAt = nil
                return pipeline.failover()
            }), let next {
                switchVariant(role: role, to: next, reason: .failover)
                return
            }
            failRole(role, PlayerError(kind: .load, url: error.url, message: "\(error.message) (after \(entry.attempt) attempt\(entry.attempt == 1 ? "" : "s"))"))
        }
    }

    /// The primary item fails; an asset's failure ends its break (a preloaded asset that fails is
    /// forgotten: the break will try again when it starts).
    mutating func failRole(_ role: Pipeline.Role, _ error: PlayerError) {
        switch role {
        case .primary: fail(error)
        case .asset(let eventID, let index):
            if current?.scheduled.id == eventID, current?.assetIndex == index {
                endBreak(.failed(error.description))
            } else if index == 0 {
                preloaded[eventID] = nil
            }
        }
    }

    mutating func switchVariant(role: Pipeline.Role, to index: Int, reason: VariantSwitchReason) {
        guard let (url, bandwidth, stale) = withPipeline(role, { pipeline -> (String, Int, [UInt64]) in
            let stale = [pipeline.segmentRequest, pipeline.playlistRequest].compactMap { $0 }
            pipeline.segmentRequest = nil
            pipeline.playlistRequest = nil
            pipeline.segmentRetryAt = nil
            pipeline.nextReload = nil
            return (pipeline.variants[index].url, pipeline.variants[index].bandwidth, stale)
        }) else { return }
        for id in stale {
            pending[id] = nil
            actions.append(.cancelLoad(id: id))
        }
        retries.removeAll { $0.pending.role == role }
        emit(.variantSwitched(bandwidth: bandwidth, reason: reason))
        let kind: ResourceKind = role == .primary ? .mediaPlaylist : .assetPlaylist
        let id = request(.playlist(role, kind), ResourceRequest(url: url))
        _ = withPipeline(role) { $0.playlistRequest = id }
    }

    // MARK: Playlists

    /// Playlists are parsed leniently, as players do (a malformed tag is skipped, not fatal), and
    /// what a strict parse would reject is reported as a warning: once per problem for a pipeline,
    /// not at every reload of a live playlist.
    mutating func reportParseProblems(_ diagnostics: [PlaylistDiagnostic], in url: String, role: Pipeline.Role) {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            let text = "\(url)\(diagnostic.line.map { " line \($0)" } ?? ""): \(diagnostic.message); played anyway"
            let isNew = withPipeline(role) { $0.reportedProblems.insert(text).inserted } ?? false
            if isNew { emit(.warning(text)) }
        }
    }

    /// A playlist arrived, for a request made at host time `requestedAt`.
    mutating func playlistLoaded(role: Pipeline.Role, kind: ResourceKind, resource: LoadedResource, id: UInt64, requestedAt: Duration) {
        let result: ParseResult
        do {
            result = try PlaylistParser.parse(resource.bytes, options: ParseOptions(mode: .lenient, playlistURI: resource.url))
        } catch {
            let playlistError = PlayerError(kind: .playlist, url: resource.url, message: "\(error)")
            _ = withPipeline(role) { $0.playlistRequest = nil }
            if kind == .playlistReload {
                emit(.warning("\(playlistError); keeping the previous playlist"))
                let time = now
                _ = withPipeline(role) { $0.nextReload = Swift.max(time, requestedAt + .seconds(max(1, $0.playlist?.targetDurationSeconds ?? 6)) / 2) }
                return
            }
            failRole(role, playlistError)
            return
        }
        reportParseProblems(result.diagnostics, in: resource.url, role: role)
        switch result.playlist {
        case .multivariant(let multivariant):
            guard kind == .multivariantPlaylist || kind == .assetPlaylist,
                let url = withPipeline(role, { pipeline -> String? in
                    pipeline.playlistRequest = nil
                    return pipeline.adopt(multivariant: multivariant, url: resource.url) ? pipeline.mediaURL : nil
                }), let url
            else {
                failRole(role, PlayerError(kind: .unplayable, url: resource.url, message: "the multivariant playlist lists no variant"))
                return
            }
            let next = request(.playlist(role, role == .primary ? .mediaPlaylist : .assetPlaylist), ResourceRequest(url: url))
            _ = withPipeline(role) { $0.playlistRequest = next }
        case .media(let media):
            guard !media.segments.isEmpty || media.isLive else {
                failRole(role, PlayerError(kind: .unplayable, url: resource.url, message: "the playlist has no segments"))
                return
            }
            let wasReady = withPipeline(role, { $0.isReady }) ?? false
            let time = now
            guard let changed = withPipeline(role, { pipeline -> Bool in
                pipeline.playlistRequest = nil
                let changed = pipeline.adopt(media: media, url: resource.url)
                if let delay = pipeline.reloadPolicy.nextReloadDelay(for: media, after: changed ? .changed : .unchanged) {
                    // Counted from when this load began, not from its answer: a slow answer
                    // does not push every later reload back by its latency.
                    pipeline.nextReload = Swift.max(time, requestedAt + delay)
                } else {
                    pipeline.nextReload = nil
                }
                return changed
            }) else { return }
            switch role {
            case .primary:
                if !wasReady { primaryBecameReady(media) } else if changed { primaryReloaded(media) }
            case .asset(let eventID, let index):
                if !wasReady, current?.scheduled.id == eventID, current?.assetIndex == index { assetBecameReady() }
            }
        }
    }

    mutating func primaryBecameReady(_ media: MediaPlaylist) {
        guard let timeline = primary?.timeline else { return }
        let start = item?.startTime.map { MediaTime.min(MediaTime.max($0, timeline.start), timeline.end) }
            ?? StartPosition.resolve(playlist: media, timeline: timeline)
        startTime = start
        // The playhead holds still until the item is ready: moving it there is a seek.
        self.media.perform(.seek(.primary, to: start), at: now)
        let (events, eventErrors) = InterstitialEvent.events(in: media)
        playlistEvents = events
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
            let isNew = withPipeline(.primary) { $0.reportedProblems.insert(text).inserted } ?? false
            if isNew { emit(.warning(text)) }
        }
    }

    mutating func primaryReloaded(_ media: MediaPlaylist) {
        let (events, eventErrors) = InterstitialEvent.events(in: media, reusing: playlistEvents)
        playlistEvents = events
        reportEventErrors(eventErrors)
        refreshSchedule()
        if !media.isLive, let end = primary?.end { emit(.durationChanged(end)) }
    }

    // MARK: Segments

    mutating func segmentLoaded(role: Pipeline.Role, index: Int, range: MediaTimeRange, declared: MediaTime, mapURI: String?, resource: LoadedResource, id: UInt64) {
        let checks = configuration.checksSegmentDurations
        let tolerance = configuration.durationTolerance
        guard let (warning, switchTo) = withPipeline(role, { pipeline -> (String?, Int?) in
            guard pipeline.segmentRequest == id else { return (nil, nil) }
            pipeline.segmentRequest = nil
            pipeline.segmentAttempts = 0
            pipeline.buffer.add(range)
            pipeline.logAccess(bytes: resource.bytes.count, elapsed: resource.elapsed)
            let warning = checks ? pipeline.durationCheck(of: resource.bytes, declared: declared, mapURI: mapURI, tolerance: tolerance) : nil
            var switchTo: Int?
            if var selector = pipeline.selector, let bps = resource.bitsPerSecond {
                let before = selector.current
                let after = selector.record(bytes: resource.bytes.count, bitsPerSecond: bps)
                if after != before, !pipeline.variants[after].failed {
                    pipeline.selector = selector
                    switchTo = after
                } else {
                    if after != before { selector.select(before) }
                    pipeline.selector = selector
                }
            }
            return (warning, switchTo)
        }) else { return }
        if let warning { emit(.warning("\(resource.url): \(warning)")) }
        if let switchTo { switchVariant(role: role, to: switchTo, reason: .throughput) }
        if role == .primary, let seek = seekInFlight, primary?.buffer.bufferedAhead(of: seek.target) ?? .zero > .zero {
            setSeekInFlight(nil)
            emit(.seekCompleted(id: seek.id, finished: true))
        }
    }

    /// Starts the next segment load of `role` if the buffer wants one; `anchor` is where the
    /// playhead is (or will be).
    mutating func fetchIfNeeded(_ role: Pipeline.Role, anchor: MediaTime) {
        guard let next = withPipeline(role, { $0.nextFetch(at: anchor) }), let next else { return }
        let checks = configuration.checksSegmentDurations
        let needsInit = withPipeline(role) { pipeline in
            next.mapURI.map { checks && pipeline.initSections[$0] == nil } ?? false
        } ?? false
        if needsInit, let mapURI = next.mapURI {
            let id = request(.initSection(role, uri: mapURI), ResourceRequest(url: mapURI))
            _ = withPipeline(role) { $0.segmentRequest = id }
            return
        }
        let declared = next.range.duration
        let kind: Pending.Purpose = .segment(role, index: next.index, range: next.range, declared: declared, mapURI: next.mapURI)
        let id = request(kind, next.request)
        _ = withPipeline(role) { $0.segmentRequest = id }
    }

    /// Re-issues loads whose retry time has come.
    mutating func runRetries(at time: Duration) {
        let due = retries.filter { !(time < $0.at) }
        retries.removeAll { !(time < $0.at) }
        for (_, entry) in due {
            if let role = entry.role, withPipeline(role, { _ in true }) == nil { continue }
            if case .assetList(let eventID) = entry.purpose, assetListRequests[eventID] == nil, assetLists[eventID] != nil { continue }
            let id = request(entry.purpose, entry.request, attempt: entry.attempt, firstFailure: entry.firstFailure)
            switch entry.purpose {
            case .segment(let role, _, _, _, _), .initSection(let role, _):
                _ = withPipeline(role) { pipeline in
                    pipeline.segmentRetryAt = nil
                    pipeline.segmentRequest = id
                }
            case .playlist(let role, _):
                _ = withPipeline(role) { $0.playlistRequest = id }
            case .assetList(let eventID):
                assetListRequests[eventID] = id
            }
        }
    }

    /// Reloads live playlists whose time has come.
    mutating func reloadIfDue(_ role: Pipeline.Role, at time: Duration) {
        guard let url = withPipeline(role, { pipeline -> String? in
            guard let due = pipeline.nextReload, !(time < due), pipeline.playlistRequest == nil, let url = pipeline.mediaURL else { return nil }
            pipeline.nextReload = nil
            return url
        }), let url else { return }
        let id = request(.playlist(role, .playlistReload), ResourceRequest(url: url))
        _ = withPipeline(role) { $0.playlistRequest = id }
    }
}
