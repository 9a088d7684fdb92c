import HLSInterstitials
import HLSPlaylist
import MediaTime
import PlayerEngine
import Testing

@Suite("Start position")
struct StartPositionTests {
    static func playlist(_ header: String, segments: Int = 10, ended: Bool = false) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n" + header
        for index in 0..<segments { text += "#EXTINF:6,\ns\(index).ts\n" }
        if ended { text += "#EXT-X-ENDLIST\n" }
        return try MediaPlaylist(parsing: text)
    }

    static func start(_ playlist: MediaPlaylist, lowLatency: Bool = false) -> MediaTime {
        StartPosition.resolve(playlist: playlist, timeline: PrimaryTimeline(playlist: playlist), lowLatency: lowLatency)
    }

    @Test("a VOD playlist starts at its beginning")
    func vod() throws {
        #expect(Self.start(try Self.playlist("", ended: true)) == .zero)
    }

    @Test("a live playlist starts three target durations from the end, at a segment start")
    func liveEdge() throws {
        // 60 s window, 3 × 6 s hold-back → 42 s, the start of segment 7.
        #expect(Self.start(try Self.playlist("")) == MediaTime(seconds: 42))
    }

    @Test("HOLD-BACK and PART-HOLD-BACK replace the default hold-back")
    func holdBack() throws {
        let live = try Self.playlist("#EXT-X-SERVER-CONTROL:HOLD-BACK=20,PART-HOLD-BACK=3.5\n")
        #expect(Self.start(live) == MediaTime(seconds: 36))  // 60 − 20 = 40, in segment 6 (36–42)
        #expect(Self.start(live, lowLatency: true) == MediaTime(decimal: "56.5")!)
    }

    @Test("EXT-X-START offsets from the start or the end, precise or at the segment start, clamped")
    func startTag() throws {
        #expect(Self.start(try Self.playlist("#EXT-X-START:TIME-OFFSET=13\n", ended: true)) == MediaTime(seconds: 12))
        #expect(Self.start(try Self.playlist("#EXT-X-START:TIME-OFFSET=13,PRECISE=YES\n", ended: true)) == MediaTime(seconds: 13))
        #expect(Self.start(try Self.playlist("#EXT-X-START:TIME-OFFSET=-10,PRECISE=YES\n")) == MediaTime(seconds: 50))
        #expect(Self.start(try Self.playlist("#EXT-X-START:TIME-OFFSET=-100\n")) == .zero)
    }
}
