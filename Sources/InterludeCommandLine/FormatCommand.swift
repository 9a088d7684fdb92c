import HLSPlaylist
import NetworkIO

/// `interlude format`: writes a playlist back out.
enum FormatCommand: Subcommand {
    static let spec = CommandSpec(
        name: "format",
        abstract: "Write a playlist back out: byte for byte, or in canonical form with --canonical.",
        discussion: """
            Parses the playlist strictly and writes it to stdout. Without --canonical the output is the
            input, byte for byte (a check that the parser loses nothing); with --canonical the playlist is
            rewritten in Interlude's canonical form: header tags in a fixed order, attributes in
            specification order, EXTINF durations with at least three decimals, EXT-X-KEY / EXT-X-MAP /
            EXT-X-BITRATE only where they change.
            """,
        arguments: [.init(name: "playlist", help: "A playlist file path or an http(s):// URL.")],
        options: [
            .init(long: "canonical", short: nil, valueName: nil, help: "Rewrite in canonical form instead of verbatim."),
        ],
        examples: ["interlude format --canonical messy.m3u8 > clean.m3u8"]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let location = arguments.positionals[0]
        let (bytes, uri) = try await ResourceLoader.load(location)
        let playlist: Playlist
        do {
            playlist = try PlaylistParser.parse(bytes, options: ParseOptions(mode: .strict, playlistURI: uri)).playlist
        } catch {
            throw CommandFailure(message: "\(location): \(TerminalText.describing(error))")
        }
        if arguments.flag("canonical") {
            switch playlist {
            case .media(let media): io.write(media.canonicalText())
            case .multivariant(let multivariant): io.write(multivariant.canonicalText())
            }
        } else {
            io.write(String(decoding: playlist.serialized(), as: UTF8.self))
        }
        return 0
    }
}
