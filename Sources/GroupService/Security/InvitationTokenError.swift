/// Why an invitation token was refused, in the order ``TokenKeyRing/verify(_:now:expectedSession:)``
/// checks: size, shape, key, signature, payload, time, session (then, by the caller, revocation).
public enum InvitationTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Longer than ``TokenKeyRing/maximumTokenBytes``; nothing else was looked at.
    case tooLarge(bytes: Int)
    /// Not `v1.<key id>.<payload>.<tag>` with base64url parts, or (after the signature matched)
    /// a payload that is not the expected JSON.
    case malformed
    /// A version prefix other than `v1`.
    case unsupportedVersion(String)
    /// Signed with a key the ring does not hold (retired, or never ours).
    case unknownKey(String)
    /// The HMAC does not match: the token was altered or not signed by this key.
    case badSignature
    /// Past its expiry, beyond the allowed clock skew.
    case expired
    /// Before its start, beyond the allowed clock skew.
    case notYetValid
    /// Valid, but for another session than the one being joined.
    case wrongSession
    /// Its ``InvitationClaims/tokenID`` was revoked (or, for a single-use invitation, used):
    /// thrown by the caller that keeps that record, not by ``TokenKeyRing``.
    case revoked

    public var description: String {
        switch self {
        case .tooLarge(let bytes): "invitation token refused: \(bytes) bytes, more than \(TokenKeyRing.maximumTokenBytes)"
        case .malformed: "invitation token refused: malformed"
        case .unsupportedVersion(let version): "invitation token refused: unsupported version \(version)"
        case .unknownKey(let id): "invitation token refused: unknown key \(id)"
        case .badSignature: "invitation token refused: bad signature"
        case .expired: "invitation token refused: expired"
        case .notYetValid: "invitation token refused: not yet valid"
        case .wrongSession: "invitation token refused: issued for another session"
        case .revoked: "invitation token refused: revoked"
        }
    }
}
