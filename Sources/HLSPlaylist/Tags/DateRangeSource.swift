import Synchronization

/// The EXT-X-DATERANGE tag a parsed ``DateRange`` was read from: its attribute list as a slice of
/// the playlist's text, checked when the playlist was parsed, decoded the first time a value is
/// read, then kept.
///
/// A 24-hour DVR playlist carries thousands of date ranges with long SCTE-35 payloads and URIs;
/// keeping them as text until asked spares the parse making those `String`s and lists, and a
/// program that reads only some of them pays for those. Decoding is safe from any thread: the first
/// reader to finish publishes its result, and the others use it.
final class DateRangeSource: Sendable {
    /// The playlist's text.
    let bytes: SharedBytes
    /// Where the attribute list starts and ends in it.
    let start: Int
    let end: Int
    private let decoded = AtomicLazyReference<DateRange.Storage>()

    /// A tag whose attribute list `bytes[start..<end]` passed ``DateRange/isWellFormed(_:_:_:)``.
    init(bytes: SharedBytes, start: Int, end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
    }

    /// The decoded values, decoding them on first use.
    var storage: DateRange.Storage {
        if let storage = decoded.load() { return storage }
        let range = bytes.array.withUnsafeBufferPointer { DateRange(decoding: $0, start, end) }
        return decoded.storeIfNil(DateRange.Storage(range.values))
    }
}
