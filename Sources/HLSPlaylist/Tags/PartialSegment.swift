import MediaTime

/// An EXT-X-PART tag (RFC 8216bis §4.4.4.9): a Partial Segment of a Low-Latency HLS playlist.
public struct PartialSegment: Sendable, Hashable {
    /// `URI`: the partial segment's resource.
    public var uri: String
    /// `DURATION`: its duration.
    public var duration: MediaTime
    /// `INDEPENDENT=YES`: it starts with an independent frame.
    public var isIndependent: Bool
    /// `BYTERANGE`: the part of the resource that holds it.
    public var byteRange: ByteRange?
    /// `GAP=YES`: it is not available.
    public var isGap: Bool
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A partial segment.
    public init(uri: String, duration: MediaTime, isIndependent: Bool = false, byteRange: ByteRange? = nil,
                isGap: Bool = false) {
        self.uri = uri
        self.duration = duration
        self.isIndependent = isIndependent
        self.byteRange = byteRange
        self.isGap = isGap
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(
            uri: try reader.requiredQuotedString("URI"),
            duration: try reader.requiredDecimalTime("DURATION"),
            isIndependent: try reader.yesNo("INDEPENDENT") ?? false,
            byteRange: try reader.byteRange("BYTERANGE"),
            isGap: try reader.yesNo("GAP") ?? false
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.time("DURATION", duration)
        writer.quoted("URI", uri)
        if isIndependent { writer.enumerated("INDEPENDENT", "YES") }
        writer.quoted("BYTERANGE", byteRange?.playlistText)
        if isGap { writer.enumerated("GAP", "YES") }
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-PART-INF tag (RFC 8216bis §4.4.3.7): the part target duration.
public struct PartialSegmentInformation: Sendable, Hashable {
    /// `PART-TARGET`: the maximum partial segment duration.
    public var partTarget: MediaTime
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// Part information.
    public init(partTarget: MediaTime) { self.partTarget = partTarget }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(partTarget: try reader.requiredDecimalTime("PART-TARGET"))
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.time("PART-TARGET", partTarget)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-PRELOAD-HINT tag (RFC 8216bis §4.4.5.3): a resource the client may request before it
/// is listed.
public struct PreloadHint: Sendable, Hashable {
    /// `TYPE`: PART or MAP.
    public var type: String
    /// `URI`: the hinted resource.
    public var uri: String
    /// `BYTERANGE-START`: the first byte (default 0).
    public var byteRangeStart: Int?
    /// `BYTERANGE-LENGTH`: the number of bytes (default: to the end).
    public var byteRangeLength: Int?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A hint.
    public init(type: String, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil) {
        self.type = type
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        guard let type = try reader.enumerated("TYPE") else {
            throw AttributeError(name: "TYPE", reason: "is required", isMissing: true)
        }
        self.init(
            type: type,
            uri: try reader.requiredQuotedString("URI"),
            byteRangeStart: try reader.decimalInteger("BYTERANGE-START"),
            byteRangeLength: try reader.decimalInteger("BYTERANGE-LENGTH")
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.enumerated("TYPE", type)
        writer.quoted("URI", uri)
        writer.integer("BYTERANGE-START", byteRangeStart)
        writer.integer("BYTERANGE-LENGTH", byteRangeLength)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-RENDITION-REPORT tag (RFC 8216bis §4.4.5.4): the last segment and part of another
/// rendition.
public struct RenditionReport: Sendable, Hashable {
    /// `URI`: the other rendition's media playlist.
    public var uri: String
    /// `LAST-MSN`: its last media sequence number.
    public var lastMediaSequence: Int?
    /// `LAST-PART`: its last part index.
    public var lastPart: Int?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A report.
    public init(uri: String, lastMediaSequence: Int? = nil, lastPart: Int? = nil) {
        self.uri = uri
        self.lastMediaSequence = lastMediaSequence
        self.lastPart = lastPart
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(
            uri: try reader.requiredQuotedString("URI"),
            lastMediaSequence: try reader.decimalInteger("LAST-MSN"),
            lastPart: try reader.decimalInteger("LAST-PART")
        )
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.quoted("URI", uri)
        writer.integer("LAST-MSN", lastMediaSequence)
        writer.integer("LAST-PART", lastPart)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}
