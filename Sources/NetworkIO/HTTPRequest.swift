/// An HTTP request as a handler sees it: everything is copied out of libwebsockets, so a request
/// is a plain value that outlives the connection it came from.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query, for example `/vod/main/viewer-1/main.m3u8`.
    public var path: String
    /// The query items in the order they appeared, split at `&` and `=` and then decoded as
    /// HTML forms encode them (`%XX` escapes, and `+` for a space), which is what libwebsockets does.
    public var queryItems: [HTTPQueryItem]
    /// The request header fields that libwebsockets parses (the common HTTP/1.1 and CORS
    /// fields; libwebsockets 4.1 drops fields it does not know).
    public var headers: HTTPHeaders
    /// The values a route's `:name` path segments (and `*name` tail) matched.
    public var pathParameters: [String: String]
    /// The request body (empty for requests without one).
    public var body: [UInt8]
    /// The peer's IP address, for example `127.0.0.1`.
    public var remoteAddress: String

    /// A request, as tests and in-process callers build them.
    public init(
        method: HTTPMethod = .get,
        path: String,
        queryItems: [HTTPQueryItem] = [],
        headers: HTTPHeaders = [:],
        pathParameters: [String: String] = [:],
        body: [UInt8] = [],
        remoteAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.pathParameters = pathParameters
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The value of the first query item named `name` (`nil` when absent; `""` for `?name`). O(n).
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}

/// One `name=value` pair of a query string.
public struct HTTPQueryItem: Sendable, Hashable {
    /// The decoded name.
    public var name: String
    /// The decoded value; `""` for an item without `=`.
    public var value: String

    /// An item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Splits a raw query string (the part after `?`) at `&` and `=` before decoding, so an
    /// encoded `%26` or `%3D` stays inside its value; `+` decodes to a space, as the server's
    /// parser does. Empty items are skipped. O(n).
    public static func parse(query: some StringProtocol) -> [HTTPQueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: "=") {
                return HTTPQueryItem(
                    name: PercentEncoding.decode(item[..<equals], plusIsSpace: true),
                    value: PercentEncoding.decode(item[item.index(after: equals)...], plusIsSpace: true)
                )
            }
            return HTTPQueryItem(name: PercentEncoding.decode(item, plusIsSpace: true), value: "")
        }
    }
}

/// Percent-decoding (RFC 3986 §2.1). Malformed escapes are kept literally.
enum PercentEncoding {
    /// The decoded text; with `plusIsSpace`, `+` decodes to a space (HTML form encoding).
    /// Invalid UTF-8 after decoding is repaired with U+FFFD. O(n).
    static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String {
        let hasPlus = plusIsSpace && text.utf8.contains(UInt8(ascii: "+"))
        guard hasPlus || text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                continue
            }
            pending = [byte]
            guard let high = iterator.next() else { break }
            pending.append(high)
            guard let low = iterator.next() else { break }
            pending.append(low)
            if let h = hexValue(high), let l = hexValue(low) {
                bytes.append(h << 4 | l)
            } else {
                bytes.append(contentsOf: pending)
            }
            pending = []
        }
        bytes.append(contentsOf: pending)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension HTTPRequest {
    /// The `Origin` a browser sent, when it is neither one of `allowed` nor the server's own (the
    /// request's `Host` over `http` or `https`); `nil` for a native client, which sends none, and
    /// for an allowed page. What a WebSocket admission refuses.
    public func foreignOrigin(allowing allowed: Set<String>) -> String? {
        guard let origin = headers["Origin"], !allowed.contains(origin) else { return nil }
        if let host = headers["Host"], origin == "http://\(host)" || origin == "https://\(host)" { return nil }
        return origin
    }
}
