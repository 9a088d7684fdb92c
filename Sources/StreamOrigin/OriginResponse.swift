/// What the origin answers: a status, headers (Content-Type first) and a body. For a HEAD request
/// the body is the one GET would return; the HTTP layer sends only its length.
public struct OriginResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields in order.
    public var headers: [Header]
    /// The body.
    public var body: [UInt8]

    /// One header field.
    public struct Header: Sendable, Hashable {
        /// The field name.
        public var name: String
        /// The field value.
        public var value: String

        /// A header field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A response.
    public init(status: Int, headers: [Header], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// `Content-Type`.
    public var contentType: String? { header("Content-Type") }

    /// The media type of HLS playlists (RFC 8216bis §4).
    public static let playlistContentType = "application/vnd.apple.mpegurl"
    /// The media type of MPEG-2 transport stream segments.
    public static let transportStreamContentType = "video/mp2t"
    /// The media type of JSON bodies (asset lists, errors, the index).
    public static let jsonContentType = "application/json"
}
