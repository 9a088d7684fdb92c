/// An EXT-X-STREAM-INF tag and the URI line after it (RFC 8216bis §4.4.6.2): one variant of a
/// multivariant playlist.
public struct VariantStream: Sendable, Hashable {
    /// The media playlist's URI (the line after the tag).
    public var uri: String
    /// The attributes shared with EXT-X-I-FRAME-STREAM-INF.
    public var stream: StreamAttributes
    /// `FRAME-RATE`: the maximum frame rate, as written (for example `29.970`).
    public var frameRate: String?
    /// `AUDIO`: the GROUP-ID of the audio renditions to use.
    public var audio: String?
    /// `SUBTITLES`: the GROUP-ID of the subtitle renditions.
    public var subtitles: String?
    /// `CLOSED-CAPTIONS`: the GROUP-ID of the closed-caption renditions, or `NONE`.
    public var closedCaptions: ClosedCaptions?

    /// The value of `CLOSED-CAPTIONS`: a quoted group ID or the enumerated `NONE`.
    public enum ClosedCaptions: Sendable, Hashable {
        /// A group of CLOSED-CAPTIONS renditions.
        case group(String)
        /// No closed captions in any variant.
        case none
    }

    /// A variant.
    public init(uri: String, stream: StreamAttributes) {
        self.uri = uri
        self.stream = stream
    }

    /// Reads the tag's attribute list (the URI comes from the following line).
    public init(attributes: [Attribute], uri: String) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(uri: uri, stream: try StreamAttributes(reading: &reader))
        frameRate = try reader.decimalText("FRAME-RATE")
        audio = try reader.quotedString("AUDIO")
        subtitles = try reader.quotedString("SUBTITLES")
        if reader.has("CLOSED-CAPTIONS") {
            // Look at the value's type before reading it: a failed quotedString read would consume
            // the attribute and lose an enumerated NONE.
            if case .quotedString(let group)? = reader.attributes.first(where: { $0.name == "CLOSED-CAPTIONS" })?.value {
                _ = try reader.quotedString("CLOSED-CAPTIONS")
                closedCaptions = .group(group)
            } else if let value = try reader.enumerated("CLOSED-CAPTIONS") {
                guard value == "NONE" else {
                    throw AttributeError(name: "CLOSED-CAPTIONS", reason: "must be a quoted GROUP-ID or NONE, found \(value)")
                }
                closedCaptions = ClosedCaptions.none
            }
        }
        stream.otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        stream.write(into: &writer, uri: nil)
        writer.decimalText("FRAME-RATE", frameRate)
        writer.quoted("AUDIO", audio)
        writer.quoted("SUBTITLES", subtitles)
        switch closedCaptions {
        case .group(let group): writer.quoted("CLOSED-CAPTIONS", group)
        case .none?: writer.enumerated("CLOSED-CAPTIONS", "NONE")
        case nil: break
        }
        writer.append(contentsOf: stream.otherAttributes)
        return writer.attributes
    }
}

/// An EXT-X-I-FRAME-STREAM-INF tag (RFC 8216bis §4.4.6.3): an I-frame playlist for trick play.
public struct IFrameStream: Sendable, Hashable {
    /// `URI`: the I-frame media playlist.
    public var uri: String
    /// The attributes shared with EXT-X-STREAM-INF.
    public var stream: StreamAttributes

    /// An I-frame stream.
    public init(uri: String, stream: StreamAttributes) {
        self.uri = uri
        self.stream = stream
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        let uri = try reader.requiredQuotedString("URI")
        self.init(uri: uri, stream: try StreamAttributes(reading: &reader))
        stream.otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        stream.write(into: &writer, uri: uri)
        writer.append(contentsOf: stream.otherAttributes)
        return writer.attributes
    }
}

/// The attributes EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF share (RFC 8216bis §4.4.6.2).
public struct StreamAttributes: Sendable, Hashable {
    /// `BANDWIDTH`: peak segment bit rate in bits per second; required.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`: average segment bit rate.
    public var averageBandwidth: Int?
    /// `SCORE`: the author's preference among variants, as written.
    public var score: String?
    /// `CODECS`: RFC 6381 codec strings, comma-separated.
    public var codecs: String?
    /// `SUPPLEMENTAL-CODECS`: codecs a compatible client may use instead.
    public var supplementalCodecs: String?
    /// `RESOLUTION`: the video's pixel size.
    public var resolution: Resolution?
    /// `HDCP-LEVEL`: TYPE-0, TYPE-1 or NONE.
    public var hdcpLevel: String?
    /// `ALLOWED-CPC`: content protection configurations per key format.
    public var allowedCPC: String?
    /// `VIDEO-RANGE`: SDR, HLG or PQ.
    public var videoRange: String?
    /// `REQ-VIDEO-LAYOUT`: required video layouts (for example CH-STEREO).
    public var requiredVideoLayout: String?
    /// `STABLE-VARIANT-ID`: an identifier stable across playlist versions.
    public var stableVariantID: String?
    /// `VIDEO`: the GROUP-ID of the video renditions.
    public var video: String?
    /// `PATHWAY-ID`: the content-steering pathway.
    public var pathwayID: String?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// Stream attributes with the required bandwidth.
    public init(bandwidth: Int) { self.bandwidth = bandwidth }

