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

    @Test("--join takes an invitation URL and --name, and makes the server's WebSocket URL of it; a bare token, a URL beside it or a missing name is a usage error")
    func join() throws {
        guard case .run(let options) = try VideoPlayerOptions.parse(["--join", "http://127.0.0.1:7400/join#v1.k1.abc", "--name", "vera", "--policy", "waiting", "--headless"]),
            case .join(let invitation) = options.source
        else {
            Issue.record("not a join")
            return
        }
        #expect(invitation.server == "ws://127.0.0.1:7400/group")
        #expect(invitation.token == "v1.k1.abc")
        #expect(invitation.name == "vera")
        #expect(invitation.policy == .waiting)
        #expect(options.output == .headless)
        guard case .run(let secure) = try VideoPlayerOptions.parse(["--join", "https://group.example:8443/join#t", "--name", "v"]), case .join(let tls) = secure.source else {
            Issue.record("not a join")
            return
        }
        #expect(tls.server == "wss://group.example:8443/group")
        #expect(tls.policy == .default)
        for arguments in [["--join", "v1.k1.abc", "--name", "vera"], ["--join", "http://h:1/join#t"], ["--join", "http://h:1/join#t", "--name", "v", "http://h/a.m3u8"],
                          ["--join", "http://h:1/join#", "--name", "v"], ["--join", "http://h:1/join#t", "--name", "v", "--policy", "never"], ["--name", "v", "http://h/a.m3u8"]] {
            #expect(throws: VideoPlayerOptions.UsageError.self, "\(arguments)") { try VideoPlayerOptions.parse(arguments) }
        }
    }
}
