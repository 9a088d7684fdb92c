import HLSPlaylist
import MediaTime
import Testing

@Suite("Stitched-ad markers")
struct AdMarkerTests {
    @Test("EXT-X-CUE-OUT with a bare number, EXT-X-CUE-OUT-CONT as elapsed/duration, and EXT-X-CUE-IN")
    func bareForms() throws {
        let playlist = try Corpus.media("media-ad-markers-bare")
        try #require(playlist.segments.count == 6)
        #expect(playlist.segments.map(\.adMarkers) == [
            [],
            [
                .oatclsSCTE35("/DAlAAAAAAAAAP/wFAUAAAPvf+//ZUf6wP4AKTLgAAAAAAAAGL/WQQ=="),
                .cueOut(duration: MediaTime(seconds: 30), attributes: nil),
            ],
            [.cueOutContinuation(elapsed: MediaTime(seconds: 10), duration: MediaTime(seconds: 30), text: "10/30")],
            [.cueOutContinuation(elapsed: MediaTime(seconds: 20), duration: MediaTime(seconds: 30), text: "20.0/30")],
            [.cueIn],
            [.cueOut(duration: nil, attributes: nil)],
        ])
        #expect(playlist.trailingAdMarkers == [.cueIn])
        #expect(playlist.segments[1].uri == "ad1.ts")
    }

    @Test("EXT-X-CUE-OUT:DURATION= and EXT-X-CUE-OUT-CONT:ElapsedTime=,Duration= keep their text and type their times")
    func attributeForms() throws {
        let playlist = try Corpus.media("media-ad-markers-attributes")
        try #require(playlist.segments.count == 6)
        #expect(playlist.segments[1].adMarkers == [
            .cueOut(duration: MediaTime(decimal: "18.018")!, attributes: "DURATION=18.018"),
        ])
        #expect(playlist.segments[2].adMarkers == [
            .cueOutContinuation(
                elapsed: MediaTime(decimal: "6.006")!, duration: MediaTime(decimal: "18.018")!,
                text: "ElapsedTime=6.006,Duration=18.018,SCTE35=/DAlAAAAAAAAAP/wFAUAAAPvf+//ZUf6wP4AKTLgAAAAAAAAGL/WQQ=="
            ),
        ])
        #expect(playlist.segments[3].adMarkers == [
            .cueOutContinuation(
                elapsed: MediaTime(decimal: "12.012")!, duration: MediaTime(decimal: "18.018")!,
                text: "ElapsedTime=12.012,Duration=18.018"
            ),
        ])
        #expect(playlist.segments[4].adMarkers == [.cueIn])
        #expect(playlist.segments[5].adMarkers == [
            .cueOut(duration: MediaTime(seconds: 12), attributes: #"DURATION="12",ID="break-2""#),
        ])
    }

    @Test("each marker writes back as the line it was read from")
    func playlistLines() throws {
        let bare = try Corpus.media("media-ad-markers-bare")
        let attributes = try Corpus.media("media-ad-markers-attributes")
        let lines = (bare.segments + attributes.segments).flatMap(\.adMarkers).map(\.playlistLine)
        #expect(lines == [
            "#EXT-OATCLS-SCTE35:/DAlAAAAAAAAAP/wFAUAAAPvf+//ZUf6wP4AKTLgAAAAAAAAGL/WQQ==",
            "#EXT-X-CUE-OUT:30",
            "#EXT-X-CUE-OUT-CONT:10/30",
            "#EXT-X-CUE-OUT-CONT:20.0/30",
            "#EXT-X-CUE-IN",
            "#EXT-X-CUE-OUT",
            "#EXT-X-CUE-OUT:DURATION=18.018",
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=6.006,Duration=18.018,SCTE35=/DAlAAAAAAAAAP/wFAUAAAPvf+//ZUf6wP4AKTLgAAAAAAAAGL/WQQ==",
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=12.012,Duration=18.018",
            "#EXT-X-CUE-IN",
            #"#EXT-X-CUE-OUT:DURATION="12",ID="break-2""#,
        ])
    }

    @Test("ad markers make a playlist a media playlist and do not end a segment")
    func markersAreSegmentTags() throws {
        let text = "#EXTM3U\n#EXT-X-CUE-OUT:15\n#EXTINF:5,\na.ts\n"
        let result = try PlaylistParser.parse(text)
        let playlist = try #require(result.playlist.media)
        #expect(playlist.segments.count == 1)
        #expect(playlist.segments[0].adMarkers == [.cueOut(duration: MediaTime(seconds: 15), attributes: nil)])
        let mixed = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-CUE-IN\n"
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(mixed) }
        #expect(error?.kind == .mixedPlaylistTypes)
        #expect(error?.line == 4)
    }
}
