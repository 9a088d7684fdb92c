/// An EXT-X-MAP tag (RFC 8216bis §4.4.4.5): the Media Initialization Section (for example an fMP4
/// `init.mp4`) that the following segments need.
public struct MediaInitializationSection: Sendable, Hashable {
    /// `URI`: where the section is.
    public var uri: String
    /// `BYTERANGE`: the part of the resource that holds it.
    public var byteRange: ByteRange?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A map.
    public init(uri: String, byteRange: ByteRange? = nil) {
        self.uri = uri
        self.byteRange = byteRange
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        self.init(uri: try reader.requiredQuotedString("URI"), byteRange: try reader.byteRange("BYTERANGE"))
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.quoted("URI", uri)
        writer.quoted("BYTERANGE", byteRange?.playlistText)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}
