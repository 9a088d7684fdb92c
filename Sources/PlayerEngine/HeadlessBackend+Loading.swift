import HLSInterstitials
import HLSPlaylist
import MediaProbe
import MediaTime

extension HeadlessBackend {
    // MARK: Requests

    mutating func request(_ purpose: Pending.Purpose, _ request: ResourceRequest, attempt: Int = 1, firstFailure: Duration? = nil) -> UInt64 {
        var request = request
        if request.maxBytes == nil {
            switch purpose {
            case .playlist: request.maxBytes = configuration.maxPlaylistBytes
            case .assetList: request.maxBytes = configuration.maxAssetListBytes
            case .segment, .initSection: request.maxBytes = configuration.maxSegmentBytes
            }
        }
        nextRequestID += 1
        pending[nextRequestID] = Pending(purpose: purpose, request: request, attempt: attempt, firstFailure: firstFailure, issuedAt: now)
        output.append(.load(id: nextRequestID, request: request))
        return nextRequestID
    }

    /// Cancels every load and retry of a stream.
    mutating func cancelLoads(of role: PlaybackStream) {
        for (id, entry) in pending.sorted(by: { $0.key < $1.key }) where entry.role == role {
            pending[id] = nil
            output.append(.cancelLoad(id: id))
        }
        retries.removeAll { $0.pending.role == role }
    }

    /// Applies `body` to the pipeline of `role`, if it still exists: the primary's, the presented
    /// asset's, or an asset's loaded ahead.
    mutating func withPipeline<T>(_ role: PlaybackStream, _ body: (inout Pipeline) -> T) -> T? {
        switch role {
        case .primary:
            guard primary != nil else { return nil }
            return body(&primary!)
        case .asset(let eventID, _):
            guard asset?.role == role else {
                // An asset loaded ahead: a coming break's first, or the current break's next.
                guard preloaded[eventID]?.role == role, var pipeline = preloaded.removeValue(forKey: eventID) else { return nil }
                let result = body(&pipeline)
                preloaded[eventID] = pipeline
                return result
            }
            return body(&asset!)
        }
    }

    /// Re-issues loads whose retry time has come, but for asset lists that `skipsAssetList` says
    /// are no longer wanted; returns the asset lists re-issued, with their new load ids.
    mutating func runRetries(skippingAssetList skipsAssetList: (String) -> Bool) -> [(eventID: String, id: UInt64)] {
        let time = now
        let due = retries.filter { !(time < $0.at) }
        retries.removeAll { !(time < $0.at) }
        var assetLists: [(eventID: String, id: UInt64)] = []
        for (_, entry) in due {
            if let role = entry.role, withPipeline(role, { _ in true }) == nil { continue }
            if case .assetList(let eventID) = entry.purpose, skipsAssetList(eventID) { continue }
            let id = request(entry.purpose, entry.request, attempt: entry.attempt, firstFailure: entry.firstFailure)
            if case .assetList(let eventID) = entry.purpose { assetLists.append((eventID, id)) }
            track(entry.purpose, request: id, retryAt: nil)
        }
        return assetLists
    }

    /// Records in the pipeline a load for `purpose` is for that it is in flight as `id`, or waits
    /// for a retry at `retryAt`.
    mutating func track(_ purpose: Pending.Purpose, request id: UInt64?, retryAt: Duration?) {
        switch purpose {
        case .segment(let role, _, _, _, _), .initSection(let role, _):
            _ = withPipeline(role) { pipeline in
                pipeline.segmentRequest = id
                pipeline.segmentRetryAt = retryAt
            }
        case .playlist(let role, _):
            _ = withPipeline(role) { $0.playlistRequest = id }
        case .assetList:
            break
        }
    }

    // MARK: Results

