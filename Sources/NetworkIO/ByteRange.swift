/// A single-range `Range: bytes=...` request (RFC 9110 §14.1.2), resolved against a
/// representation's length.
///
/// Multiple ranges (`bytes=0-1,5-9`) are answered with the whole representation, which the RFC
/// allows; HLS clients send one range at a time.
package enum ByteRange: Equatable {
    /// The header is absent, not a bytes range, malformed or asks for several ranges:
    /// send the whole representation with 200.
    case whole
    /// Send these bytes with 206 and `Content-Range: bytes first-last/length`.
    case partial(ClosedRange<Int64>)
    /// No byte of the representation is in the range: 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Resolves `header` (the `Range` field value, or `nil`) for a representation of `length` bytes. O(n).
    package static func resolve(_ header: String?, length: Int64) -> ByteRange {
        guard let header else { return .whole }
        let trimmed = header.drop { $0 == " " }
        guard trimmed.hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).filter { $0 != " " && $0 != "\t" }
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            // bytes=-N: the final N bytes.
            guard let suffix = digits(lastText) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .partial(max(0, length - suffix)...(length - 1))
        }
        guard let first = digits(firstText) else { return .whole }
        var last = length - 1
        if !lastText.isEmpty {
            guard let value = digits(lastText), value >= first else { return .whole }
            last = min(value, length - 1)
        }
        guard first < length else { return .unsatisfiable }
        return .partial(first...last)
    }

    /// A non-negative decimal number of ASCII digits only (no sign, no spaces), or `nil`.
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}
