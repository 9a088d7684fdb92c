import GroupCoordination

/// The token payload: a flat JSON object (RFC 8259) with fixed field names, written and read by
/// hand so that its bytes do not depend on an encoder's choices:
///
///     {"sid":"…","role":"viewer","jti":"…","iat":1700000000,"nbf":1700000000,"exp":1700000600,"stream":"…"}
///
/// `stream` is left out when there is none. Reading is strict: every field but `stream` is
/// required, none may repeat, unknown fields are refused, integers are decimal without fraction
/// or exponent and must fit in 64 bits.
extension InvitationClaims {
    package var payload: [UInt8] {
        var writer = PayloadWriter()
        writer.field("sid", string: sessionID)
        writer.field("role", string: role.rawValue)
        writer.field("jti", string: tokenID)
        writer.field("iat", integer: issuedAt)
        writer.field("nbf", integer: notBefore)
        writer.field("exp", integer: expiresAt)
        if let stream { writer.field("stream", string: stream) }
        return writer.finish()
    }

    /// Reads a payload; throws `.malformed` for anything but a payload as described above.
    package init(payload: [UInt8]) throws(InvitationTokenError) {
        var reader = PayloadReader(bytes: payload)
        var strings: [String: String] = [:]
        var integers: [String: Int64] = [:]
        try reader.expect(UInt8(ascii: "{"))
        var isFirst = true
        while try !reader.consume(UInt8(ascii: "}")) {
            if !isFirst { try reader.expect(UInt8(ascii: ",")) }
            isFirst = false
            let name = try reader.string()
            try reader.expect(UInt8(ascii: ":"))
            guard strings[name] == nil, integers[name] == nil else { throw .malformed }
            switch name {
            case "sid", "role", "jti", "stream": strings[name] = try reader.string()
            case "iat", "nbf", "exp": integers[name] = try reader.integer()
            default: throw .malformed
            }
        }
        try reader.expectEnd()
        guard let sessionID = strings["sid"], !sessionID.isEmpty,
              let role = strings["role"].flatMap(GroupRole.init(rawValue:)),
              let tokenID = strings["jti"], !tokenID.isEmpty,
              let issuedAt = integers["iat"], let notBefore = integers["nbf"], let expiresAt = integers["exp"]
        else { throw .malformed }
        self.init(
            sessionID: sessionID, role: role, tokenID: tokenID,
            issuedAt: issuedAt, notBefore: notBefore, expiresAt: expiresAt, stream: strings["stream"]
        )
    }
}

private struct PayloadWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    mutating func field(_ name: String, string value: String) {
        key(name)
        quoted(value)
    }

    mutating func field(_ name: String, integer value: Int64) {
        key(name)
        bytes += Array(String(value).utf8)
    }

    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ name: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        quoted(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\u00XX`, the rest as UTF-8.
    private mutating func quoted(_ text: String) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes += [UInt8(ascii: "\\"), byte]
            case 0..<0x20:
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A cursor over payload bytes; every failure is `.malformed`, and nothing here traps.
private struct PayloadReader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// Consumes `byte` (after whitespace) when it is next.
    mutating func consume(_ byte: UInt8) throws(InvitationTokenError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw .malformed }
        guard bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func expect(_ byte: UInt8) throws(InvitationTokenError) {
        guard try consume(byte) else { throw .malformed }
    }

    mutating func expectEnd() throws(InvitationTokenError) {
        skipWhitespace()
        guard index == bytes.count else { throw .malformed }
    }

    /// A decimal integer: an optional `-`, then digits without a leading zero.
    mutating func integer() throws(InvitationTokenError) -> Int64 {
        skipWhitespace()
        let isNegative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        let start = index
        var value: Int64 = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = isNegative
                ? shifted.subtractingReportingOverflow(Int64(digit))
                : shifted.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { throw .malformed }
            value = next
            index += 1
        }
        let count = index - start
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { throw .malformed }
        return value
    }

    /// A JSON string with its escapes resolved; it must be valid UTF-8 with no lone surrogate.
    mutating func string() throws(InvitationTokenError) -> String {
        try expect(UInt8(ascii: "\""))
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else { throw .malformed }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: text, as: UTF8.self) else { throw .malformed }
                return string
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case 0..<0x20:
                throw .malformed
            default:
                text.append(byte)
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(InvitationTokenError) {
        guard index < bytes.count else { throw .malformed }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                try expect(UInt8(ascii: "\\"))
                guard index < bytes.count, bytes[index] == UInt8(ascii: "u") else { throw .malformed }
                index += 1
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw .malformed }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .malformed }
            text += Array(String(Character(unicode)).utf8)
        default:
            throw .malformed
        }
    }

    private mutating func hexQuad() throws(InvitationTokenError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .malformed }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Hex.value(of: byte) else { throw .malformed }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }
}
