import Foundation
import PlayerInterface

/// The channel file of `interlude watch --channels FILE`: UTF-8 text, one channel per line,
///
///     # title<TAB>URL<TAB>rating (optional)
///     News	http://127.0.0.1:8080/live/channel/bob/main.m3u8
///     Late film	http://127.0.0.1:8080/live/channel/charlie/main.m3u8	R
///
/// a title (no control characters), a tab, an `http://`, `https://` or `file://` URL, and
/// optionally a tab and a rating as ``ContentRating/init(label:)`` reads it. Blank lines and lines
/// that start with `#` are skipped; a line may end in CR LF. The file holds at most
/// ``maximumBytes`` and ``maximumChannels``; a channel's ``Channel/id`` is its number in the list,
/// from 1.
package struct WatchChannelList: Sendable, Hashable {
    /// A channel and its rating (`nil`: unrated).
    package struct Entry: Sendable, Hashable {
        package var channel: Channel
        package var rating: ContentRating?

        package init(channel: Channel, rating: ContentRating? = nil) {
            self.channel = channel
            self.rating = rating
        }
    }

    /// Why a channel file was refused, and where.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package enum Reason: Sendable, Hashable {
            /// Longer than ``WatchChannelList/maximumBytes``.
            case tooLarge
            /// Not UTF-8.
            case notUTF8
            /// No channel lines at all.
            case noChannels
            /// More than ``WatchChannelList/maximumChannels`` channels.
            case tooManyChannels
            /// A line without a tab between the title and the URL.
            case missingURL
            /// A line whose title is empty.
            case emptyTitle
            /// A title with a control character (it would be written to the terminal).
            case controlCharacterInTitle
            /// A URL that is not `http://`, `https://` or `file://` with a host or path.
            case unsupportedURL
            /// A rating neither an MPAA label nor `system|label|rank|`.
            case unknownRating
            /// More than three tab-separated fields.
            case extraField
        }

        /// The file.
        package var path: String
        /// The line, from 1 (`nil`: the file as a whole).
        package var line: Int?
        /// The column where the problem starts, in characters from 1.
        package var column: Int?
        /// The line as it is in the file.
        package var excerpt: String?
        package var reason: Reason

        package init(path: String, line: Int? = nil, column: Int? = nil, excerpt: String? = nil, reason: Reason) {
            self.path = path
            self.line = line
            self.column = column
            self.excerpt = excerpt
            self.reason = reason
        }

        /// What is wrong, in words.
        package var message: String {
            switch reason {
            case .tooLarge: "the channel file is larger than \(WatchChannelList.maximumBytes) bytes"
            case .notUTF8: "the channel file is not UTF-8 text"
            case .noChannels: "the channel file lists no channel (one per line: title, a tab, the URL)"
            case .tooManyChannels: "more than \(WatchChannelList.maximumChannels) channels"
            case .missingURL: "no tab between the title and the URL"
            case .emptyTitle: "the title is empty"
            case .controlCharacterInTitle: "the title holds a control character"
            case .unsupportedURL: "the URL is not an http://, https:// or file:// URL"
            case .unknownRating: "the rating is neither an MPAA label (G, PG, PG-13, R, NC-17) nor system|label|rank|"
            case .extraField: "more than three fields (title, URL, rating)"
            }
        }

        /// `path:line:column: message`, then the excerpt.
        package var description: String {
            var location = path
            if let line { location += ":\(line)" }
            if let column { location += ":\(column)" }
            return "\(location): \(message)" + (excerpt.map { "\n    \($0)" } ?? "")
        }
    }

    package static let maximumBytes = 1 << 20
    package static let maximumChannels = 1_000

    /// The channels, in the file's order.
    package let entries: [Entry]

    /// Reads the file at `path` (at most ``maximumBytes`` of it are read).
    ///
    /// - Throws: ``ParseError``, or ``CommandFailure`` when the file cannot be read.
    package static func read(path: String) throws -> WatchChannelList {
        let bytes = try CommandLineInput.readFile(path, atMost: maximumBytes + 1, kind: "a channel file")
        return try WatchChannelList(bytes: bytes, path: path)
    }

    /// Parses a channel file's bytes; `path` names it in errors.
    ///
    /// - Complexity: O(n) in the file's length.
    package init(bytes: [UInt8], path: String) throws(ParseError) {
        guard bytes.count <= Self.maximumBytes else { throw ParseError(path: path, reason: .tooLarge) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ParseError(path: path, reason: .notUTF8) }
        var entries: [Entry] = []
        // CR LF is one Character: a line ends at either.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1
            func failure(_ reason: ParseError.Reason, column: Int) -> ParseError {
                ParseError(path: path, line: number, column: column, excerpt: String(line), reason: reason)
            }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            // The column where field `i` starts.
            func column(_ field: Int) -> Int { fields.prefix(field).reduce(1) { $0 + $1.count + 1 } }
            guard fields.count >= 2 else { throw failure(.missingURL, column: line.count + 1) }
            guard fields.count <= 3 else { throw failure(.extraField, column: column(3)) }
            let title = fields[0].trimmingSpaces
            guard !title.isEmpty else { throw failure(.emptyTitle, column: 1) }
            if let offset = fields[0].unicodeScalars.firstIndex(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                throw failure(.controlCharacterInTitle, column: fields[0].unicodeScalars[..<offset].count + 1)
            }
            let url = fields[1].trimmingSpaces
            guard Self.isSupported(url) else { throw failure(.unsupportedURL, column: column(1)) }
            var rating: ContentRating?
            if fields.count == 3, !fields[2].trimmingSpaces.isEmpty {
                guard let value = ContentRating(label: fields[2].trimmingSpaces) else { throw failure(.unknownRating, column: column(2)) }
                rating = value
            }
            guard entries.count < Self.maximumChannels else { throw failure(.tooManyChannels, column: 1) }
            entries.append(Entry(channel: Channel(id: "\(entries.count + 1)", title: title, url: url), rating: rating))
        }
        guard !entries.isEmpty else { throw ParseError(path: path, reason: .noChannels) }
        self.entries = entries
    }

    /// `http://host…`, `https://host…` or `file:///path`, without spaces or control characters.
    private static func isSupported(_ url: String) -> Bool {
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) else { return false }
        let lowercased = url.lowercased()
        for scheme in ["http://", "https://"] where lowercased.hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            return !(rest.first.map { $0 == "/" || $0 == ":" } ?? true)
        }
        return lowercased.hasPrefix("file:///")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
