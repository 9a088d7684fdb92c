import Synchronization

/// The rendered text of playlists that do not change with time (a viewer's VOD media playlist,
/// the multivariant playlists), kept after the first request like any origin keeps them: the
/// decision for a viewer of a VOD title is made once, not on every reload of the same playlist.
///
/// Live playlists are rendered on every request (their window moves with the clock). The cache is
/// bounded by the configuration: only configured streams and viewers render successfully, and
/// failures are not kept.
package final class RenderedPlaylists: Sendable {
    private let entries = Mutex<[String: [UInt8]]>([:])

    /// The bytes for `key`, rendering and keeping them the first time.
    func bytes(for key: String, render: () throws(OriginError) -> [UInt8]) throws(OriginError) -> [UInt8] {
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let rendered = try render()
        entries.withLock { $0[key] = rendered }
        return rendered
    }

    /// How many playlists are kept.
    package var count: Int { entries.withLock { $0.count } }
}
