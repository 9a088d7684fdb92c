import Glibc

/// The key file: UTF-8 text, one key per line as `<key id> <secret in hex>` (spaces or tabs
/// between), blank lines and `#` comments ignored. The first key signs; every key verifies.
///
///     # Interlude invitation-token keys
///     k2 5f0c…64 hex digits…
///     k1 9a41…64 hex digits…      (the key being retired: still verifies, no longer signs)
///
/// To rotate, add a new first line and restart; remove the old line once every token it signed
/// has expired. The file must not be accessible to its group or others (`chmod 600`).
extension TokenKeyRing {
    /// The largest key file read.
    public static let maximumKeyFileBytes = 64 * 1024

    /// The ring in the key file at `path`. Refuses a file whose permission bits let its group
    /// or others read or write it, checked on the open file so it cannot change in between.
    public static func load(contentsOf path: String) throws(TokenKeyError) -> TokenKeyRing {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: Self.systemMessage()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path: path, reason: Self.systemMessage()) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        guard status.st_mode & 0o077 == 0 else { throw .insecurePermissions(path: path, mode: status.st_mode & 0o7777) }
        guard status.st_size <= maximumKeyFileBytes else { throw .keyFileTooLarge(path: path) }

        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .cannotRead(path: path, reason: Self.systemMessage()) }
            guard count > 0 else { break }
            contents += buffer[..<count]
            guard contents.count <= maximumKeyFileBytes else { throw .keyFileTooLarge(path: path) }
        }
        return try parseKeyFile(contents, path: path)
    }

    /// Creates a key file at `path` holding one new random key, with mode `0600`, and returns
    /// its ring. Never replaces an existing file (`keyFileExists`).
    public static func createKeyFile(at path: String) throws(TokenKeyError) -> TokenKeyRing {
        let key = TokenKey.random()
        let ring = try TokenKeyRing(keys: [key], signingKeyID: key.id)
        let text = """
            # Interlude invitation-token keys: one "<key id> <secret in hex>" per line. The first
            # signs, every one verifies. To rotate, add a new first line; remove the old line once
            # the tokens it signed have expired. Keep this file private (chmod 600).
            \(key.id) \(Hex.encode(key.secret))

            """
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw .keyFileExists(path: path) }
            throw .cannotWrite(path: path, reason: Self.systemMessage())
        }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = Self.systemMessage() }
        var bytes = ArraySlice(Array(text.utf8))
        while failure == nil, !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = Self.systemMessage()
                break
            }
            bytes = bytes.dropFirst(count)
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Self.systemMessage() }
        if close(descriptor) != 0, failure == nil { failure = Self.systemMessage() }
        if let failure {
            unlink(path)
            throw .cannotWrite(path: path, reason: failure)
        }
        return ring
    }

    /// The ring a key file's contents describe; `path` is for messages.
    package static func parseKeyFile(_ contents: [UInt8], path: String) throws(TokenKeyError) -> TokenKeyRing {
        var keys: [TokenKey] = []
        var seen: Set<String> = []
        for (index, line) in contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let fields = line.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            guard let first = fields.first, first.first != UInt8(ascii: "#") else { continue }
            guard fields.count == 2, let secret = Hex.decode(fields[1]) else {
                throw .malformedKeyLine(path: path, line: index + 1)
            }
            let key = TokenKey(id: String(decoding: first, as: UTF8.self), secret: secret)
            do throws(TokenKeyError) {
                try check(key)
                guard seen.insert(key.id).inserted else { throw .duplicateKeyID(key.id) }
            } catch {
                throw .invalidKeyFile(path: path, line: index + 1, reason: error)
            }
            keys.append(key)
        }
        do throws(TokenKeyError) {
            return try TokenKeyRing(keys: keys, signingKeyID: keys.first?.id ?? "")
        } catch {
            throw .invalidKeyFile(path: path, line: nil, reason: error)
        }
    }

    private static func systemMessage() -> String { String(cString: strerror(errno)) }
}
