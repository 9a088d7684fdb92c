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
    /// The decoded storage once published (an `Unmanaged` reference this object owns), else 0.
    private let decoded = Atomic<UInt>(0)

    /// A tag whose attribute list `bytes[start..<end]` passed ``DateRange/isWellFormed(_:_:_:)``.
    init(bytes: SharedBytes, start: Int, end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
    }

    deinit {
        let bits = decoded.load(ordering: .acquiring)
        if bits != 0 { Self.storage(bits).release() }
    }

    /// The decoded values, decoding them on first use.
    var storage: DateRange.Storage {
        let bits = decoded.load(ordering: .acquiring)
        if bits != 0 { return Self.storage(bits).takeUnretainedValue() }
        return decode()
    }

    @inline(never)
    private func decode() -> DateRange.Storage {
        let range = bytes.array.withUnsafeBufferPointer { DateRange(decoding: $0, start, end) }
        let fresh = Unmanaged.passRetained(DateRange.Storage(range.values))
        let (published, current) = decoded.compareExchange(
            expected: 0, desired: UInt(bitPattern: fresh.toOpaque()), ordering: .acquiringAndReleasing
        )
        if published { return fresh.takeUnretainedValue() }
        // Another thread decoded it first: use its result, which every reader sees from now on.
        fresh.release()
        return Self.storage(current).takeUnretainedValue()
    }

    private static func storage(_ bits: UInt) -> Unmanaged<DateRange.Storage> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }
}
