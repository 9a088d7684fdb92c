import HLSPlaylist
import MediaTime
import Testing

@Suite("Low-Latency HLS tags")
struct LowLatencyTagTests {
    private static let partDuration = MediaTime(decimal: "0.33334")!

    @Test("EXT-X-SERVER-CONTROL and EXT-X-PART-INF are typed with exact times")
    func serverControlAndPartInformation() throws {
        let playlist = try Corpus.media("media-low-latency")
        #expect(playlist.serverControl == ServerControl(
            canSkipUntil: MediaTime(seconds: 12), canSkipDateRanges: true, holdBack: MediaTime(seconds: 12),
            partHoldBack: MediaTime(seconds: 1), canBlockReload: true
        ))
        #expect(playlist.partInformation == PartialSegmentInformation(partTarget: Self.partDuration))
        #expect(playlist.mediaSequence == 266)
        #expect(playlist.segments.first?.map == MediaInitializationSection(uri: "init.mp4"))
        #expect(playlist.segments.map(\.duration).allSatisfy { $0 == MediaTime(decimal: "4.00008")! })
    }

    @Test("EXT-X-PART tags belong to the segment that follows them, with INDEPENDENT and GAP")
    func partsOfSegments() throws {
        let playlist = try Corpus.media("media-low-latency")
        try #require(playlist.segments.count == 7)
        #expect(playlist.segments[..<5].allSatisfy { $0.parts.isEmpty })
        let parts = playlist.segments[5].parts
        #expect(parts.count == 12)
        #expect(parts.map(\.uri) == (0..<12).map { "filePart271.\($0).mp4" })
        #expect(parts.allSatisfy { $0.duration == Self.partDuration })
        #expect(parts.indices.filter { parts[$0].isIndependent } == [0, 4, 8])
        #expect(parts.indices.filter { parts[$0].isGap } == [3])
        #expect(parts.allSatisfy { $0.byteRange == nil })
        #expect(playlist.segments[5].uri == "fileSequence271.mp4")
        #expect(playlist.mediaSequenceNumber(ofSegmentAt: 5) == 271)
    }

    @Test("EXT-X-PART BYTERANGE keeps explicit and implicit offsets")
    func partByteRanges() throws {
        let playlist = try Corpus.media("media-low-latency")
        let segment = playlist.segments[6]
        #expect(segment.programDateTime == PlaylistDate(iso8601: "2019-02-14T02:14:00.106Z"))
        #expect(segment.parts.prefix(4).map(\.byteRange) == [
            ByteRange(length: 20000, offset: 0), ByteRange(length: 23000), ByteRange(length: 18000), nil,
        ])
        #expect(segment.parts.prefix(3).allSatisfy { $0.uri == "filePart272.a.mp4" })
    }

    @Test("parts after the last segment, preload hints and rendition reports are kept at the playlist's end")
    func liveEdge() throws {
        let playlist = try Corpus.media("media-low-latency")
        #expect(playlist.trailingParts == [
            PartialSegment(uri: "filePart273.0.mp4", duration: Self.partDuration, isIndependent: true),
            PartialSegment(uri: "filePart273.1.mp4", duration: Self.partDuration),
            PartialSegment(uri: "filePart273.2.mp4", duration: Self.partDuration),
        ])
        #expect(playlist.preloadHints == [
            PreloadHint(type: "PART", uri: "filePart273.3.mp4"),
            PreloadHint(type: "MAP", uri: "init2.mp4", byteRangeStart: 0, byteRangeLength: 812),
        ])
        #expect(playlist.renditionReports == [
            RenditionReport(uri: "../1M/waitForMSN.php", lastMediaSequence: 273, lastPart: 2),
            RenditionReport(uri: "../4M/waitForMSN.php", lastMediaSequence: 273, lastPart: 1),
        ])
        #expect(playlist.trailingLines.isEmpty)
        #expect(playlist.segments[0].otherLines.map(\.text) == [
            "# This Playlist is a response to: GET https://example.com/2M/waitForMSN.php?_HLS_msn=273&_HLS_part=2",
        ])
        #expect(!playlist.hasEndList)
    }

    @Test("EXT-X-SKIP reads SKIPPED-SEGMENTS and the tab-separated RECENTLY-REMOVED-DATERANGES")
    func deltaUpdateSkip() throws {
        let playlist = try Corpus.media("media-delta-update")
        #expect(playlist.version == 10)
        #expect(playlist.skip?.skippedSegments == 3)
        #expect(playlist.skip?.recentlyRemovedDateRanges == ["splice-6FFFFFF0", "splice-6FFFFFF1"])
        #expect(playlist.segments.map(\.uri) == [
            "fileSequence269.mp4", "fileSequence270.mp4", "fileSequence271.mp4", "fileSequence272.mp4",
        ])
        #expect(playlist.segments[2].dateRanges.map(\.id) == ["splice-6FFFFFF2"])
        #expect(playlist.segments[2].dateRanges.first?.plannedDuration == MediaTime(seconds: 30))
        #expect(playlist.trailingParts.count == 4)
        #expect(playlist.renditionReports.map(\.lastPart) == [3, 3])
    }

    @Test("in a delta update the first listed segment is numbered MEDIA-SEQUENCE + SKIPPED-SEGMENTS")
    func deltaUpdateMediaSequenceNumbers() throws {
        let playlist = try Corpus.media("media-delta-update")
        #expect(playlist.mediaSequence == 266)
        #expect(playlist.segments.indices.map(playlist.mediaSequenceNumber(ofSegmentAt:)) == [269, 270, 271, 272])
    }

    @Test("low-latency tags read their attributes in any order")
    func unusualOrder() throws {
        let playlist = try Corpus.media("media-unusual-attribute-order")
        #expect(playlist.partInformation?.partTarget == MediaTime(decimal: "1.002")!)
        #expect(playlist.serverControl == ServerControl(
            holdBack: MediaTime(seconds: 18), partHoldBack: MediaTime(decimal: "3.006")!, canBlockReload: true
        ))
        #expect(playlist.trailingParts == [
            PartialSegment(uri: "s10.p0.mp4", duration: MediaTime(decimal: "1.002")!, isIndependent: true),
            PartialSegment(uri: "s10.p1.mp4", duration: MediaTime(decimal: "1.001")!),
        ])
        #expect(playlist.preloadHints == [PreloadHint(type: "PART", uri: "s10.p2.mp4")])
        #expect(playlist.renditionReports == [RenditionReport(uri: "../other.m3u8", lastMediaSequence: 10, lastPart: 1)])
    }
}
