import InterludeCommandLine
import Testing

/// `interlude join`'s options, which `watch --join` shares: checked in-process, before any
/// connection.
@Suite("interlude join options")
struct JoinCommandOptionsTests {
    static let invitation = "http://127.0.0.1:7400/join#v1.k1.token"

    @Test("bad usage exits 64 with what is wrong and join's usage", arguments: [
        (["join", invitation, "--policy", "lazy"], "--policy must be default or waiting, not 'lazy'"),
        (["join", invitation, "--name", String(repeating: "a", count: 65)], "--name must be 1 to 64 bytes on one line"),
        (["join", "v1.k1.token"], "the invitation must be an http://HOST:PORT/join#TOKEN URL, or give --server with a bare token"),
        (["join", invitation, "--duration", "0"], "--duration must be a number of seconds up to a day"),
    ])
    func usage(arguments: [String], message: String) async {
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(arguments, io: io)
        #expect(code == 64)
        #expect(io.capturedError.contains(message), "\(io.capturedError)")
        #expect(io.capturedError.contains("See 'interlude join --help'"), "\(io.capturedError)")
    }

    @Test("--help lists the group options it shares with watch --join")
    func help() async {
        let result = await run("join", "--help")
        #expect(result.code == 0)
        for text in ["--name <name>", "--policy <policy>", "--server <url>", "--ca <file>", "--insecure", "--trace <file>", "--action <TIME:VERB[:ARG]>"] {
            #expect(result.out.contains(text), "\(text)")
        }
    }
}
