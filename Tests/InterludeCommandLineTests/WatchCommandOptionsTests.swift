import Foundation
import InterludeCommandLine
import Testing

/// `interlude watch`'s options, checked before the terminal is taken: run in-process.
@Suite("interlude watch options")
struct WatchCommandOptionsTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-watch-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("bad usage exits 64 with what is wrong", arguments: [
        (["watch"], "missing argument <url-or-file>, or --channels FILE, or --join INVITATION"),
        (["watch", "--channels", "c.tsv", "http://a/b.m3u8"], "give one of a URL, --channels FILE and --join INVITATION"),
        (["watch", "--channels", "c.tsv", "--title", "T"], "--title names the one URL"),
        (["watch", "--channels", "c.tsv", "--rating", "R"], "--rating rates the one URL"),
        (["watch", "--rating", "PG-14", "http://a/b.m3u8"], "--rating 'PG-14' is not a rating"),
        (["watch", "--max-rating", "PG-13", "http://a/b.m3u8"], "--max-rating needs --passcode-file FILE"),
        (["watch", "--forbid", "http://a/b.m3u8"], "--forbid needs --max-rating LABEL"),
        (["watch", "--max-rating", "PG", "--forbid", "--passcode-file", "p", "http://a/b.m3u8"], "--forbid and --passcode-file exclude each other"),
        (["watch", "--make-passcode-hash", "http://a/b.m3u8"], "--make-passcode-hash takes no URL"),
    ])
    func usage(arguments: [String], message: String) async {
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(arguments, io: io)
        #expect(code == 64)
        #expect(io.capturedError.contains(message), "\(io.capturedError)")
    }

    static let invitation = "http://127.0.0.1:7400/join#v1.k1.token"

    @Test("--join: exactly one of a URL, --channels and --join; join's checks of the invitation, --name and --policy; no parental controls and no group options without it", arguments: [
        (["watch", "--join", invitation, "http://a/b.m3u8"], "give one of a URL, --channels FILE and --join INVITATION"),
        (["watch", "--join", invitation, "--channels", "c.tsv"], "give one of a URL, --channels FILE and --join INVITATION"),
        (["watch", "--join", invitation, "--channels", "c.tsv", "http://a/b.m3u8"], "give one of a URL, --channels FILE and --join INVITATION"),
        (["watch", "--join", invitation, "--policy", "lazy"], "--policy must be default or waiting, not 'lazy'"),
        (["watch", "--join", invitation, "--name", ""], "--name must be 1 to 64 bytes on one line"),
        (["watch", "--join", invitation, "--name", String(repeating: "é", count: 33)], "--name must be 1 to 64 bytes on one line"),
        (["watch", "--join", invitation, "--name", "bob\nalice"], "--name must be 1 to 64 bytes on one line"),
        (["watch", "--join", "v1.k1.token"], "the invitation must be an http://HOST:PORT/join#TOKEN URL, or give --server with a bare token"),
        (["watch", "--join", "ftp://127.0.0.1/join#t"], "the invitation must be an http://HOST:PORT/join#TOKEN URL"),
        (["watch", "--join", invitation, "--max-rating", "PG-13", "--forbid"], "parental controls rate what watch loads itself; with --join the group chooses the item"),
        (["watch", "--join", invitation, "--rating", "R"], "parental controls rate what watch loads itself"),
        (["watch", "--name", "bob", "http://a/b.m3u8"], "--name takes part in a group: give --join INVITATION"),
        (["watch", "--policy", "waiting", "--channels", "c.tsv"], "--policy takes part in a group: give --join INVITATION"),
        (["watch", "--insecure", "http://a/b.m3u8"], "--insecure takes part in a group: give --join INVITATION"),
    ])
    func joinUsage(arguments: [String], message: String) async {
        let io = CommandIO.capturing()
        let code = await InterludeCommand.run(arguments, io: io)
        #expect(code == 64)
        #expect(io.capturedError.contains(message), "\(io.capturedError)")
        #expect(io.capturedError.contains("interlude watch"), "the usage is watch's: \(io.capturedError)")
    }

    @Test("a malformed channel file exits 2 with its path, line and column, before any terminal is needed")
    func malformedChannelFile() async throws {
        let path = try Self.file("News\thttp://127.0.0.1/a.m3u8\nSports\tgopher://x\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = await run("watch", "--channels", path)
        #expect(result.code == 2)
        #expect(result.err.contains("\(path):2:8: the URL is not an http://, https:// or file:// URL"), "\(result.err)")
    }

    @Test("a passcode file that does not hold a hash exits 2 and says how to make one")
    func malformedPasscodeFile() async throws {
        let path = try Self.file("1234\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = await run("watch", "--max-rating", "PG-13", "--passcode-file", path, "http://127.0.0.1/a.m3u8")
        #expect(result.code == 2)
        #expect(result.err.contains("not a passcode hash"), "\(result.err)")
        #expect(result.err.contains("interlude watch --make-passcode-hash"), "\(result.err)")
    }

    @Test("--help teaches channels and parental controls: the file's format, the keys, the options and the exit status")
    func help() async {
        let result = await run("watch", "--help")
        #expect(result.code == 0)
        for text in ["--channels <FILE>", "n and p        the next or previous channel", "Loading channel 2 of 3: Sports", "--max-rating <LABEL>",
                     "--passcode-file <FILE>", "--forbid", "--make-passcode-hash", "3 when parental controls refuse the URL", "playerctl next"] {
            #expect(result.out.contains(text), "\(text)")
        }
    }

    @Test("--help teaches --join with an example: a session created, then watch --join with the viewer's invitation")
    func helpForJoin() async {
        let result = await run("watch", "--help")
        #expect(result.code == 0)
        for text in ["--join <INVITATION>", "--name <name>", "--policy <policy>", "--server <url>", "--ca <file>", "--insecure",
                     "interlude session create --server http://127.0.0.1:7400", "interlude watch --join \"$VIEWER_INVITATION\"",
                     "refused by the group", "the group waits for"] {
            #expect(result.out.contains(text), "\(text)")
        }
    }
}
