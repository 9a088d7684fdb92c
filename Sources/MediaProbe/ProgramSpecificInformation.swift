/// Reads the two tables of an MPEG-2 transport stream's program-specific information (ISO/IEC
/// 13818-1 §2.4.4) that tell its packets apart: the program association table (PID 0), which names
/// each program's map, and the program map table, which names each elementary stream and its type.
///
/// Each function reads the section that starts in one transport packet's payload (from its
/// pointer field at `payload` to the packet's `end`); a section longer than one packet is read as
/// far as the packet goes.
package enum ProgramSpecificInformation {
    /// The PIDs of the program map tables a PAT section names (program 0, the network PID, is left out).
    package static func programMapPIDs(_ bytes: [UInt8], payload: Int, end: Int) -> Set<Int> {
        let section = payload + 1 + Int(bytes[payload])
        guard section + 3 <= end else { return [] }
        let length = Int(bytes[section + 1] & 0x0F) << 8 | Int(bytes[section + 2])
        let last = min(end, section + 3 + length - 4)  // less the CRC
        var pids: Set<Int> = []
        var index = section + 8
        while index + 4 <= last {
            let program = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            if program != 0 { pids.insert(Int(bytes[index + 2] & 0x1F) << 8 | Int(bytes[index + 3])) }
            index += 4
        }
        return pids
    }

    /// The elementary streams a PMT section names: each one's PID and stream type (0x1B H.264,
    /// 0x24 HEVC, 0x0F AAC, …).
    package static func elementaryStreams(_ bytes: [UInt8], payload: Int, end: Int) -> [(pid: Int, streamType: Int)] {
        let section = payload + 1 + Int(bytes[payload])
        guard section + 12 <= end else { return [] }
        let length = Int(bytes[section + 1] & 0x0F) << 8 | Int(bytes[section + 2])
        let last = min(end, section + 3 + length - 4)
        let programInfoLength = Int(bytes[section + 10] & 0x0F) << 8 | Int(bytes[section + 11])
        var index = section + 12 + programInfoLength
        var streams: [(pid: Int, streamType: Int)] = []
        while index + 5 <= last {
            streams.append((Int(bytes[index + 1] & 0x1F) << 8 | Int(bytes[index + 2]), Int(bytes[index])))
            index += 5 + (Int(bytes[index + 3] & 0x0F) << 8 | Int(bytes[index + 4]))
        }
        return streams
    }

    /// Whether a PMT stream type is video (MPEG-1/2, MPEG-4 part 2, H.264, HEVC, …).
    package static func isVideo(streamType: Int) -> Bool {
        [0x01, 0x02, 0x10, 0x1B, 0x24, 0x42, 0xEA].contains(streamType)
    }

    /// The PTS of the PES packet header at `payload`, if it has one (33 bits, 90 kHz).
    package static func presentationTime(_ bytes: [UInt8], payload: Int, end: Int) -> Int64? {
        guard payload + 14 <= end, bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
            bytes[payload + 7] & 0x80 != 0
        else { return nil }
        let p = payload + 9
        return Int64(bytes[p] >> 1 & 0x07) << 30 | Int64(bytes[p + 1]) << 22 | Int64(bytes[p + 2] >> 1) << 15
            | Int64(bytes[p + 3]) << 7 | Int64(bytes[p + 4] >> 1)
    }
}
