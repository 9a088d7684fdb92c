import MediaTime

/// The real media an origin serves, each file measured: the primary content (a run of MPEG-TS
/// segments of equal duration that the origin loops for as long as a stream needs) and the ads.
///
/// Durations come from the media (``MediaProbe``'s presentation time stamps), never from the
/// playlist the encoder wrote, so every EXTINF the origin serves is what the segment really holds
/// (S1.6): ffmpeg lists the first content segment as 4.021333 s because its audio starts 21 ms
/// before its video, but the segment holds exactly 4 s of video.
public struct MediaLibrary: Sendable {
    /// One measured MPEG-TS file.
    public struct Chunk: Sendable {
        /// The file name, for example `seg-000.ts`.
        public var name: String
        /// The measured duration (of the video stream, else the first audio stream).
        public var duration: MediaTime
        /// The first presentation time stamp of the measured stream, in 90 kHz units.
        public var firstPresentationTime: Int64
        /// Where each video keyframe starts, from the chunk's start (its first presentation time),
        /// in order: the places the chunk can be cut (``cut(beforeKeyframe:)``). The first is 0 in
        /// segments cut for HLS, which open on a keyframe; empty when the chunk has no video.
        public var keyframeOffsets: [MediaTime]
        /// The file's bytes.
        public var bytes: [UInt8]

        /// A measured file.
        public init(name: String, duration: MediaTime, firstPresentationTime: Int64, keyframeOffsets: [MediaTime] = [], bytes: [UInt8]) {
            self.name = name
            self.duration = duration
            self.firstPresentationTime = firstPresentationTime
            self.keyframeOffsets = keyframeOffsets
            self.bytes = bytes
        }

        /// The chunk cut short before its keyframe `keyframe` (1 or more): the frames before it,
        /// with the PAT and PMT, lasting exactly that keyframe's offset (see
        /// ``TransportStreamCutter``); `nil` when the chunk has no such keyframe or its bytes hold
        /// no video frame there.
        ///
        /// - Complexity: O(n) in the size of the chunk.
        public func cut(beforeKeyframe keyframe: Int) -> Chunk? {
            guard keyframe >= 1, keyframe < keyframeOffsets.count else { return nil }
            let offset = keyframeOffsets[keyframe]
            guard let ticks = offset.converted(toTimescale: TransportStreamRetimer.timescale, exactOnly: true)?.value,
                let bytes = TransportStreamCutter.cutting(bytes, beforeVideoAt: (firstPresentationTime + ticks) % (1 << 33))
            else { return nil }
            return Chunk(name: name, duration: offset, firstPresentationTime: firstPresentationTime,
                         keyframeOffsets: Array(keyframeOffsets[..<keyframe]), bytes: bytes)
        }

        /// The keyframe that starts `offset` from the chunk's start: its index, 0 for the chunk's
        /// start whatever it holds; `nil` when no keyframe starts there.
        func keyframe(at offset: MediaTime) -> Int? {
            offset.isZero ? 0 : keyframeOffsets.firstIndex(of: offset)
        }

        /// The nearest places before and after `offset` where the chunk can end: a keyframe, its
        /// start, or its end.
        func cutPoints(around offset: MediaTime) -> (below: MediaTime, above: MediaTime) {
            (keyframeOffsets.last { $0 < offset } ?? .zero, keyframeOffsets.first { offset < $0 && $0 < duration } ?? duration)
        }
    }

    /// Where a run of content from the start of the loop ends: before keyframe `keyframe` of
    /// chunk `chunk` (an index into the endless loop), or, with keyframe 0, on the boundary before
    /// that chunk.
    struct ContentEnd: Sendable, Hashable {
        /// The chunk the content ends in (or before, with keyframe 0).
        var chunk: Int
        /// The keyframe of that chunk it ends before.
        var keyframe: Int
    }

    /// An ad: one or more segments played in order.
    public struct Ad: Sendable {
        /// The ad's identifier in the configuration (appears in URLs).
        public var id: String
        /// The folder its segments came from, relative to the media directory.
        public var media: String
        /// Its segments, in order.
        public var chunks: [Chunk]

        /// An ad.
        public init(id: String, media: String, chunks: [Chunk]) {
            self.id = id
            self.media = media
            self.chunks = chunks
        }

        /// The sum of the measured segment durations.
        ///
        /// - Complexity: O(n) in the number of segments.
        public var duration: MediaTime {
            chunks.reduce(MediaTime.zero) { $0 + $1.duration }
        }

