/// What an invitation token says: who it admits to which session, with which role, and when.
/// A ``TokenKeyRing`` signs and verifies it.
public struct InvitationClaims: Sendable, Hashable {
    /// The session the token admits to.
    public var sessionID: String
    public var role: GroupRole
    /// The token's unique id (JWT's `jti`): 96 random bits, base64url. Revocation and single use
    /// are recorded against it.
    public var tokenID: String
    /// When the token was issued, in Unix seconds.
    public var issuedAt: Int64
    /// The token is refused before this time (Unix seconds), less the allowed clock skew.
    public var notBefore: Int64
    /// The token is refused from this time (Unix seconds), plus the allowed clock skew.
    public var expiresAt: Int64
    /// The URL of the stream the session plays, so that joining needs only the invitation.
    public var stream: String?

    public init(
        sessionID: String,
        role: GroupRole,
        tokenID: String,
        issuedAt: Int64,
        notBefore: Int64,
        expiresAt: Int64,
        stream: String? = nil
    ) {
        self.sessionID = sessionID
        self.role = role
        self.tokenID = tokenID
        self.issuedAt = issuedAt
        self.notBefore = notBefore
        self.expiresAt = expiresAt
        self.stream = stream
    }

    /// Claims for a new invitation, valid from `issuedAt` for `lifetimeSeconds`, with a fresh
    /// random ``tokenID``.
    public init(sessionID: String, role: GroupRole, issuedAt: Int64, lifetimeSeconds: Int64, stream: String? = nil) {
        self.init(
            sessionID: sessionID,
            role: role,
            tokenID: Self.randomTokenID(),
            issuedAt: issuedAt,
            notBefore: issuedAt,
            expiresAt: issuedAt + lifetimeSeconds,
            stream: stream
        )
    }

    /// A new token id: 96 bits from libcrypto's `RAND_bytes`, base64url (16 characters).
    public static func randomTokenID() -> String {
        Base64URL.encode(LibCrypto.randomBytes(12))
    }

    /// A new opaque secret, for example the resume secret a participant gets after joining:
    /// 128 bits from libcrypto's `RAND_bytes`, base64url (22 characters).
    public static func randomSecret() -> String {
        Base64URL.encode(LibCrypto.randomBytes(16))
    }

    /// Whether two secrets are equal, comparing their UTF-8 bytes in time that depends only on
    /// their lengths (`CRYPTO_memcmp`), so a guess's timing says nothing about how much of it
    /// was right. Secrets of different lengths are unequal.
    public static func secretsMatch(_ presented: String, _ expected: String) -> Bool {
        LibCrypto.constantTimeEqual(presented.utf8, expected.utf8)
    }
}
