import GroupCoordination
import GroupService
import TestSupport
import Testing

@Suite("Invitation tokens")
struct TokenKeyRingTests {
    static let now: Int64 = 1_700_000_000
    static let oldKey = TokenKey(id: "k1", secret: Array(repeating: 0x11, count: 32))
    static let newKey = TokenKey(id: "k2", secret: Array(repeating: 0x22, count: 48))

    static func ring(_ keys: [TokenKey] = [oldKey], signing: String = "k1") throws -> TokenKeyRing {
        try TokenKeyRing(keys: keys, signingKeyID: signing)
    }

    static func claims(stream: String? = "https://cdn.example/live/main.m3u8") -> InvitationClaims {
        InvitationClaims(
            sessionID: "s-4f1a", role: .controller, tokenID: "AAECAwQFBgcICQoL",
            issuedAt: now, notBefore: now, expiresAt: now + 600, stream: stream
        )
    }

    /// A token over `payload` with a correct tag, as a signer that writes other JSON would make.
    static func signedByHand(_ payload: String, key: TokenKey = oldKey) -> String {
        let signed = "v1.\(key.id).\(Base64URL.encode(Array(payload.utf8)))"
        return signed + "." + Base64URL.encode(LibCrypto.hmacSHA256(key: key.secret, message: Array(signed.utf8)))
    }

