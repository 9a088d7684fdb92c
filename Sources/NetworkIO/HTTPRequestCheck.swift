/// The checks a request passes before it is routed, and the answer to one that fails them:
/// what libwebsockets parses but does not judge (the version, `Host`, the decoded path, sizes),
/// and what it cannot parse at all.
///
/// Each failure is a JSON error response (``HTTPResponse/error(_:message:headers:)``) sent with
/// `Connection: close`, so a client never reads libwebsockets' own HTML page or a silent close.
struct HTTPRequestCheck {
    /// The most bytes of request target accepted (RFC 9112 §3 recommends at least 8,000).
    static let maximumTargetBytes = 8 * 1024
    /// The most bytes of header values accepted, for the fields libwebsockets keeps.
    static let maximumHeaderBytes = 16 * 1024

    /// Why a request is refused: a status and the message of its JSON body.
    struct Refusal: Equatable, Sendable {
        var status: HTTPStatus
        var message: String

        var response: HTTPResponse { .error(status, message: message) }
    }

    /// The request line's version, exactly as sent (`HTTP/1.1`), or `nil` when it had none.
    var version: String?
    /// Every `Host` field line's value, in order.
    var hosts: [String]
    /// The path after percent-decoding, as raw bytes.
    var pathBytes: [UInt8]
    /// The length of the request target before decoding, when known.
    var targetBytes: Int
    /// The total length of the header values libwebsockets kept.
    var headerBytes: Int

