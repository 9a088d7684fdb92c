internal import HLSPlaylist

/// Somewhere to put a parse result so the optimizer cannot drop the parse that made it.
///
/// Each result adds its element counts to ``checksum``, which the command prints to stderr when it
/// is done: a value the program visibly depends on.
enum Blackhole {
    /// The sum of every consumed result's counts. Only the main thread touches it.
    nonisolated(unsafe) static var checksum = 0

    /// Adds `result`'s segment and date-range counts (media) or variant, rendition and I-frame
    /// stream counts (multivariant) to ``checksum``.
    ///
    /// - Complexity: O(n) in the number of segments, for ``MediaPlaylist/dateRanges``.
    @inline(never)
    static func consume(_ result: ParseResult) {
        switch result.playlist {
        case .media(let playlist):
            checksum &+= playlist.segments.count &+ playlist.dateRanges.count
        case .multivariant(let playlist):
            checksum &+= playlist.variants.count &+ playlist.renditions.count &+ playlist.iFrameStreams.count
        }
    }
}
