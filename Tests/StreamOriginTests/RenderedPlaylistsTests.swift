import HLSPlaylist
import MediaTime
import Testing
import StreamOrigin

@Suite("Rendered playlists are kept where time cannot change them")
struct RenderedPlaylistsTests {
    @Test("a VOD playlist is rendered once per viewer and served identically afterwards")
    func vodKept() throws {
        let origin = try defaultOrigin()
        let first = origin.get("/vod/movie/bob/main.m3u8")
        #expect(first.status == 200)
        #expect(origin.rendered.count == 1)
        let again = origin.get("/vod/movie/bob/main.m3u8", at: live(5_000))
        #expect(again.body == first.body)
        #expect(origin.rendered.count == 1)
        let other = origin.get("/vod/movie/charlie/main.m3u8")
        #expect(other.body != first.body)
        #expect(origin.rendered.count == 2)
    }

    @Test("a live playlist is kept until the next segment is published, then moves with the clock")
    func liveKeptPerSegment() throws {
        let origin = try defaultOrigin()
        let path = "/live/channel/bob/main.m3u8"
        let early = origin.get(path, at: live(100))
        let count = try origin.livePublishedCount(streamID: "channel", viewerID: "bob", at: live(100))
        // The last instant before the next segment is published gives the same window.
        var sameWindow = live(100)
        while try origin.livePublishedCount(streamID: "channel", viewerID: "bob", at: sameWindow.adding(MediaTime(value: 100, timescale: 1000))) == count {
            sameWindow = sameWindow.adding(MediaTime(value: 100, timescale: 1000))
        }
        let stillEarly = origin.get(path, at: sameWindow)
        #expect(early.status == 200 && stillEarly.body == early.body)
        #expect(origin.rendered.liveCount == 1)
        let later = origin.get(path, at: sameWindow.adding(MediaTime(value: 100, timescale: 1000)))
        #expect(later.status == 200 && later.body != early.body)
        #expect(origin.rendered.liveCount == 1, "one rendering per stream and viewer, the newest")
        #expect(origin.rendered.count == 0)
    }

    @Test("a kept live playlist is byte for byte what rendering it afresh gives, at any time, whole or delta, stitched or not")
    func liveKeptEqualsFresh() throws {
        let origin = try defaultOrigin()
        // Forwards in small steps across segment publications and breaks, then back and forth.
        var times: [Int64] = Array(stride(from: 0, through: 300_000, by: 1_300))
        times += [90_000, 250_000, 250_000, 1_000, 399_999, 120_000, 5_000_000, 60_000]
        var compared = 0
        for stream in ["channel", "channel-stitched"] {
            for viewer in ["alice", "bob", "charlie", "dana"] {
                for delta in [false, true] {
                    let path = "/live/\(stream)/\(viewer)/main.m3u8" + (delta ? "?_HLS_skip=YES" : "")
                    for milliseconds in times {
                        let now = liveStart.adding(MediaTime(value: milliseconds, timescale: 1000))
                        let served = origin.get(path, at: now)
                        let fresh = Result { () throws(OriginError) in
                            try origin.mediaPlaylist(kind: .live, streamID: stream, viewerID: viewer, at: now, deltaUpdate: delta)
                                .canonicalBytes()
                        }
                        switch fresh {
                        case .success(let bytes):
                            #expect(served.status == 200 && served.body == bytes, "\(path) at \(milliseconds) ms")
                            compared += 1
                        case .failure(let error):
                            #expect(served.status == error.status, "\(path) at \(milliseconds) ms")
                        }
                    }
                }
            }
        }
        #expect(compared > 3_000)
        #expect(origin.rendered.liveCount == 16)
    }

    @Test("an unknown viewer is not kept and still gets a 404")
    func failuresNotKept() throws {
        let origin = try defaultOrigin()
        #expect(origin.get("/vod/movie/mallory/main.m3u8").status == 404)
        #expect(origin.get("/vod/movie/mallory/main.m3u8").status == 404)
        #expect(origin.rendered.count == 0)
    }
}
