/// An HTTP response a handler returns. The server adds `Content-Length`, `Date`, the CORS
/// headers and, for file bodies, `Accept-Ranges` / `Content-Range`; a handler sets the rest.
public struct HTTPResponse: Sendable {
    /// Where the body's bytes come from.
    public enum Body: Sendable, Equatable {
        /// No body.
        case empty
        /// Bytes in memory, sent without a further copy when they are large.
        case bytes([UInt8])
        /// A regular file, read straight into the send buffer chunk by chunk, so memory stays
        /// flat whatever its size. Byte ranges (RFC 9110 §14) are honoured for file bodies.
        /// A missing or unreadable file turns the response into a 404.
        case file(path: String)
    }

    /// The status.
    public var status: HTTPStatus
    /// The header fields; `Content-Type` is taken from the file extension for file bodies
    /// unless set here.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// A response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `bytes`.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A response whose body is the UTF-8 of `text` (`text/plain; charset=utf-8` unless a
    /// `Content-Type` is given).
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body text: String) {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "text/plain; charset=utf-8" }
        self.init(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// A JSON response from already-encoded JSON text.
    public static func json(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = MediaType.json
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// The JSON error body every error response carries:
    /// `{"error":{"status":404,"reason":"Not Found","message":"..."}}`.
    public static func error(_ status: HTTPStatus, message: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        let text = #"{"error":{"status":\#(status.code),"reason":"\#(JSONText.escape(status.reasonPhrase))","#
            + #""message":"\#(JSONText.escape(message))"}}"#
        return json(text, status: status, headers: headers)
    }
}

/// An error a handler throws to answer with a JSON error response of the given status,
/// for example `throw HTTPError(.badRequest, "break index must be a number")`.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// The human-readable message placed in the JSON body.
    public var message: String
    /// Extra header fields for the response.
    public var headers: HTTPHeaders

    /// An error answered with `status` and `message`.
    public init(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The response the server sends for this error.
    public var response: HTTPResponse { .error(status, message: message, headers: headers) }

    /// For example `404 Not Found: no stream "x"`.
    public var description: String { "\(status): \(message)" }
}

/// JSON string escaping (RFC 8259 §7), enough to build small error bodies without Foundation.
package enum JSONText {
    /// `text` with quotes, backslashes and control characters escaped. O(n).
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
