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

    private struct Range: Sendable, Hashable {
        var offset: Int
        var length: Int
    }

    /// A request for `url`, all of it or `byteRange`.
    public init(url: String, byteRange: (offset: Int, length: Int)? = nil) {
        self.url = url
        self.byteRange = byteRange
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

    /// Whether trying again may succeed: network failures, time-outs and 5xx / 429 answers.
    public var isRetryable: Bool {
        switch kind {
        case .network, .timeout: return true
        case .httpStatus: return status.map { $0 >= 500 || $0 == 429 } ?? true
        case .notFound, .unsupportedURL, .cancelled: return false
        }
    }

    /// `url: message`.
    public var description: String { "\(url): \(message)" }
}
