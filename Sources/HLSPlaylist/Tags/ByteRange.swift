/// A sub-range of a resource: `length` bytes from `offset` (RFC 8216bis §4.4.4.2 EXT-X-BYTERANGE,
/// also used by EXT-X-MAP and EXT-X-PART).
///
/// When `offset` is absent, the range starts right after the previous range of the same resource.
public struct ByteRange: Sendable, Hashable {
    /// The number of bytes.
    public var length: Int
    /// The first byte's offset, when given.
    public var offset: Int?

    /// A range of `length` bytes starting at `offset` (or after the previous range).
    public init(length: Int, offset: Int? = nil) {
        self.length = length
        self.offset = offset
    }

    /// The `<n>[@<o>]` text form.
    public var playlistText: String {
        offset.map { "\(length)@\($0)" } ?? "\(length)"
    }

    /// Parses `<n>[@<o>]`; `nil` when malformed.
    public init?(playlistText text: some StringProtocol) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let length = Int(parts[0]), length >= 0 else { return nil }
        var offset: Int?
        if parts.count == 2 {
            guard let value = Int(parts[1]), value >= 0 else { return nil }
            offset = value
        }
        self.init(length: length, offset: offset)
    }
}
