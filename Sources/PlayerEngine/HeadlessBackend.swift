import HLSInterstitials
import HLSPlaylist
import MediaTime

/// The headless playback backend: nothing is decoded or shown. Each stream is a ``Pipeline``
/// (playlists, variant choice and failover, live reloads, segments fetched ahead of the playhead,
/// probed and dropped) and its playhead is arithmetic on a ``MediaClock``. It keeps the primary
/// item's, the one of the asset being played in a break, and assets preloaded ahead.
///
/// It loads through the shell's ``ResourceLoader``: what it asks for leaves as
/// ``PlaybackMachine/Action``s in ``output``, and the answers come back through
/// ``loaded(_:_:id:)`` and ``failed(_:_:id:)``. The machine's asset lists share that queue, so
/// that every load is numbered and retried in one order.
struct HeadlessBackend: PlaybackBackend {
    /// A load in flight.
    struct Pending: Sendable {
        enum Purpose: Sendable {
            case playlist(PlaybackStream, ResourceKind)
            case segment(PlaybackStream, index: Int, range: MediaTimeRange, declared: MediaTime, mapURI: String?)
            case initSection(PlaybackStream, uri: String)
            case assetList(eventID: String)
        }
        var purpose: Purpose
        var request: ResourceRequest
        var attempt: Int
        /// When the first attempt of this resource failed (an outage began), if one did.
        var firstFailure: Duration?
        /// When this attempt was asked for (host time): a live playlist's next reload counts from
        /// it (RFC 8216bis §6.3.4: from when the client began loading the playlist).
        var issuedAt: Duration
        var role: PlaybackStream? {
            switch purpose {
            case .playlist(let role, _), .segment(let role, _, _, _, _), .initSection(let role, _): return role
            case .assetList: return nil
            }
        }
    }

    let configuration: PlayerConfiguration
    /// The host time of the input being handled.
    var now: Duration = .zero

    // The streams.
    var primary: Pipeline?
    /// The asset being played in a break.
    var asset: Pipeline?
    /// Assets loaded ahead, by event: the first asset of a coming break, so that the break starts
    /// without a gap, and the next asset of the break being played, so that assets follow each
    /// other without one. The pipeline's role names the asset.
    var preloaded: [String: Pipeline] = [:]
    /// The stream presented (`nil`: a break whose first asset is not open).
    var presented: PlaybackStream? = .primary
    /// Where a live primary timeline counts from (``PlayerItem/liveTimeOrigin``), for the next
    /// open of the primary stream.
    var liveTimeOrigin: PlaylistDate?

    // The playheads.
    var primaryClock = MediaClock()
    var assetClock = MediaClock()

    // Loading.
    var pending: [UInt64: Pending] = [:]
    var retries: [(at: Duration, pending: Pending)] = []
    var nextRequestID: UInt64 = 0
    var errorLog: [ErrorLogEntry] = []

    // Output, taken by the machine after each call.
    var output: [PlaybackMachine.Action] = []
    var reports: [PlaybackReport] = []

    init(configuration: PlayerConfiguration) {
        self.configuration = configuration
    }

    mutating func emit(_ kind: PlayerEvent.Kind) {
        output.append(.event(PlayerEvent(hostTime: now, kind: kind)))
    }

    // MARK: Commands