    /// The first check the request fails, or `nil` when it passes them all.
    var refusal: Refusal? {
        if targetBytes > Self.maximumTargetBytes {
            return Refusal(status: .uriTooLong, message: "the request target exceeds \(Self.maximumTargetBytes) bytes")
        }
        if headerBytes > Self.maximumHeaderBytes {
            return Refusal(status: .requestHeaderFieldsTooLarge, message: "the header fields exceed \(Self.maximumHeaderBytes) bytes")
        }
        if pathBytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return Refusal(status: .badRequest, message: "the path holds a control character")
        }
        switch version {
        case "HTTP/1.1", "HTTP/1.0":
            break
        case nil:
            return Refusal(status: .badRequest, message: "the request line has no HTTP version")
        case let version? where Self.isWellFormedVersion(version):
            return Refusal(status: .httpVersionNotSupported, message: "only HTTP/1.1 and HTTP/1.0 are served")
        default:
            return Refusal(status: .badRequest, message: "the request line's HTTP version is malformed")
        }
        switch hosts.count {
        case 0 where version == "HTTP/1.1":
            return Refusal(status: .badRequest, message: "an HTTP/1.1 request needs a Host header")
        case 0, 1:
            break
        default:
            return Refusal(status: .badRequest, message: "the request has more than one Host header")
        }
        if let host = hosts.first, !Self.isValidHost(host) {
            return Refusal(status: .badRequest, message: "the Host header is not a host and optional port")
        }
        return nil
    }

    /// The answer to `CONNECT`: this server is no proxy, and the connection closes rather than
    /// waiting for a tunnel.
    static let connectRefusal = Refusal(status: .badRequest, message: "CONNECT is not served: this server is not a proxy")

    /// `HTTP/` DIGIT `.` DIGIT (RFC 9112 §2.3).
    static func isWellFormedVersion(_ version: String) -> Bool {
        let bytes = Array(version.utf8)
        return bytes.count == 8 && bytes[..<5].elementsEqual("HTTP/".utf8)
            && isDigit(bytes[5]) && bytes[6] == UInt8(ascii: ".") && isDigit(bytes[7])
    }

    /// `uri-host [ ":" port ]` (RFC 9110 §7.2), with the host an IP literal in brackets, or
    /// a name of letters, digits, `-`, `.`, `_` and `~` (RFC 3986's unreserved characters; the
    /// sub-delimiters and percent-encoding a reg-name may also hold are refused, since the value
    /// ends up in URLs the server builds).
    static func isValidHost(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                return false
            }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            let name = bytes[..<end]
            guard !name.isEmpty, name.allSatisfy(isNameCharacter) else { return false }
            bytes = bytes[end...]
        }
        guard let colon = bytes.first else { return true }
        guard colon == UInt8(ascii: ":") else { return false }
        let port = bytes.dropFirst()
        return port.count <= 5 && port.allSatisfy(isDigit)
    }

    /// The answer to bytes that are not an HTTP/1 request libwebsockets could parse: `501` for a
    /// well-formed request line with a method it does not know (RFC 9110 §9.1), `400` for
    /// anything else (garbage, a TLS hello, the HTTP/2 preface, `CONNECT`).
    static func refusalForUnparsable(_ bytes: some Collection<UInt8>) -> (method: String?, refusal: Refusal) {
        let line = bytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let isRequestLine = line.count < bytes.count && parts.count == 3 && !parts[0].isEmpty
            && parts[0].allSatisfy(isTokenCharacter) && !parts[1].isEmpty
            && (parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8))
        guard isRequestLine else {
            return (nil, Refusal(status: .badRequest, message: "the request is not HTTP/1.1"))
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        if method == "CONNECT" { return (method, connectRefusal) }
        return (method, Refusal(status: .notImplemented, message: "the method \(method) is not implemented"))
    }

    /// What the gate makes of the bytes waiting on a new connection (`LoopDriver+Gate`).
    enum GateVerdict: Equatable {
        /// The head is complete and its request line passed: the gate has nothing more to do.
        case pass
        /// Not enough is known yet.
        case undecided
        case refuse(Refusal)
    }

    /// The most bytes of head the gate waits for before it refuses with 431: a head within
    /// the limits is smaller, and lws's header table (60 KiB) would close the connection silently.
    static let maximumGateHeadBytes = maximumTargetBytes + maximumHeaderBytes + 1024

    /// Judges `bytes` that wait unread on a connection. On the first read they start a request
    /// line: its target must be in origin form (`*` for `OPTIONS`), every `%` followed by two hex
    /// digits and none of them a control character (lws would decode `%00` into a truncated
    /// path, `%0a` into a line feed that ends its request line), and the line must end within
    /// the target limit. On every read, a head over `maximumGateHeadBytes` is refused. Only
    /// request lines with a method lws knows are judged; others go to lws's fallback
    /// (`refusalForUnparsable`). O(n) in the bytes.
    ///
    /// `knownFieldNames` are the lower-case field names lws's lexer knows, each with its colon:
    /// lws 4.1 never finishes a head with a field whose name is a proper prefix of one of them
    /// (`Hos:`, `Conn:`) and closes the connection silently seconds later, so such a head is
    /// refused at once.
    static func verdict(onPeek bytes: [UInt8], isFirstRead: Bool, knownFieldNames: Set<String> = []) -> GateVerdict {
        let isHeadComplete = bytes.indices.contains { index in
            bytes[index] == 0x0A && (index >= 1 && bytes[index - 1] == 0x0A || index >= 3 && bytes[(index - 3)...index].elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]))
        }
        if isFirstRead, let method = knownMethod(in: bytes) {
            if method == "CONNECT" { return .refuse(connectRefusal) }
            let lineEnd = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
            let rest = bytes[(method.utf8.count + 1)..<lineEnd]
            let targetEnd = rest.firstIndex(of: UInt8(ascii: " ")) ?? rest.endIndex
            let isTargetComplete = targetEnd < rest.endIndex || lineEnd < bytes.endIndex
            if let refusal = targetRefusal(Array(rest[..<targetEnd]), isComplete: isTargetComplete, method: method) {
                return .refuse(refusal)
            }
            if lineEnd == bytes.endIndex, bytes.count > maximumTargetBytes + 1024 {
                return .refuse(Refusal(status: .uriTooLong, message: "the request target exceeds \(maximumTargetBytes) bytes"))
            }
        }
        if isHeadComplete {
            if isFirstRead, let name = fieldNames(in: bytes).first(where: { isTruncatedFieldName($0, knownFieldNames) }) {
                return .refuse(Refusal(status: .badRequest, message: "the header field name \(name) cannot be read; it is the start of another"))
            }
            return .pass
        }
        if bytes.count > maximumGateHeadBytes {
            return .refuse(Refusal(status: .requestHeaderFieldsTooLarge, message: "the header fields exceed \(maximumHeaderBytes) bytes"))
        }
        return .undecided
    }

    /// The field names of the head that starts `bytes`, lower-cased, as far as it is there.
    private static func fieldNames(in bytes: [UInt8]) -> [String] {
        var names: [String] = []
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropFirst()
        while let line = lines.first, line.first != 0x0D, !line.isEmpty {
            lines = lines.dropFirst()
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            names.append(String(decoding: line[..<colon], as: UTF8.self).lowercased())
        }
        return names
    }

    private static func isTruncatedFieldName(_ name: String, _ known: Set<String>) -> Bool {
        !name.isEmpty && !known.contains(name + ":") && known.contains { $0.hasPrefix(name) }
    }

    /// The method of a request line that starts `bytes`, when it is one lws parses.
    static func knownMethod(in bytes: [UInt8]) -> String? {
        for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT"] {
            let prefix = Array(method.utf8) + [UInt8(ascii: " ")]
            if bytes.starts(with: prefix) { return method }
        }
        return nil
    }

    private static func targetRefusal(_ target: [UInt8], isComplete: Bool, method: String) -> Refusal? {
        guard let first = target.first else { return nil }
        if first != UInt8(ascii: "/") {
            let isAsterisk = first == UInt8(ascii: "*") && (target.count == 1 || !isComplete) && method == "OPTIONS"
            if !isAsterisk {
                return Refusal(status: .badRequest, message: "the request target must be a path starting with /")
            }
        }
        var index = 0
        while index < target.count {
            defer { index += 1 }
            guard target[index] == UInt8(ascii: "%") else { continue }
            let digits = target[(index + 1)..<min(index + 3, target.count)]
            if digits.count < 2, !isComplete { return nil }
            guard digits.count == 2, digits.allSatisfy(isHexDigit) else {
                return Refusal(status: .badRequest, message: "the request target has a malformed percent escape")
            }
            let value = hexValue(digits[digits.startIndex]) << 4 | hexValue(digits[digits.startIndex + 1])
            if value < 0x20 || value == 0x7F {
                return Refusal(status: .badRequest, message: "the path holds a control character")
            }
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        isDigit(byte) ? byte - 0x30 : (byte | 0x20) - 0x61 + 10
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// `tchar` (RFC 9110 §5.6.2).
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}
