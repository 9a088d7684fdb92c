import MediaProbe

/// Cuts an MPEG-2 transport stream segment (ISO/IEC 13818-1) short at one of its video keyframes,
/// so that a stream can end where a story needs it to, between the encoder's segment boundaries:
/// the shorter last segment of a VOD, an ad cut from longer media.
///
/// The cut keeps every packet before the one where the video PES packet of the keyframe starts:
/// the PAT and PMT that open the segment, every video frame before the keyframe, whole. Of the
/// other elementary streams (audio), a PES packet whose time stamp is at or past the keyframe is
/// dropped with all its packets, and so is every packet after the cut. A stream's packets are only
/// ever dropped from its end, so the continuity counters of what is kept still run without a gap,
/// and every PES packet that is kept is whole (muxers write a PES packet's transport packets in a
/// row).
///
/// The audio of the bundled media trails its video in the multiplex by about one PES packet
/// (0.36 s), so a cut segment's audio stops up to that much before its video: a player fills the
/// gap with silence at the end of the film or of the ad.
enum TransportStreamCutter {
    private static let packetSize = 188
    private static let wrap: Int64 = 1 << 33

    /// `data` cut before the video frame presented at `keyframeTime` (a 33-bit PTS, 90 kHz), or
    /// `nil` when no video PES packet of `data` has that time stamp or later (nothing to cut).
    ///
    /// - Complexity: O(n) in the size of the segment.
    static func cutting(_ data: [UInt8], beforeVideoAt keyframeTime: Int64) -> [UInt8]? {
        var kept: [UInt8] = []
        kept.reserveCapacity(data.count)
        var programMapPIDs: Set<Int> = []
        var videoPIDs: Set<Int> = []
        var otherPIDs: Set<Int> = []
        var droppedPIDs: Set<Int> = []
        var offset = 0
        while offset + packetSize <= data.count {
            defer { offset += packetSize }
            let packet = data[offset..<offset + packetSize]
            guard data[offset] == 0x47 else {
                kept.append(contentsOf: packet)
                continue
            }
            let payloadStart = data[offset + 1] & 0x40 != 0
            let pid = Int(data[offset + 1] & 0x1F) << 8 | Int(data[offset + 2])
            let adaptation = (data[offset + 3] >> 4) & 0x3
            let end = offset + packetSize
            var payload = offset + 4
            if adaptation >= 2 { payload += 1 + Int(data[offset + 4]) }
            if adaptation & 1 == 1, payloadStart, payload < end {
                if pid == 0 {
                    programMapPIDs = ProgramSpecificInformation.programMapPIDs(data, payload: payload, end: end)
                } else if programMapPIDs.contains(pid) {
                    for stream in ProgramSpecificInformation.elementaryStreams(data, payload: payload, end: end) {
                        if ProgramSpecificInformation.isVideo(streamType: stream.streamType) {
                            videoPIDs.insert(stream.pid)
                        } else {
                            otherPIDs.insert(stream.pid)
                        }
                    }
                } else if let time = ProgramSpecificInformation.presentationTime(data, payload: payload, end: end) {
                    let isAtOrPast = ((time - keyframeTime) % wrap + wrap) % wrap < wrap / 2
                    if videoPIDs.contains(pid), isAtOrPast { return kept }
                    if otherPIDs.contains(pid), isAtOrPast { droppedPIDs.insert(pid) }
                }
            }
            if droppedPIDs.contains(pid) { continue }
            kept.append(contentsOf: packet)
        }
        return nil
    }
}
