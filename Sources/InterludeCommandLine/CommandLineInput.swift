import Foundation
import PlayerEngine

/// A playlist (or any resource) named on the command line: a file path, a `file://` URL or an
/// `http(s)://` URL. What it adds to the engine's ``HTTPResourceLoader``, which loads it (so that
/// the same limits hold: at most `maxBytes`, a playlist's limit by default; no data for 15 s or a
/// whole response over 60 s is a time-out): a path made a file URL, and messages for people when
/// there is nothing to load there.
enum CommandLineInput {
    /// The engine's playlist limit.
    static let defaultMaxBytes = PlayerConfiguration().maxPlaylistBytes

    /// One loader for the process, so that its session outlives every load made through it.
    private static let loader = HTTPResourceLoader()

    /// The first `maxBytes` bytes of the local file at `path` (a byte more tells a caller that
    /// the file is larger), with the messages `load` gives for a missing file, a directory or
    /// one that cannot be read; `kind` says what should have been given.
    static func readFile(_ path: String, atMost maxBytes: Int, kind: String) throws -> [UInt8] {
        try checkReadableFile(path, kind: kind)
        guard let file = FileHandle(forReadingAtPath: path), let data = try? file.read(upToCount: maxBytes) else {
            throw CommandFailure(message: "cannot read \(path)")
        }
        try? file.close()
        return Array(data)
    }

    /// Throws what is wrong with `path` as a file to read: missing, a directory, unreadable.
    private static func checkReadableFile(_ path: String, kind: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(message: "no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure(message: "\(path) is a directory; give \(kind)")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CommandFailure(message: "cannot read \(path)")
        }
    }

    /// The bytes of `location`, and the URI to resolve relative references against.
    static func load(_ location: String, maxBytes: Int = defaultMaxBytes) async throws -> (bytes: [UInt8], uri: String) {
        let url: String
        if location.hasPrefix("http://") || location.hasPrefix("https://") {
            guard URL(string: location) != nil else {
                throw CommandFailure(message: "'\(location)' is not a valid URL")
            }
            url = location
        } else {
            let path = location.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
            try checkReadableFile(path, kind: "a playlist file or URL")
            url = URL(fileURLWithPath: path).absoluteString
        }
        do throws(LoadError) {
            let loaded = try await loader.load(ResourceRequest(url: url, maxBytes: maxBytes))
            return (loaded.bytes, url.hasPrefix("file:") ? url : location)
        } catch {
            throw CommandFailure(message: "cannot load \(location): \(error.message)")
        }
    }
}
