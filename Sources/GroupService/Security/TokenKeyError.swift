/// Why a key ring or its key file was refused.
public enum TokenKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    case noKeys
    /// More than ``TokenKeyRing/maximumKeys``.
    case tooManyKeys(count: Int)
    /// Not 1 to 32 characters of `A-Z a-z 0-9 - _`.
    case invalidKeyID(String)
    case duplicateKeyID(String)
    /// Shorter than ``TokenKey/minimumSecretBytes``.
    case secretTooShort(keyID: String, bytes: Int)
    /// The signing key id names none of the keys.
    case unknownSigningKey(String)
    /// The key file could not be opened or read; `reason` is the system's message.
    case cannotRead(path: String, reason: String)
    /// The key file may be read or written by its group or by others (`mode` is its permission
    /// bits); it must be `0600` or `0400`.
    case insecurePermissions(path: String, mode: UInt32)
    case notARegularFile(path: String)
    /// Larger than ``TokenKeyRing/maximumKeyFileBytes``.
    case keyFileTooLarge(path: String)
    /// A line that is neither blank, a `#` comment, nor `<key id> <secret in hex>`.
    case malformedKeyLine(path: String, line: Int)
    /// The key on `line` (or, without a line, the file as a whole) cannot be in a ring.
    indirect case invalidKeyFile(path: String, line: Int?, reason: TokenKeyError)
    /// ``TokenKeyRing/createKeyFile(at:)`` never replaces a file.
    case keyFileExists(path: String)
    /// The new key file could not be written; `reason` is the system's message.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .noKeys: "the key ring has no keys"
        case .tooManyKeys(let count): "the key ring has \(count) keys, more than \(TokenKeyRing.maximumKeys)"
        case .invalidKeyID(let id): "invalid key id \"\(id)\": use 1 to \(TokenKey.maximumIDCharacters) characters of A-Z a-z 0-9 - _"
        case .duplicateKeyID(let id): "key id \(id) appears twice"
        case .secretTooShort(let id, let bytes): "key \(id) has a \(bytes)-byte secret; at least \(TokenKey.minimumSecretBytes) are needed"
        case .unknownSigningKey(let id): "the signing key \(id) is not in the key ring"
        case .cannotRead(let path, let reason): "cannot read the key file \(path): \(reason)"
        case .insecurePermissions(let path, let mode):
            "the key file \(path) is accessible to others (mode \(String(mode, radix: 8))); run `chmod 600 \(path)`"
        case .notARegularFile(let path): "the key file \(path) is not a regular file"
        case .keyFileTooLarge(let path): "the key file \(path) is larger than \(TokenKeyRing.maximumKeyFileBytes) bytes"
        case .malformedKeyLine(let path, let line): "\(path):\(line): expected \"<key id> <secret in hex>\""
        case .invalidKeyFile(let path, let line, let reason): "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        case .keyFileExists(let path): "the key file \(path) already exists; it is never replaced"
        case .cannotWrite(let path, let reason): "cannot write the key file \(path): \(reason)"
        }
    }
}
