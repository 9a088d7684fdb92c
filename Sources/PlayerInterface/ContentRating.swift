/// A content rating carried in an item's metadata (S3.12), as Apple's
/// `AVMetadataIdentifier.iTunesMetadataContentRating` carries it: a rating system, the label people
/// see, and a rank on one scale across systems (higher is for older audiences), written
/// `system|label|rank|` (`mpaa|PG-13|300|`).
public struct ContentRating: Sendable, Hashable {
    /// The rating system (`mpaa`, `us-tv`, …).
    public var system: String
    /// The label people see (`PG-13`).
    public var label: String
    /// Where the rating sits on the common scale; restrictions compare ranks.
    public var rank: Int

    /// A rating.
    public init(system: String, label: String, rank: Int) {
        self.system = system
        self.label = label
        self.rank = rank
    }

    /// Parses `system|label|rank|` (the trailing field, a reason, may be empty or absent); `nil`
    /// when a field is missing, the rank is not a whole number from 0 to 10 000, or the text is
    /// longer than 256 bytes.
    public init?(metadataValue text: String) {
        guard text.utf8.count <= 256 else { return nil }
        let fields = text.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 4, !fields[0].isEmpty, !fields[1].isEmpty,
            fields[2].allSatisfy({ $0.isASCII && $0.isNumber }), let rank = Int(fields[2]), (0...10_000).contains(rank)
        else { return nil }
        self.init(system: String(fields[0]), label: String(fields[1]), rank: rank)
    }

    /// `system|label|rank|`.
    public var metadataValue: String { "\(system)|\(label)|\(rank)|" }

    /// The MPAA film ratings on the common scale.
    public static let mpaaG = ContentRating(system: "mpaa", label: "G", rank: 100)
    /// PG.
    public static let mpaaPG = ContentRating(system: "mpaa", label: "PG", rank: 200)
    /// PG-13.
    public static let mpaaPG13 = ContentRating(system: "mpaa", label: "PG-13", rank: 300)
    /// R.
    public static let mpaaR = ContentRating(system: "mpaa", label: "R", rank: 400)
    /// NC-17.
    public static let mpaaNC17 = ContentRating(system: "mpaa", label: "NC-17", rank: 500)
}
