internal import HLSPlaylist

/// Somewhere to put a parse result so the optimizer cannot drop the parse that made it.
///
/// Each result adds its element counts to ``checksum``, which the command prints to stderr when it
/// is done: a value the program visibly depends on.
enum Blackhole {
    /// The sum of every consumed result's counts. Only the main thread touches it.
    nonisolated(unsafe) static var checksum = 0

    /// Adds `result`'s segment count and the last segment's URI length (media), or variant,
    /// rendition and I-frame stream counts (multivariant), to ``checksum``.
    ///
    /// O(1): it reads what the parse produced without walking it, so the timing is the parse's
    /// alone (the parser lives in another module and decodes every tag, DATERANGE included, before
    /// it returns; nothing here can let the optimizer skip that).
    @inline(never)
    static func consume(_ result: ParseResult) {
        switch result.playlist {
        case .media(let playlist):
            checksum &+= playlist.segments.count &+ (playlist.segments.last?.uri.utf8.count ?? 0)
        case .multivariant(let playlist):
            checksum &+= playlist.variants.count &+ playlist.renditions.count &+ playlist.iFrameStreams.count
        }
    }
}
