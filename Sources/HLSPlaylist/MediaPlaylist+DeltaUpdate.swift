/// A playlist delta update that cannot be applied to the playlist the client has.
public struct DeltaUpdateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// A readable explanation.
    public var description: String { message }
}

extension MediaPlaylist {
    /// Whether this playlist is a delta update (it has EXT-X-SKIP).
    public var isDeltaUpdate: Bool { skip != nil }

    /// Expands a Playlist Delta Update (RFC 8216bis §4.4.5.2, §6.2.5.1) against this playlist, the
    /// last full (or already expanded) playlist the client holds, into a full playlist.
    ///
    /// The segments that EXT-X-SKIP replaced are taken from this playlist by media sequence number,
    /// with the tags that apply to them (keys, maps, date ranges, program date-times). When the
    /// server may skip date ranges (CAN-SKIP-DATERANGES=YES), date ranges this playlist had and the
    /// update left out are kept, except those listed in RECENTLY-REMOVED-DATERANGES. Everything
    /// else (header tags, the segments after the skipped ones, trailing tags) comes from the
    /// update. A playlist without EXT-X-SKIP is returned unchanged.
    ///
    /// - Throws: ``DeltaUpdateError`` when this playlist does not hold every skipped segment, or
    ///   when the discontinuity sequence cannot be carried over.
    /// - Complexity: O(n) in the number of segments.
    public func applying(deltaUpdate delta: MediaPlaylist) throws(DeltaUpdateError) -> MediaPlaylist {
        guard let skip = delta.skip else { return delta }
        let firstSkipped = delta.mediaSequence
        // Saturating: SKIPPED-SEGMENTS comes from the server and may be absurdly large.
        let (sum, overflow) = firstSkipped.addingReportingOverflow(skip.skippedSegments - 1)
        let lastSkipped = overflow ? Int.max : sum
        let lastHeld = mediaSequence + segments.count - 1
        guard skip.skippedSegments == 0 || (firstSkipped >= mediaSequence && lastSkipped <= lastHeld) else {
            throw DeltaUpdateError(
                message: "the delta update skips media sequence numbers \(firstSkipped)…\(lastSkipped), but the previous "
                    + "playlist holds \(mediaSequence)…\(lastHeld); reload the full playlist (without _HLS_skip)"
            )
        }
        var merged = delta
        merged.skip = nil
        let skippedSegments = skip.skippedSegments > 0
            ? Array(segments[(firstSkipped - mediaSequence)...(lastSkipped - mediaSequence)])
            : []
        merged.segments = skippedSegments + delta.segments

        // The discontinuity sequence of the update applies to its first segment, which is the first
        // skipped one; it must agree with what this playlist implies for that segment.
        if skip.skippedSegments > 0 {
            let numbers = discontinuitySequenceNumbers
            let implied = numbers[firstSkipped - mediaSequence] - (segments[firstSkipped - mediaSequence].isDiscontinuity ? 1 : 0)
            if delta.discontinuitySequence != implied, delta.discontinuitySequence != discontinuitySequence {
                throw DeltaUpdateError(
                    message: "the delta update's EXT-X-DISCONTINUITY-SEQUENCE \(delta.discontinuitySequence) does not match "
                        + "the previous playlist's \(implied) for media sequence \(firstSkipped)"
                )
            }
            merged.discontinuitySequence = implied
        }

        let removed = Set(skip.recentlyRemovedDateRanges ?? [])
        if !removed.isEmpty {
            for index in merged.segments.indices where merged.segments[index].dateRanges.contains(where: { removed.contains($0.id) }) {
                merged.segments[index].dateRanges.removeAll { removed.contains($0.id) }
            }
        }
        if serverControl?.canSkipDateRanges == true || delta.serverControl?.canSkipDateRanges == true {
            let present = Set(merged.dateRanges.map(\.id))
            let kept = dateRanges.filter { !present.contains($0.id) && !removed.contains($0.id) }
            if !kept.isEmpty {
                if merged.segments.isEmpty {
                    merged.trailingDateRanges.insert(contentsOf: kept, at: 0)
                } else {
                    merged.segments[0].dateRanges.insert(contentsOf: kept, at: 0)
                }
            }
        }
        return merged
    }
}
