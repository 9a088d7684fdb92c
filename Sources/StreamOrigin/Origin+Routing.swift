import HLSInterstitials
import HLSPlaylist
import MediaTime

extension Origin {
    /// The response to `request` at date `now` (which only live streams use): a playlist, an asset
    /// list, a segment, the index, or a JSON error body with status 404 (unknown stream, viewer,
    /// break, ad, segment or route), 400 (malformed path or query), 405 (a method other than GET
    /// and HEAD) or 503 (a live stream before its first segment).
    ///
    /// Query items it reads: `_HLS_skip` (`YES` or `v2`) on live media playlists, and
    /// `_HLS_primary_id`, `_HLS_interstitial_id` (must name the break) and `_HLS_start_offset` (a
    /// number of seconds, checked but not used: every asset of the break is returned) on asset
    /// lists.
    ///
    /// - Complexity: O(n) in the size of the response.
    public func respond(to request: OriginRequest, at now: PlaylistDate) -> OriginResponse {
        do {
            return try response(to: request, at: now)
        } catch {
            var headers = [OriginResponse.Header("Content-Type", OriginResponse.jsonContentType), .init("Cache-Control", "no-store")]
            if error.kind == .methodNotAllowed { headers.append(.init("Allow", "GET, HEAD")) }
            return OriginResponse(status: error.status, headers: headers, body: error.jsonBody)
        }
    }

