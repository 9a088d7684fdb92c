/// The wire form of a frame carrying bytes: a flag byte, the acknowledgement as LEB128 varints
/// (cumulative, block count, then each block as its gap from the previous end and its length), and
/// for a segment its sequence number followed by the payload to the end of the frame. A pure
/// acknowledgement with no blocks takes 3 bytes.
extension ReliableFrame where Payload == [UInt8] {
    /// The frame as bytes. Complexity: O(payload + blocks).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + 4 * acknowledgement.selective.count + (segment?.payload.count ?? 0))
        bytes.append(segment == nil ? 0 : 1)
        Varint.append(acknowledgement.cumulative, to: &bytes)
        Varint.append(UInt64(acknowledgement.selective.count), to: &bytes)
        var previousEnd = acknowledgement.cumulative
        for block in acknowledgement.selective {
            Varint.append(block.lowerBound &- previousEnd, to: &bytes)
            Varint.append(UInt64(block.count), to: &bytes)
            previousEnd = block.upperBound
        }
        if let segment {
            Varint.append(segment.sequenceNumber, to: &bytes)
            bytes.append(contentsOf: segment.payload)
        }
        return bytes
    }

    /// Decodes a frame made by ``encoded()``.
    ///
    /// - Throws: ``ReliableFrameDecodingError`` for a truncated or malformed frame.
    public init(decoding bytes: [UInt8]) throws(ReliableFrameDecodingError) {
        var reader = Varint.Reader(bytes: bytes)
        guard let flags = reader.byte() else { throw .truncated }
        guard flags <= 1 else { throw .unknownFlags(flags) }
        let cumulative = try reader.varint()
        let count = try reader.varint()
        guard count <= UInt64(bytes.count) else { throw .malformedAcknowledgement }
        var blocks: [Range<UInt64>] = []
        blocks.reserveCapacity(Int(count))
        var previousEnd = cumulative
        for _ in 0..<count {
            let (start, startOverflow) = previousEnd.addingReportingOverflow(try reader.varint())
            let (end, endOverflow) = start.addingReportingOverflow(try reader.varint())
            guard !startOverflow, !endOverflow, end > start, start > previousEnd else {
                throw .malformedAcknowledgement
            }
            blocks.append(start..<end)
            previousEnd = end
        }
        var segment: Segment?
        if flags == 1 {
            let sequenceNumber = try reader.varint()
            segment = Segment(sequenceNumber: sequenceNumber, payload: Array(bytes[reader.position...]))
        } else if reader.position != bytes.count {
            throw .trailingBytes
        }
        self.init(segment: segment, acknowledgement: ReliableAcknowledgement(cumulative: cumulative, selective: blocks))
    }
}

/// Why bytes are not a ``ReliableFrame``.
public enum ReliableFrameDecodingError: Error, Sendable, Hashable {
    /// The bytes end inside a field.
    case truncated
    /// The flag byte has bits this version does not know.
    case unknownFlags(UInt8)
    /// A varint is longer than 64 bits.
    case varintOverflow
    /// Selective blocks overlap, touch, run backwards or overflow.
    case malformedAcknowledgement
    /// A pure acknowledgement has bytes after it.
    case trailingBytes
}

/// Unsigned LEB128, as in Protocol Buffers and WebAssembly.
enum Varint {
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() throws(ReliableFrameDecodingError) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard let byte = byte() else { throw .truncated }
                guard shift < 64, shift < 63 || byte <= 1 else { throw .varintOverflow }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
    }
}
