import MediaTime

/// An EXT-X-DATERANGE tag (RFC 8216bis §4.4.5.1), with every attribute of HLS interstitials
/// (Appendix D) typed.
///
/// Every attribute is optional in the model, because a later tag with the same ``id`` may add
/// attributes that an earlier one left out (§4.4.5.1: "any other required attribute MAY be omitted
/// if it is present in the first tag"). ``merging(_:)`` consolidates such tags.
///
///     #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10Z",
///       DURATION=15,X-ASSET-LIST="ads.json",X-TIMELINE-OCCUPIES="RANGE"
public struct DateRange: Sendable, Hashable {
    /// The CLASS value that makes a date range an HLS interstitial (singular; Appendix D.2).
    public static let interstitialClass = "com.apple.hls.interstitial"
    /// The CLASS value of an Appendix F preload range.
    public static let preloadClass = "com.apple.hls.preload"

    /// `ID`: identifies the range within the playlist; required.
    public var id: String {
        get { current.values.id }
        set { mutate { $0.id = newValue } }
    }
    /// `CLASS`: the semantics shared by ranges of the same class.
    public var className: String? {
        get { current.values.className }
        set { mutate { $0.className = newValue } }
    }
    /// `START-DATE`: when the range starts; required unless an earlier tag with the same ID gave it.
    public var startDate: PlaylistDate? {
        get { current.values.startDate }
        set { mutate { $0.startDate = newValue } }
    }
    /// `CUE`: when the action the range controls triggers (PRE, POST, ONCE).
    public var cue: [Cue]? {
        get { current.values.cue }
        set { mutate { $0.cue = newValue } }
    }
    /// `END-DATE`: when the range ends; not before START-DATE.
    public var endDate: PlaylistDate? {
        get { current.values.endDate }
        set { mutate { $0.endDate = newValue } }
    }
    /// `DURATION`: the range's duration; not negative.
    public var duration: MediaTime? {
        get { current.values.duration }
        set { mutate { $0.duration = newValue } }
    }
    /// `PLANNED-DURATION`: the expected duration while the real one is unknown; not negative.
    public var plannedDuration: MediaTime? {
        get { current.values.plannedDuration }
        set { mutate { $0.plannedDuration = newValue } }
    }
    /// `END-ON-NEXT=YES`: the range ends where the next range of the same class starts.
    public var endOnNext: Bool? {
        get { current.values.endOnNext }
        set { mutate { $0.endOnNext = newValue } }
    }
    /// `SCTE35-CMD`: an SCTE-35 splice_info_section, as a hexadecimal sequence.
    public var scte35Command: String? {
        get { current.values.scte35Command }
        set { mutate { $0.scte35Command = newValue } }
    }
    /// `SCTE35-OUT`: the splice-out command.
    public var scte35Out: String? {
        get { current.values.scte35Out }
        set { mutate { $0.scte35Out = newValue } }
    }
    /// `SCTE35-IN`: the splice-in command.
    public var scte35In: String? {
        get { current.values.scte35In }
        set { mutate { $0.scte35In = newValue } }
    }

