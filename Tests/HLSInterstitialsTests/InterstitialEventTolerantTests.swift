import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// Issue 11, items 9, 10 and 16: what a tolerant reader makes of interstitials that are not quite
/// right, as the player and `timeline` see them.
@Suite("Interstitial events from imperfect playlists")
struct InterstitialEventTolerantTests {
    private static func events(_ text: String) throws -> (events: [InterstitialEvent], errors: [InterstitialEventError]) {
        let result = try PlaylistParser.parse(text, options: ParseOptions(mode: .lenient))
        let media = try #require(result.playlist.media)
        return InterstitialEvent.events(in: media)
    }

    @Test("an unquoted X-TIMELINE-OCCUPIES=RANGE still gives a break that fills its range")
    func unquotedOccupancyKeepsTheBreak() throws {
        let (events, errors) = try Self.events("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:06Z",DURATION=15,X-ASSET-URI="https://a/1.m3u8",X-TIMELINE-OCCUPIES=RANGE
            #EXTINF:6,
            a.ts
            #EXTINF:6,
            b.ts
            #EXT-X-ENDLIST

            """)
        #expect(errors.isEmpty)
        let event = try #require(events.first)
        #expect(event.identifier == "ad")
        #expect(event.timelineOccupancy == .fill)
        #expect(event.duration == MediaTime(seconds: 15))
    }

    @Test("a later tag that changes one attribute adds its others, keeps the first value, and is reported without dropping the event")
    func conflictingLaterTag() throws {
        let (events, errors) = try Self.events("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:06Z",PLANNED-DURATION=15,X-ASSET-LIST="ads.json"
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="ad",START-DATE="2026-11-30T05:00:06Z",PLANNED-DURATION=20,DURATION=12,X-RESUME-OFFSET=0
            #EXTINF:6,
            b.ts

            """)
        let event = try #require(events.first)
        #expect(event.plannedDuration == MediaTime(seconds: 15))
        #expect(event.duration == MediaTime(seconds: 12), "the later tag's new DURATION is used")
        #expect(event.resumptionOffset == .zero)
        #expect(errors.count == 1)
        #expect(errors.first?.keepsEvent == true)
        #expect(errors.first?.message.contains("PLANNED-DURATION from 15 to 20") == true, "\(errors)")
    }
}
