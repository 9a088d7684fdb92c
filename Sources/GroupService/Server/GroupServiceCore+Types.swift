import GroupCoordination

/// Identifies one connection to the server (the shell's socket), stable for its lifetime.
public typealias ServiceConnectionID = UInt64

/// A `hello` that the shell has already checked: the protocol version matched and the
/// invitation token verified (signature, expiry, not revoked).
public struct ServiceHello: Sendable, Hashable {
    /// The session the token admits to.
    public var session: String
    /// The role it grants.
    public var role: GroupRole
    /// The name the participant gave (at most 64 characters; the shell truncates).
    public var name: String
    /// A resume attempt: who it was, the SHA-256 of the secret it presents, and the last version
    /// it applied.
    public var resume: Resume?
    /// A fresh secret for a new participant, and its hash (the shell makes them: the core has no
    /// randomness).
    public var newSecret: String
    /// `newSecret`'s SHA-256, hex.
    public var newSecretHash: String

    /// A resume attempt.
    public struct Resume: Sendable, Hashable {
        /// The participant it was.
        public var participant: String
        /// The SHA-256 of the secret it presents, hex.
        public var secretHash: String
        /// The last version it applied.
        public var version: UInt64

        /// A resume attempt.
        public init(participant: String, secretHash: String, version: UInt64) {
            self.participant = participant
            self.secretHash = secretHash
            self.version = version
        }
    }

    /// A checked hello.
    public init(session: String, role: GroupRole, name: String, resume: Resume?, newSecret: String, newSecretHash: String) {
        self.session = session
        self.role = role
        self.name = name
        self.resume = resume
        self.newSecret = newSecret
        self.newSecretHash = newSecretHash
    }
}