    mutating func perform(_ command: PlaybackCommand, at now: Duration) {
        self.now = now
        switch command {
        case .open(.primary, let url, let time):
            primaryClock = MediaClock(item: time, host: now)
            var pipeline = Pipeline(role: .primary, rootURL: url, forwardTarget: configuration.forwardBufferDuration)
            pipeline.liveTimeOrigin = liveTimeOrigin
            pipeline.playlistRequest = request(.playlist(.primary, .multivariantPlaylist), ResourceRequest(url: url))
            primary = pipeline
        case .open(let stream, let url, let time):
            guard case .asset(let eventID, _) = stream else { return }
            // A preload of this asset from its start is taken over (a preload of another URL is
            // dropped); an entry inside the asset leaves a preload where it is.
            var ahead = time.isZero && preloaded[eventID]?.role == stream ? preloaded.removeValue(forKey: eventID) : nil
            if ahead?.rootURL != url { ahead = nil }
            ahead?.buffer.forwardTarget = configuration.forwardBufferDuration
            asset = ahead ?? Pipeline(role: stream, rootURL: url, forwardTarget: configuration.forwardBufferDuration)
            assetClock = MediaClock(item: time, host: now)
            if ahead == nil {
                let id = request(.playlist(stream, .assetPlaylist), ResourceRequest(url: url))
                asset?.playlistRequest = id
            }
        case .preload(let stream, let url):
            guard case .asset(let eventID, _) = stream else { return }
            var pipeline = Pipeline(role: stream, rootURL: url, forwardTarget: configuration.resumeThreshold)
            pipeline.playlistRequest = request(.playlist(stream, .assetPlaylist), ResourceRequest(url: url))
            preloaded[eventID] = pipeline
        case .present(let stream):
            presented = stream
        case .seek(.primary, let time):
            primaryClock.seek(to: time, atHost: now)
        case .seek(.asset, let time):
            assetClock.seek(to: time, atHost: now)
        case .setRate(.primary, let rate):
            primaryClock.setRate(rate, atHost: now)
        case .setRate(.asset, let rate):
            assetClock.setRate(rate, atHost: now)
        case .close(.primary):
            stopLoading()
            primary = nil
            asset = nil
            preloaded = [:]
            presented = .primary
            errorLog = []
            // With no item the primary playhead stands at zero.
            primaryClock = MediaClock(item: .zero, host: now)
        case .close(let stream):
            guard asset?.role == stream else { return }
            cancelLoads(of: stream)
            asset = nil
            assetClock = MediaClock()
        case .cancelPreload(let stream):
            guard case .asset(let eventID, _) = stream, preloaded[eventID]?.role == stream,
                let pipeline = preloaded.removeValue(forKey: eventID)
            else { return }
            for id in [pipeline.playlistRequest, pipeline.segmentRequest].compactMap({ $0 }) where pending.removeValue(forKey: id) != nil {
                output.append(.cancelLoad(id: id))
            }
            retries.removeAll { $0.pending.role == stream }
        }
    }

    /// Stops every load and retry (the item failed); what is loaded stays.
    mutating func stopLoading() {
        for id in pending.keys.sorted() { output.append(.cancelLoad(id: id)) }
        pending = [:]
        retries = []
    }

    mutating func takeReports() -> [PlaybackReport] {
        defer { reports.removeAll() }
        return reports
    }

    // MARK: Questions

    func position(of stream: PlaybackStream, atHost host: Duration) -> MediaTime {
        clock(stream).itemTime(atHost: host)
    }

    func rate(of stream: PlaybackStream) -> Double { clock(stream).rate }

    func hostTime(when stream: PlaybackStream, reaches time: MediaTime) -> Duration? {
        clock(stream).hostTime(whenItemReaches: time)
    }

    private func clock(_ stream: PlaybackStream) -> MediaClock {
        if case .primary = stream { return primaryClock }
        return assetClock
    }

    // Each reads through the optional pipeline in place: binding it would copy it, and these are
    // asked at every input.

    func isReady(_ stream: PlaybackStream) -> Bool {
        if case .primary = stream { return primary?.isReady == true }
        return asset?.role == stream && asset?.isReady == true
    }

    func isLive(_ stream: PlaybackStream) -> Bool {
        if case .primary = stream { return primary?.isLive == true }
        return asset?.role == stream && asset?.isLive == true
    }

    func end(of stream: PlaybackStream) -> MediaTime? {
        if case .primary = stream { return primary?.timeline?.end }
        return asset?.role == stream ? asset?.timeline?.end : nil
    }

