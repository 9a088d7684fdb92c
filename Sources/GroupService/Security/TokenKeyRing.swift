/// The keys invitation tokens are signed and verified with: one signs, every one verifies, so
/// a key can be rotated without refusing the tokens already handed out (group-service.md §4.4).
///
/// A token is `v1.<key id>.<payload>.<tag>`: the version, the signing key's id, the claims as
/// base64url JSON (see ``InvitationClaims``) and the base64url HMAC-SHA256 of everything before
/// the last dot. Verification looks at the size first, then the shape, the key and the tag
/// (compared in constant time), and parses JSON only once the tag has matched.
///
///     let ring = try TokenKeyRing.load(contentsOf: "/etc/interlude/token-keys")
///     let token = ring.sign(InvitationClaims(sessionID: id, role: .viewer, issuedAt: now, lifetimeSeconds: 600))
///     let claims = try ring.verify(token, now: now, expectedSession: id)
public struct TokenKeyRing: Sendable {
    /// Every key, the signing key among them, in the order given.
    public let keys: [TokenKey]
    /// The id of the key new tokens are signed with.
    public let signingKeyID: String
    private let signingIndex: Int

    /// The longest token verified; longer ones are refused before any other work.
    public static let maximumTokenBytes = 2048
    /// The most keys a ring holds: the signing key and the ones it is replacing.
    public static let maximumKeys = 4
    /// How far the verifier's clock may be from the issuer's: a token is accepted from
    /// `notBefore - 30` until just before `expiresAt + 30`.
    public static let allowedClockSkewSeconds: Int64 = 30
    /// The version prefix of the tokens this ring makes and reads.
    public static let version = "v1"

    /// A ring of 1 to ``maximumKeys`` keys with distinct valid ids and secrets of at least
    /// ``TokenKey/minimumSecretBytes``, signing with the one named `signingKeyID`.
    public init(keys: [TokenKey], signingKeyID: String) throws(TokenKeyError) {
        guard !keys.isEmpty else { throw .noKeys }
        guard keys.count <= Self.maximumKeys else { throw .tooManyKeys(count: keys.count) }
        var seen: Set<String> = []
        for key in keys {
            try Self.check(key)
            guard seen.insert(key.id).inserted else { throw .duplicateKeyID(key.id) }
        }
        guard let signingIndex = keys.firstIndex(where: { $0.id == signingKeyID }) else {
            throw .unknownSigningKey(signingKeyID)
        }
        self.keys = keys
        self.signingKeyID = signingKeyID
        self.signingIndex = signingIndex
    }

    /// Throws when `key` cannot be in a ring, whatever the other keys.
    static func check(_ key: TokenKey) throws(TokenKeyError) {
        guard TokenKey.isValidID(key.id.utf8) else { throw .invalidKeyID(key.id) }
        guard key.secret.count >= TokenKey.minimumSecretBytes else {
            throw .secretTooShort(keyID: key.id, bytes: key.secret.count)
        }
    }

    public var signingKey: TokenKey { keys[signingIndex] }

    /// A token carrying `claims`, signed with the signing key. ``verify(_:now:expectedSession:)``
    /// refuses a token longer than ``maximumTokenBytes``: with ids of the usual sizes that
    /// leaves about 1.3 KB for the stream URL, so bound it where it is accepted
    /// (``isWithinSizeLimit(_:)`` tells).
    public func sign(_ claims: InvitationClaims) -> String {
        let key = signingKey
        let signed = Array("\(Self.version).\(key.id).\(Base64URL.encode(claims.payload))".utf8)
        let tag = LibCrypto.hmacSHA256(key: key.secret, message: signed)
        return String(decoding: signed, as: UTF8.self) + "." + Base64URL.encode(tag)
    }

    /// Whether the token for `claims` is short enough to be verified, whichever key signs it.
    public static func isWithinSizeLimit(_ claims: InvitationClaims) -> Bool {
        let tagCharacters = 43
        let length = version.utf8.count + 1 + TokenKey.maximumIDCharacters + 1
            + (claims.payload.count * 4 + 2) / 3 + 1 + tagCharacters
        return length <= maximumTokenBytes
    }

    /// The claims of `token` if one of the keys signed it, it is valid at `now` (Unix seconds,
    /// give or take ``allowedClockSkewSeconds``) and, when `expectedSession` is given, it admits
    /// to that session. Whether its ``InvitationClaims/tokenID`` was revoked or already used is
    /// for the caller to check. Never traps, whatever `token` holds. O(token), at most 2 KiB.
    public func verify(_ token: String, now: Int64, expectedSession: String? = nil) throws(InvitationTokenError) -> InvitationClaims {
        let length = token.utf8.count
        guard length <= Self.maximumTokenBytes else { throw .tooLarge(bytes: length) }
        let bytes = Array(token.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 3 else { throw .malformed }
        let version = bytes[..<dots[0]]
        let keyID = bytes[(dots[0] + 1)..<dots[1]]
        let payload = bytes[(dots[1] + 1)..<dots[2]]
        let tag = bytes[(dots[2] + 1)...]

        guard version.elementsEqual(Self.version.utf8) else {
            guard Self.looksLikeVersion(version) else { throw .malformed }
            throw .unsupportedVersion(String(decoding: version, as: UTF8.self))
        }
        guard TokenKey.isValidID(keyID) else { throw .malformed }
        let id = String(decoding: keyID, as: UTF8.self)
        guard let key = keys.first(where: { $0.id == id }) else { throw .unknownKey(id) }
        guard let presented = Base64URL.decode(tag), presented.count == LibCrypto.sha256TagBytes else { throw .malformed }
        let expected = LibCrypto.hmacSHA256(key: key.secret, message: Array(bytes[..<dots[2]]))
        guard LibCrypto.constantTimeEqual(presented, expected) else { throw .badSignature }

        guard let json = Base64URL.decode(payload) else { throw .malformed }
        let claims = try InvitationClaims(payload: json)
        guard claims.notBefore <= Self.saturatingAdd(now, Self.allowedClockSkewSeconds) else { throw .notYetValid }
        guard claims.expiresAt > Self.saturatingAdd(now, -Self.allowedClockSkewSeconds) else { throw .expired }
        if let expectedSession, claims.sessionID != expectedSession { throw .wrongSession }
        return claims
    }

    /// `v` and one to four digits.
    private static func looksLikeVersion(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.first == UInt8(ascii: "v") && (2...5).contains(bytes.count)
            && bytes.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func saturatingAdd(_ value: Int64, _ delta: Int64) -> Int64 {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        guard overflow else { return sum }
        return delta > 0 ? .max : .min
    }
}
