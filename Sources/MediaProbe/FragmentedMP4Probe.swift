import MediaTime

/// Measures fragmented-MP4 (CMAF) segments (ISO/IEC 14496-12): each track fragment's duration is
/// the sum of its sample durations (`trun`, falling back to `tfhd` then `trex` defaults), in the
/// track's timescale from the initialization segment's `mdhd`; its start is `tfdt`.
public enum FragmentedMP4Probe {
    /// What the initialization segment says about each track.
    public struct Initialization: Sendable, Hashable {
        /// Track ID → media timescale.
        public var timescales: [UInt32: UInt32]
        /// Track ID → default sample duration (`trex`).
        public var defaultSampleDurations: [UInt32: UInt32]
        /// Track ID → handler type (`vide`, `soun`, …).
        public var handlers: [UInt32: String]
    }

    /// One track's measurement in a media segment.
    public struct Track: Sendable, Hashable {
        /// The track ID.
        public var trackID: UInt32
        /// `vide`, `soun`, … when the initialization segment says.
        public var handler: String?
        /// The base media decode time (`tfdt`) of the first fragment, in the track's timescale.
        public var baseMediaDecodeTime: UInt64?
        /// The sum of the sample durations, exactly.
        public var duration: MediaTime
        /// The number of samples.
        public var sampleCount: Int
    }

    /// Reads an initialization segment (`ftyp` + `moov`).
    public static func initialization(_ data: [UInt8]) throws(MediaProbeError) -> Initialization {
        var result = Initialization(timescales: [:], defaultSampleDurations: [:], handlers: [:])
        guard let moov = boxes(data, 0, data.count).first(where: { $0.type == "moov" }) else {
            throw MediaProbeError(message: "no moov box: not an fMP4 initialization segment")
        }
        for box in boxes(data, moov.body, moov.end) {
            if box.type == "trak" {
                var trackID: UInt32?
                var timescale: UInt32?
                var handler: String?
                for inner in boxes(data, box.body, box.end) {
                    if inner.type == "tkhd" {
                        let version = data[inner.body]
                        trackID = read32(data, inner.body + (version == 1 ? 20 : 12))
                    } else if inner.type == "mdia" {
                        for mdia in boxes(data, inner.body, inner.end) {
                            if mdia.type == "mdhd" {
                                let version = data[mdia.body]
                                timescale = read32(data, mdia.body + (version == 1 ? 20 : 12))
                            } else if mdia.type == "hdlr", mdia.body + 12 <= mdia.end {
                                handler = String(decoding: data[(mdia.body + 8)..<(mdia.body + 12)], as: UTF8.self)
                            }
                        }
                    }
                }
                if let trackID {
                    if let timescale { result.timescales[trackID] = timescale }
                    if let handler { result.handlers[trackID] = handler }
                }
            } else if box.type == "mvex" {
                for trex in boxes(data, box.body, box.end) where trex.type == "trex" && trex.body + 20 <= trex.end {
                    result.defaultSampleDurations[read32(data, trex.body + 4)] = read32(data, trex.body + 12)
                }
            }
        }
        guard !result.timescales.isEmpty else { throw MediaProbeError(message: "the moov box has no track with an mdhd timescale") }
        return result
    }

