import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads a playlist (or any resource) given on the command line: a file path, a `file://` URL or
/// an `http(s)://` URL.
enum ResourceLoader {
    /// The bytes of `location`, and the URI to resolve relative references against.
    static func load(_ location: String) async throws -> (bytes: [UInt8], uri: String) {
        if location.hasPrefix("http://") || location.hasPrefix("https://") {
            guard let url = URL(string: location) else {
                throw CommandFailure(message: "'\(location)' is not a valid URL")
            }
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await URLSession.shared.data(from: url)
            } catch {
                throw CommandFailure(message: "cannot load \(location): \(error.localizedDescription)")
            }
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                throw CommandFailure(message: "cannot load \(location): HTTP \(http.statusCode)")
            }
            return (Array(data), location)
        }
        let path = location.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(message: "no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure(message: "\(path) is a directory; give a playlist file or URL")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read \(path)")
        }
        return (Array(data), URL(fileURLWithPath: path).absoluteString)
    }
}
