/// An HTTP request as the origin sees it: the method, the request target (path and query, still
/// percent-encoded) and the base URL the client reached the origin at, for the absolute URIs of
/// asset lists.
public struct OriginRequest: Sendable, Hashable {
    /// `GET`, `HEAD`, ….
    public var method: String
    /// The request target: `/vod/movie/bob/main.m3u8?_HLS_skip=YES`.
    public var target: String
    /// `http://host:port`, without a trailing slash.
    public var baseURL: String

    /// A request.
    public init(method: String = "GET", target: String, baseURL: String) {
        self.method = method
        self.target = target
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }
}