    /// Measures each track of a media segment (`moof` + `mdat` pairs).
    ///
    /// - Throws: ``MediaProbeError`` when there is no `moof`, or a track's timescale is unknown.
    public static func tracks(in data: [UInt8], initialization: Initialization) throws(MediaProbeError) -> [Track] {
        var tracks: [UInt32: Track] = [:]
        var order: [UInt32] = []
        let top = boxes(data, 0, data.count)
        guard top.contains(where: { $0.type == "moof" }) else { throw MediaProbeError(message: "no moof box: not an fMP4 media segment") }
        for moof in top where moof.type == "moof" {
            for traf in boxes(data, moof.body, moof.end) where traf.type == "traf" {
                var trackID: UInt32 = 0
                var defaultDuration: UInt32?
                var decodeTime: UInt64?
                var total: UInt64 = 0
                var samples = 0
                for box in boxes(data, traf.body, traf.end) {
                    switch box.type {
                    case "tfhd":
                        let flags = read24(data, box.body + 1)
                        trackID = read32(data, box.body + 4)
                        var cursor = box.body + 8
                        if flags & 0x01 != 0 { cursor += 8 }
                        if flags & 0x02 != 0 { cursor += 4 }
                        if flags & 0x08 != 0 { defaultDuration = read32(data, cursor) }
                    case "tfdt":
                        let version = data[box.body]
                        decodeTime = version == 1 ? read64(data, box.body + 4) : UInt64(read32(data, box.body + 4))
                    case "trun":
                        let flags = read24(data, box.body + 1)
                        let count = Int(read32(data, box.body + 4))
                        var cursor = box.body + 8
                        if flags & 0x01 != 0 { cursor += 4 }
                        if flags & 0x04 != 0 { cursor += 4 }
                        let fallback = defaultDuration ?? initialization.defaultSampleDurations[trackID] ?? 0
                        var fieldSize = 0
                        for bit: UInt32 in [0x100, 0x200, 0x400, 0x800] where flags & bit != 0 { fieldSize += 4 }
                        for _ in 0..<count {
                            guard cursor + fieldSize <= box.end else { break }
                            total += UInt64(flags & 0x100 != 0 ? read32(data, cursor) : fallback)
                            cursor += fieldSize
                            samples += 1
                        }
                    default:
                        break
                    }
                }
                guard let timescale = initialization.timescales[trackID] else {
                    throw MediaProbeError(message: "track \(trackID) is not in the initialization segment; its timescale is unknown")
                }
                let duration = MediaTime(value: Int64(total), timescale: Int32(clamping: timescale))
                if var track = tracks[trackID] {
                    track.duration += duration
                    track.sampleCount += samples
                    tracks[trackID] = track
                } else {
                    order.append(trackID)
                    tracks[trackID] = Track(trackID: trackID, handler: initialization.handlers[trackID], baseMediaDecodeTime: decodeTime,
                                            duration: duration, sampleCount: samples)
                }
            }
        }
        return order.compactMap { tracks[$0] }
    }

    /// The segment's duration: its video track's, else its first track's.
    public static func duration(of data: [UInt8], initialization: Initialization) throws(MediaProbeError) -> MediaTime {
        let found = try tracks(in: data, initialization: initialization)
        guard let track = found.first(where: { $0.handler == "vide" }) ?? found.first else {
            throw MediaProbeError(message: "the segment has no track fragments")
        }
        return track.duration
    }

    struct Box {
        var type: String
        var body: Int
        var end: Int
    }

    static func boxes(_ data: [UInt8], _ start: Int, _ end: Int) -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end {
            var size = Int(read32(data, offset))
            var header = 8
            if size == 1, offset + 16 <= end {
                size = Int(clamping: read64(data, offset + 8))
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= header, offset + size <= end else { break }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append(Box(type: type, body: offset + header, end: offset + size))
            offset += size
        }
        return result
    }

    static func read24(_ data: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 3 <= data.count else { return 0 }
        return UInt32(data[offset]) << 16 | UInt32(data[offset + 1]) << 8 | UInt32(data[offset + 2])
    }

    static func read32(_ data: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= data.count else { return 0 }
        return UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8 | UInt32(data[offset + 3])
    }

    static func read64(_ data: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(read32(data, offset)) << 32 | UInt64(read32(data, offset + 4))
    }
}

/// Checks that a segment's EXTINF matches the media (S1.6: interstitial time ranges and group
/// coordination are sums of EXTINF, so an EXTINF that lies moves every break).
public struct DurationCheck: Sendable, Hashable {
    /// The EXTINF duration.
    public var declared: MediaTime
    /// The measured duration.
    public var measured: MediaTime
    /// The allowed difference.
    public var tolerance: MediaTime

    /// A check of `declared` against `measured`.
    public init(declared: MediaTime, measured: MediaTime, tolerance: MediaTime = MediaTime(value: 1, timescale: 10)) {
        self.declared = declared
        self.measured = measured
        self.tolerance = tolerance
    }

    /// `measured − declared`.
    public var difference: MediaTime { measured - declared }

    /// Whether the difference is within the tolerance.
    public var isWithinTolerance: Bool { !(tolerance < difference.magnitude) }
}
