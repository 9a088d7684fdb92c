import Foundation

/// A file read as it grows: each call returns what was appended since the last.
final class GrowingFile {
    private let path: String
    private var handle: FileHandle?

    init(path: String) {
        self.path = path
    }

    /// The bytes written since the last call (none while the file does not exist yet).
    func readNew() -> [UInt8] {
        if handle == nil { handle = FileHandle(forReadingAtPath: path) }
        guard let handle, let data = try? handle.readToEnd() else { return [] }
        return Array(data)
    }

    deinit { try? handle?.close() }
}
