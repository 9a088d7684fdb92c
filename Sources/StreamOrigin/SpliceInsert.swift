/// An SCTE-35 `splice_info_section()` carrying a `splice_insert()` command (ANSI/SCTE 35 §9.6,
/// §9.7.3), as a stitched break's EXT-X-DATERANGE carries it in SCTE35-OUT (RFC 8216bis
/// §4.4.5.1.1): the splice out of the network into the ads, with the break's duration.
struct SpliceInsert: Sendable, Hashable {
    /// `splice_event_id`.
    var eventID: UInt32
    /// `out_of_network_indicator`: 1 for the splice out (into the ads), 0 for the splice in.
    var isOutOfNetwork: Bool
    /// `splice_time().pts_time` in 90 kHz units (33 bits); `nil` for a splice at once.
    var presentationTime: Int64?
    /// `break_duration().duration` in 90 kHz units (33 bits), with `auto_return` set.
    var breakDuration: Int64?
    /// `unique_program_id`.
    var uniqueProgramID: UInt16 = 1

    /// The section's bytes, ending with its CRC-32.
    var sectionBytes: [UInt8] {
        var command: [UInt8] = []
        command.append(contentsOf: Self.bigEndian(UInt64(eventID), bytes: 4))
        command.append(0x7F)  // splice_event_cancel_indicator 0, reserved
        var flags: UInt8 = 0x40 | 0x08 | 0x07  // program_splice_flag, event_id_compliance_flag, reserved
        if isOutOfNetwork { flags |= 0x80 }
        if breakDuration != nil { flags |= 0x20 }
        if presentationTime == nil { flags |= 0x10 }  // splice_immediate_flag
        command.append(flags)
        if let presentationTime {
            let pts = UInt64(presentationTime) & 0x1_FFFF_FFFF
            command.append(0xFE | UInt8(pts >> 32))  // time_specified_flag, reserved, pts_time bit 32
            command.append(contentsOf: Self.bigEndian(pts & 0xFFFF_FFFF, bytes: 4))
        }
        if let breakDuration {
            let duration = UInt64(breakDuration) & 0x1_FFFF_FFFF
            command.append(0xFE | UInt8(duration >> 32))  // auto_return, reserved, duration bit 32
            command.append(contentsOf: Self.bigEndian(duration & 0xFFFF_FFFF, bytes: 4))
        }
        command.append(contentsOf: Self.bigEndian(UInt64(uniqueProgramID), bytes: 2))
        command.append(0)  // avail_num
        command.append(0)  // avails_expected

        // After section_length: 10 bytes from protocol_version to splice_command_length, the
        // command type, the command, the descriptor loop length and the CRC.
        let sectionLength = 10 + 1 + command.count + 2 + 4
        var section: [UInt8] = [0xFC, 0x30 | UInt8(sectionLength >> 8), UInt8(sectionLength & 0xFF)]
        section.append(0)  // protocol_version
        section.append(contentsOf: [0, 0, 0, 0, 0])  // encrypted_packet 0, encryption_algorithm 0, pts_adjustment 0
        section.append(0)  // cw_index
        section.append(0xFF)  // tier 0xFFF, then splice_command_length
        section.append(0xF0 | UInt8(command.count >> 8))
        section.append(UInt8(command.count & 0xFF))
        section.append(0x05)  // splice_insert
        section.append(contentsOf: command)
        section.append(contentsOf: [0, 0])  // descriptor_loop_length
        section.append(contentsOf: Self.bigEndian(UInt64(Self.crc32(section)), bytes: 4))
        return section
    }

    /// The section as an attribute's hexadecimal-sequence: `0xFC30…`.
    var hexadecimal: String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var text = "0x"
        for byte in sectionBytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }
    }

    /// CRC-32/MPEG-2: polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final XOR.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
