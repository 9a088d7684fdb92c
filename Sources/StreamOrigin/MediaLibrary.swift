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
        /// The file's bytes.
        public var bytes: [UInt8]

        /// A measured file.
        public init(name: String, duration: MediaTime, firstPresentationTime: Int64, bytes: [UInt8]) {
            self.name = name
            self.duration = duration
            self.firstPresentationTime = firstPresentationTime
            self.bytes = bytes
        }
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
}