    /// `X-ASSET-URI`: the absolute URI of the single interstitial asset.
    public var assetURI: String? {
        get { current.values.assetURI }
        set { mutate { $0.assetURI = newValue } }
    }
    /// `X-ASSET-LIST`: the URI of a JSON asset list (absolute or relative to the playlist).
    public var assetList: String? {
        get { current.values.assetList }
        set { mutate { $0.assetList = newValue } }
    }
    /// `X-RESUME-OFFSET`: where primary resumes, relative to where the break was scheduled; signed.
    public var resumeOffset: MediaTime? {
        get { current.values.resumeOffset }
        set { mutate { $0.resumeOffset = newValue } }
    }
    /// `X-PLAYOUT-LIMIT`: the most the break may play.
    public var playoutLimit: MediaTime? {
        get { current.values.playoutLimit }
        set { mutate { $0.playoutLimit = newValue } }
    }
    /// `X-SNAP`: align the break's start (OUT) or primary's resumption (IN) to segment boundaries.
    public var snap: [Snap]? {
        get { current.values.snap }
        set { mutate { $0.snap = newValue } }
    }
    /// `X-RESTRICT`: navigation restrictions (SKIP, JUMP).
    public var restrict: [Restriction]? {
        get { current.values.restrict }
        set { mutate { $0.restrict = newValue } }
    }
    /// `X-TIMELINE-OCCUPIES`: "POINT" (default) or "RANGE" on a timeline UI.
    public var timelineOccupies: TimelineOccupancy? {
        get { current.values.timelineOccupies }
        set { mutate { $0.timelineOccupies = newValue } }
    }
    /// `X-TIMELINE-STYLE`: "HIGHLIGHT" (default) or "PRIMARY".
    public var timelineStyle: TimelineStyle? {
        get { current.values.timelineStyle }
        set { mutate { $0.timelineStyle = newValue } }
    }
    /// `X-CONTENT-MAY-VARY`: "YES" (default) or "NO" (every player gets the same content).
    public var contentMayVary: YesNo? {
        get { current.values.contentMayVary }
        set { mutate { $0.contentMayVary = newValue } }
    }
    /// `X-SKIP-CONTROL-OFFSET`: seconds into the break when a skip button appears.
    public var skipControlOffset: MediaTime? {
        get { current.values.skipControlOffset }
        set { mutate { $0.skipControlOffset = newValue } }
    }
    /// `X-SKIP-CONTROL-DURATION`: how long the skip button stays.
    public var skipControlDuration: MediaTime? {
        get { current.values.skipControlDuration }
        set { mutate { $0.skipControlDuration = newValue } }
    }
    /// `X-SKIP-CONTROL-LABEL-ID`: the key of a localised skip label (`[a-zA-Z_-]` only).
    public var skipControlLabelID: String? {
        get { current.values.skipControlLabelID }
        set { mutate { $0.skipControlLabelID = newValue } }
    }
    /// Appendix F preload ranges: `X-URI`, the resource to preload.
    public var preloadURI: String? {
        get { current.values.preloadURI }
        set { mutate { $0.preloadURI = newValue } }
    }
    /// Appendix F: `X-TARGET-ID`, the ID of the range whose resource is preloaded.
    public var preloadTargetID: String? {
        get { current.values.preloadTargetID }
        set { mutate { $0.preloadTargetID = newValue } }
    }
    /// Appendix F: `X-TARGET-CLASS`, the CLASS of that range.
    public var preloadTargetClass: String? {
        get { current.values.preloadTargetClass }
        set { mutate { $0.preloadTargetClass = newValue } }
    }

    /// Other `X-` client attributes, in the order written, with their value types.
    public var clientAttributes: [Attribute] {
        get { current.values.clientAttributes }
        set { mutate { $0.clientAttributes = newValue } }
    }
    /// Attributes that are neither in the specification nor client attributes (kept, flagged by the
    /// validator).
    public var unknownAttributes: [Attribute] {
        get { current.values.unknownAttributes }
        set { mutate { $0.unknownAttributes = newValue } }
    }

    /// A date range with an ID and nothing else.
    public init(id: String, className: String? = nil, startDate: PlaylistDate? = nil) {
        storage = Storage(Values())
        self.id = id
        self.className = className
        self.startDate = startDate
        self.clientAttributes = []
        self.unknownAttributes = []
    }

    /// Whether this range is an HLS interstitial.
    public var isInterstitial: Bool { className == Self.interstitialClass }

    /// The duration given by DURATION, or else by END-DATE − START-DATE.
    public var resolvedDuration: MediaTime? {
        if let duration { return duration }
        if let endDate, let startDate { return endDate.timeIntervalSince(startDate) }
        return nil
    }

    /// The end date given by END-DATE, or else START-DATE + DURATION.
    public var resolvedEndDate: PlaylistDate? {
        if let endDate { return endDate }
        if let startDate, let duration { return startDate.adding(duration) }
        return nil
    }

    /// The value of a client attribute, if present.
    public func clientAttribute(named name: String) -> AttributeValue? {
        clientAttributes.first { $0.name == name }?.value
    }

    /// The stored values, behind a copy-on-write reference so that copying a value costs one
    /// retain (schedules, timelines and playlists copy these often).
    struct Values: Sendable, Hashable {
        var id: String = ""
        var className: String? = nil
        var startDate: PlaylistDate? = nil
        var cue: [Cue]? = nil
        var endDate: PlaylistDate? = nil
        var duration: MediaTime? = nil
        var plannedDuration: MediaTime? = nil
        var endOnNext: Bool? = nil
        var scte35Command: String? = nil
        var scte35Out: String? = nil
        var scte35In: String? = nil
        var assetURI: String? = nil
        var assetList: String? = nil
        var resumeOffset: MediaTime? = nil
        var playoutLimit: MediaTime? = nil
        var snap: [Snap]? = nil
        var restrict: [Restriction]? = nil
        var timelineOccupies: TimelineOccupancy? = nil
        var timelineStyle: TimelineStyle? = nil
        var contentMayVary: YesNo? = nil
        var skipControlOffset: MediaTime? = nil
        var skipControlDuration: MediaTime? = nil
        var skipControlLabelID: String? = nil
        var preloadURI: String? = nil
        var preloadTargetID: String? = nil
        var preloadTargetClass: String? = nil
        var clientAttributes: [Attribute] = []
        var unknownAttributes: [Attribute] = []
    }

