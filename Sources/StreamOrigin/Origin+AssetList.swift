import HLSInterstitials
import HLSPlaylist
import MediaTime

extension Origin {
    /// The asset list of break `breakID` of stream `streamID` for viewer `viewerID` (Appendix
    /// D.2): one asset per ad of the viewer's decision, each the ad's media playlist with its
    /// exact measured DURATION; empty when the viewer gets nothing there (premium, or outside the
    /// break's regions), which a client answers by resuming at once (D.5).
    ///
    /// Asset URIs are absolute (D.2), on `baseURL` (`http://host:port`), and carry
    /// `_HLS_primary_id` when the request did (D.4), so the client's later requests for the ad are
    /// tied to its primary session.
    ///
    /// Stitched streams have no X-ASSET-LIST, but their decisions are served too: a coordinator can
    /// read every participant's ad schedule from here (S1.11).
    ///
    /// - Throws: ``OriginError`` for an unknown stream, viewer or break (404); a live break is
    ///   known from k = 0 up to the first one more than one interval after `now`.
    public func assetList(streamID: String, viewerID: String, breakID: String, primaryID: String?, baseURL: String,
                          at now: PlaylistDate) throws(OriginError) -> AssetList {
        let stream = try decisions.stream(streamID)
        let decision = try decisions.decision(streamID: streamID, viewerID: viewerID, breakID: breakID)
        if case .live(let live) = stream.timing, let repeating = live.repeatingBreak, let index = repeating.index(ofBreak: breakID) {
            let announced = now.timeIntervalSince(startDate(of: live)) + repeating.interval
            guard !(announced < repeating.position(ofBreak: index)) else {
                throw OriginError(
                    .unknownBreak, "break \"\(breakID)\" of live stream \"\(streamID)\" is at \(startDate(of: live).adding(repeating.position(ofBreak: index))), "
                        + "not announced yet"
                )
            }
        }
        let assets = decision.placements.map { placement in
            AssetList.Asset(uri: InterstitialRequest.url(baseURL + "/ads/media/\(placement.adID)/index.m3u8", primaryID: primaryID),
                            duration: placement.duration)
        }
        return AssetList(assets: assets)
    }

    /// The bytes of content chunks `first` through `last` of the endless loop, back to back, with
    /// their time stamps continuing from loop to loop; with `cutBeforeKeyframe`, the last chunk
    /// cut before that keyframe (a VOD's shorter last segment).
    ///
    /// - Throws: ``OriginError`` `unknownSegment` (404) when the last chunk has no such keyframe.
    /// - Complexity: O(n) in the size of the chunks.
    public func contentSegment(first: Int, last: Int, cutBeforeKeyframe keyframe: Int? = nil) throws(OriginError) -> [UInt8] {
        precondition(first >= 0 && first <= last, "content chunk range \(first)...\(last) is empty or negative")
        var lastBytes = library.loopedContentBytes(chunk: last)
        if let keyframe {
            guard let cut = library.loopedContentBytes(chunk: last, cutBeforeKeyframe: keyframe) else {
                let count = library.content[last % library.content.count].keyframeOffsets.count
                throw OriginError(.unknownSegment, "content chunk \(last) can be cut before its keyframes 1 to \(count - 1), not \(keyframe)")
            }
            lastBytes = cut
        }
        if first == last { return lastBytes }
        var bytes: [UInt8] = []
        for chunk in first..<last { bytes.append(contentsOf: library.loopedContentBytes(chunk: chunk)) }
        bytes.append(contentsOf: lastBytes)
        return bytes
    }

    /// The bytes of segment `chunk` of ad `adID`.
    ///
    /// - Throws: ``OriginError`` `unknownAd` or `unknownSegment` (404).
    public func adSegment(adID: String, chunk: Int) throws(OriginError) -> [UInt8] {
        guard let ad = library.ads[adID] else {
            throw OriginError(.unknownAd, "no ad \"\(adID)\"; known ads: \(library.ads.keys.sorted().joined(separator: ", "))")
        }
        guard ad.chunks.indices.contains(chunk) else {
            throw OriginError(.unknownSegment, "ad \"\(adID)\" has segments 0 to \(ad.chunks.count - 1), not \(chunk)")
        }
        return ad.chunks[chunk].bytes
    }
}
