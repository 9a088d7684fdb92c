import Testing
import VideoPlayer

@Suite("VideoPlayerOptions")
struct VideoPlayerOptionsTests {
    @Test("a URL and options; a file path, a second URL or an unknown option is a usage error naming it")
    func parse() throws {
        guard case .run(let options) = try VideoPlayerOptions.parse(["--measure", "--stop-after", "2.5", "http://h/main.m3u8"]) else {
            Issue.record("not a run")
            return
        }
        #expect(options.output == .measure)
        #expect(options.stopAfter == .milliseconds(2500))
        #expect(try VideoPlayerOptions.parse(["-h"]) == .help)
        #expect(throws: VideoPlayerOptions.UsageError.self) { try VideoPlayerOptions.parse(["movie.m3u8"]) }
        #expect(throws: VideoPlayerOptions.UsageError.self) { try VideoPlayerOptions.parse(["--loud", "http://h/a.m3u8"]) }
        #expect(throws: VideoPlayerOptions.UsageError.self) { try VideoPlayerOptions.parse(["http://h/a.m3u8", "http://h/b.m3u8"]) }
    }
}
