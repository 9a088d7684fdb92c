import MediaTime

/// Measures MPEG-2 transport stream segments (ISO/IEC 13818-1): finds the programme's elementary
/// streams through the PAT and PMT and reads the presentation time stamps of their PES packets.
///
/// The duration of a stream in a segment is the span of its time stamps plus one frame (the
/// smallest step between consecutive time stamps); the segment's duration is that of its video
/// stream when it has one, else of its first audio stream. Time stamps wrap at 2³³ and are
/// unwrapped. The video's keyframes are found too (where a segment can be cut).
public enum TransportStreamProbe {
    /// The 90 kHz clock of PES time stamps.
    public static let timescale: Int32 = 90_000

    /// What one elementary stream holds in a segment.
    public struct Stream: Sendable, Hashable {
        /// The packet identifier.
        public var pid: Int
        /// The PMT stream type (0x1B H.264, 0x24 HEVC, 0x0F AAC, 0x03/0x04 MPEG audio, …).
        public var streamType: Int
        /// Presentation time stamps in arrival order, unwrapped, in 90 kHz units.
        public var presentationTimes: [Int64]
        /// For ADTS AAC audio: the duration of the last PES packet's frames, which the time stamps
        /// alone do not tell (a PES packet often carries several frames).
        public var lastPacketDuration: MediaTime?
        /// For video: the presentation time stamps of the PES packets that start at a random
        /// access point (a keyframe), unwrapped, in 90 kHz units: those whose first transport
        /// packet sets the adaptation field's `random_access_indicator`, or whose first packet
        /// holds an H.264 IDR (NAL unit type 5) or HEVC IRAP (16–23) NAL unit.
        public var randomAccessPresentationTimes: [Int64] = []

        /// Whether the stream is video.
        public var isVideo: Bool { ProgramSpecificInformation.isVideo(streamType: streamType) }
        /// Whether the stream is audio.
        public var isAudio: Bool { [0x03, 0x04, 0x0F, 0x11, 0x81, 0x87].contains(streamType) }

        /// The earliest time stamp.
        public var firstPresentationTime: Int64? { presentationTimes.min() }

        /// The span of the time stamps plus the last packet's duration: for AAC the frames it holds,
        /// otherwise one frame interval (the smallest positive step between sorted time stamps);
        /// `nil` with fewer than two time stamps.
        public var duration: MediaTime? {
            let sorted = presentationTimes.sorted()
            if let last = lastPacketDuration, let first = sorted.first {
                return MediaTime(value: sorted[sorted.count - 1] - first, timescale: TransportStreamProbe.timescale) + last
            }
            guard presentationTimes.count >= 2 else { return nil }
            var step = Int64.max
            for index in 1..<sorted.count {
                let delta = sorted[index] - sorted[index - 1]
                if delta > 0, delta < step { step = delta }
            }
            guard step != .max else { return nil }
            return MediaTime(value: sorted[sorted.count - 1] - sorted[0] + step, timescale: TransportStreamProbe.timescale)
        }
    }

    /// Reads every elementary stream's time stamps; with `findingKeyframes`, also where the video's
    /// keyframes are (``Stream/randomAccessPresentationTimes``, which is empty otherwise: finding
    /// them looks into every video frame's first packet, which a player checking durations does
    /// not need).
    ///
    /// - Throws: ``MediaProbeError`` when the data is not a transport stream or has no PES time
    ///   stamps.
    /// - Complexity: O(n) in the size of the segment.
    public static func streams(in data: [UInt8], findingKeyframes: Bool = false) throws(MediaProbeError) -> [Stream] {
        let packetSize = 188
        guard data.count >= packetSize else { throw MediaProbeError(message: "too short for an MPEG-TS packet (\(data.count) bytes)") }
        guard let syncOffset = (0..<min(packetSize, data.count)).first(where: { isSynchronised(data, at: $0) }) else {
            throw MediaProbeError(message: "no MPEG-TS sync bytes (0x47 every 188 bytes); not a transport stream")
        }
        // What each of the 8,192 PIDs carries, looked up by index at every packet (a set and a
        // dictionary cost two hashes a packet, most of a probe): whether it is a program map, and
        // which elementary stream it is (its place in `order` plus one; 0 for none).
        var pmtPIDs: Set<Int> = []
        var isProgramMap = [Bool](repeating: false, count: 8192)
        var streamNumber = [Int](repeating: 0, count: 8192)
        var order: [Int] = []
        var types: [Int] = []
        var times: [[Int64]] = []
        var lastPacket: [[UInt8]?] = []
        var randomAccess: [[Int64]] = []
        var offset = syncOffset
        while offset + packetSize <= data.count {
            defer { offset += packetSize }
            guard data[offset] == 0x47 else { continue }
            let payloadStart = data[offset + 1] & 0x40 != 0
            let pid = Int(data[offset + 1] & 0x1F) << 8 | Int(data[offset + 2])
            let adaptation = (data[offset + 3] >> 4) & 0x3
            var payload = offset + 4
            if adaptation == 2 { continue }
            let isRandomAccess = adaptation == 3 && data[offset + 4] > 0 && data[offset + 5] & 0x40 != 0
            if adaptation == 3 { payload += 1 + Int(data[offset + 4]) }
            let end = offset + packetSize
            guard payload < end else { continue }
            if pid == 0, payloadStart {
                for old in pmtPIDs { isProgramMap[old] = false }
                pmtPIDs = ProgramSpecificInformation.programMapPIDs(data, payload: payload, end: end)
                for new in pmtPIDs { isProgramMap[new] = true }
            } else if isProgramMap[pid], payloadStart {
                for (streamPID, type) in ProgramSpecificInformation.elementaryStreams(data, payload: payload, end: end) where streamNumber[streamPID] == 0 {
                    order.append(streamPID)
                    types.append(type)
                    times.append([])
                    lastPacket.append(nil)
                    randomAccess.append([])
                    streamNumber[streamPID] = order.count
                }
            } else if streamNumber[pid] != 0 {
                let stream = streamNumber[pid] - 1
                if payloadStart, let pts = ProgramSpecificInformation.presentationTime(data, payload: payload, end: end) {
                    times[stream].append(pts)
                    if findingKeyframes, ProgramSpecificInformation.isVideo(streamType: types[stream]),
                        isRandomAccess || startsRandomAccess(data, payload: payload, end: end, streamType: types[stream]) {
                        randomAccess[stream].append(pts)
                    }
                }
                if types[stream] == 0x0F {
                    if payloadStart {
                        let headerLength = payload + 9 <= end ? Int(data[payload + 8]) : 0
                        lastPacket[stream] = Array(data[min(end, payload + 9 + headerLength)..<end])
                    } else {
                        if lastPacket[stream] == nil { lastPacket[stream] = [] }
                        lastPacket[stream]!.append(contentsOf: data[payload..<end])
                    }
                }
            }
        }
        guard !order.isEmpty else { throw MediaProbeError(message: "no PAT/PMT found: cannot tell the elementary streams apart") }
        let streams = order.indices.map { stream in
            // Unwrapped together, so that both lists are unwrapped against the same first time stamp.
            let unwrapped = unwrap(times[stream] + randomAccess[stream])
            return Stream(pid: order[stream], streamType: types[stream], presentationTimes: Array(unwrapped.prefix(times[stream].count)),
                          lastPacketDuration: lastPacket[stream].flatMap(adtsDuration),
                          randomAccessPresentationTimes: Array(unwrapped.dropFirst(times[stream].count)))
        }
        guard streams.contains(where: { !$0.presentationTimes.isEmpty }) else {
            throw MediaProbeError(message: "no PES packet carries a presentation time stamp")
        }
        return streams
    }

