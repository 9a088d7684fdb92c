import MediaTime

/// Decides which ads a viewer gets at a break (S1.2): nothing for a premium viewer or a viewer
/// outside the break's regions; else the break's own pod (content everyone in its audience sees,
/// such as a legal warning); else the viewer's pod. Durations are the measured ones.
///
/// The same decision drives both modes: the asset list of an interstitial and the ad segments a
/// stitched playlist inserts.
public struct AdDecisionEngine: Sendable {
    /// The configuration the decisions come from.
    public let configuration: OriginConfiguration
    /// The measured ads.
    public let library: MediaLibrary

    /// An engine.
    public init(configuration: OriginConfiguration, library: MediaLibrary) {
        self.configuration = configuration
        self.library = library
    }

    /// The viewer `id`.
    ///
    /// - Throws: ``OriginError`` `unknownViewer` (404).
    public func viewer(_ id: String) throws(OriginError) -> OriginConfiguration.Viewer {
        guard let viewer = configuration.viewer(id: id) else {
            throw OriginError(.unknownViewer, "no viewer \"\(id)\"; known viewers: \(configuration.viewers.map(\.id).joined(separator: ", "))")
        }
        return viewer
    }

    /// The stream `id`.
    ///
    /// - Throws: ``OriginError`` `unknownStream` (404).
    public func stream(_ id: String) throws(OriginError) -> OriginConfiguration.Stream {
        guard let stream = configuration.stream(id: id) else {
            throw OriginError(.unknownStream, "no stream \"\(id)\"; known streams: \(configuration.streams.map(\.id).joined(separator: ", "))")
        }
        return stream
    }

    /// The identifiers of the ads `viewer` gets at a break targeted by `targeting`, in order.
    public func pod(for viewer: OriginConfiguration.Viewer, targeting: OriginConfiguration.Targeting) -> [String] {
        if viewer.isPremium { return [] }
        if let regions = targeting.regions {
            guard let region = viewer.region, regions.contains(region) else { return [] }
        }
        return targeting.pod ?? viewer.pod
    }

    /// The decision for `viewer` at break `breakID` of `stream`, targeted by `targeting`.
    public func decision(stream: OriginConfiguration.Stream, viewer: OriginConfiguration.Viewer, breakID: String,
                         targeting: OriginConfiguration.Targeting) -> AdDecision {
        var placements: [AdDecision.Placement] = []
        var offset = MediaTime.zero
        for adID in pod(for: viewer, targeting: targeting) {
            // The configuration reader checked that every pod names a known ad, and the library
            // was loaded from that configuration.
            guard let ad = library.ads[adID] else { continue }
            placements.append(AdDecision.Placement(adID: adID, offset: offset, duration: ad.duration))
            offset += ad.duration
        }
        return AdDecision(streamID: stream.id, viewerID: viewer.id, breakID: breakID, placements: placements)
    }

    /// The decision for viewer `viewerID` at break `breakID` of stream `streamID`. A live
    /// stream's breaks are `<prefix>-<k>` for every k ≥ 0 (whether break k has been announced yet
    /// is for the caller, who knows the time, to check).
    ///
    /// - Throws: ``OriginError`` `unknownStream`, `unknownViewer` or `unknownBreak` (404).
    public func decision(streamID: String, viewerID: String, breakID: String) throws(OriginError) -> AdDecision {
        let stream = try stream(streamID)
        let viewer = try viewer(viewerID)
        return decision(stream: stream, viewer: viewer, breakID: breakID, targeting: try targeting(ofBreak: breakID, in: stream))
    }

    /// The targeting of break `breakID` of `stream`.
    ///
    /// - Throws: ``OriginError`` `unknownBreak` (404).
    public func targeting(ofBreak breakID: String, in stream: OriginConfiguration.Stream) throws(OriginError) -> OriginConfiguration.Targeting {
        switch stream.timing {
        case .vod(let vod):
            guard let found = vod.breaks.first(where: { $0.id == breakID }) else {
                throw OriginError(
                    .unknownBreak,
                    "stream \"\(stream.id)\" has no break \"\(breakID)\"; its breaks: \(vod.breaks.map(\.id).joined(separator: ", "))"
                )
            }
            return found.targeting
        case .live(let live):
            guard let repeating = live.repeatingBreak, repeating.index(ofBreak: breakID) != nil else {
                let hint = live.repeatingBreak.map { "its breaks are \($0.idPrefix)-0, \($0.idPrefix)-1, …" } ?? "it has no breaks"
                throw OriginError(.unknownBreak, "live stream \"\(stream.id)\" has no break \"\(breakID)\"; \(hint)")
            }
            return repeating.targeting
        }
    }
}
