/// An HTTP request as the origin sees it: the method, the percent-decoded path and query items,
/// and the base URL the client reached the origin at, for the absolute URIs of asset lists.
public struct OriginRequest: Sendable, Hashable {
    /// `GET`, `HEAD`, ….
    public var method: String
    /// The percent-decoded path, without the query: `/vod/movie/bob/main.m3u8`.
    public var path: String
    /// The percent-decoded query items; a later item replaces an earlier one with the same name.
    public var queryItems: [String: String]
    /// `http://host:port`, without a trailing slash.
    public var baseURL: String
    /// Why the request target could not be decoded, when it could not (answered with 400).
    var malformation: String?

    /// A request whose path and query an HTTP layer has already decoded.
    public init(method: String = "GET", path: String, queryItems: [String: String] = [:], baseURL: String) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// A request for a raw request target (`/vod/movie/bob/main.m3u8?_HLS_skip=YES`), decoded
    /// here: `%XX` escapes (a `+` stays a `+`). A target that cannot be decoded is answered with
    /// 400.
    public init(method: String = "GET", target: String, baseURL: String) {
        let path: Substring
        var query: Substring = ""
        if let question = target.firstIndex(of: "?") {
            path = target[..<question]
            query = target[target.index(after: question)...]
        } else {
            path = target[...]
        }
        self.init(method: method, path: "", baseURL: baseURL)
        if let decoded = Self.percentDecoded(path) {
            self.path = decoded
        } else {
            malformation = "the path \"\(path)\" has an invalid percent-encoding"
        }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.percentDecoded(parts[0]), let value = Self.percentDecoded(parts.count == 2 ? parts[1] : "") else {
                malformation = "the query item \"\(pair)\" has an invalid percent-encoding"
                continue
            }
            queryItems[name] = value
        }
    }

    /// `text` with `%XX` escapes decoded; `nil` for an invalid escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
