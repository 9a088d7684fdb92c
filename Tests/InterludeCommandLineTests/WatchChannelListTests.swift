import Foundation
import InterludeCommandLine
import PlayerInterface
import Testing

/// The channel file of `interlude watch --channels`: what it accepts, and each refusal with its
/// path, line, column and excerpt.
@Suite("WatchChannelList")
struct WatchChannelListTests {
    static func parse(_ text: String) throws(WatchChannelList.ParseError) -> WatchChannelList {
        try WatchChannelList(bytes: Array(text.utf8), path: "channels.tsv")
    }

    static func refusal(_ text: String) -> WatchChannelList.ParseError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("a good file: comments and blank lines skipped, CR LF accepted, titles trimmed, ratings by MPAA label or system|label|rank|, numbered from 1")
    func goodFile() throws {
        let list = try Self.parse("""
            # my channels
            News\thttp://127.0.0.1:8080/live/news/bob/main.m3u8

            Sports \thttps://example.com/sports.m3u8\tPG-13\r
            Late film\tfile:///srv/late/main.m3u8\tus-tv|TV-MA|600|
            """)
        #expect(list.entries == [
            .init(channel: Channel(id: "1", title: "News", url: "http://127.0.0.1:8080/live/news/bob/main.m3u8")),
            .init(channel: Channel(id: "2", title: "Sports", url: "https://example.com/sports.m3u8"), rating: .mpaaPG13),
            .init(channel: Channel(id: "3", title: "Late film", url: "file:///srv/late/main.m3u8"),
                  rating: ContentRating(system: "us-tv", label: "TV-MA", rank: 600)),
        ])
    }

    @Test("each malformed line is refused with its line, the column where the problem starts, the line itself and what is wrong",
          arguments: [
            ("News http://a/b.m3u8", 1, 21, WatchChannelList.ParseError.Reason.missingURL),
            ("# ok\n\thttp://a/b.m3u8", 2, 1, .emptyTitle),
            ("Ne\u{1B}[2Jws\thttp://a/b.m3u8", 1, 3, .controlCharacterInTitle),
            ("News\tftp://a/b.m3u8", 1, 6, .unsupportedURL),
            ("News\thttp:///b.m3u8", 1, 6, .unsupportedURL),
            ("News\thttp://a/b c.m3u8", 1, 6, .unsupportedURL),
            ("News\thttp://a/b.m3u8\tPG-14", 1, 22, .unknownRating),
            ("News\thttp://a/b.m3u8\tR\textra", 1, 24, .extraField),
          ])
    func malformedLine(text: String, line: Int, column: Int, reason: WatchChannelList.ParseError.Reason) throws {
        let error = try #require(Self.refusal(text))
        #expect(error.path == "channels.tsv")
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.reason == reason)
        #expect(error.excerpt == text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[line - 1])
        #expect(error.description.hasPrefix("channels.tsv:\(line):\(column): \(error.message)\n    "))
    }

    @Test("the message says what is wrong in words a user can act on")
    func messages() throws {
        let error = try #require(Self.refusal("News\thttp://a/b.m3u8\n\nSports\thttp://a/c.m3u8\tX"))
        #expect(error.description == """
            channels.tsv:3:24: the rating is neither an MPAA label (G, PG, PG-13, R, NC-17) nor system|label|rank|
                Sports\thttp://a/c.m3u8\tX
            """)
    }

    @Test("a file with no channel, or not UTF-8, is refused as a whole")
    func wholeFile() throws {
        #expect(Self.refusal("# only a comment\n\n")?.reason == .noChannels)
        #expect(Self.refusal("")?.reason == .noChannels)
        let error = try #require(throws: WatchChannelList.ParseError.self) {
            try WatchChannelList(bytes: Array("News\thttp://a/".utf8) + [0xFF, 0xFE], path: "channels.tsv")
        }
        #expect(error.reason == .notUTF8)
        #expect(error.line == nil)
        #expect(error.description == "channels.tsv: the channel file is not UTF-8 text")
    }

    @Test("the bounds: 1 MiB is read, one byte more is refused; 1,000 channels are read, the 1,001st is refused on its line")
    func bounds() throws {
        let line = "News\thttp://a/b.m3u8\n"
        var padding = "#" + String(repeating: "x", count: WatchChannelList.maximumBytes - line.utf8.count - 2) + "\n"
        #expect(try Self.parse(padding + line).entries.count == 1, "exactly 1 MiB")
        padding = "#" + padding
        #expect(Self.refusal(padding + line)?.reason == .tooLarge)
        let thousand = String(repeating: line, count: WatchChannelList.maximumChannels)
        #expect(try Self.parse(thousand).entries.count == 1_000)
        let error = try #require(Self.refusal(thousand + line))
        #expect(error.reason == .tooManyChannels)
        #expect(error.line == 1_001)
    }

    @Test("read(path:) reads at most a byte past the bound from disk, and names the file in its errors")
    func readsFromDisk() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-channels-\(UUID().uuidString).tsv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "News\thttp://a/b.m3u8\nbad line\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: WatchChannelList.ParseError.self) { try WatchChannelList.read(path: path) }
        #expect(error.path == path)
        #expect(error.line == 2)
        try Data(count: WatchChannelList.maximumBytes * 2).write(to: URL(fileURLWithPath: path))
        #expect(throws: WatchChannelList.ParseError(path: path, reason: .tooLarge)) { try WatchChannelList.read(path: path) }
    }
}