    func bufferedAhead(of stream: PlaybackStream, at time: MediaTime) -> MediaTime {
        if case .primary = stream { return primary?.buffer.bufferedAhead(of: time) ?? .zero }
        guard asset?.role == stream else { return .zero }
        return asset?.buffer.bufferedAhead(of: time) ?? .zero
    }

    // MARK: What only the headless backend has

    /// The primary item's media playlist, once loaded (its date ranges make the schedule).
    var primaryPlaylist: MediaPlaylist? { primary?.playlist }

    /// The primary item's timeline, once its media playlist is loaded.
    var primaryTimeline: PrimaryTimeline? { primary?.timeline }

    /// What an interstitial's relative URIs resolve against: the primary media playlist's URL,
    /// else the item's.
    var primaryBaseURL: String? { primary?.mediaURL ?? primary?.rootURL }

    /// Whether a preload of a break's asset is kept.
    func hasPreload(for eventID: String) -> Bool { preloaded[eventID] != nil }

    /// The events whose breaks have an asset preloaded, in order.
    var preloadedEventIDs: [String] { preloaded.keys.sorted() }

    /// The stream a break's preload is of.
    func preloadedStream(for eventID: String) -> PlaybackStream? { preloaded[eventID]?.role }

    /// Records a stall of `stream` in its access log.
    mutating func noteStall(of stream: PlaybackStream) {
        guard case .primary = stream, let last = primary?.access.indices.last else { return }
        primary?.access[last].stalls += 1
    }

    /// Notes `problem` with `stream`; whether it is new (a problem is reported once per stream).
    mutating func noteProblem(_ problem: String, of stream: PlaybackStream) -> Bool {
        withPipeline(stream) { $0.reportedProblems.insert(problem).inserted } ?? false
    }

    /// Stops a segment load of `stream` that a seek to `time` left useless: nothing is buffered
    /// there, so the fetch starts again from the new position.
    mutating func abandonFetch(of stream: PlaybackStream, unlessBufferedAt time: MediaTime) {
        guard case .primary = stream, let id = primary?.segmentRequest, primary?.buffer.bufferedAhead(of: time) == .zero else { return }
        pending[id] = nil
        output.append(.cancelLoad(id: id))
        primary?.segmentRequest = nil
    }

    // MARK: Deadlines

    /// When the first retry falls due.
    var nextRetry: Duration? { retries.lazy.map(\.at).min() }

    /// When a live `stream`'s playlist is to be reloaded (not while a load of it is on its way).
    func nextReload(of stream: PlaybackStream) -> Duration? {
        guard case .primary = stream, primary?.playlistRequest == nil else { return nil }
        return primary?.nextReload
    }

    /// When `stream`'s next segment should start loading, its playhead at `time` and its buffer
    /// ending at `bufferEnd`.
    func fetchDeadline(of stream: PlaybackStream, at time: MediaTime, bufferEnd: MediaTime) -> Duration? {
        if case .primary = stream { return primary?.fetchDeadline(at: time, bufferEnd: bufferEnd, on: primaryClock) }
        guard asset?.role == stream else { return nil }
        return asset?.fetchDeadline(at: time, bufferEnd: bufferEnd, on: assetClock)
    }

    /// Starts the segment loads the buffers want: the preloads' from their starts, primary's
    /// from `primaryAnchor` (where it will play from), the presented asset's from its playhead.
    mutating func fetchAhead(primaryAnchor: MediaTime) {
        for id in preloaded.keys.sorted() {
            if let role = preloaded[id]?.role { fetchIfNeeded(role, anchor: .zero) }
        }
        fetchIfNeeded(.primary, anchor: primaryAnchor)
        if let role = asset?.role, asset?.isReady == true {
            fetchIfNeeded(role, anchor: assetClock.itemTime(atHost: now))
        }
    }
}
