import HLSInterstitials
import HLSPlaylist
import MediaTime
import PlayerEngine
import Testing

@Suite("ForwardBuffer")
struct ForwardBufferTests {
    static func seconds(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }
    static func range(_ start: Int64, _ end: Int64) -> MediaTimeRange { MediaTimeRange(start: seconds(start), end: seconds(end)) }

    @Test("loaded segments merge into contiguous ranges, in any order")
    func merging() {
        var buffer = ForwardBuffer()
        buffer.add(Self.range(8, 12))
        buffer.add(Self.range(0, 4))
        buffer.add(Self.range(20, 24))
        buffer.add(Self.range(4, 8))
        #expect(buffer.loadedRanges == [Self.range(0, 12), Self.range(20, 24)])
        buffer.add(Self.range(10, 22))
        #expect(buffer.loadedRanges == [Self.range(0, 24)])
    }

    @Test("the buffer ahead is contiguous from the playhead; a gap ends it")
    func ahead() {
        var buffer = ForwardBuffer()
        buffer.add(Self.range(0, 12))
        buffer.add(Self.range(16, 20))
        #expect(buffer.bufferedAhead(of: Self.seconds(5)) == Self.seconds(7))
        #expect(buffer.bufferedAhead(of: Self.seconds(13)) == .zero)
        #expect(buffer.bufferedAhead(of: Self.seconds(12)) == .zero)
        buffer.evict(before: Self.seconds(6))
        #expect(buffer.loadedRanges == [Self.range(6, 12), Self.range(16, 20)])
    }

    @Test("the next segment to fetch is the first one not loaded from the playhead, until the target is met")
    func nextSegment() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        for index in 0..<20 { text += "#EXTINF:4,\ns\(index).ts\n" }
        let timeline = PrimaryTimeline(playlist: try MediaPlaylist(parsing: text))
        var buffer = ForwardBuffer(forwardTarget: Self.seconds(12))
        #expect(buffer.nextSegment(in: timeline, at: Self.seconds(9)) == 2)
        buffer.add(Self.range(8, 16))
        #expect(buffer.nextSegment(in: timeline, at: Self.seconds(9)) == 4)
        buffer.add(Self.range(16, 24))
        #expect(buffer.nextSegment(in: timeline, at: Self.seconds(9)) == nil)  // 15 s ahead ≥ 12
        #expect(buffer.nextSegment(in: timeline, at: Self.seconds(78)) == 19)
        buffer.add(Self.range(76, 80))
        #expect(buffer.nextSegment(in: timeline, at: Self.seconds(78)) == nil)  // nothing left to fetch
    }
}
