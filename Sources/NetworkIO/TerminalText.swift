/// Text from outside (playlist bytes, request paths, header values) made safe to print on a
/// terminal or write to a log: every control character (C0, DEL, C1, so ESC and CSI too) is
/// replaced by a visible escape, so what is printed cannot retitle, recolour or rewrite the
/// terminal, nor forge log lines.
///
/// It lives in NetworkIO because that is the lowest module both the access log and the command
/// line see; it is the one escaping function both use.
public enum TerminalText {
    /// `text` with each control character written as `\x1B` (C0 and DEL) or `\u{9B}` (C1);
    /// with `keepingNewlines`, line feeds stay, for multi-line messages. O(n).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingNewlines && $0 == "\n") }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if !isControl(scalar) || (keepingNewlines && scalar == "\n") {
                result.unicodeScalars.append(scalar)
            } else if scalar.value < 0x80 {
                result += "\\x" + hex(scalar.value, digits: 2)
            } else {
                result += "\\u{" + hex(scalar.value, digits: 2) + "}"
            }
        }
        return result
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
