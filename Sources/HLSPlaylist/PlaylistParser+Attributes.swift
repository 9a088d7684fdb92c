extension ParserState {
    /// Splits `buffer[start..<end]` into an attribute list (§4.2): `NAME=value` pairs separated by
    /// commas, where a value is a quoted string (no escapes, may contain commas) or runs to the
    /// next comma.
    ///
    /// Quoted-string and hexadecimal values get `{$name}` references substituted when the playlist
    /// defines variables. Returns `nil` after recording a diagnostic in lenient mode.
    mutating func attributeList(
        _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, tag: TagName, substitute: Bool = true
    ) throws(PlaylistParseError) -> [Attribute]? {
        var attributes: [Attribute] = []
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
            let name = string(buffer, nameStart, index)
            index += 1  // '='
            let valueStart = index
            var value: AttributeValue
            if index < end, buffer[index] == UInt8(ascii: "\"") {
                index += 1
                let textStart = index
                while index < end, buffer[index] != UInt8(ascii: "\"") { index += 1 }
                guard index < end else {
                    try problem(.malformedTag, column: valueStart - lineStart + 1,
                                "#\(tag.text): the quoted value of \(name) has no closing quote")
                    return nil
                }
                var text = string(buffer, textStart, index)
                if substitute, !variables.isEmpty || !definitions.isEmpty {
                    text = try substituted(text, column: valueStart - lineStart + 1)
                }
                value = .quotedString(text)
                index += 1
                if index < end, buffer[index] != UInt8(ascii: ",") {
                    try problem(.malformedTag, column: index - lineStart + 1,
                                "#\(tag.text): expected ',' after the quoted value of \(name)")
                    return nil
                }
            } else {
                while index < end, buffer[index] != UInt8(ascii: ",") { index += 1 }
                guard index > valueStart else {
                    try problem(.malformedTag, column: valueStart - lineStart + 1, "#\(tag.text): \(name) has an empty value")
                    return nil
                }
                value = classify(buffer, valueStart, index)
                if substitute, case .hexadecimal(let text) = value, !variables.isEmpty {
                    value = .hexadecimal(try substituted(text, column: valueStart - lineStart + 1))
                }
            }
            attributes.append(Attribute(name: name, value: value))
            if index < end {
                index += 1  // ','
                if index == end {
                    try problem(.malformedTag, column: index - lineStart, "#\(tag.text): the attribute list ends with a comma")
                    return nil
                }
            }
        }
        return attributes
    }

    /// Classifies an unquoted value by its syntax: hexadecimal sequence, decimal number, or
    /// anything else (enumerated string, resolution).
    private func classify(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> AttributeValue {
        let text = string(buffer, start, end)
        if end - start > 2, buffer[start] == UInt8(ascii: "0"), buffer[start + 1] | 0x20 == UInt8(ascii: "x") {
            return .hexadecimal(text)
        }
        var sawDigit = false
        var isNumber = true
        for index in start..<end {
            let byte = buffer[index]
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
            } else if byte == UInt8(ascii: ".") || ((byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) && index == start) {
                continue
            } else {
                isNumber = false
                break
            }
        }
        return isNumber && sawDigit ? .decimal(text) : .enumerated(text)
    }
}
