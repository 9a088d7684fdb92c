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

    @Test("a playlist with a malformed tag plays, and the problem is reported once, not at every live reload")
    func malformedTagWarnsOnce() {
        let rig = PlaybackRig()
        // A live window of 4 s segments whose target duration is not a number.
        rig.loader.set("http://origin.test/live.m3u8") { elapsed in
            let last = 10 + Int(elapsed.components.seconds) / 4
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:four\n#EXT-X-MEDIA-SEQUENCE:\(last - 5)\n"
            for index in (last - 5)...last { text += "#EXTINF:4.0,\nseg-\(index).ts\n" }
            return Array(text.utf8)
        }
        rig.serveSegments((0..<100).map { "http://origin.test/seg-\($0).ts" })
        rig.player.replaceCurrentItem(with: PlayerItem(url: "http://origin.test/live.m3u8"))
        rig.player.play()
        rig.run(for: .seconds(60))
        let warnings = rig.events.compactMap { event -> String? in
            if case .warning(let message) = event.kind { return message }
            return nil
        }
        #expect(warnings == ["http://origin.test/live.m3u8 line 3: EXT-X-TARGETDURATION must be a decimal integer number of seconds; played anyway"])
        #expect(rig.loader.requests.filter { $0.url.hasSuffix("live.m3u8") }.count > 5)
        #expect(rig.player.currentTime > MediaTime(seconds: 40))
    }
}