    init(reading reader: inout AttributeReader) throws(AttributeError) {
        self.init(bandwidth: try reader.requiredDecimalInteger("BANDWIDTH"))
        averageBandwidth = try reader.decimalInteger("AVERAGE-BANDWIDTH")
        score = try reader.decimalText("SCORE")
        codecs = try reader.quotedString("CODECS")
        supplementalCodecs = try reader.quotedString("SUPPLEMENTAL-CODECS")
        resolution = try reader.resolution("RESOLUTION")
        hdcpLevel = try reader.enumerated("HDCP-LEVEL")
        allowedCPC = try reader.quotedString("ALLOWED-CPC")
        videoRange = try reader.enumerated("VIDEO-RANGE")
        requiredVideoLayout = try reader.quotedString("REQ-VIDEO-LAYOUT")
        stableVariantID = try reader.quotedString("STABLE-VARIANT-ID")
        video = try reader.quotedString("VIDEO")
        pathwayID = try reader.quotedString("PATHWAY-ID")
    }

    func write(into writer: inout AttributeWriter, uri: String?) {
        writer.integer("BANDWIDTH", bandwidth)
        writer.integer("AVERAGE-BANDWIDTH", averageBandwidth)
        writer.decimalText("SCORE", score)
        writer.quoted("CODECS", codecs)
        writer.quoted("SUPPLEMENTAL-CODECS", supplementalCodecs)
        writer.enumerated("RESOLUTION", resolution?.description)
        writer.enumerated("HDCP-LEVEL", hdcpLevel)
        writer.quoted("ALLOWED-CPC", allowedCPC)
        writer.enumerated("VIDEO-RANGE", videoRange)
        writer.quoted("REQ-VIDEO-LAYOUT", requiredVideoLayout)
        writer.quoted("STABLE-VARIANT-ID", stableVariantID)
        writer.quoted("VIDEO", video)
        writer.quoted("PATHWAY-ID", pathwayID)
        writer.quoted("URI", uri)
    }
}

/// An EXT-X-MEDIA tag (RFC 8216bis §4.4.6.1): an alternative rendition (audio, video, subtitles or
/// closed captions) in a group.
public struct Rendition: Sendable, Hashable {
    /// `TYPE`: AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS.
    public var type: String
    /// `URI`: the rendition's media playlist (absent for CLOSED-CAPTIONS and muxed renditions).
    public var uri: String?
    /// `GROUP-ID`: the group it belongs to.
    public var groupID: String
    /// `LANGUAGE`: RFC 5646 language tag.
    public var language: String?
    /// `ASSOC-LANGUAGE`: an associated language.
    public var associatedLanguage: String?
    /// `NAME`: human-readable description; unique within the group.
    public var name: String
    /// `STABLE-RENDITION-ID`: an identifier stable across playlist versions.
    public var stableRenditionID: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool?
    /// `AUTOSELECT=YES`.
    public var autoselect: Bool?
    /// `FORCED=YES` (subtitles only).
    public var forced: Bool?
    /// `INSTREAM-ID`: CC1…CC4 or SERVICE1…SERVICE63 (closed captions only).
    public var instreamID: String?
    /// `BIT-DEPTH`: audio sample bit depth.
    public var bitDepth: Int?
    /// `SAMPLE-RATE`: audio sample rate.
    public var sampleRate: Int?
    /// `CHARACTERISTICS`: UTIs of media characteristics, comma-separated.
    public var characteristics: String?
    /// `CHANNELS`: audio channel count and layout parameters.
    public var channels: String?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A rendition.
    public init(type: String, groupID: String, name: String, uri: String? = nil) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.uri = uri
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        guard let type = try reader.enumerated("TYPE") else {
            throw AttributeError(name: "TYPE", reason: "is required", isMissing: true)
        }
        let groupID = try reader.requiredQuotedString("GROUP-ID")
        let name = try reader.requiredQuotedString("NAME")
        self.init(type: type, groupID: groupID, name: name, uri: try reader.quotedString("URI"))
        language = try reader.quotedString("LANGUAGE")
        associatedLanguage = try reader.quotedString("ASSOC-LANGUAGE")
        stableRenditionID = try reader.quotedString("STABLE-RENDITION-ID")
        isDefault = try reader.yesNo("DEFAULT")
        autoselect = try reader.yesNo("AUTOSELECT")
        forced = try reader.yesNo("FORCED")
        instreamID = try reader.quotedString("INSTREAM-ID")
        bitDepth = try reader.decimalInteger("BIT-DEPTH")
        sampleRate = try reader.decimalInteger("SAMPLE-RATE")
        characteristics = try reader.quotedString("CHARACTERISTICS")
        channels = try reader.quotedString("CHANNELS")
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.enumerated("TYPE", type)
        writer.quoted("URI", uri)
        writer.quoted("GROUP-ID", groupID)
        writer.quoted("LANGUAGE", language)
        writer.quoted("ASSOC-LANGUAGE", associatedLanguage)
        writer.quoted("NAME", name)
        writer.quoted("STABLE-RENDITION-ID", stableRenditionID)
        writer.yesNo("DEFAULT", isDefault)
        writer.yesNo("AUTOSELECT", autoselect)
        writer.yesNo("FORCED", forced)
        writer.quoted("INSTREAM-ID", instreamID)
        writer.integer("BIT-DEPTH", bitDepth)
        writer.integer("SAMPLE-RATE", sampleRate)
        writer.quoted("CHARACTERISTICS", characteristics)
        writer.quoted("CHANNELS", channels)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}
