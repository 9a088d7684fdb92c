import HLSPlaylist
import MediaTime

extension Origin {
    /// The media playlist of `viewerID` for stream `streamID`, as it is at `now`.
    ///
    /// - VOD: the whole stream with EXT-X-ENDLIST; `now` is not used.
    /// - Live: the window ending at the last segment published by `now`, dated from the stream's
    ///   start, with media and discontinuity sequence numbers that advance as segments leave it.
    ///   With `deltaUpdate` (the client sent `_HLS_skip=YES`) and a stream that offers them, the
    ///   segments older than the skip boundary are replaced by EXT-X-SKIP (§6.2.5.1); their date
    ///   ranges stay.
    ///
    /// Interstitials mode: the content with one CLASS="com.apple.hls.interstitial" date range per
    /// break, whose X-ASSET-LIST asks for this viewer's decision. Stitched mode: the viewer's pods
    /// between discontinuities, with EXT-X-CUE-OUT / EXT-X-CUE-IN and an SCTE-35 date range.
    ///
    /// - Throws: ``OriginError`` for an unknown stream or viewer (404) or a live stream that has
    ///   not published a segment yet (503).
    /// - Complexity: O(n) in the number of segments of the playlist (live: of the window).
    public func mediaPlaylist(kind: OriginConfiguration.Kind, streamID: String, viewerID: String, at now: PlaylistDate,
                              deltaUpdate: Bool = false) throws(OriginError) -> MediaPlaylist {
        let stream = try stream(streamID, kind: kind)
        let viewer = try decisions.viewer(viewerID)
        let grid = grids[stream.id]!
        let target = Self.targetDuration(of: stream, grid: grid, configuration: configuration, library: library)
        switch stream.timing {
        case .vod(let vod):
            return vodPlaylist(stream: stream, vod: vod, viewer: viewer, grid: grid, target: target)
        case .live(let live):
            return try livePlaylist(stream: stream, live: live, viewer: viewer, grid: grid, target: target, now: now,
                                    deltaUpdate: deltaUpdate && live.hasDeltaUpdates)
        }
    }

    /// How many segments of live stream `streamID` are published for `viewerID` at `now`: the
    /// version of its media playlist, which is the same for every `now` until the next segment is
    /// published (``mediaPlaylist(kind:streamID:viewerID:at:deltaUpdate:)`` depends on `now` through
    /// this count alone).
    ///
    /// - Throws: ``OriginError`` for an unknown live stream or viewer (404).
    /// - Complexity: O(1).
    package func livePublishedCount(streamID: String, viewerID: String, at now: PlaylistDate) throws(OriginError) -> Int {
        let stream = try stream(streamID, kind: .live)
        let viewer = try decisions.viewer(viewerID)
        guard case .live(let live) = stream.timing else {
            throw OriginError(.unknownStream, "stream \"\(streamID)\" has no live timing")
        }
        let layout = LiveLayout(stream: stream, live: live, grid: grids[stream.id]!, viewer: viewer, decisions: decisions)
        return publishedCount(of: layout, live: live, at: now)
    }

    /// How many segments of `layout` are published at `now`: the only way a live media playlist
    /// depends on the clock (``livePublishedCount(streamID:viewerID:at:)`` and the rendering both
    /// count through here, so a kept rendering cannot disagree with a fresh one).
    private func publishedCount(of layout: LiveLayout, live: OriginConfiguration.Live, at now: PlaylistDate) -> Int {
        layout.availableCount(elapsed: now.timeIntervalSince(startDate(of: live)))
    }

    /// An ad's own VOD media playlist, the asset an asset list points at: its segments with their
    /// measured durations, relative URIs `0.ts`, `1.ts`, ….
    ///
    /// - Throws: ``OriginError`` `unknownAd` (404).
    public func adPlaylist(adID: String) throws(OriginError) -> MediaPlaylist {
        guard let ad = library.ads[adID] else {
            throw OriginError(.unknownAd, "no ad \"\(adID)\"; known ads: \(library.ads.keys.sorted().joined(separator: ", "))")
        }
        let target = ad.chunks.map(\.duration).max()?.ceilingSeconds ?? 1
        var playlist = MediaPlaylist(targetDurationSeconds: target, segments: ad.chunks.indices.map { index in
            MediaSegment(uri: "\(index).ts", duration: ad.chunks[index].duration)
        })
        playlist.version = 3
        playlist.isIndependentSegments = true
        playlist.playlistType = .vod
        playlist.hasEndList = true
        return playlist
    }