        /// The ad cut to `length`: its segments up to there, the one `length` falls in cut at the
        /// keyframe there (``Chunk/cut(beforeKeyframe:)``), so that its playlist and its asset
        /// list's DURATION say `length`.
        ///
        /// - Throws: ``OriginConfigurationError`` at `path` when the media is shorter than `length`
        ///   or `length` does not end on a keyframe, suggesting the nearest lengths that do.
        /// - Complexity: O(n) in the size of the ad.
        public func cut(to length: MediaTime, path: String) throws(OriginConfigurationError) -> Ad {
            var kept: [Chunk] = []
            var start = MediaTime.zero
            for chunk in chunks {
                let offset = length - start
                if !(chunk.duration < offset) {
                    if offset == chunk.duration { return Ad(id: id, media: media, chunks: kept + [chunk]) }
                    if let keyframe = chunk.keyframe(at: offset), let cut = chunk.cut(beforeKeyframe: keyframe) {
                        return Ad(id: id, media: media, chunks: kept + [cut])
                    }
                    let (below, above) = chunk.cutPoints(around: offset)
                    let interval = above - below
                    let suggestions = [start + below, start + above].filter { $0 > .zero }.map { $0.decimalString() }
                    throw OriginConfigurationError(
                        path: path,
                        message: "\(length.decimalString()) s does not end at a keyframe of \(media) (it has one every "
                            + "\(interval.decimalString()) s there), where the ad's last segment would be cut "
                            + "(try \(suggestions.joined(separator: " or ")))"
                    )
                }
                kept.append(chunk)
                start += chunk.duration
            }
            throw OriginConfigurationError(
                path: path,
                message: "\(length.decimalString()) s is longer than the \(duration.decimalString()) s of \(media); an ad is cut from its "
                    + "media, never lengthened (try \(duration.decimalString()) or less)"
            )
        }
    }

    /// The content segments, in order; every one has the same duration.
    public let content: [Chunk]
    /// The ads by identifier.
    public let ads: [String: Ad]

    /// A library of measured media.
    ///
    /// - Throws: ``OriginConfigurationError`` when there is no content or the content segments do
    ///   not all have the same duration (the origin cuts its streams on a grid of that duration).
    public init(content: [Chunk], ads: [Ad]) throws(OriginConfigurationError) {
        guard let first = content.first else {
            throw OriginConfigurationError(path: "content", message: "holds no MPEG-TS segments")
        }
        for chunk in content where chunk.duration != first.duration {
            throw OriginConfigurationError(
                path: "content/\(chunk.name)",
                message: "measures \(chunk.duration.decimalString()) s but \(first.name) measures "
                    + "\(first.duration.decimalString()) s; content segments must all have the same duration"
            )
        }
        for ad in ads where ad.chunks.isEmpty {
            throw OriginConfigurationError(path: ad.media, message: "holds no MPEG-TS segments for ad \"\(ad.id)\"")
        }
        self.content = content
        var byID: [String: Ad] = [:]
        for ad in ads { byID[ad.id] = ad }
        self.ads = byID
    }

    /// The duration of every content segment.
    public var chunkDuration: MediaTime { content[0].duration }

    /// Where content `length` long from the loop's start ends, or `nil` when it does not end on a
    /// keyframe or a chunk boundary (it could not be cut there).
    func contentEnd(at length: MediaTime) -> ContentEnd? {
        let chunk = Int(length.floorQuotient(dividingBy: chunkDuration))
        let offset = length - chunkDuration * Int64(chunk)
        return content[chunk % content.count].keyframe(at: offset).map { ContentEnd(chunk: chunk, keyframe: $0) }
    }

    /// The nearest lengths below and above `length` at which content from the loop's start can
    /// end (see ``contentEnd(at:)``).
    func contentCutPoints(around length: MediaTime) -> (below: MediaTime, above: MediaTime) {
        let chunk = Int(length.floorQuotient(dividingBy: chunkDuration))
        let start = chunkDuration * Int64(chunk)
        let (below, above) = content[chunk % content.count].cutPoints(around: length - start)
        return (start + below, start + above)
    }

    /// How long the content runs before it loops.
    public var loopDuration: MediaTime { chunkDuration * Int64(content.count) }

    /// How far the time stamps of one loop are from those of the previous one, in 90 kHz units:
    /// from the first segment's first time stamp to the end of the last segment.
    var loopTimestampPeriod: Int64 {
        let last = content[content.count - 1]
        let lastTicks = last.duration.converted(toTimescale: TransportStreamRetimer.timescale)?.value ?? 0
        return last.firstPresentationTime + lastTicks - content[0].firstPresentationTime
    }

    /// The bytes of content chunk `index` of an endless loop of the content (index 0 is the first
    /// segment of the first loop), with its time stamps moved so that loop after loop plays as one
    /// continuous stream, without a discontinuity.
    ///
    /// - Complexity: O(n) in the size of the segment.
    public func loopedContentBytes(chunk index: Int) -> [UInt8] {
        precondition(index >= 0, "content chunk index must not be negative")
        let loop = Int64(index / content.count)
        let chunk = content[index % content.count]
        guard loop > 0 else { return chunk.bytes }
        return TransportStreamRetimer.shifting(chunk.bytes, by: loop &* loopTimestampPeriod)
    }

    /// ``loopedContentBytes(chunk:)`` cut before the chunk's keyframe `keyframe` (see
    /// ``Chunk/cut(beforeKeyframe:)``); `nil` when the chunk has no such keyframe.
    ///
    /// - Complexity: O(n) in the size of the segment.
    public func loopedContentBytes(chunk index: Int, cutBeforeKeyframe keyframe: Int) -> [UInt8]? {
        precondition(index >= 0, "content chunk index must not be negative")
        let loop = Int64(index / content.count)
        guard let cut = content[index % content.count].cut(beforeKeyframe: keyframe) else { return nil }
        guard loop > 0 else { return cut.bytes }
        return TransportStreamRetimer.shifting(cut.bytes, by: loop &* loopTimestampPeriod)
    }
}
