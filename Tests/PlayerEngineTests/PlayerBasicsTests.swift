import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing
import VirtualTime

@Suite struct PlayerBasicsTests {
    @Test func vodPlaysToItsEndOnVirtualTime() {
        let rig = PlaybackRig()
        rig.serve("http://origin.test/main.m3u8", vodPlaylist(count: 5))
        rig.serveSegments((0..<5).map { "http://origin.test/seg-\($0).ts" })
        rig.player.replaceCurrentItem(with: PlayerItem(url: "http://origin.test/main.m3u8"))
        rig.player.play()
        #expect(rig.runToEnd())
        print(rig.trace().joined(separator: "\n"))
        #expect(rig.player.currentTime == MediaTime(seconds: 20))
    }
}
