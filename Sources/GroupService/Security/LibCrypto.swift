internal import CCrypto

/// The calls GroupService makes into OpenSSL's libcrypto: HMAC-SHA256, random bytes and
/// constant-time comparison (group-service.md §4.3).
package enum LibCrypto {
    /// The length of an HMAC-SHA256 tag in bytes.
    package static let sha256TagBytes = 32

    /// HMAC-SHA256 (RFC 2104 over FIPS 180-4) of `message` under `key`, through the one-shot
    /// `HMAC()`. O(message).
    package static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                tag.withUnsafeMutableBufferPointer { tag in
                    HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, tag.baseAddress, &length)
                }
            }
        }
        // HMAC() fails only when libcrypto cannot allocate or has no SHA-256: nothing to go on.
        precondition(result != nil && Int(length) == sha256TagBytes, "libcrypto HMAC-SHA256 failed")
        return Array(tag.prefix(sha256TagBytes))
    }

    /// SHA-256 (FIPS 180-4) of `message`, through `EVP_Digest`. O(message).
    package static func sha256(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = message.withUnsafeBufferPointer { message in
            digest.withUnsafeMutableBufferPointer { digest in
                EVP_Digest(message.baseAddress, message.count, digest.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(result == 1 && Int(length) == sha256TagBytes, "libcrypto SHA-256 failed")
        return Array(digest.prefix(sha256TagBytes))
    }

    /// `count` bytes from libcrypto's CSPRNG (`RAND_bytes`). Traps if it reports failure, which
    /// OpenSSL 3 does only when the operating system's entropy source is unusable.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(result == 1, "libcrypto RAND_bytes failed")
        return bytes
    }

    /// Whether `a` and `b` hold the same bytes, in time that depends only on their lengths
    /// (`CRYPTO_memcmp`). Byte arrays of different lengths are unequal at once.
    package static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let a = Array(a)
        let b = Array(b)
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