    final class Storage: @unchecked Sendable {
        // Mutated only through `mutate`, which copies first unless this reference is unique.
        var values: Values
        init(_ values: Values) { self.values = values }
    }

    /// The decoded values; `nil` while the range is still the unread tag in `source`.
    private var storage: Storage?
    /// The tag a parsed range was read from, which decodes its values on first access.
    private var source: DateRangeSource?

    /// A date range made of these values.
    init(values: Values) { storage = Storage(values) }

    /// A date range whose values are decoded from its tag on first access.
    init(source: DateRangeSource) {
        storage = nil
        self.source = source
    }

    /// The storage holding the values, decoding them first for a range still in its tag.
    private var current: Storage {
        @inline(__always) get { storage ?? source.unsafelyUnwrapped.storage }
    }

    /// The stored values, for the merger.
    var values: Values { current.values }

    /// Runs `body` on the stored values, copying them first unless they are unshared, so that
    /// appending to an attribute list in place stays O(1) amortised.
    mutating func mutate<Result>(_ body: (inout Values) -> Result) -> Result {
        if storage == nil {
            storage = Storage(current.values)
            source = nil
        } else if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(storage.unsafelyUnwrapped.values)
        }
        return body(&storage!.values)
    }

    /// Equal when every attribute is equal.
    public static func == (lhs: DateRange, rhs: DateRange) -> Bool {
        if let a = lhs.source, let b = rhs.source, a === b { return true }
        let (a, b) = (lhs.current, rhs.current)
        return a === b || a.values == b.values
    }

    /// Hashes every attribute.
    public func hash(into hasher: inout Hasher) { hasher.combine(current.values) }
}

extension DateRange {
    /// A token of the `CUE` attribute.
    public struct Cue: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The token as written.
        public var rawValue: String
        /// Creates a token.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Trigger before primary playback starts, wherever it starts.
        public static let pre = Cue(rawValue: "PRE")
        /// Trigger after primary has played to its end without error.
        public static let post = Cue(rawValue: "POST")
        /// Trigger at most once.
        public static let once = Cue(rawValue: "ONCE")
        /// Whether this is one of the specification's tokens.
        public var isKnown: Bool { self == .pre || self == .post || self == .once }
        /// The token.
        public var description: String { rawValue }
    }

    /// A token of the `X-SNAP` attribute.
    public struct Snap: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The token as written.
        public var rawValue: String
        /// Creates a token.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Leave primary at the segment boundary nearest the start date.
        public static let out = Snap(rawValue: "OUT")
        /// Resume primary at the segment boundary nearest the resumption point.
        public static let `in` = Snap(rawValue: "IN")
        /// Whether this is one of the specification's tokens.
        public var isKnown: Bool { self == .out || self == .in }
        /// The token.
        public var description: String { rawValue }
    }

    /// A token of the `X-RESTRICT` attribute.
    public struct Restriction: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The token as written.
        public var rawValue: String
        /// Creates a token.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// No seeking forward or rate above 1 while the break plays.
        public static let skip = Restriction(rawValue: "SKIP")
        /// No seeking across the break without playing it first.
        public static let jump = Restriction(rawValue: "JUMP")
        /// Whether this is one of the specification's tokens.
        public var isKnown: Bool { self == .skip || self == .jump }
        /// The token.
        public var description: String { rawValue }
    }

    /// The value of `X-TIMELINE-OCCUPIES`.
    public struct TimelineOccupancy: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The value as written.
        public var rawValue: String
        /// Creates a value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The break occupies a single point on the timeline (the default).
        public static let point = TimelineOccupancy(rawValue: "POINT")
        /// The break occupies a range as long as its duration.
        public static let range = TimelineOccupancy(rawValue: "RANGE")
        /// Whether this is one of the specification's values.
        public var isKnown: Bool { self == .point || self == .range }
        /// The value.
        public var description: String { rawValue }
    }

    /// The value of `X-TIMELINE-STYLE`.
    public struct TimelineStyle: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The value as written.
        public var rawValue: String
        /// Creates a value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Shown as distinct from primary content (the default).
        public static let highlight = TimelineStyle(rawValue: "HIGHLIGHT")
        /// Not differentiated from primary content.
        public static let primary = TimelineStyle(rawValue: "PRIMARY")
        /// Whether this is one of the specification's values.
        public var isKnown: Bool { self == .highlight || self == .primary }
        /// The value.
        public var description: String { rawValue }
    }

    /// A quoted `"YES"` / `"NO"` value such as `X-CONTENT-MAY-VARY`.
    public struct YesNo: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The value as written.
        public var rawValue: String
        /// Creates a value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// "YES".
        public static let yes = YesNo(rawValue: "YES")
        /// "NO".
        public static let no = YesNo(rawValue: "NO")
        /// `true` for YES, `false` for NO, `nil` for anything else (which counts as absent).
        public var boolValue: Bool? { self == .yes ? true : self == .no ? false : nil }
        /// The value.
        public var description: String { rawValue }
    }
}

