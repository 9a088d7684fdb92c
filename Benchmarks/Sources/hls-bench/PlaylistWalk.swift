internal import HLSPlaylist
internal import MediaTime

/// Reads every value of every tag of a parsed playlist, as a program that uses all of it would: the
/// access half of `hls-bench parse-access`.
///
/// Segments and date ranges are read property by property (each DATERANGE attribute typed, client
/// and unknown attributes included), so a model that decodes on first access pays for all of it
/// here; the rarer tags (keys, maps, parts, variants, renditions, …) through their attribute lists.
/// Returns a number made of what it read, for the ``Blackhole``.
enum PlaylistWalk {
    static func touchEverything(_ playlist: Playlist) -> Int {
        switch playlist {
        case .media(let media): return touch(media)
        case .multivariant(let multivariant): return touch(multivariant)
        }
    }

    private static func touch(_ playlist: MediaPlaylist) -> Int {
        var sum = playlist.targetDurationSeconds &+ playlist.mediaSequence &+ playlist.discontinuitySequence
        sum &+= (playlist.version ?? 0) &+ (playlist.isIndependentSegments ? 1 : 0) &+ (playlist.hasEndList ? 1 : 0)
        sum &+= count(playlist.start?.attributes) &+ count(playlist.serverControl?.attributes) &+ count(playlist.skip?.attributes)
        sum &+= count(playlist.partInformation?.attributes) &+ (playlist.playlistType?.rawValue.utf8.count ?? 0)
        for segment in playlist.segments {
            sum &+= segment.uri.utf8.count &+ Int(truncatingIfNeeded: segment.duration.value) &+ Int(segment.duration.timescale)
            sum &+= Int(truncatingIfNeeded: segment.programDateTime?.nanosecondsSince1970 ?? 0) &+ (segment.bitrateKbps ?? 0)
            sum &+= (segment.isDiscontinuity ? 1 : 0) &+ (segment.isGap ? 2 : 0) &+ (segment.title?.utf8.count ?? 0)
            sum &+= (segment.byteRange?.playlistText.utf8.count ?? 0) &+ count(segment.map?.attributes)
            for key in segment.keys { sum &+= key.attributes.count }
            for part in segment.parts { sum &+= part.attributes.count }
            for range in segment.dateRanges { sum &+= touch(range) }
            for marker in segment.adMarkers { sum &+= marker.playlistLine.utf8.count }
            for line in segment.otherLines { sum &+= line.text.utf8.count }
        }
        for part in playlist.trailingParts { sum &+= part.attributes.count }
        for range in playlist.trailingDateRanges { sum &+= touch(range) }
        for marker in playlist.trailingAdMarkers { sum &+= marker.playlistLine.utf8.count }
        for line in playlist.trailingLines { sum &+= line.text.utf8.count }
        for hint in playlist.preloadHints { sum &+= hint.attributes.count }
        for report in playlist.renditionReports { sum &+= report.attributes.count }
        return sum
    }

    private static func touch(_ range: DateRange) -> Int {
        var sum = range.id.utf8.count &+ length(range.className) &+ date(range.startDate) &+ date(range.endDate)
        sum &+= (range.cue?.count ?? 0) &+ time(range.duration) &+ time(range.plannedDuration) &+ (range.endOnNext == true ? 1 : 0)
        sum &+= length(range.scte35Command) &+ length(range.scte35Out) &+ length(range.scte35In)
        sum &+= length(range.assetURI) &+ length(range.assetList) &+ time(range.resumeOffset) &+ time(range.playoutLimit)
        sum &+= (range.snap?.count ?? 0) &+ (range.restrict?.count ?? 0) &+ length(range.timelineOccupies?.rawValue)
        sum &+= length(range.timelineStyle?.rawValue) &+ length(range.contentMayVary?.rawValue)
        sum &+= time(range.skipControlOffset) &+ time(range.skipControlDuration) &+ length(range.skipControlLabelID)
        sum &+= length(range.preloadURI) &+ length(range.preloadTargetID) &+ length(range.preloadTargetClass)
        for attribute in range.clientAttributes { sum &+= attribute.name.utf8.count &+ attribute.value.text.utf8.count }
        for attribute in range.unknownAttributes { sum &+= attribute.name.utf8.count &+ attribute.value.text.utf8.count }
        return sum
    }

    private static func touch(_ playlist: MultivariantPlaylist) -> Int {
        var sum = (playlist.version ?? 0) &+ (playlist.isIndependentSegments ? 1 : 0) &+ count(playlist.start?.attributes)
        for variant in playlist.variants { sum &+= variant.attributes.count &+ variant.uri.utf8.count }
        for rendition in playlist.renditions { sum &+= rendition.attributes.count }
        for stream in playlist.iFrameStreams { sum &+= stream.attributes.count }
        for data in playlist.sessionData { sum &+= data.attributes.count }
        for key in playlist.sessionKeys { sum &+= key.attributes.count }
        for definition in playlist.definitions { sum &+= definition.attributes.count }
        for line in playlist.otherLines { sum &+= line.text.utf8.count }
        return sum &+ count(playlist.contentSteering?.attributes)
    }

    private static func count(_ attributes: [Attribute]?) -> Int { attributes?.count ?? 0 }
    private static func length(_ text: String?) -> Int { text?.utf8.count ?? 0 }
    private static func date(_ date: PlaylistDate?) -> Int { Int(truncatingIfNeeded: date?.nanosecondsSince1970 ?? 0) }
    private static func time(_ time: MediaTime?) -> Int { Int(truncatingIfNeeded: time?.value ?? 0) }
}
