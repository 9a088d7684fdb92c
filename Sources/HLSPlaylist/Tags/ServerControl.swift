import MediaTime

/// An EXT-X-SERVER-CONTROL tag (RFC 8216bis §4.4.3.8): what the server supports for live
/// delivery.
public struct ServerControl: Sendable, Hashable {
    /// `CAN-SKIP-UNTIL`: the skip boundary for delta updates (a delta may skip segments older than
    /// this from the end).
    public var canSkipUntil: MediaTime?
    /// `CAN-SKIP-DATERANGES=YES`: delta updates may also skip old EXT-X-DATERANGE tags.
    public var canSkipDateRanges: Bool
    /// `HOLD-BACK`: the minimum distance from the end at which to start playback.
    public var holdBack: MediaTime?
    /// `PART-HOLD-BACK`: the same in low-latency mode.
    public var partHoldBack: MediaTime?
    /// `CAN-BLOCK-RELOAD=YES`: blocking playlist reload is supported.
    public var canBlockReload: Bool
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// Server control.
    public init(canSkipUntil: MediaTime? = nil, canSkipDateRanges: Bool = false, holdBack: MediaTime? = nil,
                partHoldBack: MediaTime? = nil, canBlockReload: Bool = false) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(
            canSkipUntil: try reader.decimalTime("CAN-SKIP-UNTIL"),
            canSkipDateRanges: try reader.yesNo("CAN-SKIP-DATERANGES") ?? false,
            holdBack: try reader.decimalTime("HOLD-BACK"),
            partHoldBack: try reader.decimalTime("PART-HOLD-BACK"),
            canBlockReload: try reader.yesNo("CAN-BLOCK-RELOAD") ?? false
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.time("CAN-SKIP-UNTIL", canSkipUntil)
        if canSkipDateRanges { writer.enumerated("CAN-SKIP-DATERANGES", "YES") }
        writer.time("HOLD-BACK", holdBack)
        writer.time("PART-HOLD-BACK", partHoldBack)
        if canBlockReload { writer.enumerated("CAN-BLOCK-RELOAD", "YES") }
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-SKIP tag (RFC 8216bis §4.4.5.2): in a playlist delta update, how many segments (and
/// which date ranges) were left out.
public struct SkipInformation: Sendable, Hashable {
    /// `SKIPPED-SEGMENTS`: the number of media segments replaced by this tag.
    public var skippedSegments: Int
    /// `RECENTLY-REMOVED-DATERANGES`: IDs of date ranges removed from the playlist recently
    /// (tab-separated in the tag).
    public var recentlyRemovedDateRanges: [String]?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// Skip information.
    public init(skippedSegments: Int, recentlyRemovedDateRanges: [String]? = nil) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(
            skippedSegments: try reader.requiredDecimalInteger("SKIPPED-SEGMENTS"),
            recentlyRemovedDateRanges: try reader.quotedString("RECENTLY-REMOVED-DATERANGES").map {
                $0.split(separator: "\t").map(String.init)
            }
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.integer("SKIPPED-SEGMENTS", skippedSegments)
        writer.quoted("RECENTLY-REMOVED-DATERANGES", recentlyRemovedDateRanges?.joined(separator: "\t"))
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-START tag (RFC 8216bis §4.4.2.2): the preferred point at which to start playing.
public struct StartPoint: Sendable, Hashable {
    /// `TIME-OFFSET`: from the start of the playlist when positive, from its end when negative.
    public var timeOffset: MediaTime
    /// `PRECISE=YES`: start exactly there rather than at the segment's start.
    public var isPrecise: Bool
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A start point.
    public init(timeOffset: MediaTime, isPrecise: Bool = false) {
        self.timeOffset = timeOffset
        self.isPrecise = isPrecise
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(
            timeOffset: try reader.requiredDecimalTime("TIME-OFFSET", signed: true),
            isPrecise: try reader.yesNo("PRECISE") ?? false
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.time("TIME-OFFSET", timeOffset)
        if isPrecise { writer.enumerated("PRECISE", "YES") }
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-CONTENT-STEERING tag (RFC 8216bis §4.4.6.6): where the steering manifest is.
public struct ContentSteering: Sendable, Hashable {
    /// `SERVER-URI`: the steering server.
    public var serverURI: String
    /// `PATHWAY-ID`: the pathway to start with.
    public var pathwayID: String?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// Content steering.
    public init(serverURI: String, pathwayID: String? = nil) {
        self.serverURI = serverURI
        self.pathwayID = pathwayID
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(serverURI: try reader.requiredQuotedString("SERVER-URI"), pathwayID: try reader.quotedString("PATHWAY-ID"))
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.quoted("SERVER-URI", serverURI)
        writer.quoted("PATHWAY-ID", pathwayID)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-SESSION-DATA tag (RFC 8216bis §4.4.6.4): arbitrary session data.
public struct SessionData: Sendable, Hashable {
    /// `DATA-ID`: reverse-DNS identifier of the data.
    public var dataID: String
    /// `VALUE`: the data itself (exclusive with URI).
    public var value: String?
    /// `URI`: where the data is (exclusive with VALUE).
    public var uri: String?
    /// `FORMAT`: JSON (default) or RAW, for URI data.
    public var format: String?
    /// `LANGUAGE`: the language of VALUE.
    public var language: String?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// Session data.
    public init(dataID: String, value: String? = nil, uri: String? = nil, format: String? = nil, language: String? = nil) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.format = format
        self.language = language
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(
            dataID: try reader.requiredQuotedString("DATA-ID"),
            value: try reader.quotedString("VALUE"),
            uri: try reader.quotedString("URI"),
            format: try reader.enumerated("FORMAT"),
            language: try reader.quotedString("LANGUAGE")
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.quoted("DATA-ID", dataID)
        writer.quoted("VALUE", value)
        writer.quoted("URI", uri)
        writer.enumerated("FORMAT", format)
        writer.quoted("LANGUAGE", language)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-DEFINE tag (RFC 8216bis §4.4.2.3): a variable for substitution.
public enum VariableDefinition: Sendable, Hashable {
    /// `NAME="n",VALUE="v"`.
    case value(name: String, value: String)
    /// `IMPORT="n"`: the value of the multivariant playlist's variable `n` (media playlists only).
    case `import`(name: String)
    /// `QUERYPARAM="n"`: the value of the query parameter `n` of the playlist's URI.
    case queryParameter(name: String)

    /// The variable's name.
    public var name: String {
        switch self {
        case .value(let name, _), .import(let name), .queryParameter(let name): return name
        }
    }

    /// Reads the tag's attribute list; exactly one of NAME (with VALUE), IMPORT and QUERYPARAM.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        let name = try reader.quotedString("NAME")
        let value = try reader.quotedString("VALUE")
        let imported = try reader.quotedString("IMPORT")
        let query = try reader.quotedString("QUERYPARAM")
        switch (name, imported, query) {
        case (let name?, nil, nil):
            guard let value else { throw AttributeError(name: "VALUE", reason: "is required with NAME", isMissing: true) }
            self = .value(name: name, value: value)
        case (nil, let imported?, nil):
            self = .import(name: imported)
        case (nil, nil, let query?):
            self = .queryParameter(name: query)
        default:
            throw AttributeError(name: "NAME", reason: "exactly one of NAME, IMPORT or QUERYPARAM is required", isMissing: true)
        }
        if let extra = reader.unconsumed.first {
            throw AttributeError(name: extra.name, reason: "is not an attribute of EXT-X-DEFINE")
        }
        if !Self.isLegalName(self.name) {
            throw AttributeError(name: "NAME", reason: "variable names may contain only A-Z, a-z, 0-9, - and _, found \"\(self.name)\"")
        }
    }

    /// Whether `name` uses only the characters §4.4.2.3 allows: `[a-zA-Z0-9_-]`.
    public static func isLegalName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        switch self {
        case .value(let name, let value):
            writer.quoted("NAME", name)
            writer.quoted("VALUE", value)
        case .import(let name):
            writer.quoted("IMPORT", name)
        case .queryParameter(let name):
            writer.quoted("QUERYPARAM", name)
        }
        return writer.attributes
    }
}