    private func response(to request: OriginRequest, at now: PlaylistDate) throws(OriginError) -> OriginResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            throw OriginError(.methodNotAllowed, "the origin serves GET and HEAD, not \(request.method)")
        }
        if let malformation = request.malformation { throw OriginError(.malformedRequest, malformation) }
        let query = request.queryItems
        switch try OriginRoute(path: request.path) {
        case .index:
            return Self.ok(OriginResponse.jsonContentType, cache: "no-cache", index(baseURL: request.baseURL))
        case .mediaPlaylist(let kind, let stream, let viewer):
            var deltaUpdate = false
            if let skip = query["_HLS_skip"] {
                guard skip == "YES" || skip == "v2" else {
                    throw OriginError(.malformedRequest, "_HLS_skip must be YES or v2, not \"\(skip)\"")
                }
                deltaUpdate = true
            }
            for name in ["_HLS_msn", "_HLS_part"] {
                if let value = query[name], Int(value).map({ $0 < 0 }) ?? true {
                    throw OriginError(.malformedRequest, "\(name) must be a non-negative integer, not \"\(value)\"")
                }
            }
            func render() throws(OriginError) -> [UInt8] {
                try mediaPlaylist(kind: kind, streamID: stream, viewerID: viewer, at: now, deltaUpdate: deltaUpdate).canonicalBytes()
            }
            // A VOD playlist depends on the stream and the viewer only; a live one on the clock too,
            // through how many segments are published, so it is kept until the next one is.
            let body = switch kind {
            case .vod: try rendered.bytes(for: "vod/\(stream)/\(viewer)", render: render)
            case .live:
                try rendered.bytes(for: "live/\(stream)/\(viewer)/\(deltaUpdate ? "delta" : "whole")",
                                   version: try livePublishedCount(streamID: stream, viewerID: viewer, at: now), render: render)
            }
            return Self.ok(OriginResponse.playlistContentType, cache: kind == .live ? "no-cache" : "max-age=60", body)
        case .multivariantPlaylist(let kind, let stream, let viewer):
            let body = try rendered.bytes(for: "multivariant/\(kind)/\(stream)/\(viewer)") { () throws(OriginError) -> [UInt8] in
                try multivariantPlaylist(kind: kind, streamID: stream, viewerID: viewer).canonicalBytes()
            }
            return Self.ok(OriginResponse.playlistContentType, cache: "max-age=60", body)
        case .assetList(let stream, let viewer, let breakID):
            if let interstitialID = query["_HLS_interstitial_id"], interstitialID != breakID {
                throw OriginError(.malformedRequest, "_HLS_interstitial_id \"\(interstitialID)\" does not name the break \"\(breakID)\" of the path")
            }
            if let offset = query["_HLS_start_offset"], MediaTime(decimal: offset).map({ $0.isNegative }) ?? true {
                throw OriginError(.malformedRequest, "_HLS_start_offset must be a non-negative number of seconds, not \"\(offset)\"")
            }
            let list = try assetList(streamID: stream, viewerID: viewer, breakID: breakID, primaryID: query["_HLS_primary_id"],
                                     baseURL: request.baseURL, at: now)
            return Self.ok(OriginResponse.jsonContentType, cache: "no-store", list.jsonBytes())
        case .adPlaylist(let ad):
            return Self.ok(OriginResponse.playlistContentType, cache: "max-age=3600", try adPlaylist(adID: ad).canonicalBytes())
        case .adSegment(let ad, let chunk):
            return Self.ok(OriginResponse.transportStreamContentType, cache: "max-age=86400", try adSegment(adID: ad, chunk: chunk))
        case .contentSegment(let first, let last, let keyframe):
            return Self.ok(OriginResponse.transportStreamContentType, cache: "max-age=86400",
                           try contentSegment(first: first, last: last, cutBeforeKeyframe: keyframe))
        }
    }

    private static func ok(_ contentType: String, cache: String, _ body: [UInt8]) -> OriginResponse {
        OriginResponse(status: 200, headers: [.init("Content-Type", contentType), .init("Cache-Control", cache)], body: body)
    }

    /// The URLs of one viewer's playlists for one stream.
    public struct PlaylistURLs: Sendable, Hashable {
        /// The stream.
        public var streamID: String
        /// VOD or live.
        public var kind: OriginConfiguration.Kind
        /// Interstitials or stitched.
        public var mode: OriginConfiguration.Mode
        /// The viewer.
        public var viewerID: String
        /// The media playlist.
        public var media: String
        /// The multivariant playlist.
        public var multivariant: String
    }

    /// Every stream's playlist URLs for every viewer, on `baseURL`, in configuration order.
    public func playlistURLs(baseURL: String) -> [PlaylistURLs] {
        configuration.streams.flatMap { stream in
            configuration.viewers.map { viewer in
                let directory = "\(baseURL)/\(stream.kind.rawValue)/\(stream.id)/\(viewer.id)/"
                return PlaylistURLs(streamID: stream.id, kind: stream.kind, mode: stream.mode, viewerID: viewer.id,
                                    media: directory + "main.m3u8", multivariant: directory + "multivariant.m3u8")
            }
        }
    }

    /// The index document: every stream with its kind, mode and each viewer's playlist URLs, and
    /// every viewer with what they get.
    private func index(baseURL: String) -> [UInt8] {
        let urls = playlistURLs(baseURL: baseURL)
        let streams: [JSONValue] = configuration.streams.map { stream in
            var viewers: [String: JSONValue] = [:]
            for entry in urls where entry.streamID == stream.id {
                viewers[entry.viewerID] = .object(["media": .string(entry.media), "multivariant": .string(entry.multivariant)])
            }
            return .object([
                "id": .string(stream.id), "kind": .string(stream.kind.rawValue), "mode": .string(stream.mode.rawValue),
                "viewers": .object(viewers),
            ])
        }
        let viewers: [JSONValue] = configuration.viewers.map { viewer in
            var fields: [String: JSONValue] = [
                "id": .string(viewer.id), "premium": .bool(viewer.isPremium), "pod": .array(viewer.pod.map(JSONValue.string)),
            ]
            if let region = viewer.region { fields["region"] = .string(region) }
            return .object(fields)
        }
        return JSONValue.object(["streams": .array(streams), "viewers": .array(viewers)]).encodedBytes()
    }
}
