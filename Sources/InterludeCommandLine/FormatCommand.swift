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
            EXT-X-BITRATE only where they change. With --lenient the playlist is parsed leniently: what
            a strict parse rejects is reported on stderr as a warning, with its line, and the output is still
            the input, byte for byte (or the canonical form of what could be read, with --canonical).
            """,
        arguments: [.init(name: "playlist", help: "A playlist file path or an http(s):// URL.")],
        options: [
            .init(long: "canonical", short: nil, valueName: nil, help: "Rewrite in canonical form instead of verbatim."),
            .init(long: "lenient", short: nil, valueName: nil, help: "Read a malformed playlist too, warning about each problem."),
        ],
        examples: ["interlude format --canonical messy.m3u8 > clean.m3u8"]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let location = arguments.positionals[0]
        let (bytes, uri) = try await CommandLineInput.load(location)
        let playlist: Playlist
        let isLenient = arguments.flag("lenient")
        do {
            let result = try PlaylistParser.parse(bytes, options: ParseOptions(mode: isLenient ? .lenient : .strict, playlistURI: uri))
            playlist = result.playlist
            for diagnostic in result.diagnostics { io.writeError("\(location): warning: \(diagnostic)\n") }
        } catch {
            throw CommandFailure(message: "\(location): \(TerminalText.describing(error))")
        }
        if arguments.flag("canonical") {
            switch playlist {
            case .media(let media): io.write(media.canonicalText())
            case .multivariant(let multivariant): io.write(multivariant.canonicalText())
            }
        } else {
            // Bytes, not text: a playlist that is not valid UTF-8 is written back as it came.
            io.write(bytes: playlist.serialized())
        }
        return 0
    }
}
