#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Reads and writes whole files with the C library, so the benchmark needs no Foundation.
enum PlaylistFile {
    /// A file that could not be read or written.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the path and the system's reason.
        var description: String
    }

    /// The bytes of the file at `path`.
    ///
    /// - Complexity: O(n) in the size of the file.
    static func read(_ path: String) throws(Failure) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw failure("cannot open", path) }
        defer { fclose(file) }
        guard fseek(file, 0, SEEK_END) == 0 else { throw failure("cannot seek in", path) }
        let size = ftell(file)
        guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else { throw failure("cannot seek in", path) }
        var readCount = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            readCount = size == 0 ? 0 : fread(buffer.baseAddress, 1, size, file)
            initializedCount = readCount
        }
        guard readCount == size else { throw failure("cannot read", path) }
        return bytes
    }

    /// Replaces the file at `path` with `text`.
    static func write(_ text: String, to path: String) throws(Failure) {
        guard let file = fopen(path, "wb") else { throw failure("cannot create", path) }
        defer { fclose(file) }
        var text = text
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == text.utf8.count else { throw failure("cannot write", path) }
    }

    /// Creates the directory at `path` unless it exists.
    static func makeDirectory(_ path: String) throws(Failure) {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw failure("cannot create directory", path) }
    }

    /// The last path component: `data/live.m3u8` → `live.m3u8`.
    static func name(of path: String) -> String {
        String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path))
    }

    private static func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