    /// A load of a stream's (not an asset list) arrived.
    mutating func loaded(_ entry: Pending, _ resource: LoadedResource, id: UInt64) {
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
                _ = failed(entry, LoadError(kind: .unreadable, url: resource.url, message: "not a readable fragmented-MP4 initialization section"), id: id)
                return
            }
            _ = withPipeline(role) { pipeline in
                pipeline.initSections[uri] = initialization
                if pipeline.segmentRequest == id { pipeline.segmentRequest = nil }
            }
        case .assetList:
            preconditionFailure("an asset list is the machine's to take")
        }
    }

    /// A load failed: logged, reported, and retried while that is worth it. Returns whether an
    /// asset list was given up on (the machine's to handle); a stream's load given up on fails
    /// over to another variant or reports the stream failed.
    mutating func failed(_ entry: Pending, _ error: LoadError, id: UInt64) -> Bool {
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
            track(entry.purpose, request: nil, retryAt: retryAt)
            return false
        }
        if case .assetList = entry.purpose { return true }
        giveUp(entry, error, id: id)
        return false
    }

    /// Whether there is media to play while `entry` is retried: for the primary item's loads,
    /// its buffer ahead of its playhead; for the playing asset's, the asset's own; for a break's
    /// asset list, primary's buffer while the break has not begun. An asset loading ahead of its
    /// break has none.
    func hasMediaAhead(for entry: Pending) -> Bool {
        func primaryHasMediaAhead() -> Bool {
            guard presented == .primary, primary?.isReady == true else { return false }
            return primary!.buffer.bufferedAhead(of: primaryClock.itemTime(atHost: now)) > .zero
        }
        switch entry.purpose {
        case .assetList:
            return primaryHasMediaAhead()
        case .playlist(.primary, _), .segment(.primary, _, _, _, _), .initSection(.primary, _):
            return primaryHasMediaAhead()
        case .playlist(let role, _), .segment(let role, _, _, _, _), .initSection(let role, _):
            guard presented == role, asset?.role == role, asset?.isReady == true else { return false }
            return asset!.buffer.bufferedAhead(of: assetClock.itemTime(atHost: now)) > .zero
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

    /// A stream's resource failed for good: fail over to another variant, or report the stream
    /// failed.
    mutating func giveUp(_ entry: Pending, _ error: LoadError, id: UInt64) {
        switch entry.purpose {
        case .assetList:
            break
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
            reports.append(.failed(role, PlayerError(kind: .load, url: error.url, message: error.message)))
        case .segment(let role, _, _, _, _), .initSection(let role, _):
            if let next = withPipeline(role, { pipeline -> Int? in
                pipeline.segmentRequest = nil
                pipeline.segmentRetryAt = nil
                return pipeline.failover()
            }), let next {
                switchVariant(role: role, to: next, reason: .failover)
                return
            }
            reports.append(.failed(role, PlayerError(kind: .load, url: error.url, message: "\(error.message) (after \(entry.attempt) attempt\(entry.attempt == 1 ? "" : "s"))")))
        }
    }

    mutating func switchVariant(role: PlaybackStream, to index: Int, reason: VariantSwitchReason) {
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
            output.append(.cancelLoad(id: id))
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
    mutating func reportParseProblems(_ diagnostics: [PlaylistDiagnostic], in url: String, role: PlaybackStream) {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            let text = "\(url)\(diagnostic.line.map { " line \($0)" } ?? ""): \(diagnostic.message); played anyway"
            if noteProblem(text, of: role) { emit(.warning(text)) }
        }
    }

    /// A playlist arrived, for a request made at host time `requestedAt`.
    mutating func playlistLoaded(role: PlaybackStream, kind: ResourceKind, resource: LoadedResource, id: UInt64, requestedAt: Duration) {
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
            reports.append(.failed(role, playlistError))
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
                reports.append(.failed(role, PlayerError(kind: .unplayable, url: resource.url, message: "the multivariant playlist lists no variant")))
                return
            }
            let next = request(.playlist(role, role == .primary ? .mediaPlaylist : .assetPlaylist), ResourceRequest(url: url))
            _ = withPipeline(role) { $0.playlistRequest = next }
        case .media(let media):
            guard !media.segments.isEmpty || media.isLive else {
                reports.append(.failed(role, PlayerError(kind: .unplayable, url: resource.url, message: "the playlist has no segments")))
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
            if !wasReady {
                reports.append(.ready(role))
            } else if changed, role == .primary {
                reports.append(.timelineChanged(role))
            }
        }
    }

    // MARK: Segments

    mutating func segmentLoaded(role: PlaybackStream, index: Int, range: MediaTimeRange, declared: MediaTime, mapURI: String?, resource: LoadedResource, id: UInt64) {
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
        if role == .primary { reports.append(.buffered(role)) }
    }

    /// Starts the next segment load of `role` if the buffer wants one; `anchor` is where the
    /// playhead is (or will be).
    mutating func fetchIfNeeded(_ role: PlaybackStream, anchor: MediaTime) {
        guard configuration.fetchesSegments else {
            // Another player fetches and presents the media (a browser's <video>): each segment
            // the buffer wants counts as loaded, for its EXTINF, and nothing is requested.
            var added = false
            while let next = withPipeline(role, { $0.nextFetch(at: anchor) }), let next {
                _ = withPipeline(role) { $0.buffer.add(next.range) }
                added = true
            }
            if added, role == .primary { reports.append(.buffered(role)) }
            return
        }
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

    /// Reloads `role`'s live playlist if its time has come.
    mutating func reloadIfDue(_ role: PlaybackStream) {
        let time = now
        guard let url = withPipeline(role, { pipeline -> String? in
            guard let due = pipeline.nextReload, !(time < due), pipeline.playlistRequest == nil, let url = pipeline.mediaURL else { return nil }
            pipeline.nextReload = nil
            return url
        }), let url else { return }
        let id = request(.playlist(role, .playlistReload), ResourceRequest(url: url))
        _ = withPipeline(role) { $0.playlistRequest = id }
    }
}
