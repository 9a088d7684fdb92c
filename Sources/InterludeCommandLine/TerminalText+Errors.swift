import HLSPlaylist
import NetworkIO

extension TerminalText {
    /// An error as the command line prints it: for a ``PlaylistParseError``, its location and
    /// message, the excerpt escaped and the caret under the escaped column; for any other error,
    /// its description with control characters escaped (line feeds kept).
    static func describing(_ error: any Error) -> String {
        guard let error = error as? PlaylistParseError else { return escaped("\(error)", keepingNewlines: true) }
        let excerpt = Array(error.excerpt.utf8)
        let before = String(decoding: excerpt.prefix(max(0, error.column - 1)), as: UTF8.self)
        let caret = String(repeating: " ", count: escaped(before).count) + "^"
        let message = escaped("line \(error.line), column \(error.column): \(error.message) [\(error.kind.rawValue)]")
        return "\(message)\n    \(escaped(error.excerpt))\n    \(caret)"
    }
}
