import MediaTime

/// Where one `NAME=value` pair of an attribute list lies in the input: byte offsets of the name
/// and of the value (without its quotes), and its syntactic kind.
struct AttributeSpan {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
    var kind: AttributeValue.Kind
}

extension AttributeValue {
    /// The syntactic kind of a value (RFC 8216bis §4.2).
    enum Kind {
        case quotedString, hexadecimal, decimal, enumerated
    }
}

extension ParserState {
    /// Splits `buffer[start..<end]` into attribute spans (§4.2): `NAME=value` pairs separated by
    /// commas, where a value is a quoted string (no escapes, may contain commas) or runs to the next
    /// comma. Returns `nil` after recording a diagnostic in lenient mode.
    mutating func attributeSpans(
        _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, tag: TagName
    ) throws(PlaylistParseError) -> [AttributeSpan]? {
        var spans: [AttributeSpan] = []
        var index = start
        if start == end {
            try problem(.malformedTag, column: start - lineStart + 1, "#\(tag.text) needs an attribute list")
            return nil
        }
        while index < end {
            let nameStart = index
            while index < end, buffer[index] != UInt8(ascii: "=") {
                let byte = buffer[index]
                let legal = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
                if !legal {
                    try problem(.malformedTag, column: index - lineStart + 1,
                                "#\(tag.text): attribute names use only A-Z, 0-9 and '-' and are followed by '=' (§4.2)")
                    return nil
                }
                index += 1
            }
            guard index < end, index > nameStart else {
                try problem(.malformedTag, column: nameStart - lineStart + 1,
                            "#\(tag.text): expected NAME=value at this position (§4.2)")
                return nil
            }
            let nameEnd = index
            index += 1  // '='
            let valueStart = index
            if index < end, buffer[index] == UInt8(ascii: "\"") {
                index += 1
                let textStart = index
                while index < end, buffer[index] != UInt8(ascii: "\"") { index += 1 }
                guard index < end else {
                    try problem(.malformedTag, column: valueStart - lineStart + 1,
                                "#\(tag.text): the quoted value of \(string(buffer, nameStart, nameEnd)) has no closing quote")
                    return nil
                }
                spans.append(AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, valueStart: textStart, valueEnd: index, kind: .quotedString))
                index += 1
                if index < end, buffer[index] != UInt8(ascii: ",") {
                    try problem(.malformedTag, column: index - lineStart + 1,
                                "#\(tag.text): expected ',' after the quoted value of \(string(buffer, nameStart, nameEnd))")
                    return nil
                }
            } else {
                while index < end, buffer[index] != UInt8(ascii: ",") { index += 1 }
                guard index > valueStart else {
                    try problem(.malformedTag, column: valueStart - lineStart + 1,
                                "#\(tag.text): \(string(buffer, nameStart, nameEnd)) has an empty value")
                    return nil
                }
                spans.append(AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: index,
                                           kind: Self.classify(buffer, valueStart, index)))
            }
            if index < end {
                index += 1  // ','
                if index == end {
                    try problem(.malformedTag, column: index - lineStart, "#\(tag.text): the attribute list ends with a comma")
                    return nil
                }
            }
        }
        return spans
    }

    /// The attribute list of a tag as values (§4.2).
    ///
    /// Quoted-string and hexadecimal values get `{$name}` references substituted when the playlist
    /// defines variables. Returns `nil` after recording a diagnostic in lenient mode.
    mutating func attributeList(
        _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, tag: TagName, substitute: Bool = true
    ) throws(PlaylistParseError) -> [Attribute]? {
        guard let spans = try attributeSpans(buffer, start, end, tag: tag) else { return nil }
        var attributes: [Attribute] = []
        attributes.reserveCapacity(spans.count)
        for span in spans {
            attributes.append(Attribute(name: string(buffer, span.nameStart, span.nameEnd), value: try value(of: span, buffer, substitute: substitute)))
        }
        return attributes
    }

    /// The value of a span as an ``AttributeValue``, with variables substituted.
    mutating func value(of span: AttributeSpan, _ buffer: UnsafeBufferPointer<UInt8>, substitute: Bool = true) throws(PlaylistParseError) -> AttributeValue {
        var text = string(buffer, span.valueStart, span.valueEnd)
        // A quoted value's column is its opening quote's.
        let column = span.valueStart - lineStart + (span.kind == .quotedString ? 0 : 1)
        switch span.kind {
        case .quotedString:
            if substitute, !variables.isEmpty || !definitions.isEmpty { text = try substituted(text, column: column) }
            return .quotedString(text)
        case .hexadecimal:
            if substitute, !variables.isEmpty { text = try substituted(text, column: column) }
            return .hexadecimal(text)
        case .decimal:
            return .decimal(text)
        case .enumerated:
            return .enumerated(text)
        }
    }

    /// An EXT-X-DATERANGE read straight from the bytes.
    ///
    /// A well-formed tag (``DateRange/isWellFormed(_:_:_:)``: the grammar of §4.2, every typed
    /// attribute of the right type, dates and numbers valid, an ID) is checked here, at parse time,
    /// and kept as its slice of the input, which decodes the values on first access. Any other tag is
    /// decoded at once, reporting its problem as strict and lenient parsing always have: attribute
    /// names are matched without making `String`s, dates and numbers are decoded in place, and only
    /// the values the model keeps as text become `String`s. Playlists with variables take the
    /// general path, which substitutes them.
    mutating func dateRange(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) -> DateRange? {
        if variables.isEmpty, definitions.isEmpty, let sharedBytes, DateRange.isWellFormed(buffer, start, end) {
            return DateRange(source: DateRangeSource(bytes: sharedBytes, start: start, end: end))
        }
        if !variables.isEmpty || !definitions.isEmpty {
            // Substitute first, then read the substituted attributes the same way (the tolerant
            // reading included): the model keeps values, and references resolve to values.
            let text = try substituted(string(buffer, start, end), column: 1)
            var bytes = Array(text.utf8)
            var result: Result<DateRange?, PlaylistParseError> = .success(nil)
            bytes.withUnsafeMutableBufferPointer { substituted in
                result = Result { () throws(PlaylistParseError) in
                    try dateRangeAttributes(UnsafeBufferPointer(substituted), 0, substituted.count)
                }
            }
            return try result.get()
        }
        return try dateRangeAttributes(buffer, start, end)
    }

    /// The DATERANGE in `buffer[start..<end]`, its variables already substituted.
    private mutating func dateRangeAttributes(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) -> DateRange? {
        let isLenient = options.mode == .lenient
        guard let spans = try attributeSpans(buffer, start, end, tag: .dateRange) ?? (isLenient ? tolerantSpans(buffer, start, end) : nil)
        else { return nil }
        var range = DateRange(id: "")
        var sawID = false
        for span in spans {
            guard let field = DateRange.Field.match(buffer.baseAddress! + span.nameStart, span.nameEnd - span.nameStart) else {
                range.appendOther(Attribute(name: string(buffer, span.nameStart, span.nameEnd), value: try value(of: span, buffer)))
                continue
            }
            do {
                try range.assign(field, RawAttributeValue(buffer: buffer, start: span.valueStart, end: span.valueEnd, kind: span.kind))
            } catch {
                try attributeProblem(error, tag: .dateRange, line: lineNumber)
                // Appendix D: an attribute whose value is not recognized counts as absent; a tolerant
                // reader keeps the event (ID and START-DATE excepted: without them there is none).
                guard isLenient, field != .id, field != .startDate else { return nil }
                if let repaired = Self.repairedValue(field, span, buffer) {
                    try? range.assign(field, repaired)
                }
                continue
            }
            if field == .id { sawID = true }
        }
        do { try range.finishDecoding(sawID: sawID) } catch {
            try attributeProblem(error, tag: .dateRange, line: lineNumber)
            return nil
        }
        return range
    }

    /// The attribute spans of a DATERANGE that the strict grammar (§4.2) rejects, read as players
    /// read them: spaces around attributes and repeated or trailing commas are skipped, a missing
    /// comma between attributes is supplied (an unquoted value ends at a space, since §4.2 values
    /// hold none), and a quoted value without its closing quote runs to the end of the line. A
    /// token without `=` is skipped. Used in lenient mode only, after the strict reading failed and
    /// recorded why.
    func tolerantSpans(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [AttributeSpan] {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var spans: [AttributeSpan] = []
        var index = start
        while index < end {
            while index < end, isSpace(buffer[index]) || buffer[index] == UInt8(ascii: ",") { index += 1 }
            guard index < end else { break }
            let nameStart = index
            while index < end, buffer[index] != UInt8(ascii: "="), buffer[index] != UInt8(ascii: ","), !isSpace(buffer[index]) { index += 1 }
            let nameEnd = index
            guard index < end, buffer[index] == UInt8(ascii: "="), nameEnd > nameStart else {
                // A token without a name or without `=`: skip it (and a stray `=`) to the next separator.
                while index < end, buffer[index] != UInt8(ascii: ","), !isSpace(buffer[index]) { index += 1 }
                continue
            }
            index += 1
            if index < end, buffer[index] == UInt8(ascii: "\"") {
                index += 1
                let textStart = index
                while index < end, buffer[index] != UInt8(ascii: "\"") { index += 1 }
                spans.append(AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, valueStart: textStart, valueEnd: index, kind: .quotedString))
                if index < end { index += 1 }
            } else {
                let valueStart = index
                while index < end, buffer[index] != UInt8(ascii: ","), !isSpace(buffer[index]) { index += 1 }
                guard index > valueStart else { continue }
                spans.append(AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: index,
                                           kind: Self.classify(buffer, valueStart, index)))
            }
        }
        return spans
    }

    /// The value a tolerant reader takes for a DATERANGE attribute of the wrong type, when its
    /// meaning is unambiguous: an unquoted token for an attribute whose quoted value is a token or a
    /// token list (`X-TIMELINE-OCCUPIES=RANGE`), and a quoted decimal for a number of seconds
    /// (`DURATION="15"`); `nil` otherwise (the attribute then counts as absent).
    static func repairedValue(_ field: DateRange.Field, _ span: AttributeSpan, _ buffer: UnsafeBufferPointer<UInt8>) -> RawAttributeValue? {
        switch field {
        case .timelineOccupies, .timelineStyle, .contentMayVary, .cue, .snap, .restrict:
            guard span.kind == .enumerated else { return nil }
            return RawAttributeValue(buffer: buffer, start: span.valueStart, end: span.valueEnd, kind: .quotedString)
        case .duration, .plannedDuration, .playoutLimit, .resumeOffset, .skipControlOffset, .skipControlDuration:
            guard span.kind == .quotedString, classify(buffer, span.valueStart, span.valueEnd) == .decimal else { return nil }
            return RawAttributeValue(buffer: buffer, start: span.valueStart, end: span.valueEnd, kind: .decimal)
        default:
            return nil
        }
    }

    /// Classifies an unquoted value by its syntax: hexadecimal sequence, decimal number, or
    /// anything else (enumerated string, resolution).
    static func classify(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> AttributeValue.Kind {
        if end - start > 2, buffer[start] == UInt8(ascii: "0"), buffer[start + 1] | 0x20 == UInt8(ascii: "x") {
            return .hexadecimal
        }
        var sawDigit = false
        for index in start..<end {
            let byte = buffer[index]
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
            } else if byte == UInt8(ascii: ".") || ((byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) && index == start) {
                continue
            } else {
                return .enumerated
            }
        }
        return sawDigit ? .decimal : .enumerated
    }
}

