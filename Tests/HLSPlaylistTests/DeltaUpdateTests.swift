import HLSPlaylist
import MediaTime
import Testing

@Suite("Playlist delta updates (EXT-X-SKIP)")
struct DeltaUpdateTests {
    static let full = """
        #EXTM3U
        #EXT-X-VERSION:10
        #EXT-X-TARGETDURATION:4
        #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES
        #EXT-X-MEDIA-SEQUENCE:100
        #EXT-X-PROGRAM-DATE-TIME:2026-11-30T10:00:00.000Z
        #EXT-X-DATERANGE:ID="old-break",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T10:00:02.000Z",DURATION=10,X-ASSET-URI="https://ads.example.com/a.m3u8"
        #EXT-X-DATERANGE:ID="gone",START-DATE="2026-11-30T10:00:03.000Z",DURATION=1
        #EXTINF:4.000,
        s100.ts
        #EXTINF:4.000,
        s101.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:4.000,
        s102.ts
        #EXTINF:4.000,
        s103.ts

        """

    static let delta = """
        #EXTM3U
        #EXT-X-VERSION:10
        #EXT-X-TARGETDURATION:4
        #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES
        #EXT-X-MEDIA-SEQUENCE:101
        #EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES="gone"
        #EXT-X-DATERANGE:ID="new-break",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T10:00:17.000Z",PLANNED-DURATION=15,X-ASSET-LIST="list.json"
        #EXTINF:4.000,
        s104.ts
        #EXTINF:4.000,
        s105.ts

        """

    @Test("a delta update expands to the skipped segments from the previous playlist plus its own")
    func expandsSegments() throws {
        let previous = try MediaPlaylist(parsing: Self.full)
        let update = try MediaPlaylist(parsing: Self.delta)
        #expect(update.isDeltaUpdate)
        let merged = try previous.applying(deltaUpdate: update)
        #expect(!merged.isDeltaUpdate)
        #expect(merged.mediaSequence == 101)
        #expect(merged.segments.map(\.uri) == ["s101.ts", "s102.ts", "s103.ts", "s104.ts", "s105.ts"])
        #expect(merged.segments[1].isDiscontinuity)
        #expect(merged.discontinuitySequence == 0)
        #expect(merged.duration == MediaTime(seconds: 20))
    }

    @Test("date ranges the server skipped are kept, recently removed ones are dropped")
    func dateRanges() throws {
        let merged = try MediaPlaylist(parsing: Self.full).applying(deltaUpdate: try MediaPlaylist(parsing: Self.delta))
        #expect(Set(merged.dateRanges.map(\.id)) == ["old-break", "new-break"])
    }

    @Test("the discontinuity sequence carries over when the first kept segment follows a discontinuity")
    func discontinuitySequence() throws {
        let previous = try MediaPlaylist(parsing: Self.full)
        let update = try MediaPlaylist(parsing: Self.delta.replacingOccurrences(of: "MEDIA-SEQUENCE:101", with: "MEDIA-SEQUENCE:103")
            .replacingOccurrences(of: "SKIPPED-SEGMENTS=3", with: "SKIPPED-SEGMENTS=1")
            .replacingOccurrences(of: "#EXT-X-SKIP", with: "#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXT-X-SKIP"))
        let merged = try previous.applying(deltaUpdate: update)
        #expect(merged.segments.map(\.uri) == ["s103.ts", "s104.ts", "s105.ts"])
        #expect(merged.discontinuitySequence == 1)
    }

    @Test("a delta that skips segments the client does not hold is refused")
    func refusesGap() throws {
        let previous = try MediaPlaylist(parsing: Self.full)
        let update = try MediaPlaylist(parsing: Self.delta.replacingOccurrences(of: "MEDIA-SEQUENCE:101", with: "MEDIA-SEQUENCE:102"))
        #expect(throws: DeltaUpdateError.self) { try previous.applying(deltaUpdate: update) }
    }

    @Test("a full playlist applied as an update replaces the previous one")
    func fullPlaylistPassesThrough() throws {
        let previous = try MediaPlaylist(parsing: Self.full)
        #expect(try previous.applying(deltaUpdate: previous) == previous)
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
