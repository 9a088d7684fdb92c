internal import CCrypto

/// A parental passcode as it is stored (S3.12): never the passcode itself, but PBKDF2-HMAC-SHA256
/// (RFC 8018 §5.2) of it under a random salt, compared in constant time.
///
/// A short numeric passcode has few possible values, so the hash only slows down someone who
/// copied the stored form; the iteration count is what makes each guess cost.
///
/// Stored form, version 1: `pbkdf2-sha256$<iterations>$<salt, hex>$<key, hex>`, lower-case hex, a
/// salt of 16 to 64 bytes, a 32-byte key, 1 to 10 000 000 iterations.
public struct PasscodeHash: Sendable, Hashable {
    /// The iterations used unless told otherwise (the figure OWASP gives for PBKDF2-HMAC-SHA256).
    public static let defaultIterations = 600_000
    /// The salt's length in bytes when one is drawn.
    public static let saltBytes = 16
    static let keyBytes = 32
    static let prefix = "pbkdf2-sha256"

    /// The salt.
    public let salt: [UInt8]
    /// The PBKDF2 iteration count.
    public let iterations: Int
    /// The derived key.
    public let derivedKey: [UInt8]

    /// Hashes `passcode` under a fresh random salt from libcrypto's CSPRNG.
    public init(passcode: String, iterations: Int = defaultIterations) {
        self.init(passcode: passcode, salt: Self.randomSalt(), iterations: iterations)
    }

    /// Hashes `passcode` under `salt` (for reproducible tests and for checking a stored hash).
    ///
    /// - Precondition: `iterations` is positive.
    public init(passcode: String, salt: [UInt8], iterations: Int) {
        precondition(iterations > 0, "PBKDF2 needs at least one iteration")
        self.salt = salt
        self.iterations = iterations
        self.derivedKey = Self.derive(passcode, salt: salt, iterations: iterations)
    }

    private init(salt: [UInt8], iterations: Int, derivedKey: [UInt8]) {
        self.salt = salt
        self.iterations = iterations
        self.derivedKey = derivedKey
    }

    /// Whether `passcode` is the one hashed: derives its key under the same salt and iterations
    /// and compares the two keys in time that does not depend on where they differ.
    ///
    /// - Complexity: `iterations` HMAC-SHA256 computations.
    public func matches(_ passcode: String) -> Bool {
        let candidate = Self.derive(passcode, salt: salt, iterations: iterations)
        return candidate.withUnsafeBytes { a in
            derivedKey.withUnsafeBytes { b in a.count == b.count && CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// The stored form.
    public var encoded: String {
        "\(Self.prefix)$\(iterations)$\(Self.hex(salt))$\(Self.hex(derivedKey))"
    }

    /// Why a stored form was refused.
    public enum DecodingError: Error, Sendable, Hashable {
        /// Not four `$`-separated fields, or longer than 512 bytes.
        case malformed
        /// A scheme other than `pbkdf2-sha256`.
        case unsupportedScheme
        /// An iteration count outside 1 to 10 000 000.
        case iterationsOutOfRange
        /// Hex that is not lower-case, or a salt or key of the wrong length.
        case badBytes
    }

    /// Reads a stored form, checking every bound; never traps on a hostile value.
    public init(encoded text: String) throws(DecodingError) {
        guard text.utf8.count <= 512 else { throw .malformed }
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 4 else { throw .malformed }
        guard fields[0] == Self.prefix else { throw .unsupportedScheme }
        guard fields[1].count <= 8, fields[1].allSatisfy({ $0.isASCII && $0.isNumber }), let iterations = Int(fields[1]),
            (1...10_000_000).contains(iterations)
        else { throw .iterationsOutOfRange }
        guard let salt = Self.bytes(hex: fields[2]), (16...64).contains(salt.count),
            let key = Self.bytes(hex: fields[3]), key.count == Self.keyBytes
        else { throw .badBytes }
        self.init(salt: salt, iterations: iterations, derivedKey: key)
    }

    // MARK: libcrypto

    private static func derive(_ passcode: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: keyBytes)
        let password = Array(passcode.utf8)
        let result = password.withUnsafeBufferPointer { password in
            salt.withUnsafeBufferPointer { salt in
                key.withUnsafeMutableBufferPointer { key in
                    password.withMemoryRebound(to: CChar.self) { password in
                        PKCS5_PBKDF2_HMAC(password.baseAddress, Int32(password.count), salt.baseAddress, Int32(salt.count),
                                          Int32(clamping: iterations), EVP_sha256(), Int32(keyBytes), key.baseAddress)
                    }
                }
            }
        }
        // PKCS5_PBKDF2_HMAC fails only when libcrypto cannot allocate or has no SHA-256.
        precondition(result == 1, "libcrypto PBKDF2-HMAC-SHA256 failed")
        return key
    }

    private static func randomSalt() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: saltBytes)
        let result = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(saltBytes)) }
        precondition(result == 1, "libcrypto RAND_bytes failed")
        return bytes
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(hex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = digits.firstIndex(of: utf8[index]), let low = digits.firstIndex(of: utf8[index + 1]) else { return nil }
            bytes.append(UInt8(high << 4 | low))
            index += 2
        }
        return bytes
    }
}
