/// Where a Redis server listens: `redis://HOST:PORT` (TCP; the port defaults to 6379).
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int

    /// An endpoint.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `redis://HOST[:PORT]` (an IPv6 address in brackets); nothing after the port.
    public init(url: String) throws(RedisError) {
        guard url.hasPrefix("redis://") else { throw .badURL(url, reason: "it does not start with redis://") }
        var rest = Substring(url.dropFirst("redis://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty else { throw .badURL(url, reason: "no host") }
        guard !rest.contains("/"), !rest.contains("@"), !rest.contains("?") else {
            throw .badURL(url, reason: "databases, passwords and options are not supported")
        }
        var host: Substring
        var port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .badURL(url, reason: "an unclosed [") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badURL(url, reason: "text after the address") }
                port = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw .badURL(url, reason: "no host") }
        var number = 6379
        if let port {
            guard let value = Int(port), (1...65535).contains(value) else { throw .badURL(url, reason: "the port \(port) is not a number from 1 to 65535") }
            number = value
        }
        self.init(host: String(host), port: number)
    }

    public var description: String { host.contains(":") ? "redis://[\(host)]:\(port)" : "redis://\(host):\(port)" }
}
