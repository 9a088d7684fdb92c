import HLSPlaylist
import MediaTime

/// A real HLS origin, as pure logic: given a request and the current date, the response. VOD and
/// simulated live streams cut from measured media, with per-viewer ad decisions served as HLS
/// interstitials (S1.8, S2.1, S2.2, S2.9) or stitched between discontinuities (S1.5).
///
/// Nothing here reads a clock or touches a socket: the date is a parameter of every call that
/// depends on it, so a test drives a live stream with any dates it likes, and the HTTP server is a
/// thin shell that calls ``respond(to:at:)``.
///
/// URL layout (every path segment is an identifier from the configuration):
///
/// | path | what |
/// |---|---|
/// | `/` | a JSON index of every stream and viewer's URLs |
/// | `/vod/<stream>/<viewer>/main.m3u8`, `/live/…/main.m3u8` | the viewer's media playlist (`_HLS_skip=YES` for a delta update) |
/// | `/vod/<stream>/<viewer>/multivariant.m3u8`, `/live/…` | a multivariant playlist with that one variant |
/// | `/ads/<stream>/<viewer>/<break>.json` | the asset list of a break for a viewer (`_HLS_primary_id` is echoed) |
/// | `/ads/media/<ad>/index.m3u8` | an ad's VOD media playlist |
/// | `/ads/media/<ad>/<n>.ts` | segment n of an ad |
/// | `/media/content/<n>.ts`, `/media/content/<n>-<m>.ts` | content chunk n (or chunks n to m) of the endless loop |
/// | `/media/content/<n>.cut<k>.ts`, `/media/content/<n>-<m>.cut<k>.ts` | the same, the last chunk cut before its keyframe k (a VOD's shorter last segment) |
public struct Origin: Sendable {
    /// What is served.
    public let configuration: OriginConfiguration
    /// The measured media.
    public let library: MediaLibrary
    /// The ad decisions.
    public let decisions: AdDecisionEngine
    /// The start date of live streams that do not configure one.
    public let liveStartDate: PlaylistDate
    /// Each stream's segment grid, by stream identifier.
    let grids: [String: StreamGrid]
    /// Playlists that do not change with time, rendered once.
    package let rendered = RenderedPlaylists()

    /// An origin serving `configuration` from `library`.
    ///
    /// - Parameter liveStartDate: when live streams without a `startDate` started (the composition
    ///   root passes a date a window before it starts serving, so that playlists are full at once).
    /// - Throws: ``OriginConfigurationError`` when a stream does not fit the media: a segment
    ///   duration that is not a multiple of the content's, a VOD length that does not end on a
    ///   keyframe of the content, a break position off the segment grid, a live window shorter
    ///   than three target durations, or a stitched live pod that would not end before the next
    ///   break; or when the library's ads are not the configuration's.
    public init(configuration: OriginConfiguration, library: MediaLibrary, liveStartDate: PlaylistDate) throws(OriginConfigurationError) {
        self.configuration = configuration
        self.library = library
        self.decisions = AdDecisionEngine(configuration: configuration, library: library)
        self.liveStartDate = liveStartDate
        for ad in configuration.ads {
            guard let loaded = library.ads[ad.id] else {
                throw OriginConfigurationError(path: ad.media, message: "the media library has no ad \"\(ad.id)\"; load it from this configuration")
            }
            if let length = ad.duration, loaded.duration != length {
                throw OriginConfigurationError(
                    path: ad.media,
                    message: "the media library's ad \"\(ad.id)\" lasts \(loaded.duration.decimalString()) s, not the configured "
                        + "\(length.decimalString()) s; load it from this configuration"
                )
            }
        }
        var grids: [String: StreamGrid] = [:]
        for (index, stream) in configuration.streams.enumerated() {
            grids[stream.id] = try Self.checkedGrid(stream, path: "$.streams[\(index)]", configuration: configuration, library: library)
        }
        self.grids = grids
    }