/// The attribute spans of a list read one at a time, without allocating: exactly the lists
/// ``ParserState/attributeSpans(_:_:_:tag:)`` accepts without a problem, with the same spans. On
/// any other list ``next()`` stops early and ``isMalformed`` is set (the caller then takes the path
/// that says what is wrong).
struct AttributeCursor {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var index: Int
    /// Whether the list broke the grammar (an empty list included).
    private(set) var isMalformed: Bool

    init(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.end = end
        index = start
        isMalformed = start >= end
    }

    /// The next span; `nil` at the end of the list or at the first break of the grammar.
    mutating func next() -> AttributeSpan? {
        guard !isMalformed, index < end else { return nil }
        let nameStart = index
        while index < end, base[index] != UInt8(ascii: "=") {
            let byte = base[index]
            guard (byte &- 0x41 < 26) || (byte &- 0x30 < 10) || byte == UInt8(ascii: "-") else { return malformed() }
            index += 1
        }
        guard index < end, index > nameStart else { return malformed() }
        let nameEnd = index
        index += 1
        let span: AttributeSpan
        if index < end, base[index] == UInt8(ascii: "\"") {
            index += 1
            let textStart = index
            while index < end, base[index] != UInt8(ascii: "\"") { index += 1 }
            guard index < end else { return malformed() }
            span = AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, valueStart: textStart, valueEnd: index, kind: .quotedString)
            index += 1
            guard index == end || base[index] == UInt8(ascii: ",") else { return malformed() }
        } else {
            let valueStart = index
            while index < end, base[index] != UInt8(ascii: ",") { index += 1 }
            guard index > valueStart else { return malformed() }
            span = AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: index,
                                 kind: ParserState.classify(UnsafeBufferPointer(start: base, count: end), valueStart, index))
        }
        if index < end {
            index += 1  // ','
            guard index < end else { return malformed() }
        }
        return span
    }

    private mutating func malformed() -> AttributeSpan? {
        isMalformed = true
        return nil
    }
}

