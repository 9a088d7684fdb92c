/// The bounds every decoder checks (docs/group-protocol.md, "Bounds"). They are chosen so that no
/// accepted value can make later arithmetic overflow, and so that a JavaScript client reads every
/// integer exactly:
/// - every integer on the wire is within ±(2⁵³ − 1), the range a double holds exactly;
/// - a time, duration or media time, is a whole number of nanoseconds within ±(2⁵³ − 1) ns (about
///   104 days; group clocks start at zero when the session does, local clocks when the player
///   does). A sum of up to 1,024 such times, a difference of two, or one advanced at 64× for the
///   longest span still fits the `Int64` nanoseconds that `MediaTime` and `Duration` conversions
///   use, and times whose timescales divide 10⁹ add up without leaving an `Int32` timescale;
/// - a rate is finite and within ±64.
public enum WireBounds {
    /// The largest integer magnitude on the wire: 2⁵³ − 1.
    public static let maximumInteger: Int64 = (1 << 53) - 1
    /// The range of integers on the wire.
    public static let integers: ClosedRange<Int64> = -maximumInteger...maximumInteger
    /// The range of counters, sequences, versions and probe identifiers.
    public static let counters: ClosedRange<Int64> = 0...maximumInteger
    /// The largest timescale of a media time (nanoseconds).
    public static let maximumTimescale: Int64 = 1_000_000_000
    /// The largest rate magnitude.
    public static let maximumRate: Double = 64
    /// The longest identifier (participant, event, reason, message type, session), in UTF-8 bytes.
    public static let maximumIdentifierBytes = 256
    /// The longest item identifier, in UTF-8 bytes: items may be identified by their URL.
    public static let maximumItemIdentifierBytes = 2_048
    /// The longest free text (a name, an error message), in UTF-8 bytes.
    public static let maximumTextBytes = 1_024
}
