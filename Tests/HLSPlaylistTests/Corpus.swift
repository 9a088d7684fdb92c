import Foundation
import HLSPlaylist

/// The playlists in `Corpus/`, read from the test bundle, with the parse options each one needs.
///
/// Files named `malformed-*` break the specification on purpose and are parsed leniently; every
/// other file is a valid playlist written from the examples of draft-pantos-hls-rfc8216bis.
enum Corpus {
    /// The URI the QUERYPARAM playlists are loaded from.
    static let queryPlaylistURI = "https://example.com/live/index.m3u8?token=abc%2F123&region=eu-west&session=s-42"
    /// The multivariant variables the IMPORT playlist is loaded with.
    static let importedVariables = ["base": "https://cdn.example.com/vod"]

    /// The corpus directory inside the test bundle.
    static let directory: URL = {
        guard let url = Bundle.module.url(forResource: "Corpus", withExtension: nil) else {
            fatalError("the test bundle has no Corpus directory")
        }
        return url
    }()

    /// Every playlist file name (without `.m3u8`), sorted.
    static let allNames: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".m3u8") }.map { String($0.dropLast(5)) }.sorted()
    }()

    /// The valid playlists.
    static var validNames: [String] { allNames.filter { !isMalformed($0) } }
    /// The playlists that break the specification on purpose.
    static var malformedNames: [String] { allNames.filter(isMalformed) }
    /// The valid media playlists.
    static var mediaNames: [String] { validNames.filter { $0.hasPrefix("media-") } }
    /// The valid multivariant playlists.
    static var multivariantNames: [String] { validNames.filter { $0.hasPrefix("multivariant-") } }

    static func isMalformed(_ name: String) -> Bool { name.hasPrefix("malformed-") }

    /// The file's bytes.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name + ".m3u8")))
    }

    /// The options a file is parsed with: lenient for malformed files, and the playlist URI or
    /// imported variables that its EXT-X-DEFINE tags need.
    static func options(for name: String, mode: ParseOptions.Mode? = nil) -> ParseOptions {
        ParseOptions(
            mode: mode ?? (isMalformed(name) ? .lenient : .strict),
            playlistURI: queryPlaylistURI,
            importedVariables: importedVariables
        )
    }

    /// Parses a file with its options.
    static func parse(_ name: String, mode: ParseOptions.Mode? = nil) throws -> ParseResult {
        try PlaylistParser.parse(try bytes(name), options: options(for: name, mode: mode))
    }

    /// Parses a file that must be a media playlist.
    static func media(_ name: String) throws -> MediaPlaylist {
        guard let playlist = try parse(name).playlist.media else {
            throw CorpusError(name: name, reason: "is not a media playlist")
        }
        return playlist
    }

    /// Parses a file that must be a multivariant playlist.
    static func multivariant(_ name: String) throws -> MultivariantPlaylist {
        guard let playlist = try parse(name).playlist.multivariant else {
            throw CorpusError(name: name, reason: "is not a multivariant playlist")
        }
        return playlist
    }
}

/// A corpus file is not what a test expected.
struct CorpusError: Error, CustomStringConvertible {
    var name: String
    var reason: String
    var description: String { "\(name).m3u8 \(reason)" }
}