    /// The segment's measured duration: its video stream's, else its first audio stream's.
    public static func duration(of data: [UInt8]) throws(MediaProbeError) -> MediaTime {
        let found = try streams(in: data)
        let preferred = found.first { $0.isVideo && $0.duration != nil } ?? found.first { $0.isAudio && $0.duration != nil }
            ?? found.first { $0.duration != nil }
        guard let duration = preferred?.duration else {
            throw MediaProbeError(message: "fewer than two time stamps in every stream: the duration cannot be measured")
        }
        return duration
    }


    /// Whether the PES packet at `payload` holds, within this transport packet, an H.264 IDR
    /// (NAL unit type 5) or HEVC IRAP (types 16 to 23) NAL unit.
    private static func startsRandomAccess(_ data: [UInt8], payload: Int, end: Int, streamType: Int) -> Bool {
        guard streamType == 0x1B || streamType == 0x24, payload + 9 <= end else { return false }
        var index = payload + 9 + Int(data[payload + 8])
        while index + 3 < end {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                let header = data[index + 3]
                if streamType == 0x1B, header & 0x1F == 5 { return true }
                if streamType == 0x24, (16...23).contains(Int(header >> 1) & 0x3F) { return true }
                index += 3
            } else {
                index += 1
            }
        }
        return false
    }

    private static func isSynchronised(_ data: [UInt8], at offset: Int) -> Bool {
        var position = offset
        var seen = 0
        while position < data.count, seen < 3 {
            if data[position] != 0x47 { return false }
            position += 188
            seen += 1
        }
        return seen > 0
    }




    /// The duration of the ADTS AAC frames in a PES payload: 1024 samples each at the header's
    /// sampling frequency.
    private static func adtsDuration(_ bytes: [UInt8]) -> MediaTime? {
        let rates: [Int32] = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        var index = 0
        var frames: Int64 = 0
        var rate: Int32?
        while index + 7 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xF0 == 0xF0 {
            let rateIndex = Int((bytes[index + 2] >> 2) & 0x0F)
            guard rateIndex < rates.count else { return nil }
            rate = rates[rateIndex]
            let length = Int(bytes[index + 3] & 0x03) << 11 | Int(bytes[index + 4]) << 3 | Int(bytes[index + 5] >> 5)
            guard length >= 7 else { break }
            let blocks = Int64(bytes[index + 6] & 0x03) + 1
            frames += blocks
            index += length
        }
        guard let rate, frames > 0 else { return nil }
        return MediaTime(value: frames * 1024, timescale: rate)
    }

    /// Undoes 33-bit wraparound relative to the first time stamp.
    private static func unwrap(_ values: [Int64]) -> [Int64] {
        guard let first = values.first else { return [] }
        let modulus: Int64 = 1 << 33
        return values.map { value in
            var delta = value - first
            if delta < -modulus / 2 { delta += modulus } else if delta > modulus / 2 { delta -= modulus }
            return first + delta
        }
    }
}

/// A segment that cannot be measured.
public struct MediaProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}
