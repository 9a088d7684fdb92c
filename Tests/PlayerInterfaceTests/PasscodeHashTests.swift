import PlayerInterface
import Testing

/// The stored passcode (S3.12): PBKDF2-HMAC-SHA256 under a salt, a versioned stored form.
@Suite("PasscodeHash")
struct PasscodeHashTests {
    static let salt: [UInt8] = Array(0..<16)

    @Test("the derived key is PBKDF2-HMAC-SHA256's, checked against the published test vector")
    func testVector() {
        // RFC 7914 §11: PBKDF2-HMAC-SHA256, P = "passwd", S = "salt", c = 1, dkLen = 64; the first 32 bytes.
        let hash = PasscodeHash(passcode: "passwd", salt: Array("salt".utf8), iterations: 1)
        #expect(hash.derivedKey == [
            0x55, 0xac, 0x04, 0x6e, 0x56, 0xe3, 0x08, 0x9f, 0xec, 0x16, 0x91, 0xc2, 0x25, 0x44, 0xb6, 0x05,
            0xf9, 0x41, 0x85, 0x21, 0x6d, 0xde, 0x04, 0x65, 0xe6, 0x8b, 0x9d, 0x57, 0xc2, 0x0d, 0xac, 0xbc,
        ])
    }

    @Test("the right passcode matches, a wrong one or a prefix does not")
    func matches() {
        let hash = PasscodeHash(passcode: "1234", salt: Self.salt, iterations: 1000)
        #expect(hash.matches("1234"))
        #expect(!hash.matches("1235"))
        #expect(!hash.matches("123"))
        #expect(!hash.matches(""))
    }

    @Test("each hash draws its own salt, so two hashes of one passcode differ and both match")
    func randomSalt() {
        let a = PasscodeHash(passcode: "1234", iterations: 1000)
        let b = PasscodeHash(passcode: "1234", iterations: 1000)
        #expect(a.salt.count == PasscodeHash.saltBytes)
        #expect(a.salt != b.salt)
        #expect(a.derivedKey != b.derivedKey)
        #expect(a.matches("1234") && b.matches("1234"))
    }

    @Test("the stored form is versioned text that reads back to the same hash (golden)")
    func storedForm() throws {
        let hash = PasscodeHash(passcode: "passwd", salt: Array("saltsaltsaltsalt".utf8), iterations: 1)
        // The key computed independently (Python's hashlib.pbkdf2_hmac).
        let golden = "pbkdf2-sha256$1$73616c7473616c7473616c7473616c74$"
            + "731b468a30a3ce7f2a23e6c859c9bfd574121bd99279c8ea84aabd70a5efcb29"
        #expect(hash.encoded == golden)
        let decoded = try PasscodeHash(encoded: golden)
        #expect(decoded == hash)
        #expect(decoded.matches("passwd"))
        #expect(!decoded.matches("passwe"))
    }

    @Test("a hostile stored form is refused with a reason, never a trap")
    func hostile() {
        let key = String(repeating: "ab", count: 32)
        let salt = String(repeating: "cd", count: 16)
        #expect(throws: PasscodeHash.DecodingError.malformed) { try PasscodeHash(encoded: "pbkdf2-sha256$1$\(salt)") }
        #expect(throws: PasscodeHash.DecodingError.unsupportedScheme) { try PasscodeHash(encoded: "md5$1$\(salt)$\(key)") }
        #expect(throws: PasscodeHash.DecodingError.iterationsOutOfRange) { try PasscodeHash(encoded: "pbkdf2-sha256$0$\(salt)$\(key)") }
        #expect(throws: PasscodeHash.DecodingError.iterationsOutOfRange) { try PasscodeHash(encoded: "pbkdf2-sha256$99999999999999999999$\(salt)$\(key)") }
        #expect(throws: PasscodeHash.DecodingError.badBytes) { try PasscodeHash(encoded: "pbkdf2-sha256$1$\(salt)$\(key.uppercased())") }
        #expect(throws: PasscodeHash.DecodingError.badBytes) { try PasscodeHash(encoded: "pbkdf2-sha256$1$cdcd$\(key)") }
        #expect(throws: PasscodeHash.DecodingError.badBytes) { try PasscodeHash(encoded: "pbkdf2-sha256$1$\(salt)$\(key)a") }
        #expect(throws: PasscodeHash.DecodingError.malformed) { try PasscodeHash(encoded: String(repeating: "$", count: 600)) }
    }
}
