/// A member of a group session on the network: a participant, or the session server that keeps the
/// group clock and relays messages. Assigned by the session, so small and dense.
public struct PeerID: RawRepresentable, Sendable, Hashable, Comparable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The number the session gave this peer.
    public var rawValue: UInt32

    /// The peer numbered `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The peer numbered by an integer literal, as in `let server: PeerID = 0`.
    public init(integerLiteral value: UInt32) { rawValue = value }

    /// Lower numbers first.
    public static func < (lhs: PeerID, rhs: PeerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// For example `peer 3`.
    public var description: String { "peer \(rawValue)" }
}
