/// The compact, binary-safe form the Redis store keeps records and doorbells in: each field its
/// byte count, a colon and its bytes, or `~` for an absent one (`5:hello~2:p1`). Payloads may hold
/// any byte, NUL included.
struct RedisFields {
    private(set) var bytes: [UInt8] = []

    init() {}

    mutating func append(_ text: String?) {
        guard let text else {
            bytes.append(UInt8(ascii: "~"))
            return
        }
        append(bytes: Array(text.utf8))
    }

    mutating func append(bytes field: [UInt8]) {
        bytes += Array(String(field.count).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes += field
    }

    mutating func append(_ number: some BinaryInteger) { append(String(number)) }

    /// Reads fields back, in order.
    struct Reader {
        let bytes: [UInt8]
        private(set) var offset = 0
        /// What is being read, for the error.
        let what: String

        init(_ bytes: [UInt8], what: String) {
            self.bytes = bytes
            self.what = what
        }

        var isAtEnd: Bool { offset == bytes.count }

        mutating func optionalBytes() throws(RedisFieldsError) -> [UInt8]? {
            guard offset < bytes.count else { throw RedisFieldsError(what: what, offset: offset, problem: "ends before a field") }
            if bytes[offset] == UInt8(ascii: "~") {
                offset += 1
                return nil
            }
            var count = 0
            var digits = 0
            while offset < bytes.count, bytes[offset] != UInt8(ascii: ":") {
                let digit = Int(bytes[offset]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit), digits < 10 else {
                    throw RedisFieldsError(what: what, offset: offset, problem: "a field length is not a number")
                }
                count = count * 10 + digit
                digits += 1
                offset += 1
            }
            guard digits > 0, offset < bytes.count else { throw RedisFieldsError(what: what, offset: offset, problem: "a field length has no colon") }
            offset += 1
            guard count <= bytes.count - offset else {
                throw RedisFieldsError(what: what, offset: offset, problem: "a field of \(count) bytes runs past the end")
            }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func optionalText() throws(RedisFieldsError) -> String? {
            try optionalBytes().map { String(decoding: $0, as: UTF8.self) }
        }

        mutating func text() throws(RedisFieldsError) -> String {
            guard let text = try optionalText() else { throw RedisFieldsError(what: what, offset: offset, problem: "a required field is absent") }
            return text
        }

        mutating func integer<Number: FixedWidthInteger>(_: Number.Type = Number.self) throws(RedisFieldsError) -> Number {
            let text = try text()
            guard let value = Number(text) else { throw RedisFieldsError(what: what, offset: offset, problem: "\(text.prefix(40)) is not a number") }
            return value
        }
    }
}

/// A record in Redis that this build cannot read.
struct RedisFieldsError: Error, CustomStringConvertible {
    var what: String
    var offset: Int
    var problem: String

    var description: String { "\(what), at byte \(offset): \(problem)" }
}

extension StoredEvent {
    var redisFields: [UInt8] {
        var fields = RedisFields()
        fields.append(version)
        fields.append(sender)
        fields.append(kind)
        fields.append(retainKey)
        fields.append(commandID)
        fields.append(payload)
        fields.append(recordedAt)
        return fields.bytes
    }

    init(redisFields reader: inout RedisFields.Reader) throws(RedisFieldsError) {
        self.init(
            version: try reader.integer(), sender: try reader.text(), kind: try reader.text(), retainKey: try reader.optionalText(),
            commandID: try reader.optionalText(), payload: try reader.text(), recordedAt: try reader.integer())
    }
}

extension ParticipantRecord {
    var redisFields: [UInt8] {
        var fields = RedisFields()
        fields.append(id)
        fields.append(session)
        fields.append(name)
        fields.append(role)
        fields.append(secretHash)
        fields.append(joinedAt)
        fields.append(lastSeenAt)
        fields.append(state)
        fields.append(node)
        return fields.bytes
    }

    init(redisFields reader: inout RedisFields.Reader) throws(RedisFieldsError) {
        self.init(
            id: try reader.text(), session: try reader.text(), name: try reader.text(), role: try reader.text(), secretHash: try reader.text(),
            joinedAt: try reader.integer(), lastSeenAt: try reader.integer(), state: try reader.text(), node: try reader.optionalText())
    }
}