/// An attribute value read in place from the parser's input.
struct RawAttributeValue: AttributeValueReading {
    let buffer: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    let kind: AttributeValue.Kind

    var text: String { String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self) }
    var decimalTime: MediaTime? { kind == .decimal ? MediaTime.parseDecimal(buffer, start, end) : nil }
    var date: PlaylistDate? { kind == .quotedString ? PlaylistDate.parse(buffer, start, end) : nil }
    var isSigned: Bool { start < end && (buffer[start] == UInt8(ascii: "-") || buffer[start] == UInt8(ascii: "+")) }
    var playlistText: String { kind == .quotedString ? "\"\(text)\"" : text }
    var isYes: Bool { kind == .enumerated && end - start == 3 && buffer[start] == 0x59 && buffer[start + 1] == 0x45 && buffer[start + 2] == 0x53 }
    /// The value with its syntactic type, as an attribute the model has no field for keeps it.
    var attributeValue: AttributeValue {
        switch kind {
        case .quotedString: return .quotedString(text)
        case .hexadecimal: return .hexadecimal(text)
        case .decimal: return .decimal(text)
        case .enumerated: return .enumerated(text)
        }
    }
}

/// What a typed decoder needs from an attribute value, wherever it was read from.
protocol AttributeValueReading {
    var kind: AttributeValue.Kind { get }
    /// The value without quotes.
    var text: String { get }
    /// The value as an exact decimal number of seconds, when it is a decimal.
    var decimalTime: MediaTime? { get }
    /// The value as a date, when it is a quoted ISO 8601 date.
    var date: PlaylistDate? { get }
    /// Whether a decimal value starts with a sign.
    var isSigned: Bool { get }
    /// The value as written, for messages.
    var playlistText: String { get }
    /// Whether it is the enumerated string `YES`.
    var isYes: Bool { get }
}

extension AttributeValue: AttributeValueReading {
    var kind: Kind {
        switch self {
        case .quotedString: return .quotedString
        case .hexadecimal: return .hexadecimal
        case .decimal: return .decimal
        case .enumerated: return .enumerated
        }
    }
    var decimalTime: MediaTime? {
        if case .decimal(let text) = self { return MediaTime(decimal: text) }
        return nil
    }
    var date: PlaylistDate? {
        if case .quotedString(let text) = self { return PlaylistDate(iso8601: text) }
        return nil
    }
    var isSigned: Bool {
        if case .decimal(let text) = self { return text.utf8.first == UInt8(ascii: "-") || text.utf8.first == UInt8(ascii: "+") }
        return false
    }
    var isYes: Bool { self == .enumerated("YES") }
}