    /// A multivariant playlist for one viewer's stream: the one variant `main.m3u8`, with its peak
    /// and average bit rates measured from the media it can hold and the configured codecs,
    /// resolution and frame rate.
    ///
    /// - Throws: ``OriginError`` for an unknown stream or viewer (404).
    public func multivariantPlaylist(kind: OriginConfiguration.Kind, streamID: String, viewerID: String) throws(OriginError) -> MultivariantPlaylist {
        let stream = try stream(streamID, kind: kind)
        _ = try decisions.viewer(viewerID)
        let grid = grids[stream.id]!
        var chunks = library.content.map { ($0.bytes.count * grid.chunksPerSegment, $0.duration * Int64(grid.chunksPerSegment)) }
        if stream.mode == .stitched {
            for ad in library.ads.values { chunks += ad.chunks.map { ($0.bytes.count, $0.duration) } }
        }
        var peak: Int64 = 0
        var totalBits: Int64 = 0
        var totalTime = MediaTime.zero
        for (size, duration) in chunks {
            peak = max(peak, Self.bitsPerSecond(Int64(size) * 8, over: duration))
            totalBits += Int64(size) * 8
            totalTime += duration
        }
        var attributes = StreamAttributes(bandwidth: Int(peak))
        attributes.averageBandwidth = Int(Self.bitsPerSecond(totalBits, over: totalTime))
        attributes.codecs = configuration.content.codecs
        attributes.resolution = configuration.content.resolution.flatMap { Resolution(playlistText: $0) }
        var variant = VariantStream(uri: "main.m3u8", stream: attributes)
        variant.frameRate = configuration.content.frameRate.map { $0.fixedDecimalString(digits: 3) }
        var playlist = MultivariantPlaylist(variants: [variant])
        playlist.isIndependentSegments = true
        return playlist
    }

    /// ⌈bits ÷ duration⌉ in bits per second.
    private static func bitsPerSecond(_ bits: Int64, over duration: MediaTime) -> Int64 {
        MediaTime(value: bits, timescale: 1).ceilingQuotient(dividingBy: duration)
    }

    // MARK: VOD

    private func vodPlaylist(stream: OriginConfiguration.Stream, vod: OriginConfiguration.VOD, viewer: OriginConfiguration.Viewer,
                             grid: StreamGrid, target: Int) -> MediaPlaylist {
        let layout = VODLayout(stream: stream, vod: vod, grid: grid, viewer: viewer, decisions: decisions)
        let base = configuration.programDateTime
        var segments = layout.segments.enumerated().map { index, segment in
            // A date on the first segment and after each discontinuity dates every segment.
            mediaSegment(segment, date: index == 0 || segment.isDiscontinuity ? base.adding(segment.start) : nil, isLive: false)
        }
        var trailingDateRanges: [DateRange] = []
        switch stream.mode {
        case .interstitials:
            for placed in layout.breaks {
                let range = interstitialDateRange(stream: stream, viewer: viewer, breakID: placed.configured.id,
                                                  template: placed.configured.dateRange, start: base.adding(placed.start))
                if let index = layout.segments.firstIndex(where: { $0.start == placed.start }) {
                    segments[index].dateRanges.append(range)
                } else {
                    trailingDateRanges.append(range)
                }
            }
        case .stitched:
            for (index, segment) in layout.segments.enumerated() {
                if let pod = segment.podStart { segments[index].dateRanges.append(spliceDateRange(pod, start: base.adding(segment.start))) }
            }
        }
        var playlist = MediaPlaylist(targetDurationSeconds: target, segments: segments)
        playlist.version = 3
        playlist.isIndependentSegments = true
        playlist.playlistType = .vod
        playlist.hasEndList = true
        playlist.trailingDateRanges = trailingDateRanges
        if layout.endsInPod { playlist.trailingAdMarkers = [.cueIn] }
        return playlist
    }

    // MARK: Live