    @Test("the token format is fixed: v1, the key id, base64url JSON with fixed names, base64url HMAC")
    func golden() throws {
        let token = try Self.ring().sign(Self.claims())
        // Made independently: the JSON through `basenc --base64url`, the tag with
        // `openssl dgst -sha256 -mac HMAC -macopt hexkey:1111…11 -binary | basenc --base64url`.
        #expect(token == """
            v1.k1.eyJzaWQiOiJzLTRmMWEiLCJyb2xlIjoiY29udHJvbGxlciIsImp0aSI6IkFBRUNBd1FGQmdjSUNRb0wiLCJpYXQiOjE3MDAwMDAwMDAsIm5iZiI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAwNjAwLCJzdHJlYW0iOiJodHRwczovL2Nkbi5leGFtcGxlL2xpdmUvbWFpbi5tM3U4In0.ROxqlBhFxHE-j88lkPjtiMnolaUPgiNgOGb-qnxQUTI
            """)
        #expect(String(decoding: Self.claims().payload, as: UTF8.self) == #"{"sid":"s-4f1a","role":"controller","jti":"AAECAwQFBgcICQoL","iat":1700000000,"nbf":1700000000,"exp":1700000600,"stream":"https://cdn.example/live/main.m3u8"}"#)
    }

    @Test("signed claims verify back unchanged, with or without a stream and whatever their strings hold")
    func roundTrip() throws {
        let ring = try Self.ring()
        var odd = Self.claims(stream: "https://h/\"quoted\"\\back\u{01}\ttab/día/🎬")
        odd.sessionID = "line\nbreak \u{7F}"
        odd.role = .owner
        for claims in [Self.claims(), Self.claims(stream: nil), odd] {
            let token = ring.sign(claims)
            #expect(try ring.verify(token, now: Self.now, expectedSession: claims.sessionID) == claims)
            #expect(try ring.verify(token, now: Self.now) == claims)
        }
        let fresh = InvitationClaims(sessionID: "s", role: .viewer, issuedAt: Self.now, lifetimeSeconds: 600)
        #expect(fresh.notBefore == Self.now && fresh.expiresAt == Self.now + 600 && fresh.tokenID.utf8.count == 16)
        #expect(try ring.verify(ring.sign(fresh), now: Self.now) == fresh)
    }

    @Test("changing any one character of a token gets it refused, never accepted and never a trap")
    func everyCharacterMatters() throws {
        let ring = try Self.ring()
        let token = Array(ring.sign(Self.claims()).utf8)
        let replacements = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ".utf8) + [0x00, 0xC3]
        var refusals: Set<InvitationTokenError> = []
        for index in token.indices {
            for replacement in replacements where replacement != token[index] {
                var altered = token
                altered[index] = replacement
                let text = String(decoding: altered, as: UTF8.self)
                do {
                    _ = try ring.verify(text, now: Self.now)
                    Issue.record("accepted with byte \(index) replaced: \(text)")
                } catch {
                    refusals.insert(error)
                }
            }
        }
        let kinds = Set(refusals.map { error -> String in
            switch error {
            case .malformed: "malformed"
            case .badSignature: "badSignature"
            case .unknownKey: "unknownKey"
            case .unsupportedVersion: "unsupportedVersion"
            default: "other: \(error)"
            }
        })
        #expect(kinds == ["malformed", "badSignature", "unknownKey", "unsupportedVersion"])
    }

    @Test("a token is valid from 30 s before notBefore until 30 s after expiresAt, exclusive")
    func clockSkewEdges() throws {
        let ring = try Self.ring()
        let token = ring.sign(Self.claims())
        let notBefore = Self.claims().notBefore
        let expiresAt = Self.claims().expiresAt
        #expect(throws: InvitationTokenError.notYetValid) { try ring.verify(token, now: notBefore - 31) }
        #expect(try ring.verify(token, now: notBefore - 30) == Self.claims())
        #expect(try ring.verify(token, now: expiresAt + 29) == Self.claims())
        #expect(throws: InvitationTokenError.expired) { try ring.verify(token, now: expiresAt + 30) }
        #expect(throws: InvitationTokenError.expired) { try ring.verify(token, now: .max) }
        #expect(throws: InvitationTokenError.notYetValid) { try ring.verify(token, now: .min) }
    }

    @Test("extreme times in the claims are compared without overflow")
    func extremeTimes() throws {
        let ring = try Self.ring()
        var claims = Self.claims()
        claims.notBefore = .min
        claims.expiresAt = .max
        #expect(try ring.verify(ring.sign(claims), now: Self.now) == claims)
        claims.notBefore = .max
        #expect(throws: InvitationTokenError.notYetValid) { try ring.verify(ring.sign(claims), now: Self.now) }
        claims.notBefore = .min
        claims.expiresAt = .min
        #expect(throws: InvitationTokenError.expired) { try ring.verify(ring.sign(claims), now: .min) }
    }

    @Test("a token from a key the ring does not hold is refused by its key id; same id, other secret, by its signature")
    func foreignKeys() throws {
        let token = try Self.ring().sign(Self.claims())
        #expect(throws: InvitationTokenError.unknownKey("k1")) { try Self.ring([Self.newKey], signing: "k2").verify(token, now: Self.now) }
        let impostor = try Self.ring([TokenKey(id: "k1", secret: Array(repeating: 0x99, count: 32))])
        #expect(throws: InvitationTokenError.badSignature) { try impostor.verify(token, now: Self.now) }
    }

    @Test("a token for another session is refused when the session is given")
    func wrongSession() throws {
        let ring = try Self.ring()
        let token = ring.sign(Self.claims())
        #expect(throws: InvitationTokenError.wrongSession) { try ring.verify(token, now: Self.now, expectedSession: "s-other") }
        #expect(throws: InvitationTokenError.wrongSession) { try ring.verify(token, now: Self.now, expectedSession: "") }
    }

    @Test("a token over 2 KiB is refused for its size before anything else, and claims that would make one are told apart")
    func oversized() throws {
        let ring = try Self.ring()
        let token = ring.sign(Self.claims())
        let padded = token + String(repeating: "A", count: TokenKeyRing.maximumTokenBytes + 1 - token.utf8.count)
        #expect(throws: InvitationTokenError.tooLarge(bytes: 2049)) { try ring.verify(padded, now: Self.now) }
        let huge = String(repeating: ".", count: 8 << 20)
        #expect(throws: InvitationTokenError.tooLarge(bytes: 8 << 20)) { try ring.verify(huge, now: Self.now) }
        let tooLong = Self.claims(stream: "https://cdn.example/" + String(repeating: "x", count: 1500))
        #expect(!TokenKeyRing.isWithinSizeLimit(tooLong))
        #expect(throws: InvitationTokenError.tooLarge(bytes: ring.sign(tooLong).utf8.count)) { try ring.verify(ring.sign(tooLong), now: Self.now) }
        let fits = Self.claims(stream: "https://cdn.example/" + String(repeating: "x", count: 1200))
        #expect(TokenKeyRing.isWithinSizeLimit(fits))
        #expect(try ring.verify(ring.sign(fits), now: Self.now) == fits)
        // The estimate allows for the longest key id, and is exact otherwise.
        for count in 1250...1300 {
            let claims = Self.claims(stream: String(repeating: "y", count: count))
            let longestID = try Self.ring([TokenKey(id: String(repeating: "k", count: 32), secret: Self.oldKey.secret)], signing: String(repeating: "k", count: 32))
            #expect(TokenKeyRing.isWithinSizeLimit(claims) == (longestID.sign(claims).utf8.count <= TokenKeyRing.maximumTokenBytes))
        }
    }

    @Test("after rotation old tokens still verify, new ones are signed with the new key, and retiring the old key ends them")
    func rotation() throws {
        let before = try Self.ring()
        let oldToken = before.sign(Self.claims())
        let rotated = try Self.ring([Self.newKey, Self.oldKey], signing: "k2")
        let newToken = rotated.sign(Self.claims())
        #expect(newToken.hasPrefix("v1.k2."))
        #expect(try rotated.verify(oldToken, now: Self.now) == Self.claims())
        #expect(try rotated.verify(newToken, now: Self.now) == Self.claims())
        #expect(throws: InvitationTokenError.unknownKey("k2")) { try before.verify(newToken, now: Self.now) }
        let retired = try Self.ring([Self.newKey], signing: "k2")
        #expect(throws: InvitationTokenError.unknownKey("k1")) { try retired.verify(oldToken, now: Self.now) }
    }

    @Test("a ring refuses no keys, too many, duplicate or invalid ids, short secrets and a missing signing key")
    func ringChecks() {
        let key = Self.oldKey
        #expect(throws: TokenKeyError.noKeys) { try TokenKeyRing(keys: [], signingKeyID: "k1") }
        let five = (1...5).map { TokenKey(id: "k\($0)", secret: key.secret) }
        #expect(throws: TokenKeyError.tooManyKeys(count: 5)) { try TokenKeyRing(keys: five, signingKeyID: "k1") }
        #expect(throws: TokenKeyError.duplicateKeyID("k1")) { try TokenKeyRing(keys: [key, key], signingKeyID: "k1") }
        #expect(throws: TokenKeyError.invalidKeyID("k.1")) { try TokenKeyRing(keys: [TokenKey(id: "k.1", secret: key.secret)], signingKeyID: "k.1") }
        #expect(throws: TokenKeyError.invalidKeyID("")) { try TokenKeyRing(keys: [TokenKey(id: "", secret: key.secret)], signingKeyID: "") }
        #expect(throws: TokenKeyError.secretTooShort(keyID: "k1", bytes: 31)) {
            try TokenKeyRing(keys: [TokenKey(id: "k1", secret: Array(key.secret.dropLast()))], signingKeyID: "k1")
        }
        #expect(throws: TokenKeyError.unknownSigningKey("k9")) { try TokenKeyRing(keys: [key], signingKeyID: "k9") }
    }

    @Test("a correctly signed payload is still refused unless it is exactly the expected JSON", arguments: [
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1}"#,                                    // no exp
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2,"exp":3}"#,                    // repeated
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2,"admin":true}"#,               // unknown
        #"{"sid":"s","role":"root","jti":"j","iat":1,"nbf":1,"exp":2}"#,                              // unknown role
        #"{"sid":"","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2}"#,                             // empty session
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":9223372036854775808}"#,          // overflow
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2.5}"#,                          // fraction
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":01,"exp":2}"#,                           // leading zero
        #"{"sid":"s","role":"viewer","jti":"j","iat":"1","nbf":1,"exp":2}"#,                          // string for integer
        #"{"sid":"\ud800","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2}"#,                       // lone surrogate
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2} x"#,                          // trailing bytes
        #"{"sid":"s","role":"viewer","jti":"j","iat":1,"nbf":1,"exp":2,}"#,                           // trailing comma
        "[1]", "", "{", "\"s\"",
    ])
    func strictPayload(payload: String) throws {
        #expect(throws: InvitationTokenError.malformed) { try Self.ring().verify(Self.signedByHand(payload), now: 1) }
    }

    @Test("a payload with whitespace and escapes another writer might produce is read")
    func lenientWhitespace() throws {
        let payload = #" { "exp" : 2 , "nbf":-1, "iat":0, "jti":"j", "role":"owner", "sid":"s\u00e9\ud83c\udfac\/\n" } "#
        let claims = try Self.ring().verify(Self.signedByHand(payload), now: 1)
        #expect(claims == InvitationClaims(sessionID: "sé🎬/\n", role: .owner, tokenID: "j", issuedAt: 0, notBefore: -1, expiresAt: 2))
    }

    @Test("random garbage and mangled tokens are refused without trapping (seeded)")
    func garbage() throws {
        var random = SeededGenerator(seed: 0x7043_4E53)
        let ring = try Self.ring([Self.newKey, Self.oldKey], signing: "k2")
        let valid = Array(ring.sign(Self.claims()).utf8)
        let symbols = Array("v1.k2AZaz09-_=+/ \"{}:,\\".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for round in 0..<8_000 {
            var bytes: [UInt8]
            switch round % 4 {
            case 0:
                bytes = (0..<Int.random(in: 0...2100, using: &random)).map { _ in random.pick(symbols) }
            case 1:
                bytes = Array("v1.k2.".utf8) + (0..<Int.random(in: 0...300, using: &random)).map { _ in random.pick(symbols) }
            case 2:
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    if random.chance(0.5) { bytes[index] = random.pick(symbols) } else { bytes.insert(random.pick(symbols), at: index) }
                }
            default:
                // Random JSON-ish payloads with a correct tag reach the payload reader.
                let pieces = [#"{"#, #"}"#, #"""#, #":"#, #","#, #""sid""#, #""role""#, #""exp""#, #""viewer""#, "1", "-", #"\u"#, #"\ud83c"#, " ", "9999999999999999999"]
                let payload = (0..<Int.random(in: 0...40, using: &random)).map { _ in random.pick(pieces) }.joined()
                bytes = Array(Self.signedByHand(payload, key: Self.newKey).utf8)
            }
            if bytes == valid { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(throws: InvitationTokenError.self, "round \(round): \(text.prefix(80))") { try ring.verify(text, now: Self.now) }
        }
    }
}
