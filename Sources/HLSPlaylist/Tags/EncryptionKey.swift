/// An EXT-X-KEY tag (RFC 8216bis §4.4.4.4), or EXT-X-SESSION-KEY (§4.4.6.5) in a multivariant
/// playlist: how the following media segments are encrypted.
public struct EncryptionKey: Sendable, Hashable {
    /// `METHOD`: the encryption method.
    public var method: Method
    /// `URI`: where the key is obtained; required unless the method is NONE.
    public var uri: String?
    /// `IV`: the initialization vector, as a hexadecimal sequence.
    public var initializationVector: String?
    /// `KEYFORMAT`: how the key is represented (default "identity").
    public var keyFormat: String?
    /// `KEYFORMATVERSIONS`: slash-separated versions of the key format.
    public var keyFormatVersions: String?
    /// Attributes not in the specification.
    public var otherAttributes: [Attribute] = []

    /// A key.
    public init(method: Method, uri: String? = nil, initializationVector: String? = nil, keyFormat: String? = nil,
                keyFormatVersions: String? = nil) {
        self.method = method
        self.uri = uri
        self.initializationVector = initializationVector
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
    }

    /// The value of `METHOD`.
    public struct Method: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The method as written.
        public var rawValue: String
        /// Creates a method.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Not encrypted.
        public static let none = Method(rawValue: "NONE")
        /// Whole-segment AES-128 CBC.
        public static let aes128 = Method(rawValue: "AES-128")
        /// Sample-level encryption.
        public static let sampleAES = Method(rawValue: "SAMPLE-AES")
        /// Sample-level AES CTR (fragmented MP4 only).
        public static let sampleAESCTR = Method(rawValue: "SAMPLE-AES-CTR")
        /// Whether this is one of the specification's methods.
        public var isKnown: Bool { [.none, .aes128, .sampleAES, .sampleAESCTR].contains(self) }
        /// The method.
        public var description: String { rawValue }
    }

    /// Reads the tag's attribute list.
    public init(attributes: [Attribute]) throws(AttributeError) {
        var reader = AttributeReader(attributes)
        guard let method = try reader.enumerated("METHOD") else {
            throw AttributeError(name: "METHOD", reason: "is required", isMissing: true)
        }
        self.init(method: Method(rawValue: method))
        uri = try reader.quotedString("URI")
        initializationVector = try reader.hexadecimal("IV")
        keyFormat = try reader.quotedString("KEYFORMAT")
        keyFormatVersions = try reader.quotedString("KEYFORMATVERSIONS")
        otherAttributes = reader.unconsumed
    }

    /// The attribute list in canonical order.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.enumerated("METHOD", method.rawValue)
        writer.quoted("URI", uri)
        writer.hexadecimal("IV", initializationVector)
        writer.quoted("KEYFORMAT", keyFormat)
        writer.quoted("KEYFORMATVERSIONS", keyFormatVersions)
        writer.append(contentsOf: otherAttributes)
        return writer.attributes
    }
}
