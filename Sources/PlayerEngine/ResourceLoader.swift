import MediaTime

/// Where the engine gets playlists, asset lists and segments from: real HTTP in production, files
/// or memory (optionally throttled, on virtual time) in tests and simulations.
public protocol ResourceLoader: Sendable {
    /// Loads one resource.
    ///
    /// - Throws: ``LoadError`` saying what failed and whether a retry may help.
    func load(_ request: ResourceRequest) async throws(LoadError) -> LoadedResource
}

/// A request for a resource, optionally a byte range of it (EXT-X-BYTERANGE, EXT-X-MAP BYTERANGE).
public struct ResourceRequest: Sendable, Hashable {
    /// The absolute URL.
    public var url: String
    /// The first byte and the number of bytes, when only part is wanted.
    public var byteRange: (offset: Int, length: Int)? {
        get { range.map { ($0.offset, $0.length) } }
        set { range = newValue.map { Range(offset: $0.offset, length: $0.length) } }
    }
    private var range: Range?
    /// The most bytes the response may hold; a longer one fails with ``LoadError/Kind/tooLarge``
    /// as soon as the limit is passed, before the rest is read. `nil`: the loader's own limit.
    /// Not part of the request's identity (two requests for the same bytes are equal).
    public var maxBytes: Int?

    private struct Range: Sendable, Hashable {
        var offset: Int
        var length: Int
    }

    /// A request for `url`, all of it or `byteRange`, of at most `maxBytes`.
    public init(url: String, byteRange: (offset: Int, length: Int)? = nil, maxBytes: Int? = nil) {
        self.url = url
        self.byteRange = byteRange
        self.maxBytes = maxBytes
    }

    public static func == (lhs: ResourceRequest, rhs: ResourceRequest) -> Bool { lhs.url == rhs.url && lhs.range == rhs.range }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(range)
    }

    /// The `Range` header value, `bytes=first-last`, when a range is asked for.
    public var rangeHeader: String? {
        byteRange.map { "bytes=\($0.offset)-\($0.offset + $0.length - 1)" }
    }
}

/// A loaded resource and what loading it cost.
public struct LoadedResource: Sendable, Hashable {
    /// The bytes.
    public var bytes: [UInt8]
    /// The URL the bytes came from, after redirects: relative references resolve against it.
    public var url: String
    /// How long the load took, first byte requested to last byte received.
    public var elapsed: Duration

    /// A loaded resource.
    public init(bytes: [UInt8], url: String, elapsed: Duration) {
        self.bytes = bytes
        self.url = url
        self.elapsed = elapsed
    }

    /// The measured throughput in bits per second; `nil` when the load took no measurable time.
    public var bitsPerSecond: Double? {
        let (seconds, attoseconds) = elapsed.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        guard total > 0 else { return nil }
        return Double(bytes.count * 8) / total
    }
}

/// Why a load failed.
public struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: String, Sendable, Hashable {
        /// No connection, reset, DNS failure.
        case network
        /// The server answered with an error status.
        case httpStatus
        /// The resource does not exist (HTTP 404 or 410, or no such file).
        case notFound
        /// No answer in time.
        case timeout
        /// The URL cannot be loaded by this loader.
        case unsupportedURL
        /// The load was cancelled.
        case cancelled
        /// The response held more than the request's ``ResourceRequest/maxBytes``.
        case tooLarge
        /// The bytes arrived but are not what the resource must be (an init section that is not
        /// one).
        case unreadable
    }

    /// What failed.
    public var kind: Kind
    /// The URL.
    public var url: String
    /// The HTTP status, for ``Kind/httpStatus`` and ``Kind/notFound`` over HTTP.
    public var status: Int?
    /// What went wrong, in words.
    public var message: String

    /// A load error.
    public init(kind: Kind, url: String, status: Int? = nil, message: String) {
        self.kind = kind
        self.url = url
        self.status = status
        self.message = message
    }

    /// Whether trying again may succeed: network failures, time-outs, 5xx / 429 answers and
    /// unreadable content (a server may be mid-deploy).
    public var isRetryable: Bool {
        switch kind {
        case .network, .timeout, .unreadable: return true
        case .httpStatus: return status.map { $0 >= 500 || $0 == 429 } ?? true
        case .notFound, .unsupportedURL, .cancelled, .tooLarge: return false
        }
    }

    /// The error for a response that passed `limit` bytes.
    public static func tooLarge(_ url: String, limit: Int) -> LoadError {
        LoadError(kind: .tooLarge, url: url, message: "the response is larger than the limit of \(ByteCount(limit)) (raise it with the player's size limits)")
    }

    /// `url: message`.
    public var description: String { "\(url): \(message)" }
}

/// A number of bytes for people: `16 MiB`, `1,500 bytes`.
public struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    public var bytes: Int

    public init(_ bytes: Int) { self.bytes = bytes }

    public var description: String {
        let units: [(Int, String)] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, name) in units where bytes >= size && bytes % size == 0 { return "\(bytes / size) \(name)" }
        for (size, name) in units where bytes >= size {
            return "\((Double(bytes) / Double(size) * 10).rounded() / 10) \(name)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
