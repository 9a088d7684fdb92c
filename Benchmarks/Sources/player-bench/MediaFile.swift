#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Reads and writes whole files with the C library, so the benchmark needs no Foundation.
enum MediaFile {
    /// A file that could not be read or written.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the path and the system's reason.
        var description: String
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

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

    /// Replaces the file at `path` with `bytes`.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        guard let file = fopen(path, "wb") else { throw failure("cannot create", path) }
        defer { fclose(file) }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw failure("cannot write", path) }
    }

    /// Makes `path` a symbolic link to `target`, replacing a link already there.
    static func link(_ path: String, to target: String) throws(Failure) {
        _ = unlink(path)
        guard symlink(target, path) == 0 else { throw failure("cannot link \(target) at", path) }
    }

    /// Creates the directory at `path` and its missing parents.
    static func makeDirectories(_ path: String) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw failure("cannot create directory", prefix) }
        }
    }

    /// The absolute form of `path` (relative to the working directory).
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return directory + "/" + path
    }

    private static func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
