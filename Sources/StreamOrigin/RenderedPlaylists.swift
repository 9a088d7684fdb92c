import Synchronization

/// The rendered text of playlists, kept so that a reload of the same playlist costs no rendering:
///
/// - those that do not change with time (a viewer's VOD media playlist, the multivariant
///   playlists), kept after the first request like any origin keeps them: the decision for a
///   viewer of a VOD title is made once, not on every reload of the same playlist;
/// - a viewer's live media playlist, kept with the version it was rendered for (how many segments
///   were published): a live window moves only when a segment is published, so every request until
///   the next one gets the same bytes, rendered once, and the first request after it renders the
///   new window.
///
/// The cache is bounded by the configuration: only configured streams and viewers render
/// successfully, failures are not kept, and a live playlist keeps one rendering per stream, viewer
/// and kind of request (whole or delta update), its newest.
package final class RenderedPlaylists: Sendable {
    private let entries = Mutex<[String: [UInt8]]>([:])
    private let versioned = Mutex<[String: (version: Int, bytes: [UInt8])]>([:])

    /// The bytes for `key`, rendering and keeping them the first time.
    func bytes(for key: String, render: () throws(OriginError) -> [UInt8]) throws(OriginError) -> [UInt8] {
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let rendered = try render()
        entries.withLock { $0[key] = rendered }
        return rendered
    }

    /// The bytes for `key` at `version`: those kept if they were rendered for the same version,
    /// else a new rendering, which replaces the kept one unless that one is newer (two requests on
    /// either side of a segment's publication may finish in either order). Rendering happens outside
    /// the lock.
    func bytes(for key: String, version: Int, render: () throws(OriginError) -> [UInt8]) throws(OriginError) -> [UInt8] {
        if let kept = versioned.withLock({ $0[key] }), kept.version == version { return kept.bytes }
        let rendered = try render()
        versioned.withLock { kept in
            if let newer = kept[key], newer.version > version { return }
            kept[key] = (version, rendered)
        }
        return rendered
    }

    /// How many playlists that do not change with time are kept.
    package var count: Int { entries.withLock { $0.count } }

    /// How many live playlists are kept (one per stream, viewer and kind of request).
    package var liveCount: Int { versioned.withLock { $0.count } }
}
