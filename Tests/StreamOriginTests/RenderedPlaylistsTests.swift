import HLSPlaylist
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

    @Test("a live playlist is rendered on every request and moves with the clock")
    func liveNotKept() throws {
        let origin = try defaultOrigin()
        let early = origin.get("/live/channel/bob/main.m3u8", at: live(100))
        let later = origin.get("/live/channel/bob/main.m3u8", at: live(200))
        #expect(early.status == 200 && later.status == 200)
        #expect(early.body != later.body)
        #expect(origin.rendered.count == 0)
    }

    @Test("an unknown viewer is not kept and still gets a 404")
    func failuresNotKept() throws {
        let origin = try defaultOrigin()
        #expect(origin.get("/vod/movie/mallory/main.m3u8").status == 404)
        #expect(origin.get("/vod/movie/mallory/main.m3u8").status == 404)
        #expect(origin.rendered.count == 0)
    }
}
