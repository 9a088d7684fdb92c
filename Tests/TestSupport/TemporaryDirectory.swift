import Foundation

/// A directory of its own under the system's temporary directory, removed with the value.
public final class TemporaryDirectory {
    public let url: URL

    /// A new directory, named `prefix-UUID`.
    public init(prefix: String = "interlude-store") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the directory.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }
}
