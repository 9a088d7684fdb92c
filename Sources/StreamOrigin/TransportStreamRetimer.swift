import MediaProbe

/// Moves every time stamp of an MPEG-2 transport stream segment (ISO/IEC 13818-1) by a fixed
/// amount: the PTS and DTS of each PES packet header and the PCR of each adaptation field, modulo
/// 2³³ as the format wraps them.
///
/// The origin loops its content; without this, the time stamps would jump back at every loop and
/// the playlist would need an EXT-X-DISCONTINUITY there. Shifted by whole loops, the content plays
/// as one continuous stream: the video exactly; the audio, which the encoder ran 1.5 AAC frames
/// (32 ms) past the 60 s of video, overlaps the next loop by that much, which players absorb by
/// dropping the overlapping frames (hls.js does) rather than by a discontinuity.
///
/// Only packets on the elementary-stream PIDs that the PAT and PMT name are touched, so PSI
/// sections are never mistaken for PES headers.
enum TransportStreamRetimer {
    /// The 90 kHz clock of PES time stamps and of the PCR base.
    static let timescale: Int32 = 90_000
    private static let packetSize = 188
    private static let wrap: Int64 = 1 << 33

    /// `data` with every PTS, DTS and PCR base moved by `ticks` (90 kHz units).
    ///
    /// Bytes that are not a transport stream come back unchanged.
    ///
    /// - Complexity: O(n) in the size of the segment.
    static func shifting(_ data: [UInt8], by ticks: Int64) -> [UInt8] {
        let shift = ((ticks % wrap) + wrap) % wrap
        guard shift != 0, data.count >= packetSize else { return data }
        var bytes = data
        var programMapPIDs: Set<Int> = []
        var elementaryPIDs: Set<Int> = []
        var offset = 0
        while offset + packetSize <= bytes.count {
            defer { offset += packetSize }
            guard bytes[offset] == 0x47 else { continue }
            let payloadStart = bytes[offset + 1] & 0x40 != 0
            let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
            let adaptation = (bytes[offset + 3] >> 4) & 0x3
            let end = offset + packetSize
            var payload = offset + 4
            if adaptation >= 2 {
                let length = Int(bytes[offset + 4])
                if length >= 7, offset + 5 + length <= end, bytes[offset + 5] & 0x10 != 0 {
                    shiftProgramClockReference(&bytes, at: offset + 6, by: shift)
                }
                payload += 1 + length
            }
            guard adaptation & 1 == 1, payloadStart, payload < end else { continue }
            if pid == 0 {
                programMapPIDs = ProgramSpecificInformation.programMapPIDs(bytes, payload: payload, end: end)
            } else if programMapPIDs.contains(pid) {
                elementaryPIDs.formUnion(ProgramSpecificInformation.elementaryStreams(bytes, payload: payload, end: end).map(\.pid))
            } else if elementaryPIDs.contains(pid) {
                shiftPESTimestamps(&bytes, payload: payload, end: end, by: shift)
            }
        }
        return bytes
    }

    /// Moves the PTS and DTS of the PES header at `payload`.
    private static func shiftPESTimestamps(_ bytes: inout [UInt8], payload: Int, end: Int, by shift: Int64) {
        guard payload + 9 <= end, bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1 else { return }
        let flags = bytes[payload + 7] >> 6
        if flags & 0b10 != 0, payload + 14 <= end { shiftTimestamp(&bytes, at: payload + 9, by: shift) }
        if flags == 0b11, payload + 19 <= end { shiftTimestamp(&bytes, at: payload + 14, by: shift) }
    }

    /// Rewrites the 5-byte PTS or DTS field at `index`, keeping its 4-bit prefix and marker bits.
    private static func shiftTimestamp(_ bytes: inout [UInt8], at index: Int, by shift: Int64) {
        let old = Int64(bytes[index] >> 1 & 0x07) << 30 | Int64(bytes[index + 1]) << 22 | Int64(bytes[index + 2] >> 1) << 15
            | Int64(bytes[index + 3]) << 7 | Int64(bytes[index + 4] >> 1)
        let new = (old + shift) % wrap
        bytes[index] = (bytes[index] & 0xF0) | UInt8((new >> 29) & 0x0E) | 0x01
        bytes[index + 1] = UInt8((new >> 22) & 0xFF)
        bytes[index + 2] = UInt8((new >> 14) & 0xFE) | 0x01
        bytes[index + 3] = UInt8((new >> 7) & 0xFF)
        bytes[index + 4] = UInt8((new << 1) & 0xFE) | 0x01
    }

    /// Rewrites the 33-bit base of the PCR at `index`, keeping its reserved bits and extension.
    private static func shiftProgramClockReference(_ bytes: inout [UInt8], at index: Int, by shift: Int64) {
        let old = Int64(bytes[index]) << 25 | Int64(bytes[index + 1]) << 17 | Int64(bytes[index + 2]) << 9
            | Int64(bytes[index + 3]) << 1 | Int64(bytes[index + 4] >> 7)
        let new = (old + shift) % wrap
        bytes[index] = UInt8((new >> 25) & 0xFF)
        bytes[index + 1] = UInt8((new >> 17) & 0xFF)
        bytes[index + 2] = UInt8((new >> 9) & 0xFF)
        bytes[index + 3] = UInt8((new >> 1) & 0xFF)
        bytes[index + 4] = (bytes[index + 4] & 0x7F) | UInt8((new & 1) << 7)
    }
}
