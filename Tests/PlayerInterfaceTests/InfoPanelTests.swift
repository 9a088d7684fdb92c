import HLSInterstitials
import MediaTime
import PlayerInterface
import Testing

/// The info panel (S3.10): metadata, rating, position and the break in progress.
@Suite("InfoPanel")
struct InfoPanelTests {
    static let info = NowPlayingInfo(title: "Interlude Movies", subtitle: "The Long Take", contentRating: .mpaaPG13)

    @Test("in primary content: title, subtitle, rating, elapsed over duration and the countdown")
    func primary() throws {
        let bar = TransportBar(snapshot: try Timeline.snapshot(TransportBarTests.tags, at: .primary(time("41.5"))))
        #expect(InfoPanel(info: Self.info, bar: bar).lines == [
            "Interlude Movies", "The Long Take", "Rated PG-13", "0:41 / 1:00  (-0:19)",
        ])
    }

    @Test("in a break: its countdown and whether it can be skipped now")
    func inBreak() throws {
        let open = TransportBar(snapshot: try Timeline.snapshot(TransportBarTests.tags, at: .interstitial(eventID: "ad", offset: time("6.5"))))
        #expect(InfoPanel(info: Self.info, bar: open).lines.last == "break \"ad\": -0:04, skip available")
        let locked = TransportBar(snapshot: try Timeline.snapshot(TransportBarStateMachineTests.skipTags, at: .interstitial(eventID: "locked", offset: time("1"))))
        #expect(InfoPanel(info: NowPlayingInfo(title: "x"), bar: locked).lines == ["x", "0:31 / 1:00  (-0:29)", "break \"locked\": -0:09, cannot be skipped"])
    }

    @Test("before the first snapshot only the metadata shows")
    func noBar() {
        #expect(InfoPanel(info: NowPlayingInfo(title: "News", summary: "Headlines"), bar: nil).lines == ["News", "Headlines"])
    }
}