    private func livePlaylist(stream: OriginConfiguration.Stream, live: OriginConfiguration.Live, viewer: OriginConfiguration.Viewer,
                              grid: StreamGrid, target: Int, now: PlaylistDate, deltaUpdate: Bool) throws(OriginError) -> MediaPlaylist {
        let layout = LiveLayout(stream: stream, live: live, grid: grid, viewer: viewer, decisions: decisions)
        let start = startDate(of: live)
        let count = publishedCount(of: layout, live: live, at: now)
        guard count > 0 else {
            throw OriginError(
                .notYetAvailable,
                "live stream \"\(stream.id)\" starts at \(start); its first segment is published at \(start.adding(grid.segmentDuration))"
            )
        }
        let last = count - 1
        var first = last
        var held = layout.segment(at: last).duration
        while first > 0, held < live.window {
            first -= 1
            held += layout.segment(at: first).duration
        }
        let window = (first...last).map { layout.segment(at: $0) }
        var segments = window.map { mediaSegment($0, date: start.adding($0.start), isLive: true) }
        var trailingDateRanges: [DateRange] = []
        let windowStart = window[0].start
        let windowEnd = window[window.count - 1].end

        switch stream.mode {
        case .interstitials:
            if let repeating = live.repeatingBreak {
                let length = repeating.dateRange.duration ?? repeating.dateRange.plannedDuration ?? .zero
                var k = max(0, Int((windowStart - length - repeating.first).floorQuotient(dividingBy: repeating.interval)))
                while !(windowEnd < repeating.position(ofBreak: k)) {
                    let position = repeating.position(ofBreak: k)
                    // Announced with the last segment before it; kept while any of its dates maps to a segment.
                    if !(position + length < windowStart) {
                        let range = interstitialDateRange(stream: stream, viewer: viewer, breakID: repeating.id(ofBreak: k),
                                                          template: repeating.dateRange, start: start.adding(position))
                        if let index = window.firstIndex(where: { position < $0.end }) {
                            segments[index].dateRanges.append(range)
                        } else {
                            trailingDateRanges.append(range)
                        }
                    }
                    k += 1
                }
            }
        case .stitched:
            if !layout.podSegments.isEmpty {
                let cycleOfFirst = first < layout.prelude ? -1 : (first - layout.prelude) / layout.perCycle
                let cycleOfLast = last < layout.prelude ? -1 : (last - layout.prelude) / layout.perCycle
                for k in max(0, cycleOfFirst - 1)...max(0, cycleOfLast) {
                    let podFirst = layout.firstIndex(ofCycle: k)
                    guard podFirst <= last else { continue }
                    let podStart = layout.segment(at: podFirst)
                    guard let pod = podStart.podStart else { continue }
                    let mapped = window.contains { podStart.start < $0.end && !(podStart.start + pod.duration < $0.start) }
                    guard mapped else { continue }
                    segments[max(0, podFirst - first)].dateRanges.append(spliceDateRange(pod, start: start.adding(podStart.start)))
                }
            }
        }

        var playlist = MediaPlaylist(targetDurationSeconds: target, segments: segments)
        playlist.version = live.hasDeltaUpdates ? 9 : 3
        playlist.isIndependentSegments = true
        playlist.mediaSequence = first
        playlist.discontinuitySequence = layout.discontinuities(before: first)
        playlist.trailingDateRanges = trailingDateRanges
        let skipUntil = MediaTime(seconds: Int64(6 * target))
        if live.hasDeltaUpdates { playlist.serverControl = ServerControl(canSkipUntil: skipUntil) }
        if deltaUpdate {
            // Replace the segments that end at or before the skip boundary, CAN-SKIP-UNTIL from
            // the end; their date ranges are Media Playlist tags and stay (§4.4.5.2).
            let boundary = (windowEnd - windowStart) - skipUntil
            var skipped = 0
            var elapsed = MediaTime.zero
            while skipped < window.count - 1, !(boundary < elapsed + window[skipped].duration) {
                elapsed += window[skipped].duration
                skipped += 1
            }
            if skipped > 0 {
                let keptRanges = playlist.segments[..<skipped].flatMap(\.dateRanges)
                playlist.segments.removeFirst(skipped)
                playlist.segments[0].dateRanges.insert(contentsOf: keptRanges, at: 0)
                playlist.skip = SkipInformation(skippedSegments: skipped)
            }
        }
        return playlist
    }

    // MARK: Tags

    /// A media segment with its date and stitched-ad markers.
    private func mediaSegment(_ segment: OriginSegment, date: PlaylistDate?, isLive: Bool) -> MediaSegment {
        var result = MediaSegment(uri: segment.uri, duration: segment.duration)
        result.isDiscontinuity = segment.isDiscontinuity
        result.programDateTime = date
        var markers: [AdMarker] = []
        if segment.resumesContent { markers.append(.cueIn) }
        if let pod = segment.podStart { markers.append(.cueOut(duration: pod.duration, attributes: nil)) }
        if isLive, let progress = segment.podProgress {
            let text = "ElapsedTime=\(progress.elapsed.decimalString()),Duration=\(progress.duration.decimalString())"
            markers.append(.cueOutContinuation(elapsed: progress.elapsed, duration: progress.duration, text: text))
        }
        if !markers.isEmpty { result.adMarkers = markers }
        return result
    }

    /// An interstitial date range (Appendix D.2): the authored attributes, with the ID, the CLASS,
    /// the START-DATE and an X-ASSET-LIST that asks the origin for this viewer's decision (with
    /// `_HLS_interstitial_id`, D.4).
    private func interstitialDateRange(stream: OriginConfiguration.Stream, viewer: OriginConfiguration.Viewer, breakID: String,
                                       template: DateRange, start: PlaylistDate) -> DateRange {
        var range = template
        range.id = breakID
        range.className = DateRange.interstitialClass
        range.startDate = start
        range.assetList = "/ads/\(stream.id)/\(viewer.id)/\(breakID).json?_HLS_interstitial_id=\(breakID)"
        return range
    }

    /// The SCTE-35 date range of a stitched pod (§4.4.5.1.1): START-DATE at the splice out,
    /// DURATION of the pod, and SCTE35-OUT with a splice_insert whose splice time is the
    /// content's presentation time at the break.
    private func spliceDateRange(_ pod: OriginSegment.PodStart, start: PlaylistDate) -> DateRange {
        var range = DateRange(id: pod.breakID, startDate: start)
        range.duration = pod.duration
        let ticks = { (time: MediaTime) in time.converted(toTimescale: TransportStreamRetimer.timescale)?.value ?? 0 }
        let splice = SpliceInsert(
            eventID: UInt32(truncatingIfNeeded: pod.breakNumber + 1), isOutOfNetwork: true,
            presentationTime: (library.content[0].firstPresentationTime + ticks(pod.contentPosition)) % (1 << 33),
            breakDuration: ticks(pod.duration)
        )
        range.scte35Out = splice.hexadecimal
        return range
    }
}
