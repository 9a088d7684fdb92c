extension PlaylistValidator {
    /// §4.1: a playlist is UTF-8 text without control characters (U+0000–U+001F and U+007F–U+009F,
    /// CR and LF excepted). The parser keeps such bytes verbatim, so URIs, titles and IDs may carry
    /// them; this reports the first offending character of each line under `parse.invalid-text`,
    /// with the line, the column (in bytes) and what it is.
    ///
    /// - Complexity: O(n) in the size of the playlist.
    static func textFindings(_ bytes: [UInt8]) -> [PlaylistDiagnostic] {
        var findings: [PlaylistDiagnostic] = []
        let ruleID = "parse.\(PlaylistParseError.Kind.invalidText.rawValue)"
        bytes.withUnsafeBufferPointer { buffer in
            var line = 1
            var lineStart = 0
            var index = 0
            // A byte order mark is the parser's finding.
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
            var reportedLine = 0
            func report(_ what: String) {
                guard reportedLine != line else { return }
                reportedLine = line
                findings.append(PlaylistDiagnostic(
                    ruleID: ruleID, severity: .error, line: line, column: index - lineStart + 1,
                    message: "\(what) in \(lineKind(buffer, lineStart)); a playlist is UTF-8 text without control characters (§4.1)"
                ))
            }
            while index < buffer.count {
                let byte = buffer[index]
                if byte == 0x0A {
                    line += 1
                    index += 1
                    lineStart = index
                    continue
                }
                if byte < 0x80 {
                    if byte == 0x0D, index + 1 == buffer.count || buffer[index + 1] == 0x0A {
                        index += 1
                        continue
                    }
                    // EXT-X-SKIP's RECENTLY-REMOVED-DATERANGES is a tab-delimited list (§4.4.5.2).
                    if byte == 0x09, isSkipTag(buffer, lineStart) {
                        index += 1
                        continue
                    }
                    if byte < 0x20 || byte == 0x7F { report("control character \(codePoint(UInt32(byte)))") }
                    index += 1
                    continue
                }
                let length = utf8Length(buffer, index)
                if length == 0 {
                    report("invalid UTF-8 (byte 0x\(hex(byte)))")
                    index += 1
                    continue
                }
                if length == 2, byte == 0xC2, buffer[index + 1] <= 0x9F {
                    report("control character \(codePoint(UInt32(buffer[index + 1])))")
                }
                index += length
            }
        }
        return findings
    }

    /// The length of the well-formed UTF-8 sequence at `index` (Unicode Table 3-7), 0 when it is
    /// not one.
    private static func utf8Length(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let first = buffer[index]
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < buffer.count && buffer[index + offset] >= low && buffer[index + offset] <= high
        }
        switch first {
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }

    private static func isSkipTag(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        let prefix = Array("#EXT-X-SKIP:".utf8)
        guard buffer.count - start >= prefix.count else { return false }
        return buffer[start..<(start + prefix.count)].elementsEqual(prefix)
    }

    private static func lineKind(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int) -> String {
        guard start < buffer.count, buffer[start] == UInt8(ascii: "#") else { return "a URI line" }
        var end = start + 1
        while end < buffer.count, end - start < 40, buffer[end] != UInt8(ascii: ":"), buffer[end] >= 0x21, buffer[end] < 0x7F {
            end += 1
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[(start + 1)..<end]), as: UTF8.self)
        return name.hasPrefix("EXT") ? "#\(name)" : "a comment"
    }

    private static func codePoint(_ value: UInt32) -> String {
        let names: [UInt32: String] = [0x00: "NUL", 0x09: "TAB", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL"]
        let text = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - text.count)) + text + (names[value].map { " (\($0))" } ?? "")
    }

    private static func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }
}
