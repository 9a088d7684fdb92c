import Foundation
import HLSInterstitials
import HLSPlaylist

enum ContentSchedule {
    /// The content playlist with a program date-time and two breaks: "ad", a 2.5 s point break at
    /// 21.3 s, and "promo", a 10 s range break at 40 s.
    static func make() throws -> InterstitialSchedule {
        let text = try String(contentsOfFile: PlayerWindowTests.content, encoding: .utf8)
        let date = "2026-01-01T00:00:"
        let tags = [
            "#EXT-X-PROGRAM-DATE-TIME:\(date)00.000Z",
            "#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)21.300Z\",DURATION=2.5,X-RESUME-OFFSET=0,X-ASSET-URI=\"ad.m3u8\"",
            "#EXT-X-DATERANGE:ID=\"promo\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)40.000Z\",DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"promo.m3u8\"",
        ]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            line.hasPrefix("#EXT-X-TARGETDURATION") ? [String(line)] + tags : [String(line)]
        }
        let playlist = try MediaPlaylist(parsing: lines.joined(separator: "\n"))
        return InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: InterstitialEvent.events(in: playlist).events)
    }
}