/// Folds the tags of one date range ID into one (§4.4.5.1), in time linear in their attributes:
/// the merged values are kept unshared and mutated in place, and client and unknown attribute
/// names are indexed once, not searched at every tag.
struct DateRangeMerger {
    private var values: DateRange.Values
    private var clientIndex: [String: Int] = [:]
    private var unknownIndex: [String: Int] = [:]

    init(_ first: DateRange) {
        values = first.values
        Self.index(values.clientAttributes, into: &clientIndex)
        Self.index(values.unknownAttributes, into: &unknownIndex)
    }

    /// The consolidated range.
    var range: DateRange { DateRange(values: values) }

    /// Adds the attributes of a later tag that the earlier ones lack and returns the names of those
    /// it would change, which keep their earlier values. Typed values compare by meaning (times
    /// exactly, dates as instants).
    mutating func add(_ later: DateRange) -> [String] {
        var conflicts: [String] = []
        let new = later.values
        func take<Value: Equatable>(_ name: String, _ field: WritableKeyPath<DateRange.Values, Value?>) {
            guard let value = new[keyPath: field] else { return }
            if let existing = values[keyPath: field] {
                if existing != value { conflicts.append(name) }
            } else {
                values[keyPath: field] = value
            }
        }
        take("CLASS", \.className)
        take("START-DATE", \.startDate)
        take("CUE", \.cue)
        take("END-DATE", \.endDate)
        take("DURATION", \.duration)
        take("PLANNED-DURATION", \.plannedDuration)
        take("END-ON-NEXT", \.endOnNext)
        take("SCTE35-CMD", \.scte35Command)
        take("SCTE35-OUT", \.scte35Out)
        take("SCTE35-IN", \.scte35In)
        take("X-ASSET-URI", \.assetURI)
        take("X-ASSET-LIST", \.assetList)
        take("X-RESUME-OFFSET", \.resumeOffset)
        take("X-PLAYOUT-LIMIT", \.playoutLimit)
        take("X-SNAP", \.snap)
        take("X-RESTRICT", \.restrict)
        take("X-TIMELINE-OCCUPIES", \.timelineOccupies)
        take("X-TIMELINE-STYLE", \.timelineStyle)
        take("X-CONTENT-MAY-VARY", \.contentMayVary)
        take("X-SKIP-CONTROL-OFFSET", \.skipControlOffset)
        take("X-SKIP-CONTROL-DURATION", \.skipControlDuration)
        take("X-SKIP-CONTROL-LABEL-ID", \.skipControlLabelID)
        take("X-URI", \.preloadURI)
        take("X-TARGET-ID", \.preloadTargetID)
        take("X-TARGET-CLASS", \.preloadTargetClass)
        Self.merge(new.clientAttributes, into: &values.clientAttributes, index: &clientIndex, conflicts: &conflicts)
        Self.merge(new.unknownAttributes, into: &values.unknownAttributes, index: &unknownIndex, conflicts: &conflicts)
        return conflicts
    }

    /// The consolidated range without its client and unknown attributes: O(1), for checks of the
    /// typed values between tags.
    var typedRange: DateRange {
        var typed = values
        typed.clientAttributes = []
        typed.unknownAttributes = []
        return DateRange(values: typed)
    }

    /// The earlier value of a typed attribute, as written canonically (for conflict messages).
    func earlierText(of name: String) -> String? {
        if let index = clientIndex[name] { return values.clientAttributes[index].value.playlistText }
        if let index = unknownIndex[name] { return values.unknownAttributes[index].value.playlistText }
        var typed = values
        typed.clientAttributes = []
        typed.unknownAttributes = []
        return DateRange(values: typed).attributes.first { $0.name == name }?.value.playlistText
    }

    private static func index(_ attributes: [Attribute], into index: inout [String: Int]) {
        index.reserveCapacity(attributes.count)
        for (position, attribute) in attributes.enumerated() where index[attribute.name] == nil {
            index[attribute.name] = position
        }
    }

    private static func merge(
        _ later: [Attribute], into earlier: inout [Attribute], index: inout [String: Int], conflicts: inout [String]
    ) {
        for attribute in later {
            if let position = index[attribute.name] {
                if !DateRange.sameValue(earlier[position], attribute) { conflicts.append(attribute.name) }
            } else {
                index[attribute.name] = earlier.count
                earlier.append(attribute)
            }
        }
    }
}