    private static func checkedGrid(_ stream: OriginConfiguration.Stream, path: String, configuration: OriginConfiguration,
                                    library: MediaLibrary) throws(OriginConfigurationError) -> StreamGrid {
        let chunk = library.chunkDuration
        let segmentDuration = stream.segmentDuration ?? chunk
        guard let chunks = segmentDuration.exactQuotient(dividingBy: chunk), chunks >= 1, chunks <= 16 else {
            throw OriginConfigurationError(
                path: path + ".segmentDurationSeconds",
                message: "\(segmentDuration.decimalString()) s is not 1 to 16 content segments of \(chunk.decimalString()) s"
            )
        }
        let grid = StreamGrid(chunkDuration: chunk, chunksPerSegment: Int(chunks))
        func onGrid(_ time: MediaTime, _ key: String, allowZero: Bool = true, end: MediaTime? = nil) throws(OriginConfigurationError) {
            guard time.exactQuotient(dividingBy: grid.segmentDuration) != nil || time == end, allowZero || time > .zero else {
                let below = grid.segmentDuration * time.floorQuotient(dividingBy: grid.segmentDuration)
                let above = end.map { MediaTime.min($0, below + grid.segmentDuration) } ?? below + grid.segmentDuration
                let endNote = end == nil ? "" : " or the stream's end"
                throw OriginConfigurationError(
                    path: path + key,
                    message: "\(time.decimalString()) s is not a multiple of the \(grid.segmentDuration.decimalString())-second segment "
                        + "duration\(endNote) (try \(below.decimalString()) or \(above.decimalString()))"
                )
            }
        }
        switch stream.timing {
        case .vod(let vod):
            guard vod.duration > .zero, library.contentEnd(at: vod.duration) != nil else {
                let (below, above) = library.contentCutPoints(around: vod.duration)
                let suggestions = [below, above].filter { $0 > .zero }.map { $0.decimalString() }
                throw OriginConfigurationError(
                    path: path + ".durationSeconds",
                    message: "\(vod.duration.decimalString()) s does not end at a keyframe of the content (it has one every "
                        + "\((above - below).decimalString()) s there), where the stream's last segment would be cut "
                        + "(try \(suggestions.joined(separator: " or ")))"
                )
            }
            for (index, configured) in vod.breaks.enumerated() {
                try onGrid(configured.position, ".breaks[\(index)].positionSeconds", end: vod.duration)
            }
        case .live(let live):
            let target = targetDuration(of: stream, grid: grid, configuration: configuration, library: library)
            guard !(live.window < MediaTime(seconds: Int64(3 * target))) else {
                throw OriginConfigurationError(
                    path: path + ".windowSeconds",
                    message: "\(live.window.decimalString()) s is less than three target durations (3 × \(target) s); a live playlist "
                        + "must hold at least that much (RFC 8216bis §6.2.2)"
                )
            }
            guard let repeating = live.repeatingBreak else { break }
            try onGrid(repeating.first, ".repeatingBreak.firstAtSeconds")
            try onGrid(repeating.interval, ".repeatingBreak.everySeconds", allowZero: false)
            guard stream.mode == .stitched else { break }
            let engine = AdDecisionEngine(configuration: configuration, library: library)
            for viewer in configuration.viewers {
                let decision = engine.decision(stream: stream, viewer: viewer, breakID: repeating.id(ofBreak: 0), targeting: repeating.targeting)
                let replaced = grid.segmentDuration * decision.duration.ceilingQuotient(dividingBy: grid.segmentDuration)
                guard decision.isEmpty || replaced < repeating.interval else {
                    throw OriginConfigurationError(
                        path: path + ".repeatingBreak.everySeconds",
                        message: "viewer \"\(viewer.id)\" gets \(decision.duration.decimalString()) s of ads, which replace "
                            + "\(replaced.decimalString()) s of content; breaks \(repeating.interval.decimalString()) s apart leave no "
                            + "content between them (raise everySeconds above \(replaced.decimalString()))"
                    )
                }
            }
        }
        return grid
    }

    /// EXT-X-TARGETDURATION of every playlist of `stream`: the longest segment it can hold, in
    /// whole seconds (the same for every viewer and every reload, as §6.2.1 requires of live
    /// playlists).
    static func targetDuration(of stream: OriginConfiguration.Stream, grid: StreamGrid, configuration: OriginConfiguration,
                               library: MediaLibrary) -> Int {
        var longest = grid.segmentDuration
        if stream.mode == .stitched {
            var adIDs = Set(configuration.viewers.flatMap(\.pod))
            switch stream.timing {
            case .vod(let vod): for configured in vod.breaks { adIDs.formUnion(configured.targeting.pod ?? []) }
            case .live(let live): adIDs.formUnion(live.repeatingBreak?.targeting.pod ?? [])
            }
            for id in adIDs {
                for chunk in library.ads[id]?.chunks ?? [] where longest < chunk.duration { longest = chunk.duration }
            }
        }
        return longest.ceilingSeconds
    }

    /// The stream `id` if it is of `kind`.
    ///
    /// - Throws: ``OriginError`` `unknownStream` (404), saying where the stream is when the kind
    ///   is wrong.
    func stream(_ id: String, kind: OriginConfiguration.Kind) throws(OriginError) -> OriginConfiguration.Stream {
        let stream = try decisions.stream(id)
        guard stream.kind == kind else {
            throw OriginError(.unknownStream, "stream \"\(id)\" is \(stream.kind.rawValue), not \(kind.rawValue): its URLs start with /\(stream.kind.rawValue)/")
        }
        return stream
    }

    /// The date a live stream started.
    func startDate(of live: OriginConfiguration.Live) -> PlaylistDate { live.startDate ?? liveStartDate }
}
