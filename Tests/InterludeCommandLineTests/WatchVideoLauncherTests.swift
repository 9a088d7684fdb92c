import InterludeCommandLine
import Testing

@Suite("WatchVideoLauncher")
struct WatchVideoLauncherTests {
    @Test("interlude-video is looked for beside interlude, then on PATH, then in the checkout's Video/.build")
    func candidates() {
        let found = WatchVideoLauncher.candidates(executablePath: "/src/interlude/.build/x86_64-unknown-linux-gnu/release/interlude", path: "/usr/local/bin:/usr/bin")
        #expect(found == [
            "/src/interlude/.build/x86_64-unknown-linux-gnu/release/interlude-video",
            "/usr/local/bin/interlude-video", "/usr/bin/interlude-video",
            "/src/interlude/Video/.build/release/interlude-video", "/src/interlude/Video/.build/debug/interlude-video",
        ])
        #expect(WatchVideoLauncher.candidates(executablePath: "/opt/bin/interlude", path: nil) == ["/opt/bin/interlude-video"])
    }

    @Test("the URL and --mute are passed through")
    func arguments() {
        #expect(WatchVideoLauncher.arguments(url: "http://h/main.m3u8", isMuted: true) == ["--mute", "http://h/main.m3u8"])
        #expect(WatchVideoLauncher.arguments(url: "http://h/main.m3u8", isMuted: false) == ["http://h/main.m3u8"])
    }
}
