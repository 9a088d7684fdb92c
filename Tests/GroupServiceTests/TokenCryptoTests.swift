import GroupCoordination
import GroupService
import Testing

@Suite("libcrypto under the tokens")
struct TokenCryptoTests {
    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    @Test("HMAC-SHA256 matches RFC 4231 test cases 1, 2 and 6", arguments: [
        (key: [UInt8](repeating: 0x0B, count: 20), data: Array("Hi There".utf8),
         tag: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
         tag: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (key: [UInt8](repeating: 0xAA, count: 131), data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         tag: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func rfc4231(vector: (key: [UInt8], data: [UInt8], tag: String)) {
        #expect(Self.hex(LibCrypto.hmacSHA256(key: vector.key, message: vector.data)) == vector.tag)
    }

    @Test("base64url round-trips every length and refuses padding, foreign symbols and non-canonical tails")
    func base64URL() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(Array(text.utf8)) == bytes)
        }
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        for refused in ["Zg==", "Zg=", "Z", "Zh", "Zm+v", "Zm/v", "Zm9v!", "Zm9v Y"] {
            #expect(Base64URL.decode(Array(refused.utf8)) == nil, "\(refused)")
        }
    }

    @Test("random token ids and secrets have their sizes and differ each time")
    func randomValues() {
        let ids = (0..<100).map { _ in InvitationClaims.randomTokenID() }
        let secrets = (0..<100).map { _ in InvitationClaims.randomSecret() }
        #expect(ids.allSatisfy { Base64URL.decode(Array($0.utf8))?.count == 12 })
        #expect(secrets.allSatisfy { Base64URL.decode(Array($0.utf8))?.count == 16 })
        #expect(Set(ids).count == 100 && Set(secrets).count == 100)
    }

    @Test("secrets compare equal only when every byte and the length match")
    func secretsMatch() {
        let secret = InvitationClaims.randomSecret()
        #expect(InvitationClaims.secretsMatch(secret, secret))
        #expect(!InvitationClaims.secretsMatch(secret, String(secret.dropLast())))
        #expect(!InvitationClaims.secretsMatch(secret, secret + "A"))
        #expect(!InvitationClaims.secretsMatch(secret, String(secret.dropLast()) + (secret.hasSuffix("A") ? "B" : "A")))
        #expect(!InvitationClaims.secretsMatch("", secret))
        #expect(InvitationClaims.secretsMatch("", ""))
    }

    @Test("a key's description names its id and never shows its secret")
    func keyDescription() {
        let key = TokenKey(id: "k1", secret: [UInt8](repeating: 0xAB, count: 32))
        #expect(String(describing: key) == "TokenKey(id: k1, secret: 32 bytes)")
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
